//! Optimal solving for any position (Korf's method): IDA* over pattern databases, in the
//! quarter-turn or half-turn metric.
//!
//! - heuristic: the max of every pattern database looked up on the position and on its
//!   inverse (same distance), and for the flip-slice-twist table also on both turned so
//!   that their R-L or F-B axis becomes U-D (six lookups of one table); lookups are read
//!   in two batched stages, the second only for children the first did not prune; a
//!   position in the near table (QTM) is answered from it directly (inside the search it
//!   cut few nodes for its cost, so it is not used there);
//! - canonical sequences only ([`qtm_may_follow`], [`htm_may_follow`]);
//! - QTM parity: a position's distance has the parity of its corner permutation, so bounds
//!   and heuristic values are raised to that parity;
//! - both cores: each iteration's subtrees below the first two moves run in parallel.

use super::cube::{htm_may_follow, permutation_parity, qtm_may_follow, Cube, Move, MOVE_CUBES};
use super::near::{NearTable, NEAR_DEPTH};
use super::pdb::{metric_moves, Pattern, Pdb};
use super::phase1;
use super::solver::{Metric, Solved};
use super::symmetry::AXIS_ROTATIONS;
use crate::progress::Progress;
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
}

impl Preset {
    /// The largest preset whose tables for `metric` are all present in `store`, else the
    /// small one (built on first use): bigger presets only make solving faster.
    pub fn largest_present(store: &TableStore, metric: Metric) -> Preset {
        [Preset::Large, Preset::Medium]
            .into_iter()
            .find(|preset| {
                preset
                    .patterns()
                    .into_iter()
                    .all(|p| store.exists(&super::pdb::spec(p, metric, preset.group())))
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
        }
    }

    /// The `cubedb-gen` group building this preset.
    pub fn group(self) -> &'static str {
        match self {
            Preset::Small => "rubik",
            Preset::Medium => "rubik-medium",
            Preset::Large => "rubik-large",
        }
    }

    /// Specs of this preset's tables for both metrics.
    pub fn specs(self) -> Vec<TableSpec> {
        [Metric::Qtm, Metric::Htm]
            .into_iter()
            .flat_map(|metric| {
                self.patterns()
                    .into_iter()
                    .map(move |p| super::pdb::spec(p, metric, self.group()))
            })
            .collect()
    }

    /// Builds (or rebuilds) every table of this preset for both metrics.
    pub fn build(self, store: &TableStore, progress: &Progress) -> Result<(), TableError> {
        for metric in [Metric::Qtm, Metric::Htm] {
            for pattern in self.patterns() {
                super::pdb::build_one(store, pattern, metric, self.group(), progress)?;
            }
        }
        Ok(())
    }
}

/// Specs of the small preset (`cubedb-gen rubik`).
pub fn small_specs() -> Vec<TableSpec> {
    Preset::Small.specs()
}
/// Builds the small preset.
pub fn build_small(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    Preset::Small.build(store, progress)
}
/// Specs of the medium preset (`cubedb-gen rubik-medium`).
pub fn medium_specs() -> Vec<TableSpec> {
    Preset::Medium.specs()
}
/// Builds the medium preset.
pub fn build_medium(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    Preset::Medium.build(store, progress)
}

/// Specs of the large preset (`cubedb-gen rubik-large`).
pub fn large_specs() -> Vec<TableSpec> {
    Preset::Large.specs()
}
/// Builds the large preset.
pub fn build_large(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    Preset::Large.build(store, progress)
}

/// Opened pattern databases of one metric, plus the near table.
#[derive(Debug)]
pub struct Pdbs {
    metric: Metric,
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
        let tables = preset
            .patterns()
            .into_iter()
            .map(|p| Pdb::load_or_build(store, p, metric, preset.group(), progress))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self { metric, tables })
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
}

/// Largest number of table reads per position.
const MAX_READS: usize = 8;

/// Largest number of read stages.
const MAX_STAGES: usize = 2;

/// Which table is read on which view of a position, in stages: the first reads are made
/// for every child of a node, each later stage only for the children no earlier stage
/// pruned. Views are the position (0) and its inverse (1), then, if a flip-slice-twist
/// table is present, the position turned to put its R-L axis on U-D (2) and its inverse
/// (3), and the same for F-B (4, 5).
#[derive(Debug, Clone, Copy)]
struct ReadPlan {
    reads: [(u8, u8); MAX_READS],
    len: usize,
    /// `ends[s]`: reads `ends[s - 1]..ends[s]` make stage `s`.
    ends: [usize; MAX_STAGES],
    stages: usize,
}

