//! Optimal solving for any position (Korf's method): IDA* over pattern databases, in the
//! quarter-turn or half-turn metric.
//!
//! - heuristic, generic path (small and medium presets): the max of every pattern
//!   database looked up on the position and on its inverse (same distance), read in two
//!   batched stages, the second only for children the first did not prune;
//! - heuristic, coset path (large and huge presets, whose tables measure the distance to a
//!   coset of a group holding U and D): six views per position, inherited views, the
//!   x,x,x rule and skipped first axes ([`KorfSolver::coset_evaluate`],
//!   `docs/rubik-optimal.md`);
//! - a position in the near table (QTM) is answered from it directly (inside the search
//!   it cut few nodes for its cost, so it is not used there);
//! - canonical sequences only ([`qtm_may_follow`], [`htm_may_follow`]);
//! - QTM parity: a position's distance has the parity of its corner permutation, so bounds
//!   and heuristic values are raised to that parity;
//! - both cores: each iteration's subtrees below the first two moves run in parallel.

use crate::progress::Progress;
use crate::puzzles::rubik::cube::{
    htm_may_follow, permutation_parity, qtm_may_follow, Cube, Move, MOVE_CUBES,
};
use crate::puzzles::rubik::near::{NearTable, NEAR_DEPTH};
use crate::puzzles::rubik::pdb::{metric_moves, Pattern, Pdb};
use crate::puzzles::rubik::phase1::{self, Refinement};
use crate::puzzles::rubik::solver::{Metric, Solved};
use crate::puzzles::rubik::symmetry::AXIS_ROTATIONS;
use crate::table::packed::Nibbles;
use crate::table::{TableError, TableSpec, TableStore};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Table sets: bigger ones make deep solves faster; every one gives optimal answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Preset {
    /// Corners + two 6-edge tables per metric (86 MB).
    Small,
    /// Corners + two 7-edge tables per metric (555 MB).
    Medium,
    /// The flip-slice-twist table reduced by symmetry, read along all three axes on the
    /// position and its inverse (1.7 GB per metric). Adding the corner and 7-edge tables
    /// to it changed neither node counts nor times measurably, so they are left out.
    Large,
    /// The flip-slice-twist table with the corner layers instead of the slice order,
    /// reduced by symmetry and read like the large one (4.9 GB per metric).
    Huge,
}

impl Preset {
    /// The largest preset whose tables for `metric` are all present in `store`, else the
    /// small one (built on first use): bigger presets only make solving faster.
    pub fn largest_present(store: &TableStore, metric: Metric) -> Preset {
        [Preset::Huge, Preset::Large, Preset::Medium]
            .into_iter()
            .find(|preset| {
                preset.patterns().into_iter().all(|p| {
                    store.exists(&crate::puzzles::rubik::pdb::spec(p, metric, preset.group()))
                })
            })
            .unwrap_or(Preset::Small)
    }

    /// The pattern databases of this preset.
    pub fn patterns(self) -> Vec<Pattern> {
        let edges = |first, count| Pattern::Edges { first, count };
        match self {
            Preset::Small => vec![Pattern::Corners, edges(0, 6), edges(6, 6)],
            Preset::Medium => vec![Pattern::Corners, edges(0, 7), edges(5, 7)],
            Preset::Large => vec![Pattern::FlipSliceTwist],
            Preset::Huge => vec![Pattern::FlipSliceTwistLayers],
        }
    }

