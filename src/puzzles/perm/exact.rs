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
use crate::search::bfs::{mod3_bfs, RankedSpace};
use crate::table::{intern, packed, Table, TableError, TableSpec, TableStore};
use rayon::prelude::*;
use std::sync::{Arc, OnceLock};

/// Value of a rank the BFS never reached (not a position of the puzzle).
const UNREACHABLE: u8 = 3;

/// Longest walk down a table (depths are below 255).
const MAX_WALK: usize = 255;

/// Most coordinates a projection has (two per set, a few sets).
const MAX_COORDS: usize = 32;

/// The coordinates of an exact table of `puzzle`: per set, where its pieces are (by class
/// when pieces are identical) and how they are twisted (unless the solved state says any).
///
/// With `tables`, every coordinate gets its move tables (for the BFS and for walks by
/// rank); without, the projection only encodes states, which is all a walk from a given
/// state needs, and takes no time to make.
pub fn exact_projection(puzzle: &PermPuzzle, tables: bool) -> Result<Projection, CoordError> {
    exact_projection_with(puzzle, None, tables).map(|(projection, _)| projection)
}

/// Sets enumerated together, each group with its states (packed keys) in number order.
pub type Groups = Vec<(Vec<usize>, Vec<u128>)>;

/// [`exact_projection`], taking the enumerated groups from `known` (as a table's coordinate
/// file keeps them) instead of enumerating, and returning them.
pub fn exact_projection_with(
    puzzle: &PermPuzzle,
    known: Option<Groups>,
    tables: bool,
) -> Result<(Projection, Groups), CoordError> {
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
    let groups: Vec<(Vec<usize>, Reachable)> = match known {
        Some(known) => known
            .into_iter()
            .map(|(sets, keys)| {
                let coord = Coord::reachable_from_keys(puzzle, &sets, &facts, keys, tables)
                    .ok_or_else(|| {
                        CoordError("the coordinate file does not fit the puzzle".into())
                    })?;
                Ok((sets, coord))
            })
            .collect::<Result<_, CoordError>>()?,
        None => enumerate_groups(puzzle, &facts, &active, usual_size),
    };
    let enumerated: Vec<usize> = groups.iter().flat_map(|(g, _)| g.clone()).collect();
    let found: Groups = groups
        .iter()
        .map(|(sets, r)| (sets.clone(), r.keys().to_vec()))
        .collect();
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
            match Coord::places(puzzle, s, fact, &follow, tables) {
                Ok(c) => coords.push(c),
                Err(_) if fact.distinct && (10..=14).contains(&def.size) => {
                    coords.push(Coord::split(puzzle, s, fact.keeps_parity, tables)?)
                }
                Err(e) => return Err(e),
            }
        }
        if fact.twisted && !fact.wild {
            coords.push(Coord::twist(puzzle, s, fact, tables)?);
        }
    }
    if coords.len() > MAX_COORDS {
        return Err(CoordError(format!(
            "{} coordinates: at most {MAX_COORDS} are supported",
            coords.len()
        )));
    }
    Ok((Projection::new(puzzle, coords)?, found))
}

/// Sets small enough to enumerate, smallest first, merged while merging pays (the joint
/// count is below the product: the sets constrain each other).
fn enumerate_groups(
    puzzle: &PermPuzzle,
    facts: &[super::coord::SetFacts],
    active: &[usize],
    usual_size: impl Fn(usize) -> u128,
) -> Vec<(Vec<usize>, Reachable)> {
    let mut small: Vec<(usize, Reachable)> = active
        .iter()
        .filter(|&&s| usual_size(s) <= 1 << 20)
        .filter_map(|&s| Coord::reachable(puzzle, &[s], facts).map(|r| (s, r)))
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
            let joint = Coord::reachable(puzzle, &sets, facts)?;
            ((joint.len() as u64) < product).then_some((sets, joint))
        });
        match merged {
            Some(group) => *groups.last_mut().expect("merged into the last") = group,
            None => groups.push((vec![s], alone)),
        }
    }
    groups
}

