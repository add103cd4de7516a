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
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};
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
pub fn rolling(py: Python<'_>, empty: &Bound<'_, PyAny>, goal: &str) -> PyResult<i64> {
    let (column, row): (Bound<'_, PyAny>, Bound<'_, PyAny>) = empty
        .extract()
        .map_err(|_| PyTypeError::new_err("empty must be a (column, row) pair of ints"))?;
    // As judge input text, so that any int (negative, huge) gets the judge's wording.
    let column = int_text("empty column", &column)?;
    let row = int_text("empty row", &row)?;
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
    let text = format!("{column} {row}\n{}\n0 0\n", rows.join("\n"));
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
    TABLES.get(|| {
        rolling_puzzle::RollingTables::load_or_build(
            &store(),
            rolling_puzzle::RollingUse::Answers,
            &Progress::hidden(),
        )
    })
}

/// The rotation game (POJ 2286): the shortest (then lexicographically smallest) move
/// letters filling the centre with one digit, and that digit, for the 24 cells `board`.
#[pyfunction]
pub fn rotation(py: Python<'_>, board: &Bound<'_, PyAny>) -> PyResult<(String, u8)> {
    let cells: Vec<Bound<'_, PyAny>> = board.try_iter()?.collect::<PyResult<_>>()?;
    if cells.len() != 24 {
        return Err(cube_error(format!(
            "board: expected 24 digits, found {}",
            cells.len()
        )));
    }
    let digits = cells
        .iter()
        .enumerate()
        .map(|(i, cell)| int_text(&format!("board cell {i}"), cell))
        .collect::<PyResult<Vec<_>>>()?;
    let text = format!("{}\n0\n", digits.join(" "));
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

/// What each of the six numbers of `walk`'s `faces` is, in order (as the judge names them).
const FACE_NAMES: [&str; 6] = ["near", "far", "top", "right", "bottom", "left"];

/// The decimal text of an int (any size), for judge input; a `TypeError` for anything else.
fn int_text(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    Ok(value.str()?.to_string())
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
    faces: &Bound<'_, PyAny>,
) -> PyResult<(u64, Vec<String>)> {
    if [start, end].iter().any(|s| s.contains(char::is_whitespace)) {
        return Err(cube_error(
            "a square is a column letter and a row number, like e2",
        ));
    }
    let faces: Vec<Bound<'_, PyAny>> = faces.try_iter()?.collect::<PyResult<_>>()?;
    if faces.len() != 6 {
        return Err(cube_error(format!(
            "faces: expected 6 numbers (near, far, top, right, bottom, left), found {}",
            faces.len()
        )));
    }
    let faces = faces
        .iter()
        .zip(FACE_NAMES)
        .enumerate()
        .map(|(i, (face, role))| int_text(&format!("faces[{i}] ({role} face)"), face))
        .collect::<PyResult<Vec<_>>>()?;
    let text = format!("{start} {end} {}\n", faces.join(" "));
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