    /// The `cubedb-gen` group building this preset.
    pub fn group(self) -> &'static str {
        match self {
            Preset::Small => "rubik",
            Preset::Medium => "rubik-medium",
            Preset::Large => "rubik-large",
            Preset::Huge => "rubik-huge",
        }
    }

    /// Specs of this preset's tables for both metrics.
    pub fn specs(self) -> Vec<TableSpec> {
        [Metric::Qtm, Metric::Htm]
            .into_iter()
            .flat_map(|metric| {
                self.patterns()
                    .into_iter()
                    .map(move |p| crate::puzzles::rubik::pdb::spec(p, metric, self.group()))
            })
            .collect()
    }

    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Small => "small",
            Preset::Medium => "medium",
            Preset::Large => "large",
            Preset::Huge => "huge",
        }
    }

    /// For a preset slower than the biggest, a hint naming the faster options.
    pub fn faster_options(self) -> Option<String> {
        if self == Preset::Huge {
            return None;
        }
        let name = self.name();
        Some(format!(
            "deep solves with the {name} preset are slow; the huge preset (`cubedb-gen rubik-huge`, \
             or `--tables huge` to build just this metric: 4.9 GB per metric, about 11 minutes \
             per metric on 2 cores) solves random positions in seconds, and `--max-length 20` \
             finds near-optimal solutions in milliseconds"
        ))
    }

    /// Builds (or rebuilds) every table of this preset for both metrics.
    pub fn build(self, store: &TableStore, progress: &Progress) -> Result<(), TableError> {
        for metric in [Metric::Qtm, Metric::Htm] {
            for pattern in self.patterns() {
                crate::puzzles::rubik::pdb::build_one(
                    store,
                    pattern,
                    metric,
                    self.group(),
                    progress,
                )?;
            }
        }
        Ok(())
    }
}

/// Opened pattern databases of one metric, plus the near table.
#[derive(Debug)]
pub struct Pdbs {
    metric: Metric,
    preset: Option<Preset>,
    tables: Vec<Pdb>,
}

impl Pdbs {
    /// Opens a preset's tables for `metric`, building missing ones (with a note giving
    /// their size first).
    pub fn load_or_build(
        store: &TableStore,
        preset: Preset,
        metric: Metric,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let mut pdbs = Self::load_or_build_patterns(
            store,
            &preset.patterns(),
            metric,
            preset.group(),
            progress,
        )?;
        pdbs.preset = Some(preset);
        Ok(pdbs)
    }

    /// Opens any set of tables for `metric` (built under `group` if missing): for tests
    /// and experiments outside the presets.
    pub fn load_or_build_patterns(
        store: &TableStore,
        patterns: &[Pattern],
        metric: Metric,
        group: &'static str,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let tables = patterns
            .iter()
            .map(|&p| Pdb::load_or_build(store, p, metric, group, progress))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            metric,
            preset: None,
            tables,
        })
    }

    /// Bytes of table payload in use.
    pub fn payload_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.entries_len() as u64).sum()
    }

    /// Mean entry of the first table over all its projected states.
    pub fn mean_entry(&self) -> f64 {
        self.tables.first().map_or(0.0, Pdb::mean_entry)
    }

    /// The preset the tables come from, if they make one.
    pub fn preset(&self) -> Option<Preset> {
        self.preset
    }

    /// The metric the tables measure.
    pub fn metric(&self) -> Metric {
        self.metric
    }
}

/// IDA* over pattern databases.
#[derive(Debug, Clone, Copy)]
pub struct KorfSolver<'a> {
    pdbs: &'a Pdbs,
    near: Option<&'a NearTable>,
    plan: ReadPlan,
    /// Set when every table is a coset table (the flip-slice-twist family): then the
    /// search uses [`KorfSolver::coset_bounds`] and its tricks.
    coset: Option<CosetTables>,
    /// Told as each IDA* iteration starts (progress on a terminal).
    observer: Option<Observer<'a>>,
}

/// What a [`KorfSolver`] reports as each IDA* iteration starts.
#[derive(Debug, Clone, Copy)]
pub struct IterationStart {
    /// The iteration's bound: no solution is shorter (in the tables' metric).
    pub bound: u32,
    /// Nodes generated by the earlier iterations.
    pub nodes: u64,
    /// Time since the solve started.
    pub elapsed: std::time::Duration,
}

/// A callback told of every [`IterationStart`].
#[derive(Clone, Copy)]
struct Observer<'a>(&'a (dyn Fn(&IterationStart) + Sync));

impl std::fmt::Debug for Observer<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Observer")
    }
}

/// Most coset tables a preset combines.
const MAX_COSET_TABLES: usize = 2;

/// The coset tables of a preset (indices into [`Pdbs`]) and their refinements.
#[derive(Debug, Clone, Copy)]
struct CosetTables {
    tables: [(usize, Refinement); MAX_COSET_TABLES],
    len: usize,
}

