//! Pattern databases and IDA* for puzzles too big for an exact table (the 3x3x3, the
//! megaminx): each database is a BFS over a projection of the puzzle (a whole set of
//! pieces, or some pieces of a set with their twists), its distances kept in 4 bits
//! (capped at 15, so still a lower bound). IDA* walks canonical move sequences and prunes
//! with the largest of the databases' distances; a leaf counts as solved only when the
//! whole state, applied move by move, is solved, so pieces no database follows are still
//! checked.

use super::coord::{
    arrangements, set_facts, Coord, CoordError, Projection, SetFacts, TrackedCache,
};
use super::element::Element;
use super::exact::{ExactError, Space};
use super::puzzle::{PermPuzzle, Restriction};
use super::site::TableSite;
use crate::progress::Progress;
use crate::search::bfs::{layered_bfs, UNREACHED};
use crate::table::{intern, packed, Table, TableSpec, TableStore};
use rayon::prelude::*;

/// Most entries of one pattern database (4 bits each: 128 MiB).
pub const PDB_ENTRIES: u64 = 1 << 28;

/// Builds the pattern database of `projection` (a BFS from the target values `sources`,
/// the solved value or every target's, distances capped at 15, two entries a byte; by
/// cost when `costs`, one per move, is not empty) and writes it to `store` as `spec`.
pub fn write_pattern_database(
    projection: &Projection,
    sources: &[u64],
    costs: &[u8],
    spec: &TableSpec,
    store: &TableStore,
    progress: &Progress,
    label: &str,
) -> Result<(), ExactError> {
    let result = if costs.is_empty() {
        layered_bfs(&Space::new(projection), sources, progress, label)
    } else {
        let width = projection.radix.len();
        crate::search::bfs::costed_bfs(projection.size, sources, costs, |rank, m| {
            let mut values = [0u64; 32];
            projection.values(rank, &mut values[..width]);
            projection.after(&values[..width], m)
        })
    };
    let payload = depth_nibbles(&result.depths);
    drop(result.depths);
    store.write(spec, &payload, result.histogram)?;
    Ok(())
}

/// A breadth-first search's depths, two to a byte: capped at 15, unreached as 15 (a
/// pattern database's entries).
pub fn depth_nibbles(depths: &[u8]) -> Vec<u8> {
    depths
        .par_chunks(2)
        .map(|two| {
            two.iter().enumerate().fold(0u8, |byte, (i, &d)| {
                let v = if d == UNREACHED { 15 } else { d.min(15) };
                byte | v << (4 * i)
            })
        })
        .collect()
}

/// The search bound from which a state is first checked to be reachable at all.
pub const CHECK_FROM: usize = 11;

