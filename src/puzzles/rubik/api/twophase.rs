//! [`TwoPhaseSolver`]: near-optimal solutions within a length cap, and random-state
//! scrambles, from the two-phase tables of one metric.

use crate::limits::{deadline, Cancel, Stop};
use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::{Cube, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::twophase::{
    scramble, solve_until, Best, CompactSearch, CompactTables, Outcome, Searcher, TwoPhaseSearch,
    TwoPhaseTables, UNLIMITED,
};
use crate::table::{TableError, TableFamily, TableStore};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Two-phase solving (`docs/rubik-twophase.md`): the first solution found within a length
/// cap, in microseconds for random positions at 21 face turns.
#[derive(Debug)]
pub struct TwoPhaseSolver {
    tables: Tables,
}

/// The tables a solver searches with (one per solver: the size difference is nothing).
#[derive(Debug)]
#[allow(clippy::large_enum_variant)]
enum Tables {
    /// The table files (about 100 MB per metric, seconds to build once).
    Full(TwoPhaseTables),
    /// Small tables built in memory at once (face turns; slower searches).
    Compact(CompactTables),
}

/// A search's working state over a solver's tables: one per thread, reused from cube
/// to cube (made once, so kept inline rather than behind a pointer).
#[allow(clippy::large_enum_variant)]
pub enum SolverSearch<'t> {
    /// Over the full tables.
    Full(TwoPhaseSearch<'t>),
    /// Over the compact tables.
    Compact(CompactSearch<'t>),
}

impl Searcher for SolverSearch<'_> {
    fn metric(&self) -> Metric {
        match self {
            SolverSearch::Full(search) => Searcher::metric(search),
            SolverSearch::Compact(search) => search.metric(),
        }
    }

    fn nodes(&self) -> u64 {
        match self {
            SolverSearch::Full(search) => Searcher::nodes(search),
            SolverSearch::Compact(search) => search.nodes(),
        }
    }

    fn limit_nodes(&mut self, limit: u64) {
        match self {
            SolverSearch::Full(search) => Searcher::limit_nodes(search, limit),
            SolverSearch::Compact(search) => search.limit_nodes(limit),
        }
    }

    fn solve_until(&mut self, cube: &Cube, max_cost: u32, stop: Stop) -> Outcome {
        match self {
            SolverSearch::Full(search) => Searcher::solve_until(search, cube, max_cost, stop),
            SolverSearch::Compact(search) => search.solve_until(cube, max_cost, stop),
        }
    }

    fn solve_improving(&mut self, cube: &Cube, max_cost: u32, stop: &Stop) -> Best {
        match self {
            SolverSearch::Full(search) => Searcher::solve_improving(search, cube, max_cost, stop),
            SolverSearch::Compact(search) => search.solve_improving(cube, max_cost, stop),
        }
    }
}

impl SolverSearch<'_> {
    /// Makes later searches look at the views of `mask` only
    /// ([`TwoPhaseSearch::take_views`]); false (nothing changed) for the compact
    /// tables' search, which has no views to share out.
    pub fn take_views(&mut self, mask: u8) -> bool {
        match self {
            SolverSearch::Full(search) => {
                search.take_views(mask);
                true
            }
            SolverSearch::Compact(_) => false,
        }
    }
}

/// One cube's answer: the best solution found and what it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TwoPhaseAnswer {
    /// The solution within the cap, a longer one, or none (see [`Best`]).
    pub best: Best,
    /// Positions generated.
    pub nodes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
}

impl TwoPhaseSolver {
    /// Opens the tables of `metric` from `store`, building missing ones first.
    pub fn open(
        store: &TableStore,
        metric: Metric,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        Ok(Self {
            tables: Tables::Full(TwoPhaseTables::load_or_build(store, metric, progress)?),
        })
    }

    /// Bytes building the tables of `metric` holds at its peak: the coordinates and the
    /// biggest breadth-first search (a byte a rank, and its frontier lists) with the
    /// table it packs.
    pub fn build_bytes(metric: Metric) -> u64 {
        let specs = crate::puzzles::rubik::twophase::tables::metric_specs(metric);
        let (coords, searched) = specs.split_first().expect("the coordinates first");
        coords.payload_len()
            + searched
                .iter()
                .map(|s| crate::search::bfs::layered_bfs_bytes(s.entries) + s.payload_len())
                .max()
                .unwrap_or(0)
    }

    /// Whether the table files of `metric` are all in `store` (so [`TwoPhaseSolver::open`]
    /// builds nothing).
    pub fn present(store: &TableStore, metric: Metric) -> bool {
        TwoPhaseTables::present(store, metric)
    }

    /// A face-turn solver over small tables built in memory (about 0.3 s, nothing
    /// written): complete like the full one, slower per cube (milliseconds where the full
    /// tables take microseconds). For a first answer while the full tables are built.
    pub fn compact() -> Self {
        Self {
            tables: Tables::Compact(CompactTables::build()),
        }
    }

    /// Whether this solver searches with the compact tables.
    pub fn is_compact(&self) -> bool {
        matches!(self.tables, Tables::Compact(_))
    }

    /// The metric lengths are counted in.
    pub fn metric(&self) -> Metric {
        match &self.tables {
            Tables::Full(tables) => tables.metric(),
            Tables::Compact(_) => Metric::Htm,
        }
    }

