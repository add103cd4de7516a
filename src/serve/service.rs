//! The service's solvers and how a request's work runs: everything opened once at start
//! and shared by all requests; two-phase work on a quick pool, long work (optimal
//! solving, listings, goals) on a pool of its own behind a bounded queue, so a flood of
//! long requests cannot starve quick ones or hold memory; every solve bounded by a
//! deadline and cancelled when its client leaves or the service stops.

use super::error::ApiError;
use super::puzzles::{self, PuzzleShelf};
use cubedb::events::{Event, EventError, EventScrambler};
use cubedb::limits::{deadline, Cancel, Stop};
use cubedb::progress::Progress;
use cubedb::puzzles::perm::served::{ServedError, ServedSolution};
use cubedb::puzzles::rubik::api::{
    GoalSolver, GoalSpec, GoalUnreachable, NotInGroup, OptimalSolver, SolutionFinder,
    TwoPhaseSolver, COUNT_EXTRA_LENGTH,
};
use cubedb::puzzles::rubik::twophase::{Best, Outcome};
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, Cube, Metric, Move, Preset};
use cubedb::table::{TableError, TableStore};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// Limits of one service (from `cubedb serve`'s options).
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Longest any one solve may take.
    pub deadline: Duration,
    /// Long requests waiting for a solver at most.
    pub queue: usize,
    /// Cubes in one batch at most.
    pub max_batch: usize,
    /// How long a client may take to send a request's headers or body.
    pub client_timeout: Duration,
}

/// Solutions listed by one request at most (`"all": true` with more is refused).
pub const MAX_SOLUTIONS: usize = 10_000;

/// What a request asks of its cube.
#[derive(Debug, Clone)]
pub enum Mode {
    /// The first solution of at most `max_length` moves (two-phase).
    TwoPhase {
        /// The cap.
        max_length: u32,
    },
    /// One optimal solution.
    Optimal,
    /// Several solutions: every optimal one (`all`), or the first `limit` by length, or
    /// with only some `moves`.
    Listing {
        /// The moves allowed (`None`: all of the metric's).
        moves: Option<Vec<Move>>,
        /// How many at most.
        limit: usize,
        /// Every optimal solution.
        all: bool,
    },
    /// A partial goal (a named goal such as `cross:D`).
    Goal {
        /// The goal as asked (for the reply and the cache).
        name: String,
        /// The goal.
        spec: GoalSpec,
        /// How many solutions at most.
        limit: usize,
        /// Every optimal solution.
        all: bool,
    },
}

impl Mode {
    /// Whether the request runs on the long pool, behind the queue.
    fn is_long(&self) -> bool {
        !matches!(self, Mode::TwoPhase { .. })
    }
}

/// One request's work, its cube aside.
#[derive(Debug, Clone)]
pub struct Job {
    /// What to find.
    pub mode: Mode,
    /// The metric lengths are counted in.
    pub metric: Metric,
    /// The request's own time limit (never past the service's deadline).
    pub timeout: Option<Duration>,
}

/// A solved cube, as JSON.
#[derive(Debug, Clone, Serialize)]
pub struct Reply {
    /// The (first) solution, Singmaster moves.
    pub solution: String,
    /// Its length in the metric.
    pub length: u32,
    /// `htm` or `qtm`.
    pub metric: &'static str,
    /// `two-phase`, `optimal`, `listing` or `goal`.
    pub method: &'static str,
    /// Whether the solution is known to be optimal (absent when not known).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub optimal: Option<bool>,
    /// Two-phase with a timeout: false when time ran out with only a longer solution.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub within_max_length: Option<bool>,
    /// Listings and goals: every solution found, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub solutions: Option<Vec<String>>,
    /// Goals: the goal in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// Positions the search generated.
    pub nodes: u64,
    /// Time spent solving (not waiting), in milliseconds.
    pub elapsed_ms: f64,
}

