//! Pattern databases: exact distances of projections of the cube (the corners; a subset of
//! the edges), in one metric, as 4-bit entries (distances above 15 are stored as 15, a
//! lower bound). Built by the shared parallel BFS over each projection's ranked space.
//!
//! - corners: `perm8 * 3^7 + twist` (88,179,840 entries), neighbours from move tables;
//! - edges `first..first + count`: the slots of those cubies as a partial permutation of
//!   12 (rank `0..12!/(12-count)!`) times their flips by cubie (`2^count`);
//! - flip-slice-twist: symmetry classes of edge flips and E-slice slots, times corner
//!   twists and E-slice order (3.38 G entries, see [`crate::puzzles::rubik::coord::flipslice`]);
//! - flip-slice-twist-layers: the same with the corner layers instead of the slice order
//!   (9.86 G entries), and with the parity of the slice order too (19.7 G entries), or
//!   with the layers up to exchanging U and D (4.93 G entries);
//! - flip-slice-twist-edge-layers: the same with the slots of the U-layer edges instead
//!   of the corner layers (9.86 G entries).
//!
//! Entries are stored in one of two [`Encoding`]s: exact 4-bit distances, or 2-bit codes
//! around a base value with a per-line minimum as fallback
//! ([`crate::table::base_lines`]), built in place by [`based_bfs`].

use crate::progress::Progress;
use crate::puzzles::rubik::coord::flipslice::{self, Refinement};
use crate::puzzles::rubik::coord::perm::{
    self, rank_permutation, unrank_permutation, CORNER_PERMS, CORNER_TWISTS,
};
use crate::puzzles::rubik::model::cube::{Cube, Move, CORNERS, EDGES, MOVE_COUNT};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::based::based_bfs;
use crate::search::bfs::LOGGED_LAYERS_FROM;
use crate::search::{layered_bfs, RankedSpace, UNREACHED};
use crate::table::base_lines::{self, BaseLines};
use crate::table::family::{Rebuild, TableFamily};
use crate::table::packed::{pack, Nibbles};
use crate::table::{Table, TableError, TableSpec, TableStore};
use std::sync::LazyLock;
use std::time::Instant;

/// Largest distance a 4-bit entry holds; greater distances are stored as this.
const CAP: u8 = 15;

/// Share of a 2-bit table's entries that may lie within its base (read as their line's
/// minimum): the base is the last depth before this share is passed. Most entries then
/// lie at `base + 1` or `base + 2`, read exactly.
const BASE_SHARE: f64 = 0.10;

/// How a pattern database stores its entries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Exact distances in 4 bits (capped at 15).
    Nibbles,
    /// 2-bit codes around a base value, 252 per cache line with the line's minimum
    /// ([`crate::table::base_lines`]): half the bytes of [`Encoding::Nibbles`] for
    /// bounds that differ from the exact ones only at the extremes.
    BaseLines,
}

/// What a pattern database projects the cube onto.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pattern {
    /// All eight corners.
    Corners,
    /// Edge cubies `first..first + count`.
    Edges {
        /// First tracked edge cubie.
        first: u8,
        /// Number of tracked edge cubies (1..=8).
        count: u8,
    },
    /// Edge flips, E-slice edges with their order and corner twists, one entry per class
    /// under the 16 symmetries keeping the U-D axis ([`crate::puzzles::rubik::coord::flipslice`]).
    FlipSliceTwist,
    /// Edge flips, E-slice slots, corner twists and which corner slots hold the U-layer
    /// corners, one entry per class under the same 16 symmetries.
    FlipSliceTwistLayers,
    /// The corner-layers projection with the parity of the E-slice order as well: twice
    /// the entries, a finer coset.
    FlipSliceTwistLayersParity,
    /// Edge flips, E-slice slots, corner twists and which slots hold the U-layer edges,
    /// one entry per class under the same 16 symmetries: read beside a corner-layers
    /// table.
    FlipSliceTwistEdgeLayers,
    /// The corner-layers projection with the pairing of the E-slice edges as well (which
    /// two of their slots hold a diagonal pair): three times the entries, a finer coset.
    FlipSliceTwistLayersPairing,
    /// Edge flips, E-slice slots and corner twists alone (Kociemba's phase-1 coordinates)
    /// by class: the smallest table of the family (141 M entries), for tests.
    FlipSliceTwistBare,
    /// Edge flips, E-slice slots, corner twists, and the pairing and parity of the
    /// E-slice edges, by class: 845 M entries, the `200m` preset's table.
    FlipSliceTwistPairingParity,
    /// Edge flips, E-slice slots, corner twists and the two sets of corner slots the
    /// U-layer and D-layer corners fill (not which is which), by class: 4.93 G entries,
    /// half of `2g`'s, the `1g` preset's table.
    FlipSliceTwistLayersSplit,
}

