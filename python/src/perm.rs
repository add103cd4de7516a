//! `cubedb.Puzzle`: any permutation puzzle from a `.tws` definition file, through the
//! library's one face (`PuzzleSolver`): God's algorithm, optimal solutions, scrambles.

use crate::args::{optional_whole, strings};
use crate::{cube_error, interrupt, store, table_error};
use cubedb::limits::{choice, WholeRange};
use cubedb::progress::Progress;
use cubedb::puzzles::perm::chain::ChainSolver;
use cubedb::puzzles::perm::phased::Plan;
use cubedb::puzzles::perm::solver::{accept_plan_names, load_plan, plan_beside};
use cubedb::puzzles::perm::target::{retarget, Retarget};
use cubedb::puzzles::perm::{
    load_puzzle, parse_target, DefinitionFileError, ExactError, PermPuzzle, PuzzleEngine,
    PuzzleMetric, PuzzleSolver, TableSite,
};
use cubedb::rng::SplitMix64;
use pyo3::exceptions::{PyMemoryError, PyOSError};
use pyo3::prelude::*;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

/// Memory tables may take, in MB (as the CLI's --memory default).
const BUDGET_MB: u64 = cubedb::puzzles::perm::DEFAULT_BUDGET_MB;

/// The deepest IDA* looks unless told otherwise (as the CLI's --max-depth default).
const MAX_DEPTH: u64 = 30;

/// `max_depth` as given (an int in [`WholeRange::SEARCH_DEPTH`]), else the default.
fn max_depth_arg(value: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    Ok(optional_whole("max_depth", WholeRange::SEARCH_DEPTH, value)?.unwrap_or(MAX_DEPTH) as usize)
}

/// A puzzle read from a twsearch `.tws` definition; its tables are built on first use
/// (in the same folder as every cubedb table) and memory-mapped.
#[pyclass(module = "cubedb", frozen)]
pub struct Puzzle {
    puzzle: PermPuzzle,
    /// With a target: the puzzle whose solved state it is, and how states map into it.
    target: Option<(PermPuzzle, Retarget)>,
    source: String,
    /// The phase plan that solves it from any state (beside the definition, or named).
    plan: Option<Plan>,
    /// Which solver answers (see [`Puzzle::from_file`]'s `engine`).
    engine: PuzzleEngine,
    solver: OnceLock<PuzzleSolver>,
}

fn exact_error(e: ExactError) -> PyErr {
    match e {
        ExactError::Table(e) => table_error(e),
        ExactError::TooBig { .. } | ExactError::PdbsTooBig { .. } | ExactError::BuildTooBig(_) => {
            PyMemoryError::new_err(e.to_string())
        }
        ExactError::Unsupported(_)
        | ExactError::NoPatternDatabases(_)
        | ExactError::NoPlan { .. }
        | ExactError::Chain(_) => cube_error(e.to_string()),
    }
}

impl Puzzle {
    fn solver(&self, py: Python<'_>) -> PyResult<&PuzzleSolver> {
        if let Some(solver) = self.solver.get() {
            return Ok(solver);
        }
        let opened = py
            .detach(|| {
                PuzzleSolver::open_with_plan(
                    self.target.as_ref().map_or(&self.puzzle, |(p, _)| p),
                    self.plan.clone(),
                    &TableSite::new(&store(), &self.source, BUDGET_MB, &Progress::stderr(false)),
                    self.engine,
                )
            })
            .map_err(exact_error)?;
        Ok(self.solver.get_or_init(|| opened))
    }

    fn solve_text(
        &self,
        solver: &PuzzleSolver,
        scramble: &str,
        max_depth: usize,
    ) -> Result<String, String> {
        let mut state = self.puzzle.scrambled(scramble).map_err(|e| e.to_string())?;
        if let Some((_, map)) = &self.target {
            state = map.apply(&state);
        }
        let path = solver.solve(&state, max_depth).map_err(|e| e.to_string())?;
        Ok(solver.format(&self.puzzle, &path))
    }
}