/// The projections of a puzzle's pattern databases: per set, the whole set when its
/// places and twists fit in `cap` entries, otherwise its pieces in groups of as many as
/// fit, each group with its twists; `join` as a plan's `Join` line (0: none).
pub fn pattern_projections(
    puzzle: &PermPuzzle,
    cap: u64,
    join: usize,
) -> Result<Vec<Projection>, CoordError> {
    let facts = set_facts(puzzle);
    let mut cache = TrackedCache::new();
    let mut projections = Vec::new();
    let mut wholes: Vec<(usize, usize)> = Vec::new();
    for (s, fact) in facts.iter().enumerate() {
        let def = &puzzle.sets[s];
        let follow_twist = fact.twisted && !fact.wild && !fact.partly_wild;
        if !fact.moved && !follow_twist {
            continue;
        }
        if let Some(whole) = whole_set(puzzle, s, fact, cap)? {
            wholes.push((s, projections.len()));
            projections.push(Projection::new(puzzle, whole)?);
            continue;
        }
        // The pieces told apart (labels the solved state has once) are followed in
        // groups; identical pieces are left to the search, which checks whole states.
        let solved = &puzzle.solved.orbits[s];
        let unique: Vec<u8> = solved
            .perm
            .iter()
            .copied()
            .filter(|&l| solved.perm.iter().filter(|&&m| m == l).count() == 1)
            .collect();
        if !fact.moved {
            // Only orientations change, each slot's on its own: the slots in groups of
            // as many as fit.
            let omod = def.omod as u64;
            let per_group = (1..=def.size)
                .take_while(|&k| {
                    omod.checked_pow(k as u32).is_some_and(|v| {
                        v <= cap
                            && v.saturating_mul(puzzle.moves.len() as u64)
                                <= super::coord::MOVE_TABLE_LIMIT
                    })
                })
                .last()
                .ok_or_else(|| {
                    CoordError(format!(
                        "set {}: not even one orientation fits a pattern database",
                        def.name
                    ))
                })?;
            let slots: Vec<usize> = (0..def.size).collect();
            for group in slots.chunks(per_group) {
                let coord = Coord::twist_part(puzzle, s, group)?;
                projections.push(Projection::new(puzzle, vec![coord])?);
            }
            continue;
        }
        // Kinds of identical pieces (the 4x4x4's centres): their places, a few kinds at
        // a time, the other pieces blank.
        let mut kinds: Vec<(u8, usize)> = Vec::new();
        for &l in &solved.perm {
            let count = solved.perm.iter().filter(|&&m| m == l).count();
            if count > 1 && !kinds.iter().any(|&(k, _)| k == l) {
                kinds.push((l, count));
            }
        }
        let places_of = |counts: &[usize]| -> u128 {
            let blank = def.size - counts.iter().sum::<usize>();
            arrangements(&[counts, &[blank]].concat())
        };
        let fits = |size: u128| {
            size <= cap as u128
                && size.saturating_mul(puzzle.moves.len() as u128)
                    <= super::coord::MOVE_TABLE_LIMIT as u128
        };
        let mut group: Vec<(u8, usize)> = Vec::new();
        let mut groups: Vec<Vec<(u8, usize)>> = Vec::new();
        for kind in kinds {
            let mut counts: Vec<usize> = group.iter().map(|&(_, c)| c).collect();
            counts.push(kind.1);
            if !group.is_empty() && !fits(places_of(&counts)) {
                groups.push(std::mem::take(&mut group));
            }
            group.push(kind);
        }
        if !group.is_empty() {
            groups.push(group);
        }
        for group in groups {
            let counts: Vec<usize> = group.iter().map(|&(_, c)| c).collect();
            if !fits(places_of(&counts)) {
                continue;
            }
            let mut follow = vec![false; 256];
            for &(l, _) in &group {
                follow[l as usize] = true;
            }
            let coord = Coord::places(puzzle, s, fact, &follow, true)?;
            projections.push(Projection::new(puzzle, vec![coord])?);
        }
        if unique.is_empty() {
            continue;
        }
        let omod = if follow_twist { def.omod as u64 } else { 1 };
        let n = def.size;
        let group_size = (1..n)
            .take_while(|&k| {
                let slots = (0..k).fold(1u64, |v, i| v * (n - i) as u64);
                slots.saturating_mul(omod.saturating_pow(k as u32)) <= cap
                    && slots.saturating_mul(puzzle.moves.len() as u64)
                        <= super::coord::MOVE_TABLE_LIMIT
            })
            .last()
            .ok_or_else(|| {
                CoordError(format!(
                    "set {}: no piece fits a pattern database",
                    def.name
                ))
            })?;
        for group in unique.chunks(group_size) {
            let coord = Coord::tracked(puzzle, s, group, omod, &mut cache)?;
            projections.push(Projection::new(puzzle, vec![coord])?);
        }
    }
    if projections.is_empty() {
        return Err(CoordError("no piece moves".into()));
    }
    if join > 0 {
        join_pieces(puzzle, &mut projections, &wholes, join, cap, &mut cache)?;
    }
    merge_small(puzzle, projections, cap)
}

/// `Join N`: each pattern database over a whole set of distinct pieces also follows the
/// first `join` pieces of the next such set (the FTO's last phase: the corners with
/// three edges and the edges with three corners), a bound that sees both kinds of piece.
fn join_pieces(
    puzzle: &PermPuzzle,
    projections: &mut [Projection],
    wholes: &[(usize, usize)],
    join: usize,
    cap: u64,
    cache: &mut TrackedCache,
) -> Result<(), CoordError> {
    let distinct: Vec<(usize, usize)> = wholes
        .iter()
        .copied()
        .filter(|&(s, _)| {
            let perm = &puzzle.solved.orbits[s].perm;
            perm.len() > join
                && perm
                    .iter()
                    .all(|&l| perm.iter().filter(|&&m| m == l).count() == 1)
        })
        .collect();
    if distinct.len() < 2 {
        return Err(CoordError(format!(
            "Join {join} needs two sets of more than {join} distinct pieces, each whole in one \
             pattern database; this phase has {}",
            distinct.len()
        )));
    }
    // A database that would pass the cap with the other set's pieces stays as it was (the
    // megaminx's last corners are 44 M entries alone); at least one must take them.
    let mut oversized = None;
    let mut joined_any = false;
    for (i, &(_, at)) in distinct.iter().enumerate() {
        let (other, _) = distinct[(i + 1) % distinct.len()];
        let labels = &puzzle.solved.orbits[other].perm[..join];
        let mut coords = projections[at].coords.clone();
        coords.push(Coord::tracked(puzzle, other, labels, 1, cache)?);
        let joined = Projection::new(puzzle, coords)?;
        if joined.size > cap {
            oversized.get_or_insert((at, other, joined.size));
            continue;
        }
        projections[at] = joined;
        joined_any = true;
    }
    match oversized {
        Some((at, other, size)) if !joined_any => Err(CoordError(format!(
            "Join {join}: set {} with {join} pieces of set {} makes a pattern database of {} \
             entries, over the {} allowed (and no other set takes them within it)",
            puzzle.sets[wholes.iter().find(|w| w.1 == at).map_or(0, |w| w.0)].name,
            puzzle.sets[other].name,
            crate::text::count(size as u128),
            crate::text::count(cap as u128)
        ))),
        _ => Ok(()),
    }
}