/// Falling factorial `n (n-1) ... (n-k+1)`.
const fn falling(n: u64, k: u64) -> u64 {
    let mut r = 1;
    let mut i = 0;
    while i < k {
        r *= n - i;
        i += 1;
    }
    r
}

impl Pattern {
    /// For the flip-slice-twist family, what it tracks besides flips, slice and twist.
    #[inline]
    pub fn refinement(self) -> Option<Refinement> {
        match self {
            Pattern::FlipSliceTwist => Some(Refinement::SliceOrder),
            Pattern::FlipSliceTwistLayers => Some(Refinement::CornerLayers),
            Pattern::FlipSliceTwistLayersParity => Some(Refinement::LayersParity),
            Pattern::FlipSliceTwistEdgeLayers => Some(Refinement::EdgeLayers),
            Pattern::FlipSliceTwistLayersPairing => Some(Refinement::LayersPairing),
            Pattern::FlipSliceTwistBare => Some(Refinement::Bare),
            Pattern::FlipSliceTwistPairingParity => Some(Refinement::PairingParity),
            Pattern::FlipSliceTwistLayersSplit => Some(Refinement::LayersSplit),
            _ => None,
        }
    }

    /// Number of projected states.
    pub fn size(self) -> u64 {
        match (self, self.refinement()) {
            (_, Some(refinement)) => refinement.size(),
            (Pattern::Corners, _) => CORNER_PERMS as u64 * CORNER_TWISTS as u64,
            (Pattern::Edges { count, .. }, _) => falling(12, count as u64) << count,
            _ => unreachable!("the flip-slice-twist family has a refinement"),
        }
    }

    /// Table file stem.
    pub fn name(self, metric: Metric) -> String {
        let m = match metric {
            Metric::Qtm => "qtm",
            Metric::Htm => "htm",
        };
        match self {
            Pattern::Corners => format!("rubik-pdb-{m}-corners"),
            Pattern::Edges { first, count } => format!("rubik-pdb-{m}-edges{count}-from{first}"),
            Pattern::FlipSliceTwist => format!("rubik-pdb-{m}-flipslice-twist-sym16"),
            Pattern::FlipSliceTwistLayers => {
                format!("rubik-pdb-{m}-flipslice-twist-layers-sym16")
            }
            Pattern::FlipSliceTwistLayersParity => {
                format!("rubik-pdb-{m}-flipslice-twist-layers-parity-sym16")
            }
            Pattern::FlipSliceTwistEdgeLayers => {
                format!("rubik-pdb-{m}-flipslice-twist-edge-layers-sym16")
            }
            Pattern::FlipSliceTwistLayersPairing => {
                format!("rubik-pdb-{m}-flipslice-twist-layers-pairing-sym16")
            }
            Pattern::FlipSliceTwistBare => format!("rubik-pdb-{m}-flipslice-twist-bare-sym16"),
            Pattern::FlipSliceTwistPairingParity => {
                format!("rubik-pdb-{m}-flipslice-twist-pairing-parity-sym16")
            }
            Pattern::FlipSliceTwistLayersSplit => {
                format!("rubik-pdb-{m}-flipslice-twist-layers-split-sym16")
            }
        }
    }

