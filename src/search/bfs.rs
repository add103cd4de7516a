//! Parallel layered breadth-first search over a ranked state space.
//!
//! Each layer is expanded by rayon on all cores. Small frontiers are kept as explicit lists;
//! once a layer grows past a fraction of the space the search switches to scanning the
//! depth array, pushing from the frontier ("top-down") while most states are unseen and
//! pulling into unseen states ("bottom-up") once few remain. [`weighted_bfs`] does the same
//! for spaces whose moves cost 1 or 2.

use crate::progress::Progress;
use crate::table::{prefetch, prefetch_to_l2};
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::time::Instant;

/// Depth value of a state the search never reached.
pub const UNREACHED: u8 = u8::MAX;

/// A state space whose states are numbered `0..size()` ("ranks").
///
/// The neighbour relation must be symmetric (every move has an inverse move), which every
/// cube puzzle's is; the bottom-up phase relies on it.
pub trait RankedSpace: Sync {
    /// Number of ranks.
    fn size(&self) -> u64;

    /// Calls `visit` with the rank of each state one move away from `rank`.
    fn for_each_neighbour(&self, rank: u64, visit: impl FnMut(u64));

    /// Calls `visit` with every neighbour of every rank of `ranks` (ascending), in any
    /// order. The default asks [`Self::for_each_neighbour`] rank by rank; a space whose
    /// nearby ranks share work (a class, a coordinate) does that work once for them.
    fn for_each_neighbour_of_sorted(&self, ranks: &[u64], mut visit: impl FnMut(u64)) {
        for &rank in ranks {
            self.for_each_neighbour(rank, &mut visit);
        }
    }

    /// Whether `test` holds for some neighbour of `rank`. The default asks every
    /// neighbour; a space that can stop at the first hit should, as the bottom-up phase
    /// asks this of every unseen state and most answers come early.
    fn any_neighbour(&self, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let mut hit = false;
        self.for_each_neighbour(rank, |n| hit |= test(n));
        hit
    }

    /// Whether [`RankedSpace::any_neighbour`] stops at the first hit. Then pulling pays
    /// from an earlier layer on: once fewer than twice the frontier's states are unseen.
    const STOPS_EARLY: bool = false;

    /// How many moves [`RankedSpace::neighbours_by_move`] takes; 0 (the default) if the
    /// space does not offer it.
    #[inline]
    fn move_count(&self) -> usize {
        0
    }

    /// The neighbours of `rank` one move at a time: the function gives, for a move
    /// `m < move_count()`, a rank standing for the neighbour by that move (any rank of
    /// its twins, as they share a depth). [`mod3_bfs`] pulls with it over many unseen
    /// ranks, a move per round with each round's reads prefetched, and stops asking for
    /// a rank at its first hit; the rank is decoded once, when this is called.
    #[inline]
    fn neighbours_by_move(&self, _rank: u64) -> impl Fn(usize) -> u64 + '_ {
        |_| unreachable!("neighbours_by_move asked of a space whose move_count is 0")
    }

    /// [`Self::neighbours_by_move`] by move `m` of every rank of `ranks` (ascending),
    /// into `out` (as long), the work nearby ranks share done once; false (the default)
    /// if the space does not offer it, and the ranks are decoded one by one.
    fn neighbours_by_move_of_sorted(&self, _ranks: &[u64], _m: usize, _out: &mut [u64]) -> bool {
        false
    }

    /// How many states the rank stands for (a reduced table's entry stands for its
    /// class); the histogram counts these.
    #[inline]
    fn weight(&self, _rank: u64) -> u64 {
        1
    }

    /// Calls `visit` with the ranks that stand for the same states as `rank` (a reduced
    /// table's twins): [`mod3_bfs`] settles them with it.
    #[inline]
    fn for_each_twin(&self, _rank: u64, _visit: impl FnMut(u64)) {}
}

/// The outcome of a BFS: a depth per rank and the number of states at each depth.
#[derive(Debug, Clone)]
pub struct BfsResult {
    /// Depth of each rank, [`UNREACHED`] if it cannot be reached.
    pub depths: Vec<u8>,
    /// `histogram[d]` = number of states at depth `d`.
    pub histogram: Vec<u64>,
}

impl BfsResult {
    /// Number of reachable states.
    pub fn reached(&self) -> u64 {
        self.histogram.iter().sum()
    }

    /// Greatest depth reached.
    pub fn max_depth(&self) -> usize {
        self.histogram.len().saturating_sub(1)
    }
}

/// Frontier lists at least this long are sorted before they are expanded.
const SORT_FROM: usize = 1 << 16;

/// Chunk of ranks handed to one rayon task when scanning.
const SCAN_CHUNK: usize = 1 << 14;

/// Unseen ranks of one lane of a bottom-up layer of [`mod3_bfs`], pulled together one
/// move at a time when the space offers [`RankedSpace::neighbours_by_move`].
const PULL_GROUP: usize = 256;

/// Lanes of a pull: while one lane's neighbours are on their way from memory, the
/// others work out theirs.
const PULL_LANES: usize = 4;

/// Spaces of at least this many ranks get a note per layer of [`mod3_bfs`] (its depth,
/// ranks and time): builds long enough that a log of where the time went is worth it.
pub(crate) const LOGGED_LAYERS_FROM: u64 = 1 << 30;

/// Neighbours a top-down layer of [`mod3_bfs`] gathers (and prefetches) before it claims
/// them: enough lines in flight to cover a memory latency.
const PUSH_BATCH: usize = 256;

/// Breadth-first search from `sources` over the whole space, all cores, reporting each depth
/// on a progress counter labelled `label`.
///
/// Depths are capped below [`UNREACHED`]: ranks deeper than 254 are left unreached.
pub fn layered_bfs<S: RankedSpace>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
    label: &str,
) -> BfsResult {
    let list_limit = list_limit(space.size());
    bfs_with_list_limit(space, sources, progress, label, list_limit)
}

/// Bytes [`layered_bfs`] may hold over a space of `size` states: a byte a rank, and
/// the frontier lists (see [`list_limit`]). What `--memory` is checked against.
pub fn layered_bfs_bytes(size: u64) -> u64 {
    size.saturating_add(list_limit(size) as u64 * 8)
}

/// The longest frontier kept as a list in a space of `size` states: lists stay below
/// 512 MB however large the space (beyond that, scanning is cheaper).
fn list_limit(size: u64) -> usize {
    let size = usize::try_from(size).expect("state space fits in memory");
    (size / 8).clamp(1 << 12, 1 << 26)
}

