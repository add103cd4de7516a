//! cubedb: exact answers to cube puzzles from precomputed state-space tables.
//!
//! Crate map:
//! - [`table`]: the table file format (header, checksum, atomic write, read-only mmap,
//!   packed entries), the data directory, and table families (`load_or_build` once);
//! - [`search`]: machinery shared by all puzzles: the puzzle trait, parallel layered BFS,
//!   IDA*, exact cover;
//! - [`puzzles`]: one module per puzzle (state, ranking, tables, solvers, judge format);
//! - [`catalog`]: every table group `cubedb-gen` can build, one line per family;
//! - [`judge`]: tokenizer and input errors shared by the judge formats;
//! - [`limits`]: range checks of every numeric argument (one wording for every front
//!   end), timeouts, deadlines and cancellation;
//! - [`progress`]: progress bars on stderr;
//! - [`output`]: stdout and stderr without panics or silent losses;
//! - [`text`]: quoting user input in messages (cut short, invisible characters escaped);
//! - [`geometry`]: the 48 symmetries of a cube as signed permutation matrices;
//! - [`engine`]: the table and search engines behind one interface; [`rng`]: seeds.
//!
//! Layers and where new puzzles, tables and front ends go: `docs/architecture.md`.

// Output goes through `cubedb::output`: print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod catalog;
pub mod engine;
pub mod geometry;
pub mod judge;
pub mod limits;
pub mod output;
pub mod progress;
pub mod puzzles;
pub mod rng;
pub mod search;
pub mod table;
pub mod text;

/// Sets how many threads parallel work (BFS, search) uses: `None` for one per core.
/// Call once, before any parallel work; a second call fails.
pub fn set_threads(
    threads: Option<std::num::NonZeroUsize>,
) -> Result<(), rayon::ThreadPoolBuildError> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n.get());
    }
    pool.build_global()
}

/// How many threads parallel work uses.
pub fn threads() -> usize {
    rayon::current_num_threads()
}