    /// Index of a cube's projection, given also its inverse `inv` (faster for edges).
    #[inline]
    pub fn index_with_inverse(self, cube: &Cube, inv: &Cube) -> usize {
        match self {
            Pattern::Corners => perm::corner_coord(cube) as usize,
            Pattern::Edges { first, count } => edge_index_from_inverse(inv, first, count),
            p => flipslice::index(p.refinement().expect("flip-slice-twist family"), cube),
        }
    }

    /// Index of a cube's projection.
    #[inline]
    pub fn index(self, cube: &Cube) -> usize {
        match self {
            Pattern::Corners => perm::corner_coord(cube) as usize,
            Pattern::Edges { first, count } => edge_index(cube, first, count),
            p => flipslice::index(p.refinement().expect("flip-slice-twist family"), cube),
        }
    }
}

/// Index of the edges `first..first + count` of a cube, read without branches from its
/// inverse (`inv.ep[cubie]` is the cubie's slot, `inv.eo[cubie]` its flip).
#[inline]
fn edge_index_from_inverse(inv: &Cube, first: u8, count: u8) -> usize {
    let (first, count) = (first as usize, count as usize);
    let mut flips = 0usize;
    for k in 0..count {
        flips |= (inv.eo[first + k] as usize) << k;
    }
    (rank_partial(&inv.ep[first..first + count]) << count) | flips
}

/// Index of the edges `first..first + count` of `cube`.
#[inline]
fn edge_index(cube: &Cube, first: u8, count: u8) -> usize {
    let mut slots = [0u8; 8];
    let mut flips = 0usize;
    for (slot, &cubie) in cube.ep.iter().enumerate() {
        let k = cubie.wrapping_sub(first);
        if k < count {
            slots[k as usize] = slot as u8;
            flips |= (cube.eo[slot] as usize) << k;
        }
    }
    (rank_partial(&slots[..count as usize]) << count) | flips
}

/// `WEIGHTS[k][i] = falling(11 - i, k - 1 - i)`: place values of a partial permutation
/// of `k` out of 12.
const WEIGHTS: [[u64; 8]; 9] = {
    let mut w = [[0u64; 8]; 9];
    let mut k = 1;
    while k <= 8 {
        let mut i = 0;
        while i < k {
            w[k][i] = falling(11 - i as u64, (k - 1 - i) as u64);
            i += 1;
        }
        k += 1;
    }
    w
};

/// Rank of a partial permutation: `slots` distinct values below 12, in order (at most 8).
#[inline]
fn rank_partial(slots: &[u8]) -> usize {
    let weights = &WEIGHTS[slots.len()];
    let mut seen = 0u32;
    let mut rank = 0u64;
    for (i, &s) in slots.iter().enumerate() {
        let smaller_unused = s as u32 - perm::BITS12[(seen & ((1u32 << s) - 1)) as usize] as u32;
        rank += smaller_unused as u64 * weights[i];
        seen |= 1 << s;
    }
    rank as usize
}

/// The partial permutation of `out.len()` slots with rank `rank`.
fn unrank_partial(mut rank: u64, out: &mut [u8]) {
    let k = out.len() as u64;
    let mut unused: [u8; EDGES] = std::array::from_fn(|i| i as u8);
    let mut left = EDGES;
    for (i, slot) in out.iter_mut().enumerate() {
        let f = falling(11 - i as u64, k - 1 - i as u64);
        let c = (rank / f) as usize;
        rank %= f;
        *slot = unused[c];
        unused.copy_within(c + 1..left, c);
        left -= 1;
    }
}

