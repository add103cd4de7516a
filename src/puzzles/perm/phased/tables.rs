//! The tables of one phase: over its pattern puzzle (the phase's moves acting on what
//! its target follows), one exact table of distances modulo 3 (or, small or over
//! classes, of the distances themselves) when every coordinate fits together in the
//! memory allowed, else pattern databases (distances capped at 15, each
//! over some of the coordinates). Same files as every table: checksummed headers, written
//! by rename, mapped; named by the pattern puzzle's hash.

use super::kinds::Placing;
use super::matching::MatchingTable;
use super::quotient::{FreeQuotient, QuotientSpace};
use super::straddle::StraddleTable;
use super::tie::{self, Tie};
use super::view::{Matching, Sides};
use crate::progress::Progress;
use crate::puzzles::perm::coord::{
    Coord, CoordError, MoveRows, Projection, Reachable, TrackedCache,
};
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::exact::{
    exact_projection_with, exact_projection_with_rows, groups_from_bytes, groups_to_bytes,
    phase_table_spec, table_prefix, ExactError, Space,
};
use crate::puzzles::perm::pdb::{pattern_projections, write_pattern_database, PDB_ENTRIES};
use crate::puzzles::perm::puzzle::{OrbitSplit, PermPuzzle, Restriction};
use crate::puzzles::perm::site::TableSite;
use crate::search::bfs::{
    costed_bfs, mod3_bfs, mod3_bfs_observed, DepthNibbles, Mod3Result, RankedSpace,
};
use crate::table::derived::DerivedFile;
use crate::table::{packed, Table, TableSpec};

/// Most ranks of a phase's exact table (2 bits each: 1 GiB). The 3x3x3's first phase of
/// Kociemba's method (twist, flip and slice: 2,217,093,120) fits.
pub const EXACT_RANKS: u64 = 1 << 32;

/// A phase's exact table bigger than this is built by `cubedb-gen` only (about a minute
/// and its size on disk), a first use takes pattern databases instead; once present, it
/// is used.
const FIRST_USE_BYTES: u64 = 256 << 20;

/// Most ranks of a phase's exact table over the whole projection (no classes) that holds
/// each rank's distance itself, 4 bits, where the distances fit (at most 8 MB): a start's
/// distance is then one read rather than a walk down the table, a neighbour's value tried
/// per move at each step. The 4x4x4's first phase hands 2,000 solutions on, each start
/// of its centres phase (1.8 M ranks) walked about ten steps down.
const PLAIN_DEPTHS_RANKS: u64 = 1 << 24;

/// An exact table bigger than this has each node's children asked for before any is
/// read, so that the reads overlap: the 3x3x3's first phase (554 MB, in 2 MiB pages)
/// went from 5 to 11 million nodes a second. Smaller ones are mostly in the caches
/// (Square-1's 51 MB class table was 4% slower so read).
const FAR_TABLE_BYTES: u64 = 56 << 20;

/// Most ranks of a phase's exact table when some moves cost 0 (its search keeps a byte
/// per rank, on one core).
const COSTED_RANKS: u64 = 1 << 28;

/// Most states of a phase whose exact table may be over the classes its free moves join
/// (the classes themselves within [`EXACT_RANKS`]).
const QUOTIENT_RANKS: u64 = 1 << 37;

/// The costs of every rank of `projection` from `sources` (moves costing `costs`), as
/// [`mod3_bfs`] keeps depths: modulo 3 in two bits, 3 for unreached.
fn costed_mod3(projection: &Projection, sources: &[u64], costs: &[u8]) -> Mod3Result {
    let width = projection.radix.len();
    let result = costed_bfs(projection.size, sources, costs, |rank, m| {
        let mut values = [0u64; 32];
        projection.values(rank, &mut values[..width]);
        projection.after(&values[..width], m)
    });
    let crumbs = result
        .depths
        .chunks(4)
        .map(|four| {
            four.iter().enumerate().fold(0u8, |byte, (i, &d)| {
                let v = if d == crate::search::bfs::UNREACHED {
                    UNREACHABLE
                } else {
                    d % 3
                };
                byte | v << (2 * i)
            })
        })
        .collect();
    Mod3Result {
        crumbs,
        histogram: result.histogram,
    }
}

/// Whether a phase's exact table of `entries` holds each entry's depth (4 bits, where all
/// fit): a table over the `classes` free moves join, or a small one whose moves all cost
/// one (not `costed`), [`PLAIN_DEPTHS_RANKS`].
fn holds_depths(classes: bool, costed: bool, entries: u64) -> bool {
    classes || (!costed && entries <= PLAIN_DEPTHS_RANKS)
}

/// Bytes of a phase's exact table of `entries`: 4 bits an entry where it holds depths
/// (they nearly always fit), else 2 ([`holds_depths`]).
fn exact_table_bytes(entries: u64, depths: bool) -> u64 {
    entries.div_ceil(if depths { 2 } else { 4 })
}

/// A phase table's breadth-first search over `space` from `sources`, and each rank's
/// depth (4 bits, [`DepthNibbles`]) when every depth fits.
fn bfs_with_depths<S: RankedSpace>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
) -> (Mod3Result, Option<Vec<u8>>) {
    let mut observer = DepthNibbles::new(space.size());
    let result = mod3_bfs_observed(space, sources, progress, "phase BFS", &mut observer);
    let depths = (result.histogram.len() <= MAX_DEPTHS).then(|| observer.into_bytes());
    (result, depths)
}

/// Value of an exact table's rank the BFS never reached.
pub(super) const UNREACHABLE: u8 = 3;

/// A depth table's entry for a class the BFS never reached.
const UNREACHED_DEPTH: u8 = DepthNibbles::UNREACHED;

/// The most layers (depths 0 to 14) a depth table holds.
const MAX_DEPTHS: usize = UNREACHED_DEPTH as usize;

