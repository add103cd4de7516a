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
pub use solver::{SearchSolver, SomaEngine, TableSolver};
pub use tables::SomaTables;

use crate::judge::JudgeError;

/// Answers a whole judge input, writing each answer as soon as it is known. On bad input
/// the answers before the bad test case are written and the error is returned.
pub fn answer_judge_input(
    input: impl std::io::BufRead,
    solver: &impl SomaEngine,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    let geometry = geometry();
    crate::judge::answer_each(
        input,
        out,
        |input: &mut crate::judge::JudgeInput<_>, case| judge::parse_case(input, case, geometry),
        |query, buffer| {
            solver.write_answer(query.orientation, buffer);
            Ok(())
        },
    )
}
