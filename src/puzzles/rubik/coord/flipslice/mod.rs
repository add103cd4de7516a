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
//! ([`crate::puzzles::rubik::model::symmetry::AXIS_ROTATIONS`]), the same table gives two more lower bounds.
//!
//! A second refinement replaces the slice order by the corner layers: which four of the
//! eight corner slots hold the four U-layer corners (C(8,4) = 70). Like everything else
//! here it is unchanged by U and D turns made before the position, so both tables measure
//! the distance to a coset of a group containing U and D (see `docs/rubik-optimal.md`):
//! 64,430 * 2,187 * 70 = 9.86 G entries (4.9 GB at 4 bits).
//!
//! A third replaces it by the edge layers: which four of the eight slots outside the
//! E-slice hold the four U-layer edges (70 values), unchanged by U and D turns made first
//! for the same reason. Read beside a corner-layers table, it prunes positions that one
//! does not.
//!
//! The corner layers can also be refined by the E-slice edges' parity (`5g`) or by their
//! *pairing* (`8g`): which two of their four slots hold a diagonal pair (FR and BL, FL
//! and BR), one of three ways to split four slots into pairs. U and D turns do not move
//! the slice edges, moves carry the pairing with the slots, and the symmetries of the
//! U-D axis relabel the slice edges by symmetries of their square, which keep diagonals
//! together (`docs/rubik-optimal.md`, "The E-slice pairing").
//!
//! The corner layers up to exchanging U and D, the *split* of the eight corner slots
//! into the U-layer corners' four and the D-layer corners' four, not which is which,
//! take 35 values: half of `2g`'s entries (`1g`).
//!
//! Without the corner layers, the pairing and the parity together (the slice order
//! modulo the Klein four-group, normal in S4, so carried by moves and symmetries alike)
//! make the `200m` table: 845 M entries, what a first use builds.

use crate::puzzles::rubik::coord::perm::{self, CORNER_TWISTS};
use crate::puzzles::rubik::model::cube::{Cube, EDGES, MOVE_COUNT};
use crate::puzzles::rubik::model::packed::PackedCube;
use crate::puzzles::rubik::model::symmetry::UD_SYMMETRY_COUNT;
mod tables;

use tables::TABLES;
pub(crate) use tables::{coordinate_tables, Tables};

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

/// Sets of four corner slots out of eight (which slots hold the U-layer corners).
const CORNER_LAYERS: usize = 70;

/// Ways to split four places into two pairs (where the E-slice edges' diagonal pairs
/// sit among their slots).
const PAIRINGS: usize = 3;

/// Sets of four edge slots out of the eight outside the E-slice (which hold the U-layer
/// edges).
const EDGE_LAYERS: usize = 70;

/// Raw coordinates of a position, moved by tables: its (flip, slice slots) pair, slice
/// (slots and order), twist, and its layers: the corner layers (70 values) in the low
/// byte, the slots of its U-layer edges (a rank among the 495 sets of four of the twelve
/// slots) above (one word for both keeps a node's views as small as before the edges).
pub type RawCoordinates = [u32; 4];

/// Bits of the corner layers in the last raw coordinate (the U-edge slots sit above).
const LAYERS_BITS: u32 = 8;

/// Number of (flip, slice slots) classes under the 16 symmetries.
pub const CLASSES: usize = 64_430;

/// What a table tracks besides the flip-slice class and the twist: its last and least
/// significant index component.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Refinement {
    /// The order of the four E-slice edges in their slots (24 values).
    SliceOrder,
    /// Which four corner slots hold the U-layer corners (70 values).
    CornerLayers,
    /// The corner layers and the parity of the E-slice order (140 values): the
    /// E-slice edges are not relabelled by U and D turns, so their parity is a coset
    /// coordinate too, and it doubles the table.
    LayersParity,
    /// Which four of the eight slots outside the E-slice hold the U-layer edges (70
    /// values): a coset coordinate like the corner layers, read beside them.
    EdgeLayers,
    /// The corner layers and the *pairing* of the E-slice edges (210 values): which two
    /// of their four slots hold a diagonal pair (FR and BL; FL and BR). U and D turns
    /// leave the slice edges in place, moves carry the pairing along with the slots,
    /// and every symmetry of the U-D axis maps diagonals to diagonals: a coset
    /// coordinate with three values where the parity has two.
    LayersPairing,
    /// Nothing more: Kociemba's phase-1 coordinates alone (a small table for tests).
    Bare,
    /// The pairing and the parity of the E-slice order, without the corner layers (6
    /// values: the order modulo the Klein four-group of double transpositions, the one
    /// subgroup of S4 inside both the pairing's and the parity's): the `200m` table, one
    /// fiftieth of `8g`'s entries.
    PairingParity,
    /// The corner layers up to exchanging U and D (35 values): which two sets of four
    /// corner slots the U-layer and the D-layer corners fill, not which is which. Moves
    /// and symmetries carry the two sets as they carry the layers, and U and D turns
    /// made first keep both: a coset coordinate at half the layers' size (`1g`).
    LayersSplit,
}

