//! Exact tables reduced by symmetry: one entry per class of conjugate states instead of
//! one per state.
//!
//! A state is numbered by coordinates `(c₀, c₁, …)` ([`Projection`]). Conjugating by a
//! symmetry `h` ([`super::symmetry`]) acts on each coordinate alone: on places it permutes
//! slots, on a set's orientations too, provided `h` shifts every slot of that set alike
//! (only those symmetries are used). So one coordinate, the *reduced* one, is grouped into
//! classes `{conj(v, h)}` named by their smallest value, and a state maps to the entry
//! `(class of c_r, other coordinates conjugated by the h that takes c_r to that smallest
//! value)`. Conjugate states have the same distance, so the entry's distance is the
//! state's; the table shrinks by about the number of symmetries.
//!
//! Each entry stands for as many states as its class has values (for each value of the
//! class, conjugating the other coordinates is a bijection), which is how God's
//! algorithm counts states. A class whose smallest value some symmetries fix has
//! *twins*: entries that differ by those symmetries on the other coordinates and stand for
//! conjugate states; the BFS settles twins together so that each layer stays closed under
//! symmetry.

use super::coord::{Coord, Projection};
use super::element::Element;
use super::puzzle::PermPuzzle;
use super::symmetry::{conjugate, conjugate_into, Symmetries};
use crate::search::bfs::RankedSpace;
use rayon::prelude::*;

/// Largest reduced coordinate: its class map is made value by value.
const MAX_REDUCED: u64 = 1 << 23;

/// Largest other coordinate: each gets a table of its conjugates.
const MAX_MINOR: u64 = 1 << 22;

/// Most coordinates a reduced projection has.
const MAX_MINORS: usize = 32;

/// How a projection is reduced: the symmetries, which coordinate is grouped in classes,
/// and the classes (their smallest values, sorted: a class's number is its position).
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The symmetries used (the identity first).
    pub symmetries: Symmetries,
    /// The coordinate grouped in classes.
    pub reduced: usize,
    /// Per class, its smallest value.
    pub reps: Vec<u32>,
    /// Entries per class (the product of the other coordinates' sizes).
    pub per_class: u64,
}

/// Tables of at most this many entries (8 MB) stay plain: they sit in the caches anyway,
/// and a plain lookup is one encoding where a reduced one conjugates by every symmetry
/// (skewb scrambles: 1.4x faster plain).
const PLAIN_AT_MOST: u64 = 1 << 25;

/// Whether a table of `entries` states is kept plain, never reduced.
pub fn stays_plain(entries: u64) -> bool {
    entries <= PLAIN_AT_MOST
}

/// The symmetries and the coordinate to reduce for `projection` of `puzzle` (the puzzle
/// as searched), or `None` when reduction does not apply: a table small enough to stay
/// plain, fewer than two usable symmetries, or coordinates without plain tables or too
/// big for the maps.
pub fn plan(
    puzzle: &PermPuzzle,
    projection: &Projection,
    found: &Symmetries,
) -> Option<(Symmetries, usize)> {
    if stays_plain(projection.size) {
        return None;
    }
    let reduced = reduced_coordinate(projection)?;
    let twisted: Vec<usize> = projection
        .coords
        .iter()
        .filter_map(Coord::twist_set)
        .collect();
    Some((found.for_tables(puzzle, &twisted)?, reduced))
}

/// The coordinate a reduced table groups in classes (the largest that fits the class
/// map), when every coordinate has a plain table and the others fit conjugate tables.
pub fn reduced_coordinate(projection: &Projection) -> Option<usize> {
    if projection.coords.len() > MAX_MINORS {
        return None;
    }
    let plain = projection
        .coords
        .iter()
        .all(|c| matches!(c, Coord::Reachable(_) | Coord::Places(_) | Coord::Twist(_)));
    if !plain {
        return None;
    }
    let reduced = (0..projection.radix.len())
        .filter(|&i| projection.radix[i] <= MAX_REDUCED)
        .max_by_key(|&i| projection.radix[i])?;
    let minors_fit =
        (0..projection.radix.len()).all(|i| i == reduced || projection.radix[i] <= MAX_MINOR);
    minors_fit.then_some(reduced)
}

/// The value of coordinate `coord` for the conjugate by `h` of a state whose value is
/// `value` (the other parts solved: each coordinate conjugates alone).
fn conjugate_value(
    coord: &Coord,
    value: u64,
    h: (&Element, &Element),
    puzzle: &PermPuzzle,
) -> Option<u64> {
    let mut state = puzzle.solved.clone();
    if !coord.decode_into(value, &mut state) {
        return None;
    }
    coord.encode(&conjugate(&state, h.0, h.1, &puzzle.sets))
}

