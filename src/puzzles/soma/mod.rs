//! The Soma cube (UVa 197): every way to assemble the seven Soma pieces into a 3x3x3 cube,
//! given the orientation of piece `a`.
//!
//! - [`geometry`]: cells, the 48 symmetries, pieces, orientations and placements (only the
//!   pieces' cells are data; everything else is computed);
//! - [`assembly`]: assemblies found by exact cover, and their symmetry classes;
//! - [`tables`]: the catalogue of every assembly, indexed by the orientation of `a`;
//! - [`solver`]: the catalogue engine and the exact-cover search engine;
//! - [`judge`]: the judge's input and output format.

pub mod assembly;
pub mod geometry;
pub mod judge;
pub mod solver;
pub mod tables;

pub use assembly::{Assembly, Stats};
pub use geometry::{geometry, Geometry};
pub use judge::{parse_judge_input, Query};
pub use solver::{SearchSolver, TableSolver};
pub use tables::SomaTables;

use crate::judge::JudgeError;

/// Either engine, behind one interface.
#[derive(Debug)]
pub enum Solver<'a> {
    /// Reads from the catalogue.
    Table(TableSolver<'a>),
    /// Exact-cover search from scratch.
    Search(SearchSolver),
}

impl Solver<'_> {
    /// Every assembly with piece `a` in the query's orientation, ascending.
    pub fn solve(&self, query: &Query) -> Vec<Assembly> {
        match self {
            Solver::Table(s) => s.solve(query),
            Solver::Search(s) => s.solve(query),
        }
    }

    /// Appends the judge answer of `query` to `out`.
    pub fn write_answer(&self, query: &Query, out: &mut String) {
        match self {
            Solver::Table(s) => s.write_answer(query, out),
            Solver::Search(s) => judge::format_answer(out, &s.solve(query)),
        }
    }
}

/// Answers a whole judge input, writing each answer as soon as it is known. On bad input
/// the answers before the bad test case are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::BufRead,
    solver: &Solver<'_>,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    let geometry = geometry();
    crate::judge::answer_each(
        input,
        out,
        |input: &mut crate::judge::JudgeInput<_>, case| judge::parse_case(input, case, geometry),
        |query, buffer| {
            solver.write_answer(query, buffer);
            Ok(())
        },
    )
}