impl CosetTables {
    fn of(tables: &[Pdb]) -> Option<Self> {
        let mut coset = CosetTables {
            tables: [(0, Refinement::SliceOrder); MAX_COSET_TABLES],
            len: 0,
        };
        for (t, table) in tables.iter().enumerate() {
            let refinement = table.pattern().refinement()?;
            if coset.len == MAX_COSET_TABLES {
                return None;
            }
            coset.tables[coset.len] = (t, refinement);
            coset.len += 1;
        }
        (coset.len > 0).then_some(coset)
    }
}

/// Table values of the six views of a position (see [`ReadPlan`]): view `2a` is the
/// position seen along axis `a` (U-D, R-L, F-B), view `2a + 1` its inverse.
pub(crate) type ViewValues = [u8; 6];

/// A position in the coset search, kept as its six views: the position seen along each
/// axis as raw coordinates (moved by move tables), its inverse seen along each axis as a
/// cube (moved by composing with the inverse turn before it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CosetNode {
    /// [`phase1::raw_coordinates`] of the position seen along axis `a`.
    forward: [[u32; 4]; 3],
    /// The inverse of the position, seen along axis `a`.
    inverse: [Cube; 3],
    /// Table values of the six views: `2a` the position along axis `a`, `2a + 1` its
    /// inverse.
    values: ViewValues,
}

impl CosetNode {
    /// A placeholder to fill arrays with (not any position's node).
    const EMPTY: CosetNode = CosetNode {
        forward: [[0; 4]; 3],
        inverse: [Cube::SOLVED; 3],
        values: [0; 6],
    };

    /// The node of `cube` (inverse `inv`), values not yet read.
    fn of(cube: &Cube, inv: &Cube) -> Self {
        let mut node = CosetNode {
            forward: [phase1::raw_coordinates_with_inverse(cube, inv); 3],
            inverse: [*inv; 3],
            values: [0; 6],
        };
        for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
            let (turned, turned_inv) = (rotation.conjugate(cube), rotation.conjugate(inv));
            node.forward[j + 1] = phase1::raw_coordinates_with_inverse(&turned, &turned_inv);
            node.inverse[j + 1] = turned_inv;
        }
        node
    }

    /// Whether the position is solved.
    #[inline]
    fn is_solved(&self) -> bool {
        self.inverse[0].is_solved()
    }

    /// Raw coordinates of view `v`.
    #[inline]
    fn raw(&self, v: usize) -> [u32; 4] {
        match v % 2 {
            0 => self.forward[v / 2],
            _ => phase1::raw_coordinates(&self.inverse[v / 2]),
        }
    }

    /// Views along axis `a` of this node's child by `mv`.
    #[inline]
    fn step_axis(&mut self, parent: &CosetNode, a: usize, mv: Move) {
        let seen = AXIS_MOVES[a][mv.index()];
        self.forward[a] = phase1::move_raw(parent.forward[a], seen.index());
        self.inverse[a] = MOVE_CUBES[seen.inverse().index()].then(&parent.inverse[a]);
    }
}

/// `AXIS_MOVES[a][m]`: move `m` as seen along axis `a` (the move of the turned view).
static AXIS_MOVES: std::sync::LazyLock<[[Move; 18]; 3]> = std::sync::LazyLock::new(|| {
    let mut moves = [[Move::from_index(0); 18]; 3];
    for mv in Move::all() {
        moves[0][mv.index()] = mv;
        for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
            moves[j + 1][mv.index()] = rotation.map_move(mv);
        }
    }
    moves
});

/// Axis (0 U-D, 1 R-L, 2 F-B) of a move.
#[inline]
fn axis(mv: Move) -> usize {
    mv.face().index() % 3
}

/// Views per batch of coset reads: six for each of 18 children.
const MAX_VIEW_READS: usize = 6 * 18;

/// Largest number of table reads per position in the generic search (each table on the
/// position and on its inverse).
const MAX_READS: usize = 8;

/// Which table is read on which view of a position in the generic search, in two stages:
/// the first table on the position (view 0) and its inverse (view 1) for every child of
/// a node, the other tables only for the children the first did not prune.
#[derive(Debug, Clone, Copy)]
struct ReadPlan {
    reads: [(u8, u8); MAX_READS],
    len: usize,
    /// Reads `..first` make the first stage, the rest the second.
    first: usize,
}

