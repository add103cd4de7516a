//! `solve`, `solve_many` and `scramble`: the library's Rubik solver faces, opened once per
//! process and metric, used without the GIL.

use crate::cube::{cube_arg, random_seed};
use crate::{cube_error, store, Cached, NoSolutionError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{OptimalSolver, TwoPhaseAnswer, TwoPhaseSolver};
use cubedb::puzzles::rubik::twophase::Best;
use cubedb::puzzles::rubik::{format_moves, Cube as CubieCube, Metric, Move, MAX_SOLUTION};
use cubedb::rng::SplitMix64;
use pyo3::exceptions::{PyTimeoutError, PyValueError};
use pyo3::prelude::*;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn metric_slot(metric: Metric) -> usize {
    match metric {
        Metric::Htm => 0,
        Metric::Qtm => 1,
    }
}

/// The two-phase solver of `metric` (built on first use).
fn twophase_solver(metric: Metric) -> PyResult<Arc<TwoPhaseSolver>> {
    static SOLVERS: [Cached<TwoPhaseSolver>; 2] = [Cached::new(), Cached::new()];
    SOLVERS[metric_slot(metric)].get(|| TwoPhaseSolver::open(&store(), metric, &Progress::hidden()))
}

/// The optimal solver of `metric`: the largest preset already built, else small.
fn optimal_solver(metric: Metric) -> PyResult<Arc<OptimalSolver>> {
    static SOLVERS: [Cached<OptimalSolver>; 2] = [Cached::new(), Cached::new()];
    SOLVERS[metric_slot(metric)]
        .get(|| OptimalSolver::open(&store(), metric, None, &Progress::hidden()))
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

/// The solver a request needs (opened, or built on first use, before the GIL is let go).
enum Solver {
    TwoPhase(Arc<TwoPhaseSolver>),
    Optimal(Arc<OptimalSolver>),
}

impl Request {
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

/// Optimal solving of one cube (without the GIL; the solver uses every core).
fn solve_optimal(
    request: Request,
    solver: &OptimalSolver,
    cube: &CubieCube,
) -> Result<Vec<Move>, Failure> {
    let deadline = request.timeout.map(|t| Instant::now() + t);
    match solver.solve_until(cube, deadline, None) {
        Some(solution) => checked(cube, solution.moves),
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
pub fn solve(
    py: Python<'_>,
    cube: &Bound<'_, PyAny>,
    max_length: Option<u32>,
    metric: &str,
    timeout: Option<f64>,
) -> PyResult<String> {
    let cube = cube_arg(cube)?;
    let request = request(metric, max_length, timeout)?;
    let solver = request.solver()?;
    let moves = py.detach(|| match &solver {
        Solver::TwoPhase(solver) => {
            let max = request.max_length.unwrap_or(MAX_SOLUTION);
            let answer = solver.solve(&mut solver.search(), &cube, max, request.timeout);
            request
                .two_phase_result(answer)
                .and_then(|m| checked(&cube, m))
        }
        Solver::Optimal(solver) => solve_optimal(request, solver, &cube),
    });
    moves.map(|m| format_moves(&m)).map_err(Failure::into_err)
}

/// Solves many cubes on every core, in order (see `solve`).
#[pyfunction]
#[pyo3(signature = (cubes, *, max_length = None, metric = "htm", timeout = None))]
pub fn solve_many(
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
    let solver = request.solver()?;
    let results: Vec<Result<Vec<Move>, Failure>> = py.detach(|| match &solver {
        Solver::TwoPhase(solver) => {
            let max = request.max_length.unwrap_or(MAX_SOLUTION);
            solver
                .solve_many(&parsed, max, request.timeout)
                .into_iter()
                .zip(&parsed)
                .map(|(answer, cube)| {
                    request
                        .two_phase_result(answer)
                        .and_then(|m| checked(cube, m))
                })
                .collect()
        }
        // The optimal solver already uses every core on each cube.
        Solver::Optimal(solver) => parsed
            .iter()
            .map(|cube| solve_optimal(request, solver, cube))
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
pub fn scramble(py: Python<'_>, count: Option<usize>, seed: Option<u64>) -> PyResult<Py<PyAny>> {
    let solver = twophase_solver(Metric::Htm)?;
    let mut rng = SplitMix64::new(seed.unwrap_or_else(random_seed));
    let positions: Vec<CubieCube> = (0..count.unwrap_or(1))
        .map(|_| CubieCube::random(&mut rng))
        .collect();
    let scrambles = py.detach(|| solver.scrambles(&positions));
    let scrambles: Vec<String> = scrambles
        .into_iter()
        .map(|s| {
            s.map(|m| format_moves(&m))
                .ok_or_else(|| PyValueError::new_err("internal error: no scramble found"))
        })
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
