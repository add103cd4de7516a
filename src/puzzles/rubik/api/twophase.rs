//! [`TwoPhaseSolver`]: near-optimal solutions within a length cap, and random-state
//! scrambles, from the two-phase tables of one metric.

use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::{Cube, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::twophase::{
    scramble, solve_by_deadline, Best, Outcome, TwoPhaseSearch, TwoPhaseTables,
};
use crate::table::{TableError, TableFamily, TableStore};
use rayon::prelude::*;
use std::time::{Duration, Instant};

/// Two-phase solving (`docs/rubik-twophase.md`): the first solution found within a length
/// cap, in microseconds for random positions at 21 face turns.
#[derive(Debug)]
pub struct TwoPhaseSolver {
    tables: TwoPhaseTables,
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
            tables: TwoPhaseTables::load_or_build(store, metric, progress)?,
        })
    }

    /// The metric lengths are counted in.
    pub fn metric(&self) -> Metric {
        self.tables.metric()
    }

    /// The tables, for callers that read their histograms.
    pub fn tables(&self) -> &TwoPhaseTables {
        &self.tables
    }

    /// A search's working state: one per thread, reused from cube to cube.
    pub fn search(&self) -> TwoPhaseSearch<'_> {
        TwoPhaseSearch::new(&self.tables)
    }

    /// The first solution of at most `max_length` moves. With a `timeout`, the shortest
    /// found in that time when none within the cap is: first any solution, then shorter
    /// ones. Without, a cap below the optimum is searched exhaustively ([`Best::Nothing`]).
    pub fn solve(
        &self,
        search: &mut TwoPhaseSearch<'_>,
        cube: &Cube,
        max_length: u32,
        timeout: Option<Duration>,
    ) -> TwoPhaseAnswer {
        let started = Instant::now();
        let nodes_before = search.nodes();
        let best = match timeout {
            Some(limit) => solve_by_deadline(search, cube, max_length, started + limit),
            None => match search.solve(cube, max_length, None) {
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

    /// [`TwoPhaseSolver::solve`] for every cube, on every core, answers in order.
    pub fn solve_many(
        &self,
        cubes: &[Cube],
        max_length: u32,
        timeout: Option<Duration>,
    ) -> Vec<TwoPhaseAnswer> {
        cubes
            .par_iter()
            .map_init(
                || self.search(),
                |search, cube| self.solve(search, cube, max_length, timeout),
            )
            .collect()
    }

    /// A random-state scramble producing `cube`: at most 21 face turns, checked by
    /// applying them. The solver must count face turns.
    pub fn scramble(&self, search: &mut TwoPhaseSearch<'_>, cube: &Cube) -> Option<Vec<Move>> {
        scramble(search, cube)
    }

    /// [`TwoPhaseSolver::scramble`] for every position, on every core, in order.
    pub fn scrambles(&self, positions: &[Cube]) -> Vec<Option<Vec<Move>>> {
        positions
            .par_iter()
            .map_init(|| self.search(), |search, cube| scramble(search, cube))
            .collect()
    }
}
