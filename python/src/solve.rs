//! `solve`, `solve_many`, `scramble` and the `kociemba` drop-in: the library's Rubik solver
//! faces, opened once per process and metric, used without the GIL and interruptible by
//! Ctrl-C ([`crate::interrupt`]).

use crate::args::{optional_whole, timeout, whole};
use crate::cube::{cube_arg, random_seed};
use crate::{cube_error, interrupt, store, Cached, NoSolutionError};
use cubedb::limits::{Cancel, WholeRange};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{OptimalSolver, TwoPhaseAnswer, TwoPhaseSolver};
use cubedb::puzzles::rubik::model::facelets::parse_face_letters;
use cubedb::puzzles::rubik::twophase::Best;
use cubedb::puzzles::rubik::{format_moves, Cube as CubieCube, Metric, Move, MAX_SOLUTION};
use cubedb::rng::SplitMix64;
use pyo3::exceptions::{PyTimeoutError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn metric_slot(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

/// What the face-turn two-phase solver is answering with (for tests and status).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FullTables {
    /// Not asked for yet, or found on disk.
    Unknown,
    /// Being built on a background thread; the compact solver answers meanwhile.
    Building,
    /// The build failed (said once on stderr); the compact solver answers from now on.
    Failed,
}

static FULL_SOLVERS: [Cached<TwoPhaseSolver>; 2] = [Cached::new(), Cached::new()];
static FULL_TABLES: std::sync::Mutex<FullTables> = std::sync::Mutex::new(FullTables::Unknown);

/// Notes from the library (a long build starting, and how long it took) on Python's
/// `sys.stderr`, so they go wherever the program sends its errors (a notebook's cell).
pub(crate) fn python_notes() -> Progress {
    Progress::notes_to(|message| {
        // A background build may end while the interpreter shuts down: then say nothing.
        Python::try_attach(|py| {
            let line = format!("cubedb: {message}\n");
            if let Ok(stderr) = py.import("sys").and_then(|sys| sys.getattr("stderr")) {
                let _ = stderr.call_method1("write", (line,));
                let _ = stderr.call_method0("flush");
            }
        });
    })
}

/// The two-phase solver of `metric`. Its table files (about 100 MB, seconds to build)
/// are opened if present. If not: in face turns, the compact solver (tables built in
/// memory in about 0.1 s) answers at once while a background thread builds the files,
/// which later calls then use; in quarter turns the files are built now. Each build
/// says so once on stderr.
fn twophase_solver(metric: Metric) -> PyResult<Arc<TwoPhaseSolver>> {
    let full = &FULL_SOLVERS[metric_slot(metric)];
    if let Some(solver) = full.peek() {
        return Ok(solver);
    }
    let store = store();
    if metric == Metric::Qtm || TwoPhaseSolver::present(&store, metric) {
        return full.get(|| TwoPhaseSolver::open(&store, metric, &python_notes()));
    }
    let mut state = FULL_TABLES.lock().unwrap_or_else(|p| p.into_inner());
    if *state == FullTables::Unknown {
        *state = FullTables::Building;
        let notes = python_notes();
        notes.note(
            "the two-phase tables are missing: answering from small tables built in memory \
             (slower) until they are built, in the background",
        );
        std::thread::spawn(move || {
            let built = in_background(|| TwoPhaseSolver::open(&store, Metric::Htm, &notes));
            let mut state = FULL_TABLES.lock().unwrap_or_else(|p| p.into_inner());
            match built {
                Ok(solver) => {
                    FULL_SOLVERS[metric_slot(Metric::Htm)].set(solver);
                    *state = FullTables::Unknown;
                }
                Err(e) => {
                    notes.note(format!(
                        "the two-phase tables could not be built ({e}); answers keep \
                         coming from the small tables"
                    ));
                    *state = FullTables::Failed;
                }
            }
        });
    }
    drop(state);
    static COMPACT: std::sync::OnceLock<Arc<TwoPhaseSolver>> = std::sync::OnceLock::new();
    Ok(Arc::clone(
        COMPACT.get_or_init(|| Arc::new(TwoPhaseSolver::compact())),
    ))
}

/// Runs `work` (a table build) at the lowest priority, on threads of its own: the calls
/// answered meanwhile (on the library's usual threads, at normal priority) get the
/// processors whenever they want them, rather than waiting behind the build's share of
/// them or, worse, behind its tasks in a shared thread pool.
fn in_background<T>(work: impl FnOnce() -> T + Send) -> T
where
    T: Send,
{
    cubedb::machine::yield_to_others();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(cubedb::threads())
        .thread_name(|i| format!("cubedb-build-{i}"))
        .start_handler(|_| cubedb::machine::yield_to_others())
        .build();
    match pool {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// Which tables face-turn two-phase answers come from now: "full"; "building" (the
/// compact ones, while the full ones are built in the background); "compact" (the full
/// ones could not be built); or "none" before the first call.
#[pyfunction]
pub fn _twophase_tables() -> &'static str {
    if FULL_SOLVERS[metric_slot(Metric::Htm)].peek().is_some() {
        return "full";
    }
    match *FULL_TABLES.lock().unwrap_or_else(|p| p.into_inner()) {
        FullTables::Unknown => "none",
        FullTables::Building => "building",
        FullTables::Failed => "compact",
    }
}

/// The optimal solver of `metric`: the near table now, and the fastest preset already
/// built (else 200m, built then) when a cube first needs it.
fn optimal_solver(metric: Metric) -> PyResult<Arc<OptimalSolver>> {
    static SOLVERS: [Cached<OptimalSolver>; 2] = [Cached::new(), Cached::new()];
    SOLVERS[metric_slot(metric)]
        .get(|| OptimalSolver::open(&store(), metric, None, &python_notes()))
}

fn parse_metric(metric: &str) -> PyResult<Metric> {
    cubedb::limits::choice(
        "metric",
        &[("htm", Metric::Htm), ("qtm", Metric::Qtm)],
        metric,
    )
    .map_err(|e| cube_error(e.to_string()))
}

/// What solving one cube needs, prepared with the GIL held.
#[derive(Clone, Copy)]
struct Request {
    metric: Metric,
    max_length: Option<u32>,
    timeout: Option<Duration>,
}

/// Why a cube got no answer.
enum Failure {
    None(String),
    Timeout(String),
    Table(cubedb::table::TableError),
}

impl Failure {
    /// The same failure, its message naming cube `number` of a batch.
    fn for_cube(self, number: usize) -> Self {
        match self {
            Failure::None(m) => Failure::None(format!("cube {number}: {m}")),
            Failure::Timeout(m) => Failure::Timeout(format!("cube {number}: {m}")),
            table => table,
        }
    }

    fn into_err(self) -> PyErr {
        match self {
            Failure::None(message) => NoSolutionError::new_err(message),
            Failure::Timeout(message) => PyTimeoutError::new_err(message),
            Failure::Table(e) => crate::table_error(e),
        }
    }
}

/// The solver a request needs (opened, or built on first use, before the GIL is let go).
enum Solver {
    TwoPhase(Arc<TwoPhaseSolver>),
    Optimal(Arc<OptimalSolver>),
}

impl Request {
    fn new(
        metric: &str,
        max_length: Option<&Bound<'_, PyAny>>,
        timeout_arg: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        Ok(Request {
            metric: parse_metric(metric)?,
            max_length: optional_whole("max_length", WholeRange::MAX_LENGTH, max_length)?
                .map(|n| n as u32),
            timeout: timeout(timeout_arg)?,
        })
    }

    fn solver(&self) -> PyResult<Solver> {
        Ok(match self.max_length {
            Some(_) => Solver::TwoPhase(twophase_solver(self.metric)?),
            None => Solver::Optimal(optimal_solver(self.metric)?),
        })
    }

    fn none_within(&self, max: u32) -> Failure {
        Failure::None(format!(
            "no solution of at most {max} {} exists",
            self.metric.unit()
        ))
    }

    /// The Python answer to a two-phase answer.
    fn two_phase_result(&self, answer: TwoPhaseAnswer) -> Result<Vec<Move>, Failure> {
        let max = self.max_length.unwrap_or(MAX_SOLUTION);
        match (answer.best, self.timeout) {
            (Best::Within(moves), _) => Ok(moves),
            (Best::Above { optimal: true, .. }, _) | (Best::Nothing, None) => {
                Err(self.none_within(max))
            }
            (Best::Above { .. } | Best::Nothing, timeout) => Err(Failure::Timeout(format!(
                "no solution of at most {max} {} found within {} s",
                self.metric.unit(),
                timeout.unwrap_or_default().as_secs_f64()
            ))),
        }
    }

    /// Solves `cube` (without the GIL), stopping early if `cancel` is set.
    fn solve(
        &self,
        solver: &Solver,
        cube: &CubieCube,
        cancel: &Cancel,
    ) -> Result<Vec<Move>, Failure> {
        let moves = match solver {
            Solver::TwoPhase(solver) => {
                let max = self.max_length.unwrap_or(MAX_SOLUTION);
                let answer =
                    solver.solve(&mut solver.search(), cube, max, self.timeout, Some(cancel));
                self.two_phase_result(answer)?
            }
            Solver::Optimal(solver) => self.solve_optimal(solver, cube, cancel)?,
        };
        checked(cube, moves)
    }

    /// Optimal solving of one cube (the solver uses every core). The first cube that
    /// needs a search is looked at first: a solve foretold to be long is said once on
    /// stderr, with what would be faster.
    fn solve_optimal(
        &self,
        solver: &OptimalSolver,
        cube: &CubieCube,
        cancel: &Cancel,
    ) -> Result<Vec<Move>, Failure> {
        let started = Instant::now();
        if !FORETOLD.load(Ordering::Relaxed) {
            let outlook = solver.outlook(cube, None, LOOK).map_err(Failure::Table)?;
            if let Some(solution) = outlook.solved {
                return Ok(solution.moves);
            }
            if !FORETOLD.swap(true, Ordering::Relaxed) && outlook.seconds >= FORETELL_SECONDS {
                foretell(solver, &outlook);
            }
        }
        let deadline = cubedb::limits::deadline(started, self.timeout);
        let stop = cubedb::limits::Stop::at(deadline).or_cancel(Some(cancel.clone()));
        match solver.solve_until(cube, &stop, None) {
            Ok(Some(solution)) => Ok(solution.moves),
            Ok(None) => Err(Failure::Timeout(format!(
                "no optimal solution found within {} s",
                self.timeout.unwrap_or_default().as_secs_f64()
            ))),
            Err(e) => Err(Failure::Table(e)),
        }
    }
}

/// Whether an optimal solve has been looked at yet (once per process).
static FORETOLD: AtomicBool = AtomicBool::new(false);

/// How long the first optimal search is watched before its cost is foretold.
const LOOK: Duration = Duration::from_millis(300);

/// Optimal solves foretold to take longer than this are said on stderr.
const FORETELL_SECONDS: f64 = 10.0;

/// Says on stderr what a long optimal solve will cost and what would be faster (a faster
/// preset built into the data folder, or `max_length`).
fn foretell(solver: &OptimalSolver, outlook: &cubedb::puzzles::rubik::api::Outlook) {
    let metric = solver.metric();
    let current = solver.preset();
    let store = store();
    let mut text = format!(
        "this optimal solve will take {}",
        outlook.summary(metric, current.map_or("these", |p| p.name()))
    );
    let advice = OptimalSolver::advice(&store, metric, current, outlook.seconds);
    if let Some(offer) = advice.offers.first() {
        text.push_str(&format!(
            "; faster: {} (this machine has {}; build it with `cubedb-gen {} --metric {} \
             --data {}`)",
            offer.summary(),
            advice.room,
            offer.preset.group(),
            metric.name(),
            store.dir().display()
        ));
    }
    let quick = match metric {
        Metric::Htm => 20,
        Metric::Qtm => 26,
    };
    text.push_str(&format!(
        "; or max_length={quick} answers near-optimally in milliseconds"
    ));
    python_notes().note(text);
}

/// The last check before an answer leaves: it must solve the cube.
fn checked(cube: &CubieCube, moves: Vec<Move>) -> Result<Vec<Move>, Failure> {
    if cube.apply_all(&moves).is_solved() {
        Ok(moves)
    } else {
        Err(Failure::None(
            "internal error: the solution found does not solve the cube".into(),
        ))
    }
}

/// Solves a cube: optimal without `max_length`, else the first solution found of at most
/// `max_length` moves (two-phase).
#[pyfunction]
#[pyo3(signature = (cube, *, max_length = None, metric = "htm", timeout = None))]
pub fn solve(
    py: Python<'_>,
    cube: &Bound<'_, PyAny>,
    max_length: Option<&Bound<'_, PyAny>>,
    metric: &str,
    timeout: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let cube = cube_arg(cube)?;
    let request = Request::new(metric, max_length, timeout)?;
    let solver = request.solver()?;
    let moves = interrupt::run(py, move |cancel| request.solve(&solver, &cube, &cancel))?;
    moves.map(|m| format_moves(&m)).map_err(Failure::into_err)
}

/// Solves many cubes on every core, in order (see `solve`). With `errors="return"`, a cube
/// that fails gives its exception in its place instead of raising.
#[pyfunction]
#[pyo3(signature = (cubes, *, max_length = None, metric = "htm", timeout = None, errors = "raise"))]
pub fn solve_many(
    py: Python<'_>,
    cubes: &Bound<'_, PyAny>,
    max_length: Option<&Bound<'_, PyAny>>,
    metric: &str,
    timeout: Option<&Bound<'_, PyAny>>,
    errors: &str,
) -> PyResult<Vec<Py<PyAny>>> {
    let return_errors =
        cubedb::limits::choice("errors", &[("raise", false), ("return", true)], errors)
            .map_err(|e| cube_error(e.to_string()))?;
    if cubes.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(
            "cubes must be a list of cubes (facelet strings or Cubes), not a str",
        ));
    }
    // Bad cubes: raised at once, or kept as their exception in place.
    let mut parsed: Vec<Result<CubieCube, PyErr>> = Vec::new();
    for (i, item) in cubes.try_iter()?.enumerate() {
        let cube = cube_arg(&item?).map_err(|e| {
            let message = e.value(py).to_string();
            if e.is_instance_of::<PyTypeError>(py) {
                PyTypeError::new_err(format!("cube {}: {message}", i + 1))
            } else {
                cube_error(format!("cube {}: {message}", i + 1))
            }
        });
        match cube {
            Err(e) if !return_errors => return Err(e),
            cube => parsed.push(cube),
        }
    }
    let request = Request::new(metric, max_length, timeout)?;
    let solver = request.solver()?;
    let good: Vec<CubieCube> = parsed
        .iter()
        .filter_map(|c| c.as_ref().ok())
        .copied()
        .collect();
    let answers = interrupt::run(py, move |cancel| match &solver {
        Solver::TwoPhase(two_phase) => {
            let max = request.max_length.unwrap_or(MAX_SOLUTION);
            two_phase
                .solve_many(&good, max, request.timeout, Some(&cancel))
                .into_iter()
                .zip(&good)
                .map(|(answer, cube)| {
                    request
                        .two_phase_result(answer)
                        .and_then(|m| checked(cube, m))
                })
                .collect::<Vec<_>>()
        }
        // The optimal solver already uses every core on each cube.
        Solver::Optimal(_) => good
            .iter()
            .map(|cube| request.solve(&solver, cube, &cancel))
            .collect(),
    })?;
    let mut answers = answers.into_iter();
    let mut out = Vec::with_capacity(parsed.len());
    for (i, cube) in parsed.into_iter().enumerate() {
        let item = match cube {
            Err(e) => e.into_value(py).into_any(),
            Ok(_) => match answers.next() {
                Some(Ok(moves)) => PyString::new(py, &format_moves(&moves)).into_any().unbind(),
                Some(Err(failure)) => {
                    let err = failure.for_cube(i + 1).into_err();
                    if !return_errors {
                        return Err(err);
                    }
                    err.into_value(py).into_any()
                }
                None => {
                    return Err(PyValueError::new_err(
                        "internal error: an answer is missing",
                    ))
                }
            },
        };
        out.push(item);
    }
    Ok(out)
}

