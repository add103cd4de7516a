//! Every solution of a given length, and shortest solutions with a restricted move set,
//! by the shared IDA* listing (`crate::search::ida`) under the pattern databases' bounds.
//!
//! Sequences are canonical ([`canonical_step`]): moves of one face are merged, and turns of
//! opposite faces, which commute, come in URFDLB order. So two different sequences are
//! never equal up to commuting moves, and each position reached by a sequence is listed
//! once per canonical sequence. A solution never passes through the solved state before
//! its end (that would be a shorter solution plus a detour).
//!
//! Solutions come out in lexicographic order of their move indices (U before U2 before
//! U' before R ...): the search tries moves in that order, and the subtrees searched in
//! parallel are joined in it.

use super::search::{CubeNode, KorfSolver};
use crate::limits::Stop;
use crate::puzzles::rubik::model::canonical::{canonical_step, LastTwo};
use crate::puzzles::rubik::model::cube::{permutation_parity, Cube, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::search::{par_solutions_of_length, Heuristic, Puzzle};

pub use crate::search::Found;

/// Searches canonical sequences over a set of moves, pruned by a [`KorfSolver`]'s bounds
/// (admissible for any subset of the moves: a subgroup's distance is never shorter).
#[derive(Debug, Clone)]
pub struct Enumerator<'a> {
    solver: KorfSolver<'a>,
    moves: Vec<Move>,
    metric: Metric,
    /// When listings give up (their [`Found::stopped`] says so).
    stop: Stop,
}

impl Puzzle for Enumerator<'_> {
    type State = CubeNode;
    type Move = Move;
    type History = LastTwo;

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    fn apply(&self, node: &CubeNode, mv: Move) -> CubeNode {
        node.after(mv)
    }

    #[inline]
    fn is_solved(&self, node: &CubeNode) -> bool {
        node.cube.is_solved()
    }

    #[inline]
    fn follow(&self, history: LastTwo, mv: Move) -> Option<LastTwo> {
        canonical_step(self.metric, history, mv)
    }
}

impl Heuristic<Enumerator<'_>> for Enumerator<'_> {
    fn bound(&self, node: &CubeNode) -> u32 {
        self.solver.lower_bound(&node.cube)
    }

    /// Every child's tables read in one batch, in QTM raised to the parity of `budget`.
    fn bounds(&self, nodes: &[CubeNode], budget: u32, out: &mut [u32]) {
        for (chunk, out) in nodes.chunks(18).zip(out.chunks_mut(18)) {
            self.solver.bounds(chunk, budget, out);
        }
    }
}

impl<'a> Enumerator<'a> {
    /// Over `moves` (each a move of the solver's metric: quarter turns in QTM).
    pub fn new(solver: KorfSolver<'a>, moves: &[Move]) -> Self {
        let metric = solver.metric();
        debug_assert!(moves
            .iter()
            .all(|m| metric == Metric::Htm || m.is_quarter()));
        let mut moves = moves.to_vec();
        moves.sort_by_key(|m| m.index());
        moves.dedup();
        Self {
            solver,
            moves,
            metric,
            stop: Stop::never(),
        }
    }

    /// The same enumerator, its listings giving up when `stop` is reached.
    pub fn until(self, stop: Stop) -> Self {
        Self { stop, ..self }
    }

    /// Length step between possible solution lengths: 2 in QTM (a position's parity fixes
    /// the parity of every sequence reaching it), else 1.
    pub fn step(&self) -> u32 {
        match self.metric {
            Metric::Qtm => 2,
            Metric::Htm => 1,
        }
    }

    /// The first `limit` canonical solutions of exactly `length` moves, in order.
    pub fn solutions_of_length(&self, cube: &Cube, length: u32, limit: usize) -> Found<Move> {
        par_solutions_of_length(self, self, &CubeNode::of(cube), length, limit, &self.stop)
    }

    /// The shortest solutions, at most `limit` of them, of at most `max_length` moves:
    /// `None` if there is none that short (or the stop came first). Lengths are tried
    /// upward from the root's bound.
    pub fn shortest(
        &self,
        cube: &Cube,
        max_length: u32,
        limit: usize,
    ) -> (Option<Found<Move>>, u64) {
        // A budget of the position's parity (QTM), larger than any distance.
        let parity = match self.metric {
            Metric::Qtm => permutation_parity(&cube.cp),
            Metric::Htm => 0,
        };
        let mut h = [0];
        self.solver
            .bounds(&[CubeNode::of(cube)], 1000 + parity, &mut h);
        let mut length = h[0];
        let mut nodes = 0;
        while length <= max_length {
            let found = self.solutions_of_length(cube, length, limit);
            nodes += found.nodes;
            if found.stopped {
                return (None, nodes);
            }
            if !found.solutions.is_empty() {
                return (
                    Some(Found {
                        solutions: found.solutions,
                        nodes,
                        stopped: false,
                    }),
                    nodes,
                );
            }
            length += self.step();
        }
        (None, nodes)
    }
}
