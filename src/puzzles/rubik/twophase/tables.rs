//! The two-phase tables: the stored coordinate tables and three pruning tables, built by
//! the shared BFS and kept as ordinary table files (group `rubik-twophase`).
//!
//! | table | entries | bits | what |
//! |---|---|---|---|
//! | `rubik-twophase-coords` | 9.2 MB | 8 | move, symmetry and class tables ([`Coords`]) |
//! | `rubik-twophase-phase1`, `-phase1-qtm` | 64,430 x 2,187 | 2 | phase-1 distance mod 3 (face / quarter turns), per flip-slice class and twist |
//! | `rubik-twophase-corner-edges` | 2,768 x 40,320 | 4 | phase-2 distance of corners and U-D edges (capped at 15) |
//! | `rubik-twophase-corner-slice`, `-qtm` | 40,320 x 24 | 4 | phase-2 distance of corners and E-slice order (face / quarter turns) |
//!
//! Phase-1 and corner-slice distances come in both metrics (the quarter-turn tables are
//! built when quarter turns are first asked for; the quarter-turn corner-slice table by the
//! weighted BFS, since R2 is one move of H costing two quarter turns). The corner-edge
//! distances are in face turns; a quarter-turn search uses them as lower bounds (a
//! sequence never has fewer quarter turns than face turns), together with parity.

use super::coords::{
    Coords, CoordsView, CORNER_CLASSES, CORNER_PERMS, FLIPS, FLIP_SLICE_CLASSES, PAYLOAD_LEN,
    PHASE2_MOVES, PHASE2_MOVE_COUNT, SLICE_ORDERS, SOLVED_SLOTS, TWISTS, UD_EDGE_PERMS,
};
use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::Move;
use crate::puzzles::rubik::model::metric::Metric;
use crate::search::{layered_bfs, weighted_bfs, BfsResult, RankedSpace, WeightedSpace, UNREACHED};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::packed::{pack, Crumbs, Nibbles, Words16};
use crate::table::{Table, TableError, TableSpec, TableStore};

/// The `cubedb-gen` group of the two-phase tables.
pub const GROUP: &str = "rubik-twophase";

/// Entries of the phase-1 table.
pub const PHASE1_ENTRIES: u64 = (FLIP_SLICE_CLASSES * TWISTS) as u64;
/// Entries of the corner-edge table.
pub const CORNER_EDGE_ENTRIES: u64 = (CORNER_CLASSES * UD_EDGE_PERMS) as u64;
/// Entries of the corner-slice table.
pub const CORNER_SLICE_ENTRIES: u64 = (CORNER_PERMS * SLICE_ORDERS) as u64;

/// Largest distance a 4-bit entry holds (greater ones are stored as this lower bound).
const CAP: u8 = 15;

fn spec(name: &'static str, kind: &'static str, entries: u64, bits: u32) -> TableSpec {
    metric_spec(name, kind, entries, bits, Metric::Htm)
}

fn metric_spec(
    name: &'static str,
    kind: &'static str,
    entries: u64,
    bits: u32,
    metric: Metric,
) -> TableSpec {
    TableSpec {
        name,
        group: GROUP,
        puzzle: "rubik",
        kind,
        params: vec![
            ("symmetries".into(), 16),
            ("metric-qtm".into(), u64::from(metric == Metric::Qtm)),
        ],
        entries,
        bits_per_entry: bits,
    }
}

/// The stored coordinate tables.
pub fn coords_spec() -> TableSpec {
    spec(
        "rubik-twophase-coords",
        "twophase-coordinate-tables",
        PAYLOAD_LEN,
        8,
    )
}

/// The phase-1 table of a metric (distance mod 3).
pub fn phase1_spec(metric: Metric) -> TableSpec {
    let name = match metric {
        Metric::Htm => "rubik-twophase-phase1",
        Metric::Qtm => "rubik-twophase-phase1-qtm",
    };
    metric_spec(
        name,
        "twophase-phase1-distance-mod3",
        PHASE1_ENTRIES,
        2,
        metric,
    )
}