/// What selects a solution finder: the metric, the moves allowed, one solution each.
type FinderKey = (Metric, Option<Vec<Move>>, bool);

/// The service: solvers, pools and limits, shared by every request.
pub struct Service {
    store: TableStore,
    preset: Option<Preset>,
    limits: Limits,
    progress: Progress,
    /// Two-phase solvers, face turns then quarter turns.
    twophase: [TwoPhaseSolver; 2],
    /// Optimal solvers, face turns then quarter turns.
    optimal: [Arc<OptimalSolver>; 2],
    finders: Mutex<HashMap<FinderKey, Arc<SolutionFinder>>>,
    goals: Mutex<HashMap<(String, Metric), Arc<GoalSolver>>>,
    quick: rayon::ThreadPool,
    long: rayon::ThreadPool,
    /// Room in the long-request queue (waiting or running).
    admitted: Arc<Semaphore>,
    /// Long requests running at once (one per core).
    running: Arc<Semaphore>,
    shutdown: Cancel,
    answered: AtomicU64,
    /// The definition-driven puzzles served.
    puzzles: PuzzleShelf,
    /// The WCA events' scramblers, by event and whether random-state, opened on first
    /// use (each opened once).
    events: Mutex<HashMap<(&'static str, bool), Arc<OpenedEvent>>>,
}

/// An event's scrambler once opened, or why it could not be (kept: opened once).
type OpenedEvent = OnceLock<Result<Arc<EventScrambler>, ApiError>>;

fn slot(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

impl Service {
    /// Opens every solver (building missing tables first, with the usual progress), the
    /// optimal ones with their pattern databases, so no request waits for a table.
    pub fn open(
        store: TableStore,
        preset: Option<Preset>,
        limits: Limits,
        puzzles: PuzzleShelf,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let open_twophase = |metric| TwoPhaseSolver::open(&store, metric, progress);
        let open_optimal =
            |metric| OptimalSolver::open_all(&store, metric, preset, progress).map(Arc::new);
        let ((htm2, qtm2), (htm, qtm)) = rayon::join(
            || rayon::join(|| open_twophase(Metric::Htm), || open_twophase(Metric::Qtm)),
            || rayon::join(|| open_optimal(Metric::Htm), || open_optimal(Metric::Qtm)),
        );
        let cores = cubedb::threads();
        let pool = |name: &'static str| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(cores)
                .thread_name(move |i| format!("cubedb-{name}-{i}"))
                .build()
                .map_err(|e| TableError::Io {
                    path: store.dir().to_path_buf(),
                    action: "cannot start solver threads",
                    error: std::io::Error::other(e.to_string()),
                })
        };
        Ok(Self {
            twophase: [htm2?, qtm2?],
            optimal: [htm?, qtm?],
            quick: pool("quick")?,
            long: pool("long")?,
            admitted: Arc::new(Semaphore::new(limits.queue + cores)),
            running: Arc::new(Semaphore::new(cores)),
            finders: Mutex::new(HashMap::new()),
            goals: Mutex::new(HashMap::new()),
            shutdown: Cancel::new(),
            answered: AtomicU64::new(0),
            puzzles,
            events: Mutex::new(HashMap::new()),
            progress: progress.clone(),
            store,
            preset,
            limits,
        })
    }

    /// The limits this service runs with.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// One line on what is open (for the start-up message).
    pub fn summary(&self) -> String {
        format!(
            "two-phase tables for both metrics; optimal: {} preset; deadline {} s",
            self.preset_name(),
            self.limits.deadline.as_secs_f64()
        )
    }

    fn preset_name(&self) -> &'static str {
        self.optimal[0].preset().map_or("no", Preset::name)
    }