/// How a phase bounds its remaining moves.
pub enum Heuristic {
    /// One exact table over every coordinate: distance modulo 3 per rank (or the
    /// distance), the distance itself tracked along a path (each move changes it by -1,
    /// 0 or +1).
    Exact {
        /// The coordinates, with move tables.
        projection: Projection,
        /// Distances modulo 3, 2 bits per rank, or with `depths` the distances, 4 bits.
        table: Box<Table>,
        /// The deepest distance.
        deepest: usize,
        /// The ranks of the target states, in order.
        targets: Vec<u64>,
        /// When the table is over classes of states its free moves join (the projection
        /// too big whole): how a state's class is found.
        quotient: Option<Box<FreeQuotient>>,
        /// Whether the table holds each entry's distance itself, 4 bits (15: unreached)
        /// rather than modulo 3, so that a start's distance is one read: a class table
        /// or a small one ([`PLAIN_DEPTHS_RANKS`]) whose distances fit.
        depths: bool,
        /// Whether it is far bigger than the caches ([`FAR_TABLE_BYTES`]): each node's
        /// children asked for before any is read.
        far: bool,
        /// The table's file (structures derived from it are kept beside it).
        spec: Box<TableSpec>,
    },
    /// Pattern databases: each over some coordinates, distances capped at 15; the
    /// largest bounds the phase.
    Pdbs(Vec<(Projection, Table)>),
}

/// A phase's tables, opened.
pub struct PhaseTables {
    /// The pattern puzzle as its tables rank it (slots no phase move touches dropped).
    pub ranked: PermPuzzle,
    /// How views of full states map into `ranked`: slots no phase move touches dropped,
    /// then sets split by the orbits of the phase's moves.
    pub restriction: Restriction,
    split: OrbitSplit,
    /// The bound.
    pub heuristic: Heuristic,
    /// Coordinate values per node (all projections together, then the straddle table's
    /// groups, then one per kinds table, then each matching's permutation).
    pub width: usize,
    /// The matchings the target asks for, followed beside the pattern (each its
    /// permutation, the last values of a node).
    pub matchings: Vec<MatchingTable>,
    /// The next phase's matching, when this phase's moves take pieces across its orbits:
    /// how far every pair is from straddling them.
    pub straddle: Option<StraddleTable>,
    /// Where the straddle table's values start among a node's.
    straddle_at: usize,
    /// The sets whose kinds the later phases need in slots they never move, where the
    /// target does not see them: how far each is from holding them.
    pub kinds: Vec<Placing>,
    /// Where the kinds tables' values start among a node's.
    kinds_at: usize,
    /// Per move, its cost when some move costs 0 (the tables hold costs); else empty (every
    /// move costs 1).
    pub costs: Vec<u8>,
    /// Sets the tables count as one kind, told by another set's arrangement: a start
    /// must hold what they say.
    pub ties: Vec<Tie>,
    /// Over pattern databases, the target states when `Upto` makes them more than the
    /// solved one (ranked states); `None`: the solved state alone.
    target_set: Option<std::collections::HashSet<Element>>,
}

fn spec(
    ranked: &PermPuzzle,
    source: &str,
    suffix: &str,
    kind: &'static str,
    entries: u64,
    bits: u32,
    moves: usize,
) -> TableSpec {
    phase_table_spec(
        format!("{}-{suffix}", table_prefix(ranked)),
        source,
        kind,
        vec![
            ("definition".into(), ranked.hash),
            ("entries".into(), entries),
            ("moves".into(), moves as u64),
        ],
        entries,
        bits,
    )
}

impl PhaseTables {
    /// Opens the tables of the pattern puzzle `pattern` (building missing ones, all
    /// cores, with progress), within `budget_mb`; the sets `splittable` says are split
    /// by the orbits of the phase's moves (their pieces arrive in their own orbits);
    /// `name` is the phase's, for messages; `rebuild` builds every table again, each
    /// replacing the old one by a rename.
    #[allow(clippy::too_many_arguments)]
    pub fn load_or_build(
        pattern: &PermPuzzle,
        splittable: &[bool],
        costs: &[u8],
        join: usize,
        upto: &[Element],
        matchings: (&PermPuzzle, &[Sides], &[&Element]),
        straddle: Option<(&PermPuzzle, &Matching, &[&Element])>,
        kinds: Vec<Placing>,
        name: &str,
        site: &TableSite,
    ) -> Result<Self, ExactError> {
        let (store, source, progress) = (site.store, site.source, site.progress);
        let matchings = {
            let (puzzle, sides, moves) = matchings;
            sides
                .iter()
                .map(|m| MatchingTable::load_or_build(puzzle, m, moves, site))
                .collect::<Result<Vec<_>, _>>()?
        };
        let straddle = match straddle {
            Some((puzzle, m, moves)) => StraddleTable::load_or_build(puzzle, m, moves, site)?,
            None => None,
        };
        let straddle_width = straddle.as_ref().map_or(0, |s| s.width());
        let extra = matchings.len() + straddle_width + kinds.len();
        // Sets another set's arrangement tells: counted as one kind.
        let (ties, tied) = tie::tied(pattern);
        let pattern = tied.as_ref();
        let (searched, restriction) = pattern.searched();
        let (mut ranked, split) = searched.split_orbits(splittable);
        // Moves that cost nothing make the tables count costs, not moves: other tables,
        // under another name.
        let free = costs.contains(&0);
        let costs = if free { costs.to_vec() } else { Vec::new() };
        if free {
            ranked.hash ^= xxhash_rust::xxh3::xxh3_64(format!("costs {costs:?}").as_bytes());
        }
        let budget = site.budget_bytes();
        // States the `Upto` moves reach from the target count as the target: the sources
        // of the table's search.
        let targets = targets_upto(pattern, upto, &restriction, &split);
        // An exact table when the coordinates fit it (2 bits a rank, built in place).
        if let Some(heuristic) = Self::exact(&ranked, &targets, &costs, name, site)? {
            let width = match &heuristic {
                Heuristic::Exact { projection, .. } => projection.radix.len(),
                Heuristic::Pdbs(_) => 0,
            };
            return Ok(Self {
                ranked,
                restriction,
                split,
                heuristic,
                width: width + extra,
                matchings,
                straddle,
                straddle_at: width,
                kinds,
                kinds_at: width + straddle_width,
                costs,
                ties,
                target_set: None,
            });
        }
        // Over pattern databases, a target with `Upto` is the set of its states: each
        // database searches from their values, and a path ends on one of them.
        let target_set = (targets.len() > 1).then(|| targets.iter().cloned().collect());
        let cap = PDB_ENTRIES.min(budget / 2);
        let projections =
            pattern_projections(&ranked, cap, join).map_err(ExactError::NoPatternDatabases)?;
        let total: u64 = projections.iter().map(|p| p.size.div_ceil(2)).sum();
        if total > budget {
            return Err(ExactError::PdbsTooBig {
                needed_mb: total as f64 / (1 << 20) as f64,
                budget_mb: site.budget_mb,
            });
        }
        let mut pdbs = Vec::with_capacity(projections.len());
        for (i, projection) in projections.into_iter().enumerate() {
            let shape = xxhash_rust::xxh3::xxh3_64(format!("{:?}", projection.radix).as_bytes());
            let spec = spec(
                &ranked,
                source,
                &format!("pdb{i}-{:08x}", shape as u32),
                "depth-nibble",
                projection.size,
                4,
                projection.moves,
            );
            if site.rebuild || !store.exists(&spec) {
                store.check_writable()?;
                progress.note(format!(
                    "building phase {name}'s pattern database {} of {} ({} entries, {:.1} MB) ...",
                    i + 1,
                    ranked.name,
                    projection.size,
                    spec.payload_len() as f64 / 1e6
                ));
                write_pattern_database(
                    &projection,
                    &target_ranks(&projection, &targets),
                    &costs,
                    &spec,
                    store,
                    progress,
                    "phase BFS",
                )?;
            }
            pdbs.push((projection, store.open(&spec)?));
        }
        let width: usize = pdbs.iter().map(|(p, _)| p.radix.len()).sum();
        Ok(Self {
            ranked,
            restriction,
            split,
            heuristic: Heuristic::Pdbs(pdbs),
            width: width + extra,
            matchings,
            straddle,
            straddle_at: width,
            kinds,
            kinds_at: width + straddle_width,
            costs,
            ties,
            target_set,
        })
    }

