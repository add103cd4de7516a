//! One module per puzzle, each with the same shape: state and moves, ranking, tables
//! (their families), engines (table and search, `crate::engine::Solve`), judge format.

pub mod perm;
pub mod rolling;
pub mod rotation;
pub mod rubik;
pub mod soma;
pub mod walk;