    /// What is loaded and what each mode costs (`GET /api/info`).
    pub fn info(&self) -> serde_json::Value {
        let available = self.admitted.available_permits();
        serde_json::json!({
            "version": env!("CARGO_PKG_VERSION"),
            "data": self.store.dir().display().to_string(),
            "tables": {
                "two_phase": ["htm", "qtm"],
                "optimal_preset": self.preset_name(),
                "optimal_preset_asked": self.preset.map(Preset::name),
            },
            "modes": {
                "two-phase": "with max_length: tens of microseconds per random cube at 21 face \
                    turns or 26 quarter turns, milliseconds at 20 / 24; below that, a cube may \
                    take minutes (the deadline applies)",
                "optimal": "without max_length: milliseconds for cubes within 7 quarter turns, \
                    seconds to minutes for random cubes (faster with bigger presets); on the \
                    long pool, one per core, behind the queue",
                "listing": "all, count or moves: as optimal, plus the enumeration",
                "goal": "a named goal (cross, xcross, f2l-pair, first-block, eo, with :FACE): \
                    microseconds from its table",
            },
            "limits": {
                "deadline_s": self.limits.deadline.as_secs_f64(),
                "queue": self.limits.queue,
                "queue_free": available,
                "max_batch": self.limits.max_batch,
                "max_solutions": MAX_SOLUTIONS,
                "solver_threads": cubedb::threads(),
            },
            "puzzles": {
                "folder": self.puzzles.dir().map(|d| d.display().to_string()),
                "names": self.puzzles.list().into_iter().map(|(name, _)| name).collect::<Vec<_>>(),
                "routes": "GET /api/puzzles; POST /api/puzzle/NAME/solve {scramble, max_length, \
                    timeout}; GET /api/puzzle/NAME/scramble?count=&seed= (opened, tables \
                    built, on first use; on the long pool, behind the queue)",
            },
            "requests_answered": self.requests_answered(),
        })
    }

    /// Requests answered so far.
    pub fn requests_answered(&self) -> u64 {
        self.answered.load(Ordering::Relaxed)
    }

    /// Counts an answered request.
    pub fn count_answer(&self) {
        self.answered.fetch_add(1, Ordering::Relaxed);
    }

    /// Whether the service is stopping.
    pub fn is_shutting_down(&self) -> bool {
        self.shutdown.is_cancelled()
    }

    /// Cancels every running solve and refuses new ones.
    pub fn shut_down(&self) {
        self.shutdown.cancel();
    }

    /// Two-phase scrambles of uniformly random positions.
    pub async fn scrambles(
        self: &Arc<Self>,
        positions: Vec<Cube>,
    ) -> Result<Vec<String>, ApiError> {
        let service = Arc::clone(self);
        let found = run_on(&self.quick, self.shutdown.child(), move |_| {
            service.twophase[0].scrambles(&positions)
        })
        .await?;
        found
            .into_iter()
            .map(|s| {
                s.map(|m| format_moves(&m))
                    .ok_or_else(|| ApiError::internal("internal error: no scramble found"))
            })
            .collect()
    }

    /// Solves one cube.
    pub async fn solve(self: &Arc<Self>, cube: Cube, job: Job) -> Result<Reply, ApiError> {
        if self.is_shutting_down() {
            return Err(stopping());
        }
        if !job.mode.is_long() {
            let service = Arc::clone(self);
            return run_on(&self.quick, self.shutdown.child(), move |cancel| {
                service.solve_blocking(&cube, &job, cancel)
            })
            .await?;
        }
        let _admitted = self.admit()?;
        let _running = self.wait_for_solver().await?;
        let service = Arc::clone(self);
        run_on(&self.long, self.shutdown.child(), move |cancel| {
            service.solve_blocking(&cube, &job, cancel)
        })
        .await?
    }

    /// The definition-driven puzzles served.
    pub fn puzzles(&self) -> &PuzzleShelf {
        &self.puzzles
    }