    /// The exact table of `ranked`, built at `site` if missing; `None` when its
    /// coordinates cannot be made or do not fit the site's budget; a rebuilding site
    /// enumerates the coordinates and builds the table again.
    fn exact(
        ranked: &PermPuzzle,
        targets: &[Element],
        costs: &[u8],
        name: &str,
        site: &TableSite,
    ) -> Result<Option<Heuristic>, ExactError> {
        let (store, source, progress, rebuild) =
            (site.store, site.source, site.progress, site.rebuild);
        let budget = site.budget_bytes();
        // The enumerated coordinates are kept in a side file, so that a second process
        // opens the table without enumerating them again.
        let side =
            |entries: u64| spec(ranked, source, "exact-coords", "coordinates", entries, 8, 0);
        let side_path = store.dir().join(side(0).file_name());
        let known = if !rebuild && side_path.is_file() {
            let (header, _) = crate::table::read_header(&side_path, side(0).group)?;
            let file = store.open(&side(header.entries))?;
            let groups = groups_from_bytes(file.payload()).ok_or_else(|| {
                ExactError::Unsupported(CoordError(format!(
                    "{}: not a list of coordinates",
                    side_path.display()
                )))
            })?;
            Some(groups)
        } else {
            None
        };
        // Coordinates this build would not make (a side file from another version): named,
        // then enumerated and the table built again, never trusted.
        // The tracked pieces' move tables, made once for both projections below.
        let mut tracked = TrackedCache::new();
        let (encoder, known, stale) = match exact_projection_with_rows(
            ranked,
            known.clone(),
            false,
            Vec::new(),
            &mut tracked,
        ) {
            Ok((encoder, _)) => (encoder, known, false),
            Err(_) if known.is_some() => {
                match exact_projection_with_rows(ranked, None, false, Vec::new(), &mut tracked) {
                    Ok((encoder, _)) => {
                        progress.note(format!(
                            "{}: coordinates this version does not make; building phase {name}'s \
                         table again",
                            side_path.display()
                        ));
                        (encoder, None, true)
                    }
                    Err(_) => return Ok(None),
                }
            }
            Err(_) => return Ok(None),
        };
        let fits = |size: u64| size <= EXACT_RANKS && size.div_ceil(4) <= budget;
        let whole = fits(encoder.size) && (costs.is_empty() || encoder.size <= COSTED_RANKS);
        // With free moves, a table over the classes they join when there is one (smaller,
        // and a plain breadth-first search builds it); else the whole projection's.
        let classes = !costs.is_empty() && encoder.size <= QUOTIENT_RANKS;
        if !whole && !classes {
            return Ok(None);
        }
        // The enumerated coordinates' move tables, kept beside the table by the process
        // that first made them (for these coordinates as numbered).
        let anchor = spec(
            ranked,
            source,
            "exact",
            "depth-mod3",
            0,
            2,
            ranked.moves.len(),
        );
        let rows_file = known.as_ref().map(|k| {
            let key = xxhash_rust::xxh3::xxh3_64(&groups_to_bytes(k));
            DerivedFile::beside(store, &anchor, "move-rows", key)
        });
        let kept_rows = rows_file.as_ref().and_then(|file| {
            file.load(progress, |rows: &Vec<MoveRows>| {
                known.as_ref().is_some_and(|k| rows.len() == k.len())
            })
        });
        let had_rows = kept_rows.is_some();
        let (projection, groups) = exact_projection_with_rows(
            ranked,
            known,
            true,
            kept_rows.unwrap_or_default(),
            &mut tracked,
        )?;
        if let (false, Some(file)) = (had_rows, &rows_file) {
            file.keep(progress, &projection.move_rows());
        }
        let quotient = if classes {
            let target_values: Vec<Vec<u64>> = targets
                .iter()
                .filter_map(|t| projection.encode(t))
                .map(|rank| {
                    let mut values = vec![0u64; projection.radix.len()];
                    projection.values(rank, &mut values);
                    values
                })
                .collect();
            // Worked out once and kept beside the table, for the coordinates as numbered.
            let key = xxhash_rust::xxh3::xxh3_64(
                &[
                    groups_to_bytes(&groups),
                    format!("{costs:?} {target_values:?} {:?}", projection.radix).into_bytes(),
                ]
                .concat(),
            );
            let suffix = format!("free-classes-{:08x}", key as u32);
            DerivedFile::beside(store, &anchor, &suffix, key)
                .load_or_make(
                    progress,
                    |q: &FreeQuotient| q.fits(&projection),
                    || FreeQuotient::new(ranked, &projection, costs, &target_values),
                )
                .filter(|q| fits(q.size))
                .map(Box::new)
        } else {
            None
        };
        if quotient.is_none() && !whole {
            return Ok(None);
        }
        let entries = quotient.as_ref().map_or(projection.size, |q| q.size);
        let suffix = if quotient.is_some() {
            "exact-classes"
        } else {
            "exact"
        };
        let mod3_spec = spec(
            ranked,
            source,
            suffix,
            "depth-mod3",
            entries,
            2,
            projection.moves,
        );
        // Its own name: a table of distances modulo 3 left from an earlier build is not it.
        let depth_spec = spec(
            ranked,
            source,
            &format!("{suffix}-depths"),
            "depth",
            entries,
            4,
            projection.moves,
        );
        // Too big for a first use: pattern databases, unless it was built explicitly.
        if entries.div_ceil(4) > FIRST_USE_BYTES
            && !store.builds_big()
            && !store.exists(&mod3_spec)
            && !store.exists(&depth_spec)
        {
            return Ok(None);
        }
        let sources = target_ranks(&projection, targets);
        // Depths, 4 bits, where they fit: a class table (walking one down means finding
        // the class of every neighbour tried), or a small table over the whole projection
        // without free moves ([`PLAIN_DEPTHS_RANKS`]).
        let wants_depths = holds_depths(quotient.is_some(), !costs.is_empty(), entries);
        // A table of distances modulo 3 is kept where depths are not wanted or would not
        // fit 4 bits (an earlier version's is built again as depths).
        let mod3_kept = || {
            store.exists(&mod3_spec)
                && (!wants_depths
                    || store
                        .open(&mod3_spec)
                        .is_ok_and(|t| t.header().histogram.len() > MAX_DEPTHS))
        };
        let built = if store.exists(&depth_spec) {
            Some(&depth_spec)
        } else {
            mod3_kept().then_some(&mod3_spec)
        };
        let spec = if rebuild || stale || built.is_none() {
            store.check_writable()?;
            progress.note(format!(
                "building phase {name}'s table of {} ({} entries{}, {:.1} MB) ...",
                ranked.name,
                entries,
                quotient.as_ref().map_or(String::new(), |q| format!(
                    ": classes of {} states its free moves join, {} paid moves between them",
                    q.elements(),
                    q.paid_moves()
                )),
                exact_table_bytes(entries, wants_depths) as f64 / 1e6
            ));
            let mut depths = None;
            let result = match &quotient {
                Some(q) => {
                    let mut classes: Vec<u64> = sources
                        .iter()
                        .map(|&rank| {
                            let mut values = vec![0u64; projection.radix.len()];
                            projection.values(rank, &mut values);
                            q.index(&values)
                        })
                        .collect();
                    classes.sort_unstable();
                    classes.dedup();
                    let result;
                    (result, depths) = bfs_with_depths(&QuotientSpace::new(q), &classes, progress);
                    result
                }
                None if wants_depths => {
                    let result;
                    (result, depths) =
                        bfs_with_depths(&Space::new(&projection), &sources, progress);
                    result
                }
                None if costs.is_empty() => {
                    mod3_bfs(&Space::new(&projection), &sources, progress, "phase BFS")
                }
                None => costed_mod3(&projection, &sources, costs),
            };
            let spec = match depths {
                Some(depths) => {
                    store.write(&depth_spec, &depths, result.histogram)?;
                    &depth_spec
                }
                None => {
                    store.write(&mod3_spec, &result.crumbs, result.histogram)?;
                    &mod3_spec
                }
            };
            let bytes = groups_to_bytes(&groups);
            store.write(&side(bytes.len() as u64), &bytes, Vec::new())?;
            spec
        } else {
            built.unwrap_or(&mod3_spec)
        };
        // A table far bigger than the caches is read at random, each node's children
        // asked for at once. Mapped, in 2 MiB folios, at any size: the 3x3x3's 554 MB
        // first-phase table copied into huge pages opened in 0.12-0.14 s against 0.05 s,
        // and 40 states (`--max-length 19`) took 12.8-13.1 s against 11.4 s.
        let far = spec.payload_len() > FAR_TABLE_BYTES;
        let table = store.open(spec)?;
        let depths = spec.bits_per_entry == 4;
        let deepest = table.header().histogram.len().saturating_sub(1);
        Ok(Some(Heuristic::Exact {
            projection,
            table: Box::new(table),
            deepest,
            targets: sources,
            quotient,
            depths,
            far,
            spec: Box::new(spec.clone()),
        }))
    }

