//! `cubedb._cubedb`: the Python extension over the cubedb library (PyO3, abi3).
//!
//! Every error becomes a Python exception: bad input is `CubeError` (a `ValueError`), a
//! limit below the optimum is `NoSolutionError` (a `ValueError`), a missing deadline is
//! `TimeoutError`, a damaged or unreadable table is `TableError` naming the file. Solving
//! releases the GIL. The pure-Python layer (`cubedb/__init__.py`) adds the docstrings'
//! examples and the `kociemba` compatibility module.

use cubedb::judge::JudgeError;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::solver::MAX_SOLUTION;
use cubedb::puzzles::rubik::twophase::{
    self, solve_by_deadline, Best, Outcome, TwoPhaseSearch, TwoPhaseTables,
};
use cubedb::puzzles::rubik::{
    facelet_string, format_moves, parse_facelets, parse_moves, Cube as CubieCube, KorfSolver,
    Metric, NearTable, Pdbs, Preset,
};
use cubedb::puzzles::{
    rolling as rolling_puzzle, rotation as rotation_puzzle, soma as soma_puzzle,
    walk as walk_puzzle,
};
use cubedb::rng::SplitMix64;
use cubedb::table::{TableError as LibTableError, TableStore};
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pyo3::create_exception!(
    _cubedb,
    CubeError,
    PyValueError,
    "Input that is not a valid cube or puzzle case; the message names the rule it breaks."
);
pyo3::create_exception!(
    _cubedb,
    NoSolutionError,
    PyValueError,
    "No solution within the given max_length exists."
);
pyo3::create_exception!(
    _cubedb,
    TableError,
    pyo3::exceptions::PyRuntimeError,
    "A table file is damaged, of another format, or cannot be read or written (named in the message)."
);

fn table_error(e: LibTableError) -> PyErr {
    TableError::new_err(e.to_string())
}

fn cube_error(message: impl Into<String>) -> PyErr {
    CubeError::new_err(message.into())
}

/// The folder of table files: `$CUBEDB_DATA`, else the user's cache folder (`cubedb`
/// inside it, e.g. `~/.cache/cubedb`), else `./data`.
fn data_dir() -> PathBuf {
    std::env::var_os("CUBEDB_DATA")
        .map(PathBuf::from)
        .or_else(|| dirs::cache_dir().map(|d| d.join("cubedb")))
        .unwrap_or_else(|| PathBuf::from("data"))
}

fn store() -> TableStore {
    TableStore::new(data_dir())
}

/// A value loaded once per process (per metric), retried after a failure.
struct Cached<T>(Mutex<Option<Arc<T>>>);

impl<T> Cached<T> {
    const fn new() -> Self {
        Self(Mutex::new(None))
    }

    fn get(&self, load: impl FnOnce() -> Result<T, LibTableError>) -> PyResult<Arc<T>> {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(value) = slot.as_ref() {
            return Ok(Arc::clone(value));
        }
        let value = Arc::new(load().map_err(table_error)?);
        *slot = Some(Arc::clone(&value));
        Ok(value)
    }
}