    /// Solves the state `scramble` reaches on the served puzzle `name` (opened, its
    /// tables built, on first use), on the long pool behind the queue, within `timeout`
    /// and the deadline; the answer, how it was found, and the time taken in ms.
    pub async fn solve_puzzle(
        self: &Arc<Self>,
        name: String,
        scramble: String,
        max_length: Option<usize>,
        timeout: Option<Duration>,
    ) -> Result<(ServedSolution, String, f64), ApiError> {
        self.on_long_pool(move |service, cancel| {
            let started = Instant::now();
            let puzzle = service
                .puzzles
                .open(&name, &service.store, &service.progress)?;
            let (stop, limit, _) = service.stop_within(timeout, cancel);
            let solution =
                puzzles::solve(&puzzle, &scramble, max_length, stop, limit.as_secs_f64())?;
            Ok((
                solution,
                puzzle.method(),
                started.elapsed().as_secs_f64() * 1e3,
            ))
        })
        .await
    }

    /// Random-state scrambles `0..count` of `seed` for the served puzzle `name`, on the
    /// long pool behind the queue, within the deadline.
    pub async fn puzzle_scrambles(
        self: &Arc<Self>,
        name: String,
        seed: u64,
        count: u64,
    ) -> Result<Vec<String>, ApiError> {
        self.on_long_pool(move |service, cancel| {
            let puzzle = service
                .puzzles
                .open(&name, &service.store, &service.progress)?;
            let (stop, limit, _) = service.stop_within(None, cancel);
            puzzles::scrambles(&puzzle, seed, count, stop, limit.as_secs_f64())
        })
        .await
    }

    /// Scrambles `0..count` of `seed` for the WCA event `event`, random-state where
    /// `random_state` asks it as `--random-state` does (its scrambler opened, tables
    /// built, on first use), on the long pool behind the queue, within the deadline.
    pub async fn event_scrambles(
        self: &Arc<Self>,
        event: Event,
        random_state: bool,
        seed: u64,
        count: u64,
    ) -> Result<Vec<String>, ApiError> {
        self.on_long_pool(move |service, cancel| {
            let slot = {
                let mut events = service.events.lock().unwrap_or_else(|p| p.into_inner());
                Arc::clone(events.entry((event.id(), random_state)).or_default())
            };
            let scrambler = slot
                .get_or_init(|| {
                    EventScrambler::open(event, random_state, &service.store, &service.progress)
                        .map(Arc::new)
                        .map_err(|e| match e {
                            // Asked of an event without a random-state solver: the
                            // request's fault.
                            EventError::NoRandomState(_) => ApiError::bad_request(
                                e.to_string().replacen("--random-state", "random_state", 1),
                            ),
                            other => ApiError::internal(other.to_string()),
                        })
                })
                .clone()?;
            let (stop, limit, _) = service.stop_within(None, cancel);
            scrambler
                .scrambles(seed, 0, count, &stop)
                .into_iter()
                .map(|s| {
                    s.map_err(|e| match e {
                        EventError::Served(ServedError::TimedOut) => ApiError::deadline(format!(
                            "no scramble within the time limit of {} s",
                            limit.as_secs_f64()
                        )),
                        EventError::Served(ServedError::Cancelled) => {
                            ApiError::busy("the service is stopping", 1)
                        }
                        other => ApiError::internal(other.to_string()),
                    })
                })
                .collect()
        })
        .await
    }

