//! A definition with its plan, opened for answering requests whose time is bounded (the
//! HTTP service): solves a scramble within a deadline and makes random-state scrambles,
//! every answer checked by applying it. Only solvers that answer in bounded time are
//! served: an exact table (any state, optimal) or a plan's phases (any state, within
//! the deadline); IDA* over pattern databases alone can take hours on a deep state and
//! is left to the command line.

use super::exact::ExactError;
use super::phased::{Limits, PhasedError, Plan};
use super::puzzle::PermPuzzle;
use super::site::TableSite;
use super::solver::{
    accept_plan_names, compile_plan, compile_puzzle, load_puzzle, plan_for, DefinitionFileError,
    PuzzleEngine, PuzzleSolver,
};
use super::PuzzleMetric;
use crate::limits::Stop;
use crate::progress::Progress;
use crate::rng::SplitMix64;
use crate::table::TableStore;
use std::path::Path;

/// Why a served puzzle cannot answer.
#[derive(Debug, thiserror::Error)]
pub enum ServedError {
    /// The definition or its plan is unreadable or invalid.
    #[error(transparent)]
    Definition(#[from] DefinitionFileError),
    /// Its tables cannot be opened or built.
    #[error(transparent)]
    Tables(#[from] ExactError),
    /// Neither an exact table nor a plan: answers could take unbounded time.
    #[error(
        "{0} has no exact table within the memory allowed and no plan beside it: the service \
         answers only puzzles it can solve within its deadline (use `cubedb puzzle solve`)"
    )]
    Unbounded(String),
    /// The scramble does not parse.
    #[error("scramble: {0}")]
    Scramble(String),
    /// The state cannot be reached by the puzzle's moves.
    #[error("not reachable with the puzzle's moves")]
    Unreachable,
    /// No answer in the time allowed.
    #[error("no solution within the time allowed")]
    TimedOut,
    /// The search was cancelled (the service is stopping).
    #[error("cancelled")]
    Cancelled,
    /// Something that must not happen (an answer that does not check out).
    #[error("internal error: {0}")]
    Internal(String),
}

/// One solved scramble.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServedSolution {
    /// The moves, named as the definition (or its plan) names them.
    pub solution: String,
    /// Its length (the plan's costs for a phased solution).
    pub length: usize,
    /// Whether it is a shortest solution (exact tables).
    pub optimal: bool,
    /// Whether it is at most the `max_length` asked (always, when none was asked).
    pub within_max_length: bool,
}

/// A definition opened for serving.
pub struct ServedPuzzle {
    puzzle: PermPuzzle,
    solver: PuzzleSolver,
}

