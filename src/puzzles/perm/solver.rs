//! The one face every front end calls to solve a definition-driven puzzle: an exact
//! table when one fits in the memory allowed, else IDA* over pattern databases.

use super::chain::{ChainSolver, ChainUnsolved};
use super::element::Element;
use super::exact::{ExactError, ExactTable};
use super::pdb::PatternSearch;
use super::phased::{Limits, PhasedError, PhasedSolver, Plan};
use super::plan::PlanSpec;
use super::puzzle::PermPuzzle;
use super::site::TableSite;
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
    /// Only IDA* over pattern databases (optimal).
    Search,
    /// Only the phases of a plan (near-optimal, any state the plan handles).
    Phased,
    /// The stabilizer chain: any definition, any state, long solutions.
    Chain,
}

impl PuzzleEngine {
    /// Each engine by the name `cubedb puzzle solve --engine` and Python's `engine=` give it.
    pub const NAMES: [(&'static str, PuzzleEngine); 5] = [
        ("auto", PuzzleEngine::Auto),
        ("table", PuzzleEngine::Table),
        ("search", PuzzleEngine::Search),
        ("phased", PuzzleEngine::Phased),
        ("chain", PuzzleEngine::Chain),
    ];
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
    /// The phases found nothing (in time, or as short as asked).
    #[error("{0}")]
    Phased(PhasedError),
    /// The stabilizer chain has no answer.
    #[error("{0}")]
    Chain(ChainUnsolved),
}

/// An opened solver for one puzzle.
pub enum PuzzleSolver {
    /// Answers by walks down an exact distance table.
    Exact(Box<ExactTable>),
    /// Answers by IDA* over pattern databases.
    Search(Box<PatternSearch>),
    /// Answers phase by phase, as a plan says.
    Phased(Box<PhasedSolver>),
    /// Answers by the stabilizer chain's coset representatives.
    Chain(Box<ChainSolver>),
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
        Self::open_at(
            puzzle,
            &TableSite::new(store, source, budget_mb, progress),
            engine,
        )
    }