/// The phase-2 corner-edge table (face turns; quarter-turn searches use it as a lower
/// bound: a quarter-turn version, built by the weighted BFS, changed no measured time).
pub fn corner_edge_spec() -> TableSpec {
    spec(
        "rubik-twophase-corner-edges",
        "twophase-phase2-distance-capped-15",
        CORNER_EDGE_ENTRIES,
        4,
    )
}

/// The phase-2 corner-slice table of a metric.
pub fn corner_slice_spec(metric: Metric) -> TableSpec {
    let name = match metric {
        Metric::Htm => "rubik-twophase-corner-slice",
        Metric::Qtm => "rubik-twophase-corner-slice-qtm",
    };
    let kind = "twophase-phase2-distance-capped-15";
    metric_spec(name, kind, CORNER_SLICE_ENTRIES, 4, metric)
}

/// The tables a search in `metric` reads.
pub fn metric_specs(metric: Metric) -> Vec<TableSpec> {
    vec![
        coords_spec(),
        phase1_spec(metric),
        corner_edge_spec(),
        corner_slice_spec(metric),
    ]
}

/// What one move does to every state of a class: the class it leads to, the symmetry
/// that brings the image to that class's representative, and that class's stabiliser.
#[derive(Debug, Clone, Copy, Default)]
struct ClassStep {
    class: u32,
    sym: u8,
    stabiliser: u16,
}

/// Steps of the last class a BFS thread expanded: consecutive ranks share their class
/// (it is the high part of the rank), so each thread computes a class's steps once for
/// thousands of states.
type StepCache = std::cell::Cell<(usize, [ClassStep; 18])>;

thread_local! {
    static PHASE1_STEPS: StepCache = const { std::cell::Cell::new((usize::MAX, [ClassStep { class: 0, sym: 0, stabiliser: 0 }; 18])) };
    static CORNER_STEPS: StepCache = const { std::cell::Cell::new((usize::MAX, [ClassStep { class: 0, sym: 0, stabiliser: 0 }; 18])) };
}

/// The steps of `class`, from `cache` or computed by `steps` (and cached).
#[inline]
fn class_steps(
    cache: &'static std::thread::LocalKey<StepCache>,
    class: usize,
    steps: impl FnOnce() -> [ClassStep; 18],
) -> [ClassStep; 18] {
    cache.with(|cell| {
        let (cached, known) = cell.get();
        if cached == class {
            return known;
        }
        let fresh = steps();
        cell.set((class, fresh));
        fresh
    })
}

/// Visits a neighbour seen through symmetry `step.sym` (`within` is its coordinate below
/// the class, before the symmetry), and its other names when the class representative has
/// symmetries of its own. True when `test` says stop.
#[inline]
fn test_class_member(
    step: ClassStep,
    block: usize,
    within: usize,
    conj: Words16,
    test: &mut impl FnMut(u64) -> bool,
) -> bool {
    let rep = conj.at(within * 16 + step.sym as usize) as usize;
    let base = step.class as usize * block;
    if test((base + rep) as u64) {
        return true;
    }
    let mut others = step.stabiliser & !1;
    while others != 0 {
        let s = others.trailing_zeros() as usize;
        others &= others - 1;
        if test((base + conj.at(rep * 16 + s) as usize) as u64) {
            return true;
        }
    }
    false
}

/// Phase 1 as a ranked space: flip-slice class times twist, with the moves of a metric
/// (all 18, or the 12 quarter turns). A class whose representative has symmetries of its
/// own is one state seen several ways; every way is visited, so the distances are exact
/// for the projection.
struct Phase1Space<'c> {
    coords: CoordsView<'c>,
    /// Bit `m` set for each move of the metric.
    moves: u32,
}

