//! Optimal solvers: the near table for instant answers, IDA* beyond it or without it.

use crate::engine::Solve;
use crate::puzzles::rubik::model::cube::{htm_may_follow, Cube, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::solution::Solved;
use crate::puzzles::rubik::near::table::{NearTable, NEAR_DEPTH};
use crate::search::{ida_star, SearchSpace};

/// Lower bound from cubie counts: every face turn moves exactly 4 corners and 4 edges.
#[inline]
pub fn cubie_bound(cube: &Cube) -> u32 {
    let (corners, edges) = cube.misplaced();
    corners.div_ceil(4).max(edges.div_ceil(4))
}

/// Search space for IDA*: the cube with one metric's moves and heuristic.
struct CubeSpace<'a> {
    metric: Metric,
    moves: Vec<Move>,
    near: Option<&'a NearTable>,
}

impl<'a> CubeSpace<'a> {
    fn new(metric: Metric, near: Option<&'a NearTable>) -> Self {
        let moves = match metric {
            Metric::Qtm => Move::quarter_turns().collect(),
            Metric::Htm => Move::all().collect(),
        };
        Self {
            metric,
            moves,
            near,
        }
    }
}

impl SearchSpace for CubeSpace<'_> {
    type State = Cube;
    type Move = Move;

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn apply(&self, state: &Cube, mv: Move) -> Cube {
        state.apply(mv)
    }

    fn is_goal(&self, state: &Cube) -> bool {
        state.is_solved()
    }

    fn heuristic(&self, state: &Cube) -> u32 {
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

    fn may_follow(&self, previous: Option<Move>, mv: Move) -> bool {
        match self.metric {
            Metric::Htm => htm_may_follow(previous, mv),
            // QTM with one move of memory: no X X', half turns only as X X, opposite
            // faces in URFDLB order.
            Metric::Qtm => match previous {
                None => true,
                Some(p) if p.face() == mv.face() => p == mv && mv.turns() == 1,
                Some(p) => !(p.face().opposite() == mv.face() && p.face() > mv.face()),
            },
        }
    }
}

/// Solves by IDA* with the given heuristic sources, optimal in `metric`.
pub fn ida(cube: &Cube, metric: Metric, near: Option<&NearTable>, max_depth: u32) -> Solved {
    let space = CubeSpace::new(metric, near);
    let outcome = ida_star(&space, cube, max_depth);
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