/// Projections of at most this many states are worth joining to others.
const SMALL: u64 = 1 << 12;

/// Joins each small projection (an E-slice's order, a corner twist) to every bigger one
/// it fits beside within `cap` (a database over both bounds at least as well as either);
/// a small one that fits beside no bigger one goes beside each of a bigger one's
/// coordinates it fits beside; small ones joined nowhere stay, merged together while
/// they fit.
fn merge_small(
    puzzle: &PermPuzzle,
    projections: Vec<Projection>,
    cap: u64,
) -> Result<Vec<Projection>, CoordError> {
    let (mut small, big): (Vec<Projection>, Vec<Projection>) =
        projections.into_iter().partition(|p| p.size <= SMALL);
    small.sort_by_key(|p| p.size);
    let mut used = vec![false; small.len()];
    let mut out = Vec::new();
    for b in big {
        let mut coords = b.coords.clone();
        let mut size = b.size;
        for (i, q) in small.iter().enumerate() {
            if size.saturating_mul(q.size) <= cap {
                size *= q.size;
                coords.extend(q.coords.iter().cloned());
                used[i] = true;
            }
        }
        out.push(if coords.len() > b.coords.len() {
            Projection::new(puzzle, coords)?
        } else {
            b
        });
    }
    // A small one that fits beside no bigger one whole goes beside each coordinate of a
    // bigger one it fits beside: the reduced 3x3x3's corner twist (2,187) with the
    // E-slice (495) and with the edge flip (2,048), where the edges' database (slice
    // and flip, 1,013,760) has no room for it.
    let parts: Vec<Coord> = out
        .iter()
        .filter(|b| b.coords.len() > 1)
        .flat_map(|b| b.coords.iter().filter(|c| c.size() > 1).cloned())
        .collect();
    for (q, u) in small.iter().zip(used.iter_mut()).filter(|(_, u)| !**u) {
        for c in &parts {
            if c.size().saturating_mul(q.size) <= cap {
                let coords = [vec![c.clone()], q.coords.clone()].concat();
                out.push(Projection::new(puzzle, coords)?);
                *u = true;
            }
        }
    }
    let mut pending: Option<(Vec<Coord>, u64)> = None;
    for (q, _) in small.into_iter().zip(used).filter(|(_, u)| !u) {
        pending = match pending.take() {
            Some((mut coords, size)) if size.saturating_mul(q.size) <= cap => {
                coords.extend(q.coords);
                Some((coords, size * q.size))
            }
            Some((coords, _)) => {
                out.push(Projection::new(puzzle, coords)?);
                Some((q.coords, q.size))
            }
            None => Some((q.coords, q.size)),
        };
    }
    if let Some((coords, _)) = pending {
        out.push(Projection::new(puzzle, coords)?);
    }
    Ok(out)
}

