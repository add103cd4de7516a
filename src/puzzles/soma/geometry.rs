//! The 3x3x3 cube and the seven Soma pieces: cells, the 48 symmetries of the cube, every
//! orientation and placement of every piece, and the check that 27 letters are a tiling.
//!
//! Only the pieces' cells (one orientation each, from the problem statement) are typed in;
//! rotations, orientations, placements and mirror partners are all computed.

/// Cells along one edge of the cube.
pub const SIDE: i32 = 3;
/// Cells in the cube.
pub const CELLS: usize = 27;
/// Number of pieces, `a` to `g`.
pub const PIECES: usize = 7;
/// Index of piece `a`, the one whose orientation a query fixes.
pub const PIECE_A: usize = 0;
/// Bit mask of all cells.
pub const FULL: u32 = (1 << CELLS) - 1;

/// A cell as (plane, row, column), each `0..SIDE` inside the cube.
pub type Coord = [i32; 3];

/// The pieces in one orientation each, as in the problem statement (piece `a` first).
const PIECE_CELLS: [&[Coord]; PIECES] = [
    &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 2, 0]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 1]],
    &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]],
    &[[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]],
];

/// Index of a cell in the 27-letter strings: `plane * 9 + row * 3 + column`.
pub fn cell_index(c: Coord) -> usize {
    (c[0] * SIDE * SIDE + c[1] * SIDE + c[2]) as usize
}

/// The coordinates of cell `index`.
pub fn cell_coord(index: usize) -> Coord {
    let i = index as i32;
    [i / (SIDE * SIDE), i / SIDE % SIDE, i % SIDE]
}

/// Letter naming piece `piece` (`a` for 0).
pub fn piece_letter(piece: usize) -> u8 {
    b'a' + piece as u8
}

/// Cells of a mask, lowest first.
pub fn cells_of(mask: u32) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let cell = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            cell
        })
    })
}

/// Mask of a set of cells; `None` if a cell lies outside the cube.
fn mask_of(coords: &[Coord]) -> Option<u32> {
    coords.iter().try_fold(0u32, |mask, c| {
        c.iter()
            .all(|&x| (0..SIDE).contains(&x))
            .then(|| mask | 1 << cell_index(*c))
    })
}

/// Translates a cell set so its least plane, row and column are all 0: the shape's
/// orientation, independent of where it stands. The empty set normalizes to 0.
pub fn normalize(mask: u32) -> u32 {
    if mask == 0 {
        return 0;
    }
    let mut least = [SIDE; 3];
    for cell in cells_of(mask) {
        let c = cell_coord(cell);
        for axis in 0..3 {
            least[axis] = least[axis].min(c[axis]);
        }
    }
    // Moving every cell by the same vector moves every index by the same amount.
    mask >> cell_index(least)
}

use crate::geometry::{apply, determinant, signed_permutations, Matrix};

/// One of the 48 symmetries of the cube, as a permutation of its cells.
#[derive(Debug, Clone)]
pub struct Symmetry {
    matrix: Matrix,
    /// Whether it is a rotation (determinant +1) rather than a mirroring.
    pub rotation: bool,
    /// `image[cell]`: where the symmetry takes `cell`.
    pub image: [u8; CELLS],
}

impl Symmetry {
    /// Where the symmetry takes a set of cells.
    pub fn map_mask(&self, mask: u32) -> u32 {
        cells_of(mask).fold(0, |m, cell| m | 1 << self.image[cell])
    }
}

/// All 48 symmetries of the cube: the 24 rotations first, the identity the very first.
///
/// They are the 3x3 signed permutation matrices; the rotations are those of determinant +1.
fn symmetries() -> Vec<Symmetry> {
    let mut all = Vec::with_capacity(48);
    for matrix in signed_permutations() {
        let mut image = [0u8; CELLS];
        for (cell, slot) in image.iter_mut().enumerate() {
            // Rotate about the centre cell (1, 1, 1).
            let centred = cell_coord(cell).map(|x| x - 1);
            *slot = cell_index(apply(&matrix, centred).map(|x| x + 1)) as u8;
        }
        all.push(Symmetry {
            matrix,
            rotation: determinant(&matrix) == 1,
            image,
        });
    }
    // Rotations first (stable, so the identity, generated first, stays first).
    all.sort_by_key(|s| !s.rotation);
    all
}

/// One piece: its letter, size, and every orientation.
#[derive(Debug, Clone)]
pub struct Piece {
    /// Name letter, `a` to `g`.
    pub letter: u8,
    /// Number of cubes.
    pub size: u32,
    /// Every distinct orientation under the 24 rotations, as a normalized mask
    /// (see [`normalize`]), in ascending order: orientation `k` is `orientations[k]`.
    pub orientations: Vec<u32>,
}

impl Piece {
    /// Which orientation of this piece a set of cells is, if it is one (at any position).
    pub fn orientation_of(&self, mask: u32) -> Option<usize> {
        if mask.count_ones() != self.size {
            return None;
        }
        self.orientations.binary_search(&normalize(mask)).ok()
    }
}