    /// The coordinate values of a view of a full state (restricted; a matching's rank
    /// from the full state), or `None` when the phase cannot start from it (a piece where
    /// no phase move can bring it from, a coordinate the phase's moves never reach).
    pub fn encode(&self, view: &Element, full: &Element, out: &mut [u64]) -> Option<Element> {
        let mut inner = Element { orbits: Vec::new() };
        self.encode_into(view, full, out, &mut inner)?;
        Some(inner)
    }

    /// [`PhaseTables::encode`] with the ranked state written into `inner`, whose storage
    /// is reused (a phase scores thousands of its solutions by the next phase's start).
    pub fn encode_into(
        &self,
        view: &Element,
        full: &Element,
        out: &mut [u64],
        inner: &mut Element,
    ) -> Option<()> {
        // A told set must hold what its tie says (else the state is not reachable), then
        // counts as one kind.
        let tied;
        let view = if self.ties.is_empty() {
            view
        } else {
            if !self.ties.iter().all(|t| t.holds(view)) {
                return None;
            }
            let mut merged = view.clone();
            for t in &self.ties {
                t.merge(&mut merged);
            }
            tied = merged;
            &tied
        };
        let restricted = self.restriction.apply_cow(view)?;
        self.split.apply_into(&restricted, inner)?;
        let mut at = 0;
        for projection in self.projections_iter() {
            let rank = projection.encode(inner)?;
            projection.values(rank, &mut out[at..at + projection.radix.len()]);
            at += projection.radix.len();
        }
        if let Some(straddle) = &self.straddle {
            straddle.encode(full, &mut out[at..at + straddle.width()]);
            at += straddle.width();
        }
        for kinds in &self.kinds {
            out[at] = kinds.encode(full)?;
            at += 1;
        }
        for matching in &self.matchings {
            out[at] = matching.encode(full)?;
            at += 1;
        }
        Some(())
    }