/// [`layered_bfs`] with an explicit bound on frontier lists (small bounds exercise the
/// scanning phases in tests).
fn bfs_with_list_limit<S: RankedSpace>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
    label: &str,
    list_limit: usize,
) -> BfsResult {
    let size = space.size() as usize;
    let depths: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNREACHED)).collect();
    let bar = progress.states(label, size as u64);
    let mut frontier: Option<Vec<u64>> = Some(Vec::new());
    let mut layer_count = 0u64;
    for &s in sources {
        if depths[s as usize].swap(0, Ordering::Relaxed) == UNREACHED {
            layer_count += 1;
            if let Some(list) = frontier.as_mut() {
                list.push(s);
            }
        }
    }
    let mut histogram = vec![layer_count];
    let mut unseen = size as u64 - layer_count;
    let mut depth = 0u8;
    bar.set_message(depth.to_string());
    bar.set_position(layer_count);
    // Ranks deeper than a `u8` depth can hold stay [`UNREACHED`]: every caller keeps
    // these depths as lower bounds (pattern databases cap them far below) or builds
    // spaces far shallower.
    while layer_count > 0 && depth < UNREACHED - 1 {
        let next = depth + 1;
        let pull_below = if S::STOPS_EARLY {
            2 * layer_count
        } else {
            layer_count
        };
        let (found, next_list) = if unseen < pull_below {
            (pull_layer(space, &depths, depth, next), None)
        } else {
            match &frontier {
                Some(list) => push_list(space, &depths, list, next, list_limit),
                None => push_scan(space, &depths, depth, next, list_limit),
            }
        };
        frontier = next_list;
        if found == 0 {
            break;
        }
        histogram.push(found);
        unseen -= found;
        layer_count = found;
        depth = next;
        bar.set_message(depth.to_string());
        bar.inc(found);
    }
    bar.finish_and_clear();
    let depths = depths.into_iter().map(AtomicU8::into_inner).collect();
    BfsResult { depths, histogram }
}

/// Marks `rank` as found at depth `next` if it was unseen; true if this call marked it.
#[inline]
fn claim(depths: &[AtomicU8], rank: u64, next: u8) -> bool {
    let cell = &depths[rank as usize];
    cell.load(Ordering::Relaxed) == UNREACHED
        && cell
            .compare_exchange(UNREACHED, next, Ordering::Relaxed, Ordering::Relaxed)
            .is_ok()
}

/// Expands an explicit frontier list. Returns the count found and, if it stayed small
/// enough, the list of newly found ranks.
fn push_list<S: RankedSpace>(
    space: &S,
    depths: &[AtomicU8],
    frontier: &[u64],
    next: u8,
    list_limit: usize,
) -> (u64, Option<Vec<u64>>) {
    // Ranks are listed only while the layer may still fit in a list: once it cannot,
    // tasks just count, so a big layer never holds gigabytes of lists it would drop.
    let listed = AtomicU64::new(0);
    let parts: Vec<(u64, Vec<u64>)> = frontier
        .par_chunks(4096)
        .map(|chunk| {
            let mut found = Vec::new();
            let mut count = 0u64;
            let mut reported = 0usize;
            let mut listing = listed.load(Ordering::Relaxed) <= list_limit as u64;
            for &rank in chunk {
                space.for_each_neighbour(rank, |n| {
                    if claim(depths, n, next) {
                        count += 1;
                        if listing {
                            found.push(n);
                        }
                    }
                });
                if listing && found.len() - reported >= 1024 {
                    let delta = (found.len() - reported) as u64;
                    reported = found.len();
                    if listed.fetch_add(delta, Ordering::Relaxed) + delta > list_limit as u64 {
                        listing = false;
                        found = Vec::new();
                    }
                }
            }
            if listing {
                listed.fetch_add((found.len() - reported) as u64, Ordering::Relaxed);
            }
            (count, found)
        })
        .collect();
    let count: u64 = parts.iter().map(|(c, _)| c).sum();
    if count > list_limit as u64 {
        return (count, None);
    }
    next_layer(
        parts.into_iter().map(|(_, found)| found).collect(),
        list_limit,
    )
}

/// The states found for the next layer, gathered by tasks: their count and, if there are
/// at most `list_limit`, the sorted list of them.
fn next_layer(parts: Vec<Vec<u64>>, list_limit: usize) -> (u64, Option<Vec<u64>>) {
    let count: usize = parts.iter().map(Vec::len).sum();
    let list = (count <= list_limit).then(|| {
        let mut list = parts.concat();
        // In rank order, states expanded one after the other tend to share their
        // neighbours' neighbourhoods (ranks are usually built coordinate by coordinate),
        // so the next layer's writes stay in cache instead of going anywhere in memory.
        if list.len() >= SORT_FROM {
            list.par_sort_unstable();
        }
        list
    });
    (count as u64, list)
}

/// Expands every state at `depth` by scanning the whole depth array.
fn push_scan<S: RankedSpace>(
    space: &S,
    depths: &[AtomicU8],
    depth: u8,
    next: u8,
    list_limit: usize,
) -> (u64, Option<Vec<u64>>) {
    let found: u64 = depths
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let base = (chunk_index * SCAN_CHUNK) as u64;
            let mut found = 0u64;
            for (offset, cell) in chunk.iter().enumerate() {
                if cell.load(Ordering::Relaxed) == depth {
                    space.for_each_neighbour(base + offset as u64, |n| {
                        if claim(depths, n, next) {
                            found += 1;
                        }
                    });
                }
            }
            found
        })
        .sum();
    // A shrinking layer small enough to list again is collected by one more cheap scan.
    let list = (found as usize <= list_limit / 4).then(|| collect_layer(depths, next));
    (found, list)
}

/// Finds unseen states with a neighbour at `depth` (bottom-up).
fn pull_layer<S: RankedSpace>(space: &S, depths: &[AtomicU8], depth: u8, next: u8) -> u64 {
    pull_into(depths, next, |rank| {
        space.any_neighbour(rank, |n| {
            depths[n as usize].load(Ordering::Relaxed) == depth
        })
    })
}

/// Marks every unseen state for which `reached` holds as found at depth `next`; each task
/// writes only its own chunk. Returns how many were found.
fn pull_into(depths: &[AtomicU8], next: u8, reached: impl Fn(u64) -> bool + Sync) -> u64 {
    depths
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let base = (chunk_index * SCAN_CHUNK) as u64;
            let mut found = 0u64;
            for (offset, cell) in chunk.iter().enumerate() {
                if cell.load(Ordering::Relaxed) == UNREACHED && reached(base + offset as u64) {
                    cell.store(next, Ordering::Relaxed);
                    found += 1;
                }
            }
            found
        })
        .sum()
}

fn collect_layer(depths: &[AtomicU8], depth: u8) -> Vec<u64> {
    depths
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .flat_map_iter(|(chunk_index, chunk)| {
            let base = (chunk_index * SCAN_CHUNK) as u64;
            chunk
                .iter()
                .enumerate()
                .filter(move |(_, cell)| cell.load(Ordering::Relaxed) == depth)
                .map(move |(offset, _)| base + offset as u64)
        })
        .collect()
}

