//! What the shared search machinery needs of a puzzle: states, moves, which move sequences
//! are redundant, ranking into table indices, and lower bounds.
//!
//! A puzzle implements [`Puzzle`] (and [`Ranked`] if its states, or a projection of them,
//! index a table). IDA* ([`super::ida`]) takes a puzzle and a [`Heuristic`]; the BFS
//! ([`super::bfs`]) takes a [`RankedSpace`], which [`StateSpace`] makes of any ranked
//! puzzle (puzzles with faster moves on ranks implement `RankedSpace` themselves). A
//! [`PruneTable`] is a table of lower bounds by rank; [`TableBound`] turns one into a
//! heuristic.

use super::bfs::RankedSpace;

/// A puzzle seen by the search machinery.
pub trait Puzzle {
    /// A position.
    type State: Clone;
    /// A move; `Copy` and small.
    type Move: Copy + PartialEq;
    /// What move pruning remembers of the sequence so far (the last move or two, or the
    /// state of an automaton over move sequences): `Default` for the empty sequence.
    type History: Copy + Default;

    /// Every move, in the order they are tried (solutions come out in this order).
    fn moves(&self) -> &[Self::Move];

    /// The position after `mv`.
    fn apply(&self, state: &Self::State, mv: Self::Move) -> Self::State;

    /// Whether `state` is a goal.
    fn is_solved(&self, state: &Self::State) -> bool;

    /// The history after `mv`, or `None` when `mv` makes the sequence redundant (it undoes
    /// the last move, or reorders moves that commute): search tries only canonical
    /// sequences, and every position keeps at least one canonical optimal sequence.
    fn follow(&self, history: Self::History, mv: Self::Move) -> Option<Self::History> {
        let _ = mv;
        Some(history)
    }
}

/// A puzzle (or a projection of one) whose states are numbered `0..size()`.
pub trait Ranked: Puzzle {
    /// Number of ranks.
    fn size(&self) -> u64;
    /// The rank of `state`.
    fn rank(&self, state: &Self::State) -> u64;
    /// The state of rank `rank` (below [`Ranked::size`]).
    fn unrank(&self, rank: u64) -> Self::State;
}

/// An admissible lower bound on the moves from a state to a goal.
pub trait Heuristic<P: Puzzle + ?Sized> {
    /// A lower bound (never more than the truth).
    fn bound(&self, state: &P::State) -> u32;

    /// Bounds of several states at once (children of one node), for heuristics whose
    /// table reads overlap when issued together; a bound above `budget` may stop short of
    /// its full value. The default asks [`Heuristic::bound`] for each.
    fn bounds(&self, states: &[P::State], budget: u32, out: &mut [u32]) {
        let _ = budget;
        for (o, state) in out.iter_mut().zip(states) {
            *o = self.bound(state);
        }
    }
}

/// No information: every bound is 0 (plain iterative deepening).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoBound;

impl<P: Puzzle + ?Sized> Heuristic<P> for NoBound {
    fn bound(&self, _: &P::State) -> u32 {
        0
    }
}

/// A table of lower bounds by rank (a pattern database or an exact distance table).
pub trait PruneTable {
    /// Number of entries.
    fn len(&self) -> u64;
    /// The lower bound stored for `rank`.
    fn lower_bound(&self, rank: u64) -> u32;
    /// Whether the table has no entries.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The heuristic that ranks a state with `puzzle` and reads `table` there.
#[derive(Debug, Clone, Copy)]
pub struct TableBound<'a, P, T> {
    /// Ranks states.
    pub puzzle: &'a P,
    /// Bounds by rank.
    pub table: &'a T,
}

impl<P: Ranked, T: PruneTable> Heuristic<P> for TableBound<'_, P, T> {
    fn bound(&self, state: &P::State) -> u32 {
        self.table.lower_bound(self.puzzle.rank(state))
    }
}

/// A ranked puzzle as a space for the shared BFS: neighbours by unranking, applying each
/// move and ranking again (every move must have an inverse among the moves).
#[derive(Debug, Clone, Copy)]
pub struct StateSpace<'a, P>(pub &'a P);

impl<P: Ranked + Sync> RankedSpace for StateSpace<'_, P> {
    fn size(&self) -> u64 {
        self.0.size()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let state = self.0.unrank(rank);
        for &mv in self.0.moves() {
            visit(self.0.rank(&self.0.apply(&state, mv)));
        }
    }
}
