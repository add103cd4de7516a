//! The coordinates of the two-phase method and their tables: how each coordinate moves,
//! how the 16 symmetries keeping the U-D axis act on it, and its symmetry classes.
//!
//! Phase 1 (any position to the subgroup H = <U, D, R2, L2, F2, B2>):
//! - `flip` (2^11), `twist` (3^7), as in [`crate::puzzles::rubik::coord::perm`];
//! - `slice` (495 x 24): which four slots hold the E-slice edges (their colex rank, so
//!   slot sets rank in increasing order of their bit masks) and in which order (the
//!   lexicographic rank of the four edges read from the lowest slot up). Phase 1 only needs
//!   the slots; carrying the order along gives phase 2 its slice coordinate for free.
//!
//! Phase 2 (inside H, where the E-slice edges stay in the E slice and nothing is twisted
//! or flipped):
//! - `corners`: the corner permutation (8!);
//! - `ud_edges`: the permutation of the eight U and D layer edges (8!);
//! - the slice order, `slice % 24`.
//!
//! The tables are computed by the generator and stored in one table file, so a solver
//! opens them in milliseconds instead of recomputing them (about 100 ms) in every process.

use crate::puzzles::rubik::coord::flipslice;
use crate::puzzles::rubik::coord::perm::{self, rank_permutation, unrank_permutation};
use crate::puzzles::rubik::model::cube::{Cube, Move, EDGES, MOVE_COUNT};
use crate::puzzles::rubik::model::symmetry::{UD_INVERSE, UD_SYMMETRIES, UD_SYMMETRY_COUNT};
use crate::table::packed::{Words16, Words32};

/// Edge flip values.
pub const FLIPS: usize = 2048;
/// Corner twist values.
pub const TWISTS: usize = 2187;
/// Sets of four slots (out of twelve) for the E-slice edges.
pub const SLICE_SLOTS: usize = 495;
/// Orders of the four E-slice edges.
pub const SLICE_ORDERS: usize = 24;
/// Slice coordinate values, `slots * 24 + order`.
pub const SLICES: usize = SLICE_SLOTS * SLICE_ORDERS;
/// Colex rank of the E-slice's own slots (8, 9, 10, 11): the last of the 495 sets.
pub const SOLVED_SLOTS: usize = SLICE_SLOTS - 1;
/// (slice slots, flip) pairs, `slots * 2048 + flip`.
pub const FLIP_SLICES: usize = SLICE_SLOTS * FLIPS;
/// Classes of (flip, slice slots) pairs under the 16 symmetries keeping the U-D axis.
pub const FLIP_SLICE_CLASSES: usize = flipslice::CLASSES;
/// Corner permutations.
pub const CORNER_PERMS: usize = 40_320;
/// Permutations of the eight U and D layer edges.
pub const UD_EDGE_PERMS: usize = 40_320;
/// Classes of corner permutations under the 16 symmetries keeping the U-D axis.
pub const CORNER_CLASSES: usize = 2_768;
/// Moves of phase 2 (generators of H), by index into [`PHASE2_MOVES`].
pub const PHASE2_MOVE_COUNT: usize = 10;

/// The moves that keep a position in H: U, U2, U', D, D2, D', R2, L2, F2, B2 (move indices).
pub const PHASE2_MOVES: [u8; PHASE2_MOVE_COUNT] = [0, 1, 2, 9, 10, 11, 4, 13, 7, 16];

/// Whether move `m` (an index) is one of [`PHASE2_MOVES`].
#[inline]
pub fn is_phase2_move(m: usize) -> bool {
    PHASE2_MOVE_MASK >> m & 1 == 1
}

const PHASE2_MOVE_MASK: u32 = {
    let mut mask = 0u32;
    let mut i = 0;
    while i < PHASE2_MOVE_COUNT {
        mask |= 1 << PHASE2_MOVES[i];
        i += 1;
    }
    mask
};