/// The whole set `s` as coordinates when they fit in `cap` entries.
fn whole_set(
    puzzle: &PermPuzzle,
    s: usize,
    fact: &SetFacts,
    cap: u64,
) -> Result<Option<Vec<Coord>>, CoordError> {
    let def = &puzzle.sets[s];
    // Arrangements of the labels: identical pieces counted once.
    let places: u128 = if fact.moved {
        let mut labels = puzzle.solved.orbits[s].perm.clone();
        labels.sort_unstable();
        let runs: Vec<usize> = labels.chunk_by(|a, b| a == b).map(<[u8]>::len).collect();
        super::coord::arrangements(&runs) >> u32::from(fact.keeps_parity && fact.distinct)
    } else {
        1
    };
    // Orientations "any" on some pieces only: the twists are not followed (a weaker bound).
    let follow_twist = fact.twisted && !fact.wild && !fact.partly_wild;
    let twists: u128 = if follow_twist {
        (def.omod as u128)
            .checked_pow((def.size - usize::from(fact.keeps_sum)) as u32)
            .unwrap_or(u128::MAX)
    } else {
        1
    };
    if places.saturating_mul(twists) > cap as u128 {
        return Ok(None);
    }
    let mut coords = Vec::new();
    if fact.moved {
        match Coord::places(puzzle, s, fact, &[true; 256], true) {
            Ok(c) => coords.push(c),
            Err(_) => return Ok(None),
        }
    }
    if follow_twist {
        coords.push(Coord::twist(puzzle, s, fact, true)?);
    }
    Ok(Some(coords))
}

/// One pattern database, opened.
struct Pdb {
    projection: Projection,
    table: Table,
}

impl Pdb {
    #[inline]
    fn distance(&self, rank: u64) -> u8 {
        packed::Nibbles::new(self.table.payload()).get(rank as usize)
    }
}

/// Optimal solving by IDA* over pattern databases.
pub struct PatternSearch {
    pdbs: Vec<Pdb>,
    /// Tells reachable states from the others (pieces told apart), made the first time a
    /// search goes past [`CHECK_FROM`] moves (Schreier–Sims on the megaminx takes 1.3 s).
    membership: std::sync::OnceLock<Option<super::group::Membership>>,
    /// The puzzle searched (without untouched slots).
    ranked: PermPuzzle,
    /// How given states map into it.
    restriction: Restriction,
}

/// What a search visited.
#[derive(Debug, Clone, Copy, Default)]
pub struct SearchStats {
    /// Nodes generated.
    pub nodes: u64,
}

impl PatternSearch {
    /// Opens the pattern databases of `puzzle` (building missing ones, all cores, with
    /// progress), at most `budget_mb` of them in all.
    pub fn load_or_build(
        puzzle: &PermPuzzle,
        store: &TableStore,
        source: &str,
        budget_mb: u64,
        progress: &Progress,
    ) -> Result<Self, ExactError> {
        Self::load_or_rebuild(puzzle, &TableSite::new(store, source, budget_mb, progress))
    }

    /// [`PatternSearch::load_or_build`], building every database again when `rebuild`
    /// (each written beside the old one and renamed over it).
    pub fn load_or_rebuild(puzzle: &PermPuzzle, site: &TableSite) -> Result<Self, ExactError> {
        let (store, source, progress) = (site.store, site.source, site.progress);
        let (ranked, restriction) = puzzle.searched();
        // The tables take half a byte per entry; a build about 1.5 bytes per entry more.
        let budget = site.budget_mb.saturating_mul(1 << 20);
        let cap = PDB_ENTRIES.min(budget / 2);
        let too_big = |projections: &[Projection]| ExactError::PdbsTooBig {
            needed_mb: projections
                .iter()
                .map(|p| p.size.div_ceil(2) as f64)
                .sum::<f64>()
                / (1 << 20) as f64,
            budget_mb: site.budget_mb,
        };
        let projections = match pattern_projections(&ranked, cap, 0) {
            Ok(projections) => projections,
            // Nothing fits the budget, though something would fit the usual cap: the
            // budget is to blame, and the message says so.
            Err(e) => match pattern_projections(&ranked, PDB_ENTRIES, 0) {
                Ok(usual) if cap < PDB_ENTRIES => return Err(too_big(&usual)),
                _ => return Err(ExactError::NoPatternDatabases(e)),
            },
        };
        let total: u64 = projections.iter().map(|p| p.size.div_ceil(2)).sum();
        if total > budget {
            return Err(too_big(&projections));
        }
        let mut pdbs = Vec::with_capacity(projections.len());
        for (i, projection) in projections.into_iter().enumerate() {
            let spec = pdb_spec(puzzle, &projection, i, source);
            if site.rebuild || !store.exists(&spec) {
                store.check_writable()?;
                progress.note(format!(
                    "building pattern database {} of {} ({} entries, {:.1} MB) ...",
                    i + 1,
                    puzzle.name,
                    projection.size,
                    spec.payload_len() as f64 / 1e6
                ));
                write_pattern_database(
                    &projection,
                    &[projection.solved],
                    &[],
                    &spec,
                    store,
                    progress,
                    "pattern BFS",
                )?;
            }
            let table = store.open(&spec)?;
            pdbs.push(Pdb { projection, table });
        }
        Ok(Self {
            pdbs,
            membership: std::sync::OnceLock::new(),
            ranked,
            restriction,
        })
    }

