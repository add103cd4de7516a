//! Shared by the goal, mask, partial-cube and `<R,U>` solvers: projections of the cube
//! numbered by a BFS (following some cubies), their distances to a goal, and the search
//! for every canonical sequence under a lower bound.

use crate::progress::Progress;
use crate::puzzles::rubik::model::canonical::{canonical_step, LastTwo};
use crate::puzzles::rubik::model::cube::{Cube, Move, CORNERS, EDGES};
use crate::puzzles::rubik::model::metric::{Metric, MAX_SOLUTION};
use crate::search::bfs::{layered_bfs, RankedSpace};
use crate::search::{solutions_of_length, Heuristic, Puzzle};
use std::collections::HashMap;
use std::hash::Hash;

/// The states a BFS from `start` meets through moves `0..N` (`apply`), numbered in the
/// order met (`start` is 0, and `key` tells states apart), with each state's successor
/// under every move.
pub(crate) struct Numbered<S, K, const N: usize> {
    /// The states, by number.
    pub states: Vec<S>,
    /// `moves[i][m]`: the number of state `i` after move `m`.
    pub moves: Vec<[u32; N]>,
    /// The number of each state's key.
    pub index: HashMap<K, u32>,
}

impl<S: Clone, K: Hash + Eq, const N: usize> Numbered<S, K, N> {
    /// Runs the BFS.
    pub fn new(start: S, apply: impl Fn(&S, usize) -> S, key: impl Fn(&S) -> K) -> Self {
        let mut index = HashMap::from([(key(&start), 0u32)]);
        let mut states = vec![start];
        let mut next = 0;
        while next < states.len() {
            for m in 0..N {
                let child = apply(&states[next], m);
                if let std::collections::hash_map::Entry::Vacant(slot) = index.entry(key(&child)) {
                    slot.insert(states.len() as u32);
                    states.push(child);
                }
            }
            next += 1;
        }
        let moves = states
            .iter()
            .map(|state| std::array::from_fn(|m| index[&key(&apply(state, m))]))
            .collect();
        Self {
            states,
            moves,
            index,
        }
    }
}

/// A space searched by [`sequences_of_length`]: positions (or projections of them), a
/// lower bound on the moves left, and the goal test.
pub(crate) trait BoundedSpace {
    /// What the search carries from move to move.
    type State: Clone;
    /// The metric of the moves and the bound.
    fn metric(&self) -> Metric;
    /// A lower bound on the moves still needed (never more than the truth).
    fn bound(&self, state: &Self::State) -> u32;
    /// Whether the goal holds, where the bound is `bound` (only asked when it is 0).
    fn reached(&self, state: &Self::State) -> bool;
    /// The state after `mv`.
    fn apply(&self, state: &Self::State, mv: Move) -> Self::State;
}

/// A [`BoundedSpace`] as a puzzle for the shared IDA*: its metric's moves along canonical
/// sequences, a goal where the bound is 0 and the goal holds. A state carries its bound,
/// computed once as it is made.
struct Walk<'a, S> {
    space: &'a S,
    moves: Vec<Move>,
}

impl<S: BoundedSpace> Walk<'_, S> {
    fn state(&self, state: S::State) -> (S::State, u32) {
        let bound = self.space.bound(&state);
        (state, bound)
    }
}

impl<S: BoundedSpace> Puzzle for Walk<'_, S> {
    type State = (S::State, u32);
    type Move = Move;
    type History = LastTwo;

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    fn apply(&self, (state, _): &Self::State, mv: Move) -> Self::State {
        self.state(self.space.apply(state, mv))
    }

    fn is_solved(&self, (state, bound): &Self::State) -> bool {
        *bound == 0 && self.space.reached(state)
    }

    fn follow(&self, history: LastTwo, mv: Move) -> Option<LastTwo> {
        canonical_step(self.space.metric(), history, mv)
    }
}

