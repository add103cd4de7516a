//! The cube as a puzzle for the shared search machinery: one metric's moves (or some of
//! them), along canonical sequences only.

use super::cube::{htm_may_follow, qtm_may_follow, Cube, Move};
use super::metric::Metric;
use crate::search::Puzzle;

/// The last two moves of a sequence (`(before, previous)`), all canonical pruning needs.
pub type LastTwo = (Option<Move>, Option<Move>);

/// The history after `mv`, or `None` when `mv` breaks the canonical order of `metric`
/// ([`htm_may_follow`], [`qtm_may_follow`]).
#[inline]
pub fn canonical_step(metric: Metric, (before, previous): LastTwo, mv: Move) -> Option<LastTwo> {
    let allowed = match metric {
        Metric::Qtm => qtm_may_follow(before, previous, mv),
        Metric::Htm => htm_may_follow(previous, mv),
    };
    allowed.then_some((previous, Some(mv)))
}

/// Whole cubes with the moves of one metric, or a subset of them.
#[derive(Debug, Clone)]
pub struct CubePuzzle {
    metric: Metric,
    moves: Vec<Move>,
}

impl CubePuzzle {
    /// Every move of `metric`.
    pub fn new(metric: Metric) -> Self {
        Self::with_moves(metric, metric.moves())
    }

    /// Only `moves` (each a move of `metric`), tried in index order.
    pub fn with_moves(metric: Metric, mut moves: Vec<Move>) -> Self {
        moves.sort_by_key(|m| m.index());
        moves.dedup();
        Self { metric, moves }
    }

    /// The metric.
    pub fn metric(&self) -> Metric {
        self.metric
    }
}

impl Puzzle for CubePuzzle {
    type State = Cube;
    type Move = Move;
    type History = LastTwo;

    fn moves(&self) -> &[Move] {
        &self.moves
    }

    #[inline]
    fn apply(&self, state: &Cube, mv: Move) -> Cube {
        state.apply(mv)
    }

    #[inline]
    fn is_solved(&self, state: &Cube) -> bool {
        state.is_solved()
    }

    #[inline]
    fn follow(&self, history: LastTwo, mv: Move) -> Option<LastTwo> {
        canonical_step(self.metric, history, mv)
    }
}