/// A ranked state space whose moves cost 1 or 2, such as quarter turns next to half turns
/// that are not two of the space's own moves (R2 inside a subgroup without R). The relation
/// of each cost must be symmetric.
pub trait WeightedSpace: Sync {
    /// Number of ranks.
    fn size(&self) -> u64;

    /// Whether `test` holds for a neighbour of `rank` by a move of cost `cost` (1 or 2);
    /// may stop at the first hit.
    fn any_neighbour_costing(&self, rank: u64, cost: u8, test: impl FnMut(u64) -> bool) -> bool;
}

/// Breadth-first search by cost (Dial's algorithm with two buckets) from `sources`, all
/// cores: layer `d + 1` is every unseen state one cost-1 move from layer `d` or one cost-2
/// move from layer `d - 1`. Small layers are kept as sorted lists and pushed from; larger
/// ones are found by scanning the depth array, pushing while many states are unseen and
/// pulling once fewer than the two frontier layers remain.
pub fn weighted_bfs<S: WeightedSpace>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
    label: &str,
) -> BfsResult {
    let size = space.size() as usize;
    let list_limit = list_limit(space.size());
    let depths: Vec<AtomicU8> = (0..size).map(|_| AtomicU8::new(UNREACHED)).collect();
    let bar = progress.counter(label);
    let mut first = Vec::new();
    for &s in sources {
        if depths[s as usize].swap(0, Ordering::Relaxed) == UNREACHED {
            first.push(s);
        }
    }
    let mut histogram = vec![first.len() as u64];
    let mut unseen = (size - first.len()) as u64;
    bar.set_position(first.len() as u64);
    // The states of the last two layers, while they are small enough to list.
    let (mut layer_list, mut before_list) = (Some(first), Some(Vec::new()));
    let mut depth = 0u8;
    loop {
        let layer = histogram[depth as usize];
        let before = if depth > 0 {
            histogram[depth as usize - 1]
        } else {
            0
        };
        // Deeper than a `u8` depth can hold: the rest stays unreached (a lower bound).
        if unseen == 0 || layer + before == 0 || depth >= UNREACHED - 2 {
            break;
        }
        let next = depth + 1;
        let (found, list) = match (&layer_list, &before_list) {
            (Some(layer), Some(before)) if unseen >= layer.len() as u64 + before.len() as u64 => {
                weighted_push_lists(space, &depths, layer, before, next, list_limit)
            }
            _ => (
                weighted_scan(space, &depths, depth, next, unseen < layer + before),
                None,
            ),
        };
        before_list = layer_list;
        layer_list = list;
        histogram.push(found);
        unseen -= found;
        depth = next;
        bar.set_message(depth.to_string());
        bar.inc(found);
    }
    bar.finish_and_clear();
    while histogram.last() == Some(&0) {
        histogram.pop();
    }
    let depths = depths.into_iter().map(AtomicU8::into_inner).collect();
    BfsResult { depths, histogram }
}

/// One layer of [`weighted_bfs`] from listed frontiers: cost-1 moves from `layer`, cost-2
/// moves from `before`. Returns the count and, if small enough, the sorted new layer.
fn weighted_push_lists<S: WeightedSpace>(
    space: &S,
    depths: &[AtomicU8],
    layer: &[u64],
    before: &[u64],
    next: u8,
    list_limit: usize,
) -> (u64, Option<Vec<u64>>) {
    let expand = |ranks: &[u64], cost: u8| -> Vec<Vec<u64>> {
        ranks
            .par_chunks(4096)
            .map(|chunk| {
                let mut found = Vec::new();
                for &rank in chunk {
                    space.any_neighbour_costing(rank, cost, |n| {
                        if claim(depths, n, next) {
                            found.push(n);
                        }
                        false
                    });
                }
                found
            })
            .collect()
    };
    let mut parts = expand(layer, 1);
    parts.extend(expand(before, 2));
    next_layer(parts, list_limit)
}

/// One layer of [`weighted_bfs`] by scanning the depth array, pulling into unseen states
/// (`pull`: fewer unseen states than frontier ones; pulling tests every neighbour of each
/// state that stays unseen, pushing expands each frontier state once) or pushing.
fn weighted_scan<S: WeightedSpace>(
    space: &S,
    depths: &[AtomicU8],
    depth: u8,
    next: u8,
    pull: bool,
) -> u64 {
    let at = |n: u64, d: u8| depths[n as usize].load(Ordering::Relaxed) == d;
    if pull {
        return pull_into(depths, next, |rank| {
            space.any_neighbour_costing(rank, 1, |n| at(n, depth))
                || (depth > 0 && space.any_neighbour_costing(rank, 2, |n| at(n, depth - 1)))
        });
    }
    depths
        .par_chunks(SCAN_CHUNK)
        .enumerate()
        .map(|(chunk_index, chunk)| {
            let base = (chunk_index * SCAN_CHUNK) as u64;
            let mut found = 0u64;
            for (offset, cell) in chunk.iter().enumerate() {
                let here = cell.load(Ordering::Relaxed);
                let cost = if here == depth {
                    1
                } else if depth > 0 && here == depth - 1 {
                    2
                } else {
                    continue;
                };
                space.any_neighbour_costing(base + offset as u64, cost, |n| {
                    found += u64::from(claim(depths, n, next));
                    false
                });
            }
            found
        })
        .sum()
}

/// The outcome of [`mod3_bfs`]: every rank's depth modulo 3 in two bits (3: unreached),
/// four ranks per byte, lowest bits first; and the number of states at each depth.
#[derive(Debug, Clone)]
pub struct Mod3Result {
    /// The packed depths.
    pub crumbs: Vec<u8>,
    /// `histogram[d]` = number of states at depth `d`.
    pub histogram: Vec<u64>,
}

/// Each rank's depth as [`mod3_bfs_observed`] reaches it, 4 bits, two per byte (rank
/// `r` in the low half of byte `r / 2` when even), [`DepthNibbles::UNREACHED`] where it
/// is never reached or is 15 or more deep: written from every thread, each entry once,
/// and read back with `table::packed::Nibbles`.
pub struct DepthNibbles(Vec<AtomicU8>);

impl DepthNibbles {
    /// A rank's entry when the search never reached it (or reached it 15 or more deep).
    pub const UNREACHED: u8 = 15;

    /// Every one of `entries` ranks unreached.
    pub fn new(entries: u64) -> Self {
        Self(
            (0..entries.div_ceil(2))
                .map(|_| AtomicU8::new(0xFF))
                .collect(),
        )
    }

    /// The entries, two per byte.
    pub fn into_bytes(self) -> Vec<u8> {
        self.0.into_iter().map(AtomicU8::into_inner).collect()
    }
}

