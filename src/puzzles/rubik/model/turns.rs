//! The 18 face turns acting on cubes: each turn's cube, derived from the sticker geometry
//! (a quarter turn rotates one layer's stickers), and applying turns to positions.

use super::cube::{Cube, Face, Move, MOVE_COUNT};
use super::facelets::quarter_turn_cube;
use std::sync::LazyLock;

/// The cube of every move applied to the solved cube, by move index.
pub static MOVE_CUBES: LazyLock<[Cube; MOVE_COUNT]> = LazyLock::new(|| {
    let mut cubes = [Cube::SOLVED; MOVE_COUNT];
    for face in Face::ALL {
        let quarter = quarter_turn_cube(face);
        let half = quarter.then(&quarter);
        let counter = half.then(&quarter);
        cubes[Move::new(face, 1).index()] = quarter;
        cubes[Move::new(face, 2).index()] = half;
        cubes[Move::new(face, 3).index()] = counter;
    }
    cubes
});

impl Cube {
    /// The position after `mv`.
    #[inline]
    pub fn apply(&self, mv: Move) -> Cube {
        self.then(&MOVE_CUBES[mv.index()])
    }

    /// The position after every move of `moves`, in order.
    pub fn apply_all(&self, moves: &[Move]) -> Cube {
        moves.iter().fold(*self, |c, &m| c.apply(m))
    }

    /// The solved cube scrambled by `moves`.
    pub fn from_moves(moves: &[Move]) -> Cube {
        Cube::SOLVED.apply_all(moves)
    }
}
