//! Whole-cube symmetries (rotations and reflections) acting on positions by conjugation.
//!
//! Turning the whole cube, or looking at it in a mirror, and renaming the colours after
//! the centres gives a position at the same distance in both metrics (a solution maps to a
//! solution move by move). Two families matter for the tables:
//! - the 16 symmetries that keep the U-D axis ([`UD_SYMMETRIES`]): they map the E-slice to
//!   itself and keep U/D stickers on U/D faces, so the phase-1 coordinates of a position
//!   and of its images are tied together and tables can store one entry per class;
//! - two rotations bringing the R-L and the F-B axis onto U-D ([`AXIS_ROTATIONS`]): a table
//!   made for the U-D axis then also bounds the position seen along the other axes.

use crate::puzzles::rubik::model::cube::{Cube, Face, Move, CORNERS, EDGES};
use crate::puzzles::rubik::model::facelets::transform_by_stickers;
use crate::puzzles::rubik::model::stickers::symmetry_slot_maps;
use std::sync::LazyLock;

/// A signed permutation matrix on (x = R, y = U, z = F).
pub use crate::geometry::Matrix;
use crate::geometry::{determinant, multiply, signed_permutations, IDENTITY};

/// A symmetry as slot maps: applying it to a position is a few table lookups per cubie.
#[derive(Debug, Clone, Copy)]
pub struct Symmetry {
    matrix: Matrix,
    corner_slot: [u8; CORNERS],
    corner_shift: [u8; CORNERS],
    edge_slot: [u8; EDGES],
    edge_shift: [u8; EDGES],
    faces: [u8; 6],
    mirror: bool,
}

impl Symmetry {
    /// The symmetry with matrix `matrix` (a signed permutation matrix).
    pub fn new(matrix: Matrix) -> Self {
        let maps = symmetry_slot_maps(matrix);
        Self {
            matrix,
            corner_slot: maps.corner_slot,
            corner_shift: maps.corner_shift,
            edge_slot: maps.edge_slot,
            edge_shift: maps.edge_shift,
            faces: maps.faces,
            mirror: maps.mirror,
        }
    }

    /// The position seen after applying the symmetry to the whole cube (colours renamed
    /// after the centres): a cubie in slot `i` moves to slot `σ(i)` as the image cubie,
    /// its twist shifted by where the reference stickers of the slot and of the cubie go
    /// (and reversed by a reflection).
    #[inline]
    pub fn conjugate(&self, c: &Cube) -> Cube {
        let mut out = Cube::SOLVED;
        for i in 0..CORNERS {
            let cubie = c.cp[i] as usize;
            let t = self.corner_slot[i] as usize;
            out.cp[t] = self.corner_slot[cubie];
            let twist = if self.mirror { 3 - c.co[i] } else { c.co[i] };
            out.co[t] = (twist + self.corner_shift[i] + 3 - self.corner_shift[cubie]) % 3;
        }
        for i in 0..EDGES {
            let cubie = c.ep[i] as usize;
            let t = self.edge_slot[i] as usize;
            out.ep[t] = self.edge_slot[cubie];
            out.eo[t] = c.eo[i] ^ self.edge_shift[i] ^ self.edge_shift[cubie];
        }
        out
    }

    /// The move that the symmetry turns `mv` into: `conjugate(c.apply(mv))` equals
    /// `conjugate(c).apply(map_move(mv))`.
    pub fn map_move(&self, mv: Move) -> Move {
        let face = Face::ALL[self.faces[mv.face().index()] as usize];
        let turns = if self.mirror {
            4 - mv.turns()
        } else {
            mv.turns()
        };
        Move::new(face, turns)
    }

    /// The matrix of the symmetry.
    pub fn matrix(&self) -> Matrix {
        self.matrix
    }

    /// The same conjugation computed sticker by sticker (slow; the reference in tests).
    pub fn conjugate_by_stickers(&self, c: &Cube) -> Cube {
        transform_by_stickers(c, self.matrix)
    }
}