    /// Where a search of this phase starts from the view `view` of the full state `full`:
    /// its coordinate values and distances (`None`: the phase cannot start there, or its
    /// exact table says unreachable).
    pub fn start(&self, view: &Element, full: &Element) -> Option<StartNode> {
        let mut values = vec![0u64; self.width];
        let inner = self.encode(view, full, &mut values)?;
        self.start_of(values, inner)
    }

    /// The bound [`StartNode::bound`] of the start [`PhaseTables::start_of`] would make
    /// from `values`, without making it (`None` where it makes none): a phase scores
    /// each of its solutions by it and keeps few.
    pub fn start_bound(&self, values: &[u64]) -> Option<usize> {
        let pattern = self.exact_distance(values)?;
        let pairs = self.pair_distances(values).max().unwrap_or(0);
        let kinds = self.start_kinds(values)?;
        Some(
            pattern
                .max(pairs)
                .max(self.straddle_bound(values))
                .max(kinds),
        )
    }

    /// Each matching's distance at a start's coordinate values.
    fn pair_distances<'v>(&'v self, values: &'v [u64]) -> impl Iterator<Item = usize> + 'v {
        let first = self.width - self.matchings.len();
        self.matchings
            .iter()
            .zip(&values[first..])
            .map(|(m, &t)| m.distance(t))
    }

    /// The kinds tables' bound at a start, `None` where kinds can never be placed (the
    /// phase cannot start there).
    fn start_kinds(&self, values: &[u64]) -> Option<usize> {
        Some(self.kinds_bound(values)).filter(|&k| k != usize::MAX)
    }

    /// [`PhaseTables::start`] from what [`PhaseTables::encode`] made of the state (its
    /// coordinate values and its state in the inner puzzle): the distances walked.
    pub fn start_of(&self, values: Vec<u64>, inner: Element) -> Option<StartNode> {
        let pattern = self.exact_distance(&values)?;
        let pairs = self.pair_distances(&values).collect();
        let straddle = self.straddle_bound(&values);
        let kinds = self.start_kinds(&values)?;
        Some(StartNode {
            values,
            inner,
            pattern,
            pairs,
            straddle,
            kinds,
        })
    }

    /// [`PhaseTables::start_key`] written into `key` (its storage reused).
    pub fn start_key_into(&self, values: &[u64], key: &mut Vec<u64>) {
        key.clear();
        match &self.heuristic {
            Heuristic::Exact {
                projection,
                quotient: Some(q),
                ..
            } => {
                let width = projection.radix.len();
                key.push(q.index(&values[..width]));
                key.extend_from_slice(&values[width..]);
            }
            _ => key.extend_from_slice(values),
        }
    }

    /// What tells two starts of this phase apart: their coordinate values, the exact
    /// coordinates' replaced by their class when the table is over classes (a start and
    /// one its free moves reach cost the same and are searched alike).
    pub fn start_key(&self, values: &[u64]) -> Vec<u64> {
        let mut key = Vec::with_capacity(values.len());
        self.start_key_into(values, &mut key);
        key
    }

    /// Whether starts are told apart by class ([`PhaseTables::start_key`] differs from
    /// the values): worth checking before a start's distance is walked.
    pub fn starts_by_class(&self) -> bool {
        matches!(
            self.heuristic,
            Heuristic::Exact {
                quotient: Some(_),
                ..
            }
        )
    }

    /// The projections whose values a node carries, in order.
    pub fn projections(&self) -> Vec<&Projection> {
        match &self.heuristic {
            Heuristic::Exact { projection, .. } => vec![projection],
            Heuristic::Pdbs(pdbs) => pdbs.iter().map(|(p, _)| p).collect(),
        }
    }

    /// The exact table's value (distance mod 3, or 3: unreachable) at coordinate values.
    #[inline]
    pub fn exact_value(&self, values: &[u64]) -> u8 {
        self.exact_value_at(self.exact_index(values))
    }

    /// The exact table's entry index of coordinate values (its class with a quotient).
    #[inline]
    pub fn exact_index(&self, values: &[u64]) -> u64 {
        match &self.heuristic {
            Heuristic::Exact {
                projection,
                quotient,
                ..
            } => match quotient {
                Some(q) => q.index(&values[..projection.radix.len()]),
                None => rank_of(projection, values),
            },
            Heuristic::Pdbs(_) => 0,
        }
    }

    /// The exact table's value at entry `index` (see [`Self::exact_value`]).
    #[inline]
    pub fn exact_value_at(&self, index: u64) -> u8 {
        match &self.heuristic {
            Heuristic::Exact { table, depths, .. } => {
                if *depths {
                    match packed::Nibbles::new(table.payload()).get(index as usize) {
                        UNREACHED_DEPTH => UNREACHABLE,
                        depth => depth % 3,
                    }
                } else {
                    packed::Crumbs::new(table.payload()).get(index as usize)
                }
            }
            Heuristic::Pdbs(_) => 0,
        }
    }

    /// Asks for the line of the exact table's entry `index` (see [`Self::exact_is_far`]).
    #[inline]
    pub fn prefetch_exact(&self, index: u64) {
        if let Heuristic::Exact { table, depths, .. } = &self.heuristic {
            let byte = if *depths { index / 2 } else { index / 4 };
            crate::table::prefetch(table.payload(), byte as usize);
        }
    }

    /// Whether the exact table is far bigger than the caches: its reads are then asked
    /// for a node's children at a time, before any is read, so that they overlap.
    pub fn exact_is_far(&self) -> bool {
        match &self.heuristic {
            Heuristic::Exact { far, .. } => *far,
            Heuristic::Pdbs(_) => false,
        }
    }

