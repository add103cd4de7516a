//! The cube in two 16-byte vectors, for the optimal search's hot loop: composing two
//! positions is a byte shuffle and three or four byte operations, and the masks the
//! coordinates read (which slots hold which cubies, which edges are flipped) are one
//! compare and one `movemask` each.
//!
//! Layout: byte `i < 8` of the corner vector is the corner cubie in slot `i` plus
//! 16 times its twist; byte `i < 12` of the edge vector is the edge cubie in slot `i`
//! plus 16 times its flip. The bytes past the slots hold their own index (an
//! identity), so a shuffle by a whole vector leaves them alone.
//!
//! Two implementations of the operations, as the cube's representations in
//! nissy-core's `src/arch/`: SSSE3 byte shuffles where the build targets a processor that
//! has them ([`x86`], safe through `safe_arch`), and plain byte loops elsewhere
//! ([`portable`], always compiled: the tests hold each to the other and to [`Cube`]).

use super::cube::{Cube, CORNERS, EDGES, MOVE_COUNT};
use super::turns::MOVE_CUBES;
use std::sync::LazyLock;

pub mod portable;
#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
pub mod x86;

#[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
use x86 as ops;

#[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
use portable as ops;

/// A cube position as two 16-byte vectors (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(C, align(16))]
pub struct PackedCube {
    /// Corner cubie plus 16 times its twist, per slot; then identity bytes.
    corners: [u8; 16],
    /// Edge cubie plus 16 times its flip, per slot; then identity bytes.
    edges: [u8; 16],
}

/// The identity bytes: what a solved cube holds in both vectors.
const IDENTITY: [u8; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15];

/// The face turns, packed (index as [`crate::puzzles::rubik::model::cube::Move::index`]).
pub static MOVE_PACKED: LazyLock<[PackedCube; MOVE_COUNT]> =
    LazyLock::new(|| std::array::from_fn(|m| PackedCube::of(&MOVE_CUBES[m])));

impl PackedCube {
    /// The solved cube.
    pub const SOLVED: PackedCube = PackedCube {
        corners: IDENTITY,
        edges: IDENTITY,
    };

    /// The packed form of `cube`.
    pub fn of(cube: &Cube) -> Self {
        let mut packed = Self::SOLVED;
        for i in 0..CORNERS {
            packed.corners[i] = cube.cp[i] | cube.co[i] << 4;
        }
        for i in 0..EDGES {
            packed.edges[i] = cube.ep[i] | cube.eo[i] << 4;
        }
        packed
    }

    /// The cube it holds.
    pub fn cube(&self) -> Cube {
        let mut cube = Cube::SOLVED;
        for i in 0..CORNERS {
            cube.cp[i] = self.corners[i] & 15;
            cube.co[i] = self.corners[i] >> 4;
        }
        for i in 0..EDGES {
            cube.ep[i] = self.edges[i] & 15;
            cube.eo[i] = self.edges[i] >> 4;
        }
        cube
    }

    /// Whether it is the solved cube.
    #[inline(always)]
    pub fn is_solved(&self) -> bool {
        *self == Self::SOLVED
    }

    /// `self` followed by `other`, as [`Cube::then`].
    #[inline(always)]
    pub fn then(&self, other: &Self) -> Self {
        ops::then(self, other)
    }

    /// Bit `i` set when edge slot `i` holds an edge cubie numbered `from` or above.
    #[inline(always)]
    pub fn edges_at_least(&self, from: u8) -> u32 {
        ops::edges_at_least(self, from)
    }

    /// Bit `i` set when edge slot `i` holds an edge cubie numbered below `below`.
    #[inline(always)]
    pub fn edges_below(&self, below: u8) -> u32 {
        ops::edges_below(self, below)
    }

    /// Bit `i` set when corner slot `i` holds a corner cubie numbered below `below`.
    #[inline(always)]
    pub fn corners_below(&self, below: u8) -> u32 {
        ops::corners_below(self, below)
    }

    /// Bit `i` set when the edge in slot `i` is flipped.
    #[inline(always)]
    pub fn flips(&self) -> u32 {
        ops::flips(self)
    }

    /// The corner twists of slots 0..7 read as a base-3 number, slot 0 the most
    /// significant ([`crate::puzzles::rubik::coord::perm::twist`]).
    #[inline(always)]
    pub fn twist(&self) -> u32 {
        ops::twist(self)
    }

    /// The edge cubie numbers modulo 4, two bits per slot, slot `i` at bits `2i..2i+2`
    /// (24 bits).
    #[inline(always)]
    pub fn edge_low_bits(&self) -> u32 {
        ops::edge_low_bits(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::coord::perm;
    use crate::rng::SplitMix64;

    /// The operations of both implementations against the plain cube's.
    fn check(cube: &Cube, other: &Cube) {
        let (p, q) = (PackedCube::of(cube), PackedCube::of(other));
        assert_eq!(p.cube(), *cube);
        assert_eq!(p.is_solved(), cube.is_solved());
        let mask =
            |f: &dyn Fn(usize) -> bool, n: usize| (0..n).fold(0, |m, i| m | u32::from(f(i)) << i);
        let low = (0..EDGES).fold(0, |m, i| m | u32::from(cube.ep[i] & 3) << (2 * i));
        macro_rules! each_implementation {
            ($($imp:ident),*) => {$(
                assert_eq!($imp::then(&p, &q).cube(), cube.then(other));
                for k in [4u8, 8] {
                    assert_eq!($imp::edges_at_least(&p, k), mask(&|i| cube.ep[i] >= k, EDGES));
                    assert_eq!($imp::edges_below(&p, k), mask(&|i| cube.ep[i] < k, EDGES));
                }
                assert_eq!($imp::corners_below(&p, 4), mask(&|i| cube.cp[i] < 4, CORNERS));
                assert_eq!($imp::flips(&p), mask(&|i| cube.eo[i] == 1, EDGES));
                assert_eq!($imp::twist(&p), perm::twist(cube));
                assert_eq!($imp::edge_low_bits(&p), low);
            )*};
        }
        #[cfg(all(target_arch = "x86_64", target_feature = "ssse3"))]
        each_implementation!(portable, x86);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "ssse3")))]
        each_implementation!(portable);
    }

    #[test]
    fn both_implementations_agree_with_the_cube() {
        let mut rng = SplitMix64::new(7);
        let mut cubes = vec![Cube::SOLVED];
        cubes.extend(MOVE_CUBES.iter().copied());
        cubes.extend((0..2000).map(|_| Cube::random(&mut rng)));
        for (i, cube) in cubes.iter().enumerate() {
            check(cube, &cubes[(i * 7 + 3) % cubes.len()]);
        }
        for (m, packed) in MOVE_PACKED.iter().enumerate() {
            assert_eq!(packed.cube(), MOVE_CUBES[m]);
        }
    }
}
