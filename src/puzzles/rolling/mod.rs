//! The cubic eight-puzzle (POJ 3131): eight rolling cubes on a 3x3 board.
//!
//! - [`state`]: cube orientations, the board, and rolls;
//! - [`ranking`]: board <-> rank in `0..9 * 6^8`, rolls applied directly to ranks, goal
//!   patterns of top colours;
//! - [`symmetry`]: the board's 8 symmetries, which let three BFS runs serve nine starts;
//! - [`tables`]: the answer and path tables, built by the shared BFS;
//! - [`solver`]: the table engine and the pure-search engine (bidirectional BFS);
//! - [`judge`]: the judge's input and output format.

pub mod judge;
pub mod ranking;
pub mod solver;
pub mod state;
pub mod symmetry;
pub mod tables;

pub use judge::{parse_judge_input, Query};
pub use solver::{SearchSolver, Solution, TableSolver};
pub use state::{Board, Colour, Orientation, Roll};
pub use tables::RollingTables;

/// The judge's move limit: answers above it print `-1`.
pub const JUDGE_LIMIT: u32 = 30;

use crate::judge::JudgeError;

/// Either engine, behind one interface.
#[derive(Debug)]
pub enum Solver<'a> {
    /// Table lookups.
    Table(TableSolver<'a>),
    /// Bidirectional search from scratch.
    Search(SearchSolver),
}

impl Solver<'_> {
    /// Solves one query, `None` beyond `limit` rolls.
    pub fn solve(&self, query: &Query, limit: u32, with_path: bool) -> Solution {
        match self {
            Solver::Table(s) => s.solve(query, limit, with_path),
            Solver::Search(s) => s.solve(query, limit, with_path),
        }
    }
}

/// Answers a whole judge input as it arrives, writing each answer as soon as it is known.
/// On bad input the answers before the bad data set are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::BufRead,
    solver: &Solver<'_>,
    with_path: bool,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    crate::judge::answer_each(input, out, judge::parse_data_set, |query, buffer| {
        let solution = solver.solve(query, JUDGE_LIMIT, with_path);
        judge::format_answer(buffer, &solution, with_path);
        Ok(())
    })
}