impl ReadPlan {
    fn new(tables: &[Pdb]) -> Self {
        let mut plan = ReadPlan {
            reads: [(0, 0); MAX_READS],
            len: 0,
            ends: [0; MAX_STAGES],
            stages: 0,
        };
        let find = |pattern: Pattern| tables.iter().position(|t| t.pattern() == pattern);
        match find(Pattern::FlipSliceTwist) {
            Some(fst) => {
                // The position and its inverse (with the corners, if present), then the
                // rest. (A third stage, splitting the turned views, was slower: each
                // stage waits once for memory.)
                plan.push(fst, 0);
                plan.push(fst, 1);
                if let Some(corners) = find(Pattern::Corners) {
                    plan.push(corners, 0);
                }
                plan.end_stage();
            }
            None => {
                plan.push(0, 0);
                plan.push(0, 1);
                plan.end_stage();
            }
        }
        for (t, table) in tables.iter().enumerate() {
            let views = if table.pattern() == Pattern::FlipSliceTwist {
                0..6
            } else {
                0..2
            };
            for v in views {
                if !plan.reads[..plan.len].contains(&(t as u8, v)) {
                    plan.push(t, v);
                }
            }
        }
        plan.end_stage();
        plan
    }

    fn push(&mut self, table: usize, view: u8) {
        assert!(self.len < MAX_READS, "too many table reads per position");
        self.reads[self.len] = (table as u8, view);
        self.len += 1;
    }

    fn end_stage(&mut self) {
        self.ends[self.stages] = self.len;
        self.stages += 1;
    }

    /// The reads of stage `s`.
    fn stage(&self, s: usize) -> &[(u8, u8)] {
        let start = if s == 0 { 0 } else { self.ends[s - 1] };
        &self.reads[start..self.ends[s]]
    }
}

/// The views of the children of a node (see [`ReadPlan`]): the children themselves, and
/// the turned views made for the children that need them.
struct Views<'k> {
    kids: &'k [(Move, Cube, Cube)],
    turned: [[Cube; 4]; 18],
}

