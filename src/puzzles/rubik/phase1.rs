//! The flip-slice-twist projection, reduced by the 16 symmetries keeping the U-D axis.
//!
//! A position is projected onto its edge flips (2^11), the slots of the four E-slice
//! edges (C(12,4) = 495) and their order (4! = 24), and its corner twists (3^7): the
//! coordinates of the first phase of Kociemba's two-phase method plus the slice order.
//! That is 24 * 2^11 * 495 * 3^7 = 53.2 G projected states, too many for a table; but a
//! symmetry keeping the U-D axis maps the projection of a position to the projection of
//! its image, at the same distance. So the (flip, slice slots) pair is replaced by its
//! class under the 16 symmetries (64,430 classes of 1,013,760 pairs) and twist and order
//! are seen through the symmetry that brings the pair to its class representative:
//! 64,430 * 2,187 * 24 = 3.38 G entries (1.7 GB at 4 bits).
//!
//! Looked up on a position turned so that its R-L or F-B axis becomes U-D
//! ([`super::symmetry::AXIS_ROTATIONS`]), the same table gives two more lower bounds.

use super::coord::{self, CORNER_TWISTS};
use super::cube::{Cube, Move, EDGES, MOVE_COUNT};
use super::symmetry::{UD_INVERSE, UD_SYMMETRIES, UD_SYMMETRY_COUNT};
use std::sync::LazyLock;

/// Edge flip values (the twelfth flip follows from the others).
const FLIPS: usize = 2048;
/// Sets of four slots out of twelve.
const SLICE_SLOTS: usize = 495;
/// Orders of the four E-slice edges.
const SLICE_ORDERS: usize = 24;
/// Slots and order of the E-slice edges.
const SLICES: usize = SLICE_SLOTS * SLICE_ORDERS;
/// (slice slots, flip) pairs, `slots * FLIPS + flip`.
const FLIP_SLICES: usize = SLICE_SLOTS * FLIPS;
/// Twist values.
const TWISTS: usize = CORNER_TWISTS as usize;
/// First E-slice edge cubie (FR; then FL, BL, BR).
const FIRST_SLICE_EDGE: u8 = 8;

/// Number of (flip, slice slots) classes under the 16 symmetries.
pub const CLASSES: usize = 64_430;
/// Entries of the table: class, then twist, then slice order.
pub const SIZE: u64 = (CLASSES * TWISTS * SLICE_ORDERS) as u64;

/// Coordinate tables: ranks, moves, conjugation by the symmetries, classes.
pub(crate) struct Tables {
    /// Rank of each 12-bit slot mask with four bits set (others unused).
    slots_of_mask: Vec<u16>,
    /// Slot mask of each rank.
    mask_of_slots: Vec<u16>,
    /// Rank of the slice order from four 2-bit cubie numbers (first slot most significant).
    order_of_code: [u8; 256],
    /// `flip_move[flip * 18 + m]`.
    pub(crate) flip_move: Vec<u16>,
    /// `slice_move[slice * 18 + m]`, slice = `slots * 24 + order`.
    pub(crate) slice_move: Vec<u16>,
    /// `twist_move[twist * 18 + m]`.
    pub(crate) twist_move: Vec<u16>,
    /// `twist_conj[twist * 16 + s]`: twist of the image under symmetry `s`.
    pub(crate) twist_conj: Vec<u16>,
    /// `slice_conj[slice * 16 + s]`: slice of the image under symmetry `s`.
    slice_conj: Vec<u16>,
    /// `class_of[flip_slice]` = `class << 4 | s` where symmetry `s` takes the pair to the
    /// class representative.
    pub(crate) class_of: Vec<u32>,
    /// Representative (flip, slice slots) pair of each class.
    pub(crate) representative: Vec<u32>,
    /// Bit `s` set when symmetry `s` fixes the class representative.
    pub(crate) stabiliser: Vec<u16>,
    /// `class_of` as little-endian bytes in huge pages (read at random in search).
    class_of_resident: Option<crate::table::Resident>,
}