/// Binomial coefficients `C(n, k)` for `n < 12`, `k <= 4`.
const CHOOSE: [[u16; 5]; 12] = {
    let mut c = [[0u16; 5]; 12];
    let mut n = 0;
    while n < 12 {
        c[n][0] = 1;
        let mut k = 1;
        while k < 5 {
            c[n][k] = if n == 0 {
                0
            } else {
                c[n - 1][k - 1] + c[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    c
};

/// First E-slice edge cubie (FR; then FL, BL, BR).
const FIRST_SLICE_EDGE: u8 = 8;

/// The slice coordinate of a position (slots of the E-slice edges, then their order).
#[inline]
pub fn slice(cube: &Cube) -> usize {
    let mut rank = 0usize;
    let mut found = 0usize;
    let mut order = [0u8; 4];
    for (slot, &cubie) in cube.ep.iter().enumerate() {
        if cubie >= FIRST_SLICE_EDGE {
            order[found] = cubie - FIRST_SLICE_EDGE;
            found += 1;
            rank += CHOOSE[slot][found] as usize;
        }
    }
    rank * SLICE_ORDERS + rank_permutation(&order) as usize
}

/// The U-D edge coordinate of a position in H (its first eight edge slots hold the U and
/// D layer edges).
#[inline]
pub fn ud_edges(ep: &[u8; EDGES]) -> usize {
    rank_permutation(&ep[..8]) as usize
}

/// Every coordinate table of the two-phase method (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coords {
    /// `flip_move[flip * 18 + m]`.
    pub flip_move: Vec<u16>,
    /// `slice_move[slice * 18 + m]`.
    pub slice_move: Vec<u16>,
    /// `twist_move[twist * 18 + m]`.
    pub twist_move: Vec<u16>,
    /// `twist_conj[twist * 16 + s]`: the twist of the image under symmetry `s`.
    pub twist_conj: Vec<u16>,
    /// `flip_slice_class[slots * 2048 + flip]` = `class << 4 | s`, where symmetry `s` takes
    /// the pair to its class representative.
    pub flip_slice_class: Vec<u32>,
    /// Representative (slots * 2048 + flip) of each flip-slice class.
    pub flip_slice_rep: Vec<u32>,
    /// Bit `s` set when symmetry `s` fixes the flip-slice class representative.
    pub flip_slice_stabiliser: Vec<u16>,
    /// `corner_move[corners * 18 + m]`.
    pub corner_move: Vec<u16>,
    /// `ud_edge_move[ud * 10 + p]` for phase-2 move `p`.
    pub ud_edge_move: Vec<u16>,
    /// `corner_class[corners]` = `class << 4 | s` (as for flip-slice classes).
    pub corner_class: Vec<u32>,
    /// Representative corner permutation of each class.
    pub corner_rep: Vec<u16>,
    /// Bit `s` set when symmetry `s` fixes the corner class representative.
    pub corner_stabiliser: Vec<u16>,
    /// `ud_edge_conj[ud * 16 + s]`: the U-D edge coordinate of the image under `s`.
    pub ud_edge_conj: Vec<u16>,
}

/// Lengths of the arrays of [`Coords`] in field order, and whether each holds `u32`s.
const ARRAYS: [(usize, bool); 13] = [
    (FLIPS * MOVE_COUNT, false),
    (SLICES * MOVE_COUNT, false),
    (TWISTS * MOVE_COUNT, false),
    (TWISTS * UD_SYMMETRY_COUNT, false),
    (FLIP_SLICES, true),
    (FLIP_SLICE_CLASSES, true),
    (FLIP_SLICE_CLASSES, false),
    (CORNER_PERMS * MOVE_COUNT, false),
    (UD_EDGE_PERMS * PHASE2_MOVE_COUNT, false),
    (CORNER_PERMS, true),
    (CORNER_CLASSES, false),
    (CORNER_CLASSES, false),
    (UD_EDGE_PERMS * UD_SYMMETRY_COUNT, false),
];

/// Length in bytes of the stored coordinate tables.
pub const PAYLOAD_LEN: u64 = {
    let mut len = 0;
    let mut i = 0;
    while i < ARRAYS.len() {
        len += ARRAYS[i].0 as u64 * if ARRAYS[i].1 { 4 } else { 2 };
        i += 1;
    }
    len
};

/// A position whose U and D layer edges are in the permutation with rank `ud`.
fn cube_with_ud_edges(ud: usize) -> Cube {
    let mut cube = Cube::SOLVED;
    unrank_permutation(ud as u64, &mut cube.ep[..8]);
    cube
}

/// A position whose corners are in the permutation with rank `corners`.
fn cube_with_corners(corners: usize) -> Cube {
    let mut cube = Cube::SOLVED;
    unrank_permutation(corners as u64, &mut cube.cp);
    cube
}

impl Coords {
    /// Computes every table (the phase-1 ones come from [`phase1`], the rest from cubies).
    pub fn compute() -> Self {
        let p1 = flipslice::coordinate_tables();
        let syms = &*UD_SYMMETRIES;
        let mut corner_move = vec![0u16; CORNER_PERMS * MOVE_COUNT];
        let mut corner_conj = vec![0u16; CORNER_PERMS * UD_SYMMETRY_COUNT];
        for c in 0..CORNER_PERMS {
            let cube = cube_with_corners(c);
            for mv in Move::all() {
                corner_move[c * MOVE_COUNT + mv.index()] =
                    rank_permutation(&cube.apply(mv).cp) as u16;
            }
            for (s, sym) in syms.iter().enumerate() {
                corner_conj[c * UD_SYMMETRY_COUNT + s] =
                    rank_permutation(&sym.conjugate(&cube).cp) as u16;
            }
        }
        let mut ud_edge_move = vec![0u16; UD_EDGE_PERMS * PHASE2_MOVE_COUNT];
        let mut ud_edge_conj = vec![0u16; UD_EDGE_PERMS * UD_SYMMETRY_COUNT];
        for u in 0..UD_EDGE_PERMS {
            let cube = cube_with_ud_edges(u);
            for (p, &m) in PHASE2_MOVES.iter().enumerate() {
                let moved = cube.apply(Move::from_index(m as usize));
                ud_edge_move[u * PHASE2_MOVE_COUNT + p] = ud_edges(&moved.ep) as u16;
            }
            for (s, sym) in syms.iter().enumerate() {
                ud_edge_conj[u * UD_SYMMETRY_COUNT + s] = ud_edges(&sym.conjugate(&cube).ep) as u16;
            }
        }
        // Corner classes in increasing order of their smallest member (the representative).
        let mut corner_class = vec![u32::MAX; CORNER_PERMS];
        let mut corner_rep = Vec::with_capacity(CORNER_CLASSES);
        let mut corner_stabiliser = Vec::with_capacity(CORNER_CLASSES);
        for c in 0..CORNER_PERMS {
            if corner_class[c] != u32::MAX {
                continue;
            }
            let class = corner_rep.len() as u32;
            let mut stabiliser = 0u16;
            for s in 0..UD_SYMMETRY_COUNT {
                let image = corner_conj[c * UD_SYMMETRY_COUNT + s] as usize;
                if image == c {
                    stabiliser |= 1 << s;
                }
                if corner_class[image] == u32::MAX {
                    corner_class[image] = class << 4 | UD_INVERSE[s] as u32;
                }
            }
            corner_rep.push(c as u16);
            corner_stabiliser.push(stabiliser);
        }
        assert_eq!(corner_rep.len(), CORNER_CLASSES, "corner class count");
        Coords {
            flip_move: p1.flip_move.clone(),
            slice_move: p1.slice_move.clone(),
            twist_move: p1.twist_move.clone(),
            twist_conj: p1.twist_conj.clone(),
            flip_slice_class: p1.class_of.clone(),
            flip_slice_rep: p1.representative.clone(),
            flip_slice_stabiliser: p1.stabiliser.clone(),
            corner_move,
            ud_edge_move,
            corner_class,
            corner_rep,
            corner_stabiliser,
            ud_edge_conj,
        }
    }

    /// The tables as little-endian bytes, in field order.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(PAYLOAD_LEN as usize);
        let u16s =
            |out: &mut Vec<u8>, a: &[u16]| a.iter().for_each(|x| out.extend(x.to_le_bytes()));
        let u32s =
            |out: &mut Vec<u8>, a: &[u32]| a.iter().for_each(|x| out.extend(x.to_le_bytes()));
        u16s(&mut out, &self.flip_move);
        u16s(&mut out, &self.slice_move);
        u16s(&mut out, &self.twist_move);
        u16s(&mut out, &self.twist_conj);
        u32s(&mut out, &self.flip_slice_class);
        u32s(&mut out, &self.flip_slice_rep);
        u16s(&mut out, &self.flip_slice_stabiliser);
        u16s(&mut out, &self.corner_move);
        u16s(&mut out, &self.ud_edge_move);
        u32s(&mut out, &self.corner_class);
        u16s(&mut out, &self.corner_rep);
        u16s(&mut out, &self.corner_stabiliser);
        u16s(&mut out, &self.ud_edge_conj);
        debug_assert_eq!(out.len() as u64, PAYLOAD_LEN);
        out
    }

    /// The phase-1 coordinates of a position: flip, slice, twist.
    #[inline]
    pub fn phase1_of(cube: &Cube) -> (usize, usize, usize) {
        (
            perm::flip(cube) as usize,
            slice(cube),
            perm::twist(cube) as usize,
        )
    }
}

/// The coordinate tables read in place from their stored bytes ([`Coords::to_bytes`]):
/// a mapped file is searched where it lies, so a process opens them without decoding
/// 9 MB (about 9 ms, a quarter of a fresh 4x4x4 process's open).
#[derive(Clone, Copy, Debug)]
pub struct CoordsView<'a> {
    /// `flip_move[flip * 18 + m]`.
    pub flip_move: Words16<'a>,
    /// `slice_move[slice * 18 + m]`.
    pub slice_move: Words16<'a>,
    /// `twist_move[twist * 18 + m]`.
    pub twist_move: Words16<'a>,
    /// `twist_conj[twist * 16 + s]`.
    pub twist_conj: Words16<'a>,
    /// `flip_slice_class[slots * 2048 + flip]` = `class << 4 | s`.
    pub flip_slice_class: Words32<'a>,
    /// Representative of each flip-slice class.
    pub flip_slice_rep: Words32<'a>,
    /// Symmetries fixing each flip-slice class representative.
    pub flip_slice_stabiliser: Words16<'a>,
    /// `corner_move[corners * 18 + m]`.
    pub corner_move: Words16<'a>,
    /// `ud_edge_move[ud * 10 + p]`.
    pub ud_edge_move: Words16<'a>,
    /// `corner_class[corners]` = `class << 4 | s`.
    pub corner_class: Words32<'a>,
    /// Representative of each corner class.
    pub corner_rep: Words16<'a>,
    /// Symmetries fixing each corner class representative.
    pub corner_stabiliser: Words16<'a>,
    /// `ud_edge_conj[ud * 16 + s]`.
    pub ud_edge_conj: Words16<'a>,
}

impl<'a> CoordsView<'a> {
    /// The tables in `bytes`; `None` if `bytes` has the wrong length or a value is out of
    /// range (the caller has checked the checksum already, so this guards against a
    /// generator bug: no lookup can then go out of bounds, whatever the file held).
    pub fn checked(bytes: &'a [u8]) -> Option<Self> {
        if bytes.len() as u64 != PAYLOAD_LEN {
            return None;
        }
        let view = Self::of(bytes);
        view.in_range().then_some(view)
    }

    /// The tables in `bytes`, of the length [`Self::checked`] accepted; panics if shorter.
    pub fn of(bytes: &'a [u8]) -> Self {
        let mut at = 0;
        let mut next = |(len, wide): (usize, bool)| {
            let part = &bytes[at..at + len * if wide { 4 } else { 2 }];
            at += part.len();
            part
        };
        Self {
            flip_move: Words16::new(next(ARRAYS[0])),
            slice_move: Words16::new(next(ARRAYS[1])),
            twist_move: Words16::new(next(ARRAYS[2])),
            twist_conj: Words16::new(next(ARRAYS[3])),
            flip_slice_class: Words32::new(next(ARRAYS[4])),
            flip_slice_rep: Words32::new(next(ARRAYS[5])),
            flip_slice_stabiliser: Words16::new(next(ARRAYS[6])),
            corner_move: Words16::new(next(ARRAYS[7])),
            ud_edge_move: Words16::new(next(ARRAYS[8])),
            corner_class: Words32::new(next(ARRAYS[9])),
            corner_rep: Words16::new(next(ARRAYS[10])),
            corner_stabiliser: Words16::new(next(ARRAYS[11])),
            ud_edge_conj: Words16::new(next(ARRAYS[12])),
        }
    }

    /// Whether every value indexes inside the table it is used with.
    fn in_range(&self) -> bool {
        let below = |a: Words16, n: usize| a.max().is_none_or(|x| (x as usize) < n);
        let classes_below = |a: Words32, n: usize| a.max().is_none_or(|x| ((x >> 4) as usize) < n);
        below(self.flip_move, FLIPS)
            && below(self.slice_move, SLICES)
            && below(self.twist_move, TWISTS)
            && below(self.twist_conj, TWISTS)
            && classes_below(self.flip_slice_class, FLIP_SLICE_CLASSES)
            && self
                .flip_slice_rep
                .max()
                .is_none_or(|x| (x as usize) < FLIP_SLICES)
            && below(self.corner_move, CORNER_PERMS)
            && below(self.ud_edge_move, UD_EDGE_PERMS)
            && classes_below(self.corner_class, CORNER_CLASSES)
            && below(self.corner_rep, CORNER_PERMS)
            && below(self.ud_edge_conj, UD_EDGE_PERMS)
    }

    /// Index of a phase-1 projection in the phase-1 table: its flip-slice class, then the
    /// twist seen through the symmetry that takes the pair to the class representative.
    #[inline]
    pub fn phase1_index(&self, flip: usize, slice: usize, twist: usize) -> usize {
        let entry = self
            .flip_slice_class
            .at(slice / SLICE_ORDERS * FLIPS + flip);
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        class * TWISTS + self.twist_conj.at(twist * UD_SYMMETRY_COUNT + s) as usize
    }

    /// Index of a phase-2 (corners, U-D edges) projection in the corner-edge table.
    #[inline]
    pub fn corner_edge_index(&self, corners: usize, ud: usize) -> usize {
        let entry = self.corner_class.at(corners);
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        class * UD_EDGE_PERMS + self.ud_edge_conj.at(ud * UD_SYMMETRY_COUNT + s) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn slice_coordinate_matches_the_phase1_tables() {
        let mut rng = SplitMix64::new(3);
        assert_eq!(slice(&Cube::SOLVED), SOLVED_SLOTS * SLICE_ORDERS);
        for _ in 0..2000 {
            let cube = Cube::random(&mut rng);
            assert_eq!(slice(&cube), flipslice::raw_coordinates(&cube)[1] as usize);
        }
    }

    #[test]
    fn phase2_moves_are_the_generators_of_h() {
        let names: Vec<String> = PHASE2_MOVES
            .iter()
            .map(|&m| Move::from_index(m as usize).to_string())
            .collect();
        assert_eq!(names.join(" "), "U U2 U' D D2 D' R2 L2 F2 B2");
        assert_eq!((0..18).filter(|&m| is_phase2_move(m)).count(), 10);
    }

    #[test]
    fn stored_tables_read_in_place_equal_the_computed_ones_and_are_checked() {
        let coords = Coords::compute();
        let bytes = coords.to_bytes();
        assert_eq!(bytes.len() as u64, PAYLOAD_LEN);
        let view = CoordsView::checked(&bytes).expect("the computed tables are in range");
        let same16 = |a: &[u16], v: Words16| {
            v.len() == a.len() && a.iter().enumerate().all(|(i, &x)| v.at(i) == x)
        };
        let same32 = |a: &[u32], v: Words32| {
            v.len() == a.len() && a.iter().enumerate().all(|(i, &x)| v.at(i) == x)
        };
        assert!(same16(&coords.flip_move, view.flip_move));
        assert!(same16(&coords.slice_move, view.slice_move));
        assert!(same16(&coords.twist_move, view.twist_move));
        assert!(same16(&coords.twist_conj, view.twist_conj));
        assert!(same32(&coords.flip_slice_class, view.flip_slice_class));
        assert!(same32(&coords.flip_slice_rep, view.flip_slice_rep));
        assert!(same16(
            &coords.flip_slice_stabiliser,
            view.flip_slice_stabiliser
        ));
        assert!(same16(&coords.corner_move, view.corner_move));
        assert!(same16(&coords.ud_edge_move, view.ud_edge_move));
        assert!(same32(&coords.corner_class, view.corner_class));
        assert!(same16(&coords.corner_rep, view.corner_rep));
        assert!(same16(&coords.corner_stabiliser, view.corner_stabiliser));
        assert!(same16(&coords.ud_edge_conj, view.ud_edge_conj));
        assert!(CoordsView::checked(&bytes[1..]).is_none());
        // A flip move pointing outside its table is refused, and so is a corner class
        // (near the end of the bytes) out of range.
        let mut bad = bytes.clone();
        bad[1] = 0xff;
        assert!(CoordsView::checked(&bad).is_none());
        let mut bad = bytes.clone();
        let last_class =
            PAYLOAD_LEN as usize - 2 * (CORNER_CLASSES * 2 + UD_EDGE_PERMS * UD_SYMMETRY_COUNT) - 1;
        bad[last_class] = 0xff;
        assert!(CoordsView::checked(&bad).is_none());
        // Coordinates follow the cube: moving the coordinate is moving the cube.
        let mut rng = SplitMix64::new(9);
        for _ in 0..200 {
            let cube = Cube::random(&mut rng);
            let (flip, slice_coord, twist) = Coords::phase1_of(&cube);
            let corners = rank_permutation(&cube.cp) as usize;
            for mv in Move::all() {
                let m = mv.index();
                let moved = cube.apply(mv);
                assert_eq!(
                    Coords::phase1_of(&moved),
                    (
                        coords.flip_move[flip * MOVE_COUNT + m] as usize,
                        coords.slice_move[slice_coord * MOVE_COUNT + m] as usize,
                        coords.twist_move[twist * MOVE_COUNT + m] as usize,
                    )
                );
                assert_eq!(
                    rank_permutation(&moved.cp) as usize,
                    coords.corner_move[corners * MOVE_COUNT + m] as usize
                );
            }
        }
    }
}