/// Move tables for the corner projection and slot maps for edges.
struct Tables {
    /// `corner_perm[p * 18 + m]`.
    corner_perm: Vec<u16>,
    /// `corner_twist[t * 18 + m]`.
    corner_twist: Vec<u16>,
    /// `edge_dest[m][slot]`: where a cubie in `slot` goes.
    edge_dest: [[u8; EDGES]; MOVE_COUNT],
    /// `edge_flip[m][slot]`: whether it flips on the way.
    edge_flip: [[u8; EDGES]; MOVE_COUNT],
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut corner_perm = vec![0u16; CORNER_PERMS as usize * MOVE_COUNT];
    let mut cube = Cube::SOLVED;
    for p in 0..CORNER_PERMS as usize {
        unrank_permutation(p as u64, &mut cube.cp);
        for mv in Move::all() {
            let next = cube.apply(mv);
            corner_perm[p * MOVE_COUNT + mv.index()] = rank_permutation(&next.cp) as u16;
        }
    }
    let mut corner_twist = vec![0u16; CORNER_TWISTS as usize * MOVE_COUNT];
    for t in 0..CORNER_TWISTS {
        let mut cube = Cube::SOLVED;
        perm::set_corners(&mut cube, t);
        for mv in Move::all() {
            let next = cube.apply(mv);
            corner_twist[t as usize * MOVE_COUNT + mv.index()] = perm::twist(&next) as u16;
        }
    }
    let mut edge_dest = [[0u8; EDGES]; MOVE_COUNT];
    let mut edge_flip = [[0u8; EDGES]; MOVE_COUNT];
    for mv in Move::all() {
        let m = &MOVE_CUBES[mv.index()];
        for (dest, &from) in m.ep.iter().enumerate() {
            edge_dest[mv.index()][from as usize] = dest as u8;
            edge_flip[mv.index()][from as usize] = m.eo[dest];
        }
    }
    Tables {
        corner_perm,
        corner_twist,
        edge_dest,
        edge_flip,
    }
});

/// A projection seen as a ranked space for the shared BFS.
struct PatternSpace {
    pattern: Pattern,
    refinement: Option<Refinement>,
    moves: Vec<usize>,
}

impl RankedSpace for PatternSpace {
    fn size(&self) -> u64 {
        self.pattern.size()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let t = &*TABLES;
        match self.pattern {
            Pattern::Corners => {
                let p = (rank / CORNER_TWISTS as u64) as usize * MOVE_COUNT;
                let tw = (rank % CORNER_TWISTS as u64) as usize * MOVE_COUNT;
                for &m in &self.moves {
                    visit(
                        t.corner_perm[p + m] as u64 * CORNER_TWISTS as u64
                            + t.corner_twist[tw + m] as u64,
                    );
                }
            }
            Pattern::Edges { count, .. } => {
                let count = count as usize;
                let mut slots = [0u8; 8];
                unrank_partial(rank >> count, &mut slots[..count]);
                let flips = rank as usize & ((1 << count) - 1);
                for &m in &self.moves {
                    let mut moved = [0u8; 8];
                    let mut f = flips;
                    for k in 0..count {
                        let s = slots[k] as usize;
                        moved[k] = t.edge_dest[m][s];
                        f ^= (t.edge_flip[m][s] as usize) << k;
                    }
                    visit(((rank_partial(&moved[..count]) << count) | f) as u64);
                }
            }
            _ => {
                let refinement = self.refinement.expect("flip-slice-twist family");
                flipslice::for_each_neighbour(refinement, rank, &self.moves, visit)
            }
        }
    }

    fn for_each_neighbour_of_sorted(&self, ranks: &[u64], mut visit: impl FnMut(u64)) {
        match self.refinement {
            Some(refinement) => {
                flipslice::for_each_neighbour_of_sorted(refinement, ranks, &self.moves, visit)
            }
            None => {
                for &rank in ranks {
                    self.for_each_neighbour(rank, &mut visit);
                }
            }
        }
    }