/// The enumerated groups as bytes (little-endian): the group count, then per group its
/// set count, sets, key count and keys.
pub fn groups_to_bytes(groups: &Groups) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&(groups.len() as u32).to_le_bytes());
    for (sets, keys) in groups {
        out.extend_from_slice(&(sets.len() as u32).to_le_bytes());
        for &s in sets {
            out.extend_from_slice(&(s as u32).to_le_bytes());
        }
        out.extend_from_slice(&(keys.len() as u32).to_le_bytes());
        for &k in keys {
            out.extend_from_slice(&k.to_le_bytes());
        }
    }
    out
}

/// [`groups_to_bytes`] read back; `None` when the bytes are not such a list.
pub fn groups_from_bytes(mut bytes: &[u8]) -> Option<Groups> {
    fn take<'a>(bytes: &mut &'a [u8], n: usize) -> Option<&'a [u8]> {
        let (head, rest) = bytes.split_at_checked(n)?;
        *bytes = rest;
        Some(head)
    }
    fn word(bytes: &mut &[u8]) -> Option<usize> {
        Some(u32::from_le_bytes(take(bytes, 4)?.try_into().ok()?) as usize)
    }
    let count = word(&mut bytes)?;
    let mut groups = Vec::new();
    for _ in 0..count.min(64) {
        let n = word(&mut bytes)?;
        let sets = (0..n.min(64))
            .map(|_| word(&mut bytes))
            .collect::<Option<Vec<_>>>()?;
        let k = word(&mut bytes)?;
        let raw = take(&mut bytes, k.checked_mul(16)?)?;
        let keys = raw
            .chunks_exact(16)
            .map(|c| u128::from_le_bytes(c.try_into().unwrap_or([0; 16])))
            .collect();
        groups.push((sets, keys));
    }
    (groups.len() == count && bytes.is_empty()).then_some(groups)
}

/// A projection seen as a state space for the BFS. When every coordinate has a plain
/// move table (the usual case), a neighbour's rank is a sum of one table entry per
/// coordinate times its place value: no dispatch, no dependent multiplications.
pub(super) struct Space<'a> {
    projection: &'a Projection,
    /// Per coordinate: its move table and place value, if all have plain tables.
    plain: Option<Vec<(&'a [u32], u64)>>,
}

