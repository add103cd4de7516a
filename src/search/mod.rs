//! Search machinery shared by every puzzle: the puzzle trait it works on ([`puzzle`]),
//! parallel layered BFS over ranked state spaces to build tables ([`bfs`]), IDA* to answer
//! queries without them or beyond them ([`ida`]), and an exact-cover solver (Algorithm X
//! on bit masks) for packing puzzles ([`exact_cover`]).

pub mod based;
pub mod bfs;
pub mod exact_cover;
pub mod ida;
pub mod puzzle;

pub use bfs::{layered_bfs, weighted_bfs, BfsResult, RankedSpace, WeightedSpace, UNREACHED};
pub use ida::{
    ida_star, par_solutions_of_length, solutions_of_length, solutions_of_length_until, Found,
    IdaOutcome,
};
pub use puzzle::{Heuristic, NoBound, PruneTable, Puzzle, Ranked, StateSpace, TableBound};