/// Random-state scrambles: each a uniformly random position as at most 21 face turns.
/// One string, or a list of `count`; reproducible with `seed`.
#[pyfunction]
#[pyo3(signature = (*, count = None, seed = None))]
pub fn scramble(
    py: Python<'_>,
    count: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
) -> PyResult<Py<PyAny>> {
    let count = optional_whole("count", WholeRange::COUNT, count)?;
    let seed = optional_whole("seed", WholeRange::SEED, seed)?;
    let solver = twophase_solver(Metric::Htm)?;
    let mut rng = SplitMix64::new(seed.unwrap_or_else(random_seed));
    let wanted = count.unwrap_or(1) as usize;
    // Without the GIL, a chunk at a time: Ctrl-C stops a long run between two chunks.
    let scrambles = interrupt::run(py, move |cancel| {
        let mut scrambles = Vec::with_capacity(wanted);
        while scrambles.len() < wanted && !cancel.is_cancelled() {
            let chunk = (wanted - scrambles.len()).min(SCRAMBLE_CHUNK);
            let positions: Vec<CubieCube> =
                (0..chunk).map(|_| CubieCube::random(&mut rng)).collect();
            for found in solver.scrambles(&positions) {
                scrambles.push(found.map(|m| format_moves(&m)));
            }
        }
        scrambles
    })?;
    let scrambles: Vec<String> = scrambles
        .into_iter()
        .map(|s| s.ok_or_else(|| PyValueError::new_err("internal error: no scramble found")))
        .collect::<PyResult<_>>()?;
    crate::one_or_list(py, count, scrambles)
}

