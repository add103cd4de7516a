//! Turn metrics: which moves a solution is made of and how its length is counted.

use super::cube::Move;

/// The turn metric solutions are measured in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Metric {
    /// Quarter-turn metric: a half turn counts 2.
    Qtm,
    /// Half-turn (face-turn) metric: every face turn counts 1.
    Htm,
}

impl Metric {
    /// The metric's unit in words: "quarter turns" or "face turns".
    pub fn unit(self) -> &'static str {
        match self {
            Metric::Qtm => "quarter turns",
            Metric::Htm => "face turns",
        }
    }

    /// Length of `moves` in this metric.
    pub fn length(self, moves: &[Move]) -> u32 {
        match self {
            Metric::Qtm => moves.iter().map(|m| m.qtm_cost()).sum(),
            Metric::Htm => moves.len() as u32,
        }
    }

    /// The metric's moves, by index: the 12 quarter turns, or all 18 face turns.
    pub fn moves(self) -> Vec<Move> {
        self.each_move().collect()
    }

    /// [`Metric::moves`] without a vector, for loops that run often.
    pub fn each_move(self) -> impl Iterator<Item = Move> {
        let quarter_only = self == Metric::Qtm;
        Move::all().filter(move |m| !quarter_only || m.is_quarter())
    }

    /// The metric's moves as a bit mask (bit `m` for move index `m`).
    pub fn move_mask(self) -> u32 {
        self.each_move().fold(0, |mask, m| mask | 1 << m.index())
    }

    /// The metric's name on the command line and in table names: `qtm` or `htm`.
    pub fn name(self) -> &'static str {
        match self {
            Metric::Qtm => "qtm",
            Metric::Htm => "htm",
        }
    }
}

/// Deepest search the solvers accept (God's number in QTM is 26).
pub const MAX_SOLUTION: u32 = 26;