    /// Offered by the flip-slice-twist family, whose indices of one class are settled
    /// together (so share a depth).
    fn move_count(&self) -> usize {
        match self.refinement {
            Some(_) => self.moves.len(),
            None => 0,
        }
    }

    fn neighbours_by_move_of_sorted(&self, ranks: &[u64], m: usize, out: &mut [u64]) -> bool {
        let Some(refinement) = self.refinement else {
            return false;
        };
        flipslice::neighbours_by_move_of_sorted(refinement, ranks, &self.moves, m, out);
        true
    }

    fn neighbours_by_move(&self, rank: u64) -> impl Fn(usize) -> u64 + '_ {
        let refinement = self.refinement.expect("flip-slice-twist family");
        flipslice::neighbours_by_move(refinement, rank, &self.moves)
    }
}

/// Spec of a pattern database.
pub fn spec(
    pattern: Pattern,
    encoding: Encoding,
    metric: Metric,
    group: &'static str,
) -> TableSpec {
    let stem = pattern.name(metric);
    let name = crate::table::intern(match encoding {
        Encoding::Nibbles => stem,
        Encoding::BaseLines => format!("{stem}-2bit"),
    });
    let mut params = vec![("metric-qtm".into(), u64::from(metric == Metric::Qtm))];
    match pattern {
        Pattern::Corners => params.push(("corners".into(), CORNERS as u64)),
        Pattern::Edges { first, count } => {
            params.push(("edges".into(), count as u64));
            params.push(("first-edge".into(), first as u64));
        }
        _ => {
            let refinement = pattern.refinement().expect("flip-slice-twist family");
            params.push(("flipslice-classes".into(), flipslice::CLASSES as u64));
            params.push(("symmetries".into(), 16));
            match refinement {
                Refinement::SliceOrder => {}
                Refinement::CornerLayers => {
                    params.push(("corner-layers".into(), refinement.count() as u64))
                }
                Refinement::LayersParity | Refinement::LayersPairing => {
                    let layers = Refinement::CornerLayers.count();
                    params.push(("corner-layers".into(), layers as u64));
                    let classes = if refinement == Refinement::LayersParity {
                        "slice-parity"
                    } else {
                        "slice-pairing"
                    };
                    params.push((classes.into(), (refinement.count() / layers) as u64));
                }
                Refinement::EdgeLayers => {
                    params.push(("edge-layers".into(), refinement.count() as u64))
                }
                Refinement::Bare => params.push(("refinement".into(), 0)),
                Refinement::PairingParity => {
                    params.push(("slice-pairing".into(), 3));
                    params.push(("slice-parity".into(), 2));
                }
                Refinement::LayersSplit => {
                    params.push(("corner-layer-splits".into(), refinement.count() as u64))
                }
            }
        }
    }
    match encoding {
        Encoding::Nibbles => TableSpec {
            name,
            group,
            puzzle: "rubik",
            kind: "pdb-distance-capped-15",
            params,
            entries: pattern.size(),
            bits_per_entry: 4,
        },
        Encoding::BaseLines => {
            params.push(("states".into(), pattern.size()));
            params.push(("line-entries".into(), base_lines::LINE_ENTRIES as u64));
            TableSpec {
                name,
                group,
                puzzle: "rubik",
                kind: "pdb-bound-2bit-base-lines",
                params,
                // Counted in 2-bit cells, each line's minimum byte included.
                entries: base_lines::cells(pattern.size()),
                bits_per_entry: 2,
            }
        }
    }
}

