//! The near table: every position within [`NEAR_DEPTH`] quarter turns of solved, with its
//! distance and the first move of an optimal solution, for exact instant answers.
//!
//! The set is sparse in the 4.3e19 positions, so it is not a dense ranked table: it is a
//! sorted array of 64-bit entries plus a directory. A position's 67-bit key
//! (`corner_coord << 40 | edge_coord`) is split into a bucket (`key >> 47`, the top 20
//! bits of the corner coordinate) and 47 low bits. `index[b]..index[b + 1]` is the range of
//! bucket `b` in `keys`; each entry is `low47 << 15 | distance << 12 | m3 << 8 | m2 << 4 |
//! m1`, sorted, so a lookup is one directory read and a binary search over a handful of
//! entries. `m1 m2 m3` are the first three moves of an optimal solution (quarter-turn
//! index 0..12, 15 = none), so a solution of depth 5 takes two lookups.
//!
//! It is built by a frontier BFS over keys written here (rayon: expand, sort, dedup),
//! since the shared `layered_bfs` works on dense ranked spaces. The quarter-turn graph is
//! bipartite, so the next layer is the expanded frontier minus the previous two layers.
//!
//! The number of entries is not known before building; the keys table is sized by the
//! number of canonical move sequences of length <= [`NEAR_DEPTH`] (an upper bound computed
//! by [`canonical_qtm_counts`]) and padded with `u64::MAX`.

use crate::progress::Progress;
use crate::puzzles::rubik::coord::perm::{self, CORNER_STATES, EDGE_BITS};
use crate::puzzles::rubik::model::cube::{canonical_qtm_counts, Cube, Face, Move};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::{Table, TableError, TableSpec, TableStore};
use rayon::prelude::*;

/// Name of the `cubedb-gen` target that builds the near table.
pub const GROUP: &str = "rubik-near";
/// Every position within this many quarter turns is in the table.
pub const NEAR_DEPTH: u32 = 7;
/// Low key bits kept in an entry (the rest select the bucket).
const LOW_BITS: u32 = EDGE_BITS + 7;
const LOW_MASK: u128 = (1 << LOW_BITS) - 1;
/// Number of buckets: corner coordinates shifted right by 7.
pub const BUCKETS: u64 = (CORNER_STATES as u64).div_ceil(1 << 7);
/// Move code meaning "no move" (solution shorter than three moves).
const NO_MOVE: u64 = 15;
/// Three move codes, all "none".
const NO_MOVES: u128 = 0xFFF;
/// Bits of an entry below the key: distance (3) and three moves (4 each).
const INFO_BITS: u32 = 15;
/// Padding entry after the real ones.
const PADDING: u64 = u64::MAX;

/// Upper bound on the entries: canonical sequences of length <= [`NEAR_DEPTH`].
pub fn capacity() -> u64 {
    canonical_qtm_counts(NEAR_DEPTH as usize).iter().sum()
}

/// The bucket directory: `BUCKETS + 1` offsets (u32) into the keys table.
pub fn index_spec() -> TableSpec {
    TableSpec {
        name: "rubik-near-index",
        group: GROUP,
        puzzle: "rubik",
        kind: "near-bucket-offsets",
        params: vec![
            ("qtm-depth".into(), NEAR_DEPTH as u64),
            ("buckets".into(), BUCKETS),
        ],
        entries: BUCKETS + 1,
        bits_per_entry: 32,
    }
}

/// The sorted entries: `low47 << 15 | distance << 12 | three first moves`, padded.
pub fn keys_spec() -> TableSpec {
    TableSpec {
        name: "rubik-near-keys",
        group: GROUP,
        puzzle: "rubik",
        kind: "near-sorted-entries",
        params: vec![
            ("qtm-depth".into(), NEAR_DEPTH as u64),
            ("buckets".into(), BUCKETS),
            ("moves-per-entry".into(), 3),
        ],
        entries: capacity(),
        bits_per_entry: 64,
    }
}

/// The `cubedb-gen` target of the near table.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "Rubik's cube: every position within 7 quarter turns, with an optimal first move",
        vec![GroupMember::of::<NearTable>((), None)],
    )]
}

impl TableFamily for NearTable {
    type Params = ();

    fn title((): ()) -> String {
        format!("the rubik near table (all positions within {NEAR_DEPTH} quarter turns)")
    }