/// A piece in one orientation at one position inside the cube.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Placement {
    /// Which piece.
    pub piece: u8,
    /// Which of the piece's orientations.
    pub orientation: u8,
    /// Cells it covers.
    pub mask: u32,
}

/// Everything about the cube and pieces the solvers need, computed once.
#[derive(Debug, Clone)]
pub struct Geometry {
    /// The 48 symmetries, rotations first.
    pub symmetries: Vec<Symmetry>,
    /// The seven pieces, `a` first.
    pub pieces: Vec<Piece>,
    /// Every placement of every piece, by piece, then orientation, then position.
    pub placements: Vec<Placement>,
    /// `mirror_partner[p]`: the piece whose shape is the mirror image of piece `p`.
    pub mirror_partner: [u8; PIECES],
}

impl Geometry {
    /// Computes rotations, orientations, placements and mirror partners from the pieces'
    /// cells.
    pub fn new() -> Self {
        let symmetries = symmetries();
        let pieces: Vec<Piece> = PIECE_CELLS
            .iter()
            .enumerate()
            .map(|(p, cells)| {
                let mut orientations: Vec<u32> = symmetries
                    .iter()
                    .filter(|s| s.rotation)
                    .map(|s| shape_mask(cells, &s.matrix))
                    .collect();
                orientations.sort_unstable();
                orientations.dedup();
                Piece {
                    letter: piece_letter(p),
                    size: cells.len() as u32,
                    orientations,
                }
            })
            .collect();
        let mut placements = Vec::new();
        for (p, piece) in pieces.iter().enumerate() {
            for (o, &shape) in piece.orientations.iter().enumerate() {
                placements.extend(translations(shape).map(|mask| Placement {
                    piece: p as u8,
                    orientation: o as u8,
                    mask,
                }));
            }
        }
        let mirror = symmetries
            .iter()
            .find(|s| !s.rotation)
            .expect("there are mirror symmetries")
            .matrix;
        let mirror_partner = std::array::from_fn(|p| {
            let mirrored = shape_mask(PIECE_CELLS[p], &mirror);
            pieces
                .iter()
                .position(|q| q.size == pieces[p].size && q.orientation_of(mirrored).is_some())
                .expect("the mirror image of every piece is a piece") as u8
        });
        Self {
            symmetries,
            pieces,
            placements,
            mirror_partner,
        }
    }

    /// The rotations of the cube (the first 24 symmetries).
    pub fn rotations(&self) -> &[Symmetry] {
        let count = self.symmetries.iter().filter(|s| s.rotation).count();
        &self.symmetries[..count]
    }

    /// Piece `a`.
    pub fn piece_a(&self) -> &Piece {
        &self.pieces[PIECE_A]
    }

    /// Checks that 27 letters are a tiling of the cube by the seven pieces (each letter
    /// `a` to `g` naming one whole piece, rotated but not mirrored), and returns the
    /// cells of each piece; otherwise says what is wrong.
    pub fn check_tiling(&self, letters: &[u8; CELLS]) -> Result<[u32; PIECES], String> {
        let mut masks = [0u32; PIECES];
        for (cell, &letter) in letters.iter().enumerate() {
            let piece = letter.wrapping_sub(b'a') as usize;
            if piece >= PIECES {
                return Err(format!(
                    "cell {cell} holds {:?}, not a piece letter",
                    letter as char
                ));
            }
            masks[piece] |= 1 << cell;
        }
        for (piece, &mask) in self.pieces.iter().zip(&masks) {
            if piece.orientation_of(mask).is_none() {
                return Err(format!(
                    "the cells lettered `{}` are not piece {}",
                    piece.letter as char, piece.letter as char
                ));
            }
        }
        Ok(masks)
    }
}

impl Default for Geometry {
    fn default() -> Self {
        Self::new()
    }
}

/// The shared geometry (computed on first use).
pub fn geometry() -> &'static Geometry {
    static GEOMETRY: std::sync::OnceLock<Geometry> = std::sync::OnceLock::new();
    GEOMETRY.get_or_init(Geometry::new)
}

/// The normalized mask of `cells` after `matrix`.
fn shape_mask(cells: &[Coord], matrix: &Matrix) -> u32 {
    let moved: Vec<Coord> = cells.iter().map(|&c| apply(matrix, c)).collect();
    let least: Coord = [0, 1, 2].map(|axis| moved.iter().map(|c| c[axis]).min().unwrap_or(0));
    let shifted: Vec<Coord> = moved
        .iter()
        .map(|c| [0, 1, 2].map(|axis| c[axis] - least[axis]))
        .collect();
    mask_of(&shifted).expect("every piece fits in the cube")
}

/// Every position of a normalized shape inside the cube.
fn translations(shape: u32) -> impl Iterator<Item = u32> {
    let extent = cells_of(shape).fold([0; 3], |ext: Coord, cell| {
        let c = cell_coord(cell);
        [0, 1, 2].map(|axis| ext[axis].max(c[axis]))
    });
    let offsets = (0..SIDE - extent[0]).flat_map(move |p| {
        (0..SIDE - extent[1]).flat_map(move |r| (0..SIDE - extent[2]).map(move |c| [p, r, c]))
    });
    offsets.map(move |offset| shape << cell_index(offset))
}