impl Views<'_> {
    #[inline]
    fn get(&self, kid: usize, view: u8) -> &Cube {
        match view {
            0 => &self.kids[kid].1,
            1 => &self.kids[kid].2,
            v => &self.turned[kid][v as usize - 2],
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
        }
    }

    /// The metric of the tables (and of every solution found).
    pub fn metric(&self) -> Metric {
        self.pdbs.metric
    }

    /// Lower bound on the distance of `cube` (inverse `inv`), or `Err` with it when it
    /// exceeds `budget`; in QTM raised to the parity of the remaining budget.
    #[inline]
    fn bound(&self, cube: &Cube, inv: &Cube, budget: u32) -> Result<u32, u32> {
        let qtm = self.pdbs.metric == Metric::Qtm;
        let mut h = [0u32];
        self.bounds(&[(Move::from_index(0), *cube, *inv)], budget, &mut h);
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
        if h > budget {
            Err(h)
        } else {
            Ok(h)
        }
    }

    /// Lower bounds of many positions (`(move, cube, inverse)`), in QTM raised to the
    /// parity of `budget`; a bound above `budget` may stop short of the full maximum.
    ///
    /// Lookups are random reads in tables far bigger than the caches, so every index of a
    /// stage is computed before any entry is read and the reads overlap; the class reads
    /// of the flip-slice-twist table are batched the same way.
    pub(crate) fn bounds(&self, kids: &[(Move, Cube, Cube)], budget: u32, out: &mut [u32]) {
        let plan = &self.plan;
        let qtm = self.pdbs.metric == Metric::Qtm;
        let n = kids.len();
        let mut views = Views {
            kids,
            turned: [[Cube::SOLVED; 4]; 18],
        };
        let mut best = [0u32; 18];
        let mut alive = [true; 18];
        let mut turned = [false; 2];
        for stage in 0..plan.stages {
            let reads = plan.stage(stage);
            // Turned views are made only for the children that reach a stage needing them.
            for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
                let needed = reads.iter().any(|&(_, v)| v as usize / 2 == j + 1);
                if needed && !turned[j] {
                    turned[j] = true;
                    for k in (0..n).filter(|&k| alive[k]) {
                        let (_, cube, inv) = &kids[k];
                        views.turned[k][2 * j] = rotation.conjugate(cube);
                        views.turned[k][2 * j + 1] = rotation.conjugate(inv);
                    }
                }
            }
            let index = self.indices(reads, &views, &alive[..n]);
            // The reads themselves in a loop doing nothing else, so that as many as
            // possible are in flight at once.
            let mut entries = [Nibbles::new(&[]); MAX_READS];
            for (e, &(t, _)) in entries.iter_mut().zip(reads) {
                *e = self.pdbs.tables[t as usize].entries();
            }
            let mut values = [[0u8; MAX_READS]; 18];
            for k in 0..n {
                if alive[k] {
                    for r in 0..reads.len() {
                        values[k][r] = entries[r].get(index[k][r]);
                    }
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

    /// Table indices of `reads` for the live positions among `views`.
    #[inline]
    fn indices(
        &self,
        reads: &[(u8, u8)],
        views: &Views,
        alive: &[bool],
    ) -> [[usize; MAX_READS]; 18] {
        let tables = &self.pdbs.tables;
        let mut index = [[0usize; MAX_READS]; 18];
        // Flip-slice-twist reads: raw coordinates first, then all class reads together,
        // then the indices; other tables directly.
        const MAX: usize = 18 * MAX_READS;
        let mut at = [(0u8, 0u8); MAX];
        let mut raw = [[0u32; 3]; MAX];
        let mut pending = 0;
        for k in (0..alive.len()).filter(|&k| alive[k]) {
            for (r, &(t, view)) in reads.iter().enumerate() {
                let (view, partner) = (views.get(k, view), views.get(k, view ^ 1));
                match tables[t as usize].pattern() {
                    Pattern::FlipSliceTwist => {
                        raw[pending] = phase1::raw_coordinates_with_inverse(view, partner);
                        at[pending] = (k as u8, r as u8);
                        pending += 1;
                    }
                    p => index[k][r] = p.index_with_inverse(view, partner),
                }
            }
        }
        if pending > 0 {
            let mut pairs = [0u32; MAX];
            for (pair, raw) in pairs.iter_mut().zip(&raw[..pending]) {
                *pair = raw[0];
            }
            let mut entries = [0u32; MAX];
            phase1::class_entries(&pairs[..pending], &mut entries[..pending]);
            let mut found = [0usize; MAX];
            phase1::finish_indices(&raw[..pending], &entries[..pending], &mut found[..pending]);
            for (&(k, r), &i) in at[..pending].iter().zip(&found[..pending]) {
                index[k as usize][r as usize] = i;
            }
        }
        index
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
        let mut bound = match self.bound(cube, &inv, 1000 + parity) {
            Ok(h) | Err(h) => h,
        };
        if qtm && (bound ^ parity) & 1 == 1 {
            bound += 1;
        }
        let moves = metric_moves(self.pdbs.metric);
        let mut nodes = 0u64;
        while bound <= max_depth {
            let (step, path, n) = self.iteration(cube, &inv, bound, &moves, deadline);
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
            let step = search.dfs(cube, inv, 0, bound, None, None, &mut path);
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
            if let Err(f) = self.bound(&c1, &i1, bound - 1) {
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
                    Err(f) => least = least.min(f + 2),
                    Ok(_) => prefixes.push((a, b, c2, i2)),
                }
            }
        }
        let found: Mutex<Option<Vec<Move>>> = Mutex::new(None);
        let nodes = AtomicU64::new(prefix_nodes);
        let least = AtomicU64::new(least as u64);
        prefixes.par_iter().for_each(|&(a, b, c2, i2)| {
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
            let step = search.dfs(&c2, &i2, 2, bound, Some(a), Some(b), &mut path);
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
        self.calls = self.calls.wrapping_add(1);
        if self.calls.is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop.store(true, Ordering::Relaxed);
        }
        if self.stop.load(Ordering::Relaxed) {
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
        self.solver.bounds(&kids[..n], budget, &mut bounds[..n]);
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
}