impl Mod3Observer for DepthNibbles {
    fn reached(&self, rank: u64, depth: usize) {
        // From 15 (every bit set) to the depth: clear the bits the depth lacks. Depths
        // past 14 leave 15 behind.
        let depth = depth.min(Self::UNREACHED as usize) as u8;
        let shift = 4 * (rank & 1);
        self.0[(rank >> 1) as usize]
            .fetch_and(!((Self::UNREACHED & !depth) << shift), Ordering::Relaxed);
    }
}

/// What a caller of [`mod3_bfs_observed`] learns as the search goes, and where it stops.
pub trait Mod3Observer: Sync {
    /// `rank` was reached at `depth` (called from every thread, once per rank).
    #[inline]
    fn reached(&self, _rank: u64, _depth: usize) {}

    /// Layer `depth` is complete: `histogram[..=depth]` is known and `crumbs` (four ranks
    /// per byte, as in [`Mod3Result`]) holds every rank reached so far. `lists[k]` holds
    /// the ranks of layer `k` for the first `lists.len()` layers: small layers are listed,
    /// and a layer whose frontier is listed is expanded from its list, not by a scan.
    /// Older lists are freed after this call unless [`Self::keeps_lists`]; clearing them
    /// makes the next layers scan. Returns whether to go on to the next layer.
    fn layer_done(
        &mut self,
        _depth: usize,
        _histogram: &[u64],
        _crumbs: &[AtomicU8],
        _lists: &mut Vec<Vec<u64>>,
    ) -> bool {
        true
    }

    /// Whether the search keeps every layer's list (see [`Self::layer_done`]), not only
    /// the frontier's.
    fn keeps_lists(&self) -> bool {
        false
    }
}

/// The observer of a search that is told nothing and runs to the end.
impl Mod3Observer for () {}

/// Breadth-first search that keeps only each state's depth modulo 3, in two bits: a
/// quarter of a byte per state and nothing else, so the whole search fits where the
/// finished table does.
///
/// Small layers are listed (while the lists hold at most a rank in 128) and a listed
/// frontier is expanded from its list, in rank order. Other layers scan every rank.
/// Top-down, a scan expands the states holding `d mod 3`; that includes older ones
/// (depth `d - 3`, ...), whose neighbours are all seen, so they cost time but change
/// nothing. Bottom-up (once few states are unseen), an unseen state joins
/// the next layer if a neighbour holds `d mod 3`: a state at depth `d - 3` has no unseen
/// neighbour, so the test is exact. The neighbour relation must be symmetric.
///
/// Top-down claims are batched behind prefetches; a space offering
/// [`RankedSpace::neighbours_by_move`] is pulled a move at a time over groups of unseen
/// ranks (see `docs/rubik-optimal.md`, "The build", for what each costs).
pub fn mod3_bfs<S: RankedSpace>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
    label: &str,
) -> Mod3Result {
    mod3_bfs_observed(space, sources, progress, label, &mut ())
}

/// Bytes [`mod3_bfs`] may hold over a space of `size` states: two bits a rank, and the
/// lists of small layers (at most a rank in 128, eight bytes each). What `--memory` is
/// checked against.
pub fn mod3_bfs_bytes(size: u64) -> u64 {
    size.div_ceil(4) + size / 128 * 8
}