impl ReadPlan {
    fn new(tables: &[Pdb]) -> Self {
        let mut plan = ReadPlan {
            reads: [(0, 0); MAX_READS],
            len: 0,
            first: 2.min(2 * tables.len()),
        };
        for t in 0..tables.len() {
            for view in 0..2 {
                assert!(plan.len < MAX_READS, "too many table reads per position");
                plan.reads[plan.len] = (t as u8, view);
                plan.len += 1;
            }
        }
        plan
    }

    /// The reads of stage `s` (0 or 1).
    fn stage(&self, s: usize) -> &[(u8, u8)] {
        match s {
            0 => &self.reads[..self.first],
            _ => &self.reads[self.first..self.len],
        }
    }
}

/// Outcome of searching one subtree.
enum Step {
    Found,
    /// Smallest f above the bound seen (u32::MAX if none).
    Exceeded(u32),
}

struct Search<'a> {
    solver: KorfSolver<'a>,
    moves: Vec<Move>,
    stop: &'a AtomicBool,
    nodes: u64,
    /// When to give up (checked every 4096 calls; passing it sets `stop`).
    deadline: Option<Instant>,
    calls: u32,
}

impl<'a> KorfSolver<'a> {
    /// A solver over tables of one metric; `near` (QTM only) answers positions within
    /// its depth directly.
    pub fn new(pdbs: &'a Pdbs, near: Option<&'a NearTable>) -> Self {
        Self {
            pdbs,
            near,
            plan: ReadPlan::new(&pdbs.tables),
            coset: CosetTables::of(&pdbs.tables),
            observer: None,
        }
    }

    /// This solver, telling `observer` as each IDA* iteration starts.
    pub fn with_observer(self, observer: &'a (dyn Fn(&IterationStart) + Sync)) -> Self {
        Self {
            observer: Some(Observer(observer)),
            ..self
        }
    }

    /// The metric of the tables (and of every solution found).
    pub fn metric(&self) -> Metric {
        self.pdbs.metric
    }

    /// The search's lower bound on the distance of `cube` (the heuristic at the root).
    pub fn lower_bound(&self, cube: &Cube) -> u32 {
        let parity = match self.pdbs.metric {
            Metric::Qtm => permutation_parity(&cube.cp),
            Metric::Htm => 0,
        };
        match self.bound(cube, &cube.inverse(), 1000 + parity).0 {
            Ok(h) | Err(h) => h,
        }
    }

    /// Lower bound on the distance of `cube` (inverse `inv`), or `Err` with it when it
    /// exceeds `budget`; in QTM raised to the parity of the remaining budget. With coset
    /// tables, also the position as a search node.
    #[inline]
    fn bound(&self, cube: &Cube, inv: &Cube, budget: u32) -> (Result<u32, u32>, Option<CosetNode>) {
        let qtm = self.pdbs.metric == Metric::Qtm;
        let mut h = [0u32];
        let node = match self.coset {
            Some(coset) => {
                let mut node = [CosetNode::of(cube, inv)];
                self.coset_evaluate(coset, &mut node, None, budget, &mut h);
                Some(node[0])
            }
            None => {
                self.generic_bounds(&[(Move::from_index(0), *cube, *inv)], budget, &mut h);
                None
            }
        };
        let mut h = h[0];
        if qtm && h <= NEAR_DEPTH {
            if let Some(near) = self.near {
                let mut d = near.distance(cube).unwrap_or(NEAR_DEPTH + 1);
                if (d ^ budget) & 1 == 1 {
                    d += 1;
                }
                h = h.max(d);
            }
        }
        (if h > budget { Err(h) } else { Ok(h) }, node)
    }

    /// Lower bounds of many positions (`(move, cube, inverse)`), in QTM raised to the
    /// parity of `budget`; a bound above `budget` may stop short of the full maximum.
    pub(crate) fn bounds(&self, kids: &[(Move, Cube, Cube)], budget: u32, out: &mut [u32]) {
        match self.coset {
            Some(coset) => {
                let mut nodes = [CosetNode::EMPTY; 18];
                for (node, (_, cube, inv)) in nodes.iter_mut().zip(kids) {
                    *node = CosetNode::of(cube, inv);
                }
                self.coset_evaluate(coset, &mut nodes[..kids.len()], None, budget, out)
            }
            None => self.generic_bounds(kids, budget, out),
        }
    }

