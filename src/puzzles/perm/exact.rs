//! Exact distance tables of a whole puzzle: every state ranked by a [`Projection`] that
//! covers all pieces and orientations, its distance from solved found by the shared
//! parallel BFS and kept modulo 3 in two bits. Two bits are enough to solve: the
//! neighbours of a state at distance `d` are at `d - 1`, `d` or `d + 1`, which differ
//! modulo 3, so stepping to a neighbour holding `(v + 2) mod 3` walks an optimal path to
//! solved, and its length is the distance.
//!
//! The file name carries the definition's hash (pieces, moves, metric), so an edited
//! definition never reuses a stale table; the BFS's depth histogram is kept in the header
//! (God's algorithm reads it back without a search).

use super::coord::{set_facts, Coord, CoordError, Projection, Reachable, REACHABLE_LIMIT};
use super::element::Element;
use super::puzzle::{PermPuzzle, Restriction};
use crate::progress::Progress;
use crate::rng::SplitMix64;
use crate::search::bfs::{layered_bfs, RankedSpace, UNREACHED};
use crate::table::{intern, packed, Table, TableError, TableSpec, TableStore};
use rayon::prelude::*;

/// Value of a rank the BFS never reached (not a position of the puzzle).
const UNREACHABLE: u8 = 3;

/// Most coordinates a projection has (two per set, a few sets).
const MAX_COORDS: usize = 32;

/// The coordinates of an exact table of `puzzle`: per set, where its pieces are (by class
/// when pieces are identical) and how they are twisted (unless the solved state says any).
pub fn exact_projection(puzzle: &PermPuzzle) -> Result<Projection, CoordError> {
    if !puzzle.illegal.is_empty() {
        return Err(CoordError(
            "the definition has Illegal rules, which exact tables do not support yet".into(),
        ));
    }
    let facts = set_facts(puzzle);
    let active: Vec<usize> = (0..puzzle.sets.len())
        .filter(|&s| facts[s].moved || (facts[s].twisted && !facts[s].wild))
        .collect();
    // Sets small enough to enumerate, smallest first, merged while merging pays (the
    // joint count is below the product: the sets constrain each other).
    // A set is enumerated when its usual coordinates are small (a million values):
    // bigger sets are tight enough by parity and twist sums, and faster by move tables.
    let usual_size = |s: usize| -> u128 {
        let (def, fact) = (&puzzle.sets[s], &facts[s]);
        let mut size = if fact.moved {
            (1..=def.size as u128).product::<u128>()
                >> u32::from(fact.keeps_parity && fact.distinct)
        } else {
            1
        };
        if fact.twisted && !fact.wild {
            size *= (def.omod as u128).pow((def.size - usize::from(fact.keeps_sum)) as u32);
        }
        size
    };
    let mut small: Vec<(usize, Reachable)> = active
        .iter()
        .filter(|&&s| usual_size(s) <= 1 << 20)
        .filter_map(|&s| Coord::reachable(puzzle, &[s], &facts).map(|r| (s, r)))
        .collect();
    small.sort_by_key(|(_, r)| r.len());
    let mut groups: Vec<(Vec<usize>, Reachable)> = Vec::new();
    for (s, alone) in small {
        let merged = groups.last().and_then(|(group, together)| {
            let product = together.len() as u64 * alone.len() as u64;
            if product * puzzle.moves.len() as u64 > REACHABLE_LIMIT {
                return None;
            }
            let mut sets = group.clone();
            sets.push(s);
            let joint = Coord::reachable(puzzle, &sets, &facts)?;
            ((joint.len() as u64) < product).then_some((sets, joint))
        });
        match merged {
            Some(group) => *groups.last_mut().expect("merged into the last") = group,
            None => groups.push((vec![s], alone)),
        }
    }
    let enumerated: Vec<usize> = groups.iter().flat_map(|(g, _)| g.clone()).collect();
    let mut coords: Vec<Coord> = groups
        .into_iter()
        .map(|(_, r)| Coord::Reachable(r))
        .collect();
    for &s in active.iter().filter(|s| !enumerated.contains(s)) {
        let fact = &facts[s];
        let def = &puzzle.sets[s];
        if fact.partly_wild {
            return Err(CoordError(format!(
                "set {}: orientation `?` on some pieces but not all, in a set too big to enumerate",
                def.name
            )));
        }
        if fact.moved {
            let follow = vec![true; 256];
            match Coord::places(puzzle, s, fact, &follow) {
                Ok(c) => coords.push(c),
                Err(_) if fact.distinct && (10..=14).contains(&def.size) => {
                    coords.push(Coord::split(puzzle, s)?)
                }
                Err(e) => return Err(e),
            }
        }
        if fact.twisted && !fact.wild {
            coords.push(Coord::twist(puzzle, s, fact)?);
        }
    }
    if coords.len() > MAX_COORDS {
        return Err(CoordError(format!(
            "{} coordinates: at most {MAX_COORDS} are supported",
            coords.len()
        )));
    }
    Projection::new(puzzle, coords)
}