/// Scrambles made between two looks for Ctrl-C (a few milliseconds of work per core).
const SCRAMBLE_CHUNK: usize = 64;

/// How many nodes the `kociemba` drop-in spends looking for a shorter solution once it
/// has one (the first is found however long it takes): small enough to stay far ahead of
/// the package it replaces, enough to be shorter on average than its answers (on its
/// 2,000 reference cubes: 300 nodes gave 20.37 moves, 500 gave 20.22 in 0.29 ms, 1,000
/// gave 20.06 in 0.38 ms; the package: 20.75 in 7.6 ms). Nodes, not time, so the answers
/// are the same on every machine and every run.
const KOCIEMBA_EFFORT: u64 = 500;

/// [`KOCIEMBA_EFFORT`] with the compact tables (before the full ones are built), whose
/// search starts under [`KOCIEMBA_COMPACT_FIRST_CAP`]: its first answer is then already
/// as short as the package's on average (20.72 moves on 400 random cubes), and 5,000
/// nodes more make it shorter (20.66, never over 21) at about half the package's time per
/// cube (8.0 ms median against 21-32 ms on a busy day).
const KOCIEMBA_COMPACT_EFFORT: u64 = 5_000;

/// The first cap the `kociemba` drop-in searches under (when `max_depth` allows): every
/// cube has a two-phase solution this short, found in tens of microseconds, so no answer
/// is longer, whatever the budget leaves for improving it.
const KOCIEMBA_FIRST_CAP: u32 = 22;