    /// Lower bounds from coset tables (every table measures the distance to a coset of a
    /// group holding U and D turns, `docs/rubik-optimal.md`) for `nodes`, in QTM raised to
    /// the parity of `budget`, filling in their view values. With `from = (parent,
    /// moves)`, node `k` is the parent's child by `moves[k]` and holds only its U-D views
    /// (the rest is derived here for the children that need it):
    ///
    /// - a child reached by a turn on axis `a` inherits its parent's inverse view `a`
    ///   (the turn comes before the inverse, and turns on the view's U-D axis are in the
    ///   group), so at most five reads per child;
    /// - reads in two stages: the U-D views for every child, the other four only for the
    ///   children the first two did not prune;
    /// - a table value `x` on view `2a` also says no solution of length `x >= 1` ends
    ///   with a turn on axis `a`, on view `2a + 1` that none starts with one: if the
    ///   three forward (or inverse) views all reach a bound of at least 1, the bound goes
    ///   up one step.
    fn coset_evaluate(
        &self,
        coset: CosetTables,
        nodes: &mut [CosetNode],
        from: Option<(&CosetNode, &[Move])>,
        budget: u32,
        out: &mut [u32],
    ) {
        let qtm = self.pdbs.metric == Metric::Qtm;
        let step = if qtm { 2 } else { 1 };
        let raise = |h: u32| {
            if qtm && (h ^ budget) & 1 == 1 {
                h + 1
            } else {
                h
            }
        };
        // The view node `k` inherits from its parent, if any.
        let inherited = |k: usize| from.map(|(_, moves)| 2 * axis(moves[k]) + 1);
        let n = nodes.len();
        let mut raw = [[0u32; 4]; MAX_VIEW_READS];
        let mut at = [(0u8, 0u8); MAX_VIEW_READS];
        let mut read = [0u8; MAX_VIEW_READS];
        let mut alive = [true; 18];
        for stage in 0..2 {
            let mut w = 0;
            for k in (0..n).filter(|&k| alive[k]) {
                let node = &mut nodes[k];
                if stage == 1 {
                    if let Some((parent, moves)) = from {
                        for a in 1..3 {
                            node.step_axis(parent, a, moves[k]);
                        }
                    }
                }
                let views = if stage == 0 { 0..2 } else { 2..6 };
                for v in views {
                    match from {
                        Some((parent, _)) if inherited(k) == Some(v) => {
                            node.values[v] = parent.values[v]
                        }
                        _ => {
                            raw[w] = node.raw(v);
                            at[w] = (k as u8, v as u8);
                            w += 1;
                        }
                    }
                }
            }
            self.coset_read(coset, &raw[..w], &mut read[..w]);
            for (&(k, v), &value) in at[..w].iter().zip(&read[..w]) {
                nodes[k as usize].values[v as usize] = value;
            }
            for k in 0..n {
                if !alive[k] {
                    continue;
                }
                let v = nodes[k].values.map(u32::from);
                out[k] = if stage == 0 {
                    raise(v[0].max(v[1]))
                } else {
                    let h = raise(v.iter().copied().max().unwrap_or(0));
                    let forward = v[0].min(v[2]).min(v[4]);
                    let inverse = v[1].min(v[3]).min(v[5]);
                    // (A solution of length 0 has no last turn: the rule needs h >= 1.)
                    if h > 0 && (forward >= h || inverse >= h) {
                        h + step
                    } else {
                        h
                    }
                };
                alive[k] = out[k] <= budget;
            }
        }
    }

    /// The table values (max over the coset tables) of the positions with raw coordinates
    /// `raw`.
    ///
    /// The raw coordinates and the class entry are shared by all coset tables; all
    /// indices are computed before any entry is read, so the reads overlap.
    #[inline]
    fn coset_read(&self, coset: CosetTables, raw: &[[u32; 4]], out: &mut [u8]) {
        let n = raw.len();
        let mut pairs = [0u32; MAX_VIEW_READS];
        for (pair, raw) in pairs.iter_mut().zip(raw) {
            *pair = raw[0];
        }
        let mut entries = [0u32; MAX_VIEW_READS];
        phase1::class_entries(&pairs[..n], &mut entries[..n]);
        let mut index = [[0usize; MAX_VIEW_READS]; MAX_COSET_TABLES];
        for (t, &(_, refinement)) in coset.tables[..coset.len].iter().enumerate() {
            phase1::finish_indices(refinement, raw, &entries[..n], &mut index[t][..n]);
        }
        let tables = &self.pdbs.tables;
        out[..n].fill(0);
        for (t, &(table, _)) in coset.tables[..coset.len].iter().enumerate() {
            let entries = tables[table].entries();
            for (o, &i) in out[..n].iter_mut().zip(&index[t][..n]) {
                *o = (*o).max(entries.get(i));
            }
        }
    }