/// A projection seen as a state space for the BFS. When every coordinate has a plain
/// move table (the usual case), a neighbour's rank is a sum of one table entry per
/// coordinate times its place value: no dispatch, no dependent multiplications.
struct Space<'a> {
    projection: &'a Projection,
    /// Per coordinate: its move table and place value, if all have plain tables.
    plain: Option<Vec<(&'a [u32], u64)>>,
}

impl<'a> Space<'a> {
    fn new(projection: &'a Projection) -> Self {
        let tables: Option<Vec<&[u32]>> = projection.coords.iter().map(Coord::move_table).collect();
        let plain = tables.map(|tables| {
            let mut weight = 1u64;
            let mut plain: Vec<(&[u32], u64)> = tables
                .iter()
                .zip(&projection.radix)
                .rev()
                .map(|(&table, &radix)| {
                    let here = (table, weight);
                    weight *= radix;
                    here
                })
                .collect();
            plain.reverse();
            plain
        });
        Self { projection, plain }
    }

    /// Calls `visit` with each neighbour until it returns true; whether one did.
    #[inline]
    fn neighbours_until(&self, rank: u64, mut visit: impl FnMut(u64) -> bool) -> bool {
        let moves = self.projection.moves;
        let mut values = [0u64; MAX_COORDS];
        let values = &mut values[..self.projection.radix.len()];
        self.projection.values(rank, values);
        match &self.plain {
            Some(plain) if plain.len() == 1 => {
                let row = &plain[0].0[values[0] as usize * moves..][..moves];
                row.iter().any(|&v| visit(v as u64))
            }
            Some(plain) if plain.len() == 2 => {
                let high = &plain[0].0[values[0] as usize * moves..][..moves];
                let low = &plain[1].0[values[1] as usize * moves..][..moves];
                let weight = plain[0].1;
                high.iter()
                    .zip(low)
                    .any(|(&h, &l)| visit(h as u64 * weight + l as u64))
            }
            Some(plain) => {
                let mut rows = [&[][..]; MAX_COORDS];
                for ((row, &(table, _)), &v) in rows.iter_mut().zip(plain).zip(values.iter()) {
                    *row = &table[v as usize * moves..][..moves];
                }
                (0..moves).any(|m| {
                    visit(
                        plain
                            .iter()
                            .zip(&rows)
                            .map(|(&(_, weight), row)| row[m] as u64 * weight)
                            .sum(),
                    )
                })
            }
            None => (0..moves).any(|m| visit(self.projection.after(values, m))),
        }
    }
}

impl RankedSpace for Space<'_> {
    fn size(&self) -> u64 {
        self.projection.size
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
}

/// What the exact table of `puzzle` is: name (with the definition's hash), size, and the
/// command that rebuilds it.
pub fn exact_spec(puzzle: &PermPuzzle, projection: &Projection, source: &str) -> TableSpec {
    let slug: String = puzzle
        .name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .take(40)
        .collect();
    TableSpec {
        name: intern(format!(
            "puzzle-{slug}-{}-{:016x}",
            puzzle.metric.name(),
            puzzle.hash
        )),
        group: intern(format!("puzzle {source} --metric {}", puzzle.metric.name())),
        puzzle: "perm",
        kind: "depth-mod3",
        params: vec![
            ("states".into(), projection.size),
            ("moves".into(), projection.moves as u64),
        ],
        entries: projection.size,
        bits_per_entry: 2,
    }
}

