//! One module per puzzle, each with the same shape: state and moves, ranking, tables,
//! solver (table engine and search engine), judge format.

pub mod rolling;
pub mod rotation;
pub mod rubik;
pub mod soma;
pub mod walk;
