//! [`OptimalSolver`]: optimal solutions in one metric, from the near table and a
//! pattern-database preset opened (and built) only when a cube needs it.

use crate::limits::Stop;
use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::Cube;
use crate::puzzles::rubik::model::metric::{Metric, MAX_SOLUTION};
use crate::puzzles::rubik::model::solution::Solution;
use crate::puzzles::rubik::near::solver::{cubie_bound, ida};
use crate::puzzles::rubik::near::table::NearTable;
use crate::puzzles::rubik::optimal::preset::{Pdbs, Preset};
use crate::puzzles::rubik::optimal::search::{IterationStart, KorfSolver};
use crate::table::{TableError, TableFamily, TableStore};
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

/// Optimal solving of any position (see `docs/rubik-optimal.md`): positions within 7
/// quarter turns are answered from the near table (in quarter turns directly, in face
/// turns by a short IDA* bounded by it), deeper ones by IDA* over the preset's pattern
/// databases on every core; those are opened, and built if missing, on the first cube
/// that needs them. Made [`OptimalSolver::without_tables`], it answers the same by IDA*
/// with the cubie-count heuristic alone (to benchmark and cross-check).
#[derive(Debug)]
pub struct OptimalSolver {
    metric: Metric,
    engine: Engine,
}

/// What answers.
#[derive(Debug)]
enum Engine {
    Tables(Box<Tables>),
    Search,
}

/// The near table, and the pattern databases once opened.
#[derive(Debug)]
struct Tables {
    near: NearTable,
    pdbs: OnceLock<Pdbs>,
    /// Where and what to open when a cube first needs the pattern databases.
    source: Option<(TableStore, Option<Preset>, Progress)>,
    /// Held while the pattern databases are opened, so they are opened once.
    opening: Mutex<()>,
}

impl OptimalSolver {
    /// The solver for `metric` over `store`: opens (or builds) the near table now and the
    /// tables of `preset` when a cube first needs them. Without a preset: the largest one
    /// already built, else small.
    pub fn open(
        store: &TableStore,
        metric: Metric,
        preset: Option<Preset>,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let near = NearTable::load_or_build(store, (), progress)?;
        Ok(Self {
            metric,
            engine: Engine::Tables(Box::new(Tables {
                near,
                pdbs: OnceLock::new(),
                source: Some((store.clone(), preset, progress.clone())),
                opening: Mutex::new(()),
            })),
        })
    }

    /// Whether the tables of `preset` for `metric` are all in `store` (so opening them
    /// builds nothing).
    pub fn present(store: &TableStore, metric: Metric, preset: Preset) -> bool {
        Pdbs::present(store, (preset, metric))
    }

    /// [`OptimalSolver::open`], opening the pattern databases at once (and building
    /// what their search builds on first use).
    pub fn open_all(
        store: &TableStore,
        metric: Metric,
        preset: Option<Preset>,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let solver = Self::open(store, metric, preset, progress)?;
        solver.engine()?;
        Ok(solver)
    }

    /// A solver over tables opened some other way (tests and experiments outside the
    /// presets).
    pub fn from_tables(near: NearTable, pdbs: Pdbs) -> Self {
        Self {
            metric: pdbs.metric(),
            engine: Engine::Tables(Box::new(Tables {
                near,
                pdbs: OnceLock::from(pdbs),
                source: None,
                opening: Mutex::new(()),
            })),
        }
    }

    /// A solver with no tables at all: IDA* with the cubie-count heuristic, which only
    /// suits shallow positions (benchmarks and cross-checks).
    pub fn without_tables(metric: Metric) -> Self {
        Self {
            metric,
            engine: Engine::Search,
        }
    }

    /// The pattern databases, opened (or built) on first use; `None` without tables.
    pub fn pdbs(&self) -> Result<Option<&Pdbs>, TableError> {
        let Engine::Tables(tables) = &self.engine else {
            return Ok(None);
        };
        if let Some(pdbs) = tables.pdbs.get() {
            return Ok(Some(pdbs));
        }
        let _opening = tables.opening.lock().unwrap_or_else(|p| p.into_inner());
        if tables.pdbs.get().is_none() {
            if let Some((store, preset, progress)) = &tables.source {
                let preset = preset.unwrap_or_else(|| Preset::largest_present(store, self.metric));
                let _ =
                    tables
                        .pdbs
                        .set(Pdbs::load_or_build(store, (preset, self.metric), progress)?);
            }
        }
        Ok(tables.pdbs.get())
    }