/// Builds one pattern database by BFS from the solved projection and writes it.
pub fn build_one(
    store: &TableStore,
    (pattern, encoding, metric, group): PdbParams,
    progress: &Progress,
) -> Result<(), TableError> {
    let space = PatternSpace {
        pattern,
        refinement: pattern.refinement(),
        moves: metric.moves().iter().map(|m| m.index()).collect(),
    };
    let solved = pattern.index(&Cube::SOLVED) as u64;
    let label = pattern.name(metric);
    let spec = spec(pattern, encoding, metric, group);
    match encoding {
        Encoding::Nibbles => {
            let mut result = layered_bfs(&space, &[solved], progress, &label);
            for d in result.depths.iter_mut() {
                assert!(*d != UNREACHED, "every projected state is reachable");
                *d = (*d).min(CAP);
            }
            let payload = pack(&result.depths, 4);
            drop(result.depths);
            store.write(&spec, &payload, result.histogram)
        }
        Encoding::BaseLines => {
            let line = base_lines::LINE_ENTRIES as u64;
            let based = based_bfs(&space, &[solved], line, BASE_SHARE, progress, &label);
            let started = Instant::now();
            let (payload, histogram) = based.into_lines();
            let packed = started.elapsed().as_secs_f64();
            store.write(&spec, &payload, histogram)?;
            if space.size() >= LOGGED_LAYERS_FROM {
                progress.note(format!(
                    "{label}: lines made in {packed:.1} s, written in {:.1} s",
                    started.elapsed().as_secs_f64() - packed
                ));
            }
            Ok(())
        }
    }
}

/// An opened pattern database.
///
/// Lookups are random reads all over the table, read through its file mapping, whose
/// pages come in 2 MiB folios mapped with 2 MiB entries (`table::mmap`): as few TLB
/// misses as a copy in huge pages, without the copy. On this machine's virtual machine
/// the first touch of fresh memory is slow: copying the 215 MB `200m` table cost a
/// process 1.0-1.2 s at open, mapped it opens in 0.05 s at the same speed per node
/// (`docs/rubik-optimal.md`, "Start-up").
#[derive(Debug)]
pub struct Pdb {
    pattern: Pattern,
    table: Table,
    /// The base of a 2-bit table (from its histogram), `None` for 4-bit entries.
    base: Option<u8>,
}

/// What selects one pattern database: the projection, its encoding, the metric, and the
/// `cubedb-gen` group that builds it (named in messages about the file).
pub type PdbParams = (Pattern, Encoding, Metric, &'static str);

/// A pattern database's entries, read as lower bounds.
#[derive(Clone, Copy, Debug)]
pub enum Entries<'a> {
    /// Exact 4-bit distances.
    Nibbles(Nibbles<'a>),
    /// 2-bit codes around a base.
    Lines(BaseLines<'a>),
}

impl Entries<'_> {
    /// The lower bound at `index`.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        match self {
            Entries::Nibbles(n) => n.get(index),
            Entries::Lines(l) => l.get(index),
        }
    }

    /// Asks for the cache line of entry `index` to be loaded ahead of a read.
    #[inline]
    pub fn prefetch(&self, index: usize) {
        match self {
            Entries::Nibbles(n) => n.prefetch(index),
            Entries::Lines(l) => l.prefetch(index),
        }
    }

    /// Raises each `out[k]` to the lower bound at `indices[k]`, the reads of all of them
    /// overlapped (see [`BaseLines::raise_to`]).
    #[inline]
    pub fn raise_to(&self, indices: &[usize], out: &mut [u8]) {
        match self {
            Entries::Nibbles(n) => {
                for (o, &i) in out.iter_mut().zip(indices) {
                    *o = (*o).max(n.get(i));
                }
            }
            Entries::Lines(l) => l.raise_to(indices, out),
        }
    }
}

impl TableFamily for Pdb {
    type Params = PdbParams;

    fn title((pattern, encoding, metric, group): PdbParams) -> String {
        format!(
            "pattern database {}",
            spec(pattern, encoding, metric, group).name
        )
    }

    fn specs((pattern, encoding, metric, group): PdbParams) -> Vec<TableSpec> {
        vec![spec(pattern, encoding, metric, group)]
    }

