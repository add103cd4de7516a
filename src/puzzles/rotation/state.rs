//! The board and its eight moves, derived from the four lines of the board.

/// Number of cells on the board.
pub const CELLS: usize = 24;
/// The eight centre cells that must end up holding one digit.
pub const CENTRE: [usize; 8] = [6, 7, 8, 11, 12, 15, 16, 17];

/// The four lines of 7 cells, each listed from the end its forward move pushes toward:
/// the left and right columns (pushed up by A and B), the upper and lower rows (pushed
/// right by C, left by D). The other four moves push the same lines the other way.
const LINES: [[usize; 7]; 4] = [
    [0, 2, 6, 11, 15, 20, 22],
    [1, 3, 8, 12, 17, 21, 23],
    [10, 9, 8, 7, 6, 5, 4],
    [19, 18, 17, 16, 15, 14, 13],
];

/// A move, named by its letter; `Move(0)` is A, ..., `Move(7)` is H.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(pub u8);

impl Move {
    /// All moves in letter order (the order lexicographic answers are compared in).
    pub const ALL: [Move; 8] = [
        Move(0),
        Move(1),
        Move(2),
        Move(3),
        Move(4),
        Move(5),
        Move(6),
        Move(7),
    ];

    /// The letter `A`..`H`.
    pub fn letter(self) -> char {
        (b'A' + self.0) as char
    }

    /// The move that undoes this one (A-F, B-E, C-H, D-G).
    pub fn inverse(self) -> Move {
        Move(INVERSE[self.0 as usize])
    }

    /// The cells of this move's line, listed from the head: each cell takes the value of
    /// the next one, the last takes the old first.
    pub fn line(self) -> [usize; 7] {
        let i = self.0 as usize;
        if i < 4 {
            LINES[i]
        } else {
            let mut line = LINES[INVERSE[i] as usize];
            line.reverse();
            line
        }
    }
}

/// E undoes B, F undoes A, G undoes D, H undoes C.
const INVERSE: [u8; 8] = [5, 4, 7, 6, 1, 0, 3, 2];

/// A board: the digit (1..3) in each cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Digits of cells 0..23.
    pub cells: [u8; CELLS],
}

impl Board {
    /// The board after `mv`.
    pub fn apply(&self, mv: Move) -> Board {
        let line = mv.line();
        let mut cells = self.cells;
        for i in 0..7 {
            cells[line[i]] = self.cells[line[(i + 1) % 7]];
        }
        Board { cells }
    }

    /// The digit filling the centre, if one does.
    pub fn centre_digit(&self) -> Option<u8> {
        let first = self.cells[CENTRE[0]];
        CENTRE
            .iter()
            .all(|&c| self.cells[c] == first)
            .then_some(first)
    }

    /// The cells holding `digit`, as a 24-bit mask.
    pub fn mask_of(&self, digit: u8) -> u32 {
        self.cells
            .iter()
            .enumerate()
            .filter(|(_, &d)| d == digit)
            .fold(0, |mask, (i, _)| mask | 1 << i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_match_the_statement_and_inverses_undo_them() {
        assert_eq!(Move(4).line(), [23, 21, 17, 12, 8, 3, 1]);
        assert_eq!(Move(5).line(), [22, 20, 15, 11, 6, 2, 0]);
        assert_eq!(Move(6).line(), [13, 14, 15, 16, 17, 18, 19]);
        assert_eq!(Move(7).line(), [4, 5, 6, 7, 8, 9, 10]);
        let board = Board {
            cells: std::array::from_fn(|i| (i % 3) as u8 + 1),
        };
        for mv in Move::ALL {
            assert_eq!(board.apply(mv).apply(mv.inverse()), board);
            let seven = (0..7).fold(board, |b, _| b.apply(mv));
            assert_eq!(seven, board, "a line has 7 cells");
        }
    }
}
