//! Assemblies of the cube, found by exact cover, and their classes under the cube's
//! symmetries.
//!
//! The exact-cover items are the 27 cells followed by one item per piece (so each piece is
//! used exactly once); the rows are the pieces' placements.

use super::geometry::{cells_of, Geometry, Placement, CELLS, PIECES, PIECE_A};
use crate::search::exact_cover::{ExactCover, SearchStats};
use rayon::prelude::*;
use std::collections::HashSet;
use std::fmt;

/// One assembly: the letter of the piece in each cell, in cell-index order.
///
/// Ordered by its bytes, which is the judge output's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Assembly(pub [u8; CELLS]);

impl fmt::Display for Assembly {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0
            .iter()
            .try_for_each(|&b| fmt::Write::write_char(f, b as char))
    }
}

impl Assembly {
    /// The cells holding piece `piece`.
    pub fn cells_of_piece(&self, piece: usize) -> u32 {
        let letter = b'a' + piece as u8;
        self.0
            .iter()
            .enumerate()
            .filter(|(_, &b)| b == letter)
            .fold(0, |mask, (cell, _)| mask | 1 << cell)
    }

    /// The assembly seen after symmetry `index` of `geometry`: every piece moved, and
    /// under a mirroring each piece renamed to its mirror partner (`f` <-> `g`).
    pub fn transformed(&self, geometry: &Geometry, index: usize) -> Assembly {
        let symmetry = &geometry.symmetries[index];
        let mut out = [0u8; CELLS];
        for (cell, &letter) in self.0.iter().enumerate() {
            let piece = (letter - b'a') as usize;
            let renamed = if symmetry.rotation {
                piece
            } else {
                geometry.mirror_partner[piece] as usize
            };
            out[symmetry.image[cell] as usize] = b'a' + renamed as u8;
        }
        Assembly(out)
    }
}

/// The exact-cover row of a placement: its cells, and its piece's item.
fn row_of(placement: &Placement) -> u64 {
    placement.mask as u64 | 1 << (CELLS + placement.piece as usize)
}

/// The exact-cover problem over `placements`.
fn problem(placements: &[Placement]) -> ExactCover {
    ExactCover::new(
        (CELLS + PIECES) as u32,
        placements.iter().map(row_of).collect(),
    )
}

/// The assembly made of the chosen placements.
fn assemble(placements: &[Placement], chosen: &[u32]) -> Assembly {
    let mut letters = [0u8; CELLS];
    for &row in chosen {
        let placement = &placements[row as usize];
        for cell in cells_of(placement.mask) {
            letters[cell] = b'a' + placement.piece;
        }
    }
    Assembly(letters)
}

/// Every exact cover of `placements`, as assemblies, in no particular order; the root's
/// branches are shared out over threads.
fn solve_all(placements: &[Placement]) -> (Vec<Assembly>, SearchStats) {
    let problem = problem(placements);
    let parts: Vec<(Vec<Assembly>, SearchStats)> = problem
        .root_branches()
        .par_iter()
        .map(|&root| {
            let mut found = Vec::new();
            let mut stats =
                problem.solve_with(&[root], |rows| found.push(assemble(placements, rows)));
            stats.nodes += 1;
            (found, stats)
        })
        .collect();
    let mut total = SearchStats::default();
    let mut all = Vec::with_capacity(parts.iter().map(|(f, _)| f.len()).sum());
    for (found, stats) in parts {
        all.extend(found);
        total += stats;
    }
    (all, total)
}

/// The placements with piece `piece` restricted to orientation `orientation`.
fn placements_with(geometry: &Geometry, piece: usize, orientation: usize) -> Vec<Placement> {
    geometry
        .placements
        .iter()
        .filter(|p| p.piece as usize != piece || p.orientation as usize == orientation)
        .copied()
        .collect()
}

/// Every assembly of the cube by one exact cover over all placements, with no use of
/// symmetry, in no particular order. Slower than [`enumerate_all`]; kept as its check.
pub fn enumerate_all_plain(geometry: &Geometry) -> (Vec<Assembly>, SearchStats) {
    solve_all(&geometry.placements)
}

/// Every assembly of the cube, in no particular order.
///
/// A piece with as many orientations as the cube has rotations (piece `a`) is fixed by no
/// rotation but the identity. So every assembly is, in exactly one way, a rotation of an
/// assembly with that piece in orientation 0: the exact cover is solved with the piece so
/// restricted, and its solutions are rotated 24 ways. (Without such a piece this falls
/// back to [`enumerate_all_plain`].) The search statistics are those of the exact cover.
pub fn enumerate_all(geometry: &Geometry) -> (Vec<Assembly>, SearchStats) {
    let rotations = geometry.rotations().len();
    let Some(anchor) = geometry
        .pieces
        .iter()
        .position(|p| p.orientations.len() == rotations)
    else {
        return enumerate_all_plain(geometry);
    };
    let (base, stats) = solve_all(&placements_with(geometry, anchor, 0));
    let all = base
        .iter()
        .flat_map(|assembly| (0..rotations).map(|s| assembly.transformed(geometry, s)))
        .collect();
    (all, stats)
}