impl<S: BoundedSpace> Heuristic<Walk<'_, S>> for Walk<'_, S> {
    fn bound(&self, (_, bound): &(S::State, u32)) -> u32 {
        *bound
    }
}

/// Appends to `out` (up to `limit` in all) the canonical sequences of exactly `length`
/// moves that end where the goal holds and do not reach it earlier, in move order.
pub(crate) fn sequences_of_length<S: BoundedSpace>(
    space: &S,
    start: &S::State,
    length: u32,
    limit: usize,
    out: &mut Vec<Vec<Move>>,
) {
    let walk = Walk {
        space,
        moves: space.metric().moves(),
    };
    let room = limit.saturating_sub(out.len());
    let start = walk.state(start.clone());
    out.extend(solutions_of_length(&walk, &walk, &start, length, room).solutions);
}

/// The shortest sequences reaching the goal (at most `limit`), and those up to `lengths`
/// moves longer; with the optimal length, or `u32::MAX` and none if no sequence of at most
/// God's number reaches it.
pub(crate) fn shortest_sequences<S: BoundedSpace>(
    space: &S,
    start: &S::State,
    lengths: u32,
    limit: usize,
) -> (u32, Vec<Vec<Move>>) {
    let mut length = space.bound(start);
    let mut solutions = Vec::new();
    let mut optimal = None;
    while length <= MAX_SOLUTION {
        sequences_of_length(space, start, length, limit, &mut solutions);
        if !solutions.is_empty() && optimal.is_none() {
            optimal = Some(length);
        }
        if solutions.len() >= limit || optimal.is_some_and(|o| length >= o + lengths) {
            break;
        }
        length += 1;
    }
    (optimal.unwrap_or(u32::MAX), solutions)
}

/// Cubies a projection follows: the slot and orientation of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Pieces {
    /// These corner cubies (slot and twist).
    Corners(Vec<u8>),
    /// These edge cubies (slot and flip).
    Edges(Vec<u8>),
}

impl Pieces {
    /// Slot and orientation of each followed cubie, in order.
    pub fn key(&self, cube: &Cube) -> Vec<u8> {
        let (list, slots, orientations): (&[u8], &[u8], &[u8]) = match self {
            Pieces::Corners(list) => (list, &cube.cp, &cube.co),
            Pieces::Edges(list) => (list, &cube.ep, &cube.eo),
        };
        list.iter()
            .flat_map(|&cubie| {
                let slot = slots.iter().position(|&x| x == cubie).expect("every cubie");
                [slot as u8, orientations[slot]]
            })
            .collect()
    }

    /// Number of placements: `n! / (n - k)!` slots times `o^k` orientations.
    pub fn size(&self) -> u64 {
        let (list, slots, orientations) = match self {
            Pieces::Corners(list) => (list, CORNERS as u64, 3u64),
            Pieces::Edges(list) => (list, EDGES as u64, 2u64),
        };
        (0..list.len() as u64)
            .map(|i| (slots - i) * orientations)
            .product()
    }
}

/// A numbered projection with the moves of one metric, for the shared BFS.
struct TableSpace<'a> {
    moves: &'a [[u32; 18]],
    metric_moves: Vec<usize>,
}

impl RankedSpace for TableSpace<'_> {
    fn size(&self) -> u64 {
        self.moves.len() as u64
    }
    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        for &m in &self.metric_moves {
            visit(self.moves[rank as usize][m] as u64);
        }
    }
}

/// Distance in `metric` of every state of a numbered projection (its move table) to the
/// nearest of `goals` ([`UNREACHED`](crate::search::bfs::UNREACHED) if none), by one BFS
/// from all of them.
pub(crate) fn distances_to(moves: &[[u32; 18]], goals: &[u64], metric: Metric) -> Vec<u8> {
    let space = TableSpace {
        moves,
        metric_moves: metric.moves().iter().map(|m| m.index()).collect(),
    };
    layered_bfs(&space, goals, &Progress::hidden(), "projection").depths
}