    fn specs((): ()) -> Vec<TableSpec> {
        vec![index_spec(), keys_spec()]
    }

    fn build(
        store: &TableStore,
        (): (),
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build(store, progress)
    }

    /// The directory is checked to be non-decreasing and inside the entries, so lookups
    /// never leave the file.
    fn open(store: &TableStore, (): ()) -> Result<Self, TableError> {
        let index = store.open(&index_spec())?;
        let keys = store.open(&keys_spec())?;
        let entries = keys.payload().len() / 8;
        let offsets = index.payload();
        let mut last = 0;
        for b in 0..=BUCKETS as usize {
            let o = read_u32(offsets, b);
            if o < last || o as usize > entries {
                return Err(TableError::Corrupted {
                    path: index.path().to_path_buf(),
                    group: GROUP,
                });
            }
            last = o;
        }
        let histogram = keys.header().histogram.clone();
        Ok(Self {
            index,
            keys,
            histogram,
        })
    }
}

/// Quarter-turn index (0..12) of a quarter turn.
fn quarter_code(mv: Move) -> u128 {
    (mv.face().index() * 2 + usize::from(mv.turns() == 3)) as u128
}

/// The quarter turn with code `code` (< 12), `None` for [`NO_MOVE`].
fn quarter_move(code: u64) -> Option<Move> {
    (code < 12).then(|| {
        Move::new(
            Face::ALL[code as usize / 2],
            if code.is_multiple_of(2) { 1 } else { 3 },
        )
    })
}

/// Layers of the quarter-turn BFS from solved up to `depth`: `layers[d]` holds
/// `key << 12 | m3 << 8 | m2 << 4 | m1` of every position at distance `d`, sorted, where
/// `m1 m2 m3` start an optimal solution (15 past its end).
pub fn bfs_layers(depth: u32, progress: &Progress) -> Vec<Vec<u128>> {
    let bar = progress.counter("rubik-near");
    let quarter: Vec<Move> = Move::quarter_turns().collect();
    let mut layers: Vec<Vec<u128>> = vec![vec![NO_MOVES]];
    bar.set_message("0");
    bar.inc(1);
    let contains =
        |layer: &[u128], key: u128| layer.binary_search_by(|e| (e >> 12).cmp(&key)).is_ok();
    for d in 0..depth as usize {
        let frontier = &layers[d];
        let mut next: Vec<u128> = frontier
            .par_iter()
            .flat_map_iter(|&entry| {
                let cube = perm::from_key(entry >> 12);
                // The child's solution: undo `mv`, then the parent's first two moves.
                let then = (entry & 0xFF) << 4;
                quarter.iter().map(move |&mv| {
                    let child = cube.apply(mv);
                    perm::key(&child) << 12 | then | quarter_code(mv.inverse())
                })
            })
            .collect();
        next.par_sort_unstable();
        next.dedup_by_key(|e| *e >> 12);
        let previous: &[u128] = if d > 0 { &layers[d - 1] } else { &[] };
        let next: Vec<u128> = next
            .into_par_iter()
            .filter(|&e| !contains(previous, e >> 12) && !contains(frontier, e >> 12))
            .collect();
        bar.set_message((d + 1).to_string());
        bar.inc(next.len() as u64);
        layers.push(next);
    }
    bar.finish_and_clear();
    layers
}

/// Runs the BFS and writes the directory and the entries.
fn build(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    let layers = bfs_layers(NEAR_DEPTH, progress);
    let histogram: Vec<u64> = layers.iter().map(|l| l.len() as u64).collect();
    let mut all: Vec<u128> = layers
        .into_iter()
        .enumerate()
        .flat_map(|(d, layer)| {
            layer
                .into_iter()
                .map(move |e| (e >> 12) << INFO_BITS | (d as u128) << 12 | (e & 0xFFF))
        })
        .collect();
    all.par_sort_unstable();
    let capacity = capacity() as usize;
    assert!(
        all.len() <= capacity,
        "more positions than canonical sequences"
    );
    let mut index = vec![0u32; BUCKETS as usize + 1];
    for &e in &all {
        index[((e >> INFO_BITS) >> LOW_BITS) as usize + 1] += 1;
    }
    for b in 1..index.len() {
        index[b] += index[b - 1];
    }
    let index_bytes: Vec<u8> = index.iter().flat_map(|o| o.to_le_bytes()).collect();
    let mut key_bytes: Vec<u8> = Vec::with_capacity(capacity * 8);
    for &e in &all {
        let low = ((e >> INFO_BITS) & LOW_MASK) as u64;
        let info = (e & ((1 << INFO_BITS) - 1)) as u64;
        key_bytes.extend_from_slice(&(low << INFO_BITS | info).to_le_bytes());
    }
    for _ in all.len()..capacity {
        key_bytes.extend_from_slice(&PADDING.to_le_bytes());
    }
    store.write(&index_spec(), &index_bytes, histogram.clone())?;
    store.write(&keys_spec(), &key_bytes, histogram)
}