/// [`KOCIEMBA_FIRST_CAP`] with the compact tables: their search of six views finds a
/// solution within 21 in milliseconds (a one-view search took up to seconds), sooner than
/// a budget would shorten one within 22 as far.
const KOCIEMBA_COMPACT_FIRST_CAP: u32 = 21;

/// The `kociemba` package's `solve`: moves taking `cubestring` to `patternstring` (solved
/// if `None`), at most `max_depth` face turns, as short as a small time budget finds.
/// Both strings are face letters with every centre in place, as the package requires.
#[pyfunction]
pub fn kociemba_solve(
    py: Python<'_>,
    cubestring: &Bound<'_, PyAny>,
    patternstring: Option<&Bound<'_, PyAny>>,
    max_depth: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let letters = |name: &str, value: &Bound<'_, PyAny>| -> PyResult<CubieCube> {
        let text: String = value.extract().map_err(|_| {
            PyTypeError::new_err(format!(
                "{name} must be a str, not {}",
                value
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string())
            ))
        })?;
        parse_face_letters(text.trim()).map_err(|e| cube_error(format!("{name}: {e}")))
    };
    let mut cube = letters("cubestring", cubestring)?;
    if let Some(pattern) = patternstring.filter(|p| !p.is_none()) {
        // Moves s with cube.then(s) == pattern solve pattern^-1 . cube.
        cube = letters("patternstring", pattern)?.inverse().then(&cube);
    }
    let max_depth = whole("max_depth", WholeRange::MAX_LENGTH, max_depth)? as u32;
    let solver = twophase_solver(Metric::Htm)?;
    let answer = interrupt::run(py, move |cancel| {
        let (first_cap, effort) = if solver.is_compact() {
            (KOCIEMBA_COMPACT_FIRST_CAP, KOCIEMBA_COMPACT_EFFORT)
        } else {
            (KOCIEMBA_FIRST_CAP, KOCIEMBA_EFFORT)
        };
        let cap = max_depth.min(first_cap);
        let answer = solver.solve_short(&mut solver.search(), &cube, cap, effort, Some(&cancel));
        match answer.best {
            Best::Within(moves) => checked(&cube, moves),
            _ => Err(Failure::None(format!(
                "no solution of at most {max_depth} face turns exists"
            ))),
        }
    })?;
    answer.map(|m| format_moves(&m)).map_err(Failure::into_err)
}
