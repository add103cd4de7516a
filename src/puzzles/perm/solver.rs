//! The one face every front end calls to solve a definition-driven puzzle: an exact
//! table when one fits in the memory allowed, else IDA* over pattern databases.

use super::element::Element;
use super::exact::{ExactError, ExactTable};
use super::pdb::PatternSearch;
use super::puzzle::PermPuzzle;
use crate::progress::Progress;
use crate::table::TableStore;

/// Which method answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PuzzleEngine {
    /// The exact table when one fits, else pattern databases.
    #[default]
    Auto,
    /// Only an exact table (an error when none fits).
    Table,
    /// Only IDA* over pattern databases.
    Search,
}

/// Why a state has no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnsolvedError {
    /// The state cannot be reached with the moves searched.
    #[error("not reachable with the moves searched")]
    Unreachable,
    /// IDA* found nothing within the depth allowed.
    #[error("no solution within {0} moves (--max-depth)")]
    TooDeep(usize),
}

/// An opened solver for one puzzle.
pub enum PuzzleSolver {
    /// Answers by walks down an exact distance table.
    Exact(Box<ExactTable>),
    /// Answers by IDA* over pattern databases.
    Search(Box<PatternSearch>),
}

impl PuzzleSolver {
    /// Opens the solver `engine` asks for, building its tables into `store` when
    /// missing; `source` names the definition in messages, `budget_mb` bounds the
    /// memory tables may take.
    pub fn open(
        puzzle: &PermPuzzle,
        store: &TableStore,
        source: &str,
        budget_mb: u64,
        engine: PuzzleEngine,
        progress: &Progress,
    ) -> Result<Self, ExactError> {
        if engine != PuzzleEngine::Search {
            match ExactTable::load_or_build(puzzle, store, source, budget_mb, progress) {
                Ok(table) => return Ok(Self::Exact(Box::new(table))),
                Err(e) if engine == PuzzleEngine::Table => return Err(e),
                Err(ExactError::Unsupported(_) | ExactError::TooBig { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let search = PatternSearch::load_or_build(puzzle, store, source, budget_mb, progress)?;
        Ok(Self::Search(Box::new(search)))
    }

    /// Calls `visit` with optimal solutions of `state` (search-move indices) until it
    /// returns false; IDA* looks no deeper than `max_depth`.
    pub fn each_solution(
        &self,
        state: &Element,
        max_depth: usize,
        mut visit: impl FnMut(&[usize]) -> bool,
    ) -> Result<(), UnsolvedError> {
        match self {
            Self::Exact(table) => table
                .each_solution_of(state, visit)
                .ok_or(UnsolvedError::Unreachable),
            Self::Search(search) => {
                let mut any = false;
                search
                    .each_solution(state, max_depth, |path| {
                        any = true;
                        visit(path)
                    })
                    .ok_or(UnsolvedError::Unreachable)?;
                if any {
                    Ok(())
                } else {
                    Err(UnsolvedError::TooDeep(max_depth))
                }
            }
        }
    }

    /// One optimal solution of `state`.
    pub fn solve(&self, state: &Element, max_depth: usize) -> Result<Vec<usize>, UnsolvedError> {
        let mut found = Vec::new();
        self.each_solution(state, max_depth, |path| {
            found = path.to_vec();
            false
        })?;
        Ok(found)
    }

    /// The exact table, if this solver has one (God's algorithm, scrambles).
    pub fn exact(&self) -> Option<&ExactTable> {
        match self {
            Self::Exact(table) => Some(table),
            Self::Search(_) => None,
        }
    }
}

/// Why a definition file cannot be used: unreadable, or a line breaking a rule.
#[derive(Debug, thiserror::Error)]
pub enum DefinitionFileError {
    /// The file cannot be read.
    #[error("reading {path}: {error}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        error: std::io::Error,
    },
    /// The file is not a valid definition (line 0: the file as a whole or an option).
    #[error("{path}: {}{problem}", if *line > 0 { format!("line {line}: ") } else { String::new() })]
    Invalid {
        /// The file.
        path: String,
        /// The 1-based line, 0 when no single line is to blame.
        line: usize,
        /// The rule broken.
        problem: String,
    },
}

/// Reads and compiles a definition file in `metric`, searching only the base moves in
/// `moves` when given.
pub fn load_puzzle(
    path: &std::path::Path,
    metric: super::puzzle::PuzzleMetric,
    moves: Option<&[String]>,
) -> Result<PermPuzzle, DefinitionFileError> {
    let shown = path.display().to_string();
    let bytes = std::fs::read(path).map_err(|error| DefinitionFileError::Read {
        path: shown.clone(),
        error,
    })?;
    let invalid = |line: usize, problem: String| DefinitionFileError::Invalid {
        path: shown.clone(),
        line,
        problem,
    };
    let text = std::str::from_utf8(&bytes).map_err(|_| invalid(0, "not UTF-8 text".into()))?;
    let definition =
        super::definition::Definition::parse(text).map_err(|e| invalid(e.line, e.problem))?;
    PermPuzzle::with_moves(&definition, metric, moves).map_err(|e| invalid(e.line, e.problem))
}