/// The opened near table.
#[derive(Debug)]
pub struct NearTable {
    index: Table,
    keys: Table,
    histogram: Vec<u64>,
}

#[inline]
fn read_u32(bytes: &[u8], i: usize) -> u32 {
    let mut b = [0u8; 4];
    b.copy_from_slice(&bytes[i * 4..i * 4 + 4]);
    u32::from_le_bytes(b)
}

#[inline]
fn read_u64(bytes: &[u8], i: usize) -> u64 {
    let mut b = [0u8; 8];
    b.copy_from_slice(&bytes[i * 8..i * 8 + 8]);
    u64::from_le_bytes(b)
}

impl NearTable {
    /// Positions at each distance `0..=NEAR_DEPTH`, as counted when the table was built.
    pub fn histogram(&self) -> &[u64] {
        &self.histogram
    }

    /// Distance and the first (up to) three moves of an optimal solution, `None` if the
    /// position is farther than [`NEAR_DEPTH`] quarter turns.
    #[inline]
    pub fn lookup(&self, cube: &Cube) -> Option<(u32, [Option<Move>; 3])> {
        let key = perm::key(cube);
        let bucket = (key >> LOW_BITS) as usize;
        let target = (key & LOW_MASK) as u64;
        let offsets = self.index.payload();
        let (mut lo, mut hi) = (
            read_u32(offsets, bucket) as usize,
            read_u32(offsets, bucket + 1) as usize,
        );
        let keys = self.keys.payload();
        while lo < hi {
            let mid = (lo + hi) / 2;
            let entry = read_u64(keys, mid);
            match (entry >> INFO_BITS).cmp(&target) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let distance = (entry >> 12 & 7) as u32;
                    let moves = [0, 4, 8].map(|shift| quarter_move(entry >> shift & NO_MOVE));
                    return Some((distance, moves));
                }
            }
        }
        None
    }

    /// Distance of a position if within [`NEAR_DEPTH`].
    #[inline]
    pub fn distance(&self, cube: &Cube) -> Option<u32> {
        self.lookup(cube).map(|(d, _)| d)
    }

    /// An optimal quarter-turn solution, by following first moves; `None` if the position
    /// is farther than [`NEAR_DEPTH`].
    pub fn solution(&self, cube: &Cube) -> Option<Vec<Move>> {
        let (distance, mut next) = self.lookup(cube)?;
        let mut cube = *cube;
        let mut moves = Vec::with_capacity(distance as usize);
        while moves.len() < distance as usize {
            for mv in next.into_iter().flatten() {
                cube = cube.apply(mv);
                moves.push(mv);
            }
            let (d, more) = self
                .lookup(&cube)
                .expect("the near table (checksummed) holds every step of its solutions");
            assert_eq!(
                d as usize + moves.len(),
                distance as usize,
                "near table distances decrease along solutions"
            );
            next = more;
        }
        Some(moves)
    }
}
impl NearTable {
    /// `count` random positions at exactly `depth` quarter turns from solved (random walks
    /// kept when the table confirms their distance), for benchmarks and tests.
    pub fn random_positions_at(&self, depth: u32, count: usize, seed: u64) -> Vec<Cube> {
        let quarter: Vec<_> = crate::puzzles::rubik::model::cube::Move::quarter_turns().collect();
        let mut rng = crate::rng::SplitMix64::new(seed);
        let mut cubes = Vec::with_capacity(count);
        while cubes.len() < count {
            let mut cube = Cube::SOLVED;
            for _ in 0..depth {
                cube = cube.apply(quarter[rng.below(quarter.len() as u64) as usize]);
            }
            if self.distance(&cube) == Some(depth) {
                cubes.push(cube);
            }
        }
        cubes
    }
}
