//! Search machinery shared by every puzzle: parallel layered BFS over ranked state spaces
//! (to build tables), IDA* (to answer queries without them, or beyond them), and an
//! exact-cover solver (Algorithm X on bit masks) for packing puzzles.

pub mod bfs;
pub mod exact_cover;
pub mod ida;

pub use bfs::{layered_bfs, weighted_bfs, BfsResult, RankedSpace, WeightedSpace, UNREACHED};
pub use ida::{ida_star, IdaOutcome, SearchSpace};