impl RankedSpace for Phase1Space<'_> {
    fn size(&self) -> u64 {
        PHASE1_ENTRIES
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        self.any_neighbour(rank, |n| {
            visit(n);
            false
        });
    }

    const STOPS_EARLY: bool = true;

    fn any_neighbour(&self, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let c = &self.coords;
        let (class, twist) = (rank as usize / TWISTS, rank as usize % TWISTS);
        let steps = class_steps(&PHASE1_STEPS, class, || {
            let pair = c.flip_slice_rep.at(class) as usize;
            let (slice, flip) = (pair / FLIPS * SLICE_ORDERS, pair % FLIPS);
            std::array::from_fn(|m| {
                let flip2 = c.flip_move.at(flip * 18 + m) as usize;
                let slots2 = c.slice_move.at(slice * 18 + m) as usize / SLICE_ORDERS;
                let entry = c.flip_slice_class.at(slots2 * FLIPS + flip2);
                ClassStep {
                    class: entry >> 4,
                    sym: (entry & 15) as u8,
                    stabiliser: c.flip_slice_stabiliser.at((entry >> 4) as usize),
                }
            })
        });
        (0..18).filter(|m| self.moves >> m & 1 == 1).any(|m| {
            let twist2 = c.twist_move.at(twist * 18 + m) as usize;
            test_class_member(steps[m], TWISTS, twist2, c.twist_conj, &mut test)
        })
    }
}

/// Every phase-2 move.
const PHASE2_ALL: u16 = (1 << PHASE2_MOVE_COUNT) - 1;

/// The phase-2 moves (bit `p` for [`PHASE2_MOVES`]`[p]`) costing `cost` quarter turns:
/// U, U', D, D' cost 1; U2, D2, R2, L2, F2, B2 cost 2.
fn phase2_costing(cost: u32) -> u16 {
    PHASE2_MOVES
        .iter()
        .enumerate()
        .filter(|(_, &m)| Move::from_index(m as usize).qtm_cost() == cost)
        .fold(0, |mask, (p, _)| mask | 1 << p)
}

/// A phase-2 projection as a state space: in face turns a [`RankedSpace`] (every move
/// costs one), in quarter turns a [`WeightedSpace`] (half turns cost two).
trait Phase2Space: Sync {
    fn entries(&self) -> u64;
    /// Whether `test` holds for a neighbour by one of the phase-2 moves in `moves`.
    fn any_by(&self, rank: u64, moves: u16, test: impl FnMut(u64) -> bool) -> bool;
}

/// Phase-2 spaces in face turns.
struct FaceTurns<S>(S);

impl<S: Phase2Space> RankedSpace for FaceTurns<S> {
    fn size(&self) -> u64 {
        self.0.entries()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        self.0.any_by(rank, PHASE2_ALL, |n| {
            visit(n);
            false
        });
    }

    const STOPS_EARLY: bool = true;

    fn any_neighbour(&self, rank: u64, test: impl FnMut(u64) -> bool) -> bool {
        self.0.any_by(rank, PHASE2_ALL, test)
    }
}

/// Phase-2 spaces in quarter turns, with the phase-2 moves of cost 1 and of cost 2.
struct QuarterTurns<S> {
    space: S,
    by_cost: [u16; 2],
}

impl<S: Phase2Space> QuarterTurns<S> {
    fn new(space: S) -> Self {
        Self {
            space,
            by_cost: [phase2_costing(1), phase2_costing(2)],
        }
    }
}

impl<S: Phase2Space> WeightedSpace for QuarterTurns<S> {
    fn size(&self) -> u64 {
        self.space.entries()
    }

    fn any_neighbour_costing(&self, rank: u64, cost: u8, test: impl FnMut(u64) -> bool) -> bool {
        let moves = self.by_cost[usize::from(cost == 2)];
        self.space.any_by(rank, moves, test)
    }
}

/// Phase 2's corners and U-D edges: corner class times U-D edges.
struct CornerEdgeSpace<'c>(CoordsView<'c>);

