//! The packed cube's operations as plain byte loops: any processor, and the reference
//! the vector version is tested against.

use super::PackedCube;
use crate::puzzles::rubik::model::cube::{CORNERS, EDGES};

/// `a` followed by `b`.
#[inline]
pub fn then(a: &PackedCube, b: &PackedCube) -> PackedCube {
    let mut out = *b;
    for i in 0..16 {
        let c = a.corners[(b.corners[i] & 15) as usize];
        let twist = (c >> 4) + (b.corners[i] >> 4);
        out.corners[i] = (c & 15) | (twist % 3) << 4;
        out.edges[i] = a.edges[(b.edges[i] & 15) as usize] ^ (b.edges[i] & 16);
    }
    out
}

/// Slots (bits) of the edge cubies numbered `from` or above.
#[inline]
pub fn edges_at_least(cube: &PackedCube, from: u8) -> u32 {
    (0..EDGES).fold(0, |m, i| m | u32::from(cube.edges[i] & 15 >= from) << i)
}

/// Slots (bits) of the edge cubies numbered below `below`.
#[inline]
pub fn edges_below(cube: &PackedCube, below: u8) -> u32 {
    (0..EDGES).fold(0, |m, i| m | u32::from(cube.edges[i] & 15 < below) << i)
}

/// Slots (bits) of the corner cubies numbered below `below`.
#[inline]
pub fn corners_below(cube: &PackedCube, below: u8) -> u32 {
    (0..CORNERS).fold(0, |m, i| m | u32::from(cube.corners[i] & 15 < below) << i)
}

/// Slots (bits) of the flipped edges.
#[inline]
pub fn flips(cube: &PackedCube) -> u32 {
    (0..EDGES).fold(0, |m, i| m | u32::from(cube.edges[i] >> 4 & 1) << i)
}

/// Twists of slots 0..7 in base 3, slot 0 most significant.
#[inline]
pub fn twist(cube: &PackedCube) -> u32 {
    cube.corners[..CORNERS - 1]
        .iter()
        .fold(0, |t, &c| t * 3 + u32::from(c >> 4))
}

/// Edge cubies modulo 4, two bits per slot.
#[inline]
pub fn edge_low_bits(cube: &PackedCube) -> u32 {
    (0..EDGES).fold(0, |m, i| m | u32::from(cube.edges[i] & 3) << (2 * i))
}
