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

use super::coord::{
    arrangements, set_facts, Coord, CoordError, MoveRows, Projection, Reachable, TrackedCache,
    REACHABLE_LIMIT,
};
use super::element::{Element, FlatMoves, FlatState, WILD};
use super::puzzle::{PermPuzzle, Restriction};
use super::reduced::{self, Reduction};
use super::site::{OverBudget, TableSite};
use super::symmetry::Symmetries;
use crate::progress::Progress;
use crate::rng::SplitMix64;
use crate::search::bfs::{mod3_bfs, RankedSpace};
use crate::table::{intern, packed, Table, TableError, TableSpec, TableStore};
use rayon::prelude::*;
use std::borrow::Cow;

/// Value of a rank the BFS never reached (not a position of the puzzle).
const UNREACHABLE: u8 = 3;

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
    exact_projection_with_rows(puzzle, known, tables, Vec::new(), &mut TrackedCache::new())
}

/// [`exact_projection_with`], the enumerated coordinates' move tables taken from `rows`
/// (one per group of `known`, in order) where they fit, and the tracked pieces' from
/// `cache` where made before (a caller that makes the projection twice makes them once).
pub fn exact_projection_with_rows(
    puzzle: &PermPuzzle,
    known: Option<Groups>,
    tables: bool,
    rows: Vec<MoveRows>,
    tracked_cache: &mut TrackedCache,
) -> Result<(Projection, Groups), CoordError> {
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
        let solved = &puzzle.solved.orbits[s];
        let mut size = if fact.moved {
            // Arrangements of the labels (identical pieces counted once).
            let mut labels = solved.perm.clone();
            labels.sort_unstable();
            let runs: Vec<usize> = labels.chunk_by(|a, b| a == b).map(<[u8]>::len).collect();
            arrangements(&runs) >> u32::from(fact.keeps_parity && fact.distinct)
        } else {
            1
        };
        if fact.twisted && !fact.wild {
            let kept = solved.ori.iter().filter(|&&o| o != WILD).count();
            let free = kept - usize::from(fact.keeps_sum && kept == def.size);
            size = size.saturating_mul(
                (def.omod as u128)
                    .checked_pow(free as u32)
                    .unwrap_or(u128::MAX),
            );
        }
        size
    };
    // Sets too big to enumerate get coordinates at least their usual size: when those
    // alone pass the limit, nothing is enumerated (the FTO's start spent 2.5 s on it).
    // A set that passes it on its own is left to its coordinate, whose error names it.
    // The sets enumerated (their legal states listed) rather than ranked.
    let enumerated_set =
        |s: usize| usual_size(s) <= ENUMERATED_SIZE || puzzle.illegal.iter().any(|r| r.set == s);
    let one_too_big = active.iter().any(|&s| usual_size(s) >= 1 << 40);
    if known.is_none() && !one_too_big {
        let unenumerated: u128 = active
            .iter()
            .filter(|&&s| {
                !enumerated_set(s)
                    && !facts[s].partly_wild
                    && !puzzle.readings.iter().any(|r| r.set == s || r.bit == s)
            })
            .fold(1u128, |acc, &s| acc.saturating_mul(usual_size(s)));
        // The enumerated sets reach, together, at least as many states as any one of
        // them: the smallest one's count alone may settle it.
        let smallest = active
            .iter()
            .copied()
            .filter(|&s| usual_size(s) <= ENUMERATED_SIZE)
            .min_by_key(|&s| usual_size(s));
        let least = match smallest {
            Some(s) if unenumerated.saturating_mul(usual_size(s)) >= 1 << 40 => {
                // Counted only as far as it settles it: a few thousand states where
                // the others are as many as the FTO's edges, not all of them.
                let enough = (1u128 << 40).div_ceil(unenumerated.max(1));
                let enough = usize::try_from(enough).unwrap_or(usize::MAX);
                Coord::reachable_count(puzzle, &[s], &facts, enough).map_or(1, |n| n as u128)
            }
            _ => 1,
        };
        if unenumerated.saturating_mul(least) >= 1 << 40 {
            return Err(CoordError(
                "the projection has more than 2^40 states".into(),
            ));
        }
    }
    let groups: Vec<(Vec<usize>, Reachable)> = match known {
        Some(known) => known
            .into_iter()
            .zip(rows.into_iter().map(Some).chain(std::iter::repeat(None)))
            .map(|((sets, keys), rows)| {
                let coord = Coord::reachable_from_keys(puzzle, &sets, &facts, keys, tables, rows)
                    .ok_or_else(|| {
                    CoordError("the coordinate file does not fit the puzzle".into())
                })?;
                Ok((sets, coord))
            })
            .collect::<Result<_, CoordError>>()?,
        None => {
            // A reading parity is enumerated with the set it reads: its changes come from
            // that set's states.
            let mut groups = Vec::new();
            for r in &puzzle.readings {
                let group = vec![r.set, r.bit];
                let coord = Coord::reachable(puzzle, &group, &facts).ok_or_else(|| {
                    CoordError(format!(
                        "set {}: too many states to follow the order of its pieces",
                        puzzle.sets[r.set].name
                    ))
                })?;
                groups.push((group, coord));
            }
            let rest: Vec<usize> = active
                .iter()
                .copied()
                .filter(|&s| !puzzle.readings.iter().any(|r| r.set == s || r.bit == s))
                .collect();
            groups.extend(enumerate_groups(puzzle, &facts, &rest, enumerated_set));
            groups
        }
    };
    let enumerated: Vec<usize> = groups.iter().flat_map(|(g, _)| g.clone()).collect();
    // `Illegal` rules are kept by enumerating their sets' legal states: a set they watch
    // must have been enumerated.
    if let Some(rule) = puzzle.illegal.iter().find(|r| !enumerated.contains(&r.set)) {
        return Err(CoordError(format!(
            "set {} has Illegal rules and more legal states than can be enumerated",
            puzzle.sets[rule.set].name
        )));
    }
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
            if let Some(labels) =
                tracked_labels(&puzzle.solved.orbits[s].perm, &puzzle.solved.orbits[s].ori)
            {
                let omod = if fact.twisted { def.omod as u64 } else { 1 };
                coords.push(Coord::tracked(puzzle, s, &labels, omod, tracked_cache)?);
                continue;
            }
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

/// Sets whose usual coordinates have at most this many values are enumerated.
const ENUMERATED_SIZE: u128 = 1 << 20;

