//! The 8 symmetries of the square board, and what they do to cubes and goals.
//!
//! A symmetry that transposes the board turns rows into columns, so sideways rolls become
//! forward rolls: a cube's front and side colours trade places. Relabelling red and blue
//! at the same time maps the start orientation (white top, red front) onto itself, so the
//! start with cell `s` empty maps onto the start with `g(s)` empty, and the goal's top
//! colours map by the cell permutation plus the red/blue relabelling. Hence
//! `distance(s, goal) = distance(g(s), g(goal))`, and three BFS runs (a corner, an edge
//! and the centre) give the answers for all nine starts.

use super::goal::{goal_of_pattern, pattern_index, GoalCell};
use super::state::{Colour, Orientation, Roll};

/// One of the 8 symmetries of the 3x3 board: optional transpose, then optional flips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Symmetry {
    transpose: bool,
    flip_rows: bool,
    flip_cols: bool,
}

impl Symmetry {
    /// All 8 symmetries, the identity first.
    pub fn all() -> impl Iterator<Item = Symmetry> {
        (0..8u8).map(|bits| Symmetry {
            transpose: bits & 4 != 0,
            flip_rows: bits & 2 != 0,
            flip_cols: bits & 1 != 0,
        })
    }

    /// A symmetry mapping cell `from` to cell `to`, if one exists.
    pub fn mapping(from: usize, to: usize) -> Option<Symmetry> {
        Symmetry::all().find(|g| g.cell(from) == to)
    }

    /// The image of a cell (row-major 0..9).
    pub fn cell(self, cell: usize) -> usize {
        let (mut row, mut col) = (cell / 3, cell % 3);
        if self.transpose {
            std::mem::swap(&mut row, &mut col);
        }
        if self.flip_rows {
            row = 2 - row;
        }
        if self.flip_cols {
            col = 2 - col;
        }
        row * 3 + col
    }

    /// The image of a roll direction.
    pub fn roll(self, roll: Roll) -> Roll {
        let (mut dr, mut dc): (i8, i8) = match roll {
            Roll::Left => (0, -1),
            Roll::Right => (0, 1),
            Roll::Up => (-1, 0),
            Roll::Down => (1, 0),
        };
        if self.transpose {
            std::mem::swap(&mut dr, &mut dc);
        }
        if self.flip_rows {
            dr = -dr;
        }
        if self.flip_cols {
            dc = -dc;
        }
        match (dr, dc) {
            (0, -1) => Roll::Left,
            (0, 1) => Roll::Right,
            (-1, 0) => Roll::Up,
            _ => Roll::Down,
        }
    }

    fn colour(self, colour: Colour) -> Colour {
        match (self.transpose, colour) {
            (true, Colour::Red) => Colour::Blue,
            (true, Colour::Blue) => Colour::Red,
            _ => colour,
        }
    }

    /// The image of a cube orientation (front and side trade places under a transpose,
    /// and red and blue are relabelled).
    pub fn orientation(self, o: Orientation) -> Orientation {
        if !self.transpose {
            return o;
        }
        let top = self.colour(o.top());
        // The side axis becomes the front axis.
        let side = Colour::ALL[3 - o.top() as usize - o.front() as usize];
        let front = self.colour(side);
        Orientation::from_faces(top, front)
    }

    /// The image of a goal pattern index.
    pub fn pattern(self, pattern: u32) -> u32 {
        let goal = goal_of_pattern(pattern);
        let mut image = [GoalCell::Empty; 9];
        for (cell, g) in goal.iter().enumerate() {
            image[self.cell(cell)] = match *g {
                GoalCell::Top(c) => GoalCell::Top(self.colour(c)),
                GoalCell::Empty => GoalCell::Empty,
            };
        }
        pattern_index(&image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rolling::state::{Board, EMPTY};
    use crate::rng::SplitMix64;

    fn image(g: Symmetry, board: &Board) -> Board {
        let mut cells = [EMPTY; 9];
        for (cell, &o) in board.cells.iter().enumerate() {
            cells[g.cell(cell)] = if o == EMPTY {
                EMPTY
            } else {
                g.orientation(Orientation(o)).0
            };
        }
        Board { cells }
    }

    #[test]
    fn symmetries_commute_with_rolls_and_keep_the_start() {
        let mut rng = SplitMix64::new(3);
        for g in Symmetry::all() {
            for s in 0..9 {
                assert_eq!(image(g, &Board::start(s)), Board::start(g.cell(s)));
            }
            for _ in 0..200 {
                let mut board = Board::start(rng.below(9) as usize);
                for _ in 0..30 {
                    let roll = Roll::ALL[rng.below(4) as usize];
                    board = board.roll(roll).unwrap_or(board);
                }
                for roll in Roll::ALL {
                    let rolled = board.roll(roll).map(|b| image(g, &b));
                    assert_eq!(rolled, image(g, &board).roll(g.roll(roll)));
                }
            }
        }
        assert_eq!(Symmetry::all().count(), 8);
        let cells: std::collections::HashSet<Vec<usize>> = Symmetry::all()
            .map(|g| (0..9).map(|c| g.cell(c)).collect())
            .collect();
        assert_eq!(cells.len(), 8, "all distinct");
    }
}