impl Phase2Space for CornerEdgeSpace<'_> {
    fn entries(&self) -> u64 {
        CORNER_EDGE_ENTRIES
    }

    fn any_by(&self, rank: u64, moves: u16, mut test: impl FnMut(u64) -> bool) -> bool {
        let c = &self.0;
        let (class, ud) = (rank as usize / UD_EDGE_PERMS, rank as usize % UD_EDGE_PERMS);
        let steps = class_steps(&CORNER_STEPS, class, || {
            let corners = c.corner_rep.at(class) as usize;
            std::array::from_fn(|p| {
                let Some(&m) = PHASE2_MOVES.get(p) else {
                    return ClassStep::default();
                };
                let entry = c
                    .corner_class
                    .at(c.corner_move.at(corners * 18 + m as usize) as usize);
                ClassStep {
                    class: entry >> 4,
                    sym: (entry & 15) as u8,
                    stabiliser: c.corner_stabiliser.at((entry >> 4) as usize),
                }
            })
        });
        (0..PHASE2_MOVE_COUNT)
            .filter(|p| moves >> p & 1 == 1)
            .any(|p| {
                let ud2 = c.ud_edge_move.at(ud * PHASE2_MOVE_COUNT + p) as usize;
                test_class_member(steps[p], UD_EDGE_PERMS, ud2, c.ud_edge_conj, &mut test)
            })
    }
}

/// Phase 2's corners and E-slice order (no symmetry).
struct CornerSliceSpace<'c>(CoordsView<'c>);

impl Phase2Space for CornerSliceSpace<'_> {
    fn entries(&self) -> u64 {
        CORNER_SLICE_ENTRIES
    }

    fn any_by(&self, rank: u64, moves: u16, mut test: impl FnMut(u64) -> bool) -> bool {
        let c = &self.0;
        let (corners, order) = (rank as usize / SLICE_ORDERS, rank as usize % SLICE_ORDERS);
        let slice = SOLVED_SLOTS * SLICE_ORDERS + order;
        PHASE2_MOVES
            .iter()
            .enumerate()
            .filter(|(p, _)| moves >> p & 1 == 1)
            .any(|(_, &m)| {
                let corners2 = c.corner_move.at(corners * 18 + m as usize) as usize;
                let order2 = c.slice_move.at(slice * 18 + m as usize) as usize % SLICE_ORDERS;
                test((corners2 * SLICE_ORDERS + order2) as u64)
            })
    }
}

/// The distances of a phase-2 projection in `metric`, from the solved state.
fn phase2_depths(
    space: impl Phase2Space,
    solved: u64,
    metric: Metric,
    progress: &Progress,
    label: &str,
) -> BfsResult {
    match metric {
        Metric::Htm => layered_bfs(&FaceTurns(space), &[solved], progress, label),
        Metric::Qtm => weighted_bfs(&QuarterTurns::new(space), &[solved], progress, label),
    }
}

/// The depths of a BFS packed as `bits`-bit entries (mod 3 for 2 bits, capped at 15 for
/// 4), with the histogram.
fn pack_depths(mut result: BfsResult, bits: u32) -> (Vec<u8>, Vec<u64>) {
    for d in result.depths.iter_mut() {
        assert!(*d != UNREACHED, "every projected state is reachable");
        *d = if bits == 2 { *d % 3 } else { (*d).min(CAP) };
    }
    (pack(&result.depths, bits), result.histogram)
}

/// The coordinate tables' file from `store` (else computed and written there), its
/// values checked to be in range: read in place through [`CoordsView`].
fn coords_from(store: &TableStore) -> Result<Table, TableError> {
    let spec = coords_spec();
    if !store.exists(&spec) {
        store.write(&spec, &Coords::compute().to_bytes(), Vec::new())?;
    }
    let table = store.open(&spec)?;
    match CoordsView::checked(table.payload()) {
        Some(_) => Ok(table),
        None => Err(TableError::Corrupted {
            path: table.path().to_path_buf(),
            group: GROUP,
        }),
    }
}