    /// The exact distance of a start node: walked down the table, one step closer each
    /// move (`None`: unreachable).
    pub fn exact_distance(&self, values: &[u64]) -> Option<usize> {
        let Heuristic::Exact {
            projection,
            deepest,
            quotient,
            table,
            depths,
            ..
        } = &self.heuristic
        else {
            return Some(self.pdb_bound(values) as usize);
        };
        if *depths {
            return match packed::Nibbles::new(table.payload())
                .get(self.exact_index(values) as usize)
            {
                UNREACHED_DEPTH => None,
                depth => Some(depth as usize),
            };
        }
        if let Some(q) = quotient {
            let crumbs = packed::Crumbs::new(table.payload());
            return q.distance(
                values,
                |class| crumbs.get(class as usize),
                |class| crate::table::prefetch(table.payload(), (class / 4) as usize),
                *deepest,
            );
        }
        let mut value = self.exact_value(values);
        if value == UNREACHABLE {
            return None;
        }
        let moves = projection.moves;
        if !self.costs.is_empty() {
            return self.costed_distance(values.to_vec(), value, *deepest);
        }
        // The walk needs only the table's own coordinates (the first values), stepped.
        let mut here = values[..projection.radix.len()].to_vec();
        let mut distance = 0;
        // Walk one step closer while a neighbour is (a target, distance 0, has none).
        loop {
            if distance > *deepest {
                return None;
            }
            let want = (value + 2) % 3;
            let Some(step) =
                (0..moves).find(|&m| self.exact_value_at(projection.after(&here, m)) == want)
            else {
                break;
            };
            for (v, coord) in here.iter_mut().zip(&projection.coords) {
                *v = coord.apply(*v, step, moves);
            }
            value = want;
            distance += 1;
        }
        // Only a target has no closer neighbour: the value there must read 0.
        (value == 0).then_some(distance)
    }