    /// The databases' sizes in entries.
    pub fn sizes(&self) -> Vec<u64> {
        self.pdbs.iter().map(|p| p.projection.size).collect()
    }

    /// Calls `visit` with optimal solutions of `state` (search-move indices) until it
    /// returns false or `max_depth` is passed. `None` when the state is not a position of
    /// the searched moves.
    pub fn each_solution(
        &self,
        state: &Element,
        max_depth: usize,
        mut visit: impl FnMut(&[usize]) -> bool,
    ) -> Option<SearchStats> {
        let inner = self.restriction.apply(state)?;
        let width: usize = self.pdbs.iter().map(|p| p.projection.radix.len()).sum();
        let mut start = Vec::with_capacity(width);
        for pdb in &self.pdbs {
            let rank = pdb.projection.encode(&inner)?;
            let mut values = vec![0u64; pdb.projection.radix.len()];
            pdb.projection.values(rank, &mut values);
            start.extend_from_slice(&values);
        }
        let h = self.heuristic(&start);
        let mut search = Search {
            owner: self,
            state: &inner,
            width,
            stack: vec![0u64; width * (max_depth + 2)],
            path: Vec::new(),
            states: if self.ranked.illegal.is_empty() {
                Vec::new()
            } else {
                vec![inner.clone(); max_depth + 2]
            },
            stats: SearchStats::default(),
            found: 0,
        };
        search.stack[..width].copy_from_slice(&start);
        for bound in h as usize..=max_depth {
            // A state the moves cannot reach would be searched to the depth limit: past
            // a few bounds, make sure it can be reached at all.
            if bound == CHECK_FROM.max(h as usize) && !self.reachable(&inner) {
                return None;
            }
            let go_on = search.dfs(0, bound, self.ranked.moves.len(), &mut visit);
            if search.found > 0 || !go_on {
                return Some(search.stats);
            }
        }
        Some(search.stats)
    }

    /// Whether the moves reach `state` (true when no membership test can be made).
    fn reachable(&self, state: &Element) -> bool {
        self.membership
            .get_or_init(|| super::group::Membership::new(&self.ranked, 20_000_000))
            .as_ref()
            .is_none_or(|m| m.contains(state))
    }

    /// The largest distance any database gives for coordinate values `values`.
    #[inline]
    fn heuristic(&self, values: &[u64]) -> u8 {
        let mut at = 0;
        let mut h = 0;
        for pdb in &self.pdbs {
            let k = pdb.projection.radix.len();
            let rank = values[at..at + k]
                .iter()
                .zip(&pdb.projection.radix)
                .fold(0u64, |acc, (&v, &r)| acc * r + v);
            h = h.max(pdb.distance(rank));
            at += k;
        }
        h
    }
}

/// One IDA* run.
struct Search<'a> {
    owner: &'a PatternSearch,
    state: &'a Element,
    width: usize,
    /// Coordinate values at each depth (`width` per depth).
    stack: Vec<u64>,
    path: Vec<usize>,
    /// The state at each depth, kept only when the definition has `Illegal` rules: a
    /// move into a state they forbid is not taken (the databases ignore the rules, so
    /// their distances stay lower bounds).
    states: Vec<Element>,
    stats: SearchStats,
    found: usize,
}

