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
//! - [`machine`]: memory and disk space free, for what a table build needs;
//! - [`limits`]: range checks of every numeric argument (one wording for every front
//!   end), timeouts, deadlines and cancellation;
//! - [`progress`]: progress bars on stderr;
//! - [`output`]: stdout and stderr without panics or silent losses;
//! - [`text`]: quoting user input in messages (cut short, invisible characters escaped);
//! - [`geometry`]: the 48 symmetries of a cube as signed permutation matrices;
//! - [`events`]: scrambles for the WCA's events in its notation;
//! - [`engine`]: the table and search engines behind one interface; [`rng`]: seeds.
//!
//! Layers and where new puzzles, tables and front ends go: `docs/architecture.md`.

// Output goes through `cubedb::output`: print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

pub mod catalog;
pub mod engine;
pub mod events;
pub mod geometry;
pub mod jobs;
pub mod judge;
pub mod limits;
pub mod machine;
pub mod output;
pub mod progress;
pub mod puzzles;
pub mod rng;
pub mod search;
pub mod table;
pub mod text;

/// The thread count [`set_threads`] recorded.
static THREADS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();

/// Sets how many threads parallel work (BFS, search, batches) uses: `None` for one per
/// core. Call once, at the start of `main` while the process has one thread: it starts no
/// thread itself (the pool starts on the first parallel work, with that many, so a
/// command that does none starts none). A second call keeps the first count.
pub fn set_threads(threads: Option<std::num::NonZeroUsize>) {
    if let Some(n) = threads {
        if THREADS.set(n.get()).is_ok() {
            // Read by rayon when its global pool starts, lazily.
            std::env::set_var("RAYON_NUM_THREADS", n.get().to_string());
        }
    }
}

/// How many threads parallel work uses (without starting any).
pub fn threads() -> usize {
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}
