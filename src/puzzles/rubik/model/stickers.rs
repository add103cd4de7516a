//! The sticker geometry: the 54-facelet layout, which stickers make each corner and edge
//! slot, and how a whole-cube symmetry moves slots.
//!
//! Everything is derived from one geometric description: each face's outward normal and
//! the directions of its rows and columns as seen from outside (U and D with F below and
//! above them, as in the cross net). Sticker `face * 9 + row * 3 + column` sits on the
//! cubelet `normal + (column - 1) * right + (row - 1) * down`.

use super::cube::{Face, CORNERS, EDGES};
use std::sync::LazyLock;

/// Number of stickers.
pub const STICKERS: usize = 54;

pub(crate) type Vec3 = [i8; 3];

/// Outward normal of each face (x = R, y = U, z = F).
pub(crate) const NORMAL: [Vec3; 6] = [
    [0, 1, 0],
    [1, 0, 0],
    [0, 0, 1],
    [0, -1, 0],
    [-1, 0, 0],
    [0, 0, -1],
];
/// Direction of increasing column, as seen from outside.
const RIGHT: [Vec3; 6] = [
    [1, 0, 0],
    [0, 0, -1],
    [1, 0, 0],
    [1, 0, 0],
    [0, 0, 1],
    [-1, 0, 0],
];
/// Direction of increasing row, as seen from outside.
const DOWN: [Vec3; 6] = [
    [0, 0, 1],
    [0, -1, 0],
    [0, -1, 0],
    [0, 0, -1],
    [0, -1, 0],
    [0, -1, 0],
];

/// Faces of each corner slot, the U/D face first, then clockwise around the corner.
pub(crate) const CORNER_FACES: [[Face; 3]; CORNERS] = {
    use Face::*;
    [
        [U, R, F],
        [U, F, L],
        [U, L, B],
        [U, B, R],
        [D, F, R],
        [D, L, F],
        [D, B, L],
        [D, R, B],
    ]
};
/// Faces of each edge slot, the reference face (U/D, else F/B) first.
pub(crate) const EDGE_FACES: [[Face; 2]; EDGES] = {
    use Face::*;
    [
        [U, R],
        [U, F],
        [U, L],
        [U, B],
        [D, R],
        [D, F],
        [D, L],
        [D, B],
        [F, R],
        [F, L],
        [B, L],
        [B, R],
    ]
};

pub(crate) fn add(a: Vec3, b: Vec3) -> Vec3 {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}

pub(crate) fn scale(a: Vec3, k: i8) -> Vec3 {
    [a[0] * k, a[1] * k, a[2] * k]
}

pub(crate) fn dot(a: Vec3, b: Vec3) -> i8 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(crate) fn cross(a: Vec3, b: Vec3) -> Vec3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Cubelet position and normal of sticker `i`.
pub(crate) fn sticker_geometry(i: usize) -> (Vec3, Vec3) {
    let (face, row, col) = (i / 9, (i % 9 / 3) as i8, (i % 3) as i8);
    let pos = add(
        add(NORMAL[face], scale(RIGHT[face], col - 1)),
        scale(DOWN[face], row - 1),
    );
    (pos, NORMAL[face])
}

/// The sticker at cubelet `pos` facing `normal`.
pub(crate) fn sticker_at(pos: Vec3, normal: Vec3) -> usize {
    (0..STICKERS)
        .find(|&i| sticker_geometry(i) == (pos, normal))
        .expect("every cubelet face carries a sticker")
}

/// Sticker indices of each corner slot (in [`CORNER_FACES`] order) and edge slot.
pub(crate) struct Layout {
    pub(crate) corners: [[usize; 3]; CORNERS],
    pub(crate) edges: [[usize; 2]; EDGES],
}

/// The sticker positions of each corner slot (reference sticker first, then clockwise).
pub fn corner_slot_stickers() -> &'static [[usize; 3]; CORNERS] {
    &LAYOUT.corners
}