    /// Runs `work` on the long pool, holding a place in the queue and a solver.
    async fn on_long_pool<T: Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&Service, Cancel) -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        if self.is_shutting_down() {
            return Err(stopping());
        }
        let _admitted = self.admit()?;
        let _running = self.wait_for_solver().await?;
        let service = Arc::clone(self);
        run_on(&self.long, self.shutdown.child(), move |cancel| {
            work(&service, cancel)
        })
        .await?
    }

    /// Solves a batch, handing each answer to `emit` in input order as it completes;
    /// stops when `emit` says the client is gone. Two-phase cubes are solved in chunks
    /// on every core; long ones one after the other, holding one place in the queue.
    pub async fn solve_batch<F, Fut>(
        self: &Arc<Self>,
        cubes: Vec<Result<Cube, ApiError>>,
        job: Job,
        mut emit: F,
    ) -> Result<(), ApiError>
    where
        F: FnMut(usize, Result<Reply, ApiError>) -> Fut,
        Fut: std::future::Future<Output = bool>,
    {
        /// Cubes solved together: small enough that answers stream, large enough to
        /// keep every core busy.
        const CHUNK: usize = 64;
        let long = job.mode.is_long();
        let (_admitted, _running) = if long {
            let admitted = self.admit()?;
            (Some(admitted), Some(self.wait_for_solver().await?))
        } else {
            (None, None)
        };
        let pool = if long { &self.long } else { &self.quick };
        let cubes = Arc::new(cubes);
        let mut index = 0;
        while index < cubes.len() {
            if self.is_shutting_down() {
                return Err(stopping());
            }
            let end = (index + if long { 1 } else { CHUNK }).min(cubes.len());
            let service = Arc::clone(self);
            let (chunk_cubes, chunk_job) = (Arc::clone(&cubes), job.clone());
            let answers = run_on(pool, self.shutdown.child(), move |cancel| {
                chunk_cubes[index..end]
                    .par_iter()
                    .map(|cube| match cube {
                        Ok(cube) => service.solve_blocking(cube, &chunk_job, cancel.clone()),
                        Err(e) => Err(e.clone()),
                    })
                    .collect::<Vec<_>>()
            })
            .await?;
            for (k, answer) in answers.into_iter().enumerate() {
                if !emit(index + k, answer).await {
                    return Ok(());
                }
            }
            index = end;
        }
        Ok(())
    }

    /// A place in the long-request queue, or 503 at once.
    fn admit(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        Arc::clone(&self.admitted).try_acquire_owned().map_err(|_| {
            ApiError::busy(
                format!(
                    "the optimal solvers are busy and {} requests are waiting: try again later",
                    self.limits.queue
                ),
                5,
            )
        })
    }

    /// A free long-pool solver, waiting at most the deadline.
    async fn wait_for_solver(&self) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        match tokio::time::timeout(
            self.limits.deadline,
            Arc::clone(&self.running).acquire_owned(),
        )
        .await
        {
            Ok(Ok(permit)) => Ok(permit),
            Ok(Err(_)) => Err(stopping()),
            Err(_) => Err(ApiError::deadline(format!(
                "no optimal solver became free within the service's deadline of {} s",
                self.limits.deadline.as_secs_f64()
            ))),
        }
    }

    /// The time limit of a job: its own timeout, never past the service's deadline.
    fn stop_for(&self, job: &Job, cancel: Cancel) -> (Stop, Duration, bool) {
        self.stop_within(job.timeout, cancel)
    }

    /// A stop at `timeout` (never past the service's deadline) or `cancel`: the stop, the
    /// limit, and whether the request's own timeout set it.
    fn stop_within(&self, timeout: Option<Duration>, cancel: Cancel) -> (Stop, Duration, bool) {
        let own = timeout.filter(|t| *t < self.limits.deadline);
        let limit = own.unwrap_or(self.limits.deadline);
        let stop = Stop::at(deadline(Instant::now(), Some(limit))).or_cancel(Some(cancel));
        (stop, limit, own.is_some())
    }

    /// Solves one cube on the calling (pool) thread.
    fn solve_blocking(&self, cube: &Cube, job: &Job, cancel: Cancel) -> Result<Reply, ApiError> {
        let started = Instant::now();
        let metric = job.metric;
        let (stop, limit, own_timeout) = self.stop_for(job, cancel.clone());
        let reply = |moves: &[Move], method, optimal, nodes| Reply {
            solution: format_moves(&merge_quarter_pairs(moves)),
            length: metric.length(moves),
            metric: metric.name(),
            method,
            optimal,
            within_max_length: None,
            solutions: None,
            goal: None,
            nodes,
            elapsed_ms: started.elapsed().as_secs_f64() * 1e3,
        };
        let out_of_time = |what: &str| {
            if stop.cancelled() {
                stopping()
            } else {
                ApiError::deadline(format!(
                    "{what} within {} s{}",
                    limit.as_secs_f64(),
                    if own_timeout {
                        ""
                    } else {
                        " (the service's deadline)"
                    }
                ))
            }
        };
        let answer = match &job.mode {
            Mode::TwoPhase { max_length } => {
                let solver = &self.twophase[slot(metric)];
                let mut search = solver.search();
                let none_within = || {
                    format!(
                        "no solution of at most {max_length} {} exists",
                        metric.unit()
                    )
                };
                let not_found = || {
                    out_of_time(&format!(
                        "no solution of at most {max_length} {} found",
                        metric.unit()
                    ))
                };
                if own_timeout {
                    // The shortest found in the time given, said when above the cap.
                    let answer =
                        solver.solve(&mut search, cube, *max_length, Some(limit), Some(&cancel));
                    match answer.best {
                        Best::Within(moves) => reply(&moves, "two-phase", None, answer.nodes),
                        Best::Above { optimal: true, .. } => {
                            return Err(ApiError::no_answer(none_within()))
                        }
                        Best::Above { moves, .. } if !stop.cancelled() => Reply {
                            within_max_length: Some(false),
                            ..reply(&moves, "two-phase", None, answer.nodes)
                        },
                        Best::Above { .. } | Best::Nothing => return Err(not_found()),
                    }
                } else {
                    match solver.solve_first(&mut search, cube, *max_length, stop.clone()) {
                        (Outcome::Found(moves), nodes) => reply(&moves, "two-phase", None, nodes),
                        (Outcome::NoneWithin, _) => return Err(ApiError::no_answer(none_within())),
                        (Outcome::TimedOut, _) => return Err(not_found()),
                    }
                }
            }
            Mode::Optimal => {
                let solver = &self.optimal[slot(metric)];
                match solver.solve_until(cube, &stop, None) {
                    Ok(Some(solution)) => {
                        reply(&solution.moves, "optimal", Some(true), solution.nodes)
                    }
                    Ok(None) => return Err(out_of_time("no optimal solution found")),
                    Err(e) => return Err(ApiError::internal(e.to_string())),
                }
            }
            Mode::Listing { moves, limit, all } => {
                let finder = self.finder(metric, moves.clone(), !*all && *limit == 1)?;
                let asked = if *all { MAX_SOLUTIONS + 1 } else { *limit };
                let listing = match finder.find_until(cube, asked, *all, &stop) {
                    Ok(Some(listing)) => listing,
                    Ok(None) => return Err(out_of_time("the listing was not complete")),
                    Err(e @ NotInGroup::Outside(_)) => {
                        return Err(ApiError::no_answer(e.to_string()))
                    }
                    Err(e) => return Err(ApiError::internal(e.to_string())),
                };
                if listing.solutions.len() > MAX_SOLUTIONS {
                    return Err(ApiError::too_large(format!(
                        "more than {MAX_SOLUTIONS} optimal solutions: ask for a count instead"
                    )));
                }
                let first = listing.solutions.first().cloned().unwrap_or_default();
                Reply {
                    length: listing.optimal,
                    solutions: Some(
                        listing
                            .solutions
                            .iter()
                            .map(|s| format_moves(&merge_quarter_pairs(s)))
                            .collect(),
                    ),
                    ..reply(&first, "listing", Some(true), listing.nodes)
                }
            }
            Mode::Goal {
                name,
                spec,
                limit,
                all,
            } => {
                let solver = self.goal(name, spec, metric)?;
                let (lengths, limit) = match (*all, *limit) {
                    (true, _) => (0, MAX_SOLUTIONS + 1),
                    (false, 1) => (0, 1),
                    (false, n) => (COUNT_EXTRA_LENGTH, n),
                };
                let answers = match solver.solve(cube, false, lengths, limit) {
                    Ok(answers) => answers,
                    Err(e @ GoalUnreachable::NoPosition(_)) => {
                        return Err(ApiError::no_answer(e.to_string()))
                    }
                    Err(e) => return Err(ApiError::internal(e.to_string())),
                };
                let Some(answer) = answers.into_iter().next() else {
                    return Err(ApiError::internal("internal error: no goal answer"));
                };
                if answer.solutions.len() > MAX_SOLUTIONS {
                    return Err(ApiError::too_large(format!(
                        "more than {MAX_SOLUTIONS} optimal solutions: ask for a count instead"
                    )));
                }
                let first = answer.solutions.first().cloned().unwrap_or_default();
                Reply {
                    length: answer.optimal,
                    goal: Some(solver.name()),
                    solutions: Some(
                        answer
                            .solutions
                            .iter()
                            .map(|s| format_moves(&merge_quarter_pairs(s)))
                            .collect(),
                    ),
                    ..reply(&first, "goal", Some(true), 0)
                }
            }
        };
        // The last check before an answer leaves: whole-cube solutions must solve it.
        if !matches!(job.mode, Mode::Goal { .. }) {
            let moves = cubedb::puzzles::rubik::parse_moves(&answer.solution).unwrap_or_default();
            if !cube.apply_all(&moves).is_solved() {
                return Err(ApiError::internal(
                    "internal error: the solution found does not solve the cube",
                ));
            }
        }
        Ok(answer)
    }

    /// The solution finder for a metric and move set (opened once).
    fn finder(
        &self,
        metric: Metric,
        moves: Option<Vec<Move>>,
        one_each: bool,
    ) -> Result<Arc<SolutionFinder>, ApiError> {
        let key = (metric, moves.clone(), one_each);
        let mut finders = self.finders.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(finder) = finders.get(&key) {
            return Ok(Arc::clone(finder));
        }
        let finder = SolutionFinder::open(
            &self.store,
            metric,
            moves,
            self.preset,
            one_each,
            &self.progress,
        )
        .map(Arc::new)
        .map_err(|e| ApiError::internal(e.to_string()))?;
        finders.insert(key, Arc::clone(&finder));
        Ok(finder)
    }

    /// The solver of a named goal (its table opened, or built, once).
    fn goal(
        &self,
        name: &str,
        spec: &GoalSpec,
        metric: Metric,
    ) -> Result<Arc<GoalSolver>, ApiError> {
        let key = (name.to_string(), metric);
        let mut goals = self.goals.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(solver) = goals.get(&key) {
            return Ok(Arc::clone(solver));
        }
        let solver = GoalSolver::open(&self.store, spec.clone(), metric, &self.progress)
            .map(Arc::new)
            .map_err(|e| ApiError::internal(e.to_string()))?;
        goals.insert(key, Arc::clone(&solver));
        Ok(solver)
    }
}

/// 503: the service is stopping.
fn stopping() -> ApiError {
    ApiError::busy("the service is shutting down", 1)
}

/// Runs `work` on `pool` and waits for it without blocking the HTTP threads. If the
/// waiting request is dropped (its client left), `cancel` is set, so the work stops.
async fn run_on<T: Send + 'static>(
    pool: &rayon::ThreadPool,
    cancel: Cancel,
    work: impl FnOnce(Cancel) -> T + Send + 'static,
) -> Result<T, ApiError> {
    /// Sets the flag when dropped before the work is done (then disarmed).
    struct CancelOnDrop(Option<Cancel>);
    impl Drop for CancelOnDrop {
        fn drop(&mut self) {
            if let Some(cancel) = self.0.take() {
                cancel.cancel();
            }
        }
    }
    let mut guard = CancelOnDrop(Some(cancel.clone()));
    let (tx, rx) = tokio::sync::oneshot::channel();
    pool.spawn(move || {
        let _ = tx.send(work(cancel));
    });
    let result = rx
        .await
        .map_err(|_| ApiError::internal("internal error: a solve stopped without an answer"));
    guard.0 = None;
    result
}