/// Sets small enough to enumerate, smallest first, merged while merging pays (the joint
/// count is below the product: the sets constrain each other).
fn enumerate_groups(
    puzzle: &PermPuzzle,
    facts: &[super::coord::SetFacts],
    active: &[usize],
    enumerated_set: impl Fn(usize) -> bool,
) -> Vec<(Vec<usize>, Reachable)> {
    let mut small: Vec<(usize, Reachable)> = active
        .iter()
        .filter(|&&s| enumerated_set(s))
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
            // Schreier–Sims tells, without enumerating, when the sets are independent.
            if joint_order(puzzle, &sets, facts).is_some_and(|order| order >= product) {
                return None;
            }
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

/// The number of states the sets `sets` reach together, by Schreier–Sims on those sets
/// alone, when that is what an enumeration would count (distinct pieces, no orientation
/// "any"); `None` otherwise.
fn joint_order(
    puzzle: &PermPuzzle,
    sets: &[usize],
    facts: &[super::coord::SetFacts],
) -> Option<u64> {
    if sets
        .iter()
        .any(|&s| !facts[s].distinct || facts[s].wild || facts[s].partly_wild)
    {
        return None;
    }
    let keep = |orbits: &[super::element::Orbit]| -> Vec<super::element::Orbit> {
        sets.iter().map(|&s| orbits[s].clone()).collect()
    };
    let mut part = puzzle.clone();
    part.sets = sets.iter().map(|&s| puzzle.sets[s].clone()).collect();
    part.solved.orbits = keep(&puzzle.solved.orbits);
    for m in &mut part.moves {
        m.element.orbits = keep(&m.element.orbits);
    }
    part.illegal.clear();
    super::group::group_order(&part, 100_000)?.to_u64()
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

/// Most entries of a move table a BFS fills for a coordinate that steps without one
/// (128 MB): the megaminx's pieces tracked by place and twist are stepped by a division,
/// a table read and a sum digit by digit, about a quarter of a second per million steps
/// of its phase tables' builds.
const FILLED_ENTRIES: u64 = 1 << 25;

/// A projection seen as a state space for the BFS. When every coordinate has a plain
/// move table (the usual case, else one is filled for the BFS where it is small enough),
/// a neighbour's rank is a sum of one table entry per coordinate times its place value:
/// no dispatch, no dependent multiplications.
pub(super) struct Space<'a> {
    projection: &'a Projection,
    /// Per coordinate: its move table and place value, if all have plain tables.
    plain: Option<Vec<(Cow<'a, [u32]>, u64)>>,
}

impl<'a> Space<'a> {
    /// The space of `projection`.
    pub(super) fn new(projection: &'a Projection) -> Self {
        let moves = projection.moves;
        // Filled only if every coordinate then has one (else each neighbour is stepped).
        let fillable = projection
            .coords
            .iter()
            .zip(&projection.radix)
            .all(|(coord, &radix)| coord.move_table().is_some() || fits_filled(radix, moves));
        let tables: Option<Vec<Cow<'a, [u32]>>> = fillable.then(|| {
            projection
                .coords
                .iter()
                .zip(&projection.radix)
                .map(|(coord, &radix)| match coord.move_table() {
                    Some(table) => Cow::Borrowed(table),
                    None => Cow::Owned(coord.stepped_move_table(radix, moves)),
                })
                .collect()
        });
        let plain = tables.map(|tables| {
            let mut weight = 1u64;
            let mut plain: Vec<(Cow<'a, [u32]>, u64)> = tables
                .into_iter()
                .zip(&projection.radix)
                .rev()
                .map(|(table, &radix)| {
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
                for ((row, (table, _)), &v) in rows.iter_mut().zip(plain).zip(values.iter()) {
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

/// Whether a coordinate of `radix` values gets a move table filled for a BFS.
fn fits_filled(radix: u64, moves: usize) -> bool {
    radix
        .checked_mul(moves as u64)
        .is_some_and(|entries| entries <= FILLED_ENTRIES)
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

/// Most moves a walk by [`Walker`] steps through (more: walks by states).
const MAX_WALK_MOVES: usize = 64;

/// Most values a group of coordinates fused for a walk takes: its move table (4 bytes a
/// value and move) then stays in the second-level cache.
const FUSED_VALUES: u64 = 1 << 13;

/// Move-table entries beyond which a walk asks for a table's next rows ahead (16 K
/// entries, 64 KB: the nearest cache).
const FAR_ROWS: usize = 1 << 14;

/// A plain table's numbering for walks: its coordinates, neighbours in the numbering's
/// order fused into groups of at most [`FUSED_VALUES`] values (a coordinate bigger than
/// that stays alone, with its own move table), each group with one move table. A
/// neighbour's rank is then a sum of one entry per group: the pyraminx's nine
/// coordinates (eight of three values) are two groups.
pub(super) struct Walker {
    projection: Projection,
    groups: Vec<FusedCoord>,
    /// The puzzle's moves and solved state made flat, for the check of each walk's
    /// scramble on the states.
    check: FlatMoves,
    solved: FlatState,
}

/// A group of a [`Walker`]: values `0..radix`, its place value in the rank, and its move
/// table (`table[value * moves + m]`) when it fuses several coordinates (else coordinate
/// `first`'s is used).
struct FusedCoord {
    fused: Option<Vec<u32>>,
    first: usize,
    radix: u64,
    weight: u64,
}

impl Walker {
    /// The walker of `projection` (a numbering of `puzzle`); `None` when a coordinate has
    /// no plain move table or the moves or slots are too many (walks then go by states).
    fn new(projection: Projection, puzzle: &PermPuzzle) -> Option<Self> {
        let check = FlatMoves::new(&puzzle.sets, puzzle.moves.iter().map(|m| &m.element))?;
        let mut solved = FlatState::default();
        check.flatten(&puzzle.solved, &mut solved);
        let moves = projection.moves;
        if moves > MAX_WALK_MOVES {
            return None;
        }
        let tables: Vec<&[u32]> = projection
            .coords
            .iter()
            .map(Coord::move_table)
            .collect::<Option<_>>()?;
        // Consecutive coordinates, in the numbering's order, while the product stays small.
        let mut spans: Vec<std::ops::Range<usize>> = Vec::new();
        let mut product = u64::MAX;
        for (i, &radix) in projection.radix.iter().enumerate() {
            match spans.last_mut() {
                Some(span) if product.saturating_mul(radix) <= FUSED_VALUES => {
                    span.end = i + 1;
                    product *= radix;
                }
                _ => {
                    spans.push(i..i + 1);
                    product = radix;
                }
            }
        }
        let mut weight = 1u64;
        let mut groups: Vec<FusedCoord> = spans
            .iter()
            .rev()
            .map(|span| {
                let radices = &projection.radix[span.clone()];
                let radix: u64 = radices.iter().product();
                let fused = (span.len() > 1).then(|| {
                    let mut table = vec![0u32; radix as usize * moves];
                    let mut parts = vec![0u64; span.len()];
                    for value in 0..radix {
                        let mut left = value;
                        for (part, &r) in parts.iter_mut().zip(radices).rev() {
                            *part = left % r;
                            left /= r;
                        }
                        for m in 0..moves {
                            table[value as usize * moves + m] =
                                parts.iter().zip(radices).zip(&tables[span.clone()]).fold(
                                    0u64,
                                    |acc, ((&part, &r), t)| {
                                        acc * r + t[part as usize * moves + m] as u64
                                    },
                                ) as u32;
                        }
                    }
                    table
                });
                let group = FusedCoord {
                    fused,
                    first: span.start,
                    radix,
                    weight,
                };
                weight *= radix;
                group
            })
            .collect();
        groups.reverse();
        drop(tables);
        Some(Self {
            projection,
            groups,
            check,
            solved,
        })
    }

    /// Per group, its move table (`None` if a coordinate lost its table, which
    /// [`Walker::new`] checked).
    fn tables(&self) -> Option<[&[u32]; MAX_COORDS]> {
        let mut tables = [&[][..]; MAX_COORDS];
        for (table, group) in tables.iter_mut().zip(&self.groups) {
            *table = match &group.fused {
                Some(fused) => fused,
                None => self.projection.coords.get(group.first)?.move_table()?,
            };
        }
        Some(tables)
    }
}

/// What the exact table of `puzzle` is: name (with the definition's hash), size, and the
/// command that rebuilds it.
pub fn exact_spec(puzzle: &PermPuzzle, projection: &Projection, source: &str) -> TableSpec {
    exact_spec_named(
        puzzle,
        source,
        Layout::plain(projection.size, projection.moves),
    )
}

/// The spec of a table beside a phased plan's own (a matching's, a straddle table's): named
/// `<puzzle prefix>-<what>-<hash>`, the hash (of the puzzle and what the table follows)
/// its first parameter.
#[allow(clippy::too_many_arguments)]
pub fn keyed_spec(
    puzzle: &PermPuzzle,
    source: &str,
    what: &str,
    hash: u64,
    kind: &'static str,
    params: Vec<(String, u64)>,
    entries: u64,
    bits: u32,
) -> TableSpec {
    phase_table_spec(
        format!("{}-{what}-{hash:016x}", table_prefix(puzzle)),
        source,
        kind,
        std::iter::once(("definition".into(), hash))
            .chain(params)
            .collect(),
        entries,
        bits,
    )
}

/// The spec of a phase's table of the puzzle defined in `source` (built by `cubedb-gen
/// puzzle SOURCE`): what every phase table's spec shares besides name and parameters.
pub fn phase_table_spec(
    name: String,
    source: &str,
    kind: &'static str,
    params: Vec<(String, u64)>,
    entries: u64,
    bits: u32,
) -> TableSpec {
    TableSpec {
        name: intern(name),
        group: intern(format!("puzzle {source}")),
        puzzle: "perm",
        kind,
        params,
        entries,
        bits_per_entry: bits,
    }
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

/// What an exact table holds: its entries, moves, and (reduced by symmetry) how many
/// symmetries, which coordinate was reduced and into how many classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Layout {
    entries: u64,
    moves: u64,
    /// `(symmetries, reduced coordinate, classes)`.
    symmetry: Option<(u64, u64, u64)>,
}

impl Layout {
    fn plain(entries: u64, moves: usize) -> Self {
        Self {
            entries,
            moves: moves as u64,
            symmetry: None,
        }
    }

    fn reduced(reduction: &Reduction, moves: usize) -> Self {
        Self {
            entries: reduction.entries(),
            moves: moves as u64,
            symmetry: Some((
                reduction.symmetries.len() as u64,
                reduction.reduced as u64,
                reduction.reps.len() as u64,
            )),
        }
    }

    /// The layout a table header records (`symmetric`: a reduced table's name).
    fn from_header(header: &crate::table::TableHeader, symmetric: bool) -> Self {
        let param = |name: &str| {
            header
                .params
                .iter()
                .find(|(k, _)| k == name)
                .map_or(0, |p| p.1)
        };
        Self {
            entries: header.entries,
            moves: param("moves"),
            symmetry: symmetric.then(|| (param("symmetries"), param("reduced"), param("classes"))),
        }
    }
}

/// The name of an exact table: a reduced table's ends in `-sym`.
fn exact_name(puzzle: &PermPuzzle, symmetric: bool) -> String {
    format!(
        "{}{}",
        table_prefix(puzzle),
        if symmetric { "-sym" } else { "" }
    )
}

fn exact_spec_named(puzzle: &PermPuzzle, source: &str, layout: Layout) -> TableSpec {
    // The definition's hash, so that a table copied from another puzzle is named as the
    // wrong table, not blamed on its intact side files.
    let mut params = vec![
        ("definition".to_string(), puzzle.hash),
        ("states".to_string(), layout.entries),
        ("moves".to_string(), layout.moves),
    ];
    if let Some((symmetries, reduced, classes)) = layout.symmetry {
        params.push(("symmetries".into(), symmetries));
        params.push(("reduced".into(), reduced));
        params.push(("classes".into(), classes));
    }
    TableSpec {
        name: intern(exact_name(puzzle, layout.symmetry.is_some())),
        group: intern(format!("puzzle {source} --metric {}", puzzle.metric.name())),
        puzzle: "perm",
        kind: if layout.symmetry.is_some() {
            "depth-mod3-sym"
        } else {
            "depth-mod3"
        },
        params,
        entries: layout.entries,
        bits_per_entry: 2,
    }
}

/// A side file of an exact table (`suffix`: `coords`, the enumerated sets; `classes`, a
/// reduced table's class list), of `bytes` bytes.
fn side_spec(table: &TableSpec, suffix: &str, bytes: u64) -> TableSpec {
    TableSpec {
        name: intern(format!("{}-{suffix}", table.name)),
        group: table.group,
        puzzle: "perm",
        kind: if suffix == "coords" {
            "coordinates"
        } else {
            "classes"
        },
        params: table.params.clone(),
        entries: bytes,
        bits_per_entry: 8,
    }
}

/// Reads a side file of `table` (its length from its own header).
fn read_side(store: &TableStore, table: &TableSpec, suffix: &str) -> Result<Table, TableError> {
    let path = store.dir().join(format!("{}-{suffix}.cdb", table.name));
    let (header, _) = crate::table::read_header(&path, table.group)?;
    store.open(&side_spec(table, suffix, header.entries))
}

/// A reduced table's class file: its symmetries, then its classes' smallest values.
fn classes_to_bytes(reduction: &Reduction) -> Vec<u8> {
    let mut out = reduction.symmetries.to_bytes();
    out.extend(reduction.reps.iter().flat_map(|r| r.to_le_bytes()));
    out
}

/// Writes a side file of `table` (atomically, checksummed, like every table).
fn write_side(
    store: &TableStore,
    table: &TableSpec,
    suffix: &str,
    bytes: &[u8],
) -> Result<(), TableError> {
    store.write(
        &side_spec(table, suffix, bytes.len() as u64),
        bytes,
        Vec::new(),
    )
}

fn reps_from_bytes(bytes: &[u8]) -> Option<Vec<u32>> {
    let reps: Vec<u32> = bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let sorted = reps.windows(2).all(|w| w[0] < w[1]);
    (bytes.len().is_multiple_of(4) && sorted).then_some(reps)
}

/// An exact table found in `store` with its side files: the encoder, the reduction (for
/// a reduced table) and the spec. `None` when none is there (a reduced table is looked
/// for first); a damaged side file is an error.
fn open_existing(
    puzzle: &PermPuzzle,
    ranked: &PermPuzzle,
    store: &TableStore,
    source: &str,
) -> Result<Option<(Projection, Option<Reduction>, TableSpec)>, ExactError> {
    for symmetric in [true, false] {
        let name = exact_name(puzzle, symmetric);
        let table_path = store.dir().join(format!("{name}.cdb"));
        let coords_path = store.dir().join(format!("{name}-coords.cdb"));
        if !table_path.is_file() || !coords_path.is_file() {
            continue;
        }
        let group = exact_spec_named(puzzle, source, Layout::plain(0, 0)).group;
        let (header, _) = crate::table::read_header(&table_path, group)?;
        let layout = Layout::from_header(&header, symmetric);
        let spec = exact_spec_named(puzzle, source, layout);
        // A table made for another definition (copied over this one) is named as such
        // by the table layer before its side files are read.
        if !header
            .params
            .iter()
            .any(|(key, value)| key == "definition" && *value == puzzle.hash)
        {
            store.open(&spec)?;
        }
        let damaged = |file: &std::path::Path, why: &str| {
            ExactError::Unsupported(CoordError(format!("{}: {why}", file.display())))
        };
        let coords = read_side(store, &spec, "coords")?;
        let groups = groups_from_bytes(coords.payload())
            .ok_or_else(|| damaged(&coords_path, "not a list of coordinates"))?;
        let (encoder, _) = exact_projection_with(ranked, Some(groups), false)
            .map_err(|e| damaged(&coords_path, &e.0))?;
        let reduction = match layout.symmetry {
            None => None,
            // A small table reduced before small tables stayed plain: built again plain.
            Some(_) if reduced::stays_plain(encoder.size) => continue,
            Some((symmetries, reduced, classes)) => {
                let classes_file = read_side(store, &spec, "classes")?;
                let not_classes =
                    || damaged(&table_path, "its class file does not fit the definition");
                let (syms, rest) = Symmetries::from_bytes(classes_file.payload(), ranked)
                    .filter(|(s, _)| s.len() as u64 == symmetries)
                    .ok_or_else(not_classes)?;
                let reps = reps_from_bytes(rest)
                    .filter(|reps| reps.len() as u64 == classes)
                    .ok_or_else(not_classes)?;
                let index = reduced::reduced_coordinate(&encoder)
                    .filter(|&i| i as u64 == reduced)
                    .ok_or_else(not_classes)?;
                Some(Reduction::with_reps(&encoder, syms, index, reps))
            }
        };
        let entries = reduction.as_ref().map_or(encoder.size, Reduction::entries);
        if entries != header.entries {
            return Err(damaged(
                &coords_path,
                "its coordinates do not give the table's size",
            ));
        }
        return Ok(Some((encoder, reduction, spec)));
    }
    Ok(None)
}

/// Why a puzzle has no exact table, or a state no answer.
#[derive(Debug, thiserror::Error)]
pub enum ExactError {
    /// The state space cannot be ranked (too big, or unsupported features).
    #[error("no exact table for this puzzle: {0}")]
    Unsupported(CoordError),
    /// The table would not fit in the memory allowed.
    #[error("the exact table needs {needed_mb:.0} MB to build, over the {budget_mb} MB allowed (--memory)")]
    TooBig {
        /// Memory the build needs.
        needed_mb: f64,
        /// The budget.
        budget_mb: u64,
    },
    /// No pattern databases can be made for the puzzle (its sets are too big or move in
    /// ways the coordinates do not follow).
    #[error("no pattern databases for this puzzle: {0}")]
    NoPatternDatabases(CoordError),
    /// The pattern databases would not fit in the memory allowed.
    #[error(
        "the pattern databases need {needed_mb:.0} MB, over the {budget_mb} MB allowed (--memory)"
    )]
    PdbsTooBig {
        /// Memory they need.
        needed_mb: f64,
        /// The budget.
        budget_mb: u64,
    },
    /// A table a plan's phases need would take more memory to build than allowed.
    #[error(transparent)]
    BuildTooBig(#[from] OverBudget),
    /// `--engine phased` without a plan to follow.
    #[error("--engine phased needs a plan, and {definition} has none (a file with the extension .plan beside it, or --plan PLAN)")]
    NoPlan {
        /// The definition, as the tables' rebuild hint names it.
        definition: String,
    },
    /// A table file problem.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The stabilizer chain cannot take the definition, or its file of sequences is
    /// unusable (the chain's error, in words).
    #[error("--engine chain: {0}")]
    Chain(String),
}

// Not `#[from]`: that would make the reason a source as well, and messages printed with
// their chain would say it twice.
impl From<CoordError> for ExactError {
    fn from(e: CoordError) -> Self {
        ExactError::Unsupported(e)
    }
}

impl ExactError {
    /// The error with where in a plan the table was asked for (`at`, "phase pairs (line
    /// 58)") before the table's name; other errors as they are.
    pub fn asked_at(self, at: impl FnOnce() -> String) -> Self {
        match self {
            ExactError::BuildTooBig(over) => ExactError::BuildTooBig(OverBudget {
                table: format!("{}: {}", at(), over.table),
                ..over
            }),
            other => other,
        }
    }
}

/// Bytes a BFS over `size` ranks needs at its peak: the table itself (2 bits a rank).
pub fn build_bytes(size: u64) -> u64 {
    size.div_ceil(4)
}

/// An exact distance table, opened (mapped) and ready to answer.
pub struct ExactTable {
    /// Numbers states (no move tables: walks go state by state).
    encoder: Projection,
    /// For a table reduced by symmetry: how entries stand for classes of states.
    reduction: Option<Reduction>,
    /// Slots no search move touches, dropped before ranking (states arrive in the
    /// given puzzle's shape).
    restriction: Restriction,
    /// The puzzle ranked (without untouched slots).
    ranked: PermPuzzle,
    /// The solved state's entry.
    solved: u64,
    table: Table,
    /// Number of states at each distance.
    pub histogram: Vec<u64>,
    /// For each move, the index of its inverse move.
    inverse: Vec<usize>,
    /// A plain table's numbering with move tables, built on the first random scramble:
    /// its walks step entry to entry without building states (`None`: reduced, or the
    /// numbering came out otherwise).
    stepper: std::sync::OnceLock<Option<Walker>>,
}

impl ExactTable {
    /// Opens the table of `puzzle` from `store`, building it first when missing (BFS on
    /// every core, with progress; reduced by the puzzle's symmetries where they apply).
    /// `source` names the definition file in messages; `budget_mb` bounds the memory a
    /// build may take.
    pub fn load_or_build(
        puzzle: &PermPuzzle,
        store: &TableStore,
        source: &str,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ExactError> {
        Self::load_or_rebuild(puzzle, &TableSite::new(store, source, budget_mb, progress))
    }

    /// [`ExactTable::load_or_build`], building the table again when `rebuild` even if it
    /// is there: written beside the old one and renamed over it, so that readers never
    /// find it missing, and two builders at once leave one whole table.
    pub fn load_or_rebuild(puzzle: &PermPuzzle, site: &TableSite) -> Result<Self, ExactError> {
        let (store, source, progress) = (site.store, site.source, site.progress);
        let (ranked, restriction) = puzzle.searched();
        // Found only when a table is built (an opened one keeps them in its class file;
        // the search is wasted on a puzzle too big for any table).
        let found = std::cell::OnceCell::new();
        let symmetries = || found.get_or_init(|| Symmetries::find(&ranked));
        // With the table and its side files present, the enumerations are read back
        // instead of redone: a second process starts in milliseconds.
        let existing = if site.rebuild {
            None
        } else {
            open_existing(puzzle, &ranked, store, source)?
        };
        let (encoder, reduction, spec) = match existing {
            Some(opened) => opened,
            None => build(
                puzzle,
                &ranked,
                &symmetries,
                store,
                source,
                site.budget_mb,
                progress,
            )?,
        };
        // Mapped from the page cache, not copied (see `table::Resident`).
        let table = store.open(&spec)?;
        let histogram = table.header().histogram.clone();
        let inverse = inverse_moves(puzzle);
        let mut opened = Self {
            encoder,
            reduction,
            restriction,
            ranked,
            solved: 0,
            table,
            histogram,
            inverse,
            stepper: std::sync::OnceLock::new(),
        };
        opened.solved = opened
            .entry(&opened.ranked.solved)
            .ok_or_else(|| CoordError("the solved state has no entry".into()))?;
        Ok(opened)
    }

    /// The entry of a state of the ranked puzzle (`None`: not numbered).
    fn entry(&self, inner: &Element) -> Option<u64> {
        match &self.reduction {
            Some(reduction) => reduction.entry(&self.encoder, &self.ranked, inner),
            None => self.encoder.encode(inner),
        }
    }

    /// Optimal solutions of `state` in move order, handed to `visit` until it returns
    /// false; `None` when it is not a position of the puzzle (with the moves searched).
    /// Walks states: no move tables are needed.
    pub fn each_solution_of(
        &self,
        state: &Element,
        mut visit: impl FnMut(&[usize]) -> bool,
    ) -> Option<()> {
        let inner = self.restriction.apply(state)?;
        self.each_inner_solution(&inner, &mut visit)
    }

    fn each_inner_solution(
        &self,
        inner: &Element,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> Option<()> {
        let rank = self.entry(inner)?;
        if !self.reachable(rank) {
            return None;
        }
        let mut path = Vec::new();
        self.descend_states(inner, rank, &mut path, visit);
        Some(())
    }

    /// Every walk from `state` (entry `rank`) down to solved, one step closer each move,
    /// handed to `visit` until it returns false (false then). Iterative: a walk may be
    /// thousands of moves long.
    fn descend_states(
        &self,
        state: &Element,
        rank: u64,
        path: &mut Vec<usize>,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        // Per step: its entry and the next move to try from it; its state is
        // `states[step]`. Each move tried is worked out in `tried`; a step taken swaps it
        // into the step's slot, so a walk allocates a state per level once, not a state
        // a move tried or a step taken.
        let mut stack: Vec<(u64, usize)> = vec![(rank, 0)];
        let mut states: Vec<Element> = vec![state.clone()];
        let mut tried = state.clone();
        let base = path.len();
        while let Some(&(here_rank, next_move)) = stack.last() {
            let level = stack.len() - 1;
            if here_rank == self.solved {
                // Entries cover every piece and twist the moves change: solved.
                debug_assert!(self.ranked.is_solved(&states[level]));
                if !visit(path) {
                    return false;
                }
                stack.pop();
                path.truncate(base + stack.len().saturating_sub(1));
                continue;
            }
            // No walk is longer than the deepest layer (a damaged table could loop).
            if next_move >= self.ranked.moves.len() || path.len() - base >= self.histogram.len() {
                stack.pop();
                path.truncate(base + stack.len().saturating_sub(1));
                continue;
            }
            let m = next_move;
            stack[level].1 += 1;
            let want = (self.value(here_rank) + 2) % 3;
            states[level].then_into(&self.ranked.moves[m].element, &self.ranked.sets, &mut tried);
            let Some(next_rank) = self.entry(&tried) else {
                continue;
            };
            if self.value(next_rank) != want {
                continue;
            }
            path.push(m);
            if states.len() == level + 1 {
                states.push(tried.clone());
            } else {
                std::mem::swap(&mut states[level + 1], &mut tried);
            }
            stack.push((next_rank, 0));
        }
        true
    }

    /// One optimal solution of a state of the ranked puzzle.
    fn inner_solution(&self, inner: &Element) -> Option<Vec<usize>> {
        let mut found = None;
        self.each_inner_solution(inner, &mut |path: &[usize]| {
            found = Some(path.to_vec());
            false
        })?;
        found
    }

    /// Where the table file is.
    pub fn path(&self) -> &std::path::Path {
        self.table.path()
    }

    /// Number of states (positions reachable from solved).
    pub fn states(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// The symmetries the table is reduced by (1: not reduced).
    pub fn symmetries(&self) -> usize {
        self.reduction.as_ref().map_or(1, |r| r.symmetries.len())
    }

    /// Number of entries (states, or classes of them in a reduced table).
    pub fn entries(&self) -> u64 {
        self.reduction
            .as_ref()
            .map_or(self.encoder.size, Reduction::entries)
    }

    #[inline]
    fn value(&self, rank: u64) -> u8 {
        packed::Crumbs::new(self.table.payload()).get(rank as usize)
    }

    /// Whether the entry is a position of the puzzle (reachable from solved).
    fn reachable(&self, rank: u64) -> bool {
        self.value(rank) != UNREACHABLE
    }

    /// The shortest move sequence reaching a state of the ranked puzzle from solved (its
    /// optimal solution undone).
    /// Checked: the scramble applied to solved must give the state (`None` otherwise).
    fn scramble_to(&self, inner: &Element) -> Option<Vec<usize>> {
        let solution = self.inner_solution(inner)?;
        let scramble: Vec<usize> = solution.iter().rev().map(|&m| self.inverse[m]).collect();
        (self.ranked.apply_path(&self.ranked.solved, &scramble) == *inner).then_some(scramble)
    }

    /// The numbering with move tables, for a plain table whose numbering it repeats.
    fn stepper(&self) -> Option<&Walker> {
        self.stepper
            .get_or_init(|| {
                if self.reduction.is_some() {
                    return None;
                }
                let stepper = exact_projection(&self.ranked, true).ok()?;
                let same = stepper.size == self.encoder.size
                    && stepper.encode(&self.ranked.solved) == Some(self.solved);
                same.then(|| Walker::new(stepper, &self.ranked)).flatten()
            })
            .as_ref()
    }

    /// An optimal solution of entry `rank` of a plain table, walked by move tables.
    /// Every neighbour's entry is asked for before any is read, so that the reads
    /// overlap; the first one step closer, in move order, is taken.
    fn rank_walk(&self, walker: &Walker, mut rank: u64) -> Option<Vec<usize>> {
        let moves = walker.projection.moves;
        let groups = &walker.groups;
        let tables = walker.tables()?;
        let tables = &tables[..groups.len()];
        // The walk carries each group's value, so a step reads one row per group and
        // divides nothing.
        let mut values = [0u32; MAX_COORDS];
        let values = &mut values[..groups.len()];
        let mut left = rank;
        for (value, group) in values.iter_mut().zip(groups).rev() {
            *value = (left % group.radix) as u32;
            left /= group.radix;
        }
        let mut next = [0u64; MAX_WALK_MOVES];
        let next = &mut next[..moves];
        let mut path = Vec::with_capacity(self.histogram.len());
        let payload = self.table.payload();
        let mut want = (self.value(rank) + 2) % 3;
        while rank != self.solved {
            // No walk is longer than the deepest layer (a damaged table could loop).
            if path.len() >= self.histogram.len() {
                return None;
            }
            next.fill(0);
            for ((group, table), &value) in groups.iter().zip(tables).zip(values.iter()) {
                let row = &table[value as usize * moves..][..moves];
                for (n, &to) in next.iter_mut().zip(row) {
                    *n += to as u64 * group.weight;
                }
            }
            for &n in next.iter() {
                crate::table::prefetch(payload, (n / 4) as usize);
            }
            // The rows the next step will read, of the tables too big for the nearest
            // cache, are asked for with the entries.
            for (table, &value) in tables.iter().zip(values.iter()) {
                if table.len() > FAR_ROWS {
                    for &to in &table[value as usize * moves..][..moves] {
                        crate::table::prefetch(table, to as usize * moves);
                    }
                }
            }
            let m = next.iter().position(|&n| self.value(n) == want)?;
            for (table, value) in tables.iter().zip(values.iter_mut()) {
                *value = table[*value as usize * moves + m];
            }
            path.push(m);
            rank = next[m];
            want = (want + 2) % 3;
        }
        Some(path)
    }

    /// Whether `scramble` takes the solved state to the state of the coordinate values
    /// `values`: the state decoded, the scramble applied flat. The states are worked in
    /// memory kept per thread; made fresh for every scramble, as whole states, they took
    /// 40% of a pyraminx scramble's time.
    fn reaches(&self, walker: &Walker, values: &[u64], scramble: &[usize]) -> bool {
        thread_local! {
            static STATES: std::cell::RefCell<(Element, [FlatState; 3])> =
                std::cell::RefCell::new((Element { orbits: Vec::new() }, Default::default()));
        }
        STATES.with_borrow_mut(|(decoded, [drawn, reached, spare])| {
            if !self
                .encoder
                .decode_into(values, &self.ranked.solved, decoded)
            {
                return false;
            }
            walker.check.flatten(decoded, drawn);
            reached.clone_from(&walker.solved);
            walker.check.apply_path(reached, scramble, spare) && reached == drawn
        })
    }

    /// A shortest scramble of a uniformly random position: every coordinate drawn at
    /// random until the state they make is a position (`None`: none found, or a
    /// scramble that does not reach its position, which would be a bug).
    pub fn random_scramble(&self, rng: &mut SplitMix64) -> Option<Vec<usize>> {
        let mut values = vec![0u64; self.encoder.radix.len()];
        let stepper = self.stepper();
        for _ in 0..1_000_000 {
            for (v, &radix) in values.iter_mut().zip(&self.encoder.radix) {
                *v = rng.below(radix);
            }
            if let Some(stepper) = stepper {
                // A plain table is numbered by the values themselves: a draw that is not a
                // position is passed over without making its state.
                let rank = values
                    .iter()
                    .zip(&self.encoder.radix)
                    .fold(0, |acc, (&v, &radix)| acc * radix + v);
                if !self.reachable(rank) {
                    continue;
                }
                // Entry to entry by the move tables: the walk the states would take (the
                // first move one step closer, in move order), checked on the state (so a
                // numbering other than the values' would be caught there).
                let solution = self.rank_walk(stepper, rank)?;
                let scramble: Vec<usize> =
                    solution.iter().rev().map(|&m| self.inverse[m]).collect();
                return self
                    .reaches(stepper, &values, &scramble)
                    .then_some(scramble);
            }
            let state = self.encoder.decode(&values, &self.ranked.solved)?;
            if self.entry(&state).is_some_and(|rank| self.reachable(rank)) {
                return self.scramble_to(&state);
            }
        }
        None
    }

    /// Shortest scrambles of positions at the greatest distance, at most `limit` of
    /// them, all of them when there are fewer (as many as the histogram's last count).
    ///
    /// An antipode's entry holds the deepest distance modulo 3 and has no neighbour one
    /// step further, so entries are scanned for that (on every core, a block of ranks at
    /// a time); an entry of a reduced table stands for its class, whose states are its
    /// conjugates; each state is then measured by a walk, which also drops the rare
    /// dead ends three or six steps closer that pass the test.
    pub fn antipodes(&self, limit: usize) -> Result<Vec<Vec<usize>>, ExactError> {
        let deepest = self.histogram.len().saturating_sub(1);
        let total = self.histogram.last().copied().unwrap_or(0);
        let want = (deepest % 3) as u8;
        let further = (want + 1) % 3;
        let stepper = exact_projection(&self.ranked, true)?;
        let unsupported = || CoordError("the reduced table's coordinates changed".into());
        // A neighbour test over entries, plain or reduced.
        let reduced_space;
        let plain_space;
        let has_further: Box<dyn Fn(u64) -> bool + Sync> = match &self.reduction {
            None => {
                plain_space = Space::new(&stepper);
                Box::new(|rank| plain_space.any_neighbour(rank, |n| self.value(n) == further))
            }
            Some(reduction) => {
                let syms = reduction.symmetries.clone();
                let (again, map) =
                    Reduction::classify(&self.ranked, &stepper, syms, reduction.reduced)
                        .ok_or_else(unsupported)?;
                reduced_space = (again, map);
                let space = reduced_space
                    .0
                    .space(&self.ranked, &stepper, &reduced_space.1)
                    .ok_or_else(unsupported)?;
                Box::new(move |rank| space.any_neighbour(rank, |n| self.value(n) == further))
            }
        };
        let entries = self.entries();
        let mut found: Vec<Vec<usize>> = Vec::new();
        let mut seen: std::collections::HashSet<Element> = std::collections::HashSet::new();
        let mut values = vec![0u64; self.encoder.radix.len()];
        const BLOCK: u64 = 1 << 22;
        let mut start = 0u64;
        while start < entries && found.len() < limit && (found.len() as u64) < total {
            let end = (start + BLOCK).min(entries);
            let candidates: Vec<u64> = (start..end)
                .into_par_iter()
                .filter(|&rank| self.value(rank) == want && !has_further(rank))
                .collect();
            start = end;
            for rank in candidates {
                let state = match &self.reduction {
                    None => {
                        self.encoder.values(rank, &mut values);
                        self.encoder.decode(&values, &self.ranked.solved)
                    }
                    Some(reduction) => {
                        reduction.values(&self.encoder, rank, &mut values);
                        self.encoder.decode(&values, &self.ranked.solved)
                    }
                };
                let Some(state) = state else { continue };
                let class: Vec<Element> = match &self.reduction {
                    None => vec![state],
                    Some(reduction) => {
                        let syms = &reduction.symmetries;
                        syms.elements
                            .iter()
                            .zip(&syms.inverses)
                            .map(|(h, h_inverse)| {
                                super::symmetry::conjugate(&state, h, h_inverse, &self.ranked.sets)
                            })
                            .collect()
                    }
                };
                for member in class {
                    if found.len() >= limit || !seen.insert(member.clone()) {
                        continue;
                    }
                    if let Some(scramble) = self
                        .scramble_to(&member)
                        .filter(|scramble| scramble.len() == deepest)
                    {
                        found.push(scramble);
                    }
                }
            }
        }
        Ok(found)
    }
}

/// Builds the exact table of `puzzle` into `store` (reduced by symmetry where that
/// applies), with its side files; the encoder, reduction and spec of what was written.
fn build<'a>(
    puzzle: &PermPuzzle,
    ranked: &PermPuzzle,
    found: &impl Fn() -> &'a Symmetries,
    store: &TableStore,
    source: &str,
    budget_mb: u64,
    progress: &Progress,
) -> Result<(Projection, Option<Reduction>, TableSpec), ExactError> {
    let (encoder, groups) = exact_projection_with(ranked, None, false)?;
    let plan = reduced::plan(ranked, &encoder, found());
    let estimate = encoder.size / plan.as_ref().map_or(1, |(s, _)| s.len() as u64);
    let needed = build_bytes(estimate);
    if needed > budget_mb.saturating_mul(1 << 20) {
        return Err(ExactError::TooBig {
            needed_mb: needed as f64 / (1 << 20) as f64,
            budget_mb,
        });
    }
    store.check_writable()?;
    let started = std::time::Instant::now();
    let (projection, groups) = exact_projection_with(ranked, Some(groups), true)?;
    let note = |entries: u64, how: String| {
        progress.note(format!(
            "building the exact table of {} ({entries} entries{how}, {:.1} MB) in {} ...",
            puzzle.name,
            build_bytes(entries) as f64 / 1e6,
            store.dir().display()
        ))
    };
    let (result, reduction, spec) = match plan
        .and_then(|(syms, reduced)| Reduction::classify(ranked, &projection, syms, reduced))
    {
        Some((reduction, map)) => {
            let space = reduction
                .space(ranked, &projection, &map)
                .ok_or_else(|| CoordError("a coordinate has no conjugate table".into()))?;
            let solved = reduction
                .entry(&projection, ranked, &ranked.solved)
                .ok_or_else(|| CoordError("the solved state has no entry".into()))?;
            let spec = exact_spec_named(
                puzzle,
                source,
                Layout::reduced(&reduction, projection.moves),
            );
            note(
                reduction.entries(),
                format!(", {} symmetries", reduction.symmetries.len()),
            );
            let result = mod3_bfs(&space, &[solved], progress, "BFS depth");
            write_side(store, &spec, "classes", &classes_to_bytes(&reduction))?;
            // The reduction holds no coordinates: it serves the encoder as it is.
            drop(space);
            (result, Some(reduction), spec)
        }
        None => {
            let spec = exact_spec(puzzle, &projection, source);
            note(projection.size, String::new());
            let result = mod3_bfs(
                &Space::new(&projection),
                &[projection.solved],
                progress,
                "BFS depth",
            );
            (result, None, spec)
        }
    };
    write_side(store, &spec, "coords", &groups_to_bytes(&groups))?;
    store.write(&spec, &result.crumbs, result.histogram)?;
    progress.note(format!(
        "exact table built in {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    Ok((encoder, reduction, spec))
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

/// The labels of the pieces a partly wild set follows, in slot order, when they are
/// distinct pieces among one blank class: every slot of orientation `?` holds the blank
/// label, every other slot a label of its own (a phase target that places a few pieces
/// of a big set, the megaminx's, with their twists). `None` otherwise.
fn tracked_labels(perm: &[u8], ori: &[u8]) -> Option<Vec<u8>> {
    let mut blank = None;
    let mut labels = Vec::new();
    for (&label, &o) in perm.iter().zip(ori) {
        if o == WILD {
            if *blank.get_or_insert(label) != label {
                return None;
            }
        } else {
            labels.push(label);
        }
    }
    let blank = blank?;
    let mut seen = labels.clone();
    seen.sort_unstable();
    seen.dedup();
    (seen.len() == labels.len() && !labels.contains(&blank)).then_some(labels)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{Definition, PuzzleMetric};

    /// The full BFS's distance of `state` from its mod-3 crumbs: steps down to solved.
    fn full_distance(projection: &Projection, crumbs: &[u8], state: &Element) -> usize {
        let value = |rank: u64| packed::Crumbs::new(crumbs).get(rank as usize);
        let mut rank = projection.encode(state).expect("numbered");
        let mut values = vec![0u64; projection.radix.len()];
        let mut steps = 0;
        while rank != projection.solved {
            projection.values(rank, &mut values);
            let want = (value(rank) + 2) % 3;
            rank = (0..projection.moves)
                .map(|m| projection.after(&values, m))
                .find(|&n| value(n) == want)
                .expect("a step down");
            steps += 1;
        }
        steps
    }

    /// A target that places one megaminx corner and two edges, twists included, the rest
    /// any piece in any orientation (what a phase target that fixes a few pieces asks
    /// for): the sets are too big to enumerate, so their coordinates follow the placed
    /// pieces; every state a BFS of the pieces themselves reaches is numbered, each move
    /// numbered as the pieces move, and the count is the BFS's. The BFS's space, its
    /// move tables filled by stepping, gives every state the same neighbours.
    #[test]
    fn a_few_placed_pieces_of_a_big_set_get_coordinates() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles/megaminx.tws");
        let text = std::fs::read_to_string(path).expect("definition");
        let mut puzzle = PermPuzzle::new(
            &Definition::parse(&text).expect("parses"),
            PuzzleMetric::Htm,
        )
        .expect("compiles");
        // Corner slot 3 and edge slots 5 and 17 keep their pieces; the rest one class.
        let placed = [(0usize, vec![3usize]), (1, vec![5, 17])];
        for (s, slots) in &placed {
            let orbit = &mut puzzle.solved.orbits[*s];
            for i in 0..orbit.perm.len() {
                if let Some(k) = slots.iter().position(|&j| j == i) {
                    orbit.perm[i] = k as u8 + 1;
                } else {
                    orbit.perm[i] = 0;
                    orbit.ori[i] = WILD;
                }
            }
        }
        let (projection, _) = exact_projection_with(&puzzle, None, true).expect("coordinates");
        assert_eq!(projection.size, (20 * 3) * (30 * 29 * 4));
        let mut seen = std::collections::HashMap::new();
        seen.insert(
            projection.encode(&puzzle.solved).expect("numbered"),
            puzzle.solved.clone(),
        );
        let mut frontier = vec![puzzle.solved.clone()];
        let mut values = vec![0u64; projection.radix.len()];
        while let Some(state) = frontier.pop() {
            let rank = projection.encode(&state).expect("numbered");
            projection.values(rank, &mut values);
            for (m, mv) in puzzle.moves.iter().enumerate() {
                let there = state.then(&mv.element, &puzzle.sets);
                let number = projection.encode(&there).expect("numbered");
                assert_eq!(projection.after(&values, m), number, "move {}", mv.name);
                if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(number) {
                    e.insert(there.clone());
                    frontier.push(there);
                }
            }
        }
        assert_eq!(seen.len() as u64, projection.size);
        // The BFS's space fills the tracked coordinates' move tables (they step without
        // one): every state's neighbours are the ones stepping gives, in move order.
        assert!(projection.coords.iter().any(|c| c.move_table().is_none()));
        let space = Space::new(&projection);
        assert!(space.plain.is_some(), "no move table filled");
        for rank in 0..projection.size {
            projection.values(rank, &mut values);
            let stepped: Vec<u64> = (0..projection.moves)
                .map(|m| projection.after(&values, m))
                .collect();
            let mut by_table = Vec::new();
            space.for_each_neighbour(rank, |n| by_table.push(n));
            assert_eq!(by_table, stepped, "rank {rank}");
        }
    }

    /// A walk by fused coordinates takes the steps a walk over the plain numbering takes
    /// (the first neighbour one step closer, in move order), and each scramble is checked
    /// on the states: the tipless pyraminx (four coordinates of three values fused into
    /// one group) and the 2x2x2 with one corner fixed.
    #[test]
    fn walks_by_fused_coordinates_take_the_plain_walks_steps() {
        let dir = std::env::temp_dir().join(format!("cubedb-walks-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = TableStore::new(&dir);
        let hidden = Progress::hidden();
        for (file, fused) in [("pyraminx-no-tips.tws", true), ("2x2x2-fixed.tws", false)] {
            let puzzle = crate::puzzles::perm::shipped_puzzle(file, PuzzleMetric::Htm);
            let table =
                ExactTable::load_or_build(&puzzle, &store, file, 1024, &hidden).expect("table");
            let walker = table.stepper().expect("a plain table");
            let coords = walker.projection.coords.len();
            assert_eq!(
                walker.groups.len() < coords,
                fused,
                "{file}: {coords} coordinates"
            );
            let space = Space::new(&walker.projection);
            let mut rng = SplitMix64::new(3);
            for _ in 0..500 {
                let rank = rng.below(table.entries());
                if !table.reachable(rank) {
                    continue;
                }
                let mut plain = Vec::new();
                let mut here = rank;
                while here != table.solved {
                    let want = (table.value(here) + 2) % 3;
                    let mut next = Vec::new();
                    space.for_each_neighbour(here, |n| next.push(n));
                    let m = next
                        .iter()
                        .position(|&n| table.value(n) == want)
                        .expect("closer");
                    plain.push(m);
                    here = next[m];
                }
                assert_eq!(table.rank_walk(walker, rank), Some(plain.clone()), "{file}");
                let mut values = vec![0u64; walker.projection.radix.len()];
                walker.projection.values(rank, &mut values);
                let scramble: Vec<usize> = plain.iter().rev().map(|&m| table.inverse[m]).collect();
                assert!(table.reaches(walker, &values, &scramble), "{file}");
                // Another scramble is caught by the check.
                let longer = [scramble.as_slice(), &[0]].concat();
                assert!(!table.reaches(walker, &values, &longer), "{file}");
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The 2x2x2 with every corner free (24 rotations; 8 keep the orientation reference):
    /// the table reduced by symmetry counts each distance like the BFS over all 88 million
    /// states, answers every state at the full table's distance, and a damaged class file
    /// is named.
    #[test]
    fn reduced_table_agrees_with_the_full_bfs() {
        let puzzle = crate::puzzles::perm::shipped_puzzle("2x2x2.tws", PuzzleMetric::Qtm);
        let dir = std::env::temp_dir().join(format!("cubedb-reduced-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = TableStore::new(&dir);
        let hidden = Progress::hidden();
        let table = ExactTable::load_or_build(&puzzle, &store, "2x2x2", 1024, &hidden)
            .expect("reduced table");
        assert_eq!(table.symmetries(), 8);
        assert!(table.entries() * 7 < 88_179_840);
        let (ranked, _) = puzzle.searched();
        let projection = exact_projection(&ranked, true).expect("projection");
        let full = mod3_bfs(
            &Space::new(&projection),
            &[projection.solved],
            &hidden,
            "full",
        );
        assert_eq!(table.histogram, full.histogram);
        assert_eq!(table.states(), 88_179_840);
        let mut rng = SplitMix64::new(41);
        for _ in 0..300 {
            let walk: Vec<usize> = (0..rng.below(20))
                .map(|_| rng.below(puzzle.moves.len() as u64) as usize)
                .collect();
            let state = puzzle.apply_path(&puzzle.solved, &walk);
            let mut found = None;
            table.each_solution_of(&state, |p| {
                found = Some(p.to_vec());
                false
            });
            let path = found.expect("a solution");
            assert!(puzzle.is_solved(&puzzle.apply_path(&state, &path)));
            assert_eq!(path.len(), full_distance(&projection, &full.crumbs, &state));
        }
        // A second opening reads the class list back; a damaged one is named.
        let again =
            ExactTable::load_or_build(&puzzle, &store, "2x2x2", 1024, &hidden).expect("reopened");
        assert_eq!(again.histogram, table.histogram);
        drop((table, again));
        let classes = std::fs::read_dir(&dir)
            .expect("folder")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .find(|p| p.to_string_lossy().ends_with("-sym-classes.cdb"))
            .expect("a class file");
        let mut bytes = std::fs::read(&classes).expect("class file");
        let last = bytes.len() - 1;
        bytes[last] ^= 0x55;
        std::fs::write(&classes, bytes).expect("damaged");
        let error = ExactTable::load_or_build(&puzzle, &store, "2x2x2", 1024, &hidden)
            .err()
            .expect("a damaged class file is refused")
            .to_string();
        assert!(error.contains("classes"), "{error}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