impl Refinement {
    /// Number of values of the refinement.
    #[inline]
    pub const fn count(self) -> usize {
        match self {
            Refinement::SliceOrder => SLICE_ORDERS,
            Refinement::CornerLayers => CORNER_LAYERS,
            Refinement::LayersParity => CORNER_LAYERS * 2,
            Refinement::EdgeLayers => EDGE_LAYERS,
            Refinement::LayersPairing => CORNER_LAYERS * PAIRINGS,
            Refinement::Bare => 1,
            Refinement::PairingParity => PAIRINGS * 2,
            Refinement::LayersSplit => CORNER_LAYERS / 2,
        }
    }

    /// Entries of the table: class, then twist, then the refinement.
    pub const fn size(self) -> u64 {
        (CLASSES * TWISTS * self.count()) as u64
    }
}

/// [`RawCoordinates`] of a position. The first of the three steps of [`index`], split so
/// that callers computing many indices can issue the class reads of [`class_entry`] back
/// to back.
#[inline]
pub fn raw_coordinates(cube: &Cube) -> RawCoordinates {
    raw_coordinates_for(cube, true)
}

/// [`raw_coordinates`], with the U-edge slots left at 0 unless `up_edges` (only the
/// edge-layers refinement reads them: the search skips their cost for other tables).
#[inline]
pub fn raw_coordinates_for(cube: &Cube, up_edges: bool) -> RawCoordinates {
    // The slots of the cubies that matter, scattered without branches: the same data the
    // inverse would give.
    let mut edge_slot = [0u8; EDGES];
    for (slot, &cubie) in cube.ep.iter().enumerate() {
        edge_slot[cubie as usize] = slot as u8;
    }
    let mut corner_slot = [0u8; 8];
    for (slot, &cubie) in cube.cp.iter().enumerate() {
        corner_slot[cubie as usize] = slot as u8;
    }
    raw_from_slots(cube, &edge_slot, &corner_slot, up_edges)
}

/// [`raw_coordinates`] from a cube's orientations and the slots of its E-slice edges,
/// U-layer edges and U-layer corners (`edge_slot[cubie]`, `corner_slot[cubie]`).
#[inline]
fn raw_from_slots(
    cube: &Cube,
    edge_slot: &[u8; EDGES],
    corner_slot: &[u8; 8],
    up_edges: bool,
) -> RawCoordinates {
    let t = &*TABLES;
    let slots: [u32; 4] = std::array::from_fn(|i| edge_slot[FIRST_SLICE_EDGE as usize + i] as u32);
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
    let pair = slice / SLICE_ORDERS as u32 * FLIPS as u32 + perm::flip(cube);
    let corner_mask = corner_slot[..4].iter().fold(0usize, |m, &s| m | 1 << s);
    let layers = t.layers_of_mask[corner_mask] as u32;
    let up_edges = if up_edges {
        let up_edge_mask = edge_slot[..4].iter().fold(0usize, |m, &s| m | 1 << s);
        t.slots_of_mask[up_edge_mask] as u32
    } else {
        0
    };
    [
        pair,
        slice,
        perm::twist(cube),
        layers | up_edges << LAYERS_BITS,
    ]
}

/// [`raw_coordinates_for`] of a packed cube: the masks of slots come from vector
/// compares, the slice order from the cubie numbers of the slice slots, picked out by
/// one bit extraction where the processor has it.
#[inline]
pub fn raw_coordinates_packed(cube: &PackedCube, up_edges: bool) -> RawCoordinates {
    raw_coordinates_packed_in(&TABLES, cube, up_edges)
}

/// [`raw_coordinates_packed`] with the coordinate tables at hand (a hot loop resolves
/// them once).
#[inline(always)]
pub(crate) fn raw_coordinates_packed_in(
    t: &Tables,
    cube: &PackedCube,
    up_edges: bool,
) -> RawCoordinates {
    let slice_mask = cube.edges_at_least(FIRST_SLICE_EDGE);
    let slots = t.slots_of_mask[slice_mask as usize] as u32;
    let order = t.order_of_low_code[slice_cubies(cube.edge_low_bits(), slice_mask)] as u32;
    // The flip number reads slot 0 as its most significant of eleven bits.
    let flip = u32::from((cube.flips() as u16).reverse_bits() >> 5);
    let layers = t.layers_of_mask[cube.corners_below(4) as usize] as u32;
    let up_edges = if up_edges {
        t.slots_of_mask[cube.edges_below(4) as usize] as u32
    } else {
        0
    };
    [
        slots * FLIPS as u32 + flip,
        slots * SLICE_ORDERS as u32 + order,
        cube.twist(),
        layers | up_edges << LAYERS_BITS,
    ]
}

