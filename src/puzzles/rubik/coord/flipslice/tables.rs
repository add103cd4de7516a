//! The move, symmetry and class tables behind the flip-slice-twist coordinates, computed
//! once per process.

use super::*;
use crate::puzzles::rubik::model::cube::{Cube, Move, EDGES, MOVE_COUNT};
use crate::puzzles::rubik::model::symmetry::{UD_INVERSE, UD_SYMMETRIES, UD_SYMMETRY_COUNT};
use std::sync::LazyLock;

/// Coordinate tables: ranks, moves, conjugation by the symmetries, classes.
pub(crate) struct Tables {
    /// Rank of each 12-bit slot mask with four bits set (others unused).
    pub(crate) slots_of_mask: Vec<u16>,
    /// Slot mask of each rank.
    pub(crate) mask_of_slots: Vec<u16>,
    /// Rank of the slice order from four 2-bit cubie numbers (first slot most significant).
    pub(crate) order_of_code: [u8; 256],
    /// The same from the cubie numbers listed the other way, first slot least
    /// significant (what packing the slots' bits in order gives).
    pub(crate) order_of_low_code: [u8; 256],
    /// `flip_move[flip * 18 + m]`.
    pub(crate) flip_move: Vec<u16>,
    /// `slice_move[slice * 18 + m]`, slice = `slots * 24 + order`.
    pub(crate) slice_move: Vec<u16>,
    /// `twist_move[twist * 18 + m]`.
    pub(crate) twist_move: Vec<u16>,
    /// `twist_conj[twist * 16 + s]`: twist of the image under symmetry `s`.
    pub(crate) twist_conj: Vec<u16>,
    /// `slice_conj[slice * 16 + s]`: slice of the image under symmetry `s`.
    pub(crate) slice_conj: Vec<u16>,
    /// The parity of the slice order (`5g`).
    parity: OrderQuotient,
    /// The pairing of the slice order: which place (1, 2 or 3, less one) among the four
    /// slots holds the diagonal partner (FR with BL, FL with BR) of the edge in the
    /// lowest slot (`8g`).
    pairing: OrderQuotient,
    /// A slice order of each value (pairing * 2 + parity) of the `PairingParity`
    /// refinement: what the BFS moves for that value.
    pub(crate) pairing_parity_order: [u8; PAIRINGS * 2],
    /// Rank of each 8-bit corner slot mask with four bits set (others unused).
    pub(crate) layers_of_mask: [u8; 256],
    /// `layers_move[layers * 18 + m]`.
    pub(crate) layers_move: Vec<u8>,
    /// `layers_conj[layers * 16 + s]`: corner layers of the image under symmetry `s`.
    pub(crate) layers_conj: Vec<u8>,
    /// 8-bit mask of each corner-layers rank (the inverse of `layers_of_mask`), also the
    /// edge layers' masks within the eight slots outside the E-slice.
    mask_of_layers: [u8; CORNER_LAYERS],
    /// `edge_set_move[slots * 18 + m]`: where move `m` takes a set of four edge slots (by
    /// rank), whichever edges sit there.
    pub(crate) edge_set_move: Vec<u16>,
    /// `edge_set_conj[slots * 16 + s]`: the image of a set of four edge slots under
    /// symmetry `s`.
    edge_set_conj: Vec<u16>,
    /// Bit `s` set when symmetry `s` exchanges the U and D layers (the image's U-layer
    /// edges are then the images of the D-layer edges).
    swaps_layers: u16,
    /// `class_of[flip_slice]` = `class << 4 | s` where symmetry `s` takes the pair to the
    /// class representative.
    pub(crate) class_of: Vec<u32>,
    /// Representative (flip, slice slots) pair of each class.
    pub(crate) representative: Vec<u32>,
    /// Bit `s` set when symmetry `s` fixes the class representative.
    pub(crate) stabiliser: Vec<u16>,
    /// `class_of` as little-endian bytes in huge pages (read at random in search).
    pub(crate) class_of_resident: Option<crate::table::Resident>,
    /// `class_of` as little-endian bytes where no huge pages could hold them.
    class_of_le: Vec<u8>,
}