/// Per value of the reduced coordinate: its class's smallest value and the first
/// symmetry taking it there.
fn class_map(
    puzzle: &PermPuzzle,
    coord: &Coord,
    size: u64,
    symmetries: &Symmetries,
) -> Option<Vec<(u32, u8)>> {
    (0..size)
        .into_par_iter()
        .map(|v| {
            let mut best = (v as u32, 0u8);
            for (i, h) in symmetries.elements.iter().enumerate().skip(1) {
                let c = conjugate_value(coord, v, (h, &symmetries.inverses[i]), puzzle)?;
                if (c as u32) < best.0 {
                    best = (c as u32, i as u8);
                }
            }
            Some(best)
        })
        .collect()
}

impl Reduction {
    /// Groups the reduced coordinate's values in classes (every value conjugated by every
    /// symmetry, on every core); with the class map, which the BFS needs.
    pub fn classify(
        puzzle: &PermPuzzle,
        projection: &Projection,
        symmetries: Symmetries,
        reduced: usize,
    ) -> Option<(Self, Vec<(u32, u8)>)> {
        let map = class_map(
            puzzle,
            &projection.coords[reduced],
            projection.radix[reduced],
            &symmetries,
        )?;
        let reps: Vec<u32> = map
            .iter()
            .enumerate()
            .filter(|&(v, &(rep, _))| rep as usize == v)
            .map(|(v, _)| v as u32)
            .collect();
        let reduction = Self::with_reps(projection, symmetries, reduced, reps);
        Some((reduction, map))
    }

    /// The reduction with classes already known (read from a table's class file).
    pub fn with_reps(
        projection: &Projection,
        symmetries: Symmetries,
        reduced: usize,
        reps: Vec<u32>,
    ) -> Self {
        let per_class = (0..projection.radix.len())
            .filter(|&i| i != reduced)
            .map(|i| projection.radix[i])
            .product();
        Self {
            symmetries,
            reduced,
            reps,
            per_class,
        }
    }

    /// Number of entries.
    pub fn entries(&self) -> u64 {
        self.reps.len() as u64 * self.per_class
    }

    /// The entry of `state`: its conjugate whose reduced coordinate is smallest, numbered.
    /// `None` for a state the coordinates do not number.
    pub fn entry(
        &self,
        projection: &Projection,
        puzzle: &PermPuzzle,
        state: &Element,
    ) -> Option<u64> {
        let coord = &projection.coords[self.reduced];
        let syms = &self.symmetries;
        let mut best = (coord.encode(state)?, 0usize);
        let mut seen = state.clone();
        for i in 1..syms.len() {
            conjugate_into(
                state,
                &syms.elements[i],
                &syms.inverses[i],
                &puzzle.sets,
                &mut seen,
            );
            let v = coord.encode(&seen)?;
            if v < best.0 {
                best = (v, i);
            }
        }
        conjugate_into(
            state,
            &syms.elements[best.1],
            &syms.inverses[best.1],
            &puzzle.sets,
            &mut seen,
        );
        let class = self.reps.binary_search(&(best.0 as u32)).ok()? as u64;
        let mut rest = 0u64;
        for (i, (c, &radix)) in projection.coords.iter().zip(&projection.radix).enumerate() {
            if i != self.reduced {
                rest = rest * radix + c.encode(&seen)?;
            }
        }
        Some(class * self.per_class + rest)
    }

    /// The coordinate values of the state an entry names (its class's smallest value).
    pub fn values(&self, projection: &Projection, entry: u64, out: &mut [u64]) {
        let mut rest = entry % self.per_class;
        for i in (0..projection.radix.len()).rev() {
            if i != self.reduced {
                out[i] = rest % projection.radix[i];
                rest /= projection.radix[i];
            }
        }
        out[self.reduced] = self.reps[(entry / self.per_class) as usize] as u64;
    }