/// The two-bit fields of `bits` (one per edge slot) at the four slots of `mask`, packed
/// from the lowest slot up: `pext` with each mask bit doubled where the processor has
/// BMI2, else [`slice_cubies_portable`].
#[inline(always)]
fn slice_cubies(bits: u32, mask: u32) -> usize {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        use safe_arch::{population_deposit_u32, population_extract_u32};
        let fields = population_deposit_u32(mask, 0x0055_5555) * 3;
        population_extract_u32(bits, fields) as usize
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        slice_cubies_portable(bits, mask)
    }
}

/// [`slice_cubies`] one set bit of `mask` at a time (compiled where BMI2 is not, and
/// in tests, which hold the two to each other).
#[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "bmi2"))))]
#[inline]
fn slice_cubies_portable(bits: u32, mask: u32) -> usize {
    let (mut rest, mut code, mut place) = (mask, 0usize, 0);
    while rest != 0 {
        let slot = rest.trailing_zeros();
        code |= ((bits >> (2 * slot) & 3) as usize) << (2 * place);
        place += 1;
        rest &= rest - 1;
    }
    code
}

/// The corner layers and the U-edge slots held in the last raw coordinate.
#[inline]
fn split_layers(word: u32) -> (usize, usize) {
    (
        (word & ((1 << LAYERS_BITS) - 1)) as usize,
        (word >> LAYERS_BITS) as usize,
    )
}

/// The class entry of a (flip, slice slots) pair (a read in a 4 MB table).
#[inline]
pub fn class_entry(pair: u32) -> u32 {
    let mut entry = [0];
    class_entries_of(class_bytes(&TABLES), &[[pair, 0, 0, 0]], &mut entry);
    entry[0]
}

/// The class entries of the pairs of many raw coordinates, from [`class_bytes`].
#[inline]
pub(crate) fn class_entries_of(bytes: &[u8], raw: &[RawCoordinates], out: &mut [u32]) {
    for (e, raw) in out.iter_mut().zip(raw) {
        let at = raw[0] as usize * 4;
        *e = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
    }
}

/// The class entries as little-endian bytes, four per (flip, slice slots) pair: a hot
/// loop resolves them once, then asks for entries with [`crate::table::prefetch`] at
/// `pair * 4` and reads them with [`class_entries_of`].
pub(crate) fn class_bytes(t: &Tables) -> &[u8] {
    match &t.class_of_resident {
        Some(resident) => resident.bytes(),
        None => t.class_of_bytes(),
    }
}

/// Table index from the raw coordinates and the class entry of their pair.
#[inline]
pub fn finish_index(refinement: Refinement, raw: RawCoordinates, entry: u32) -> usize {
    let mut index = [0];
    finish_indices(refinement, &[raw], &[entry], &mut index);
    index[0]
}

/// [`finish_index`] of many positions.
#[inline]
pub fn finish_indices(
    refinement: Refinement,
    raw: &[RawCoordinates],
    entries: &[u32],
    out: &mut [usize],
) {
    // One loop per refinement, so that each inlines only its own conjugation.
    match refinement {
        Refinement::SliceOrder => finish_in(Refinement::SliceOrder, raw, entries, out),
        Refinement::CornerLayers => finish_in(Refinement::CornerLayers, raw, entries, out),
        Refinement::LayersParity => finish_in(Refinement::LayersParity, raw, entries, out),
        Refinement::EdgeLayers => finish_in(Refinement::EdgeLayers, raw, entries, out),
        Refinement::LayersPairing => finish_in(Refinement::LayersPairing, raw, entries, out),
        Refinement::Bare => finish_in(Refinement::Bare, raw, entries, out),
        Refinement::PairingParity => finish_in(Refinement::PairingParity, raw, entries, out),
        Refinement::LayersSplit => finish_in(Refinement::LayersSplit, raw, entries, out),
    }
}

/// The loop of [`finish_indices`] for one refinement (a constant where it is inlined).
#[inline(always)]
fn finish_in(refinement: Refinement, raw: &[RawCoordinates], entries: &[u32], out: &mut [usize]) {
    let t = &*TABLES;
    for ((index, raw), &entry) in out.iter_mut().zip(raw).zip(entries) {
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        let (layers, up_edges) = split_layers(raw[3]);
        let parts = [raw[1] as usize, raw[2] as usize, layers, up_edges];
        let (twist, fine) = t.conjugated_fine(refinement, parts, s);
        *index = Tables::index_in_class(refinement, class, twist, fine);
    }
}

/// Table index of a position's projection.
#[inline]
pub fn index(refinement: Refinement, cube: &Cube) -> usize {
    let raw = raw_coordinates(cube);
    finish_index(refinement, raw, class_entry(raw[0]))
}

/// Calls `visit` with the index of every projection one move (of `moves`, by index) away
/// from the projection at `index`, and with the other indices of each one's class.
#[inline]
pub fn for_each_neighbour(
    refinement: Refinement,
    index: u64,
    moves: &[usize],
    mut visit: impl FnMut(u64),
) {
    let t = &*TABLES;
    let parts = moved_parts(t, refinement, index);
    for &m in moves {
        t.each_index(refinement, parts(m), &mut visit);
    }
}

