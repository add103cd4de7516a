//! The rotation game (POJ 2286): shift the lines of a #-shaped board of 24 digits until the
//! centre 8 cells hold one digit, in the fewest moves, lexicographically smallest.
//!
//! - [`state`]: the board, the 8 line shifts;
//! - [`ranking`]: the cells one digit occupies as a 24-bit mask, ranked in `0..C(24,8)`;
//! - [`tables`]: distance of every mask to "that digit fills the centre", by the shared BFS;
//! - [`solver`]: walking down the table (lexicographically smallest shortest answer), and
//!   plain IDA* with no table;
//! - [`judge`]: the judge's input and output format.

pub mod judge;
pub mod ranking;
pub mod solver;
pub mod state;
pub mod tables;

pub use judge::{answer_judge_input, parse_judge_input};
pub use solver::{SearchSolver, Solution, TableSolver};
pub use state::{Board, Move};
pub use tables::RotationTable;
