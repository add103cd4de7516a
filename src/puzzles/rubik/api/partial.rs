//! [`PartialSolver`]: a cube known in part (facelets with `?`): the shortest sequences
//! bringing every named sticker onto a face of its colour.

use crate::puzzles::rubik::goals::partial::{PartialCube, PartialSearch};
use crate::puzzles::rubik::model::cube::Move;
use crate::puzzles::rubik::model::metric::Metric;

/// Why a partial cube got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartialUnreachable {
    /// No sequence brings the named stickers to their colours.
    #[error(
        "no sequence brings the named stickers to their colours: they are no part of a real cube"
    )]
    NoCube,
    /// A sequence found leaves a named sticker off its colour: a bug, never an answer.
    #[error("internal error: a sequence found leaves a named sticker off its colour")]
    WrongSolution,
}

/// Solving a partial cube (no tables: small projections built per cube).
pub struct PartialSolver {
    cube: PartialCube,
    search: PartialSearch,
}

impl PartialSolver {
    /// The search for `cube` in `metric`.
    pub fn new(cube: PartialCube, metric: Metric) -> Self {
        let search = PartialSearch::new(&cube, metric);
        Self { cube, search }
    }

    /// The optimal length and at most `limit` solutions, of the optimal length and up to
    /// `lengths` moves more, each checked on the named stickers.
    pub fn solve(
        &self,
        lengths: u32,
        limit: usize,
    ) -> Result<(u32, Vec<Vec<Move>>), PartialUnreachable> {
        let (optimal, solutions) = self.search.solve(lengths, limit);
        if optimal == u32::MAX {
            return Err(PartialUnreachable::NoCube);
        }
        if !solutions.iter().all(|s| self.cube.solved_by(s)) {
            return Err(PartialUnreachable::WrongSolution);
        }
        Ok((optimal, solutions))
    }
}