/// What moving any index of one class by one move does, worked out once for the class
/// (the class, its representative's slice slots and flip are the same for all its
/// indices, and so are the class the move leads to and the symmetry that takes the
/// moved pair to that class's representative).
struct ClassMove {
    /// The class reached, times twists, times the refinement's values.
    first_index: u64,
    /// Whether the class reached has symmetries of its own (its other indices are then
    /// visited too, index by index).
    symmetric: bool,
    /// The symmetry taking the moved pair to its class's representative.
    symmetry: usize,
    /// The refinement value reached from each value.
    fine: Vec<u16>,
}

impl ClassMove {
    /// The first index of the twist that the move takes `twist` to.
    #[inline]
    fn twist_first(&self, t: &Tables, twist: usize, m: usize, count: usize) -> u64 {
        let moved = t.twist_move[twist * MOVE_COUNT + m] as usize;
        let twist2 = t.twist_conj[moved * UD_SYMMETRY_COUNT + self.symmetry] as u64;
        self.first_index + twist2 * count as u64
    }
}

/// The moves of one class, for [`for_each_neighbour_of_sorted`]; kept per thread, as a
/// thread expands the ranks of a class in several chunks one after the other.
struct ClassMoves {
    refinement: Refinement,
    class: usize,
    moves: Vec<usize>,
    /// Per move; `None` if the move's class or symmetry were not the same for every
    /// refinement value (never seen: the slots a move leads to do not depend on the
    /// order), and the indices go one by one.
    by_move: Vec<Option<ClassMove>>,
}

impl ClassMoves {
    fn new(t: &Tables, refinement: Refinement, class: usize, moves: &[usize]) -> Self {
        let count = refinement.count();
        let first = (class * TWISTS * count) as u64;
        let by_move = moves
            .iter()
            .map(|&m| {
                let mut reached = None;
                let mut fine = Vec::with_capacity(count);
                for value in 0..count {
                    let parts = moved_parts(t, refinement, first + value as u64)(m);
                    let (class2, symmetry, [slice, _, layers, up_edges]) =
                        t.in_class_by(refinement, parts);
                    if *reached.get_or_insert((class2, symmetry)) != (class2, symmetry) {
                        return None;
                    }
                    fine.push(t.fine(refinement, slice, layers, up_edges) as u16);
                }
                let (class2, symmetry) = reached?;
                Some(ClassMove {
                    first_index: (class2 * TWISTS * count) as u64,
                    symmetric: t.stabiliser[class2] & !1 != 0,
                    symmetry,
                    fine,
                })
            })
            .collect();
        ClassMoves {
            refinement,
            class,
            moves: moves.to_vec(),
            by_move,
        }
    }

    fn fits(&self, refinement: Refinement, class: usize, moves: &[usize]) -> bool {
        self.refinement == refinement && self.class == class && self.moves == moves
    }
}

thread_local! {
    static CLASS_MOVES: std::cell::RefCell<Option<ClassMoves>> = const { std::cell::RefCell::new(None) };
}

/// Calls `work` with the moves of `class` (this thread's, made if need be), or with
/// `None` when they are not at hand and `indices` indices of the class would not pay
/// for making them (a quarter of the refinement's values).
fn with_class_moves<R>(
    refinement: Refinement,
    class: usize,
    moves: &[usize],
    indices: usize,
    work: impl FnOnce(Option<&ClassMoves>) -> R,
) -> R {
    CLASS_MOVES.with_borrow_mut(|cached| {
        let fits = cached
            .as_ref()
            .is_some_and(|c| c.fits(refinement, class, moves));
        if !fits && indices * 4 < refinement.count() {
            return work(None);
        }
        if !fits {
            *cached = Some(ClassMoves::new(&TABLES, refinement, class, moves));
        }
        work(cached.as_ref())
    })
}

/// Splits `indices` (ascending) into runs of one class each (`block` indices a class):
/// calls `run` with the class, its first index and the run's range in `indices`.
fn for_each_class_run(
    indices: &[u64],
    block: u64,
    mut run: impl FnMut(usize, u64, std::ops::Range<usize>),
) {
    let mut done = 0;
    while done < indices.len() {
        let class = indices[done] / block;
        let class_first = class * block;
        let end = done + indices[done..].partition_point(|&i| i < class_first + block);
        run(class as usize, class_first, done..end);
        done = end;
    }
}