    /// Whether the pattern databases are open, or can be without building them.
    fn pdbs_at_hand(&self, tables: &Tables) -> bool {
        tables.pdbs.get().is_some()
            || tables.source.as_ref().is_some_and(|(store, preset, _)| {
                let preset = preset.unwrap_or_else(|| Preset::largest_present(store, self.metric));
                Pdbs::present(store, (preset, self.metric))
            })
    }

    /// The search engine over the tables (opening the pattern databases), for callers
    /// that need its lower-level answers; `None` without tables.
    pub fn engine(&self) -> Result<Option<KorfSolver<'_>>, TableError> {
        let Engine::Tables(tables) = &self.engine else {
            return Ok(None);
        };
        Ok(self
            .pdbs()?
            .map(|pdbs| KorfSolver::new(pdbs, Some(&tables.near))))
    }

    /// The metric solutions are optimal in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// The preset the pattern databases come from (once opened).
    pub fn preset(&self) -> Option<Preset> {
        match &self.engine {
            Engine::Tables(tables) => tables.pdbs.get().and_then(Pdbs::preset),
            Engine::Search => None,
        }
    }

    /// The search's lower bound on the distance of `cube` (the heuristic at its root).
    pub fn lower_bound(&self, cube: &Cube) -> Result<u32, TableError> {
        Ok(match self.engine()? {
            Some(engine) => engine.lower_bound(cube),
            None => cubie_bound(cube),
        })
    }

    /// An optimal solution of `cube` (which must be a valid cube: every one is solved).
    pub fn solve(&self, cube: &Cube) -> Result<Solution, TableError> {
        let solution = self.solve_until(cube, &Stop::never(), None)?;
        Ok(solution.expect("without a stop every valid cube is solved"))
    }

    /// [`OptimalSolver::solve`], giving up when `stop` is reached (`Ok(None)`), and
    /// telling `observer` as each IDA* iteration starts (with tables).
    pub fn solve_until(
        &self,
        cube: &Cube,
        stop: &Stop,
        observer: Option<&(dyn Fn(&IterationStart) + Sync)>,
    ) -> Result<Option<Solution>, TableError> {
        let started = Instant::now();
        let solution = |moves: Vec<_>, nodes| Solution {
            length: self.metric.length(&moves),
            moves,
            nodes,
            elapsed: started.elapsed(),
        };
        let Engine::Tables(tables) = &self.engine else {
            let solved = ida(cube, self.metric, None, MAX_SOLUTION);
            let moves = solved
                .moves
                .expect("every valid cube is within God's number");
            return Ok(Some(solution(moves, solved.nodes)));
        };
        // Near the solved cube: the table (its own distance in quarter turns; in face
        // turns, a bound for the pattern databases' search if they can be opened without
        // building them, else for a short IDA* bounded by the table, a few milliseconds).
        let quarter_turns = tables.near.distance(cube);
        let near_only = match self.metric {
            Metric::Qtm => quarter_turns.is_some(),
            Metric::Htm => quarter_turns.is_some() && !self.pdbs_at_hand(tables),
        };
        if let (true, Some(quarter_turns)) = (near_only, quarter_turns) {
            let solved = match self.metric {
                Metric::Qtm => crate::puzzles::rubik::model::solution::Solved {
                    moves: tables.near.solution(cube),
                    nodes: 0,
                },
                Metric::Htm => ida(cube, Metric::Htm, Some(&tables.near), quarter_turns),
            };
            let moves = solved
                .moves
                .expect("a position of the near table is solved within its distance");
            return Ok(Some(solution(moves, solved.nodes)));
        }
        let mut engine = self.engine()?.expect("the solver has tables");
        // Opening (or building) the pattern databases is not solving: time from here.
        let started = Instant::now();
        let solution = |moves: Vec<_>, nodes| Solution {
            length: self.metric.length(&moves),
            moves,
            nodes,
            elapsed: started.elapsed(),
        };
        if let Some(observer) = observer {
            engine = engine.with_observer(observer);
        }
        let Some(solved) = engine.solve_until(cube, MAX_SOLUTION, stop) else {
            return Ok(None);
        };
        let moves = solved
            .moves
            .expect("every valid cube is solved within God's number");
        Ok(Some(solution(moves, solved.nodes)))
    }
}