fn metric_slot(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

fn twophase_tables(metric: Metric) -> PyResult<Arc<TwoPhaseTables>> {
    static TABLES: [Cached<TwoPhaseTables>; 2] = [Cached::new(), Cached::new()];
    TABLES[metric_slot(metric)]
        .get(|| TwoPhaseTables::load_or_build(&store(), metric, &Progress::hidden()))
}

/// Tables of the optimal solver: the near table and a pattern-database preset.
struct Optimal {
    near: NearTable,
    pdbs: Pdbs,
}

fn optimal_tables(metric: Metric) -> PyResult<Arc<Optimal>> {
    static TABLES: [Cached<Optimal>; 2] = [Cached::new(), Cached::new()];
    TABLES[metric_slot(metric)].get(|| {
        let store = store();
        let progress = Progress::hidden();
        let near = NearTable::load_or_build(&store, &progress)?;
        let preset = Preset::largest_present(&store, metric);
        let pdbs = Pdbs::load_or_build(&store, preset, metric, &progress)?;
        Ok(Optimal { near, pdbs })
    })
}

fn parse_metric(metric: &str) -> PyResult<Metric> {
    match metric {
        "htm" => Ok(Metric::Htm),
        "qtm" => Ok(Metric::Qtm),
        other => Err(PyValueError::new_err(format!(
            "metric must be \"htm\" or \"qtm\", not {other:?}"
        ))),
    }
}

fn parse_timeout(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => Err(PyValueError::new_err(format!(
            "timeout must be a number of seconds (0 or more), not {t}"
        ))),
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

/// A Rubik's cube position (immutable).
#[pyclass(module = "cubedb", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
struct Cube {
    cube: CubieCube,
}

fn cube_from_facelets(text: &str) -> PyResult<CubieCube> {
    parse_facelets(text.trim()).map_err(|e| cube_error(format!("facelets: {e}")))
}

fn moves_of(text: &str) -> PyResult<Vec<cubedb::puzzles::rubik::Move>> {
    parse_moves(text).map_err(|e| cube_error(e.to_string()))
}

#[pymethods]
impl Cube {
    /// A cube from a 54-letter facelet string (faces U R F D L B, any six colours), or the
    /// solved cube.
    #[new]
    #[pyo3(signature = (facelets = None))]
    fn new(facelets: Option<&str>) -> PyResult<Self> {
        Ok(Self {
            cube: match facelets {
                Some(text) => cube_from_facelets(text)?,
                None => CubieCube::SOLVED,
            },
        })
    }

    /// The cube described by a facelet string.
    #[staticmethod]
    fn from_facelets(facelets: &str) -> PyResult<Self> {
        Ok(Self {
            cube: cube_from_facelets(facelets)?,
        })
    }

    /// The solved cube scrambled by `moves` (Singmaster notation, e.g. "R U R' U2").
    #[staticmethod]
    fn from_moves(moves: &str) -> PyResult<Self> {
        Ok(Self {
            cube: CubieCube::from_moves(&moves_of(moves)?),
        })
    }

    /// A uniformly random position (reproducible with `seed`).
    #[staticmethod]
    #[pyo3(signature = (*, seed = None))]
    fn random(seed: Option<u64>) -> Self {
        let mut rng = SplitMix64::new(seed.unwrap_or_else(random_seed));
        Self {
            cube: CubieCube::random(&mut rng),
        }
    }

    /// This cube after `moves`.
    fn apply(&self, moves: &str) -> PyResult<Self> {
        Ok(Self {
            cube: self.cube.apply_all(&moves_of(moves)?),
        })
    }

    /// The 54-letter facelet string (URFDLB, face letters as colours).
    #[getter]
    fn facelets(&self) -> String {
        facelet_string(&self.cube)
    }

    /// Whether the cube is solved.
    fn is_solved(&self) -> bool {
        self.cube.is_solved()
    }

    /// The position reached by doing this cube's moves, then `other`'s, from solved.
    fn then(&self, other: &Cube) -> Self {
        Self {
            cube: self.cube.then(&other.cube),
        }
    }

    /// The position that undoes this one.
    fn inverse(&self) -> Self {
        Self {
            cube: self.cube.inverse(),
        }
    }

    fn __repr__(&self) -> String {
        format!("Cube('{}')", facelet_string(&self.cube))
    }

    fn __str__(&self) -> String {
        facelet_string(&self.cube)
    }
}

/// A seed from the operating system's randomness.
fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// A cube argument: a `Cube` or a facelet string.
fn cube_arg(cube: &Bound<'_, PyAny>) -> PyResult<CubieCube> {
    if let Ok(c) = cube.cast::<Cube>() {
        return Ok(c.get().cube);
    }
    if cube.is_instance_of::<PyString>() {
        return cube_from_facelets(&cube.extract::<String>()?);
    }
    Err(pyo3::exceptions::PyTypeError::new_err(format!(
        "cube must be a 54-letter facelet string or a Cube, not {}",
        cube.get_type().name()?
    )))
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
}

impl Failure {
    /// The same failure, its message naming cube `number` of a batch.
    fn for_cube(self, number: usize) -> Self {
        match self {
            Failure::None(m) => Failure::None(format!("cube {number}: {m}")),
            Failure::Timeout(m) => Failure::Timeout(format!("cube {number}: {m}")),
        }
    }

    fn into_err(self) -> PyErr {
        match self {
            Failure::None(message) => NoSolutionError::new_err(message),
            Failure::Timeout(message) => PyTimeoutError::new_err(message),
        }
    }
}

/// The tables a request needs (loaded, or built on first use, before the GIL is let go).
enum Tables {
    TwoPhase(Arc<TwoPhaseTables>),
    Optimal(Arc<Optimal>),
}

impl Request {
    fn tables(&self) -> PyResult<Tables> {
        Ok(match self.max_length {
            Some(_) => Tables::TwoPhase(twophase_tables(self.metric)?),
            None => Tables::Optimal(optimal_tables(self.metric)?),
        })
    }

    fn none_within(&self, max: u32) -> Failure {
        Failure::None(format!(
            "no solution of at most {max} {} exists",
            self.metric.unit()
        ))
    }
}

type Moves = Vec<cubedb::puzzles::rubik::Move>;

/// The last check before an answer leaves: it must solve the cube.
fn checked(cube: &CubieCube, moves: Moves) -> Result<Moves, Failure> {
    if cube.apply_all(&moves).is_solved() {
        Ok(moves)
    } else {
        Err(Failure::None(
            "internal error: the solution found does not solve the cube".into(),
        ))
    }
}

/// Two-phase solving of one cube (without the GIL).
fn solve_two_phase(
    request: Request,
    search: &mut TwoPhaseSearch<'_>,
    cube: &CubieCube,
) -> Result<Moves, Failure> {
    let max = request.max_length.unwrap_or(MAX_SOLUTION);
    let moves = match request.timeout {
        Some(limit) => match solve_by_deadline(search, cube, max, Instant::now() + limit) {
            Best::Within(moves) => moves,
            Best::Above { optimal: true, .. } => return Err(request.none_within(max)),
            Best::Above { .. } | Best::Nothing => {
                return Err(Failure::Timeout(format!(
                    "no solution of at most {max} {} found within {} s",
                    request.metric.unit(),
                    limit.as_secs_f64()
                )))
            }
        },
        None => match search.solve(cube, max, None) {
            Outcome::Found(moves) => moves,
            Outcome::NoneWithin | Outcome::TimedOut => return Err(request.none_within(max)),
        },
    };
    checked(cube, moves)
}

/// Optimal solving of one cube (without the GIL; the solver uses every core).
fn solve_optimal(request: Request, optimal: &Optimal, cube: &CubieCube) -> Result<Moves, Failure> {
    let solver = KorfSolver::new(&optimal.pdbs, Some(&optimal.near));
    let deadline = request.timeout.map(|t| Instant::now() + t);
    match solver.solve_until(cube, MAX_SOLUTION, deadline) {
        Some(solved) => checked(cube, solved.moves.unwrap_or_default()),
        None => Err(Failure::Timeout(format!(
            "no optimal solution found within {} s",
            request.timeout.unwrap_or_default().as_secs_f64()
        ))),
    }
}

fn request(metric: &str, max_length: Option<u32>, timeout: Option<f64>) -> PyResult<Request> {
    Ok(Request {
        metric: parse_metric(metric)?,
        max_length,
        timeout: parse_timeout(timeout)?,
    })
}

/// Solves a cube: optimal without `max_length`, else the first solution found of at most
/// `max_length` moves (two-phase).
#[pyfunction]
#[pyo3(signature = (cube, *, max_length = None, metric = "htm", timeout = None))]
fn solve(
    py: Python<'_>,
    cube: &Bound<'_, PyAny>,
    max_length: Option<u32>,
    metric: &str,
    timeout: Option<f64>,
) -> PyResult<String> {
    let cube = cube_arg(cube)?;
    let request = request(metric, max_length, timeout)?;
    let tables = request.tables()?;
    let moves = py.detach(|| match &tables {
        Tables::TwoPhase(t) => solve_two_phase(request, &mut TwoPhaseSearch::new(t), &cube),
        Tables::Optimal(optimal) => solve_optimal(request, optimal, &cube),
    });
    moves.map(|m| format_moves(&m)).map_err(Failure::into_err)
}

/// Solves many cubes on every core, in order (see `solve`).
#[pyfunction]
#[pyo3(signature = (cubes, *, max_length = None, metric = "htm", timeout = None))]
fn solve_many(
    py: Python<'_>,
    cubes: &Bound<'_, PyAny>,
    max_length: Option<u32>,
    metric: &str,
    timeout: Option<f64>,
) -> PyResult<Vec<String>> {
    let mut parsed = Vec::new();
    for (i, item) in cubes.try_iter()?.enumerate() {
        parsed.push(cube_arg(&item?).map_err(|e| {
            let message = e.value(py).to_string();
            if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) {
                pyo3::exceptions::PyTypeError::new_err(format!("cube {}: {message}", i + 1))
            } else {
                cube_error(format!("cube {}: {message}", i + 1))
            }
        })?);
    }
    let request = request(metric, max_length, timeout)?;
    let tables = request.tables()?;
    let results: Vec<Result<Moves, Failure>> = py.detach(|| match &tables {
        Tables::TwoPhase(t) => parsed
            .par_iter()
            .map_init(
                || TwoPhaseSearch::new(t),
                |search, cube| solve_two_phase(request, search, cube),
            )
            .collect(),
        // The optimal solver already uses every core on each cube.
        Tables::Optimal(optimal) => parsed
            .iter()
            .map(|cube| solve_optimal(request, optimal, cube))
            .collect(),
    });
    results
        .into_iter()
        .enumerate()
        .map(|(i, r)| {
            r.map(|m| format_moves(&m))
                .map_err(|f| f.for_cube(i + 1).into_err())
        })
        .collect()
}

/// Random-state scrambles: each a uniformly random position as at most 21 face turns.
/// One string, or a list of `count`; reproducible with `seed`.
#[pyfunction]
#[pyo3(signature = (*, count = None, seed = None))]
fn scramble(py: Python<'_>, count: Option<usize>, seed: Option<u64>) -> PyResult<Py<PyAny>> {
    let tables = twophase_tables(Metric::Htm)?;
    let mut rng = SplitMix64::new(seed.unwrap_or_else(random_seed));
    let positions: Vec<CubieCube> = (0..count.unwrap_or(1))
        .map(|_| CubieCube::random(&mut rng))
        .collect();
    let scrambles: Vec<Option<String>> = py.detach(|| {
        positions
            .par_iter()
            .map_init(
                || TwoPhaseSearch::new(&tables),
                |search, cube| twophase::scramble(search, cube).map(|m| format_moves(&m)),
            )
            .collect()
    });
    let scrambles: Vec<String> = scrambles
        .into_iter()
        .map(|s| s.ok_or_else(|| PyValueError::new_err("internal error: no scramble found")))
        .collect::<PyResult<_>>()?;
    Ok(match count {
        None => scrambles
            .into_iter()
            .next()
            .unwrap_or_default()
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        Some(_) => scrambles.into_pyobject(py)?.into_any().unbind(),
    })
}

/// A judge error as a Python exception (bad input) with the library's wording.
fn judge_error(e: JudgeError) -> PyErr {
    match e {
        JudgeError::Input(e) | JudgeError::Unanswerable(e) => cube_error(e.problem),
        other => PyValueError::new_err(other.to_string()),
    }
}

/// Runs a judge-format answerer over `text` and returns its output.
fn judge_output(
    answer: impl FnOnce(&[u8], &mut Vec<u8>) -> Result<usize, JudgeError>,
    text: &str,
) -> PyResult<String> {
    let mut out = Vec::new();
    answer(text.as_bytes(), &mut out).map_err(judge_error)?;
    String::from_utf8(out).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// Cubic eight-puzzle (POJ 3131): fewest rolls from the standard start with the empty cell
/// at (column, row) `empty` (1..3 each) to the top colours `goal` (9 letters W R B E, rows
/// top to bottom; spaces ignored); -1 if more than 30.
#[pyfunction]
fn rolling(py: Python<'_>, empty: (u32, u32), goal: &str) -> PyResult<i64> {
    let letters: Vec<char> = goal.chars().filter(|c| !c.is_whitespace()).collect();
    if letters.len() != 9 {
        return Err(cube_error(format!(
            "goal must have 9 cells (W, R, B or E), not {}",
            letters.len()
        )));
    }
    let rows: Vec<String> = letters
        .chunks(3)
        .map(|row| {
            row.iter()
                .map(char::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let text = format!("{} {}\n{}\n0 0\n", empty.0, empty.1, rows.join("\n"));
    let tables = rolling_tables()?;
    let output = py.detach(|| {
        let solver = rolling_puzzle::Solver::Table(rolling_puzzle::TableSolver::new(&tables));
        judge_output(
            |i, o| rolling_puzzle::answer_judge_input(i, &solver, false, o),
            &text,
        )
    })?;
    output
        .trim()
        .parse()
        .map_err(|_| PyValueError::new_err(format!("internal error: answer {output:?}")))
}

fn rolling_tables() -> PyResult<Arc<rolling_puzzle::RollingTables>> {
    static TABLES: Cached<rolling_puzzle::RollingTables> = Cached::new();
    TABLES.get(|| rolling_puzzle::RollingTables::load_or_build(&store(), &Progress::hidden()))
}

/// The rotation game (POJ 2286): the shortest (then lexicographically smallest) move
/// letters filling the centre with one digit, and that digit, for the 24 cells `board`.
#[pyfunction]
fn rotation(py: Python<'_>, board: Vec<i64>) -> PyResult<(String, u8)> {
    let text = format!(
        "{}\n0\n",
        board
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    static TABLE: Cached<rotation_puzzle::RotationTable> = Cached::new();
    let table = TABLE
        .get(|| rotation_puzzle::RotationTable::load_or_build(&store(), &Progress::hidden()))?;
    let output = py.detach(|| {
        let solver = rotation_puzzle::Solver::Table(rotation_puzzle::TableSolver::new(&table));
        judge_output(
            |i, o| rotation_puzzle::answer_judge_input(i, &solver, o),
            &text,
        )
    })?;
    let mut lines = output.lines();
    let moves = match lines.next() {
        Some("No moves needed") => String::new(),
        Some(moves) => moves.to_string(),
        None => return Err(PyValueError::new_err("internal error: no answer")),
    };
    let digit = lines
        .next()
        .and_then(|d| d.trim().parse().ok())
        .ok_or_else(|| PyValueError::new_err("internal error: no digit"))?;
    Ok((moves, digit))
}

/// Soma cube (UVa 197): every assembly (27 letters naming the piece in each cell) with
/// piece a placed as in `piece_a` (27 characters, `a` or `.`), sorted.
#[pyfunction]
fn soma(py: Python<'_>, piece_a: &str) -> PyResult<Vec<String>> {
    if piece_a.contains('\n') {
        return Err(cube_error("piece_a must be one line of 27 characters"));
    }
    let text = format!("{piece_a}\n");
    static TABLES: Cached<soma_puzzle::SomaTables> = Cached::new();
    let tables =
        TABLES.get(|| soma_puzzle::SomaTables::load_or_build(&store(), &Progress::hidden()))?;
    let output = py.detach(|| {
        let solver = soma_puzzle::Solver::Table(soma_puzzle::TableSolver::new(&tables));
        judge_output(|i, o| soma_puzzle::answer_judge_input(i, &solver, o), &text)
    })?;
    Ok(output
        .lines()
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect())
}

/// Cube on the walk (Timus 1016): the cheapest route of a die rolled on a chessboard from
/// `start` to `end` (squares like "e2"), with `faces` the numbers on its near, far, top,
/// right, bottom and left faces. Returns the cost and the squares of the route.
#[pyfunction]
fn walk(py: Python<'_>, start: &str, end: &str, faces: Vec<i64>) -> PyResult<(u64, Vec<String>)> {
    if [start, end].iter().any(|s| s.contains(char::is_whitespace)) {
        return Err(cube_error(
            "a square is a column letter and a row number, like e2",
        ));
    }
    let text = format!(
        "{start} {end} {}\n",
        faces
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    );
    let output = py.detach(|| {
        let board = walk_puzzle::Board::open(walk_puzzle::BoardSize::CHESS);
        judge_output(|i, o| walk_puzzle::answer_judge_input(i, &board, o), &text)
    })?;
    let mut parts = output.split_whitespace();
    let cost = parts
        .next()
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| PyValueError::new_err("internal error: no cost"))?;
    Ok((cost, parts.map(String::from).collect()))
}

/// The folder where tables are looked for and built.
#[pyfunction]
fn data_directory() -> String {
    data_dir().display().to_string()
}

/// The extension module.
#[pymodule]
fn _cubedb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Cube>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(scramble, m)?)?;
    m.add_function(wrap_pyfunction!(rolling, m)?)?;
    m.add_function(wrap_pyfunction!(rotation, m)?)?;
    m.add_function(wrap_pyfunction!(soma, m)?)?;
    m.add_function(wrap_pyfunction!(walk, m)?)?;
    m.add_function(wrap_pyfunction!(data_directory, m)?)?;
    m.add("CubeError", m.py().get_type::<CubeError>())?;
    m.add("NoSolutionError", m.py().get_type::<NoSolutionError>())?;
    m.add("TableError", m.py().get_type::<TableError>())?;
    Ok(())
}
