//! Optimal solving for any position (Korf's method): IDA* over pattern databases, in the
//! quarter-turn or half-turn metric.
//!
//! - heuristic: the max of every pattern database looked up on the position and on its
//!   inverse (same distance); a position in the near table (QTM) is answered from it
//!   directly (inside the search it cut few nodes for its cost, so it is not used there);
//! - canonical sequences only ([`qtm_may_follow`], [`htm_may_follow`]);
//! - QTM parity: a position's distance has the parity of its corner permutation, so bounds
//!   and heuristic values are raised to that parity;
//! - both cores: each iteration's subtrees below the first two moves run in parallel.

use super::cube::{
    htm_may_follow, permutation_parity, qtm_may_follow, Cube, HalfTurnSymmetry, Move, MOVE_CUBES,
};
use super::near::{NearTable, NEAR_DEPTH};
use super::pdb::{metric_moves, Pattern, Pdb};
use super::solver::{Metric, Solved};
use crate::progress::Progress;
use crate::table::{TableError, TableSpec, TableStore};
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{LazyLock, Mutex};

/// Rotated lookups used by default (see [`KorfSolver::with_symmetries`]).
const DEFAULT_SYMMETRIES: usize = 0;

/// Table sets: bigger ones make deep solves faster; every one gives optimal answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Preset {
    /// Corners + two 6-edge tables per metric (86 MB).
    Small,
    /// Corners + two 7-edge tables per metric (555 MB).
    Medium,
    /// Corners + two 8-edge tables per metric (5.1 GB).
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
            Preset::Large => vec![Pattern::Corners, edges(0, 8), edges(4, 8)],
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
    symmetries: &'static [HalfTurnSymmetry],
}

/// The whole-cube half turns y2, x2, z2, in the order they are used.
static SYMMETRIES: LazyLock<[HalfTurnSymmetry; 3]> =
    LazyLock::new(|| [1, 0, 2].map(HalfTurnSymmetry::new));

/// Largest number of table reads per position.
const MAX_READS: usize = 32;

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
}

impl<'a> KorfSolver<'a> {
    /// A solver over tables of one metric; `near` (QTM only) answers positions within
    /// its depth directly.
    pub fn new(pdbs: &'a Pdbs, near: Option<&'a NearTable>) -> Self {
        Self {
            pdbs,
            near,
            symmetries: &SYMMETRIES[..DEFAULT_SYMMETRIES],
        }
    }

    /// The same solver also looking the edge tables up on the position turned by the first
    /// `n` (0..=3) whole-cube half turns y2, x2, z2 (and their inverses).
    pub fn with_symmetries(mut self, n: usize) -> Self {
        self.symmetries = &SYMMETRIES[..n.min(3)];
        self
    }

    /// Lower bound on the distance of `cube` (inverse `inv`), or `None` as soon as it is
    /// known to exceed `budget`; in QTM raised to the parity of the remaining budget.
    #[inline]
    fn bound(&self, cube: &Cube, inv: &Cube, budget: u32) -> Result<u32, u32> {
        let qtm = self.pdbs.metric == Metric::Qtm;
        let parity = |h: u32| {
            if qtm && (h ^ budget) & 1 == 1 {
                h + 1
            } else {
                h
            }
        };
        let mut h = 0;
        for table in &self.pdbs.tables {
            h = h.max(parity(table.bound(cube)));
            if h > budget {
                return Err(h);
            }
            h = h.max(parity(table.bound(inv)));
            if h > budget {
                return Err(h);
            }
        }
        if qtm && h <= NEAR_DEPTH {
            if let Some(near) = self.near {
                h = h.max(parity(near.distance(cube).unwrap_or(NEAR_DEPTH + 1)));
                if h > budget {
                    return Err(h);
                }
            }
        }
        Ok(h)
    }

    /// Lower bounds of many positions (`(move, cube, inverse)`), all table indices
    /// computed before any entry is read so the reads overlap; in QTM raised to the parity
    /// of `budget`.
    fn bounds(&self, kids: &[(Move, Cube, Cube)], budget: u32, out: &mut [u32]) {
        let tables = &self.pdbs.tables;
        // Which table each read goes to: every table on the position and its inverse,
        // then the edge tables on each rotated position and its inverse.
        let mut plan = [0usize; MAX_READS];
        let mut reads = 0;
        for t in 0..tables.len() {
            plan[reads] = t;
            plan[reads + 1] = t;
            reads += 2;
        }
        let edge_tables: Vec<usize> = (0..tables.len())
            .filter(|&t| tables[t].pattern() != Pattern::Corners)
            .collect();
        for _ in self.symmetries {
            for &t in &edge_tables {
                plan[reads] = t;
                plan[reads + 1] = t;
                reads += 2;
            }
        }
        assert!(reads <= MAX_READS, "too many table reads per position");
        let mut index = [[0usize; MAX_READS]; 18];
        for (slot, (_, cube, inv)) in index.iter_mut().zip(kids) {
            let mut r = 0;
            for table in tables {
                slot[r] = table.pattern().index_with_inverse(cube, inv);
                slot[r + 1] = table.pattern().index_with_inverse(inv, cube);
                r += 2;
            }
            for sym in self.symmetries {
                let (c, i) = (sym.conjugate(cube), sym.conjugate(inv));
                for &t in &edge_tables {
                    slot[r] = tables[t].pattern().index_with_inverse(&c, &i);
                    slot[r + 1] = tables[t].pattern().index_with_inverse(&i, &c);
                    r += 2;
                }
            }
        }
        let qtm = self.pdbs.metric == Metric::Qtm;
        for (h, slot) in out.iter_mut().zip(&index) {
            let mut best = 0;
            for r in 0..reads {
                best = best.max(tables[plan[r]].value(slot[r]));
            }
            if qtm && (best ^ budget) & 1 == 1 {
                best += 1;
            }
            *h = best;
        }
    }

    fn may_follow(&self, before: Option<Move>, previous: Option<Move>, mv: Move) -> bool {
        match self.pdbs.metric {
            Metric::Qtm => qtm_may_follow(before, previous, mv),
            Metric::Htm => htm_may_follow(previous, mv),
        }
    }

    /// An optimal solution of at most `max_depth` moves in the tables' metric.
    pub fn solve(&self, cube: &Cube, max_depth: u32) -> Solved {
        if let (Metric::Qtm, Some(near)) = (self.pdbs.metric, self.near) {
            if let Some((d, _)) = near.lookup(cube) {
                return Solved {
                    moves: (d <= max_depth).then(|| near.solution(cube)).flatten(),
                    nodes: 0,
                };
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
            let (step, path, n) = self.iteration(cube, &inv, bound, &moves);
            nodes += n;
            match step {
                Step::Found => {
                    return Solved {
                        moves: Some(path),
                        nodes,
                    }
                }
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
        Solved { moves: None, nodes }
    }

    /// One IDA* iteration at `bound`, subtrees below two moves in parallel.
    fn iteration(
        &self,
        cube: &Cube,
        inv: &Cube,
        bound: u32,
        moves: &[Move],
    ) -> (Step, Vec<Move>, u64) {
        let stop = AtomicBool::new(false);
        if bound < 4 {
            let mut search = Search {
                solver: *self,
                moves: moves.to_vec(),
                stop: &stop,
                nodes: 0,
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