    /// A length every cube has a two-phase solution of, found within milliseconds (20
    /// face turns) or tens of milliseconds (26 quarter turns). Under it, a cube whose
    /// shortest solution is longer is searched to the end (minutes); callers say so
    /// before they start.
    pub fn quick_length(&self) -> u32 {
        match self.metric() {
            Metric::Htm => 20,
            Metric::Qtm => 26,
        }
    }

    /// A search's working state: one per thread, reused from cube to cube.
    pub fn search(&self) -> SolverSearch<'_> {
        match &self.tables {
            Tables::Full(tables) => SolverSearch::Full(TwoPhaseSearch::new(tables)),
            Tables::Compact(tables) => SolverSearch::Compact(CompactSearch::new(tables)),
        }
    }

    /// The first solution of at most `max_length` moves. With a `timeout`, the shortest
    /// found in that time when none within the cap is: first any solution, then shorter
    /// ones. Without, a cap below the optimum is searched exhaustively ([`Best::Nothing`]).
    /// Setting `cancel` stops the search (with what was found so far).
    pub fn solve(
        &self,
        search: &mut SolverSearch<'_>,
        cube: &Cube,
        max_length: u32,
        timeout: Option<Duration>,
        cancel: Option<&Cancel>,
    ) -> TwoPhaseAnswer {
        let started = Instant::now();
        let nodes_before = search.nodes();
        let max_length = max_length.min(UNLIMITED);
        let stop = Stop::at(deadline(started, timeout)).or_cancel(cancel.cloned());
        let best = match timeout {
            Some(_) => solve_until(search, cube, max_length, &stop),
            None => match search.solve_until(cube, max_length, stop) {
                Outcome::Found(moves) => Best::Within(moves),
                Outcome::NoneWithin | Outcome::TimedOut => Best::Nothing,
            },
        };
        TwoPhaseAnswer {
            best,
            nodes: search.nodes() - nodes_before,
            elapsed: started.elapsed(),
        }
    }

    /// The first solution of at most `max_length` moves, giving up at `stop` (the
    /// outcome says whether none exists or the stop came first), and the nodes it took.
    pub fn solve_first(
        &self,
        search: &mut SolverSearch<'_>,
        cube: &Cube,
        max_length: u32,
        stop: Stop,
    ) -> (Outcome, u64) {
        let before = search.nodes();
        let outcome = search.solve_until(cube, max_length.min(UNLIMITED), stop);
        (outcome, search.nodes() - before)
    }

    /// A short solution of at most `max_length` moves: the first found within the cap
    /// (the search is complete, so none means none exists), then shorter ones, each
    /// search asked for one move less than the last, until `effort` more nodes have been
    /// spent or the last is proven optimal. For callers that want short answers at a
    /// fixed small cost (the `kociemba` drop-in) rather than the first under a cap; an
    /// effort in nodes, unlike a time budget, gives the same answer on any machine.
    pub fn solve_short(
        &self,
        search: &mut SolverSearch<'_>,
        cube: &Cube,
        max_length: u32,
        effort: u64,
        cancel: Option<&Cancel>,
    ) -> TwoPhaseAnswer {
        let started = Instant::now();
        let nodes_before = search.nodes();
        let until_cancelled = Stop::never().or_cancel(cancel.cloned());
        let best =
            match search.solve_until(cube, max_length.min(UNLIMITED), until_cancelled.clone()) {
                Outcome::Found(first) => {
                    search.limit_nodes(search.nodes().saturating_add(effort));
                    let step = match self.metric() {
                        Metric::Qtm => 2,
                        Metric::Htm => 1,
                    };
                    let mut best = first;
                    while self.metric().length(&best) >= step {
                        let shorter = self.metric().length(&best) - step;
                        match search.solve_until(cube, shorter, until_cancelled.clone()) {
                            Outcome::Found(moves) => best = moves,
                            Outcome::NoneWithin | Outcome::TimedOut => break,
                        }
                    }
                    search.limit_nodes(u64::MAX);
                    Best::Within(best)
                }
                Outcome::NoneWithin | Outcome::TimedOut => Best::Nothing,
            };
        TwoPhaseAnswer {
            best,
            nodes: search.nodes() - nodes_before,
            elapsed: started.elapsed(),
        }
    }

    /// [`TwoPhaseSolver::solve`] for every cube, on every core, answers in order.
    pub fn solve_many(
        &self,
        cubes: &[Cube],
        max_length: u32,
        timeout: Option<Duration>,
        cancel: Option<&Cancel>,
    ) -> Vec<TwoPhaseAnswer> {
        cubes
            .par_iter()
            .map_init(
                || self.search(),
                |search, cube| self.solve(search, cube, max_length, timeout, cancel),
            )
            .collect()
    }

    /// A random-state scramble producing `cube`: at most 21 face turns, checked by
    /// applying them. The solver must count face turns.
    pub fn scramble(&self, search: &mut SolverSearch<'_>, cube: &Cube) -> Option<Vec<Move>> {
        scramble(search, cube)
    }

    /// [`TwoPhaseSolver::scramble`] for every position, on every core, in order.
    pub fn scrambles(&self, positions: &[Cube]) -> Vec<Option<Vec<Move>>> {
        positions
            .par_iter()
            .map_init(|| self.search(), scramble)
            .collect()
    }
}