/// Slot mask of the E-slice edges and their order code, read from `ep`.
#[inline]
fn slice_mask_and_code(cube: &Cube) -> (usize, usize) {
    let mut mask = 0usize;
    let mut code = 0usize;
    for (slot, &cubie) in cube.ep.iter().enumerate() {
        if cubie >= FIRST_SLICE_EDGE {
            mask |= 1 << slot;
            code = code << 2 | (cubie - FIRST_SLICE_EDGE) as usize;
        }
    }
    (mask, code)
}

/// A cube with the given slice (slots and order), flip and twist; other cubies arbitrary.
fn cube_with(t: &Tables, slice: usize, flip: usize, twist: usize) -> Cube {
    let mut cube = Cube::SOLVED;
    let mask = t.mask_of_slots[slice / SLICE_ORDERS];
    let mut order = [0u8; 4];
    coord::unrank_permutation((slice % SLICE_ORDERS) as u64, &mut order);
    let (mut next_slice, mut next_other) = (0, 0u8);
    for slot in 0..EDGES {
        if mask >> slot & 1 == 1 {
            cube.ep[slot] = FIRST_SLICE_EDGE + order[next_slice];
            next_slice += 1;
        } else {
            cube.ep[slot] = next_other;
            next_other += 1;
        }
    }
    let mut parity = 0;
    for slot in 0..EDGES - 1 {
        cube.eo[slot] = (flip >> (EDGES - 2 - slot) & 1) as u8;
        parity ^= cube.eo[slot];
    }
    cube.eo[EDGES - 1] = parity;
    let mut rest = twist;
    let mut sum = 0;
    for slot in (0..7).rev() {
        cube.co[slot] = (rest % 3) as u8;
        sum += rest % 3;
        rest /= 3;
    }
    cube.co[7] = ((3 - sum % 3) % 3) as u8;
    cube
}

impl Tables {
    /// Slice (slots * 24 + order) of a cube.
    #[inline]
    fn slice(&self, cube: &Cube) -> usize {
        let (mask, code) = slice_mask_and_code(cube);
        self.slots_of_mask[mask] as usize * SLICE_ORDERS + self.order_of_code[code] as usize
    }

    fn build() -> Self {
        let mut slots_of_mask = vec![u16::MAX; 1 << EDGES];
        let mut mask_of_slots = Vec::with_capacity(SLICE_SLOTS);
        for (mask, rank) in slots_of_mask.iter_mut().enumerate() {
            if mask.count_ones() == 4 {
                *rank = mask_of_slots.len() as u16;
                mask_of_slots.push(mask as u16);
            }
        }
        let mut order_of_code = [0u8; 256];
        for rank in 0..SLICE_ORDERS {
            let mut order = [0u8; 4];
            coord::unrank_permutation(rank as u64, &mut order);
            let code = order.iter().fold(0, |acc, &c| acc << 2 | c as usize);
            order_of_code[code] = rank as u8;
        }
        let mut t = Tables {
            slots_of_mask,
            mask_of_slots,
            order_of_code,
            flip_move: vec![0; FLIPS * MOVE_COUNT],
            slice_move: vec![0; SLICES * MOVE_COUNT],
            twist_move: vec![0; TWISTS * MOVE_COUNT],
            twist_conj: vec![0; TWISTS * UD_SYMMETRY_COUNT],
            slice_conj: vec![0; SLICES * UD_SYMMETRY_COUNT],
            class_of: vec![u32::MAX; FLIP_SLICES],
            representative: Vec::with_capacity(CLASSES),
            stabiliser: Vec::with_capacity(CLASSES),
            class_of_resident: None,
        };
        let syms = &*UD_SYMMETRIES;
        for flip in 0..FLIPS {
            let cube = cube_with(&t, 0, flip, 0);
            for mv in Move::all() {
                t.flip_move[flip * MOVE_COUNT + mv.index()] = coord::flip(&cube.apply(mv)) as u16;
            }
        }
        for slice in 0..SLICES {
            let cube = cube_with(&t, slice, 0, 0);
            for mv in Move::all() {
                t.slice_move[slice * MOVE_COUNT + mv.index()] = t.slice(&cube.apply(mv)) as u16;
            }
            for (s, sym) in syms.iter().enumerate() {
                t.slice_conj[slice * UD_SYMMETRY_COUNT + s] = t.slice(&sym.conjugate(&cube)) as u16;
            }
        }
        for twist in 0..TWISTS {
            let cube = cube_with(&t, 0, 0, twist);
            for mv in Move::all() {
                t.twist_move[twist * MOVE_COUNT + mv.index()] =
                    coord::twist(&cube.apply(mv)) as u16;
            }
            for (s, sym) in syms.iter().enumerate() {
                t.twist_conj[twist * UD_SYMMETRY_COUNT + s] =
                    coord::twist(&sym.conjugate(&cube)) as u16;
            }
        }
        // Classes in increasing order of their smallest member, which is the representative.
        for pair in 0..FLIP_SLICES {
            if t.class_of[pair] != u32::MAX {
                continue;
            }
            let class = t.representative.len() as u32;
            let (slots, flip) = (pair / FLIPS, pair % FLIPS);
            let cube = cube_with(&t, slots * SLICE_ORDERS, flip, 0);
            let mut stabiliser = 0u16;
            for (s, sym) in syms.iter().enumerate() {
                let image = sym.conjugate(&cube);
                let image_pair =
                    t.slice(&image) / SLICE_ORDERS * FLIPS + coord::flip(&image) as usize;
                if image_pair == pair {
                    stabiliser |= 1 << s;
                }
                if t.class_of[image_pair] == u32::MAX {
                    t.class_of[image_pair] = class << 4 | UD_INVERSE[s] as u32;
                }
            }
            t.representative.push(pair as u32);
            t.stabiliser.push(stabiliser);
        }
        assert_eq!(t.representative.len(), CLASSES, "flip-slice class count");
        let bytes: Vec<u8> = t.class_of.iter().flat_map(|e| e.to_le_bytes()).collect();
        t.class_of_resident = crate::table::Resident::copy_of(&bytes);
        t
    }