/// The sticker positions of each edge slot (reference sticker first).
pub fn edge_slot_stickers() -> &'static [[usize; 2]; EDGES] {
    &LAYOUT.edges
}

pub(crate) static LAYOUT: LazyLock<Layout> = LazyLock::new(|| {
    let slot = |faces: &[Face]| -> Vec<usize> {
        let pos = faces
            .iter()
            .fold([0, 0, 0], |acc, f| add(acc, NORMAL[f.index()]));
        faces
            .iter()
            .map(|f| sticker_at(pos, NORMAL[f.index()]))
            .collect()
    };
    let mut corners = [[0; 3]; CORNERS];
    for (i, faces) in CORNER_FACES.iter().enumerate() {
        corners[i].copy_from_slice(&slot(faces));
    }
    let mut edges = [[0; 2]; EDGES];
    for (i, faces) in EDGE_FACES.iter().enumerate() {
        edges[i].copy_from_slice(&slot(faces));
    }
    Layout { corners, edges }
});

/// A whole-cube symmetry (rotation or reflection, given as a signed permutation matrix
/// on x = R, y = U, z = F) as it acts on slots: `corner_slot[i]` is where corner slot `i`
/// goes and `corner_shift[i]` which of that slot's stickers (in [`CORNER_FACES`] order)
/// its reference sticker lands on; the same for edges. `faces[f]` is where face `f` goes.
pub(crate) struct SlotMaps {
    pub corner_slot: [u8; CORNERS],
    pub corner_shift: [u8; CORNERS],
    pub edge_slot: [u8; EDGES],
    pub edge_shift: [u8; EDGES],
    pub faces: [u8; 6],
    pub mirror: bool,
}

/// The slot maps of the symmetry with matrix `m` (rows: images are `m * v`).
pub(crate) fn symmetry_slot_maps(m: [[i8; 3]; 3]) -> SlotMaps {
    let apply = |v: Vec3| -> Vec3 { std::array::from_fn(|r| dot(m[r], v)) };
    let layout = &*LAYOUT;
    let image = |sticker: usize| {
        let (pos, normal) = sticker_geometry(sticker);
        sticker_at(apply(pos), apply(normal))
    };
    let find = |slots: &[&[usize]], sticker: usize| -> (u8, u8) {
        slots
            .iter()
            .enumerate()
            .find_map(|(slot, s)| {
                s.iter()
                    .position(|&x| x == sticker)
                    .map(|k| (slot as u8, k as u8))
            })
            .expect("a symmetry maps cubelets of a kind onto cubelets of that kind")
    };
    let corner_lists: Vec<&[usize]> = layout.corners.iter().map(|c| &c[..]).collect();
    let edge_lists: Vec<&[usize]> = layout.edges.iter().map(|e| &e[..]).collect();
    let mut maps = SlotMaps {
        corner_slot: [0; CORNERS],
        corner_shift: [0; CORNERS],
        edge_slot: [0; EDGES],
        edge_shift: [0; EDGES],
        faces: [0; 6],
        mirror: false,
    };
    for i in 0..CORNERS {
        (maps.corner_slot[i], maps.corner_shift[i]) =
            find(&corner_lists, image(layout.corners[i][0]));
    }
    for i in 0..EDGES {
        (maps.edge_slot[i], maps.edge_shift[i]) = find(&edge_lists, image(layout.edges[i][0]));
    }
    for (f, &normal) in NORMAL.iter().enumerate() {
        let n = apply(normal);
        maps.faces[f] = NORMAL
            .iter()
            .position(|&x| x == n)
            .expect("a symmetry maps faces to faces") as u8;
    }
    let det = dot(m[0], cross(m[1], m[2]));
    maps.mirror = det < 0;
    maps
}

/// The face (URFDLB index) of every sticker of the solved cube.
pub fn solved_faces() -> [u8; STICKERS] {
    std::array::from_fn(|i| (i / 9) as u8)
}