/// For move `moves[k]`, one index of the class of each neighbour of the indices
/// `indices` (ascending), in `out` (as long): [`neighbours_by_move`] for many indices,
/// the class's work done once ([`ClassMoves`]).
pub fn neighbours_by_move_of_sorted(
    refinement: Refinement,
    indices: &[u64],
    moves: &[usize],
    k: usize,
    out: &mut [u64],
) {
    let t = &*TABLES;
    let count = refinement.count();
    let block = (TWISTS * count) as u64;
    for_each_class_run(indices, block, |class, class_first, run| {
        let (group, slots) = (&indices[run.clone()], &mut out[run]);
        with_class_moves(refinement, class, moves, group.len(), |class_moves| {
            match class_moves.and_then(|c| c.by_move[k].as_ref()) {
                Some(cm) => {
                    // The twist's target is worked out once per twist: the indices are
                    // ascending, and those of one twist are consecutive.
                    let (mut twist_start, mut twist_end, mut base) = (0u32, 0u32, 0u64);
                    for (slot, &index) in slots.iter_mut().zip(group) {
                        // Below 2^32 (a class's indices): 32-bit arithmetic.
                        let offset = (index - class_first) as u32;
                        if offset >= twist_end {
                            let twist = offset / count as u32;
                            twist_start = twist * count as u32;
                            twist_end = twist_start + count as u32;
                            base = cm.twist_first(t, twist as usize, moves[k], count);
                        }
                        *slot = base + u64::from(cm.fine[(offset - twist_start) as usize]);
                    }
                }
                None => {
                    for (slot, &index) in slots.iter_mut().zip(group) {
                        *slot = neighbours_by_move(refinement, index, moves)(k);
                    }
                }
            }
        });
    });
}

/// [`for_each_neighbour`] of every index of `indices` (ascending). Within a class the
/// moves are worked out once ([`ClassMoves`]), and within a twist each move's target
/// once, so a neighbour costs one lookup of its refinement value; the neighbours of one
/// twist's indices by one move lie in one stretch of `refinement.count()` entries, a
/// cache line or two. Classes with few indices listed go index by index.
pub fn for_each_neighbour_of_sorted(
    refinement: Refinement,
    indices: &[u64],
    moves: &[usize],
    mut visit: impl FnMut(u64),
) {
    let t = &*TABLES;
    let count = refinement.count();
    let block = (TWISTS * count) as u64;
    for_each_class_run(indices, block, |class, class_first, run| {
        let group = &indices[run];
        with_class_moves(refinement, class, moves, group.len(), |class_moves| {
            let Some(class_moves) = class_moves else {
                for &index in group {
                    for_each_neighbour(refinement, index, moves, &mut visit);
                }
                return;
            };
            let mut rest = group;
            while let Some(&first) = rest.first() {
                let twist = ((first - class_first) / count as u64) as usize;
                let twist_first = class_first + (twist * count) as u64;
                let end = rest.partition_point(|&i| i < twist_first + count as u64);
                let (same_twist, after) = rest.split_at(end);
                rest = after;
                for (&m, class_move) in moves.iter().zip(&class_moves.by_move) {
                    match class_move {
                        Some(cm) if !cm.symmetric => {
                            let base = cm.twist_first(t, twist, m, count);
                            for &index in same_twist {
                                let fine = (index - twist_first) as usize;
                                visit(base + u64::from(cm.fine[fine]));
                            }
                        }
                        _ => {
                            for &index in same_twist {
                                let parts = moved_parts(t, refinement, index);
                                t.each_index(refinement, parts(m), &mut visit);
                            }
                        }
                    }
                }
            }
        });
    });
}

/// The neighbours of the projection at `index` one move at a time: for `k`, one index
/// of the class that `moves[k]` (a move by index) takes it to, which a search whose
/// twins share a value reads for them all. The index is decoded once, here.
#[inline]
pub fn neighbours_by_move(
    refinement: Refinement,
    index: u64,
    moves: &[usize],
) -> impl Fn(usize) -> u64 + '_ {
    let t = &*TABLES;
    let parts = moved_parts(t, refinement, index);
    move |k| t.first_index(refinement, parts(moves[k]))
}

/// The projection at `index` as the raw parts a move acts on (slice, flip, twist,
/// corner layers, U-edge slots), returned as the parts after each move.
#[inline(always)]
fn moved_parts(
    t: &Tables,
    refinement: Refinement,
    index: u64,
) -> impl Fn(usize) -> [usize; 5] + '_ {
    let index = index as usize;
    let count = refinement.count();
    let fine = index % count;
    let twist = index / count % TWISTS;
    let class = index / count / TWISTS;
    let pair = t.representative[class] as usize;
    let (slots, flip) = (pair / FLIPS, pair % FLIPS);
    let (order, layers, up_edges) = fine_parts(t, refinement, slots, fine);
    let slice = slots * SLICE_ORDERS + order;
    move |m| {
        [
            t.slice_move[slice * MOVE_COUNT + m] as usize,
            t.flip_move[flip * MOVE_COUNT + m] as usize,
            t.twist_move[twist * MOVE_COUNT + m] as usize,
            t.layers_move[layers * MOVE_COUNT + m] as usize,
            t.edge_set_move[up_edges * MOVE_COUNT + m] as usize,
        ]
    }
}