    /// Table index of the projection with slice `slice`, flip `flip` and twist `twist`,
    /// calling `visit` with it and with every other index of the same projection class
    /// (when the class representative has symmetries of its own).
    #[inline]
    fn each_index(&self, slice: usize, flip: usize, twist: usize, mut visit: impl FnMut(u64)) {
        let entry = self.class_of[slice / SLICE_ORDERS * FLIPS + flip];
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        let (twist, slice) = self.conjugated(twist, slice, s);
        visit(self.index_in_class(class, twist, slice) as u64);
        let mut others = self.stabiliser[class] & !1;
        while others != 0 {
            let u = others.trailing_zeros() as usize;
            others &= others - 1;
            let (t2, s2) = self.conjugated(twist, slice, u);
            visit(self.index_in_class(class, t2, s2) as u64);
        }
    }

    /// Twist and slice of the image of a position under symmetry `s`.
    #[inline]
    fn conjugated(&self, twist: usize, slice: usize, s: usize) -> (usize, usize) {
        (
            self.twist_conj[twist * UD_SYMMETRY_COUNT + s] as usize,
            self.slice_conj[slice * UD_SYMMETRY_COUNT + s] as usize,
        )
    }

    /// Table index of twist `twist` and the order of slice `slice` within class `class`.
    #[inline]
    fn index_in_class(&self, class: usize, twist: usize, slice: usize) -> usize {
        (class * TWISTS + twist) * SLICE_ORDERS + slice % SLICE_ORDERS
    }
}

static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The coordinate tables (built on first use, about 40 ms): the two-phase solver's
/// generator copies them into its coordinate table file.
pub(crate) fn coordinate_tables() -> &'static Tables {
    &TABLES
}

/// Raw coordinates of a position: its (flip, slice slots) pair, slice and twist. The
/// first of the three steps of [`index`], split so that callers computing many indices
/// can issue the class reads of [`class_entry`] back to back.
#[inline]
pub fn raw_coordinates(cube: &Cube) -> [u32; 3] {
    let t = &*TABLES;
    let slice = t.slice(cube);
    let pair = slice / SLICE_ORDERS * FLIPS + coord::flip(cube) as usize;
    [pair as u32, slice as u32, coord::twist(cube)]
}