    fn build(
        store: &TableStore,
        params: PdbParams,
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build_one(store, params, progress)
    }

    fn open(
        store: &TableStore,
        (pattern, encoding, metric, group): PdbParams,
    ) -> Result<Self, TableError> {
        let spec = spec(pattern, encoding, metric, group);
        let table = store.open(&spec)?;
        let base = match encoding {
            Encoding::Nibbles => None,
            Encoding::BaseLines => Some(
                base_lines::base_of_histogram(&table.header().histogram).ok_or_else(|| {
                    TableError::BadHeader {
                        path: table.path().to_path_buf(),
                        group,
                        reason: "a 2-bit table's histogram must give its base (4 to 16 buckets)"
                            .into(),
                    }
                })?,
            ),
        };
        Ok(Self {
            pattern,
            table,
            base,
        })
    }
}

impl Pdb {
    /// Lower bound (exact for the projection) of a cube's distance.
    #[inline]
    pub fn bound(&self, cube: &Cube) -> u32 {
        self.value(self.pattern.index(cube))
    }

    #[inline]
    fn payload(&self) -> &[u8] {
        self.table.payload()
    }

    /// The entry at a projection index (from [`Pattern::index`]).
    #[inline]
    pub fn value(&self, index: usize) -> u32 {
        self.entries().get(index) as u32
    }

    /// All entries, for callers reading many in a row.
    #[inline]
    pub fn entries(&self) -> Entries<'_> {
        match self.base {
            None => Entries::Nibbles(Nibbles::new(self.payload())),
            Some(base) => Entries::Lines(BaseLines::new(self.payload(), base)),
        }
    }

    /// The encoding of the entries.
    pub fn encoding(&self) -> Encoding {
        match self.base {
            None => Encoding::Nibbles,
            Some(_) => Encoding::BaseLines,
        }
    }

    /// Mean entry over all projected states, from the build histogram (for a 2-bit table,
    /// of the distances within `base + 3`, those beyond counted as `base + 3`).
    pub fn mean_entry(&self) -> f64 {
        let histogram = self.histogram();
        let count: u64 = histogram.iter().sum();
        let sum: u64 = histogram
            .iter()
            .enumerate()
            .map(|(d, &n)| d.min(usize::from(CAP)) as u64 * n)
            .sum();
        sum as f64 / count.max(1) as f64
    }

    /// Bytes of the table's payload.
    pub fn entries_len(&self) -> usize {
        self.table.payload().len()
    }

    /// The projection.
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// Distance histogram recorded at build time.
    pub fn histogram(&self) -> &[u64] {
        &self.table.header().histogram
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn projections_follow_the_cube() {
        let mut rng = SplitMix64::new(17);
        let patterns = [
            Pattern::Corners,
            Pattern::Edges { first: 0, count: 6 },
            Pattern::Edges { first: 5, count: 7 },
        ];
        for pattern in patterns {
            let space = PatternSpace {
                pattern,
                refinement: None,
                moves: (0..MOVE_COUNT).collect(),
            };
            for _ in 0..200 {
                let moves: Vec<Move> = (0..20)
                    .map(|_| Move::from_index(rng.below(18) as usize))
                    .collect();
                let cube = Cube::from_moves(&moves);
                let index = pattern.index(&cube);
                assert!((index as u64) < pattern.size());
                assert_eq!(pattern.index_with_inverse(&cube, &cube.inverse()), index);
                let mut neighbours = Vec::new();
                space.for_each_neighbour(index as u64, |n| neighbours.push(n as usize));
                for mv in Move::all() {
                    assert_eq!(neighbours[mv.index()], pattern.index(&cube.apply(mv)));
                }
            }
        }
        let mut out = [0u8; 3];
        for r in 0..falling(12, 3) {
            unrank_partial(r, &mut out);
            assert_eq!(rank_partial(&out) as u64, r);
        }
    }
}