/// Why a puzzle has no exact table, or a state no answer.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// The state space cannot be ranked (too big, or unsupported features).
    #[error("no exact table for this puzzle: {0}")]
    Unsupported(#[from] CoordError),
    /// The table would not fit in the memory allowed.
    #[error("the exact table needs {needed_mb:.0} MB to build, over the {budget_mb} MB allowed (--memory)")]
    TooBig {
        /// Memory the build needs.
        needed_mb: f64,
        /// The budget.
        budget_mb: u64,
    },
    /// A table file problem.
    #[error(transparent)]
    Table(#[from] TableError),
}

/// Bytes a BFS over `size` ranks needs at its peak (depth bytes, frontier lists, packed).
pub fn build_bytes(size: u64) -> u64 {
    size + size / 4 + (size / 8).min(1 << 26) * 8
}

/// An exact distance table, opened (mapped) and ready to answer.
pub struct ExactTable {
    projection: Projection,
    /// Slots no search move touches, dropped before ranking.
    restriction: Option<Restriction>,
    /// The puzzle as given (states arrive in its shape).
    puzzle: PermPuzzle,
    table: Table,
    /// Number of states at each distance.
    pub histogram: Vec<u64>,
    /// For each move, the index of its inverse move.
    inverse: Vec<usize>,
}

impl ExactTable {
    /// Opens the table of `puzzle` from `store`, building it first when missing (BFS on
    /// every core, with progress). `source` names the definition file in messages;
    /// `budget_mb` bounds the memory a build may take.
    pub fn load_or_build(
        puzzle: &PermPuzzle,
        store: &TableStore,
        source: &str,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ExactError> {
        let (ranked, restriction) = match puzzle.restricted() {
            Some((smaller, restriction)) => (smaller, Some(restriction)),
            None => (puzzle.clone(), None),
        };
        let projection = exact_projection(&ranked)?;
        let spec = exact_spec(puzzle, &projection, source);
        if !store.exists(&spec) {
            let needed = build_bytes(projection.size);
            if needed > budget_mb << 20 {
                return Err(ExactError::TooBig {
                    needed_mb: needed as f64 / (1 << 20) as f64,
                    budget_mb,
                });
            }
            store.check_writable()?;
            progress.note(format!(
                "building the exact table of {} ({} ranks, {:.1} MB) in {} ...",
                puzzle.name,
                projection.size,
                spec.payload_len() as f64 / 1e6,
                store.dir().display()
            ));
            let started = std::time::Instant::now();
            let result = layered_bfs(
                &Space::new(&projection),
                &[projection.solved],
                progress,
                "BFS depth",
            );
            let payload: Vec<u8> = result
                .depths
                .par_chunks(4)
                .map(|four| {
                    four.iter().enumerate().fold(0u8, |byte, (i, &d)| {
                        let v = if d == UNREACHED { UNREACHABLE } else { d % 3 };
                        byte | v << (2 * i)
                    })
                })
                .collect();
            drop(result.depths);
            store.write(&spec, &payload, result.histogram)?;
            progress.note(format!(
                "exact table built in {:.1} s",
                started.elapsed().as_secs_f64()
            ));
        }
        let table = store.open(&spec)?;
        let histogram = table.header().histogram.clone();
        let inverse = inverse_moves(puzzle);
        Ok(Self {
            projection,
            restriction,
            puzzle: puzzle.clone(),
            table,
            histogram,
            inverse,
        })
    }

    /// Where the table file is.
    pub fn path(&self) -> &std::path::Path {
        self.table.path()
    }

    /// Number of states (positions reachable from solved).
    pub fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }

    #[inline]
    fn value(&self, rank: u64) -> u8 {
        packed::Crumbs::new(self.table.payload()).get(rank as usize)
    }

    /// The rank of a state, `None` when a slot no search move touches is out of place.
    pub fn rank(&self, state: &Element) -> Option<u64> {
        match &self.restriction {
            Some(r) => self.projection.encode(&r.apply(&self.puzzle, state)?),
            None => self.projection.encode(state),
        }
    }

    /// Number of ranks (the table's entries).
    pub fn ranks(&self) -> u64 {
        self.projection.size
    }

    /// Whether the rank is a position of the puzzle (reachable from solved).
    pub fn reachable(&self, rank: u64) -> bool {
        self.value(rank) != UNREACHABLE
    }

    /// The moves from `rank` that lead one step closer to solved, in move order, with
    /// the ranks they lead to.
    fn closer(&self, rank: u64) -> Vec<(usize, u64)> {
        let mut values = [0u64; MAX_COORDS];
        let values = &mut values[..self.projection.radix.len()];
        let want = (self.value(rank) + 2) % 3;
        self.projection.values(rank, values);
        (0..self.projection.moves)
            .map(|m| (m, self.projection.after(values, m)))
            .filter(|&(_, next)| self.value(next) == want)
            .collect()
    }

    /// An optimal solution (search-move indices) of the state ranked `rank`, or `None`
    /// if it is not a position of the puzzle.
    pub fn solve_rank(&self, mut rank: u64) -> Option<Vec<usize>> {
        if !self.reachable(rank) {
            return None;
        }
        let mut values = [0u64; MAX_COORDS];
        let values = &mut values[..self.projection.radix.len()];
        let mut path = Vec::new();
        while rank != self.projection.solved {
            let want = (self.value(rank) + 2) % 3;
            self.projection.values(rank, values);
            let (m, next) = (0..self.projection.moves)
                .map(|m| (m, self.projection.after(values, m)))
                .find(|&(_, next)| self.value(next) == want)?;
            path.push(m);
            rank = next;
            if path.len() > 255 {
                return None;
            }
        }
        Some(path)
    }

    /// Optimal solutions of the state ranked `rank` in move order, handed to `visit`
    /// until it returns false; `None` if the rank is not a position of the puzzle.
    pub fn each_solution(&self, rank: u64, mut visit: impl FnMut(&[usize]) -> bool) -> Option<()> {
        let length = self.solve_rank(rank)?.len();
        let mut path = Vec::with_capacity(length);
        self.descend(rank, length, &mut path, &mut visit);
        Some(())
    }

    fn descend(
        &self,
        rank: u64,
        left: usize,
        path: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        if left == 0 {
            return visit(path);
        }
        for (m, next) in self.closer(rank) {
            path.push(m);
            let go_on = self.descend(next, left - 1, path, visit);
            path.pop();
            if !go_on {
                return false;
            }
        }
        true
    }

    /// A uniformly random position's rank.
    pub fn random_rank(&self, rng: &mut SplitMix64) -> u64 {
        loop {
            let rank = rng.below(self.projection.size);
            if self.reachable(rank) {
                return rank;
            }
        }
    }

    /// A shortest move sequence that takes solved to the state ranked `rank` (the inverse
    /// of its optimal solution); `None` if it is not a position.
    pub fn scramble_of(&self, rank: u64) -> Option<Vec<usize>> {
        let solution = self.solve_rank(rank)?;
        Some(solution.iter().rev().map(|&m| self.inverse[m]).collect())
    }

    /// Ranks at the greatest distance, at most `limit` of them: a parallel scan for
    /// states whose neighbours are all one step closer (local maxima, rare), each then
    /// measured by a walk.
    pub fn antipodes(&self, limit: usize) -> Vec<u64> {
        let deepest = self.histogram.len().saturating_sub(1);
        let want = (deepest % 3) as u8;
        let below = (want + 2) % 3;
        let space = Space::new(&self.projection);
        let mut found: Vec<u64> = (0..self.projection.size)
            .into_par_iter()
            .filter(|&rank| {
                self.value(rank) == want
                    && !space.any_neighbour(rank, |n| self.value(n) != below)
                    && self.solve_rank(rank).is_some_and(|p| p.len() == deepest)
            })
            .take_any(limit)
            .collect();
        found.sort_unstable();
        found
    }
}

/// For each search move, the search move that undoes it.
fn inverse_moves(puzzle: &PermPuzzle) -> Vec<usize> {
    puzzle
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let undo = m.element.inverse(&puzzle.sets);
            puzzle
                .moves
                .iter()
                .position(|n| n.element == undo)
                .unwrap_or(i)
        })
        .collect()
}