impl<'a> Space<'a> {
    /// The space of `projection`.
    pub(super) fn new(projection: &'a Projection) -> Self {
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
    exact_spec_named(puzzle, source, projection.size, projection.moves as u64)
}

/// The start of every table file name of `puzzle` (exact table, coordinate file,
/// pattern databases): its name, metric and definition hash.
pub fn table_prefix(puzzle: &PermPuzzle) -> String {
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
    format!(
        "puzzle-{slug}-{}-{:016x}",
        puzzle.metric.name(),
        puzzle.hash
    )
}

fn exact_spec_named(puzzle: &PermPuzzle, source: &str, states: u64, moves: u64) -> TableSpec {
    TableSpec {
        name: intern(table_prefix(puzzle)),
        group: intern(format!("puzzle {source} --metric {}", puzzle.metric.name())),
        puzzle: "perm",
        kind: "depth-mod3",
        params: vec![("states".into(), states), ("moves".into(), moves)],
        entries: states,
        bits_per_entry: 2,
    }
}

/// The coordinate file of an exact table: the states of its enumerated sets.
fn coords_spec(table: &TableSpec, groups: &Groups) -> TableSpec {
    coords_spec_of_len(table, groups_to_bytes(groups).len() as u64)
}

fn coords_spec_of_len(table: &TableSpec, bytes: u64) -> TableSpec {
    TableSpec {
        name: intern(format!("{}-coords", table.name)),
        group: table.group,
        puzzle: "perm",
        kind: "coordinates",
        params: table.params.clone(),
        entries: bytes,
        bits_per_entry: 8,
    }
}

/// The encoder and spec of `puzzle`'s exact table from its coordinate file, when the
/// table and that file are both present (`None` otherwise). A damaged file is an error.
fn open_coordinates(
    puzzle: &PermPuzzle,
    ranked: &PermPuzzle,
    store: &TableStore,
    source: &str,
) -> Result<Option<(Projection, TableSpec)>, ExactError> {
    let slug_spec = exact_spec_named(puzzle, source, 0, 0);
    let table_path = store.dir().join(slug_spec.file_name());
    let coords_path = store.dir().join(format!("{}-coords.cdb", slug_spec.name));
    if !table_path.is_file() || !coords_path.is_file() {
        return Ok(None);
    }
    let (header, _) = crate::table::read_header(&table_path, slug_spec.group)?;
    let moves = header
        .params
        .iter()
        .find(|(k, _)| k == "moves")
        .map_or(0, |p| p.1);
    let spec = exact_spec_named(puzzle, source, header.entries, moves);
    let (coords_header, _) = crate::table::read_header(&coords_path, slug_spec.group)?;
    let coords = store.open(&coords_spec_of_len(&spec, coords_header.entries))?;
    let damaged = |why: String| {
        ExactError::Unsupported(CoordError(format!("{}: {why}", coords_path.display())))
    };
    let groups = groups_from_bytes(coords.payload())
        .ok_or_else(|| damaged("not a list of coordinates".into()))?;
    let (encoder, _) =
        exact_projection_with(ranked, Some(groups), false).map_err(|e| damaged(e.0))?;
    if encoder.size != header.entries {
        return Err(damaged(
            "its coordinates do not give the table's size".into(),
        ));
    }
    Ok(Some((encoder, spec)))
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

/// Bytes a BFS over `size` ranks needs at its peak: the table itself (2 bits a rank).
pub fn build_bytes(size: u64) -> u64 {
    size.div_ceil(4)
}

/// An exact distance table, opened (mapped) and ready to answer.
pub struct ExactTable {
    /// Ranks states (move tables only if the table was built by this process).
    encoder: Arc<Projection>,
    /// The same projection with move tables, made on the first walk by rank.
    stepper: OnceLock<Arc<Projection>>,
    /// Slots no search move touches, dropped before ranking (states arrive in the
    /// given puzzle's shape).
    restriction: Restriction,
    /// The puzzle ranked (without untouched slots).
    ranked: PermPuzzle,
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
        let (ranked, restriction) = puzzle.searched();
        // With the table and its coordinate file present, the enumerations are read
        // back instead of redone: a second process starts in milliseconds.
        let (encoder, spec) = match open_coordinates(puzzle, &ranked, store, source)? {
            Some(found) => found,
            None => {
                let (encoder, groups) = exact_projection_with(&ranked, None, false)?;
                let spec = exact_spec(puzzle, &encoder, source);
                if store.exists(&spec) {
                    // The table without its coordinate file (deleted): write it again.
                    store.write(
                        &coords_spec(&spec, &groups),
                        &groups_to_bytes(&groups),
                        Vec::new(),
                    )?;
                }
                (encoder, spec)
            }
        };
        let stepper = OnceLock::new();
        if !store.exists(&spec) {
            let needed = build_bytes(encoder.size);
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
                encoder.size,
                spec.payload_len() as f64 / 1e6,
                store.dir().display()
            ));
            let started = std::time::Instant::now();
            let (projection, groups) = exact_projection_with(&ranked, None, true)?;
            let projection = Arc::new(projection);
            let result = mod3_bfs(
                &Space::new(&projection),
                &[projection.solved],
                progress,
                "BFS depth",
            );
            store.write(
                &coords_spec(&spec, &groups),
                &groups_to_bytes(&groups),
                Vec::new(),
            )?;
            store.write(&spec, &result.crumbs, result.histogram)?;
            let _ = stepper.set(projection);
            progress.note(format!(
                "exact table built in {:.1} s",
                started.elapsed().as_secs_f64()
            ));
        }
        let table = store.open(&spec)?;
        let histogram = table.header().histogram.clone();
        let inverse = inverse_moves(puzzle);
        Ok(Self {
            encoder: Arc::new(encoder),
            stepper,
            restriction,
            ranked,
            table,
            histogram,
            inverse,
        })
    }

    /// The projection with move tables (made now if this process has not yet).
    fn stepper(&self) -> &Projection {
        self.stepper.get_or_init(|| {
            // The same choice of coordinates as the encoder, which succeeded.
            Arc::new(
                exact_projection(&self.ranked, true)
                    .expect("a projection that encodes also gets its move tables"),
            )
        })
    }

    /// Optimal solutions of `state` in move order, handed to `visit` until it returns
    /// false; `None` when it is not a position of the puzzle (with the moves searched).
    /// Walks states, not ranks: no move tables are needed.
    pub fn each_solution_of(
        &self,
        state: &Element,
        mut visit: impl FnMut(&[usize]) -> bool,
    ) -> Option<()> {
        let inner = self.restriction.apply(state)?;
        let rank = self.encoder.encode(&inner)?;
        if !self.reachable(rank) {
            return None;
        }
        let mut path = Vec::new();
        self.descend_states(&inner, rank, &mut path, &mut visit);
        Some(())
    }

    fn descend_states(
        &self,
        state: &Element,
        rank: u64,
        path: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        if rank == self.encoder.solved {
            // Ranks cover every piece and twist the moves change: the state is solved.
            debug_assert!(self.ranked.is_solved(state));
            return visit(path);
        }
        if path.len() > MAX_WALK {
            return false;
        }
        let want = (self.value(rank) + 2) % 3;
        for (m, mv) in self.ranked.moves.iter().enumerate() {
            let next = state.then(&mv.element, &self.ranked.sets);
            let Some(next_rank) = self.encoder.encode(&next) else {
                continue;
            };
            if self.value(next_rank) != want {
                continue;
            }
            path.push(m);
            let go_on = self.descend_states(&next, next_rank, path, visit);
            path.pop();
            if !go_on {
                return false;
            }
        }
        true
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
        self.encoder.encode(&self.restriction.apply(state)?)
    }

    /// Number of ranks (the table's entries).
    pub fn ranks(&self) -> u64 {
        self.encoder.size
    }

    /// Whether the rank is a position of the puzzle (reachable from solved).
    pub fn reachable(&self, rank: u64) -> bool {
        self.value(rank) != UNREACHABLE
    }

    /// The moves from `rank` that lead one step closer to solved, in move order, with
    /// the ranks they lead to.
    fn closer(&self, rank: u64) -> Vec<(usize, u64)> {
        let stepper = self.stepper();
        let mut values = [0u64; MAX_COORDS];
        let values = &mut values[..stepper.radix.len()];
        let want = (self.value(rank) + 2) % 3;
        stepper.values(rank, values);
        (0..stepper.moves)
            .map(|m| (m, stepper.after(values, m)))
            .filter(|&(_, next)| self.value(next) == want)
            .collect()
    }

    /// An optimal solution (search-move indices) of the state ranked `rank`, or `None`
    /// if it is not a position of the puzzle.
    pub fn solve_rank(&self, mut rank: u64) -> Option<Vec<usize>> {
        if !self.reachable(rank) {
            return None;
        }
        let stepper = self.stepper();
        let mut values = [0u64; MAX_COORDS];
        let values = &mut values[..stepper.radix.len()];
        let mut path = Vec::new();
        while rank != stepper.solved {
            let want = (self.value(rank) + 2) % 3;
            stepper.values(rank, values);
            let (m, next) = (0..stepper.moves)
                .map(|m| (m, stepper.after(values, m)))
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
            let rank = rng.below(self.encoder.size);
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
        let space = Space::new(self.stepper());
        let mut found: Vec<u64> = (0..self.encoder.size)
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