/// A position with refinement value `fine` next to E-slice slots `slots`, as the parts
/// the moves act on: a slice order, corner layers and U-edge slots (one representative
/// where the value is a class of orders: the parity of `5g`, the pairing of `8g`).
#[inline]
fn fine_parts(
    t: &Tables,
    refinement: Refinement,
    slots: usize,
    fine: usize,
) -> (usize, usize, usize) {
    match refinement {
        Refinement::SliceOrder => (fine, 0, 0),
        // Of the two layers values of a split, the one below half (see `Tables::fine`).
        Refinement::CornerLayers | Refinement::LayersSplit => (0, fine, 0),
        Refinement::LayersParity | Refinement::LayersPairing => {
            let quotient = t.quotient(refinement).expect("a quotient of the order");
            let classes = quotient.classes;
            (quotient.representative(fine % classes), fine / classes, 0)
        }
        Refinement::EdgeLayers => (0, 0, t.up_edges_of_layers(slots, fine)),
        Refinement::Bare => (0, 0, 0),
        Refinement::PairingParity => (t.pairing_parity_order[fine] as usize, 0, 0),
    }
}

/// Index of the solved position's projection.
pub fn solved_index(refinement: Refinement) -> u64 {
    index(refinement, &Cube::SOLVED) as u64
}

#[cfg(test)]
mod tests {
    use super::tables::{corner_layer_mask, slice_mask_and_code, up_edge_mask};
    use super::*;
    use crate::progress::Progress;
    use crate::puzzles::rubik::model::cube::{Face, Move};
    use crate::puzzles::rubik::model::symmetry::UD_SYMMETRIES;
    use crate::puzzles::rubik::model::turns::MOVE_CUBES;
    use crate::rng::SplitMix64;
    use crate::search::{layered_bfs, RankedSpace};

    const REFINEMENTS: [Refinement; 8] = [
        Refinement::SliceOrder,
        Refinement::CornerLayers,
        Refinement::LayersParity,
        Refinement::EdgeLayers,
        Refinement::LayersPairing,
        Refinement::Bare,
        Refinement::PairingParity,
        Refinement::LayersSplit,
    ];

    /// The five raw coordinates `each_index` takes, read from a cube.
    fn parts(cube: &Cube) -> [usize; 5] {
        let t = &*TABLES;
        [
            t.slice(cube),
            perm::flip(cube) as usize,
            perm::twist(cube) as usize,
            t.layers_of_mask[corner_layer_mask(cube)] as usize,
            t.slots_of_mask[up_edge_mask(cube)] as usize,
        ]
    }

    #[test]
    fn images_under_the_ud_symmetries_share_an_index() {
        let mut rng = SplitMix64::new(41);
        for refinement in REFINEMENTS {
            for _ in 0..300 {
                let cube = Cube::random(&mut rng);
                let i = index(refinement, &cube);
                assert!((i as u64) < refinement.size());
                let mut same_class = Vec::new();
                TABLES.each_index(refinement, parts(&cube), |j| same_class.push(j as usize));
                assert_eq!(same_class[0], i);
                for sym in UD_SYMMETRIES.iter() {
                    let j = index(refinement, &sym.conjugate(&cube));
                    assert!(
                        same_class.contains(&j),
                        "image of a position in another class"
                    );
                }
            }
        }
    }

    #[test]
    fn u_and_d_turns_before_a_position_keep_its_index() {
        // The projection is a coset of a group holding U and D: the search's tricks
        // (docs/rubik-optimal.md) rest on this.
        let mut rng = SplitMix64::new(59);
        for refinement in REFINEMENTS {
            for _ in 0..300 {
                let cube = Cube::random(&mut rng);
                for mv in Move::all().filter(|m| matches!(m.face(), Face::U | Face::D)) {
                    let turned_first = MOVE_CUBES[mv.index()].then(&cube);
                    assert_eq!(index(refinement, &turned_first), index(refinement, &cube));
                }
                // Quarter turns of the other faces are in none of the groups (half turns
                // are in the bare one's, Kociemba's G1).
                for mv in Move::all().filter(|m| !matches!(m.face(), Face::U | Face::D)) {
                    if mv.turns() == 2 {
                        continue;
                    }
                    let turned_first = MOVE_CUBES[mv.index()].then(&Cube::SOLVED);
                    assert_ne!(
                        index(refinement, &turned_first),
                        index(refinement, &Cube::SOLVED)
                    );
                }
            }
        }
    }

