//! The two engines: walking down the distance table, and IDA* with no table. Both return
//! the lexicographically smallest among the shortest move sequences.

use super::ranking::MaskMoves;
use super::state::{Board, Move, CENTRE};
use super::tables::RotationTable;
use crate::engine::Solve;
use crate::search::{ida_star, Heuristic, Puzzle};

/// An answer: the moves and the digit that ends up in the centre.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Lexicographically smallest shortest sequence of moves.
    pub moves: Vec<Move>,
    /// The digit filling the centre afterwards.
    pub digit: u8,
}

/// Answers by table: at each step, the first move (in letter order) after which some
/// digit is one move closer to filling the centre.
pub struct TableSolver<'a> {
    table: &'a RotationTable,
    moves: MaskMoves,
}

impl<'a> TableSolver<'a> {
    /// A solver over a loaded table.
    pub fn new(table: &'a RotationTable) -> Self {
        Self {
            table,
            moves: MaskMoves::new(),
        }
    }
}

impl Solve for TableSolver<'_> {
    type Query = Board;
    type Answer = Solution;

    /// Solves `board` (which must hold eight of each digit).
    fn solve(&self, board: &Board) -> Solution {
        let mut masks = [1u8, 2, 3].map(|digit| board.mask_of(digit));
        let mut distances = masks.map(|m| self.table.distance(m));
        let mut remaining = *distances.iter().min().expect("three digits");
        // Digits that can still fill the centre in `remaining` moves.
        let mut live = distances.map(|d| d == remaining);
        let mut moves = Vec::with_capacity(remaining as usize);
        while remaining > 0 {
            let (mv, next_masks, next_distances) = Move::ALL
                .iter()
                .find_map(|&mv| {
                    let next = masks.map(|m| self.moves.apply(m, mv));
                    let next_distances: [u32; 3] = std::array::from_fn(|d| {
                        if live[d] {
                            self.table.distance(next[d])
                        } else {
                            u32::MAX
                        }
                    });
                    next_distances
                        .contains(&(remaining - 1))
                        .then_some((mv, next, next_distances))
                })
                .expect("a digit at distance d has a move to distance d - 1");
            moves.push(mv);
            masks = next_masks;
            distances = next_distances;
            remaining -= 1;
            live = distances.map(|d| d == remaining);
        }
        let digit = live
            .iter()
            .position(|&l| l)
            .expect("one digit fills the centre") as u8
            + 1;
        Solution { moves, digit }
    }
}

/// The board as an IDA* problem: heuristic = 8 minus the most cells any one digit already
/// holds in the centre (one move brings at most one new cell into the centre).
struct BoardSearch;

impl Puzzle for BoardSearch {
    type State = Board;
    type Move = Move;
    /// The last move.
    type History = Option<Move>;

    fn moves(&self) -> &[Move] {
        &Move::ALL
    }

    fn apply(&self, state: &Board, mv: Move) -> Board {
        state.apply(mv)
    }

    fn is_solved(&self, state: &Board) -> bool {
        state.centre_digit().is_some()
    }

    /// Never undo the last move.
    fn follow(&self, previous: Option<Move>, mv: Move) -> Option<Option<Move>> {
        (previous != Some(mv.inverse())).then_some(Some(mv))
    }
}

impl Heuristic<BoardSearch> for BoardSearch {
    fn bound(&self, state: &Board) -> u32 {
        let mut counts = [0u32; 4];
        for &c in &CENTRE {
            counts[state.cells[c] as usize] += 1;
        }
        8 - counts.iter().max().copied().unwrap_or(0)
    }
}

/// Answers by plain IDA*, with no table.
#[derive(Debug, Default)]
pub struct SearchSolver;

/// Deeper than any position needs (14); a safety bound for IDA*.
const SEARCH_LIMIT: u32 = 20;

impl Solve for SearchSolver {
    type Query = Board;
    type Answer = Solution;

    /// Solves `board` (which must hold eight of each digit).
    fn solve(&self, board: &Board) -> Solution {
        let outcome = ida_star(&BoardSearch, &BoardSearch, board, SEARCH_LIMIT);
        let moves = outcome
            .solution
            .expect("every rotation-game position is solvable within 14 moves");
        let end = moves.iter().fold(*board, |b, &mv| b.apply(mv));
        let digit = end.centre_digit().expect("IDA* stops at a goal");
        Solution { moves, digit }
    }
}