/// Product of two matrices.
/// The 16 symmetries that map the U-D axis onto itself, the identity first.
pub static UD_SYMMETRIES: LazyLock<Vec<Symmetry>> = LazyLock::new(|| {
    let mut list = Vec::with_capacity(16);
    // x and z may be exchanged; every axis may be reversed; y stays the y axis.
    for swap in [false, true] {
        for signs in 0..8u8 {
            let sign = |bit: u8| if signs >> bit & 1 == 1 { -1 } else { 1 };
            let (sx, sy, sz) = (sign(0), sign(1), sign(2));
            let m: Matrix = if swap {
                [[0, 0, sx], [0, sy, 0], [sz, 0, 0]]
            } else {
                [[sx, 0, 0], [0, sy, 0], [0, 0, sz]]
            };
            list.push(Symmetry::new(m));
        }
    }
    list
});

/// The 24 rotations of the whole cube (the signed permutation matrices of determinant
/// +1), the identity first.
pub static ROTATIONS: LazyLock<Vec<Symmetry>> = LazyLock::new(|| {
    let mut list: Vec<Symmetry> = signed_permutations()
        .filter(|m| determinant(m) == 1)
        .map(Symmetry::new)
        .collect();
    list.sort_by_key(|s| s.matrix != IDENTITY);
    list
});

/// The four rotations about the U-D axis (keeping U up), the identity first.
pub static UD_ROTATIONS: LazyLock<Vec<Symmetry>> = LazyLock::new(|| {
    ROTATIONS
        .iter()
        .copied()
        .filter(|s| s.matrix[1][1] == 1)
        .collect()
});

/// Number of symmetries keeping the U-D axis.
pub const UD_SYMMETRY_COUNT: usize = 16;

/// `UD_INVERSE[s]`: index of the inverse of symmetry `s` in [`UD_SYMMETRIES`].
pub static UD_INVERSE: LazyLock<[u8; UD_SYMMETRY_COUNT]> = LazyLock::new(|| {
    let syms = &*UD_SYMMETRIES;
    std::array::from_fn(|s| {
        syms.iter()
            .position(|t| multiply(&t.matrix, &syms[s].matrix) == IDENTITY)
            .expect("the symmetries form a group") as u8
    })
});

/// Rotations that bring the R-L axis (z, quarter turn about F) and the F-B axis (x,
/// quarter turn about R) onto the U-D axis.
pub static AXIS_ROTATIONS: LazyLock<[Symmetry; 2]> = LazyLock::new(|| {
    [
        Symmetry::new([[0, -1, 0], [1, 0, 0], [0, 0, 1]]),
        Symmetry::new([[1, 0, 0], [0, 0, 1], [0, -1, 0]]),
    ]
});

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn slot_maps_agree_with_stickers_and_map_moves_to_moves() {
        let mut rng = SplitMix64::new(5);
        let all: Vec<Symmetry> = UD_SYMMETRIES
            .iter()
            .chain(AXIS_ROTATIONS.iter())
            .copied()
            .collect();
        for sym in &all {
            assert_eq!(sym.conjugate(&Cube::SOLVED), Cube::SOLVED);
            for _ in 0..40 {
                let c = Cube::random(&mut rng);
                let image = sym.conjugate(&c);
                assert_eq!(image, sym.conjugate_by_stickers(&c));
                assert!(image.validate().is_ok());
                assert_eq!(sym.conjugate(&c.inverse()), image.inverse());
                for mv in Move::all() {
                    assert_eq!(sym.conjugate(&c.apply(mv)), image.apply(sym.map_move(mv)));
                }
            }
        }
    }

    #[test]
    fn ud_symmetries_form_a_group_keeping_the_ud_axis() {
        let syms = &*UD_SYMMETRIES;
        assert_eq!(syms.len(), UD_SYMMETRY_COUNT);
        assert!(syms[0].matrix() == IDENTITY);
        assert_eq!(syms.iter().filter(|s| s.mirror).count(), 8);
        for (s, sym) in syms.iter().enumerate() {
            let inv = syms[UD_INVERSE[s] as usize];
            assert!(multiply(&inv.matrix(), &sym.matrix()) == IDENTITY);
            let up = Face::U.index();
            assert!(matches!(sym.faces[up] as usize, 0 | 3));
        }
        let [rl, fb] = *AXIS_ROTATIONS;
        assert_eq!(rl.faces[Face::R.index()] as usize, Face::U.index());
        assert_eq!(fb.faces[Face::F.index()] as usize, Face::U.index());
    }
}
