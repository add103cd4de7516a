//! Cube orientations, boards and rolls, derived from the two rolling rules.

/// A colour of a cube face pair (opposite faces share a colour).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// White: on top at the start.
    White = 0,
    /// Red: facing front (row 3) at the start.
    Red = 1,
    /// Blue: facing the sides at the start.
    Blue = 2,
}

impl Colour {
    /// All colours, by index.
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Red, Colour::Blue];

    /// The judge's letter for this colour.
    pub fn letter(self) -> char {
        ['W', 'R', 'B'][self as usize]
    }
}

/// One of the 6 orientations of a cube: which colour is on top and which faces front.
///
/// Index = `top * 2 + (1 if front is the larger of the two other colours)`, so `top = index / 2`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Orientation(pub u8);

/// Number of cube orientations.
pub const ORIENTATIONS: usize = 6;

const fn orientation_index(top: u8, front: u8) -> u8 {
    // The two non-top colours in ascending order: front is either the first or the second.
    let smaller_other = if top == 0 { 1 } else { 0 };
    top * 2 + if front == smaller_other { 0 } else { 1 }
}

const fn orientation_faces(index: u8) -> (u8, u8, u8) {
    let top = index / 2;
    let (a, b) = match top {
        0 => (1, 2),
        1 => (0, 2),
        _ => (0, 1),
    };
    if index.is_multiple_of(2) {
        (top, a, b)
    } else {
        (top, b, a)
    }
}

const fn roll_table(sideways: bool) -> [u8; ORIENTATIONS] {
    let mut table = [0u8; ORIENTATIONS];
    let mut i = 0;
    while i < ORIENTATIONS {
        let (top, front, side) = orientation_faces(i as u8);
        table[i] = if sideways {
            // Column changes: top and side swap, front stays.
            orientation_index(side, front)
        } else {
            // Row changes: top and front swap.
            orientation_index(front, top)
        };
        i += 1;
    }
    table
}

/// Orientation after rolling sideways (the cube's column changes).
pub const ROLL_SIDEWAYS: [u8; ORIENTATIONS] = roll_table(true);
/// Orientation after rolling forward or back (the cube's row changes).
pub const ROLL_FORWARD: [u8; ORIENTATIONS] = roll_table(false);

impl Orientation {
    /// White on top, red facing front: every cube's orientation at the start.
    pub const START: Orientation = Orientation(orientation_index(0, 1));

    /// The orientation with `top` up and `front` facing front (the two must differ).
    pub fn from_faces(top: Colour, front: Colour) -> Orientation {
        assert_ne!(top, front, "top and front faces have different colours");
        Orientation(orientation_index(top as u8, front as u8))
    }

    /// The colour on top.
    pub fn top(self) -> Colour {
        Colour::ALL[(self.0 / 2) as usize]
    }

    /// The colour facing front.
    pub fn front(self) -> Colour {
        Colour::ALL[orientation_faces(self.0).1 as usize]
    }
}

/// A roll, named by the direction the cube moves into the empty cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Roll {
    /// The cube right of the empty cell rolls left.
    Left,
    /// The cube left of the empty cell rolls right.
    Right,
    /// The cube below the empty cell rolls up (toward row 1).
    Up,
    /// The cube above the empty cell rolls down (toward row 3).
    Down,
}

impl Roll {
    /// All rolls.
    pub const ALL: [Roll; 4] = [Roll::Left, Roll::Right, Roll::Up, Roll::Down];

    /// The roll that undoes this one.
    pub fn opposite(self) -> Roll {
        match self {
            Roll::Left => Roll::Right,
            Roll::Right => Roll::Left,
            Roll::Up => Roll::Down,
            Roll::Down => Roll::Up,
        }
    }

    /// One-letter name used by `--path`: `L`, `R`, `U` or `D`.
    pub fn letter(self) -> char {
        match self {
            Roll::Left => 'L',
            Roll::Right => 'R',
            Roll::Up => 'U',
            Roll::Down => 'D',
        }
    }

    /// The cell the rolling cube comes from, given the empty cell, if it is on the board.
    pub fn source(self, empty: usize) -> Option<usize> {
        let (row, col) = (empty / 3, empty % 3);
        match self {
            Roll::Left => (col < 2).then(|| empty + 1),
            Roll::Right => (col > 0).then(|| empty - 1),
            Roll::Up => (row < 2).then(|| empty + 3),
            Roll::Down => (row > 0).then(|| empty - 3),
        }
    }

    /// Whether the cube changes column (and so rolls sideways).
    pub fn is_sideways(self) -> bool {
        matches!(self, Roll::Left | Roll::Right)
    }
}

/// Marker for the empty cell in [`Board::cells`].
pub const EMPTY: u8 = ORIENTATIONS as u8;

/// A board: the orientation of the cube in each cell, row-major, [`EMPTY`] in one cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    /// Orientation index per cell, or [`EMPTY`].
    pub cells: [u8; 9],
}

impl Board {
    /// The start position: every cube white on top, red to the front; `empty` is free.
    pub fn start(empty: usize) -> Board {
        let mut cells = [Orientation::START.0; 9];
        cells[empty] = EMPTY;
        Board { cells }
    }

    /// The empty cell.
    pub fn empty(&self) -> usize {
        self.cells
            .iter()
            .position(|&c| c == EMPTY)
            .expect("a board has an empty cell")
    }

    /// The board after `roll`, or `None` if no cube can roll that way.
    pub fn roll(&self, roll: Roll) -> Option<Board> {
        let empty = self.empty();
        let source = roll.source(empty)?;
        let rolled = if roll.is_sideways() {
            ROLL_SIDEWAYS
        } else {
            ROLL_FORWARD
        };
        let mut cells = self.cells;
        cells[empty] = rolled[cells[source] as usize];
        cells[source] = EMPTY;
        Some(Board { cells })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rolls_follow_the_rules_and_are_involutions() {
        for o in 0..ORIENTATIONS as u8 {
            let (top, front, side) = orientation_faces(o);
            assert_eq!(orientation_index(top, front), o);
            assert_ne!(top, front);
            assert_eq!(top + front + side, 3);
            let s = ROLL_SIDEWAYS[o as usize];
            assert_eq!(orientation_faces(s), (side, front, top));
            assert_eq!(ROLL_SIDEWAYS[s as usize], o);
            let f = ROLL_FORWARD[o as usize];
            assert_eq!(orientation_faces(f), (front, top, side));
            assert_eq!(ROLL_FORWARD[f as usize], o);
        }
        assert_eq!(Orientation::START.top(), Colour::White);
        assert_eq!(Orientation::START.front(), Colour::Red);
    }

    #[test]
    fn every_roll_is_undone_by_its_opposite() {
        let board = Board::start(4);
        for roll in Roll::ALL {
            let next = board.roll(roll).expect("centre has four neighbours");
            assert_eq!(next.roll(roll.opposite()), Some(board));
        }
        assert_eq!(Board::start(0).roll(Roll::Right), None);
        assert_eq!(Board::start(0).roll(Roll::Down), None);
    }
}