impl ServedPuzzle {
    /// Opens the definition at `path` with the plan beside it (building missing tables
    /// into `store` within `budget_mb`): an exact table when one fits, else the plan.
    pub fn open(
        path: &Path,
        store: &TableStore,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ServedError> {
        let puzzle = load_puzzle(path, PuzzleMetric::Htm, None)?;
        let plan = plan_for(path, None, false, &puzzle)?;
        Self::with_plan(
            puzzle,
            plan,
            &path.display().to_string(),
            store,
            budget_mb,
            progress,
        )
    }

    /// Opens a definition given as text (`shown` names it in messages), with the plan
    /// `plan` (text) when given: the built-in puzzles of the events.
    pub fn from_text(
        shown: &str,
        definition: &str,
        plan: Option<&str>,
        store: &TableStore,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ServedError> {
        let puzzle = compile_puzzle(definition, shown, PuzzleMetric::Htm, None)?;
        let plan = plan
            .map(|text| compile_plan(text, &format!("{shown} (plan)"), &puzzle))
            .transpose()?;
        Self::with_plan(puzzle, plan, shown, store, budget_mb, progress)
    }

    /// Opens `puzzle` with `plan`: an exact table when one fits, else the plan.
    fn with_plan(
        mut puzzle: PermPuzzle,
        plan: Option<Plan>,
        source: &str,
        store: &TableStore,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ServedError> {
        if let Some(plan) = &plan {
            accept_plan_names(&mut puzzle, plan);
        }
        let source = source.to_string();
        let has_plan = plan.is_some();
        let open = || {
            PuzzleSolver::open_with_plan(
                &puzzle,
                plan,
                &TableSite::new(store, &source, budget_mb, progress),
                if has_plan {
                    PuzzleEngine::Auto
                } else {
                    PuzzleEngine::Table
                },
            )
        };
        // A planned puzzle's scrambles draw from its group.
        let opened = if has_plan {
            super::group::while_preparing_random_states(&puzzle, open)
        } else {
            open()
        };
        let solver = match opened {
            Ok(solver) => solver,
            // Neither a table nor a plan: the stabilizer chain, which answers any state
            // at once (long solutions).
            Err(ExactError::Unsupported(_) | ExactError::TooBig { .. }) if !has_plan => {
                use super::chain::{ChainError, ChainSolver};
                match ChainSolver::open(&puzzle, store, &source, progress) {
                    Ok(chain) => PuzzleSolver::Chain(Box::new(chain)),
                    Err(e @ (ChainError::Table(_) | ChainError::Damaged { .. })) => {
                        return Err(ExactError::Chain(e.to_string()).into())
                    }
                    Err(_) => return Err(ServedError::Unbounded(puzzle.name.clone())),
                }
            }
            Err(e) => return Err(e.into()),
        };
        Ok(Self { puzzle, solver })
    }

    /// The definition, compiled.
    pub fn puzzle(&self) -> &PermPuzzle {
        &self.puzzle
    }

    /// The definition's name.
    pub fn name(&self) -> &str {
        &self.puzzle.name
    }

    /// How it answers: "exact table", "plan NAME" or "stabilizer chain".
    pub fn method(&self) -> String {
        match &self.solver {
            PuzzleSolver::Phased(phased) => format!("plan {}", phased.plan().name),
            PuzzleSolver::Chain(_) => "stabilizer chain".into(),
            _ => "exact table".into(),
        }
    }

    /// Solves the state `scramble` reaches: optimal from an exact table, else by the
    /// plan's phases within `stop` (stopping at the first total of at most `max_length`
    /// when given, else returning the best of the first pass). Checked by applying it.
    pub fn solve(
        &self,
        scramble: &str,
        max_length: Option<usize>,
        stop: Stop,
    ) -> Result<ServedSolution, ServedError> {
        let state = self
            .puzzle
            .scrambled(scramble)
            .map_err(|e| ServedError::Scramble(e.to_string()))?;
        let (moves, length, optimal) = match &self.solver {
            PuzzleSolver::Phased(phased) => {
                let limits = Limits {
                    max_length,
                    stop,
                    until_stop: false,
                };
                let solution = phased.solve(&state, &limits).map_err(|e| match e {
                    PhasedError::Unreachable => ServedError::Unreachable,
                    PhasedError::TimedOut => ServedError::TimedOut,
                    PhasedError::Cancelled => ServedError::Cancelled,
                    other => ServedError::Internal(other.to_string()),
                })?;
                (solution.moves, solution.cost, false)
            }
            solver => {
                let moves = solver
                    .solve(&state, usize::MAX)
                    .map_err(|_| ServedError::Unreachable)?;
                let length = moves.len();
                (moves, length, solver.chain().is_none())
            }
        };
        let solution = self.solver.format(&self.puzzle, &moves);
        let end = self
            .puzzle
            .scrambled(&format!("{scramble} {solution}"))
            .map_err(|e| ServedError::Internal(format!("its own solution: {e}")))?;
        if !self.puzzle.is_solved(&end) {
            return Err(ServedError::Internal(
                "a solution that does not solve".into(),
            ));
        }
        Ok(ServedSolution {
            solution,
            length,
            optimal,
            within_max_length: max_length.is_none_or(|limit| length <= limit),
        })
    }

    /// Scramble `index` (from 0) of the random states `seed` draws: uniformly random over
    /// the states the moves reach, solved and inverted; checked to reach its state. The
    /// same seed and index give the same scramble. `stop` bounds a phased solve (the best
    /// found by then is used).
    pub fn scramble(&self, seed: u64, index: u64, stop: Stop) -> Result<String, ServedError> {
        match &self.solver {
            PuzzleSolver::Phased(phased) => phased
                .checked_random_scramble(seed, index, stop, |text| self.puzzle.scrambled(text).ok())
                .map_err(|e| match e {
                    PhasedError::TimedOut => ServedError::TimedOut,
                    PhasedError::Cancelled => ServedError::Cancelled,
                    other => ServedError::Internal(other.to_string()),
                }),
            PuzzleSolver::Chain(chain) => {
                chain.random_scramble_text(seed, index).ok_or_else(|| {
                    ServedError::Internal("a scramble that does not reach its state".into())
                })
            }
            _ => Ok(self.puzzle.format_path(&self.table_scramble(seed, index)?)),
        }
    }

    /// Scramble `index` of the random states `seed` draws, as move numbers, from the
    /// puzzle's exact table (see [`ServedPuzzle::scramble`]; an error for a phased one).
    pub fn table_scramble(&self, seed: u64, index: u64) -> Result<Vec<usize>, ServedError> {
        let table = self
            .solver
            .exact()
            .ok_or_else(|| ServedError::Internal("no exact table".into()))?;
        let mut rng = SplitMix64::stream(seed, index);
        table
            .random_scramble(&mut rng)
            .ok_or_else(|| ServedError::Internal("no scramble reaching a random position".into()))
    }
}
