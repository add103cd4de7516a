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
use std::time::{Duration, Instant};

/// How many of 1,000,000 uniformly random positions need each optimal length, in face
/// turns (T. Rokicki's optimal solutions of a million random positions, 2014).
const RANDOM_LENGTHS_HTM: [(u32, u32); 8] = [
    (12, 1),
    (13, 14),
    (14, 172),
    (15, 2_063),
    (16, 26_447),
    (17, 266_974),
    (18, 669_980),
    (19, 33_778),
];

/// The same positions' optimal lengths in quarter turns (each length has the parity of
/// the corner permutation, so a cube's own parity halves the list).
const RANDOM_LENGTHS_QTM: [(u32, u32); 8] = [
    (15, 7),
    (16, 103),
    (17, 870),
    (18, 8_617),
    (19, 69_284),
    (20, 330_490),
    (21, 430_142),
    (22, 159_916),
];

/// What an optimal solve of one cube will likely cost with the tables at hand, said
/// before the search: from a short look (the first iterations of the search, timed), the
/// node count of each later iteration grows by the branching factor of canonical move
/// sequences (13.35 per face turn, 9.37 per quarter turn: IDA* over pattern databases
/// grows at the brute-force rate once past its first iterations), up to the lengths
/// random positions need (given the bound reached and, for a scramble, its length), the
/// last iteration counted in part (`LAST_ITERATION_SHARE`).
#[derive(Debug, Clone)]
pub struct Outlook {
    /// The solution, when the look itself found it (nothing more to search).
    pub solved: Option<Solution>,
    /// No solution is shorter: the bound the look reached.
    pub bound: u32,
    /// The most likely optimal length.
    pub likely: u32,
    /// How often a position like this one needs [`Outlook::likely`] moves (0 to 1).
    pub likely_share: f64,
    /// Nodes the whole search is expected to generate (the mean over the likely lengths).
    pub nodes: f64,
    /// Its expected wall-clock time.
    pub seconds: f64,
    /// The node rate measured by the look (both cores).
    pub nodes_per_second: f64,
    /// How long the look took.
    pub look: Duration,
}

/// A preset that could answer faster, and whether this machine can build it.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetOffer {
    /// The preset.
    pub preset: Preset,
    /// Whether its tables of the metric are already built.
    pub built: bool,
    /// Bytes of its tables on disk (one metric).
    pub bytes: u64,
    /// Expected build time here (scaled from 2 cores to this machine's threads).
    pub build_seconds: f64,
    /// Peak memory of the build.
    pub build_memory: u64,
    /// Median optimal solve of a random position, both cores of the project machine.
    pub random_median_seconds: f64,
    /// Whether the build fits the memory free now and the disk free in the data folder
    /// (`None` where the system does not say).
    pub fits: Option<bool>,
}

impl Outlook {
    /// The forecast in words: `about 13 days with the small tables (expected; likely 18
    /// face turns, 67%; at least 13 so far): 1.2e12 nodes at 1.1 M nodes/s`.
    pub fn summary(&self, metric: Metric, tables: &str) -> String {
        format!(
            "about {} with the {tables} tables (expected; likely {} {}, {:.0}%; at least {} \
             so far): {:.1e} nodes at {:.1} M nodes/s",
            crate::machine::duration_text(self.seconds),
            self.likely,
            metric.unit(),
            self.likely_share * 100.0,
            self.bound,
            self.nodes,
            self.nodes_per_second / 1e6,
        )
    }
}

impl PresetOffer {
    /// The offer in words: `the 8g preset (7.5 GB on disk, built once in about 7 min with
    /// 9.3 GB of memory) solves a random position in about 1.6 s`.
    pub fn summary(&self) -> String {
        use crate::machine::{bytes_text, duration_text};
        let speed = format!(
            "solves a random position in about {}",
            duration_text(self.random_median_seconds)
        );
        if self.built {
            format!("the {} preset (built) {speed}", self.preset.name())
        } else {
            format!(
                "the {} preset ({} on disk, built once in about {} with {} of memory) {speed}",
                self.preset.name(),
                bytes_text(self.bytes),
                duration_text(self.build_seconds),
                bytes_text(self.build_memory)
            )
        }
    }
}