    /// [`KorfSolver::bounds`] from any tables, without the coset tricks.
    ///
    /// Lookups are random reads in tables far bigger than the caches, so every index of a
    /// stage is computed before any entry is read and the reads overlap.
    fn generic_bounds(&self, kids: &[(Move, Cube, Cube)], budget: u32, out: &mut [u32]) {
        let plan = &self.plan;
        let tables = &self.pdbs.tables;
        let qtm = self.pdbs.metric == Metric::Qtm;
        let n = kids.len();
        let mut best = [0u32; 18];
        let mut alive = [true; 18];
        for stage in 0..2 {
            let reads = plan.stage(stage);
            let mut index = [[0usize; MAX_READS]; 18];
            for k in (0..n).filter(|&k| alive[k]) {
                let (_, cube, inv) = &kids[k];
                for (r, &(t, view)) in reads.iter().enumerate() {
                    let (view, partner) = if view == 0 { (cube, inv) } else { (inv, cube) };
                    index[k][r] = tables[t as usize]
                        .pattern()
                        .index_with_inverse(view, partner);
                }
            }
            // The reads themselves in a loop doing nothing else, so that as many as
            // possible are in flight at once.
            let mut entries = [Nibbles::new(&[]); MAX_READS];
            for (e, &(t, _)) in entries.iter_mut().zip(reads) {
                *e = tables[t as usize].entries();
            }
            let mut values = [[0u8; MAX_READS]; 18];
            for k in (0..n).filter(|&k| alive[k]) {
                for r in 0..reads.len() {
                    values[k][r] = entries[r].get(index[k][r]);
                }
            }
            for k in 0..n {
                if !alive[k] {
                    continue;
                }
                best[k] = best[k].max(u32::from(
                    *values[k][..reads.len()].iter().max().unwrap_or(&0),
                ));
                if qtm && (best[k] ^ budget) & 1 == 1 {
                    best[k] += 1;
                }
                alive[k] = best[k] <= budget;
            }
        }
        out[..n].copy_from_slice(&best[..n]);
    }

    fn may_follow(&self, before: Option<Move>, previous: Option<Move>, mv: Move) -> bool {
        match self.pdbs.metric {
            Metric::Qtm => qtm_may_follow(before, previous, mv),
            Metric::Htm => htm_may_follow(previous, mv),
        }
    }

    /// An optimal solution of at most `max_depth` moves in the tables' metric.
    pub fn solve(&self, cube: &Cube, max_depth: u32) -> Solved {
        self.solve_until(cube, max_depth, None).unwrap_or(Solved {
            moves: None,
            nodes: 0,
        })
    }

