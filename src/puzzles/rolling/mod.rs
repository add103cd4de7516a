//! The cubic eight-puzzle (POJ 3131): eight rolling cubes on a 3x3 board.
//!
//! - [`state`]: cube orientations, the board, and rolls;
//! - [`goal`]: what a query asks (the empty start cell, the goal pattern);
//! - [`ranking`]: board <-> rank in `0..9 * 6^8`, rolls applied directly to ranks, goal
//!   patterns of top colours;
//! - [`symmetry`]: the board's 8 symmetries, which let three BFS runs serve nine starts;
//! - [`tables`]: the answer and path tables, built by the shared BFS;
//! - [`solver`]: the table engine and the pure-search engine (bidirectional BFS);
//! - [`judge`]: the judge's input and output format.

pub mod goal;
pub mod judge;
pub mod ranking;
pub mod solver;
pub mod state;
pub mod symmetry;
pub mod tables;

pub use goal::Query;
pub use judge::parse_judge_input;
pub use solver::{Options, SearchSolver, Solution, TableSolver};
pub use state::{Board, Colour, Orientation, Roll};
pub use tables::{RollingTables, RollingUse};

/// The judge's move limit: answers above it print `-1`.
pub const JUDGE_LIMIT: u32 = 30;

use crate::engine::Solve;
use crate::judge::JudgeError;

/// Answers a whole judge input as it arrives, writing each answer as soon as it is known
/// (`solver` made with the judge's limit, and `with_path` as in its options).
/// On bad input the answers before the bad data set are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::BufRead,
    solver: &impl Solve<Query = Query, Answer = Solution>,
    with_path: bool,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    crate::judge::answer_each(input, out, judge::parse_data_set, |query, buffer| {
        let solution = solver.solve(query);
        judge::format_answer(buffer, &solution, with_path);
        Ok(())
    })
}