#[pymethods]
impl Puzzle {
    /// Reads a definition: `metric` "htm" (every power of a move is one move) or "qtm";
    /// `moves`, a list of base move names to search with (all by default); `target`, a
    /// position block (as `cubedb puzzle solve --target` reads) to solve to instead of
    /// the solved state, `?` standing for any piece or orientation; `plan`, a phase plan
    /// file that solves the puzzle from any state (by default the `.plan` file beside the
    /// definition, unless `moves` or `target` is given; `False`: none, optimal answers);
    /// `engine`, as `cubedb puzzle solve --engine`: "auto" (the exact table when one
    /// fits, else the plan, else IDA*), "table", "search" (IDA*, optimal: states near
    /// solved), "phased" (the plan) or "chain" (the stabilizer chain: any definition,
    /// any state, at once, in long solutions).
    #[staticmethod]
    #[pyo3(signature = (path, *, metric = "htm", moves = None, target = None, plan = None, engine = "auto"))]
    fn from_file(
        path: PathBuf,
        metric: &str,
        moves: Option<&Bound<'_, PyAny>>,
        target: Option<&str>,
        plan: Option<&Bound<'_, PyAny>>,
        engine: &str,
    ) -> PyResult<Self> {
        let metric = choice(
            "metric",
            &[("htm", PuzzleMetric::Htm), ("qtm", PuzzleMetric::Qtm)],
            metric,
        )
        .map_err(|e| cube_error(e.to_string()))?;
        let engine = choice("engine", &PuzzleEngine::NAMES, engine)
            .map_err(|e| cube_error(e.to_string()))?;
        let moves = moves
            .filter(|m| !m.is_none())
            .map(|m| strings("moves", "move", m))
            .transpose()?;
        let file_error = |e: DefinitionFileError| match e {
            DefinitionFileError::Read { .. } => PyOSError::new_err(e.to_string()),
            invalid => cube_error(invalid.to_string()),
        };
        let mut puzzle = load_puzzle(&path, metric, moves.as_deref()).map_err(file_error)?;
        let plan_path = match plan.filter(|p| !p.is_none()) {
            None if moves.is_none() && target.is_none() => plan_beside(&path),
            None => None,
            Some(p) if p.extract::<bool>().is_ok_and(|b| !b) => None,
            Some(p) => Some(p.extract::<PathBuf>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "plan must be a path to a plan file, None or False",
                )
            })?),
        };
        if plan_path.is_some() && (moves.is_some() || target.is_some()) {
            return Err(cube_error(
                "a plan solves the whole puzzle: give it without moves or target",
            ));
        }
        let plan = plan_path
            .map(|p| load_plan(&p, &puzzle))
            .transpose()
            .map_err(file_error)?;
        if let Some(plan) = &plan {
            accept_plan_names(&mut puzzle, plan);
        }
        let mut source = path.display().to_string();
        if let Some(moves) = &moves {
            source.push_str(&format!(" --moves {}", moves.join(",")));
        }
        let target = target
            .map(|text| {
                let pattern = parse_target(text, &puzzle.sets, &puzzle.solved)
                    .map_err(|e| cube_error(format!("target line {}: {}", e.line, e.problem)))?;
                retarget(&puzzle, &pattern).map_err(|e| cube_error(e.to_string()))
            })
            .transpose()?;
        Ok(Self {
            puzzle,
            target,
            source,
            plan,
            engine,
            solver: OnceLock::new(),
        })
    }

    /// The definition's name.
    #[getter]
    fn name(&self) -> String {
        self.puzzle.name.clone()
    }

    /// The search moves' names.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.puzzle.moves.iter().map(|m| m.name.clone()).collect()
    }

    /// A solution of the position a scramble (move names separated by spaces) reaches,
    /// as move names separated by spaces ("" when solved): optimal from an exact table or
    /// IDA*, near-optimal from a plan, long from the stabilizer chain (`engine`).
    #[pyo3(signature = (scramble, *, max_depth = None), text_signature = "(scramble, *, max_depth=30)")]
    fn solve(
        &self,
        py: Python<'_>,
        scramble: &str,
        max_depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let max_depth = max_depth_arg(max_depth)?;
        let solver = self.solver(py)?;
        py.detach(|| self.solve_text(solver, scramble, max_depth))
            .map_err(cube_error)
    }

    /// `solve` for many scrambles, on every core, in order; a bad one raises naming it
    /// (`scramble 2` is the second). Ctrl-C stops it between scrambles.
    #[pyo3(signature = (scrambles, *, max_depth = None), text_signature = "(scrambles, *, max_depth=30)")]
    fn solve_many(
        &self,
        py: Python<'_>,
        scrambles: &Bound<'_, PyAny>,
        max_depth: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Vec<String>> {
        let scrambles = strings("scrambles", "scramble", scrambles)?;
        let max_depth = max_depth_arg(max_depth)?;
        let solver = self.solver(py)?;
        interrupt::run(py, |cancel| {
            cubedb::jobs::map_each(scrambles.iter().enumerate().collect(), |(i, s)| {
                if cancel.is_cancelled() {
                    return Err(String::from("interrupted"));
                }
                self.solve_text(solver, s, max_depth)
                    .map_err(|e| format!("scramble {}: {e}", i + 1))
            })
            .into_iter()
            .collect::<Result<Vec<_>, _>>()
        })?
        .map_err(cube_error)
    }

    /// God's algorithm: the number of positions at each distance (index = distance),
    /// from the exact table (built on first use); an error when none fits.
    fn gods(&self, py: Python<'_>) -> PyResult<Vec<u64>> {
        let solver = self.solver(py)?;
        let table = solver.exact().ok_or_else(|| {
            cube_error("no exact table fits for this puzzle: God's algorithm needs one")
        })?;
        Ok(table.histogram.clone())
    }

    /// Random-state scrambles (uniform over every position): one string, or a list of
    /// `count`. From the exact table each is a shortest sequence reaching its position;
    /// with a plan, the inverse of the plan's solution; with neither (or `engine`
    /// "search" or "chain"), the inverse of the stabilizer chain's answer (hundreds of
    /// moves).
    #[pyo3(signature = (*, count = None, seed = None))]
    fn scramble(
        &self,
        py: Python<'_>,
        count: Option<&Bound<'_, PyAny>>,
        seed: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let count = optional_whole("count", WholeRange::COUNT, count)?;
        let seed = optional_whole("seed", WholeRange::SEED, seed)?;
        let solver = self.solver(py)?;
        let seed = seed.unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
        let wanted = count.unwrap_or(1) as usize;
        let scrambles = if let Some(phased) = solver.phased() {
            // The plan's phases solve random states, on every core, in order; each
            // scramble is checked to reach the state drawn. Ctrl-C stops between two.
            interrupt::run(py, |cancel| {
                cubedb::jobs::map_each((0..wanted as u64).collect(), |index| {
                    if cancel.is_cancelled() {
                        return Err(String::from("interrupted"));
                    }
                    phased
                        .checked_random_scramble(
                            seed,
                            index,
                            cubedb::limits::Stop::default(),
                            |text| self.puzzle.scrambled(text).ok(),
                        )
                        .map_err(|e| format!("random state {}: {e}", index + 1))
                })
                .into_iter()
                .collect::<Result<Vec<_>, _>>()
            })?
            .map_err(cube_error)?
        } else {
            // Scramble `i` from its own generator, as `cubedb puzzle scramble` makes it
            // (the same seed gives the same scrambles): from the exact table, else (no
            // plan either) from the stabilizer chain (long scrambles); on every core, in
            // order; Ctrl-C stops between two.
            let opened;
            let one: Box<dyn Fn(u64) -> Result<String, &'static str> + Sync> = match solver.exact()
            {
                Some(table) => Box::new(move |index| {
                    table
                        .random_scramble(&mut SplitMix64::stream(seed, index))
                        .map(|moves| self.puzzle.format_path(&moves))
                        .ok_or("no random position found")
                }),
                None => {
                    let chain = match solver.chain() {
                        Some(chain) => chain,
                        None => {
                            opened = py
                                .detach(|| {
                                    ChainSolver::open(
                                        &self.puzzle,
                                        &store(),
                                        &self.source,
                                        &Progress::stderr(false),
                                    )
                                })
                                .map_err(|e| {
                                    cube_error(format!(
                                        "no exact table fits for this puzzle and it has no \
                                     plan, and {e}"
                                    ))
                                })?;
                            &opened
                        }
                    };
                    Box::new(move |index| {
                        chain
                            .random_scramble_text(seed, index)
                            .ok_or("a scramble that does not reach its random state")
                    })
                }
            };
            interrupt::run(py, |cancel| {
                (0..wanted as u64)
                    .into_par_iter()
                    .map(|index| {
                        if cancel.is_cancelled() {
                            return Err("interrupted");
                        }
                        one(index)
                    })
                    .collect::<Result<Vec<_>, _>>()
            })?
            .map_err(cube_error)?
        };
        match count {
            None => Ok(scrambles
                .into_iter()
                .next()
                .unwrap_or_default()
                .into_pyobject(py)?
                .into_any()
                .unbind()),
            Some(_) => Ok(scrambles.into_pyobject(py)?.into_any().unbind()),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "Puzzle({:?}, {} moves)",
            self.puzzle.name,
            self.puzzle.moves.len()
        )
    }
}