/// Builds the tables of `metrics` that are missing (`force`: all of them), showing one
/// progress counter per BFS.
fn build_missing(
    store: &TableStore,
    metrics: &[Metric],
    progress: &Progress,
    force: bool,
) -> Result<(), TableError> {
    if force {
        let coords = Coords::compute();
        store.write(&coords_spec(), &coords.to_bytes(), Vec::new())?;
    }
    let coords_file = coords_from(store)?;
    let coords = CoordsView::of(coords_file.payload());
    let wanted = |spec: &TableSpec| force || !store.exists(spec);
    for &metric in metrics {
        if !wanted(&phase1_spec(metric)) {
            continue;
        }
        let space = Phase1Space {
            coords,
            moves: metric.move_mask(),
        };
        let start = coords.phase1_index(0, SOLVED_SLOTS * SLICE_ORDERS, 0) as u64;
        let label = format!("two-phase: phase 1 ({metric:?})");
        let depths = layered_bfs(&space, &[start], progress, &label);
        let (payload, histogram) = pack_depths(depths, 2);
        store.write(&phase1_spec(metric), &payload, histogram)?;
    }
    if wanted(&corner_edge_spec()) {
        let start = coords.corner_edge_index(0, 0) as u64;
        let label = "two-phase: corners and edges";
        let depths = phase2_depths(CornerEdgeSpace(coords), start, Metric::Htm, progress, label);
        let (payload, histogram) = pack_depths(depths, 4);
        store.write(&corner_edge_spec(), &payload, histogram)?;
    }
    for &metric in metrics {
        if wanted(&corner_slice_spec(metric)) {
            let label = format!("two-phase: corners and slice ({metric:?})");
            let depths = phase2_depths(CornerSliceSpace(coords), 0, metric, progress, &label);
            let (payload, histogram) = pack_depths(depths, 4);
            store.write(&corner_slice_spec(metric), &payload, histogram)?;
        }
    }
    Ok(())
}

/// The `cubedb-gen` target of the two-phase tables.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "Rubik's cube, two-phase tables: near-optimal solutions in microseconds (130 MB, both metrics)",
        [Metric::Htm, Metric::Qtm]
            .into_iter()
            .map(|metric| GroupMember::of::<TwoPhaseTables>(metric, Some(metric.name())))
            .collect(),
    )]
}

impl TableFamily for TwoPhaseTables {
    type Params = Metric;

    fn title(metric: Metric) -> String {
        format!("the two-phase tables, {}", metric.name())
    }

    fn specs(metric: Metric) -> Vec<TableSpec> {
        metric_specs(metric)
    }

    fn build(
        store: &TableStore,
        metric: Metric,
        rebuild: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build_missing(store, &[metric], progress, rebuild == Rebuild::All)
    }

    fn open(store: &TableStore, metric: Metric) -> Result<Self, TableError> {
        Self::open_tables(store, metric)
    }
}

/// The opened two-phase tables, mapped from the page cache: copies in huge pages saved
/// misses of the TLB but cost a fresh process more than that (see `table::Resident`).
#[derive(Debug)]
pub struct TwoPhaseTables {
    metric: Metric,
    coords: Table,
    phase1: Table,
    corner_edges: Table,
    corner_slice: Table,
}

impl TwoPhaseTables {
    /// Opens and verifies the tables for solving in `metric` from `store`.
    fn open_tables(store: &TableStore, metric: Metric) -> Result<Self, TableError> {
        let coords = coords_from(store)?;
        Ok(Self {
            metric,
            coords,
            phase1: store.open(&phase1_spec(metric))?,
            corner_edges: store.open(&corner_edge_spec())?,
            corner_slice: store.open(&corner_slice_spec(metric))?,
        })
    }

    /// The metric of the phase-1 table (and so of the searches over these tables).
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The move, symmetry and class tables, read in place.
    #[inline]
    pub(super) fn coords(&self) -> CoordsView<'_> {
        CoordsView::of(self.coords.payload())
    }

    /// The phase-1 distances mod 3.
    #[inline]
    pub(super) fn phase1(&self) -> Crumbs<'_> {
        Crumbs::new(self.phase1.payload())
    }

    /// The corner-edge distances.
    #[inline]
    pub(super) fn corner_edges(&self) -> Nibbles<'_> {
        Nibbles::new(self.corner_edges.payload())
    }

    /// The corner-slice distances.
    #[inline]
    pub(super) fn corner_slice(&self) -> Nibbles<'_> {
        Nibbles::new(self.corner_slice.payload())
    }

    /// Depth histograms of the three pruning tables (phase 1, corner-edge, corner-slice).
    pub fn histograms(&self) -> [&[u64]; 3] {
        [
            &self.phase1.header().histogram,
            &self.corner_edges.header().histogram,
            &self.corner_slice.header().histogram,
        ]
    }
}