    /// [`KorfSolver::solve`], giving up at `deadline`: `None` if it passed first.
    pub fn solve_until(
        &self,
        cube: &Cube,
        max_depth: u32,
        deadline: Option<Instant>,
    ) -> Option<Solved> {
        let passed = || deadline.is_some_and(|d| Instant::now() >= d);
        if let (Metric::Qtm, Some(near)) = (self.pdbs.metric, self.near) {
            if let Some((d, _)) = near.lookup(cube) {
                return Some(Solved {
                    moves: (d <= max_depth).then(|| near.solution(cube)).flatten(),
                    nodes: 0,
                });
            }
        }
        let qtm = self.pdbs.metric == Metric::Qtm;
        let parity = if qtm { permutation_parity(&cube.cp) } else { 0 };
        let inv = cube.inverse();
        // A budget of the root's parity, larger than any distance.
        let (root_bound, root_node) = self.bound(cube, &inv, 1000 + parity);
        let mut bound = match root_bound {
            Ok(h) | Err(h) => h,
        };
        if qtm && (bound ^ parity) & 1 == 1 {
            bound += 1;
        }
        let moves = metric_moves(self.pdbs.metric);
        let mut nodes = 0u64;
        let started = Instant::now();
        while bound <= max_depth {
            if let Some(Observer(observer)) = self.observer {
                observer(&IterationStart {
                    bound,
                    nodes,
                    elapsed: started.elapsed(),
                });
            }
            let (step, path, n) =
                self.iteration(cube, &inv, root_node.as_ref(), bound, &moves, deadline);
            nodes += n;
            match step {
                Step::Found => {
                    return Some(Solved {
                        moves: Some(path),
                        nodes,
                    })
                }
                _ if passed() => return None,
                Step::Exceeded(u32::MAX) => break,
                Step::Exceeded(next) => {
                    bound = if qtm {
                        next.max(bound + 2)
                    } else {
                        next.max(bound + 1)
                    };
                    if qtm && (bound ^ parity) & 1 == 1 {
                        bound += 1;
                    }
                }
            }
        }
        Some(Solved { moves: None, nodes })
    }

    /// One IDA* iteration at `bound`, subtrees below two moves in parallel.
    fn iteration(
        &self,
        cube: &Cube,
        inv: &Cube,
        node: Option<&CosetNode>,
        bound: u32,
        moves: &[Move],
        deadline: Option<Instant>,
    ) -> (Step, Vec<Move>, u64) {
        let stop = AtomicBool::new(false);
        if bound < 4 {
            let mut search = Search {
                solver: *self,
                moves: moves.to_vec(),
                stop: &stop,
                nodes: 0,
                deadline,
                calls: 0,
            };
            let mut path = Vec::new();
            let step = match node {
                Some(node) => search.coset_dfs(node, 0, bound, [None, None], &mut path),
                None => search.dfs(cube, inv, 0, bound, None, None, &mut path),
            };
            return (step, path, search.nodes);
        }
        if cube.is_solved() {
            return (Step::Found, Vec::new(), 0);
        }
        // Every canonical two-move prefix within the bound.
        let mut prefixes = Vec::new();
        let mut least = u32::MAX;
        let mut prefix_nodes = 0u64;
        for &a in moves {
            let (c1, i1) = (cube.apply(a), MOVE_CUBES[a.inverse().index()].then(inv));
            prefix_nodes += 1;
            if c1.is_solved() {
                return (Step::Found, vec![a], prefix_nodes);
            }
            if let (Err(f), _) = self.bound(&c1, &i1, bound - 1) {
                least = least.min(f + 1);
                continue;
            }
            for &b in moves {
                if !self.may_follow(None, Some(a), b) {
                    continue;
                }
                prefix_nodes += 1;
                let (c2, i2) = (c1.apply(b), MOVE_CUBES[b.inverse().index()].then(&i1));
                match self.bound(&c2, &i2, bound - 2) {
                    (Err(f), _) => least = least.min(f + 2),
                    (Ok(_), node) => prefixes.push((a, b, c2, i2, node)),
                }
            }
        }
        let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let nodes = AtomicU64::new(prefix_nodes);
        let least = AtomicU64::new(least as u64);
        prefixes.par_iter().for_each(|&(a, b, c2, i2, node)| {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let mut search = Search {
                solver: *self,
                moves: moves.to_vec(),
                stop: &stop,
                nodes: 0,
                deadline,
                calls: 0,
            };
            let mut path = vec![a, b];
            let step = match node {
                Some(node) => search.coset_dfs(&node, 2, bound, [Some(a), Some(b)], &mut path),
                None => search.dfs(&c2, &i2, 2, bound, Some(a), Some(b), &mut path),
            };
            nodes.fetch_add(search.nodes, Ordering::Relaxed);
            match step {
                Step::Found => {
                    let mut slot = found.lock().unwrap_or_else(|p| p.into_inner());
                    if slot.is_none() {
                        *slot = Some(path);
                    }
                    stop.store(true, Ordering::Relaxed);
                }
                Step::Exceeded(f) => {
                    least.fetch_min(f as u64, Ordering::Relaxed);
                }
            }
        });
        let nodes = nodes.into_inner();
        match found.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(path) => (Step::Found, path, nodes),
            None => (Step::Exceeded(least.into_inner() as u32), Vec::new(), nodes),
        }
    }
}