/// A cell set as 27 characters: `letter` on its cells, `.` elsewhere.
pub fn mask_text(mask: u32, letter: u8) -> String {
    (0..CELLS)
        .map(|cell| {
            if mask >> cell & 1 == 1 {
                letter as char
            } else {
                '.'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn symmetries_are_48_distinct_cell_permutations_with_24_rotations() {
        let g = geometry();
        assert_eq!(g.symmetries.len(), 48);
        assert_eq!(g.rotations().len(), 24);
        assert!(g.symmetries[0]
            .image
            .iter()
            .enumerate()
            .all(|(i, &j)| i == j as usize));
        let images: HashSet<_> = g.symmetries.iter().map(|s| s.image).collect();
        assert_eq!(images.len(), 48);
        for s in &g.symmetries {
            let mut seen = [false; CELLS];
            s.image.iter().for_each(|&j| seen[j as usize] = true);
            assert!(seen.iter().all(|&x| x), "not a permutation");
            assert_eq!(s.image[13], 13, "the centre stays put");
        }
        // Rotations are closed under composition; a mirroring composed with a mirroring
        // is a rotation.
        let rotations: HashSet<_> = g.rotations().iter().map(|s| s.image).collect();
        for s in &g.symmetries {
            for t in &g.symmetries {
                let composed: [u8; CELLS] = std::array::from_fn(|i| t.image[s.image[i] as usize]);
                assert_eq!(rotations.contains(&composed), s.rotation == t.rotation);
            }
        }
    }

    #[test]
    fn pieces_have_the_known_orientation_and_placement_counts() {
        let g = geometry();
        let orientations: Vec<_> = g.pieces.iter().map(|p| p.orientations.len()).collect();
        assert_eq!(orientations, [24, 12, 12, 12, 8, 12, 12]);
        let sizes: u32 = g.pieces.iter().map(|p| p.size).sum();
        assert_eq!(sizes as usize, CELLS);
        let a_placements = g.placements.iter().filter(|p| p.piece == 0).count();
        assert_eq!(a_placements, 144);
        assert_eq!(g.placements.len(), 688);
        let distinct: HashSet<_> = g.placements.iter().map(|p| (p.piece, p.mask)).collect();
        assert_eq!(distinct.len(), g.placements.len());
        for p in &g.placements {
            let piece = &g.pieces[p.piece as usize];
            assert_eq!(p.mask & !FULL, 0);
            assert_eq!(piece.orientation_of(p.mask), Some(p.orientation as usize));
        }
    }

    #[test]
    fn placements_are_connected_and_rotations_of_the_given_cells() {
        let g = geometry();
        for p in &g.placements {
            // Connected through faces.
            let cells: Vec<Coord> = cells_of(p.mask).map(cell_coord).collect();
            let mut reached = vec![0usize];
            let mut i = 0;
            while i < reached.len() {
                let here = cells[reached[i]];
                for (j, c) in cells.iter().enumerate() {
                    let distance: i32 = (0..3).map(|k| (c[k] - here[k]).abs()).sum();
                    if distance == 1 && !reached.contains(&j) {
                        reached.push(j);
                    }
                }
                i += 1;
            }
            assert_eq!(reached.len(), cells.len());
        }
        // The statement's own orientation is among each piece's orientations.
        for (piece, cells) in g.pieces.iter().zip(PIECE_CELLS) {
            assert!(piece.orientation_of(mask_of(cells).unwrap()).is_some());
        }
    }

    #[test]
    fn mirroring_swaps_the_screws_and_keeps_the_others() {
        let g = geometry();
        assert_eq!(g.mirror_partner, [0, 1, 2, 3, 4, 6, 5]);
        // Every mirroring maps every placement onto a placement of the partner piece.
        for s in g.symmetries.iter() {
            for p in &g.placements {
                let image = s.map_mask(p.mask);
                let target = if s.rotation {
                    p.piece
                } else {
                    g.mirror_partner[p.piece as usize]
                };
                assert!(g.pieces[target as usize].orientation_of(image).is_some());
            }
        }
    }

    #[test]
    fn normalize_moves_a_shape_to_the_corner() {
        let a = mask_of(&[[1, 0, 1], [1, 0, 2], [1, 1, 1], [1, 2, 1]]).unwrap();
        assert_eq!(normalize(a), mask_of(PIECE_CELLS[0]).unwrap());
        assert_eq!(mask_text(normalize(a), b'a'), "aa.a..a....................");
    }

    #[test]
    fn tiling_check_rejects_bad_letters_and_shapes() {
        let g = geometry();
        let mut letters = [b'a'; CELLS];
        assert!(g.check_tiling(&letters).is_err());
        letters.copy_from_slice(b"aababbadceffgdcgdceefedfggc");
        assert!(g.check_tiling(&letters).is_ok());
        letters.swap(0, 26);
        assert!(g.check_tiling(&letters).is_err());
        letters.swap(0, 26);
        letters[3] = b'h';
        assert!(g.check_tiling(&letters).is_err());
    }
}