    /// The reduced entries as a space for the BFS: needs the projection's move tables and
    /// the class map.
    pub fn space<'a>(
        &'a self,
        puzzle: &PermPuzzle,
        projection: &'a Projection,
        map: &[(u32, u8)],
    ) -> Option<ReducedSpace<'a>> {
        let syms = &self.symmetries;
        let count = syms.len();
        let index_of_rep = |rep: u32| self.reps.binary_search(&rep).map(|c| c as u32).ok();
        let class_of: Vec<(u32, u8)> = map
            .iter()
            .map(|&(rep, h)| Some((index_of_rep(rep)?, h)))
            .collect::<Option<_>>()?;
        let mut minors = Vec::new();
        let mut weight = 1u64;
        for i in (0..projection.coords.len()).rev() {
            if i == self.reduced {
                continue;
            }
            let coord = &projection.coords[i];
            let conj: Vec<u32> = (0..projection.radix[i])
                .into_par_iter()
                .flat_map_iter(|v| {
                    (0..count).map(move |h| {
                        conjugate_value(coord, v, (&syms.elements[h], &syms.inverses[h]), puzzle)
                            .map(|c| c as u32)
                    })
                })
                .collect::<Option<_>>()?;
            minors.push(Minor {
                table: coord.move_table()?,
                conj,
                radix: projection.radix[i],
                weight,
            });
            weight *= projection.radix[i];
        }
        minors.reverse();
        // Per class: how many values it has, and the symmetries fixing its smallest value.
        let reduced = &projection.coords[self.reduced];
        let fixers: Vec<Vec<u8>> = self
            .reps
            .par_iter()
            .map(|&rep| {
                (1..count)
                    .filter(|&h| {
                        conjugate_value(
                            reduced,
                            rep as u64,
                            (&syms.elements[h], &syms.inverses[h]),
                            puzzle,
                        ) == Some(rep as u64)
                    })
                    .map(|h| h as u8)
                    .collect()
            })
            .collect();
        Some(ReducedSpace {
            reduction: self,
            reduced_table: reduced.move_table()?,
            moves: projection.moves,
            class_of,
            minors,
            symmetries: count,
            fixers,
        })
    }
}

/// A coordinate other than the reduced one: its move table and conjugates.
struct Minor<'a> {
    table: &'a [u32],
    /// `conj[v * symmetries + h]`.
    conj: Vec<u32>,
    radix: u64,
    /// Its place value in an entry's remainder.
    weight: u64,
}

/// The entries of a reduced table as a BFS space (see the module comment).
pub struct ReducedSpace<'a> {
    reduction: &'a Reduction,
    reduced_table: &'a [u32],
    moves: usize,
    /// Per value of the reduced coordinate: its class and the symmetry taking it to the
    /// class's smallest value.
    class_of: Vec<(u32, u8)>,
    minors: Vec<Minor<'a>>,
    symmetries: usize,
    /// Per class, the symmetries (other than the identity) fixing its smallest value.
    fixers: Vec<Vec<u8>>,
}

impl ReducedSpace<'_> {
    #[inline]
    fn split(&self, entry: u64, values: &mut [u64; MAX_MINORS]) -> usize {
        let per_class = self.reduction.per_class;
        let mut rest = entry % per_class;
        for (i, minor) in self.minors.iter().enumerate().rev() {
            values[i] = rest % minor.radix;
            rest /= minor.radix;
        }
        (entry / per_class) as usize
    }

    #[inline]
    fn neighbours_until(&self, entry: u64, mut visit: impl FnMut(u64) -> bool) -> bool {
        let mut values = [0u64; MAX_MINORS];
        let class = self.split(entry, &mut values);
        let raw = self.reduction.reps[class] as usize;
        let per_class = self.reduction.per_class;
        let row = &self.reduced_table[raw * self.moves..][..self.moves];
        (0..self.moves).any(|m| {
            let (next_class, h) = self.class_of[row[m] as usize];
            let mut next = next_class as u64 * per_class;
            for (minor, &v) in self.minors.iter().zip(&values) {
                let moved = minor.table[v as usize * self.moves + m] as usize;
                next += minor.conj[moved * self.symmetries + h as usize] as u64 * minor.weight;
            }
            visit(next)
        })
    }
}

impl RankedSpace for ReducedSpace<'_> {
    fn size(&self) -> u64 {
        self.reduction.entries()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        self.neighbours_until(rank, |n| {
            visit(n);
            false
        });
    }

    fn any_neighbour(&self, rank: u64, test: impl FnMut(u64) -> bool) -> bool {
        self.neighbours_until(rank, test)
    }

    const STOPS_EARLY: bool = true;

    /// The states an entry stands for: the values of its class.
    #[inline]
    fn weight(&self, rank: u64) -> u64 {
        let class = (rank / self.reduction.per_class) as usize;
        (self.symmetries / (self.fixers[class].len() + 1)) as u64
    }

    fn for_each_twin(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let mut values = [0u64; MAX_MINORS];
        let class = self.split(rank, &mut values);
        for &h in &self.fixers[class] {
            let mut twin = class as u64 * self.reduction.per_class;
            for (minor, &v) in self.minors.iter().zip(&values) {
                twin += minor.conj[v as usize * self.symmetries + h as usize] as u64 * minor.weight;
            }
            if twin != rank {
                visit(twin);
            }
        }
    }
}