/// Slot mask of the E-slice edges and their order code, read from `ep`.
#[inline]
pub(super) fn slice_mask_and_code(cube: &Cube) -> (usize, usize) {
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

/// Slot mask of the four U-layer corners (cubies 0..4), read from `cp`.
#[inline]
pub(super) fn corner_layer_mask(cube: &Cube) -> usize {
    cube.cp.iter().enumerate().fold(0, |mask, (slot, &cubie)| {
        mask | usize::from(cubie < 4) << slot
    })
}

/// Slot mask of the four U-layer edges (cubies 0..4), read from `ep`.
#[inline]
pub(super) fn up_edge_mask(cube: &Cube) -> usize {
    cube.ep.iter().enumerate().fold(0, |mask, (slot, &cubie)| {
        mask | usize::from(cubie < 4) << slot
    })
}

/// The bits of `mask` at the set bits of `keep`, packed from bit 0 up (`pext` on 6
/// bits, for the tables of [`HalfMasks`]).
const fn compress6(mask: usize, keep: usize) -> usize {
    let (mut out, mut at, mut bit) = (0, 0, 0);
    while bit < 6 {
        if keep >> bit & 1 == 1 {
            out |= (mask >> bit & 1) << at;
            at += 1;
        }
        bit += 1;
    }
    out
}

/// The low bits of `packed` spread over the set bits of `keep` (`pdep` on 6 bits).
const fn expand6(packed: usize, keep: usize) -> usize {
    let (mut out, mut at, mut bit) = (0, 0, 0);
    while bit < 6 {
        if keep >> bit & 1 == 1 {
            out |= (packed >> at & 1) << bit;
            at += 1;
        }
        bit += 1;
    }
    out
}

/// `pext` and `pdep` on 12-bit edge-slot masks by two lookups in 4 KB tables, one per
/// 6-bit half (the table builder spends a fifth of its time here otherwise).
struct HalfMasks {
    /// `compress[keep][mask]`.
    compress: [[u8; 64]; 64],
    /// `expand[keep][packed]`.
    expand: [[u8; 64]; 64],
}

static HALF_MASKS: HalfMasks = {
    let mut t = HalfMasks {
        compress: [[0; 64]; 64],
        expand: [[0; 64]; 64],
    };
    let mut keep = 0;
    while keep < 64 {
        let mut bits = 0;
        while bits < 64 {
            t.compress[keep][bits] = compress6(bits, keep) as u8;
            t.expand[keep][bits] = expand6(bits, keep) as u8;
            bits += 1;
        }
        keep += 1;
    }
    t
};

/// The bits of the 12-bit `mask` at the set bits of `keep`, packed from bit 0 up.
#[inline]
fn compress(mask: usize, keep: usize) -> usize {
    let t = &HALF_MASKS;
    let low = t.compress[keep & 63][mask & 63] as usize;
    let high = t.compress[keep >> 6 & 63][mask >> 6 & 63] as usize;
    low | high << (keep & 63).count_ones()
}

/// The low bits of `packed` spread over the set bits of the 12-bit `keep`, from bit 0 up.
#[inline]
fn expand(packed: usize, keep: usize) -> usize {
    let t = &HALF_MASKS;
    let low = t.expand[keep & 63][packed & 63] as usize;
    let rest = packed >> (keep & 63).count_ones() & 63;
    low | (t.expand[keep >> 6 & 63][rest] as usize) << 6
}

/// All twelve edge slots.
const ALL_EDGE_SLOTS: usize = (1 << EDGES) - 1;

/// A cube whose U-layer corners sit in the slots of the 4-bit-set mask `mask`.
fn cube_with_corner_layers(mask: usize) -> Cube {
    let mut cube = Cube::SOLVED;
    let (mut up, mut down) = (0u8, 4u8);
    for slot in 0..8 {
        if mask >> slot & 1 == 1 {
            cube.cp[slot] = up;
            up += 1;
        } else {
            cube.cp[slot] = down;
            down += 1;
        }
    }
    cube
}

/// A cube with the given slice (slots and order), flip and twist; other cubies arbitrary.
fn cube_with(t: &Tables, slice: usize, flip: usize, twist: usize) -> Cube {
    let mut cube = Cube::SOLVED;
    let mask = t.mask_of_slots[slice / SLICE_ORDERS];
    let mut order = [0u8; 4];
    perm::unrank_permutation((slice % SLICE_ORDERS) as u64, &mut order);
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
    /// `class_of` as little-endian bytes, when no huge pages hold them
    /// ([`super::class_bytes`]).
    pub(crate) fn class_of_bytes(&self) -> &[u8] {
        &self.class_of_le
    }

    /// The coordinate of the slice order that `refinement` reads beside the corner
    /// layers, if any (a constant choice where the refinement is one).
    #[inline(always)]
    pub(crate) fn quotient(&self, refinement: Refinement) -> Option<&OrderQuotient> {
        match refinement {
            Refinement::LayersParity => Some(&self.parity),
            Refinement::LayersPairing => Some(&self.pairing),
            _ => None,
        }
    }

    /// Slice (slots * 24 + order) of a cube.
    #[inline]
    pub(crate) fn slice(&self, cube: &Cube) -> usize {
        let (mask, code) = slice_mask_and_code(cube);
        self.slots_of_mask[mask] as usize * SLICE_ORDERS + self.order_of_code[code] as usize
    }

    pub(crate) fn build() -> Self {
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
            perm::unrank_permutation(rank as u64, &mut order);
            let code = order.iter().fold(0, |acc, &c| acc << 2 | c as usize);
            order_of_code[code] = rank as u8;
        }
        let order_of_low_code = std::array::from_fn(|low: usize| {
            let code = (0..4).fold(0, |code, place| code << 2 | (low >> (2 * place) & 3));
            order_of_code[code]
        });
        let of_orders = |class: fn(&[u8; 4]) -> u8| -> [u8; SLICE_ORDERS] {
            std::array::from_fn(|rank| {
                let mut order = [0u8; 4];
                perm::unrank_permutation(rank as u64, &mut order);
                class(&order)
            })
        };
        let parity =
            of_orders(|order| crate::puzzles::rubik::model::cube::permutation_parity(order) as u8);
        let pairing = of_orders(|order| {
            // Cubies 0 and 2 (FR, BL) and 1 and 3 (FL, BR) are the diagonal pairs.
            let partner = order.iter().position(|&c| c == order[0] ^ 2).unwrap_or(1);
            (partner - 1) as u8
        });
        let pairing_parity_order = std::array::from_fn(|fine| {
            (0..SLICE_ORDERS)
                .find(|&order| pairing[order] as usize * 2 + parity[order] as usize == fine)
                .unwrap_or(0) as u8
        });
        let mut t = Tables {
            pairing_parity_order,
            parity: OrderQuotient::of_classes(parity),
            pairing: OrderQuotient::of_classes(pairing),
            slots_of_mask,
            mask_of_slots,
            order_of_code,
            order_of_low_code,
            flip_move: vec![0; FLIPS * MOVE_COUNT],
            slice_move: vec![0; SLICES * MOVE_COUNT],
            twist_move: vec![0; TWISTS * MOVE_COUNT],
            twist_conj: vec![0; TWISTS * UD_SYMMETRY_COUNT],
            slice_conj: vec![0; SLICES * UD_SYMMETRY_COUNT],
            layers_of_mask: [u8::MAX; 256],
            layers_move: vec![0; CORNER_LAYERS * MOVE_COUNT],
            layers_conj: vec![0; CORNER_LAYERS * UD_SYMMETRY_COUNT],
            mask_of_layers: [0; CORNER_LAYERS],
            edge_set_move: vec![0; SLICE_SLOTS * MOVE_COUNT],
            edge_set_conj: vec![0; SLICE_SLOTS * UD_SYMMETRY_COUNT],
            swaps_layers: 0,
            class_of: vec![u32::MAX; FLIP_SLICES],
            representative: Vec::with_capacity(CLASSES),
            stabiliser: Vec::with_capacity(CLASSES),
            class_of_resident: None,
            class_of_le: Vec::new(),
        };
        let syms = &*UD_SYMMETRIES;
        for flip in 0..FLIPS {
            let cube = cube_with(&t, 0, flip, 0);
            for mv in Move::all() {
                t.flip_move[flip * MOVE_COUNT + mv.index()] = perm::flip(&cube.apply(mv)) as u16;
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
                t.twist_move[twist * MOVE_COUNT + mv.index()] = perm::twist(&cube.apply(mv)) as u16;
            }
            for (s, sym) in syms.iter().enumerate() {
                t.twist_conj[twist * UD_SYMMETRY_COUNT + s] =
                    perm::twist(&sym.conjugate(&cube)) as u16;
            }
        }
        // Moves and symmetries take a set of slots where they take the E-slice edges'.
        // A symmetry maps a quotient's class to a class that depends on the slots alone
        // (`OrderQuotient::image`).
        for slots in 0..SLICE_SLOTS {
            let slice = slots * SLICE_ORDERS;
            for m in 0..MOVE_COUNT {
                t.edge_set_move[slots * MOVE_COUNT + m] =
                    t.slice_move[slice * MOVE_COUNT + m] / SLICE_ORDERS as u16;
            }
            for s in 0..UD_SYMMETRY_COUNT {
                let image = t.slice_conj[slice * UD_SYMMETRY_COUNT + s] as usize;
                t.edge_set_conj[slots * UD_SYMMETRY_COUNT + s] = (image / SLICE_ORDERS) as u16;
                let image_of = |order: usize| {
                    t.slice_conj[(slice + order) * UD_SYMMETRY_COUNT + s] as usize % SLICE_ORDERS
                };
                let at = slots * UD_SYMMETRY_COUNT + s;
                t.parity.image[at] = t.parity.image_row(image_of);
                t.pairing.image[at] = t.pairing.image_row(image_of);
            }
        }
        let up_slots = t.slots_of_mask[up_edge_mask(&Cube::SOLVED)] as usize;
        for s in 0..UD_SYMMETRY_COUNT {
            if t.edge_set_conj[up_slots * UD_SYMMETRY_COUNT + s] as usize != up_slots {
                t.swaps_layers |= 1 << s;
            }
        }
        let layer_masks: Vec<usize> = (0..256usize).filter(|m| m.count_ones() == 4).collect();
        for (rank, &mask) in layer_masks.iter().enumerate() {
            t.layers_of_mask[mask] = rank as u8;
            t.mask_of_layers[rank] = mask as u8;
        }
        for (rank, &mask) in layer_masks.iter().enumerate() {
            let cube = cube_with_corner_layers(mask);
            for mv in Move::all() {
                t.layers_move[rank * MOVE_COUNT + mv.index()] =
                    t.layers_of_mask[corner_layer_mask(&cube.apply(mv))];
            }
            for (s, sym) in syms.iter().enumerate() {
                t.layers_conj[rank * UD_SYMMETRY_COUNT + s] =
                    t.layers_of_mask[corner_layer_mask(&sym.conjugate(&cube))];
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
                    t.slice(&image) / SLICE_ORDERS * FLIPS + perm::flip(&image) as usize;
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
        if t.class_of_resident.is_none() {
            t.class_of_le = bytes;
        }
        t
    }

    /// Table index of the projection with slice `slice`, flip `flip`, twist `twist`,
    /// corner layers `layers` and U-edge slots `up_edges` (the refinement reads what it
    /// needs), calling `visit` with it and with every other index of the same projection
    /// class (when the class representative has symmetries of its own).
    #[inline]
    pub(crate) fn each_index(
        &self,
        refinement: Refinement,
        [slice, flip, twist, layers, up_edges]: [usize; 5],
        mut visit: impl FnMut(u64),
    ) {
        let (class, parts) = self.in_class(refinement, [slice, flip, twist, layers, up_edges]);
        let [slice, twist, layers, up_edges] = parts;
        let fine = self.fine(refinement, slice, layers, up_edges);
        visit(Self::index_in_class(refinement, class, twist, fine) as u64);
        let mut others = self.stabiliser[class] & !1;
        while others != 0 {
            let u = others.trailing_zeros() as usize;
            others &= others - 1;
            let [s2, t2, l2, e2] = self.conjugated(refinement, parts, u);
            let f2 = self.fine(refinement, s2, l2, e2);
            visit(Self::index_in_class(refinement, class, t2, f2) as u64);
        }
    }

    /// The first index [`Self::each_index`] visits: one rank of the position's class,
    /// which a search whose twins share a value may read for all of them.
    #[inline]
    pub(crate) fn first_index(&self, refinement: Refinement, parts: [usize; 5]) -> u64 {
        let (class, [slice, twist, layers, up_edges]) = self.in_class(refinement, parts);
        let fine = self.fine(refinement, slice, layers, up_edges);
        Self::index_in_class(refinement, class, twist, fine) as u64
    }

    /// The class of a position's flip and slice slots, and its other parts (slice,
    /// twist, corner layers, U-edge slots) carried by the symmetry that takes it to the
    /// class's representative.
    #[inline(always)]
    fn in_class(&self, refinement: Refinement, parts: [usize; 5]) -> (usize, [usize; 4]) {
        let (class, _, conjugated) = self.in_class_by(refinement, parts);
        (class, conjugated)
    }

    /// [`Self::in_class`], with the symmetry that takes the position to its class too.
    #[inline(always)]
    pub(super) fn in_class_by(
        &self,
        refinement: Refinement,
        [slice, flip, twist, layers, up_edges]: [usize; 5],
    ) -> (usize, usize, [usize; 4]) {
        let entry = self.class_of[slice / SLICE_ORDERS * FLIPS + flip];
        let (class, s) = ((entry >> 4) as usize, (entry & 15) as usize);
        (
            class,
            s,
            self.conjugated(refinement, [slice, twist, layers, up_edges], s),
        )
    }

    /// Slice (slots and order), twist, corner layers and U-edge slots of the image of a
    /// position under symmetry `s`; only the parts the refinement reads are conjugated
    /// (the others come back as they were; for the edge layers, the slice comes back as
    /// its slots alone).
    #[inline(always)]
    pub(crate) fn conjugated(
        &self,
        refinement: Refinement,
        [slice, twist, layers, up_edges]: [usize; 4],
        s: usize,
    ) -> [usize; 4] {
        let twist = self.twist_conj[twist * UD_SYMMETRY_COUNT + s] as usize;
        let slice_image = || self.slice_conj[slice * UD_SYMMETRY_COUNT + s] as usize;
        let layers_image = || self.layers_conj[layers * UD_SYMMETRY_COUNT + s] as usize;
        match refinement {
            Refinement::SliceOrder => [slice_image(), twist, layers, up_edges],
            Refinement::CornerLayers | Refinement::LayersSplit => {
                [slice, twist, layers_image(), up_edges]
            }
            Refinement::LayersParity | Refinement::LayersPairing => {
                [slice_image(), twist, layers_image(), up_edges]
            }
            Refinement::EdgeLayers => {
                let slots = slice / SLICE_ORDERS;
                let set_image = |set: usize| self.edge_set_conj[set * UD_SYMMETRY_COUNT + s];
                // A symmetry exchanging U and D makes the D-layer edges the image's U-layer
                // ones: the slots outside the slice and the U-layer edges' slots.
                let up = if self.swaps_layers >> s & 1 == 1 {
                    let taken = self.mask_of_slots[slots] | self.mask_of_slots[up_edges];
                    self.slots_of_mask[ALL_EDGE_SLOTS & !taken as usize] as usize
                } else {
                    up_edges
                };
                [
                    set_image(slots) as usize * SLICE_ORDERS,
                    twist,
                    layers,
                    set_image(up) as usize,
                ]
            }
            Refinement::Bare => [slice, twist, layers, up_edges],
            Refinement::PairingParity => [slice_image(), twist, layers, up_edges],
        }
    }

    /// The twist and the refinement's value of the image of a position under symmetry
    /// `s`: what [`Self::conjugated`] then [`Self::fine`] give, with the class of the
    /// slice order (the parity of `5g`, the pairing of `8g`) read from its quotient's
    /// images rather than from the conjugated slice.
    #[inline(always)]
    pub(crate) fn conjugated_fine(
        &self,
        refinement: Refinement,
        parts: [usize; 4],
        s: usize,
    ) -> (usize, usize) {
        if refinement == Refinement::PairingParity {
            // Both classes of the order move by their own images.
            let [slice, twist, ..] = parts;
            let twist = self.twist_conj[twist * UD_SYMMETRY_COUNT + s] as usize;
            let fine = self.pairing.conjugated(slice, s) * 2 + self.parity.conjugated(slice, s);
            return (twist, fine);
        }
        if let Some(quotient) = self.quotient(refinement) {
            // The corner layers' conjugation moves the twist and the layers alone.
            let [slice, twist, layers, _] = self.conjugated(Refinement::CornerLayers, parts, s);
            let class = quotient.conjugated(slice, s);
            return (twist, layers * quotient.classes + class);
        }
        let [slice, twist, layers, up_edges] = self.conjugated(refinement, parts, s);
        (twist, self.fine(refinement, slice, layers, up_edges))
    }

    /// The refinement's value for a slice (slots and order), corner layers and U-edge
    /// slots.
    #[inline(always)]
    pub(crate) fn fine(
        &self,
        refinement: Refinement,
        slice: usize,
        layers: usize,
        up_edges: usize,
    ) -> usize {
        match refinement {
            Refinement::SliceOrder => slice % SLICE_ORDERS,
            Refinement::CornerLayers => layers,
            Refinement::LayersParity | Refinement::LayersPairing => {
                let quotient = self.quotient(refinement).expect("a quotient of the order");
                layers * quotient.classes + quotient.class(slice % SLICE_ORDERS)
            }
            Refinement::EdgeLayers => {
                let outside = ALL_EDGE_SLOTS & !(self.mask_of_slots[slice / SLICE_ORDERS] as usize);
                let within = compress(self.mask_of_slots[up_edges] as usize, outside);
                self.layers_of_mask[within] as usize
            }
            Refinement::Bare => 0,
            Refinement::PairingParity => {
                let order = slice % SLICE_ORDERS;
                self.pairing.class(order) * 2 + self.parity.class(order)
            }
            // Layers are ranked in the order of their masks, so the complement of the
            // mask ranked `l` (the same two sets the other way round) is ranked 69 - l.
            Refinement::LayersSplit => layers.min(CORNER_LAYERS - 1 - layers),
        }
    }

    /// The U-edge slots (a rank of four slots out of twelve) whose edge-layers value is
    /// `fine` next to the E-slice slots `slots`: the inverse of [`Self::fine`].
    #[inline]
    pub(crate) fn up_edges_of_layers(&self, slots: usize, fine: usize) -> usize {
        let outside = ALL_EDGE_SLOTS & !(self.mask_of_slots[slots] as usize);
        let mask = expand(self.mask_of_layers[fine] as usize, outside);
        self.slots_of_mask[mask] as usize
    }

    /// Table index of twist `twist` and refinement value `fine` within class `class`.
    #[inline]
    pub(crate) fn index_in_class(
        refinement: Refinement,
        class: usize,
        twist: usize,
        fine: usize,
    ) -> usize {
        (class * TWISTS + twist) * refinement.count() + fine
    }
}

/// A coordinate of the slice order that the 16 symmetries carry along: its class
/// (`5g`'s parity, `8g`'s pairing) in the image of a position depends only on its class
/// in the position, the E-slice slots and the symmetry (a symmetry relabels the four
/// edges by an element of their square's group, which keeps each class, and reorders
/// their slots), so the index reads it from [`Self::image`] instead of conjugating the
/// whole slice through the 380 KB `slice_conj`.
pub(crate) struct OrderQuotient {
    /// Number of classes (at most 4: two bits each in [`Self::image`]).
    pub(crate) classes: usize,
    /// Class of each slice order.
    class_of: [u8; SLICE_ORDERS],
    /// The first slice order of each class: a representative, which the BFS moves.
    first: [u8; 4],
    /// `image[slots * 16 + s]`: the class of the image under symmetry `s` of each class
    /// (class `c` at bits `2c`) for E-slice edges in `slots`.
    image: Vec<u8>,
    /// For each slice (slots * 24 + order): `slots * 16` above three bits holding
    /// `2 * class`, where [`Self::conjugated`] reads it in one load instead of dividing
    /// by 24 (the index of every table read goes through it).
    split: Vec<u16>,
}

impl OrderQuotient {
    /// The quotient with these classes of the slice orders, its images not yet filled.
    fn of_classes(class_of: [u8; SLICE_ORDERS]) -> Self {
        let classes = class_of.iter().max().map_or(1, |&c| c as usize + 1);
        assert!(classes <= 4, "two bits per class image");
        let first = std::array::from_fn(|c| {
            class_of.iter().position(|&d| d as usize == c).unwrap_or(0) as u8
        });
        // The largest entry, (494 * 16) << 3 | 6, fits the 16 bits.
        const _: () = assert!((SLICE_SLOTS * UD_SYMMETRY_COUNT) << 3 <= u16::MAX as usize);
        let split = (0..SLICE_SLOTS * SLICE_ORDERS)
            .map(|slice| {
                let (slots, order) = (slice / SLICE_ORDERS, slice % SLICE_ORDERS);
                (((slots * UD_SYMMETRY_COUNT) << 3) | (2 * class_of[order] as usize)) as u16
            })
            .collect();
        OrderQuotient {
            classes,
            class_of,
            first,
            image: vec![0; SLICE_SLOTS * UD_SYMMETRY_COUNT],
            split,
        }
    }

    /// The packed images of every class, given the image order of each order under one
    /// symmetry for one set of slots.
    fn image_row(&self, image_of: impl Fn(usize) -> usize) -> u8 {
        (0..self.classes).fold(0, |row, c| {
            row | self.class_of[image_of(self.first[c] as usize)] << (2 * c)
        })
    }

    /// Class of slice order `order`.
    #[inline(always)]
    pub(crate) fn class(&self, order: usize) -> usize {
        self.class_of[order] as usize
    }

    /// A slice order of class `class`.
    #[inline]
    pub(crate) fn representative(&self, class: usize) -> usize {
        self.first[class] as usize
    }

    /// Class of the image under symmetry `s` of the slice order in `slice` (slots * 24 +
    /// order).
    #[inline(always)]
    fn conjugated(&self, slice: usize, s: usize) -> usize {
        let split = self.split[slice] as usize;
        (self.image[(split >> 3) + s] >> (split & 7) & 3) as usize
    }
}

pub(super) static TABLES: LazyLock<Tables> = LazyLock::new(Tables::build);

/// The coordinate tables (built on first use, about 40 ms): the two-phase solver's
/// generator copies them into its coordinate table file.
pub(crate) fn coordinate_tables() -> &'static Tables {
    &TABLES
}

#[cfg(test)]
mod tests {
    use super::{compress, expand, Refinement, Tables, ALL_EDGE_SLOTS};
    use super::{CORNER_LAYERS, SLICES, TWISTS};
    use crate::puzzles::rubik::model::symmetry::UD_SYMMETRY_COUNT;

    /// The shortcuts for the indices of `5g` and `8g` agree with conjugating then
    /// refining, for every slice, symmetry and corner layers (and a spread of twists),
    /// and the other refinements go the long way.
    #[test]
    fn conjugated_fine_agrees_with_conjugating_the_whole_slice() {
        let t = Tables::build();
        for refinement in [
            Refinement::PairingParity,
            Refinement::LayersPairing,
            Refinement::LayersParity,
            Refinement::CornerLayers,
            Refinement::SliceOrder,
        ] {
            for slice in 0..SLICES {
                for s in 0..UD_SYMMETRY_COUNT {
                    let layers = (slice * 7 + s) % CORNER_LAYERS;
                    let twist = (slice * 13 + s * 101) % TWISTS;
                    let parts = [slice, twist, layers, 0];
                    let [sl, tw, la, up] = t.conjugated(refinement, parts, s);
                    let expected = (tw, t.fine(refinement, sl, la, up));
                    assert_eq!(
                        t.conjugated_fine(refinement, parts, s),
                        expected,
                        "{refinement:?}, slice {slice}, symmetry {s}"
                    );
                }
            }
        }
    }

    #[test]
    fn half_mask_tables_pack_and_spread_bits_like_pext_and_pdep() {
        for keep in 0..=ALL_EDGE_SLOTS {
            let kept: Vec<usize> = (0..12).filter(|b| keep >> b & 1 == 1).collect();
            for mask in (0..=ALL_EDGE_SLOTS).step_by(7) {
                let packed = kept
                    .iter()
                    .enumerate()
                    .fold(0, |p, (k, &b)| p | (mask >> b & 1) << k);
                assert_eq!(compress(mask, keep), packed, "compress {mask:#x} {keep:#x}");
                assert_eq!(
                    expand(packed, keep),
                    mask & keep,
                    "expand {packed:#x} {keep:#x}"
                );
            }
        }
    }
}
