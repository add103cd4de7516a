//! [`OptimalSolver`]: optimal solutions in one metric, from the near table and a
//! pattern-database preset.

use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::Cube;
use crate::puzzles::rubik::model::metric::{Metric, MAX_SOLUTION};
use crate::puzzles::rubik::model::solution::Solution;
use crate::puzzles::rubik::near::solver::{cubie_bound, ida};
use crate::puzzles::rubik::near::table::NearTable;
use crate::puzzles::rubik::optimal::preset::{Pdbs, Preset};
use crate::puzzles::rubik::optimal::search::{IterationStart, KorfSolver};
use crate::table::{TableError, TableFamily, TableStore};
use std::time::Instant;

/// Optimal solving of any position (see `docs/rubik-optimal.md`): positions within 7
/// quarter turns come from the near table, deeper ones from IDA* over the preset's pattern
/// databases, on every core. Made [`OptimalSolver::without_tables`], it answers the same
/// by IDA* with the cubie-count heuristic alone (to benchmark and cross-check).
#[derive(Debug)]
pub struct OptimalSolver {
    engine: Engine,
}

/// What answers.
#[derive(Debug)]
enum Engine {
    Tables(Box<(NearTable, Pdbs)>),
    Search(Metric),
}

impl OptimalSolver {
    /// Opens the near table and the tables of `preset` for `metric` from `store`, building
    /// missing ones first. Without a preset: the largest one already built, else small.
    pub fn open(
        store: &TableStore,
        metric: Metric,
        preset: Option<Preset>,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let near = NearTable::load_or_build(store, (), progress)?;
        let preset = preset.unwrap_or_else(|| Preset::largest_present(store, metric));
        let pdbs = Pdbs::load_or_build(store, (preset, metric), progress)?;
        Ok(Self::from_tables(near, pdbs))
    }

    /// A solver over tables opened some other way (tests and experiments outside the
    /// presets).
    pub fn from_tables(near: NearTable, pdbs: Pdbs) -> Self {
        Self {
            engine: Engine::Tables(Box::new((near, pdbs))),
        }
    }

    /// A solver with no tables at all: IDA* with the cubie-count heuristic, which only
    /// suits shallow positions (benchmarks and cross-checks).
    pub fn without_tables(metric: Metric) -> Self {
        Self {
            engine: Engine::Search(metric),
        }
    }

    /// The search engine over the tables, for callers that need its lower-level answers
    /// (`None` without tables).
    pub fn engine(&self) -> Option<KorfSolver<'_>> {
        match &self.engine {
            Engine::Tables(tables) => Some(KorfSolver::new(&tables.1, Some(&tables.0))),
            Engine::Search(_) => None,
        }
    }

    /// The metric solutions are optimal in.
    pub fn metric(&self) -> Metric {
        match &self.engine {
            Engine::Tables(tables) => tables.1.metric(),
            Engine::Search(metric) => *metric,
        }
    }

    /// The pattern databases in use, if any.
    pub fn pdbs(&self) -> Option<&Pdbs> {
        match &self.engine {
            Engine::Tables(tables) => Some(&tables.1),
            Engine::Search(_) => None,
        }
    }

    /// The preset the pattern databases come from.
    pub fn preset(&self) -> Option<Preset> {
        self.pdbs().and_then(Pdbs::preset)
    }

    /// The search's lower bound on the distance of `cube` (the heuristic at its root).
    pub fn lower_bound(&self, cube: &Cube) -> u32 {
        match self.engine() {
            Some(engine) => engine.lower_bound(cube),
            None => cubie_bound(cube),
        }
    }

    /// An optimal solution of `cube` (which must be a valid cube: every one is solved).
    pub fn solve(&self, cube: &Cube) -> Solution {
        self.solve_until(cube, None, None)
            .expect("without a deadline every valid cube is solved")
    }

    /// [`OptimalSolver::solve`], giving up at `deadline` (`None` if it passed first) and
    /// telling `observer` as each IDA* iteration starts (with tables).
    pub fn solve_until(
        &self,
        cube: &Cube,
        deadline: Option<Instant>,
        observer: Option<&(dyn Fn(&IterationStart) + Sync)>,
    ) -> Option<Solution> {
        let started = Instant::now();
        let solved = match self.engine() {
            Some(mut engine) => {
                if let Some(observer) = observer {
                    engine = engine.with_observer(observer);
                }
                engine.solve_until(cube, MAX_SOLUTION, deadline)?
            }
            None => ida(cube, self.metric(), None, MAX_SOLUTION),
        };
        let moves = solved
            .moves
            .expect("every valid cube is solved within God's number");
        Some(Solution {
            length: self.metric().length(&moves),
            moves,
            nodes: solved.nodes,
            elapsed: started.elapsed(),
        })
    }
}