    /// [`PuzzleSolver::open`] with a plan, its tables at `site`: `auto` takes the exact
    /// table when one fits, else the plan's phases; `phased` the plan always; `table`
    /// and `search` ignore it. A rebuilding site builds every table the choice needs
    /// again (`cubedb-gen puzzle --force`).
    pub fn open_with_plan(
        puzzle: &PermPuzzle,
        plan: Option<Plan>,
        site: &TableSite,
        engine: PuzzleEngine,
    ) -> Result<Self, ExactError> {
        let (store, source, progress) = (site.store, site.source, site.progress);
        if engine == PuzzleEngine::Chain {
            let chain = ChainSolver::open(puzzle, store, source, progress)
                .map_err(|e| ExactError::Chain(e.to_string()))?;
            return Ok(Self::Chain(Box::new(chain)));
        }
        let Some(plan) =
            plan.filter(|_| matches!(engine, PuzzleEngine::Auto | PuzzleEngine::Phased))
        else {
            if engine == PuzzleEngine::Phased {
                return Err(ExactError::NoPlan {
                    definition: source.to_string(),
                });
            }
            return Self::open_at(puzzle, site, engine);
        };
        if engine == PuzzleEngine::Auto {
            match ExactTable::load_or_rebuild(puzzle, site) {
                Ok(table) => return Ok(Self::Exact(Box::new(table))),
                Err(ExactError::Unsupported(_) | ExactError::TooBig { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let phased = PhasedSolver::open(puzzle, plan, site)?;
        Ok(Self::Phased(Box::new(phased)))
    }

    /// [`PuzzleSolver::open`], its tables at `site` (a rebuilding site, `cubedb-gen
    /// puzzle --force`, builds them again: each new table replaces the old one
    /// atomically, so readers never find one missing).
    pub fn open_at(
        puzzle: &PermPuzzle,
        site: &TableSite,
        engine: PuzzleEngine,
    ) -> Result<Self, ExactError> {
        if engine != PuzzleEngine::Search {
            match ExactTable::load_or_rebuild(puzzle, site) {
                Ok(table) => return Ok(Self::Exact(Box::new(table))),
                Err(e) if engine == PuzzleEngine::Table => return Err(e),
                Err(ExactError::Unsupported(_) | ExactError::TooBig { .. }) => {}
                Err(e) => return Err(e),
            }
        }
        let search = PatternSearch::load_or_rebuild(puzzle, site)?;
        Ok(Self::Search(Box::new(search)))
    }

    /// A solution's move names: the plan's moves for a phased solver, else `puzzle`'s
    /// search moves.
    pub fn format(&self, puzzle: &PermPuzzle, path: &[usize]) -> String {
        match self {
            Self::Phased(phased) => phased.format(path),
            _ => puzzle.format_path(path),
        }
    }

    /// The stabilizer-chain solver, if this is one.
    pub fn chain(&self) -> Option<&ChainSolver> {
        match self {
            Self::Chain(chain) => Some(chain),
            _ => None,
        }
    }

    /// The phased solver, if this is one (its solutions name the plan's moves).
    pub fn phased(&self) -> Option<&PhasedSolver> {
        match self {
            Self::Phased(phased) => Some(phased),
            _ => None,
        }
    }

    /// Calls `visit` with optimal solutions of `state` (search-move indices) until it
    /// returns false; IDA* looks no deeper than `max_depth`. A phased solver hands one
    /// near-optimal solution, as indices into its plan's moves.
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
            Self::Phased(phased) => {
                let solution = phased
                    .solve(state, &Limits::default())
                    .map_err(|e| match e {
                        PhasedError::Unreachable => UnsolvedError::Unreachable,
                        other => UnsolvedError::Phased(other),
                    })?;
                visit(&solution.moves);
                Ok(())
            }
            Self::Chain(chain) => {
                let solution = chain.solve(state).map_err(|e| match e {
                    ChainUnsolved::Unreachable => UnsolvedError::Unreachable,
                    other => UnsolvedError::Chain(other),
                })?;
                visit(&solution);
                Ok(())
            }
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
            Self::Search(_) | Self::Phased(_) | Self::Chain(_) => None,
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

/// Largest definition file read (the biggest published definitions are a few hundred
/// kilobytes): anything larger is refused before it is held in memory.
pub const DEFINITION_FILE_LIMIT: u64 = 16 << 20;

/// Largest file of positions or a target pattern read (`--states`, `--target`).
pub const STATES_FILE_LIMIT: u64 = 64 << 20;

/// The text of the file at `path`, at most `limit` bytes: only a regular file is opened
/// (a FIFO would block, a device never ends), a larger file is refused before it is
/// read, and text that is not UTF-8 is refused naming its first bad line.
pub fn read_text_file(path: &std::path::Path, limit: u64) -> Result<String, DefinitionFileError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let read_error = |error| DefinitionFileError::Read {
        path: shown.clone(),
        error,
    };
    let invalid = |line: usize, problem: String| DefinitionFileError::Invalid {
        path: shown.clone(),
        line,
        problem,
    };
    // Examined before opening: opening a FIFO for reading waits for a writer.
    let meta = std::fs::metadata(path).map_err(read_error)?;
    if !meta.is_file() {
        return Err(invalid(
            0,
            format!(
                "{}, not a regular file",
                crate::table::file_kind(&meta.file_type())
            ),
        ));
    }
    let file = std::fs::File::open(path).map_err(read_error)?;
    let mut bytes = Vec::new();
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(read_error)?;
    if bytes.len() as u64 > limit {
        return Err(invalid(
            0,
            format!(
                "larger than {} MiB, the most read from such a file",
                limit >> 20
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let line = crate::text::utf8_or_bad_line(e.as_bytes())
            .err()
            .unwrap_or(1);
        invalid(line, "not UTF-8 text".into())
    })
}

/// Reads and compiles a definition file in `metric`, searching only the base moves in
/// `moves` when given.
pub fn load_puzzle(
    path: &std::path::Path,
    metric: super::puzzle::PuzzleMetric,
    moves: Option<&[String]>,
) -> Result<PermPuzzle, DefinitionFileError> {
    let text = read_text_file(path, DEFINITION_FILE_LIMIT)?;
    compile_puzzle(&text, &path.display().to_string(), metric, moves)
}

/// Compiles the definition `text` (errors name it `shown`, as a file) in `metric`,
/// searching only the base moves in `moves` when given.
pub fn compile_puzzle(
    text: &str,
    shown: &str,
    metric: super::puzzle::PuzzleMetric,
    moves: Option<&[String]>,
) -> Result<PermPuzzle, DefinitionFileError> {
    let invalid = |line: usize, problem: String| DefinitionFileError::Invalid {
        path: shown.to_string(),
        line,
        problem,
    };
    let definition =
        super::definition::Definition::parse(text).map_err(|e| invalid(e.line, e.problem))?;
    PermPuzzle::with_moves(&definition, metric, moves).map_err(|e| invalid(e.line, e.problem))
}

/// The plan beside a definition: the same path with the extension `.plan`, when there is
/// one.
pub fn plan_beside(definition: &std::path::Path) -> Option<std::path::PathBuf> {
    let path = definition.with_extension("plan");
    path.is_file().then_some(path)
}

/// The plan a command follows: `explicit` (`--plan`) if given, else the one beside
/// `definition` unless `subset` (a search over some moves only, which a plan's phases
/// would not keep to); read and compiled against `puzzle`.
pub fn plan_for(
    definition: &std::path::Path,
    explicit: Option<&std::path::Path>,
    subset: bool,
    puzzle: &PermPuzzle,
) -> Result<Option<Plan>, DefinitionFileError> {
    plan_path(definition, explicit, subset)
        .map(|p| load_plan(&p, puzzle))
        .transpose()
}

/// The file of the plan [`plan_for`] reads, when it reads one.
pub fn plan_path(
    definition: &std::path::Path,
    explicit: Option<&std::path::Path>,
    subset: bool,
) -> Option<std::path::PathBuf> {
    match explicit {
        Some(path) => Some(path.to_path_buf()),
        None if !subset => plan_beside(definition),
        None => None,
    }
}

/// Makes `puzzle` accept the plan's compound move names (and their powers) in input.
pub fn accept_plan_names(puzzle: &mut PermPuzzle, plan: &Plan) {
    for (name, element) in &plan.names {
        puzzle
            .names
            .entry(name.clone())
            .or_insert_with(|| element.clone());
    }
}

/// Reads a plan file and compiles it against `puzzle`; errors name the file and line.
pub fn load_plan(path: &std::path::Path, puzzle: &PermPuzzle) -> Result<Plan, DefinitionFileError> {
    let text = read_text_file(path, DEFINITION_FILE_LIMIT)?;
    compile_plan(&text, &path.display().to_string(), puzzle)
}

/// Compiles the plan `text` (errors name it `shown`, as a file) against `puzzle`.
pub fn compile_plan(
    text: &str,
    shown: &str,
    puzzle: &PermPuzzle,
) -> Result<Plan, DefinitionFileError> {
    let invalid = |line: usize, problem: String| DefinitionFileError::Invalid {
        path: shown.to_string(),
        line,
        problem,
    };
    let spec = PlanSpec::parse(text).map_err(|e| invalid(e.line, e.problem))?;
    Plan::compile(puzzle, &spec).map_err(|e| invalid(e.line, e.problem))
}