/// What to suggest instead of a slow solve: presets this machine can use or build.
#[derive(Debug, Clone, PartialEq)]
pub struct Advice {
    /// The fastest preset usable here, and the quickest to build if another (at most two).
    pub offers: Vec<PresetOffer>,
    /// With nothing usable: the fast preset whose build needs the least memory.
    pub out_of_reach: Option<PresetOffer>,
    /// The room this machine has, in words (`23.9 GB of memory and 80.2 GB of disk free`).
    pub room: String,
}

/// What [`OptimalSolver::offers`] counts as fast: a median random position within this
/// many seconds.
pub const FAST_SECONDS: f64 = 10.0;

/// Node rate assumed when the look made too few nodes to measure one (both cores of the
/// project machine: 60-110 ns per node).
const ASSUMED_NODES_PER_SECOND: f64 = 1.0e7;

/// Fewer nodes than this measure no rate (start-up costs dominate).
const RATE_MIN_NODES: u64 = 50_000;

/// The share of its last iteration a search makes, on the mean, before it meets its
/// first solution (it stops there, and its subtrees go closest first): 1.7-5.0% (mean
/// 2.9%) of the full iteration the growth foretells, on four 18-move random positions
/// with `200m` (`docs/rubik-optimal.md`, "Start-up"). Counting the last iteration whole
/// foretold 6-9 minutes for solves of 2-40 s.
const LAST_ITERATION_SHARE: f64 = 0.03;

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
    /// tables of `preset` when a cube first needs them. Without a preset: the fastest one
    /// already built, else `200m`.
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

    /// The preset a solve with `preset` (or, without one, the largest present) would
    /// open, when its tables are not all in `store`: what a first use will build.
    pub fn to_build(store: &TableStore, metric: Metric, preset: Option<Preset>) -> Option<Preset> {
        let preset = preset.unwrap_or_else(|| Preset::fastest_present(store, metric));
        (!Self::present(store, metric, preset)).then_some(preset)
    }

    /// Whether the tables of `preset` for `metric` are all in `store` (so opening them
    /// builds nothing).
    pub fn present(store: &TableStore, metric: Metric, preset: Preset) -> bool {
        Pdbs::present(store, (preset, metric))
    }

    /// The presets that solve random positions within [`FAST_SECONDS`] (measured), fastest first, each
    /// with what its build needs and whether this machine has that free now (memory,
    /// and disk in `store`'s folder) or has it built already.
    pub fn offers(store: &TableStore, metric: Metric) -> Vec<PresetOffer> {
        let memory = crate::machine::available_memory();
        let disk = crate::machine::free_disk(store.dir());
        let threads = crate::threads() as f64;
        let mut offers: Vec<PresetOffer> = Preset::ALL
            .into_iter()
            .filter_map(|preset| {
                let figures = preset.figures(metric);
                let median = figures
                    .random_median_seconds
                    .filter(|&s| s <= FAST_SECONDS)?;
                let bytes = preset.bytes(metric);
                let built = Self::present(store, metric, preset);
                let fits = match (memory, disk) {
                    _ if built => Some(true),
                    (Some(memory), Some(disk)) => {
                        Some(figures.build_peak_bytes <= memory && bytes <= disk)
                    }
                    (Some(memory), None) => (figures.build_peak_bytes > memory).then_some(false),
                    (None, Some(disk)) => (bytes > disk).then_some(false),
                    (None, None) => None,
                };
                Some(PresetOffer {
                    preset,
                    built,
                    bytes,
                    build_seconds: f64::from(figures.build_seconds_on_two_cores) * 2.0
                        / threads.max(1.0),
                    build_memory: figures.build_peak_bytes,
                    random_median_seconds: median,
                    fits,
                })
            })
            .collect();
        offers.sort_by(|a, b| a.random_median_seconds.total_cmp(&b.random_median_seconds));
        offers
    }

    /// [`OptimalSolver::offers`] worth naming instead of a solve expected to take
    /// `seconds` with the preset `current`: the fastest usable, the quickest to build.
    pub fn advice(
        store: &TableStore,
        metric: Metric,
        current: Option<Preset>,
        seconds: f64,
    ) -> Advice {
        use crate::machine::bytes_text;
        let faster: Vec<PresetOffer> = Self::offers(store, metric)
            .into_iter()
            .filter(|o| Some(o.preset) != current && o.random_median_seconds * 3.0 < seconds)
            .collect();
        let usable: Vec<&PresetOffer> = faster.iter().filter(|o| o.fits != Some(false)).collect();
        let mut offers: Vec<PresetOffer> = usable.first().map(|&o| o.clone()).into_iter().collect();
        if let Some(quickest) = usable
            .iter()
            .min_by(|a, b| a.build_seconds.total_cmp(&b.build_seconds))
        {
            if offers.first().is_some_and(|o| o.preset != quickest.preset) {
                offers.push((*quickest).clone());
            }
        }
        let out_of_reach = if offers.is_empty() {
            faster.iter().min_by_key(|o| o.build_memory).cloned()
        } else {
            None
        };
        let memory = crate::machine::available_memory();
        let disk = crate::machine::free_disk(store.dir());
        let room = match (memory, disk) {
            (Some(m), Some(d)) => {
                format!(
                    "{} of memory and {} of disk free",
                    bytes_text(m),
                    bytes_text(d)
                )
            }
            (Some(m), None) => format!("{} of memory free", bytes_text(m)),
            (None, Some(d)) => format!("{} of disk free", bytes_text(d)),
            (None, None) => "free memory unknown".into(),
        };
        Advice {
            offers,
            out_of_reach,
            room,
        }
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
                let preset = preset.unwrap_or_else(|| Preset::fastest_present(store, self.metric));
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
                let preset = preset.unwrap_or_else(|| Preset::fastest_present(store, self.metric));
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

    /// What solving `cube` will likely cost (see [`Outlook`]): opens the pattern
    /// databases (building them if missing: not counted), then searches for at most
    /// `look` and extrapolates. `at_most`: a length the cube is known to be solved within
    /// (its scramble's), if any.
    pub fn outlook(
        &self,
        cube: &Cube,
        at_most: Option<u32>,
        look: Duration,
    ) -> Result<Outlook, TableError> {
        let solved = |solution: Solution| Outlook {
            bound: solution.length,
            likely: solution.length,
            likely_share: 1.0,
            nodes: solution.nodes as f64,
            seconds: solution.elapsed.as_secs_f64(),
            nodes_per_second: 0.0,
            look: solution.elapsed,
            solved: Some(solution),
        };
        let engine = match &self.engine {
            Engine::Tables(tables) if !self.near_only(tables, cube) => self.engine()?,
            _ => None,
        };
        let Some(engine) = engine else {
            // Answered from the near table or by the plain search: nothing to foresee.
            let solution = self.solve_until(cube, &Stop::never(), None)?;
            return Ok(solved(
                solution.expect("without a stop every cube is solved"),
            ));
        };
        let starts: Mutex<Vec<IterationStart>> = Mutex::new(Vec::new());
        let record = |start: &IterationStart| {
            starts
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .push(*start);
        };
        let started = Instant::now();
        let stop = Stop::at(started.checked_add(look));
        if let Some(found) = engine
            .with_observer(&record)
            .solve_until(cube, MAX_SOLUTION, &stop)
        {
            let moves = found
                .moves
                .expect("every valid cube is solved within God's number");
            return Ok(solved(Solution {
                length: self.metric.length(&moves),
                moves,
                nodes: found.nodes,
                elapsed: started.elapsed(),
            }));
        }
        let look = started.elapsed();
        let starts = starts.into_inner().unwrap_or_else(|p| p.into_inner());
        Ok(self.extrapolate(cube, &starts, at_most, look))
    }

    /// The [`Outlook`] of a search stopped after `look`, from its iteration starts.
    fn extrapolate(
        &self,
        cube: &Cube,
        starts: &[IterationStart],
        at_most: Option<u32>,
        look: Duration,
    ) -> Outlook {
        let (step, branching, lengths) = match self.metric {
            Metric::Htm => (1, 13.348_f64, &RANDOM_LENGTHS_HTM),
            Metric::Qtm => (2, 9.372_f64, &RANDOM_LENGTHS_QTM),
        };
        let growth = branching.powi(step as i32);
        let parity = crate::puzzles::rubik::model::cube::permutation_parity(&cube.cp);
        // The iteration under way when the look stopped, and the last one completed.
        let current = starts.last().map_or(0, |s| s.bound);
        let done = starts.len().saturating_sub(1);
        let nodes_per_second = match starts.last() {
            Some(s) if s.nodes >= RATE_MIN_NODES && !s.elapsed.is_zero() => {
                s.nodes as f64 / s.elapsed.as_secs_f64()
            }
            _ => ASSUMED_NODES_PER_SECOND,
        };
        // Nodes of the last completed iteration, and its bound; without one, the one
        // under way made at least the look's worth.
        let (last_nodes, last_bound) = if done > 0 {
            let n = starts[done].nodes - starts[done - 1].nodes;
            (n.max(1) as f64, starts[done - 1].bound)
        } else {
            (
                (nodes_per_second * look.as_secs_f64() / growth).max(1.0),
                current.saturating_sub(step),
            )
        };
        // Nodes of every iteration from the current one up to `length`, the last one
        // searched in part.
        let cost = |length: u32| -> f64 {
            let last = length.max(current);
            let mut nodes = 0.0;
            let mut n = last_nodes;
            let mut bound = last_bound + step;
            while bound <= last {
                n *= growth;
                if bound >= current {
                    nodes += if bound == last {
                        n * LAST_ITERATION_SHARE
                    } else {
                        n
                    };
                }
                bound += step;
            }
            nodes
        };
        let hi = at_most.unwrap_or(u32::MAX).max(current);
        let mut likely: Vec<(u32, f64)> = lengths
            .iter()
            .filter(|(d, _)| {
                (self.metric == Metric::Htm || d % 2 == parity) && (current..=hi).contains(d)
            })
            .map(|&(d, count)| (d, f64::from(count)))
            .collect();
        if likely.is_empty() {
            let deepest = lengths.last().map_or(current, |(d, _)| *d);
            likely.push((hi.min(deepest).max(current), 1.0));
        }
        let total: f64 = likely.iter().map(|(_, w)| w).sum();
        let nodes = likely
            .iter()
            .map(|&(d, w)| w / total * cost(d))
            .sum::<f64>();
        let (most, weight) =
            likely.iter().copied().fold(
                (current, 0.0),
                |best, (d, w)| if w > best.1 { (d, w) } else { best },
            );
        Outlook {
            solved: None,
            bound: current,
            likely: most,
            likely_share: weight / total,
            nodes,
            seconds: nodes / nodes_per_second,
            nodes_per_second,
            look,
        }
    }

    /// Whether `cube` is answered from the near table alone (no pattern database).
    fn near_only(&self, tables: &Tables, cube: &Cube) -> bool {
        let quarter_turns = tables.near.distance(cube);
        match self.metric {
            Metric::Qtm => quarter_turns.is_some(),
            Metric::Htm => quarter_turns.is_some() && !self.pdbs_at_hand(tables),
        }
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
        if let (true, Some(quarter_turns)) = (self.near_only(tables, cube), quarter_turns) {
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