    /// The move tables the BFS walks the projection with take each of the five parts
    /// (`parts`) where the move takes the cube.
    #[test]
    fn raw_coordinates_follow_the_move_tables() {
        let t = &*TABLES;
        let mut rng = SplitMix64::new(61);
        for _ in 0..500 {
            let cube = Cube::random(&mut rng);
            let [slice, flip, twist, layers, up_edges] = parts(&cube);
            for mv in Move::all() {
                let m = mv.index();
                assert_eq!(
                    [
                        t.slice_move[slice * MOVE_COUNT + m] as usize,
                        t.flip_move[flip * MOVE_COUNT + m] as usize,
                        t.twist_move[twist * MOVE_COUNT + m] as usize,
                        t.layers_move[layers * MOVE_COUNT + m] as usize,
                        t.edge_set_move[up_edges * MOVE_COUNT + m] as usize,
                    ],
                    parts(&cube.apply(mv)),
                    "{mv:?}"
                );
            }
        }
    }

    #[test]
    fn raw_coordinates_read_the_slice_of_its_slots() {
        let mut rng = SplitMix64::new(53);
        for _ in 0..2000 {
            let cube = Cube::random(&mut rng);
            let (mask, code) = slice_mask_and_code(&cube);
            let slice = TABLES.slots_of_mask[mask] as u32 * SLICE_ORDERS as u32
                + TABLES.order_of_code[code] as u32;
            let raw = raw_coordinates(&cube);
            assert_eq!(raw[1], slice, "slice read by scanning the slots");
        }
    }

    #[test]
    fn slice_cubies_pick_the_fields_of_the_mask() {
        let mut rng = SplitMix64::new(71);
        for mask in (0u32..1 << EDGES).filter(|m| m.count_ones() == 4) {
            let bits = rng.below(1 << 24) as u32;
            let want = slice_cubies_portable(bits, mask);
            assert_eq!(slice_cubies(bits, mask), want, "mask {mask:#x}");
            let slots: Vec<u32> = (0..12).filter(|s| mask >> s & 1 == 1).collect();
            for (place, slot) in slots.iter().enumerate() {
                assert_eq!(want >> (2 * place) & 3, (bits >> (2 * slot) & 3) as usize);
            }
        }
    }

    #[test]
    fn raw_coordinates_of_packed_cubes_agree() {
        let mut rng = SplitMix64::new(67);
        for _ in 0..5000 {
            let cube = Cube::random(&mut rng);
            let packed = PackedCube::of(&cube);
            for up_edges in [false, true] {
                assert_eq!(
                    raw_coordinates_packed(&packed, up_edges),
                    raw_coordinates_for(&cube, up_edges)
                );
            }
        }
    }

    #[test]
    fn a_neighbour_by_move_is_the_first_of_its_class() {
        let mut rng = SplitMix64::new(47);
        for refinement in REFINEMENTS {
            for _ in 0..200 {
                let i = index(refinement, &Cube::random(&mut rng)) as u64;
                let moves: Vec<usize> = (0..MOVE_COUNT).rev().collect();
                let by_move = neighbours_by_move(refinement, i, &moves);
                for (k, &m) in moves.iter().enumerate() {
                    let mut class = Vec::new();
                    for_each_neighbour(refinement, i, &[m], |n| class.push(n));
                    assert_eq!(by_move(k), class[0], "move {m}");
                }
            }
        }
    }

    #[test]
    fn neighbours_follow_the_moves() {
        let mut rng = SplitMix64::new(43);
        let moves: Vec<usize> = (0..MOVE_COUNT).collect();
        for refinement in REFINEMENTS {
            for _ in 0..300 {
                let cube = Cube::random(&mut rng);
                let mut neighbours = Vec::new();
                for_each_neighbour(refinement, index(refinement, &cube) as u64, &moves, |n| {
                    neighbours.push(n as usize)
                });
                for mv in Move::all() {
                    assert!(neighbours.contains(&index(refinement, &cube.apply(mv))));
                }
            }
        }
    }

    #[test]
    fn neighbours_of_sorted_indices_are_each_ones_neighbours() {
        let mut rng = SplitMix64::new(47);
        let all: Vec<usize> = (0..MOVE_COUNT).collect();
        let quarter: Vec<usize> = (0..MOVE_COUNT).filter(|m| m % 3 != 1).collect();
        // Classes whose moves reach classes with symmetries of their own, and others.
        let symmetric = (0..CLASSES).filter(|&c| TABLES.stabiliser[c] & !1 != 0);
        let classes: Vec<usize> = symmetric.take(3).chain([0, 1, 777, CLASSES - 1]).collect();
        for refinement in REFINEMENTS {
            let count = refinement.count() as u64;
            let block = TWISTS as u64 * count;
            for moves in [&all, &quarter] {
                for &class in &classes {
                    // Whole twists, a lone index and a sparse run: both paths.
                    let mut indices: Vec<u64> = Vec::new();
                    for _ in 0..40 {
                        let twist = rng.below(TWISTS as u64);
                        let start = class as u64 * block + twist * count;
                        indices.extend((0..count).filter(|_| rng.below(3) == 0).map(|f| start + f));
                    }
                    indices.push(((class + 1) % CLASSES) as u64 * block + rng.below(block));
                    indices.sort_unstable();
                    indices.dedup();
                    for cut in [indices.len(), 2] {
                        let indices = &indices[..cut.min(indices.len())];
                        let mut batch = Vec::new();
                        for_each_neighbour_of_sorted(refinement, indices, moves, |n| batch.push(n));
                        let mut one_by_one = Vec::new();
                        for &i in indices {
                            for_each_neighbour(refinement, i, moves, |n| one_by_one.push(n));
                        }
                        batch.sort_unstable();
                        one_by_one.sort_unstable();
                        assert_eq!(batch, one_by_one, "{refinement:?}, class {class}");
                        for k in 0..moves.len() {
                            let mut firsts = vec![0; indices.len()];
                            neighbours_by_move_of_sorted(
                                refinement,
                                indices,
                                moves,
                                k,
                                &mut firsts,
                            );
                            for (&i, &first) in indices.iter().zip(&firsts) {
                                assert_eq!(first, neighbours_by_move(refinement, i, moves)(k));
                            }
                        }
                    }
                }
            }
        }
    }