/// [`mod3_bfs`] telling `observer` of every rank reached and every layer completed, and
/// stopping after the layer it says to stop at (ranks beyond stay unreached, 3).
pub fn mod3_bfs_observed<S: RankedSpace, O: Mod3Observer>(
    space: &S,
    sources: &[u64],
    progress: &Progress,
    label: &str,
    observer: &mut O,
) -> Mod3Result {
    let size = space.size();
    let bytes: Vec<AtomicU8> = (0..size.div_ceil(4)).map(|_| AtomicU8::new(0xFF)).collect();
    let bar = progress.states(label, size);
    let (mut layer, mut states) = (0u64, 0u64);
    let mut first = Vec::new();
    for &s in sources {
        if claim_crumb(&bytes, s, 0) {
            observer.reached(s, 0);
            first.push(s);
            layer += 1;
            states += space.weight(s);
            space.for_each_twin(s, |twin| {
                if claim_crumb(&bytes, twin, 0) {
                    observer.reached(twin, 0);
                    first.push(twin);
                    layer += 1;
                    states += space.weight(twin);
                }
            });
        }
    }
    // Layers are listed while all the lists hold at most a rank in 128 (eight bytes
    // each: a quarter of the table's bytes).
    let list_room = (size / 128) as usize;
    let mut lists = vec![first];
    let mut histogram = vec![states];
    let mut unseen = size - layer;
    let mut depth = 0usize;
    bar.set_message(depth.to_string());
    bar.set_position(layer);
    let mut go_on = observer.layer_done(0, &histogram, &bytes, &mut lists);
    let started = Instant::now();
    let by_move = space.move_count() > 0;
    while go_on && layer > 0 && unseen > 0 {
        let layer_started = Instant::now();
        let current = (depth % 3) as u8;
        let next = ((depth + 1) % 3) as u8;
        let pull_below = if S::STOPS_EARLY || by_move {
            2 * layer
        } else {
            layer
        };
        let observer_now: &O = observer;
        let mut listed = None;
        // Per layer: ranks settled (for the bottom-up switch) and states they stand for.
        let (found, states) = if lists.len() == depth + 1 {
            let room = list_room.saturating_sub(lists.iter().map(Vec::len).sum());
            let (found, states, list) =
                push_from_list(space, &bytes, &lists[depth], depth, observer_now, room);
            listed = list;
            (found, states)
        } else {
            bytes
                .par_chunks(SCAN_CHUNK / 4)
                .enumerate()
                .map(|(chunk_index, chunk)| {
                    let base = (chunk_index * SCAN_CHUNK) as u64;
                    let mut found = (0u64, 0u64);
                    let settle = |rank: u64, found: &mut (u64, u64)| {
                        observer_now.reached(rank, depth + 1);
                        found.0 += 1;
                        found.1 += space.weight(rank);
                        space.for_each_twin(rank, |twin| {
                            if claim_crumb(&bytes, twin, next) {
                                observer_now.reached(twin, depth + 1);
                                found.0 += 1;
                                found.1 += space.weight(twin);
                            }
                        });
                    };
                    // Top-down, the neighbours of several frontier ranks are gathered and
                    // their bytes prefetched before any is claimed: a claim is a locked
                    // instruction, which waits for its line before anything after it runs.
                    let mut pending: Vec<u64> = Vec::with_capacity(PUSH_BATCH + 64);
                    let claim_pending = |pending: &mut Vec<u64>, found: &mut (u64, u64)| {
                        for n in pending.drain(..) {
                            if claim_crumb(&bytes, n, next) {
                                settle(n, found);
                            }
                        }
                    };
                    let pulling = unseen < pull_below;
                    // The ranks worth a look: unseen ones when pulling, the frontier's when
                    // pushing. A byte holding none is passed over at the cost of its load.
                    let wanted = if pulling { 3 } else { current };
                    let mut unseen_group: Vec<u64> = Vec::with_capacity(PULL_GROUP * PULL_LANES);
                    // Pushing, the chunk's frontier ranks, expanded together once listed.
                    let mut frontier: Vec<u64> = Vec::new();
                    let mut pull = Pull::default();
                    let mut pull_group = |group: &mut Vec<u64>, found: &mut (u64, u64)| {
                        pull.run(space, &bytes, group, current);
                        claim_sorted(&bytes, &pull.hits, next, |rank| settle(rank, found));
                        group.clear();
                    };
                    // Eight bytes (32 ranks) at a time: on the early layers of a big table
                    // nearly every word holds none, and the scan is the layer's whole cost.
                    for (offset, eight) in chunk.chunks(8).enumerate() {
                        let mut hits = word_slots_holding(word_of(eight), wanted);
                        while hits != 0 {
                            let slot = u64::from(hits.trailing_zeros() / 2);
                            hits &= hits - 1;
                            let rank = base + offset as u64 * 32 + slot;
                            if rank >= size {
                                break;
                            }
                            if pulling && by_move {
                                unseen_group.push(rank);
                                if unseen_group.len() == PULL_GROUP * PULL_LANES {
                                    pull_group(&mut unseen_group, &mut found);
                                }
                            } else if pulling {
                                if space.any_neighbour(rank, |n| crumb(&bytes, n) == current)
                                    && claim_crumb(&bytes, rank, next)
                                {
                                    settle(rank, &mut found);
                                }
                            } else {
                                frontier.push(rank);
                            }
                        }
                    }
                    space.for_each_neighbour_of_sorted(&frontier, |n| {
                        prefetch(&bytes, (n >> 2) as usize);
                        pending.push(n);
                        if pending.len() >= PUSH_BATCH {
                            claim_pending(&mut pending, &mut found);
                        }
                    });
                    claim_pending(&mut pending, &mut found);
                    pull_group(&mut unseen_group, &mut found);
                    found
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
        };
        if found == 0 {
            break;
        }
        histogram.push(states);
        unseen -= found;
        layer = found;
        depth += 1;
        bar.set_message(depth.to_string());
        bar.inc(found);
        lists.extend(listed);
        go_on = observer.layer_done(depth, &histogram, &bytes, &mut lists);
        if !observer.keeps_lists() {
            let older = lists.len().saturating_sub(1);
            lists[..older]
                .iter_mut()
                .for_each(|list| *list = Vec::new());
        }
        if size >= LOGGED_LAYERS_FROM {
            progress.note(format!(
                "{label}: depth {depth}: {found} ranks in {:.1} s ({:.1} s in all)",
                layer_started.elapsed().as_secs_f64(),
                started.elapsed().as_secs_f64()
            ));
        }
    }
    bar.finish_and_clear();
    let crumbs = bytes.into_iter().map(AtomicU8::into_inner).collect();
    Mod3Result { crumbs, histogram }
}

/// One top-down layer of [`mod3_bfs_observed`] from its listed frontier `frontier` (at
/// `depth`): the neighbours claimed in batches behind prefetches, as a scanned layer's.
/// Returns the ranks settled, the states they stand for, and their list if it holds at
/// most `room` ranks.
fn push_from_list<S: RankedSpace, O: Mod3Observer>(
    space: &S,
    bytes: &[AtomicU8],
    frontier: &[u64],
    depth: usize,
    observer: &O,
    room: usize,
) -> (u64, u64, Option<Vec<u64>>) {
    let next = ((depth + 1) % 3) as u8;
    let listed = std::sync::atomic::AtomicUsize::new(0);
    let parts: Vec<((u64, u64), Vec<u64>)> = frontier
        .par_chunks(1024)
        .map(|ranks| {
            let (mut found, mut list) = ((0u64, 0u64), Vec::new());
            let listing = || listed.load(Ordering::Relaxed) <= room;
            let settle = |rank: u64, found: &mut (u64, u64), list: &mut Vec<u64>| {
                observer.reached(rank, depth + 1);
                found.0 += 1;
                found.1 += space.weight(rank);
                if listing() {
                    list.push(rank);
                }
                space.for_each_twin(rank, |twin| {
                    if claim_crumb(bytes, twin, next) {
                        observer.reached(twin, depth + 1);
                        found.0 += 1;
                        found.1 += space.weight(twin);
                        if listing() {
                            list.push(twin);
                        }
                    }
                });
            };
            let mut pending: Vec<u64> = Vec::with_capacity(PUSH_BATCH + 64);
            let mut claim_pending = |pending: &mut Vec<u64>| {
                for n in pending.drain(..) {
                    if claim_crumb(bytes, n, next) {
                        settle(n, &mut found, &mut list);
                    }
                }
            };
            space.for_each_neighbour_of_sorted(ranks, |n| {
                prefetch(bytes, (n >> 2) as usize);
                pending.push(n);
                if pending.len() >= PUSH_BATCH {
                    claim_pending(&mut pending);
                }
            });
            claim_pending(&mut pending);
            listed.fetch_add(list.len(), Ordering::Relaxed);
            (found, list)
        })
        .collect();
    let found = parts
        .iter()
        .fold((0, 0), |a, (b, _)| (a.0 + b.0, a.1 + b.1));
    let listed = listed.into_inner();
    let list = (listed <= room).then(|| {
        let mut list = Vec::with_capacity(listed);
        parts.into_iter().for_each(|(_, part)| list.extend(part));
        // In rank order, as a scan would meet them: neighbours of nearby ranks lie near
        // each other (the 2g build's ninth layer: 6 s sorted, 50 s unsorted).
        list.par_sort_unstable();
        list
    });
    (found.0, found.1, list)
}

/// The bottom-up test of a group of unseen ranks: which have a neighbour in the
/// frontier. The group is cut into [`PULL_LANES`] lanes of [`PULL_GROUP`] ranks, each
/// asking for its open ranks' neighbours one move at a time; a lane's neighbours are
/// prefetched, then the other lanes take their turn before they are read, so the reads
/// of one lane overlap the work of the others. A rank leaves its lane at its first hit.
#[derive(Default)]
struct Pull {
    lanes: Vec<PullLane>,
    /// The ranks found, ascending: the output of [`Pull::run`].
    hits: Vec<u64>,
}

/// One lane of a [`Pull`].
#[derive(Default)]
struct PullLane {
    /// The lane's ranks, ascending.
    ranks: Vec<u64>,
    /// Those still open, ascending, and their places in `ranks`.
    open: Vec<u64>,
    open_at: Vec<u16>,
    /// The open ranks' neighbours by `next_move - 1`, asked for and not yet read.
    neighbours: Vec<u64>,
    next_move: usize,
    /// Bit `k`: `ranks[k]` has a neighbour in the frontier.
    hit: [u64; PULL_GROUP / 64],
}

impl PullLane {
    fn start(&mut self, ranks: &[u64]) {
        self.ranks.clear();
        self.ranks.extend_from_slice(ranks);
        self.open.clear();
        self.open.extend_from_slice(ranks);
        self.open_at.clear();
        self.open_at.extend(0..ranks.len() as u16);
        self.next_move = 0;
        self.hit = [0; PULL_GROUP / 64];
    }

    /// Asks for the open ranks' neighbours by the next move and prefetches them; false
    /// if the lane is done (nothing open, or no move left).
    fn ask<S: RankedSpace>(&mut self, space: &S, bytes: &[AtomicU8]) -> bool {
        if self.open.is_empty() || self.next_move == space.move_count() {
            return false;
        }
        self.neighbours.resize(self.open.len(), 0);
        space.neighbours_by_move_of_sorted(&self.open, self.next_move, &mut self.neighbours);
        self.next_move += 1;
        // Into the second-level cache: more lines are in flight that way (as for the
        // search's table reads, `table::prefetch_to_l2`).
        for &n in &self.neighbours {
            prefetch_to_l2(bytes, (n >> 2) as usize);
        }
        true
    }

    /// Reads the neighbours asked for: the ranks with one holding `current` are hits
    /// and leave the lane.
    fn read(&mut self, bytes: &[AtomicU8], current: u8) {
        // Without branches: a hit is as likely as not, and a mispredicted branch costs
        // what a read from the second-level cache does.
        let mut kept = 0;
        for k in 0..self.open.len() {
            let hit = crumb(bytes, self.neighbours[k]) == current;
            let at = self.open_at[k] as usize;
            self.hit[at / 64] |= u64::from(hit) << (at % 64);
            self.open[kept] = self.open[k];
            self.open_at[kept] = self.open_at[k];
            kept += usize::from(!hit);
        }
        self.open.truncate(kept);
        self.open_at.truncate(kept);
    }
}

impl Pull {
    /// Finds the ranks of `group` (unseen, ascending) with a neighbour holding
    /// `current`, into `self.hits`.
    fn run<S: RankedSpace>(&mut self, space: &S, bytes: &[AtomicU8], group: &[u64], current: u8) {
        self.hits.clear();
        if group.is_empty() {
            return;
        }
        // Whether the space offers a move's neighbours of many ranks at once (asked of
        // one rank).
        if !space.neighbours_by_move_of_sorted(&group[..1], 0, &mut [0]) {
            pull_one_by_one(space, bytes, group, current, &mut self.hits);
            return;
        }
        assert!(
            group.len() <= PULL_GROUP * PULL_LANES,
            "a pull of {} ranks",
            group.len()
        );
        let lanes = group.len().div_ceil(PULL_GROUP);
        self.lanes.resize_with(PULL_LANES, PullLane::default);
        let lanes = &mut self.lanes[..lanes];
        let mut busy = [false; PULL_LANES];
        for ((lane, ranks), busy) in lanes
            .iter_mut()
            .zip(group.chunks(PULL_GROUP))
            .zip(&mut busy)
        {
            lane.start(ranks);
            *busy = lane.ask(space, bytes);
        }
        while busy.contains(&true) {
            for (lane, busy) in lanes.iter_mut().zip(busy.iter_mut()) {
                if *busy {
                    lane.read(bytes, current);
                    *busy = lane.ask(space, bytes);
                }
            }
        }
        for lane in lanes.iter() {
            for (word, &bits) in lane.hit.iter().enumerate() {
                let mut bits = bits;
                while bits != 0 {
                    self.hits
                        .push(lane.ranks[word * 64 + bits.trailing_zeros() as usize]);
                    bits &= bits - 1;
                }
            }
        }
    }
}

/// [`Pull::run`] for a space that offers its neighbours by move a rank at a time: each
/// rank decoded once for all its moves.
fn pull_one_by_one<S: RankedSpace>(
    space: &S,
    bytes: &[AtomicU8],
    group: &[u64],
    current: u8,
    hits: &mut Vec<u64>,
) {
    let mut open: Vec<_> = group
        .iter()
        .map(|&rank| (rank, space.neighbours_by_move(rank), 0u64))
        .collect();
    for m in 0..space.move_count() {
        for (_, by_move, neighbour) in open.iter_mut() {
            *neighbour = by_move(m);
            prefetch(bytes, (*neighbour >> 2) as usize);
        }
        open.retain(|(rank, _, neighbour)| {
            let hit = crumb(bytes, *neighbour) == current;
            if hit {
                hits.push(*rank);
            }
            !hit
        });
        if open.is_empty() {
            break;
        }
    }
    hits.sort_unstable();
}

/// Claims `ranks` (ascending) for `value`, one locked operation per byte for the ranks
/// it holds, and calls `settle` with each rank this call set (those still unreached).
fn claim_sorted(bytes: &[AtomicU8], ranks: &[u64], value: u8, mut settle: impl FnMut(u64)) {
    let mut k = 0;
    while k < ranks.len() {
        let byte = ranks[k] >> 2;
        let end = k + ranks[k..].iter().take_while(|&&r| r >> 2 == byte).count();
        // An unreached field is 3, and a field this layer reached holds `value`: an AND
        // with `value` in the ranks' fields sets the first and leaves the second.
        let keep = ranks[k..end]
            .iter()
            .fold(0xFFu8, |mask, &r| mask & !((3 ^ value) << (2 * (r & 3))));
        let old = bytes[byte as usize].fetch_and(keep, Ordering::Relaxed);
        for &rank in &ranks[k..end] {
            if old >> (2 * (rank & 3)) & 3 == 3 {
                settle(rank);
            }
        }
        k = end;
    }
}

/// The two-bit fields of `word` that hold `value`, each marked by its lower bit (so
/// `trailing_zeros() / 2` is the first one's slot).
#[inline]
pub(crate) fn word_slots_holding(word: u64, value: u8) -> u64 {
    const LOW_BITS: u64 = 0x5555_5555_5555_5555;
    let differs = word ^ (u64::from(value) * LOW_BITS);
    !(differs | differs >> 1) & LOW_BITS
}

/// Up to eight bytes as one little-endian word (byte `k` in bits `8 k ..`); missing
/// bytes read as `0xFF`, unreached.
#[inline(always)]
pub(crate) fn word_of(bytes: &[AtomicU8]) -> u64 {
    if let [a, b, c, d, e, f, g, h] = bytes {
        // Eight plain loads: atomics are never merged, but these cost one each.
        u64::from_le_bytes([a, b, c, d, e, f, g, h].map(|x| x.load(Ordering::Relaxed)))
    } else {
        let mut word = [0xFF; 8];
        for (to, from) in word.iter_mut().zip(bytes) {
            *to = from.load(Ordering::Relaxed);
        }
        u64::from_le_bytes(word)
    }
}

/// The two bits of `rank`.
#[inline]
fn crumb(bytes: &[AtomicU8], rank: u64) -> u8 {
    bytes[(rank >> 2) as usize].load(Ordering::Relaxed) >> (2 * (rank & 3)) & 3
}

/// Sets the two bits of `rank` to `value` if they say unreached; true if this call did.
#[inline]
fn claim_crumb(bytes: &[AtomicU8], rank: u64, value: u8) -> bool {
    let cell = &bytes[(rank >> 2) as usize];
    let shift = 2 * (rank & 3);
    let mut old = cell.load(Ordering::Relaxed);
    loop {
        if old >> shift & 3 != 3 {
            return false;
        }
        let new = old & !(3 << shift) | value << shift;
        match cell.compare_exchange_weak(old, new, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(seen) => old = seen,
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A cycle of `n` states: depths from 0 are distances around the ring.
    struct Ring(u64);

    impl RankedSpace for Ring {
        fn size(&self) -> u64 {
            self.0
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            visit((rank + 1) % self.0);
            visit((rank + self.0 - 1) % self.0);
        }
    }

    /// A 2-D torus, wide enough to trigger the scanning and pulling phases (also the
    /// test space of `search::based`).
    pub(crate) struct Torus(pub(crate) u64);

    impl RankedSpace for Torus {
        fn size(&self) -> u64 {
            self.0 * self.0
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            let n = self.0;
            let (x, y) = (rank % n, rank / n);
            visit((x + 1) % n + y * n);
            visit((x + n - 1) % n + y * n);
            visit(x + ((y + 1) % n) * n);
            visit(x + ((y + n - 1) % n) * n);
        }
    }

    /// The same torus, stopping at the first neighbour that answers (so it pulls earlier).
    struct EarlyTorus(u64);

    impl RankedSpace for EarlyTorus {
        fn size(&self) -> u64 {
            Torus(self.0).size()
        }
        fn for_each_neighbour(&self, rank: u64, visit: impl FnMut(u64)) {
            Torus(self.0).for_each_neighbour(rank, visit)
        }
        fn any_neighbour(&self, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
            let mut hit = false;
            Torus(self.0).for_each_neighbour(rank, |n| hit = hit || test(n));
            hit
        }
        const STOPS_EARLY: bool = true;
    }

    #[test]
    fn early_exit_spaces_give_the_same_depths() {
        let n = 241u64;
        let sources = [3, 100 + 17 * n];
        let all = bfs_with_list_limit(&Torus(n), &sources, &Progress::hidden(), "t", 50);
        let early = bfs_with_list_limit(&EarlyTorus(n), &sources, &Progress::hidden(), "t", 50);
        assert_eq!(all.depths, early.depths);
        assert_eq!(all.histogram, early.histogram);
    }

    /// The torus with vertical steps costing 2: distances are |dx| + 2 |dy| on the ring.
    struct SlowVertical(u64);

    impl WeightedSpace for SlowVertical {
        fn size(&self) -> u64 {
            self.0 * self.0
        }
        fn any_neighbour_costing(
            &self,
            rank: u64,
            cost: u8,
            mut test: impl FnMut(u64) -> bool,
        ) -> bool {
            let n = self.0;
            let (x, y) = (rank % n, rank / n);
            match cost {
                1 => test((x + 1) % n + y * n) || test((x + n - 1) % n + y * n),
                _ => test(x + ((y + 1) % n) * n) || test(x + ((y + n - 1) % n) * n),
            }
        }
    }

    #[test]
    fn weighted_depths_are_weighted_distances() {
        let n = 81u64;
        let result = weighted_bfs(&SlowVertical(n), &[0], &Progress::hidden(), "w");
        let ring = |a: u64| a.min(n - a);
        for rank in 0..n * n {
            let (x, y) = (rank % n, rank / n);
            assert_eq!(
                result.depths[rank as usize] as u64,
                ring(x) + 2 * ring(y),
                "{rank}"
            );
        }
        assert_eq!(result.reached(), n * n);
        assert_eq!(result.max_depth() as u64, 3 * (n / 2));
    }

    /// Check one space: the mod-3 search agrees with the full one, rank by rank.
    fn same_as_full<S: RankedSpace>(space: &S, sources: &[u64]) {
        let full = layered_bfs(space, sources, &Progress::hidden(), "test");
        let crumbs = mod3_bfs(space, sources, &Progress::hidden(), "test");
        assert_eq!(crumbs.histogram, full.histogram);
        for (rank, &d) in full.depths.iter().enumerate() {
            let v = crumbs.crumbs[rank / 4] >> (2 * (rank % 4)) & 3;
            let want = if d == UNREACHED { 3 } else { d % 3 };
            assert_eq!(v, want, "rank {rank}");
        }
    }

    /// A ring whose ranks `r` and `n - r` are twins: one reached stands for both.
    struct MirrorRing(u64);

    impl RankedSpace for MirrorRing {
        fn size(&self) -> u64 {
            self.0
        }
        fn for_each_neighbour(&self, rank: u64, visit: impl FnMut(u64)) {
            Ring(self.0).for_each_neighbour(rank, visit)
        }
        fn for_each_twin(&self, rank: u64, mut visit: impl FnMut(u64)) {
            visit((self.0 - rank) % self.0)
        }
    }

    /// Even ranks in a ring of their own; odd ranks never reached from an even source.
    struct EvenRing(u64);

    impl RankedSpace for EvenRing {
        fn size(&self) -> u64 {
            self.0
        }
        fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
            visit((rank + 2) % self.0);
            visit((rank + self.0 - 2) % self.0);
        }
    }

    /// A space that also offers its neighbours one move at a time (so the mod-3 search
    /// pulls them by move), rank by rank or, if the flag says so, for many ranks at once.
    struct ByMove<S>(S, usize, bool);

    impl<S: RankedSpace> RankedSpace for ByMove<S> {
        fn size(&self) -> u64 {
            self.0.size()
        }
        fn for_each_neighbour(&self, rank: u64, visit: impl FnMut(u64)) {
            self.0.for_each_neighbour(rank, visit)
        }
        fn move_count(&self) -> usize {
            self.1
        }
        fn neighbours_by_move(&self, rank: u64) -> impl Fn(usize) -> u64 + '_ {
            let mut neighbours = Vec::new();
            self.0.for_each_neighbour(rank, |n| neighbours.push(n));
            move |m| neighbours[m]
        }
        fn neighbours_by_move_of_sorted(&self, ranks: &[u64], m: usize, out: &mut [u64]) -> bool {
            assert!(ranks.is_sorted());
            for (slot, &rank) in out.iter_mut().zip(ranks) {
                *slot = self.neighbours_by_move(rank)(m);
            }
            self.2
        }
    }

    #[test]
    fn mod3_depths_match_full_depths() {
        same_as_full(&Ring(401), &[0]);
        same_as_full(&Torus(241), &[3, 100 + 17 * 241]);
        same_as_full(&EarlyTorus(199), &[0]);
        same_as_full(&EvenRing(402), &[0, 10]);
        // Pulling by move: a space of several scan chunks with a partial last group, and
        // one whose odd ranks are never reached.
        same_as_full(&ByMove(Torus(199), 4, false), &[0, 77]);
        same_as_full(&ByMove(Torus(131), 4, false), &[5]);
        same_as_full(&ByMove(EvenRing(402), 2, false), &[0, 10]);
        same_as_full(&ByMove(Torus(199), 4, true), &[0, 77]);
        same_as_full(&ByMove(EvenRing(402), 2, true), &[0, 10]);
        same_as_full(&MirrorRing(401), &[0]);
    }

    #[test]
    fn claims_by_byte_set_only_unreached_fields() {
        // Byte 0: ranks 0-3 unreached but rank 2, already at 1 (reached this layer,
        // as a twin); byte 1: rank 5 at 0, the rest unreached; byte 2 untouched.
        let bytes: Vec<AtomicU8> = [0b11_01_11_11u8, 0b11_11_00_11, 0xFF]
            .into_iter()
            .map(AtomicU8::new)
            .collect();
        let mut settled = Vec::new();
        claim_sorted(&bytes, &[0, 2, 3, 4, 6], 1, |rank| settled.push(rank));
        assert_eq!(settled, [0, 3, 4, 6]);
        let crumbs: Vec<u8> = (0..12).map(|rank| crumb(&bytes, rank)).collect();
        assert_eq!(crumbs, [1, 3, 1, 1, 1, 0, 1, 3, 3, 3, 3, 3]);
    }

    #[test]
    fn ring_depths_are_distances() {
        let result = layered_bfs(&Ring(101), &[0], &Progress::hidden(), "ring");
        for (rank, &d) in result.depths.iter().enumerate() {
            let rank = rank as u64;
            assert_eq!(d as u64, rank.min(101 - rank));
        }
        assert_eq!(result.reached(), 101);
        assert_eq!(result.max_depth(), 50);
    }

    #[test]
    fn torus_depths_match_manhattan_distance_in_every_phase() {
        let n = 241u64;
        let sources = [0, 5 + 7 * n];
        let lists_only = layered_bfs(&Torus(n), &sources, &Progress::hidden(), "torus");
        // A tiny list bound forces scanning (push) and, near the end, pulling.
        let scanning = bfs_with_list_limit(&Torus(n), &sources, &Progress::hidden(), "t", 50);
        assert_eq!(lists_only.depths, scanning.depths);
        assert_eq!(lists_only.histogram, scanning.histogram);
        let result = scanning;
        let ring = |a: u64, b: u64| {
            let d = a.abs_diff(b);
            d.min(n - d)
        };
        for rank in 0..n * n {
            let (x, y) = (rank % n, rank / n);
            let expected = (ring(x, 0) + ring(y, 0)).min(ring(x, 5) + ring(y, 7));
            assert_eq!(result.depths[rank as usize] as u64, expected, "rank {rank}");
        }
        assert_eq!(result.reached(), n * n);
    }
}

/// Breadth-first search by cost where moves cost 0 or 1 (Square-1's layer turns cost
/// nothing in its twist metric, its slashes one), from `sources` over `size` ranks:
/// each layer is first closed under the cost-0 moves, then the cost-1 moves open the
/// next. `neighbour(rank, m)` is the rank one move `m` away. One core and a byte per
/// rank: for the small spaces whose moves have such costs. The moves of each cost must
/// be closed under inverses.
pub fn costed_bfs(
    size: u64,
    sources: &[u64],
    costs: &[u8],
    neighbour: impl Fn(u64, usize) -> u64,
) -> BfsResult {
    let mut depths = vec![UNREACHED; size as usize];
    let mut layer: Vec<u64> = Vec::new();
    for &s in sources {
        if depths[s as usize] == UNREACHED {
            depths[s as usize] = 0;
            layer.push(s);
        }
    }
    let free: Vec<usize> = (0..costs.len()).filter(|&m| costs[m] == 0).collect();
    let paid: Vec<usize> = (0..costs.len()).filter(|&m| costs[m] != 0).collect();
    let mut histogram = Vec::new();
    let mut depth = 0u8;
    while !layer.is_empty() {
        // Close the layer under the free moves.
        let mut at = 0;
        while at < layer.len() {
            let rank = layer[at];
            for &m in &free {
                let n = neighbour(rank, m);
                if depths[n as usize] == UNREACHED {
                    depths[n as usize] = depth;
                    layer.push(n);
                }
            }
            at += 1;
        }
        histogram.push(layer.len() as u64);
        if depth == UNREACHED - 1 {
            break;
        }
        let mut next = Vec::new();
        for &rank in &layer {
            for &m in &paid {
                let n = neighbour(rank, m);
                if depths[n as usize] == UNREACHED {
                    depths[n as usize] = depth + 1;
                    next.push(n);
                }
            }
        }
        layer = next;
        depth += 1;
    }
    BfsResult { depths, histogram }
}

#[cfg(test)]
mod costed_tests {
    use super::*;

    /// A ring of 12 ranks turned by a free move (one step) and a paid one (six steps),
    /// and a paid jump from rank 0 to 12..24: every rank of the ring costs 0 or 1 from
    /// rank 0, as brute force over move sequences says.
    #[test]
    fn free_moves_close_a_layer_and_paid_ones_open_the_next() {
        let neighbour = |r: u64, m: usize| -> u64 {
            let (ring, offset) = (r / 12, r % 12);
            match m {
                0 => ring * 12 + (offset + 1) % 12,
                1 => ring * 12 + (offset + 11) % 12,
                _ => (1 - ring) * 12 + offset,
            }
        };
        let result = costed_bfs(24, &[0], &[0, 0, 1], neighbour);
        assert_eq!(result.histogram, vec![12, 12]);
        assert!(result.depths[..12].iter().all(|&d| d == 0));
        assert!(result.depths[12..].iter().all(|&d| d == 1));
        // Without free moves the ring costs its steps.
        let plain = costed_bfs(24, &[0], &[1, 1, 1], neighbour);
        assert_eq!(plain.depths[6], 6);
        assert_eq!(plain.depths[18], 7);
    }
}
