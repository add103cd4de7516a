//! The definition-driven puzzles the service answers: the `.tws` files of one folder
//! (`--puzzles`, `./puzzles` by default), each named by its file stem and opened on first
//! use (its tables built then, as on the command line), with the plan beside it.
//!
//! - `GET /api/puzzles`: the names, and whether each has a plan;
//! - `POST /api/puzzle/{name}/solve`: `scramble`, optional `max_length` and `timeout`;
//! - `GET /api/puzzle/{name}/scramble?count=N&seed=S`: random-state scrambles.
//!
//! Solves and scrambles run on the long pool behind the same queue and deadline as
//! optimal 3x3x3 solves.

use super::error::ApiError;
use cubedb::limits::Stop;
use cubedb::progress::Progress;
use cubedb::puzzles::perm::served::{ServedError, ServedPuzzle, ServedSolution};
use cubedb::table::TableStore;
use cubedb::text::quote;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// Memory a served puzzle's tables may take, in MB (the command line's default).
const BUDGET_MB: u64 = cubedb::puzzles::perm::DEFAULT_BUDGET_MB;

/// Longest puzzle name accepted (file stems of definitions are short).
const MAX_NAME: usize = 64;

/// An opened puzzle, or why it cannot be (kept: a definition is read once).
type Opened = Result<Arc<ServedPuzzle>, ApiError>;

/// The puzzles of one folder, opened on first use.
pub struct PuzzleShelf {
    dir: Option<PathBuf>,
    opened: Mutex<HashMap<String, Arc<OnceLock<Opened>>>>,
}

impl PuzzleShelf {
    /// The shelf of the definitions in `dir` (none when `None`).
    pub fn new(dir: Option<PathBuf>) -> Self {
        Self {
            dir,
            opened: Mutex::new(HashMap::new()),
        }
    }

    /// The folder served, if any.
    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    /// The puzzles: each definition's name and whether a plan lies beside it, by name.
    pub fn list(&self) -> Vec<(String, bool)> {
        let Some(dir) = &self.dir else {
            return Vec::new();
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut names: Vec<(String, bool)> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "tws") && p.is_file())
            .filter_map(|p| {
                let name = p.file_stem()?.to_str()?.to_string();
                valid_name(&name).then(|| (name, p.with_extension("plan").is_file()))
            })
            .collect();
        names.sort();
        names
    }

    /// The definition file of `name`: a 404 naming the puzzles served when there is none.
    fn path_of(&self, name: &str) -> Result<PathBuf, ApiError> {
        let unknown = || {
            let known: Vec<String> = self.list().into_iter().map(|(n, _)| n).collect();
            ApiError {
                status: axum::http::StatusCode::NOT_FOUND,
                message: if known.is_empty() {
                    format!(
                        "no puzzle {}: this service serves no puzzles (cubedb serve --puzzles DIR)",
                        quote(name)
                    )
                } else {
                    format!(
                        "no puzzle {}; the puzzles are {} (GET /api/puzzles)",
                        quote(name),
                        known.join(", ")
                    )
                },
                retry_after: None,
            }
        };
        let dir = self.dir.as_ref().ok_or_else(unknown)?;
        if !valid_name(name) {
            return Err(unknown());
        }
        let path = dir.join(format!("{name}.tws"));
        if path.is_file() {
            Ok(path)
        } else {
            Err(unknown())
        }
    }

    /// The puzzle `name`, opened (tables built if missing) on the calling thread the first
    /// time; later callers wait for that and share it.
    pub fn open(&self, name: &str, store: &TableStore, progress: &Progress) -> Opened {
        let path = self.path_of(name)?;
        let cell = {
            let mut opened = self
                .opened
                .lock()
                .map_err(|_| ApiError::internal("internal error: the puzzle shelf"))?;
            Arc::clone(opened.entry(name.to_string()).or_default())
        };
        cell.get_or_init(|| {
            ServedPuzzle::open(&path, store, BUDGET_MB, progress)
                .map(Arc::new)
                .map_err(|e| match e {
                    ServedError::Unbounded(_) => ApiError::no_answer(e.to_string()),
                    ServedError::Definition(_) => {
                        ApiError::internal(format!("puzzle {}: {e}", quote(name)))
                    }
                    other => ApiError::internal(format!("puzzle {}: {other}", quote(name))),
                })
        })
        .clone()
    }
}

/// A name as the routes take it: letters, digits, `-`, `_` and `.` (not first), so that
/// it can only name a file in the folder.
fn valid_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= MAX_NAME
        && !name.starts_with('.')
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A solve of a served puzzle, as an answer or an error with its status.
pub fn solve(
    puzzle: &ServedPuzzle,
    scramble: &str,
    max_length: Option<usize>,
    stop: Stop,
    limit_s: f64,
) -> Result<ServedSolution, ApiError> {
    puzzle
        .solve(scramble, max_length, stop)
        .map_err(|e| error(e, limit_s))
}

/// Scrambles `first..first + count` of `seed`, made on every thread of the calling pool.
pub fn scrambles(
    puzzle: &ServedPuzzle,
    seed: u64,
    count: u64,
    stop: Stop,
    limit_s: f64,
) -> Result<Vec<String>, ApiError> {
    cubedb::jobs::map_each((0..count).collect(), |index| {
        puzzle
            .scramble(seed, index, stop.clone())
            .map_err(|e| error(e, limit_s))
    })
    .into_iter()
    .collect()
}

/// The status of a served puzzle's error.
fn error(e: ServedError, limit_s: f64) -> ApiError {
    match e {
        ServedError::Scramble(_) => ApiError::bad_request(e.to_string()),
        ServedError::Unreachable => ApiError::no_answer(e.to_string()),
        ServedError::TimedOut => {
            ApiError::deadline(format!("no solution within the time limit of {limit_s} s"))
        }
        ServedError::Cancelled => ApiError::busy("the service is stopping", 1),
        ServedError::Unbounded(_) => ApiError::no_answer(e.to_string()),
        ServedError::Definition(_) | ServedError::Tables(_) | ServedError::Internal(_) => {
            ApiError::internal(e.to_string())
        }
    }
}
