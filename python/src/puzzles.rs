//! The judge puzzles from Python: each takes the judge's data as Python values, runs the
//! judge-format answerer over it (the CLI's rules and wording) and returns the answer.

use crate::{cube_error, store, Cached};
use cubedb::judge::JudgeError;
use cubedb::progress::Progress;
use cubedb::puzzles::{
    rolling as rolling_puzzle, rotation as rotation_puzzle, soma as soma_puzzle,
    walk as walk_puzzle,
};
use cubedb::table::TableFamily;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::sync::Arc;

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
pub fn rolling(py: Python<'_>, empty: (u32, u32), goal: &str) -> PyResult<i64> {
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
        let options = rolling_puzzle::Options {
            limit: rolling_puzzle::JUDGE_LIMIT,
            with_path: false,
        };
        let solver = rolling_puzzle::TableSolver::new(&tables, options);
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
    TABLES.get(|| rolling_puzzle::RollingTables::load_or_build(&store(), (), &Progress::hidden()))
}

/// The rotation game (POJ 2286): the shortest (then lexicographically smallest) move
/// letters filling the centre with one digit, and that digit, for the 24 cells `board`.
#[pyfunction]
pub fn rotation(py: Python<'_>, board: Vec<i64>) -> PyResult<(String, u8)> {
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
        .get(|| rotation_puzzle::RotationTable::load_or_build(&store(), (), &Progress::hidden()))?;
    let output = py.detach(|| {
        let solver = rotation_puzzle::TableSolver::new(&table);
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
pub fn soma(py: Python<'_>, piece_a: &str) -> PyResult<Vec<String>> {
    if piece_a.contains('\n') {
        return Err(cube_error("piece_a must be one line of 27 characters"));
    }
    let text = format!("{piece_a}\n");
    static TABLES: Cached<soma_puzzle::SomaTables> = Cached::new();
    let tables =
        TABLES.get(|| soma_puzzle::SomaTables::load_or_build(&store(), (), &Progress::hidden()))?;
    let output = py.detach(|| {
        let solver = soma_puzzle::TableSolver::new(&tables);
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
pub fn walk(
    py: Python<'_>,
    start: &str,
    end: &str,
    faces: Vec<i64>,
) -> PyResult<(u64, Vec<String>)> {
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
