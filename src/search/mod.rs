//! Search machinery shared by every puzzle: parallel layered BFS over ranked state spaces
//! (to build tables) and IDA* (to answer queries without them, or beyond them).

pub mod bfs;
pub mod ida;

pub use bfs::{layered_bfs, BfsResult, RankedSpace, UNREACHED};
pub use ida::{ida_star, IdaOutcome, SearchSpace};