impl Search<'_> {
    /// Time to stop: the deadline passed (checked every 4096 calls) or another task found
    /// a solution.
    #[inline]
    fn should_stop(&mut self) -> bool {
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }

    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &mut self,
        cube: &Cube,
        inv: &Cube,
        g: u32,
        bound: u32,
        before: Option<Move>,
        previous: Option<Move>,
        path: &mut Vec<Move>,
    ) -> Step {
        if cube.is_solved() {
            return Step::Found;
        }
        if g >= bound {
            return Step::Exceeded(g + 1);
        }
        if self.should_stop() {
            return Step::Exceeded(u32::MAX);
        }
        // All children first, then all their table entries (independent memory reads
        // that overlap), then the search below the promising ones.
        let mut kids = [(Move::from_index(0), Cube::SOLVED, Cube::SOLVED); 18];
        let mut n = 0;
        for &mv in &self.moves {
            if self.solver.may_follow(before, previous, mv) {
                kids[n] = (
                    mv,
                    cube.apply(mv),
                    MOVE_CUBES[mv.inverse().index()].then(inv),
                );
                n += 1;
            }
        }
        self.nodes += n as u64;
        let budget = bound - g - 1;
        let mut bounds = [0u32; 18];
        self.solver
            .generic_bounds(&kids[..n], budget, &mut bounds[..n]);
        let mut least = u32::MAX;
        for (&(mv, child, child_inv), &h) in kids[..n].iter().zip(&bounds[..n]) {
            if h > budget {
                least = least.min(g + 1 + h);
                continue;
            }
            path.push(mv);
            match self.dfs(&child, &child_inv, g + 1, bound, previous, Some(mv), path) {
                Step::Found => return Step::Found,
                Step::Exceeded(f) => least = least.min(f),
            }
            path.pop();
        }
        Step::Exceeded(least)
    }

    /// [`Search::dfs`] over coset nodes ([`KorfSolver::coset_evaluate`]); `front` holds
    /// the last two turns made.
    fn coset_dfs(
        &mut self,
        node: &CosetNode,
        g: u32,
        bound: u32,
        front: [Option<Move>; 2],
        path: &mut Vec<Move>,
    ) -> Step {
        if node.is_solved() {
            return Step::Found;
        }
        if g >= bound {
            return Step::Exceeded(g + 1);
        }
        if self.should_stop() {
            return Step::Exceeded(u32::MAX);
        }
        let Some(coset) = self.solver.coset else {
            unreachable!("coset nodes are made only for coset tables");
        };
        // A solution of exactly the remaining length cannot start with a turn on an axis
        // whose inverse view already needs that many.
        let remaining = bound - g;
        let mut skipped_axes = 0u32;
        for a in 0..3 {
            skipped_axes |= u32::from(u32::from(node.values[2 * a + 1]) >= remaining) << a;
        }
        let mut kids = [*node; 18];
        let mut kid_moves = [Move::from_index(0); 18];
        let mut n = 0;
        for &mv in &self.moves {
            if skipped_axes >> axis(mv) & 1 == 0 && self.solver.may_follow(front[0], front[1], mv) {
                kids[n].step_axis(node, 0, mv);
                kid_moves[n] = mv;
                n += 1;
            }
        }
        self.nodes += n as u64;
        let budget = remaining - 1;
        let mut bounds = [0u32; 18];
        self.solver.coset_evaluate(
            coset,
            &mut kids[..n],
            Some((node, &kid_moves[..n])),
            budget,
            &mut bounds[..n],
        );
        // Skipped children may have longer solutions: the next bound is at least one up.
        let mut least = if skipped_axes != 0 {
            bound + 1
        } else {
            u32::MAX
        };
        for ((kid, &mv), &h) in kids[..n].iter().zip(&kid_moves[..n]).zip(&bounds[..n]) {
            if h > budget {
                least = least.min(g + 1 + h);
                continue;
            }
            path.push(mv);
            match self.coset_dfs(kid, g + 1, bound, [front[1], Some(mv)], path) {
                Step::Found => return Step::Found,
                Step::Exceeded(f) => least = least.min(f),
            }
            path.pop();
        }
        Step::Exceeded(least)
    }
}