impl Search<'_> {
    /// Searches below depth `depth` within `bound`; false when `visit` asked to stop.
    fn dfs(
        &mut self,
        depth: usize,
        bound: usize,
        last: usize,
        visit: &mut impl FnMut(&[usize]) -> bool,
    ) -> bool {
        let owner = self.owner;
        let moves = owner.ranked.moves.len();
        if depth == bound {
            let solved = if self.states.is_empty() {
                let end = owner.ranked.apply_path(self.state, &self.path);
                owner.ranked.is_solved(&end)
            } else {
                owner.ranked.is_solved(&self.states[depth])
            };
            if solved {
                self.found += 1;
                return visit(&self.path);
            }
            return true;
        }
        let allowed = owner.ranked.follows[last];
        for m in 0..moves {
            if allowed >> m & 1 == 0 {
                continue;
            }
            let (here, next) = self.stack.split_at_mut((depth + 1) * self.width);
            let here = &here[depth * self.width..];
            let next = &mut next[..self.width];
            let mut at = 0;
            let mut h = 0u8;
            for pdb in &owner.pdbs {
                let p = &pdb.projection;
                let mut rank = 0u64;
                for (j, coord) in p.coords.iter().enumerate() {
                    let v = coord.apply(here[at + j], m, moves);
                    next[at + j] = v;
                    rank = rank * p.radix[j] + v;
                }
                h = h.max(pdb.distance(rank));
                at += p.coords.len();
                if depth + 1 + h as usize > bound {
                    break;
                }
            }
            self.stats.nodes += 1;
            if depth + 1 + h as usize > bound {
                continue;
            }
            if !self.states.is_empty() {
                let ranked = &owner.ranked;
                let after = self.states[depth].then(&ranked.moves[m].element, &ranked.sets);
                if !ranked.is_legal(&after) {
                    continue;
                }
                self.states[depth + 1] = after;
            }
            self.path.push(m);
            let go_on = self.dfs(depth + 1, bound, m, visit);
            self.path.pop();
            if !go_on {
                return false;
            }
        }
        true
    }
}

/// What a pattern database file is: named by the definition's hash and the projection.
fn pdb_spec(puzzle: &PermPuzzle, projection: &Projection, index: usize, source: &str) -> TableSpec {
    let shape = xxhash_rust::xxh3::xxh3_64(format!("{:?}", projection.radix).as_bytes());
    TableSpec {
        name: intern(format!(
            "{}-pdb{index}-{:08x}",
            super::exact::table_prefix(puzzle),
            shape as u32
        )),
        group: intern(format!("puzzle {source} --metric {}", puzzle.metric.name())),
        puzzle: "perm",
        kind: "depth-nibble",
        params: vec![
            ("definition".into(), puzzle.hash),
            ("entries".into(), projection.size),
            ("moves".into(), projection.moves as u64),
        ],
        entries: projection.size,
        bits_per_entry: 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{Definition, PuzzleMetric};

    #[test]
    fn coordinate_steps_agree_with_composing_states() {
        let text = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/puzzles/2x2x2-fixed.tws"
        ))
        .expect("definition");
        let puzzle = PermPuzzle::new(
            &Definition::parse(&text).expect("parses"),
            PuzzleMetric::Htm,
        )
        .expect("compiles");
        let projections = pattern_projections(&puzzle, 1 << 19, 0).expect("projections");
        let mut state = puzzle.solved.clone();
        let mut rng = crate::rng::SplitMix64::new(3);
        for _ in 0..500 {
            let m = rng.below(puzzle.moves.len() as u64) as usize;
            let next = state.then(&puzzle.moves[m].element, &puzzle.sets);
            for p in &projections {
                let mut values = vec![0u64; p.radix.len()];
                p.values(p.encode(&state).expect("rank"), &mut values);
                assert_eq!(p.after(&values, m), p.encode(&next).expect("rank"));
            }
            state = next;
        }
    }

    #[test]
    fn a_join_that_passes_the_cap_leaves_that_database_alone() {
        use crate::puzzles::perm::{shipped_plan, shipped_puzzle};
        let puzzle = shipped_puzzle("megaminx.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "megaminx.plan");
        let last = plan.phases.last().expect("phases");
        let (searched, _) = last.pattern.searched();
        let (ranked, _) = searched.split_orbits(&last.splittable);
        let alone = pattern_projections(&ranked, PDB_ENTRIES, 0).expect("databases");
        let joined = pattern_projections(&ranked, PDB_ENTRIES, 3).expect("databases");
        let sizes = |p: &[Projection]| p.iter().map(|p| p.size).collect::<Vec<_>>();
        // The eight corners, placed and twisted (an even order with the edges' parity
        // told apart: 8!/2 · 3^7), cannot take three edges (9 · 8 · 7 times more) within
        // the cap; the nine edges (9!/2) take three corners' places.
        assert_eq!(sizes(&alone), vec![20_160 * 2_187, 181_440]);
        assert_eq!(sizes(&joined), vec![20_160 * 2_187, 181_440 * 8 * 7 * 6]);
        assert!(joined.iter().all(|p| p.size <= PDB_ENTRIES));
        // With four, neither fits: refused, naming the cap.
        let refused = pattern_projections(&ranked, PDB_ENTRIES, 4).expect_err("too big");
        assert!(refused.0.contains("268,435,456 allowed"), "{}", refused.0);
    }
}