/// Every assembly in which piece `a` has orientation `orientation` (at any position),
/// solved from scratch by exact cover over the placements allowed, in ascending order.
pub fn assemblies_with_a(geometry: &Geometry, orientation: usize) -> (Vec<Assembly>, SearchStats) {
    let placements = placements_with(geometry, PIECE_A, orientation);
    let mut found = Vec::new();
    let stats = problem(&placements).solve(|rows| found.push(assemble(&placements, rows)));
    found.sort_unstable();
    (found, stats)
}

/// Which orientation piece `a` has in `assembly` (`None` if its cells are not piece `a`).
pub fn a_orientation(geometry: &Geometry, assembly: &Assembly) -> Option<usize> {
    geometry
        .piece_a()
        .orientation_of(assembly.cells_of_piece(PIECE_A))
}

/// Counts over a set of assemblies, for `cubedb soma --stats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stats {
    /// Number of assemblies.
    pub total: usize,
    /// Classes up to the 24 rotations of the cube.
    pub rotation_classes: usize,
    /// Classes up to all 48 symmetries (a mirrored assembly has `f` and `g` swapped).
    pub symmetry_classes: usize,
    /// `per_orientation[k]`: assemblies with piece `a` in its orientation `k`.
    pub per_orientation: Vec<usize>,
}

impl Stats {
    /// Computes the counts; every assembly must be a tiling (see
    /// [`Geometry::check_tiling`]).
    pub fn of(geometry: &Geometry, assemblies: &[Assembly]) -> Self {
        let rotations = geometry.rotations().len();
        let canonical = |assembly: &Assembly, symmetries: usize| {
            (0..symmetries)
                .map(|s| assembly.transformed(geometry, s))
                .min()
                .unwrap_or(*assembly)
        };
        let classes = |symmetries: usize| {
            assemblies
                .par_iter()
                .map(|a| canonical(a, symmetries))
                .collect::<HashSet<_>>()
                .len()
        };
        let mut per_orientation = vec![0; geometry.piece_a().orientations.len()];
        for assembly in assemblies {
            if let Some(k) = a_orientation(geometry, assembly) {
                per_orientation[k] += 1;
            }
        }
        Self {
            total: assemblies.len(),
            rotation_classes: classes(rotations),
            symmetry_classes: classes(geometry.symmetries.len()),
            per_orientation,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::soma::geometry::geometry;

    #[test]
    fn every_assembly_is_found_once_and_is_a_tiling() {
        let g = geometry();
        let (all, stats) = enumerate_all(g);
        assert_eq!(stats.solutions as usize * g.rotations().len(), all.len());
        assert_eq!(all.len(), 11_520);
        let distinct: HashSet<_> = all.iter().collect();
        assert_eq!(distinct.len(), all.len());
        // The plain exact cover, with no symmetry, finds the very same assemblies.
        let (plain, plain_stats) = enumerate_all_plain(g);
        assert_eq!(plain_stats.solutions as usize, plain.len());
        assert_eq!(plain.len(), all.len());
        assert!(plain.iter().all(|a| distinct.contains(a)));
        for assembly in &all {
            g.check_tiling(&assembly.0).unwrap();
        }
        // Symmetries map assemblies onto assemblies.
        for assembly in all.iter().step_by(97) {
            for s in 0..g.symmetries.len() {
                assert!(distinct.contains(&assembly.transformed(g, s)));
            }
        }
    }

    #[test]
    fn stats_match_the_published_counts() {
        let g = geometry();
        let (all, _) = enumerate_all(g);
        let stats = Stats::of(g, &all);
        assert_eq!(stats.total, 11_520);
        assert_eq!(stats.rotation_classes, 480);
        assert_eq!(stats.symmetry_classes, 240);
        assert_eq!(stats.per_orientation, vec![480; 24]);
    }

    #[test]
    fn restricted_search_finds_exactly_the_assemblies_with_that_orientation() {
        let g = geometry();
        let (mut all, _) = enumerate_all(g);
        all.sort_unstable();
        for orientation in [0, 7, 23] {
            let expected: Vec<_> = all
                .iter()
                .filter(|a| a_orientation(g, a) == Some(orientation))
                .copied()
                .collect();
            let (found, stats) = assemblies_with_a(g, orientation);
            assert_eq!(found, expected);
            assert_eq!(stats.solutions as usize, found.len());
        }
    }
}