    /// A projection without twists, small enough to search both unreduced and by class:
    /// (flip, slice slots) with the refinement. Every state's distance must equal its
    /// class's.
    struct Reduced(Refinement);
    struct Unreduced(Refinement);

    /// Slice (slots and order), corner layers and U-edge slots of slice slots `slots`
    /// with refinement value `fine`.
    fn parts_of(refinement: Refinement, slots: usize, fine: usize) -> (usize, usize, usize) {
        let (order, layers, up_edges) = fine_parts(&TABLES, refinement, slots, fine);
        (slots * SLICE_ORDERS + order, layers, up_edges)
    }

    /// Drops the twist from a table index.
    fn without_twist(refinement: Refinement, i: u64) -> u64 {
        let count = refinement.count() as u64;
        i / count / TWISTS as u64 * count + i % count
    }

    impl RankedSpace for Reduced {
        fn size(&self) -> u64 {
            (CLASSES * self.0.count()) as u64
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            // Twist 0 throughout: its moves are ignored by dropping them from the index.
            let count = self.0.count();
            let (class, fine) = (rank as usize / count, rank as usize % count);
            let index = (class * TWISTS) * count + fine;
            let moves: Vec<usize> = (0..MOVE_COUNT).collect();
            for_each_neighbour(self.0, index as u64, &moves, |i| {
                visit(without_twist(self.0, i))
            });
        }
    }

    impl RankedSpace for Unreduced {
        fn size(&self) -> u64 {
            (FLIP_SLICES * self.0.count()) as u64
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            let t = &*TABLES;
            let count = self.0.count();
            let (pair, fine) = (rank as usize / count, rank as usize % count);
            let (slots, flip) = (pair / FLIPS, pair % FLIPS);
            for m in 0..MOVE_COUNT {
                let (slice, layers, up_edges) = parts_of(self.0, slots, fine);
                let slice = t.slice_move[slice * MOVE_COUNT + m] as usize;
                let f = t.flip_move[flip * MOVE_COUNT + m] as usize;
                let next_fine = t.fine(
                    self.0,
                    slice,
                    t.layers_move[layers * MOVE_COUNT + m] as usize,
                    t.edge_set_move[up_edges * MOVE_COUNT + m] as usize,
                );
                visit(((slice / SLICE_ORDERS * FLIPS + f) * count + next_fine) as u64);
            }
        }
    }

    #[test]
    fn class_distances_equal_the_unreduced_distances() {
        let progress = Progress::hidden();
        let t = &*TABLES;
        for refinement in REFINEMENTS {
            let count = refinement.count();
            let solved = parts(&Cube::SOLVED);
            let solved_reduced = without_twist(refinement, solved_index(refinement));
            let solved_unreduced = {
                let fine = t.fine(refinement, solved[0], solved[3], solved[4]);
                ((solved[0] / SLICE_ORDERS * FLIPS + solved[1]) * count + fine) as u64
            };
            let reduced = layered_bfs(&Reduced(refinement), &[solved_reduced], &progress, "r");
            let unreduced =
                layered_bfs(&Unreduced(refinement), &[solved_unreduced], &progress, "u");
            assert_eq!(reduced.reached(), Reduced(refinement).size());
            assert_eq!(unreduced.reached(), Unreduced(refinement).size());
            let mut rng = SplitMix64::new(47);
            for _ in 0..200_000 {
                let rank = rng.below(Unreduced(refinement).size()) as usize;
                let (pair, fine) = (rank / count, rank % count);
                let (slots, flip) = (pair / FLIPS, pair % FLIPS);
                let (slice, layers, up_edges) = parts_of(refinement, slots, fine);
                let mut reduced_rank = 0;
                t.each_index(refinement, [slice, flip, 0, layers, up_edges], |i| {
                    reduced_rank = without_twist(refinement, i) as usize;
                });
                assert_eq!(unreduced.depths[rank], reduced.depths[reduced_rank]);
            }
        }
    }
}