/// [`raw_coordinates`] of `cube` given also its inverse `inv`, without branches: the
/// inverse tells directly which slot holds each E-slice edge.
#[inline]
pub fn raw_coordinates_with_inverse(cube: &Cube, inv: &Cube) -> [u32; 3] {
    let t = &*TABLES;
    let slots: [u32; 4] = std::array::from_fn(|i| inv.ep[FIRST_SLICE_EDGE as usize + i] as u32);
    let mask = slots.iter().fold(0u32, |m, &s| m | 1 << s);
    // Edge i sits at place p (0 = lowest slot) among the four; the order code lists the
    // edges from the lowest slot up, two bits each, the first most significant.
    let mut code = 0u32;
    for (i, &s) in slots.iter().enumerate() {
        let place = (mask & ((1 << s) - 1)).count_ones();
        code |= (i as u32) << (2 * (3 - place));
    }
    let slice = t.slots_of_mask[mask as usize] as u32 * SLICE_ORDERS as u32
        + t.order_of_code[code as usize] as u32;
    let pair = slice / SLICE_ORDERS as u32 * FLIPS as u32 + coord::flip(cube);
    [pair, slice, coord::twist(cube)]
}

/// The class entry of a (flip, slice slots) pair (a read in a 4 MB table).
#[inline]
pub fn class_entry(pair: u32) -> u32 {
    let mut entry = [0];
    class_entries(&[pair], &mut entry);
    entry[0]
}

/// The class entries of many pairs, read back to back so the reads overlap.
#[inline]
pub fn class_entries(pairs: &[u32], out: &mut [u32]) {
    let t = &*TABLES;
    match &t.class_of_resident {
        Some(resident) => {
            let bytes = resident.bytes();
            for (e, &pair) in out.iter_mut().zip(pairs) {
                let at = pair as usize * 4;
                *e = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
            }
        }
        None => {
            for (e, &pair) in out.iter_mut().zip(pairs) {
                *e = t.class_of[pair as usize];
            }
        }
    }
}

/// Table index from the raw coordinates and the class entry of their pair.
#[inline]
pub fn finish_index(raw: [u32; 3], entry: u32) -> usize {
    let mut index = [0];
    finish_indices(&[raw], &[entry], &mut index);
    index[0]
}

/// [`finish_index`] of many positions.
#[inline]
pub fn finish_indices(raw: &[[u32; 3]], entries: &[u32], out: &mut [usize]) {
    let t = &*TABLES;
    for ((index, raw), &entry) in out.iter_mut().zip(raw).zip(entries) {
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        let (twist, slice) = t.conjugated(raw[2] as usize, raw[1] as usize, s);
        *index = t.index_in_class(class, twist, slice);
    }
}

/// Table index of a position's projection.
#[inline]
pub fn index(cube: &Cube) -> usize {
    let raw = raw_coordinates(cube);
    finish_index(raw, class_entry(raw[0]))
}

/// Calls `visit` with the index of every projection one move (of `moves`, by index) away
/// from the projection at `index`, and with the other indices of each one's class.
#[inline]
pub fn for_each_neighbour(index: u64, moves: &[usize], mut visit: impl FnMut(u64)) {
    let t = &*TABLES;
    let index = index as usize;
    let order = index % SLICE_ORDERS;
    let twist = index / SLICE_ORDERS % TWISTS;
    let class = index / SLICE_ORDERS / TWISTS;
    let pair = t.representative[class] as usize;
    let (slice, flip) = (pair / FLIPS * SLICE_ORDERS + order, pair % FLIPS);
    for &m in moves {
        t.each_index(
            t.slice_move[slice * MOVE_COUNT + m] as usize,
            t.flip_move[flip * MOVE_COUNT + m] as usize,
            t.twist_move[twist * MOVE_COUNT + m] as usize,
            &mut visit,
        );
    }
}

