//! Optimal solvers: the near table for instant answers, IDA* beyond it or without it.

use crate::engine::Solve;
use crate::puzzles::rubik::model::canonical::CubePuzzle;
use crate::puzzles::rubik::model::cube::Cube;
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::solution::Solved;
use crate::puzzles::rubik::near::table::{NearTable, NEAR_DEPTH};
use crate::search::{ida_star, Heuristic};

/// Lower bound from cubie counts: every face turn moves exactly 4 corners and 4 edges.
#[inline]
pub fn cubie_bound(cube: &Cube) -> u32 {
    let (corners, edges) = cube.misplaced();
    corners.div_ceil(4).max(edges.div_ceil(4))
}

/// The heuristic of the IDA* here: cubie counts, and with the near table its exact
/// distances (more than its depth outside it).
struct NearBound<'a> {
    metric: Metric,
    near: Option<&'a NearTable>,
}

impl Heuristic<CubePuzzle> for NearBound<'_> {
    fn bound(&self, state: &Cube) -> u32 {
        let mut h = cubie_bound(state);
        if let Some(near) = self.near {
            // Exact QTM distance inside the table, else more than NEAR_DEPTH.
            let qtm = near.distance(state).unwrap_or(NEAR_DEPTH + 1);
            h = h.max(match self.metric {
                Metric::Qtm => qtm,
                Metric::Htm => qtm.div_ceil(2),
            });
        }
        h
    }
}

/// Solves by IDA* with the given heuristic sources, optimal in `metric`.
pub fn ida(cube: &Cube, metric: Metric, near: Option<&NearTable>, max_depth: u32) -> Solved {
    let outcome = ida_star(
        &CubePuzzle::new(metric),
        &NearBound { metric, near },
        cube,
        max_depth,
    );
    Solved {
        moves: outcome.solution,
        nodes: outcome.nodes,
    }
}

/// The metric answers are optimal in, and the longest answer an engine gives (deeper
/// positions are answered `None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// The metric solutions are optimal in.
    pub metric: Metric,
    /// Longest solution reported.
    pub max_depth: u32,
}

/// Answers from the near table, and by IDA* (with the table as heuristic) beyond it.
#[derive(Debug, Clone, Copy)]
pub struct TableSolver<'a> {
    near: &'a NearTable,
    options: Options,
}

impl<'a> TableSolver<'a> {
    /// A solver over an opened near table.
    pub fn new(near: &'a NearTable, options: Options) -> Self {
        Self { near, options }
    }

    /// The table.
    pub fn near(&self) -> &'a NearTable {
        self.near
    }
}

impl Solve for TableSolver<'_> {
    type Query = Cube;
    type Answer = Solved;

    /// An optimal solution of at most the options' depth.
    fn solve(&self, cube: &Cube) -> Solved {
        let Options { metric, max_depth } = self.options;
        if metric == Metric::Qtm {
            match self.near.lookup(cube) {
                Some((d, _)) if d > max_depth => {
                    return Solved {
                        moves: None,
                        nodes: 0,
                    }
                }
                Some(_) => {
                    return Solved {
                        moves: self.near.solution(cube),
                        nodes: 0,
                    }
                }
                None if max_depth <= NEAR_DEPTH => {
                    return Solved {
                        moves: None,
                        nodes: 0,
                    }
                }
                None => {}
            }
        }
        ida(cube, metric, Some(self.near), max_depth)
    }
}

/// Answers by IDA* from scratch with the cubie-count heuristic (no table).
#[derive(Debug, Clone, Copy)]
pub struct SearchSolver {
    options: Options,
}

impl SearchSolver {
    /// A search engine answering with `options`.
    pub fn new(options: Options) -> Self {
        Self { options }
    }
}

impl Solve for SearchSolver {
    type Query = Cube;
    type Answer = Solved;

    /// An optimal solution of at most the options' depth.
    fn solve(&self, cube: &Cube) -> Solved {
        ida(cube, self.options.metric, None, self.options.max_depth)
    }
}