    /// [`PhaseTables::exact_distance`] when some moves cost 0: from the values `start`
    /// (table value `value`), the states its free moves reach share its cost; one of them
    /// has a paid move to a state one cheaper unless the cost is 0.
    fn costed_distance(&self, start: Vec<u64>, mut value: u8, deepest: usize) -> Option<usize> {
        let moves = self.costs.len();
        let mut next = vec![0u64; start.len()];
        let mut plateau = vec![start];
        let mut distance = 0;
        'walk: loop {
            if distance > deepest {
                return None;
            }
            let want = (value + 2) % 3;
            let mut at = 0;
            while at < plateau.len() {
                for m in 0..moves {
                    self.child(&plateau[at], m, &mut next);
                    let v = self.exact_value(&next);
                    if self.costs[m] != 0 && v == want {
                        plateau = vec![next.clone()];
                        value = want;
                        distance += 1;
                        continue 'walk;
                    }
                    if self.costs[m] == 0 && v == value && !plateau.contains(&next) {
                        plateau.push(next.clone());
                    }
                }
                at += 1;
            }
            return (value == 0).then_some(distance);
        }
    }

    /// The largest pattern database distance at coordinate values.
    #[inline]
    pub fn pdb_bound(&self, values: &[u64]) -> u8 {
        self.database_ranks(values)
            .map(|(_, table, rank)| packed::Nibbles::new(table.payload()).get(rank as usize))
            .max()
            .unwrap_or(0)
    }

    /// Each pattern database with its rank at coordinate values `values` (none over an
    /// exact table).
    #[inline]
    fn database_ranks<'s>(
        &'s self,
        values: &'s [u64],
    ) -> impl Iterator<Item = (&'s Projection, &'s Table, u64)> + 's {
        let pdbs: &[(Projection, Table)] = match &self.heuristic {
            Heuristic::Pdbs(pdbs) => pdbs,
            Heuristic::Exact { .. } => &[],
        };
        let mut at = 0;
        pdbs.iter().map(move |(projection, table)| {
            let k = projection.radix.len();
            let rank = rank_of(projection, &values[at..at + k]);
            at += k;
            (projection, table, rank)
        })
    }

    /// Asks for the pattern databases' and the matchings' entries at coordinate values
    /// `values` (read a little later: the search works out every child of a node first);
    /// writes each matching's index there into `indices`, for
    /// [`MatchingTable::value_at`].
    #[inline]
    pub fn prefetch(&self, values: &[u64], indices: &mut [u64]) {
        for (_, table, rank) in self.database_ranks(values) {
            crate::table::prefetch(table.payload(), (rank / 2) as usize);
        }
        if let Some(straddle) = &self.straddle {
            straddle.prefetch(&values[self.straddle_at..][..straddle.width()]);
        }
        let first = self.width - self.matchings.len();
        for ((matching, &t), index) in self.matchings.iter().zip(&values[first..]).zip(indices) {
            *index = matching.prefetch(t);
        }
    }

    /// The straddle table's bound at coordinate values (0 without one).
    #[inline]
    pub fn straddle_bound(&self, values: &[u64]) -> usize {
        self.straddle.as_ref().map_or(0, |straddle| {
            straddle.bound(&values[self.straddle_at..][..straddle.width()])
        })
    }

    /// The largest kinds table's bound at coordinate values (0 without one;
    /// `usize::MAX` where the kinds can never be placed).
    #[inline]
    pub fn kinds_bound(&self, values: &[u64]) -> usize {
        self.kinds
            .iter()
            .zip(&values[self.kinds_at..])
            .map(|(kinds, &value)| kinds.bound(value))
            .max()
            .unwrap_or(0)
    }

    /// Asks the memory for every kinds table's entry at coordinate values, which the
    /// search reads soon.
    #[inline]
    pub fn prefetch_kinds(&self, values: &[u64]) {
        for (kinds, &value) in self.kinds.iter().zip(&values[self.kinds_at..]) {
            kinds.prefetch(value);
        }
    }

    /// Whether some kinds table needs more than `rest` moves at coordinate values (the
    /// search's test: it stops at the first that does).
    #[inline]
    pub fn kinds_exceed(&self, values: &[u64], rest: usize) -> bool {
        self.kinds
            .iter()
            .zip(&values[self.kinds_at..])
            .any(|(kinds, &value)| kinds.exceeds(value, rest))
    }

    /// The coordinate values after phase move `m`.
    #[inline]
    pub fn child(&self, here: &[u64], m: usize, next: &mut [u64]) {
        let moves = self.ranked.moves.len();
        let mut at = 0;
        for projection in self.projections_iter() {
            for (j, coord) in projection.coords.iter().enumerate() {
                next[at + j] = coord.apply(here[at + j], m, moves);
            }
            at += projection.coords.len();
        }
        debug_assert_eq!(at, self.straddle_at);
        self.finish_child(here, m, next);
    }

    /// The projections' values of [`Self::child`] for every phase move of `taken` (a
    /// bit per move), move `m`'s in `kids[m * width..][..width]`, each coordinate's kind
    /// told apart once (columns with a move table are written for every move: `kids` has
    /// room for all). The other values (straddle places, kinds, matchings) are made by
    /// [`Self::finish_child`] for the children the exact table lets live: in the 4x4x4's
    /// centres phase, one in twelve.
    #[inline]
    pub fn children(&self, here: &[u64], taken: u128, kids: &mut [u64]) {
        let moves = self.ranked.moves.len();
        let width = self.width;
        let mut at = 0;
        for projection in self.projections_iter() {
            for (j, coord) in projection.coords.iter().enumerate() {
                let column = at + j;
                coord.apply_each(here[column], moves, taken, |m, v| {
                    kids[m * width + column] = v;
                });
            }
            at += projection.coords.len();
        }
    }

    /// The values of the child by move `m` that [`Self::children`] leaves out, into its
    /// values `kid`.
    #[inline]
    pub fn finish_child(&self, here: &[u64], m: usize, kid: &mut [u64]) {
        let mut at = self.straddle_at;
        if let Some(straddle) = &self.straddle {
            for column in at..at + straddle.width() {
                kid[column] = straddle.child(here[column], m);
            }
            at += straddle.width();
        }
        for kinds in &self.kinds {
            kid[at] = kinds.child(here[at], m);
            at += 1;
        }
        for matching in &self.matchings {
            kid[at] = matching.child(here[at], m);
            at += 1;
        }
    }

    fn projections_iter(&self) -> impl Iterator<Item = &Projection> {
        let (one, many): (Option<&Projection>, &[(Projection, Table)]) = match &self.heuristic {
            Heuristic::Exact { projection, .. } => (Some(projection), &[]),
            Heuristic::Pdbs(pdbs) => (None, pdbs),
        };
        one.into_iter().chain(many.iter().map(|(p, _)| p))
    }

    /// The coordinate that keeps every one of the full puzzle's `rules` `Illegal` rules,
    /// and its place among a node's values: the pattern keeps each rule whole (a class
    /// holds only pieces the rule forbids), so a phase move is illegal on a full state
    /// exactly when this coordinate forbids it, and the search need not follow full
    /// states. `None` when some rule is not kept there (or there are none).
    pub fn legality_guard(&self, rules: usize) -> Option<(usize, &Reachable)> {
        if rules == 0 || self.ranked.illegal.len() != rules {
            return None;
        }
        let mut at = 0;
        for projection in self.projections_iter() {
            for coord in &projection.coords {
                if let Coord::Reachable(r) = coord {
                    if r.rules() == rules {
                        return Some((at, r));
                    }
                }
                at += 1;
            }
        }
        None
    }

    /// The file of the phase's exact table and its payload's checksum, when it has one.
    pub fn exact_file(&self) -> Option<(&TableSpec, u64)> {
        match &self.heuristic {
            Heuristic::Exact { spec, table, .. } => Some((spec, table.header().checksum)),
            Heuristic::Pdbs(_) => None,
        }
    }

    /// The number of states of an exact table over every coordinate a node carries
    /// (`None` over pattern databases, over classes, or with other tables beside it).
    pub fn whole_exact_size(&self) -> Option<u64> {
        match &self.heuristic {
            Heuristic::Exact {
                projection,
                quotient: None,
                ..
            } if projection.radix.len() == self.width => Some(projection.size),
            _ => None,
        }
    }

    /// An exact table's rank of coordinate values (see [`Self::whole_exact_size`]).
    #[inline]
    pub fn exact_rank(&self, values: &[u64]) -> u64 {
        match &self.heuristic {
            Heuristic::Exact { projection, .. } => {
                rank_of(projection, &values[..projection.radix.len()])
            }
            Heuristic::Pdbs(_) => 0,
        }
    }

    /// The coordinate values of an exact table's rank (see [`Self::whole_exact_size`]).
    #[inline]
    pub fn exact_values(&self, rank: u64, out: &mut [u64]) {
        if let Heuristic::Exact { projection, .. } = &self.heuristic {
            projection.values(rank, &mut out[..projection.radix.len()]);
        }
    }

    /// Whether the bound is an exact distance (one table over everything).
    pub fn is_exact(&self) -> bool {
        matches!(self.heuristic, Heuristic::Exact { .. })
    }

    /// Sizes of the tables in entries, for `info`.
    pub fn sizes(&self) -> Vec<u64> {
        match &self.heuristic {
            Heuristic::Exact {
                quotient: Some(q), ..
            } => vec![q.size],
            _ => self.projections().iter().map(|p| p.size).collect(),
        }
    }

    /// Bytes the tables take.
    pub fn bytes(&self) -> u64 {
        match &self.heuristic {
            Heuristic::Exact {
                projection,
                quotient,
                depths,
                ..
            } => exact_table_bytes(
                quotient.as_ref().map_or(projection.size, |q| q.size),
                *depths,
            ),
            Heuristic::Pdbs(pdbs) => pdbs.iter().map(|(p, _)| p.size.div_ceil(2)).sum(),
        }
    }

    /// The deepest distance of an exact table (God's number of the phase).
    pub fn deepest(&self) -> Option<usize> {
        match &self.heuristic {
            Heuristic::Exact { deepest, .. } => Some(*deepest),
            Heuristic::Pdbs(_) => None,
        }
    }

    /// Whether a state of the ranked pattern puzzle is a target state.
    pub fn is_target(&self, inner: &Element) -> bool {
        match &self.target_set {
            Some(set) => set.contains(inner),
            None => self.ranked.is_solved(inner),
        }
    }

    /// Whether every pattern database's coordinates are at their solved values: necessary
    /// for a pattern-database phase's target (its solved state), and cheap, so the whole
    /// state is checked only when it holds (true over an exact table).
    #[inline]
    pub fn at_solved_values(&self, values: &[u64]) -> bool {
        // Targets besides the solved state: the databases' zeros are the only sieve.
        self.target_set.is_some()
            || self
                .database_ranks(values)
                .all(|(projection, _, rank)| rank == projection.solved)
    }

    /// Whether coordinate values `values` are a target's, by an exact table's list of
    /// them (false over pattern databases).
    pub fn at_target(&self, values: &[u64]) -> bool {
        match &self.heuristic {
            Heuristic::Exact {
                projection,
                targets,
                ..
            } => targets
                .binary_search(&rank_of(projection, &values[..projection.radix.len()]))
                .is_ok(),
            Heuristic::Pdbs(_) => false,
        }
    }
}

