//! Cube <-> numbers: permutation ranks (Lehmer codes), orientation numbers, and the
//! 67-bit key of a whole position (`corner << 40 | edge`).

use crate::puzzles::rubik::model::cube::{Cube, CORNERS, EDGES};

/// 8!: corner permutations.
pub const CORNER_PERMS: u32 = 40_320;
/// 3^7: corner twists (the last corner's twist follows from the others).
pub const CORNER_TWISTS: u32 = 2_187;
/// 8! * 3^7: corner states.
pub const CORNER_STATES: u32 = CORNER_PERMS * CORNER_TWISTS;
/// 12!: edge permutations.
pub const EDGE_PERMS: u64 = 479_001_600;
/// 2^11: edge flips.
pub const EDGE_FLIPS: u64 = 2_048;
/// 12! * 2^11: edge states (< 2^40).
pub const EDGE_STATES: u64 = EDGE_PERMS * EDGE_FLIPS;
/// Bits of the edge part of a key.
pub const EDGE_BITS: u32 = 40;
const _: () = assert!(EDGE_STATES < 1 << EDGE_BITS);

const FACTORIAL: [u64; 13] = {
    let mut f = [1u64; 13];
    let mut i = 1;
    while i < 13 {
        f[i] = f[i - 1] * i as u64;
        i += 1;
    }
    f
};

/// Number of set bits of every 12-bit mask (a table: the portable `count_ones` is a
/// dozen instructions without a popcount target feature).
pub(crate) static BITS12: [u8; 1 << 12] = {
    let mut t = [0u8; 1 << 12];
    let mut i = 1;
    while i < 1 << 12 {
        t[i] = t[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    t
};

/// Lexicographic rank of a permutation of `0..p.len()` (`p.len()` <= 12).
#[inline]
pub fn rank_permutation(p: &[u8]) -> u64 {
    let n = p.len();
    let mut seen = 0u32;
    let mut rank = 0u64;
    for (i, &x) in p.iter().enumerate() {
        let smaller_unused = x as u32 - BITS12[(seen & ((1u32 << x) - 1)) as usize] as u32;
        rank += smaller_unused as u64 * FACTORIAL[n - 1 - i];
        seen |= 1 << x;
    }
    rank
}

/// The permutation of `0..out.len()` with lexicographic rank `rank`.
pub fn unrank_permutation(mut rank: u64, out: &mut [u8]) {
    let n = out.len();
    let mut unused: Vec<u8> = (0..n as u8).collect();
    for (i, slot) in out.iter_mut().enumerate() {
        let f = FACTORIAL[n - 1 - i];
        let k = (rank / f) as usize;
        rank %= f;
        *slot = unused.remove(k);
    }
}

/// Corner twist number `0..3^7` (the first seven twists in base 3).
#[inline]
pub fn twist(cube: &Cube) -> u32 {
    cube.co[..CORNERS - 1]
        .iter()
        .fold(0, |acc, &o| acc * 3 + o as u32)
}

/// Edge flip number `0..2^11`.
#[inline]
pub fn flip(cube: &Cube) -> u32 {
    cube.eo[..EDGES - 1]
        .iter()
        .fold(0, |acc, &o| acc * 2 + o as u32)
}

/// Corner state number `0..8! * 3^7`.
#[inline]
pub fn corner_coord(cube: &Cube) -> u32 {
    rank_permutation(&cube.cp) as u32 * CORNER_TWISTS + twist(cube)
}

/// Edge state number `0..12! * 2^11`.
#[inline]
pub fn edge_coord(cube: &Cube) -> u64 {
    rank_permutation(&cube.ep) * EDGE_FLIPS + flip(cube) as u64
}

/// The key of a position: `corner_coord << 40 | edge_coord`, unique per position.
#[inline]
pub fn key(cube: &Cube) -> u128 {
    (corner_coord(cube) as u128) << EDGE_BITS | edge_coord(cube) as u128
}

/// Sets the corners of `cube` from a corner state number.
pub fn set_corners(cube: &mut Cube, coord: u32) {
    unrank_permutation((coord / CORNER_TWISTS) as u64, &mut cube.cp);
    set_orientations((coord % CORNER_TWISTS) as u64, 3, &mut cube.co);
}

/// Sets the edges of `cube` from an edge state number.
pub fn set_edges(cube: &mut Cube, coord: u64) {
    unrank_permutation(coord / EDGE_FLIPS, &mut cube.ep);
    set_orientations(coord % EDGE_FLIPS, 2, &mut cube.eo);
}

/// Decodes the orientations of all but the last cubie from `value` (base `modulus`, the
/// first cubie most significant) and sets the last so the total is 0 mod `modulus`.
fn set_orientations(mut value: u64, modulus: u64, orientations: &mut [u8]) {
    let last = orientations.len() - 1;
    let mut sum = 0;
    for o in orientations[..last].iter_mut().rev() {
        *o = (value % modulus) as u8;
        sum += value % modulus;
        value /= modulus;
    }
    orientations[last] = ((modulus - sum % modulus) % modulus) as u8;
}

/// The position with key `key`.
pub fn from_key(key: u128) -> Cube {
    let mut cube = Cube::SOLVED;
    set_corners(&mut cube, (key >> EDGE_BITS) as u32);
    set_edges(&mut cube, (key & ((1u128 << EDGE_BITS) - 1)) as u64);
    cube
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::cube::Move;
    use crate::rng::SplitMix64;

    #[test]
    fn keys_round_trip() {
        assert_eq!(key(&Cube::SOLVED), 0);
        let mut rng = SplitMix64::new(11);
        for _ in 0..500 {
            let moves: Vec<Move> = (0..30)
                .map(|_| Move::from_index(rng.below(18) as usize))
                .collect();
            let cube = Cube::from_moves(&moves);
            let k = key(&cube);
            assert!(k < 1u128 << 67);
            assert_eq!(from_key(k), cube);
            assert!(corner_coord(&cube) < CORNER_STATES);
            assert!(edge_coord(&cube) < EDGE_STATES);
        }
        let mut p = [0u8; 5];
        for r in 0..120 {
            unrank_permutation(r, &mut p);
            assert_eq!(rank_permutation(&p), r);
        }
    }
}