/// Index of the solved position's projection.
pub fn solved_index() -> u64 {
    index(&Cube::SOLVED) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Progress;
    use crate::rng::SplitMix64;
    use crate::search::{layered_bfs, RankedSpace};

    #[test]
    fn images_under_the_ud_symmetries_share_an_index() {
        let mut rng = SplitMix64::new(41);
        for _ in 0..300 {
            let cube = Cube::random(&mut rng);
            let i = index(&cube);
            assert!((i as u64) < SIZE);
            let mut same_class = Vec::new();
            let t = &*TABLES;
            t.each_index(
                t.slice(&cube),
                coord::flip(&cube) as usize,
                coord::twist(&cube) as usize,
                |j| same_class.push(j as usize),
            );
            assert_eq!(same_class[0], i);
            for sym in UD_SYMMETRIES.iter() {
                let j = index(&sym.conjugate(&cube));
                assert!(
                    same_class.contains(&j),
                    "image of a position in another class"
                );
            }
        }
    }

    #[test]
    fn raw_coordinates_from_the_inverse_agree() {
        let mut rng = SplitMix64::new(53);
        for _ in 0..2000 {
            let cube = Cube::random(&mut rng);
            assert_eq!(
                raw_coordinates_with_inverse(&cube, &cube.inverse()),
                raw_coordinates(&cube)
            );
        }
    }

    #[test]
    fn neighbours_follow_the_moves() {
        let mut rng = SplitMix64::new(43);
        let moves: Vec<usize> = (0..MOVE_COUNT).collect();
        for _ in 0..300 {
            let cube = Cube::random(&mut rng);
            let mut neighbours = Vec::new();
            for_each_neighbour(index(&cube) as u64, &moves, |n| neighbours.push(n as usize));
            for mv in Move::all() {
                assert!(neighbours.contains(&index(&cube.apply(mv))));
            }
        }
    }

    /// The (flip, slice slots, slice order) projection without twists, small enough to
    /// search both unreduced and by class: every pair's distance must equal its class's.
    struct Reduced;
    struct Unreduced;

    const ORDERED_PAIRS: u64 = (CLASSES * SLICE_ORDERS) as u64;

    impl RankedSpace for Reduced {
        fn size(&self) -> u64 {
            ORDERED_PAIRS
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            // Twist 0 throughout: its moves are ignored by dropping them from the index.
            let t = &*TABLES;
            let (class, order) = (rank as usize / SLICE_ORDERS, rank as usize % SLICE_ORDERS);
            let pair = t.representative[class] as usize;
            let (slice, flip) = (pair / FLIPS * SLICE_ORDERS + order, pair % FLIPS);
            for m in 0..MOVE_COUNT {
                t.each_index(
                    t.slice_move[slice * MOVE_COUNT + m] as usize,
                    t.flip_move[flip * MOVE_COUNT + m] as usize,
                    0,
                    |i| {
                        let i = i as usize;
                        visit((i / SLICE_ORDERS / TWISTS * SLICE_ORDERS + i % SLICE_ORDERS) as u64)
                    },
                );
            }
        }
    }

    impl RankedSpace for Unreduced {
        fn size(&self) -> u64 {
            (FLIP_SLICES * SLICE_ORDERS) as u64
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            let t = &*TABLES;
            let (slice, flip) = (rank as usize / FLIPS, rank as usize % FLIPS);
            for m in 0..MOVE_COUNT {
                let s = t.slice_move[slice * MOVE_COUNT + m] as u64;
                let f = t.flip_move[flip * MOVE_COUNT + m] as u64;
                visit(s * FLIPS as u64 + f);
            }
        }
    }

    #[test]
    fn class_distances_equal_the_unreduced_distances() {
        let progress = Progress::hidden();
        let t = &*TABLES;
        let solved = t.slice(&Cube::SOLVED);
        let solved_reduced = solved_index() as usize;
        let solved_reduced = (solved_reduced / SLICE_ORDERS / TWISTS * SLICE_ORDERS
            + solved_reduced % SLICE_ORDERS) as u64;
        let reduced = layered_bfs(&Reduced, &[solved_reduced], &progress, "reduced");
        let unreduced = layered_bfs(
            &Unreduced,
            &[(solved * FLIPS) as u64],
            &progress,
            "unreduced",
        );
        assert_eq!(reduced.reached(), ORDERED_PAIRS);
        assert_eq!(unreduced.reached(), Unreduced.size());
        let mut rng = SplitMix64::new(47);
        for _ in 0..200_000 {
            let rank = rng.below(Unreduced.size()) as usize;
            let (slice, flip) = (rank / FLIPS, rank % FLIPS);
            let mut reduced_rank = 0;
            t.each_index(slice, flip, 0, |i| {
                let i = i as usize;
                reduced_rank = i / SLICE_ORDERS / TWISTS * SLICE_ORDERS + i % SLICE_ORDERS;
            });
            assert_eq!(unreduced.depths[rank], reduced.depths[reduced_rank]);
        }
    }
}