/// A phase's start node, worked out once: by the previous phase to score a solution it
/// hands on, then by this phase's search.
#[derive(Clone)]
pub struct StartNode {
    /// Coordinate values.
    pub values: Vec<u64>,
    /// The ranked pattern state (for the final check over pattern databases).
    pub inner: Element,
    /// The pattern's distance (exact) or bound (largest database value).
    pub pattern: usize,
    /// Each matching's distance.
    pub pairs: Vec<usize>,
    /// The straddle table's bound (0 without one).
    pub straddle: usize,
    /// The kinds tables' bound (0 without them).
    pub kinds: usize,
}

impl StartNode {
    /// The bound on the phase's cost from here: the largest of the distances.
    pub fn bound(&self) -> usize {
        self.pattern
            .max(self.pairs.iter().copied().max().unwrap_or(0))
            .max(self.straddle)
            .max(self.kinds)
    }
}

#[inline]
fn rank_of(projection: &Projection, values: &[u64]) -> u64 {
    values
        .iter()
        .zip(&projection.radix)
        .fold(0u64, |acc, (&v, &r)| acc * r + v)
}

/// The numbers of the target states `targets` (ranked states) under `projection`, in
/// order, each once: the sources of a table's breadth-first search.
fn target_ranks(projection: &Projection, targets: &[Element]) -> Vec<u64> {
    let mut ranks: Vec<u64> = targets
        .iter()
        .filter_map(|t| projection.encode(t))
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    ranks
}

/// The target states of a pattern puzzle: its solved state and every state the moves
/// `upto` (pattern-puzzle elements) reach from it, mapped into the ranked puzzle (those
/// that fall outside it are left out: the phase cannot reach them anyway).
fn targets_upto(
    pattern: &PermPuzzle,
    upto: &[Element],
    restriction: &Restriction,
    split: &OrbitSplit,
) -> Vec<Element> {
    const MOST: usize = 1 << 20;
    let mut seen: std::collections::HashSet<Element> = std::collections::HashSet::new();
    seen.insert(pattern.solved.clone());
    let mut queue = vec![pattern.solved.clone()];
    let mut at = 0;
    while at < queue.len() && !upto.is_empty() && queue.len() < MOST {
        let here = queue[at].clone();
        at += 1;
        for m in upto {
            let next = here.then(m, &pattern.sets);
            if seen.insert(next.clone()) {
                queue.push(next);
            }
        }
    }
    queue
        .iter()
        .filter_map(|state| split.apply(&restriction.apply(state)?))
        .collect()
}

/// What a phase's tables would be, without building them: for `cubedb puzzle info`.
pub fn describe(
    pattern: &PermPuzzle,
    splittable: &[bool],
    costs: &[u8],
    join: usize,
    budget_mb: u64,
) -> String {
    // Told sets count as one kind, as the tables count them.
    let (ties, tied) = tie::tied(pattern);
    let pattern = tied.as_ref();
    let (searched, _) = pattern.searched();
    let (ranked, _) = searched.split_orbits(splittable);
    let budget = budget_mb.saturating_mul(1 << 20);
    let mut sets: Vec<String> = ranked
        .sets
        .iter()
        .map(|d| format!("{} ({})", d.name, d.size))
        .collect();
    for t in &ties {
        sets.push(format!(
            "{} told by {}",
            pattern.sets[t.set].name, pattern.sets[t.by].name
        ));
    }
    let exact = exact_projection_with(&ranked, None, false)
        .ok()
        .map(|(p, _)| p);
    let free = costs.contains(&0);
    let quotient = exact
        .as_ref()
        .filter(|p| free && p.size <= QUOTIENT_RANKS)
        .and_then(|_| exact_projection_with(&ranked, None, true).ok())
        .and_then(|(p, _)| {
            let solved = p.encode(&ranked.solved)?;
            let mut values = vec![0u64; p.radix.len()];
            p.values(solved, &mut values);
            FreeQuotient::new(&ranked, &p, costs, &[values])
        })
        .filter(|q| q.size <= EXACT_RANKS && q.size.div_ceil(4) <= budget);
    if let Some(q) = quotient {
        return format!(
            "sets {}; exact table of {} entries ({:.1} MB): classes of {} states the free moves \
             join, {} paid moves between them{}",
            sets.join(", "),
            crate::text::count(q.size as u128),
            exact_table_bytes(q.size, true) as f64 / 1e6,
            q.elements(),
            q.paid_moves(),
            if q.halved() {
                ", the half a parity rules out left out"
            } else {
                ""
            }
        );
    }
    let exact = exact.filter(|p| !free || p.size <= COSTED_RANKS);
    let databases = || pattern_projections(&ranked, PDB_ENTRIES.min(budget / 2), join);
    let listed = |projections: &[Projection]| {
        format!(
            "{} entries ({:.1} MB)",
            projections
                .iter()
                .map(|p| crate::text::count(p.size as u128))
                .collect::<Vec<_>>()
                .join(" + "),
            projections.iter().map(|p| p.size.div_ceil(2)).sum::<u64>() as f64 / 1e6
        )
    };
    match exact {
        Some(p) if p.size <= EXACT_RANKS && p.size.div_ceil(4) <= budget => format!(
            "sets {}; exact table of {} entries ({:.1} MB){}",
            sets.join(", "),
            crate::text::count(p.size as u128),
            exact_table_bytes(p.size, holds_depths(false, free, p.size)) as f64 / 1e6,
            match databases() {
                Ok(projections) if p.size.div_ceil(4) > FIRST_USE_BYTES => format!(
                    ", built by cubedb-gen (a first use takes pattern databases of {})",
                    listed(&projections)
                ),
                _ => String::new(),
            }
        ),
        _ => match databases() {
            Ok(projections) => format!(
                "sets {}; pattern databases of {}",
                sets.join(", "),
                listed(&projections)
            ),
            Err(e) => format!("sets {}; no tables ({e})", sets.join(", ")),
        },
    }
}
