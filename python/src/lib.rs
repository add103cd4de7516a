//! `cubedb._cubedb`: the Python extension over the cubedb library (PyO3, abi3).
//!
//! Every error becomes a Python exception: bad input is `CubeError` (a `ValueError`), a
//! limit below the optimum is `NoSolutionError` (a `ValueError`), a missing deadline is
//! `TimeoutError`, a damaged or unreadable table is `TableError` naming the file. Solving
//! releases the GIL. The pure-Python layer (`cubedb/__init__.py`) adds the docstrings'
//! examples and the `kociemba` compatibility module.
//!
//! Modules: [`cube`] (the `Cube` class), [`solve`] (`solve`, `solve_many`, `scramble`,
//! the `kociemba` drop-in, through the library's solver faces), [`puzzles`] (the judge
//! puzzles), [`perm`] (`Puzzle`: any puzzle from a `.tws` definition), [`args`] (argument ranges, with the library's wording) and [`interrupt`]
//! (Ctrl-C during long solves).

mod args;
mod cube;
mod events;
mod interrupt;
mod perm;
mod puzzles;
mod solve;

use cubedb::table::{TableError as LibTableError, TableStore};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

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

pub(crate) fn table_error(e: LibTableError) -> PyErr {
    TableError::new_err(e.to_string())
}

pub(crate) fn cube_error(message: impl Into<String>) -> PyErr {
    CubeError::new_err(message.into())
}

/// The folder of table files: `$CUBEDB_DATA`, else the user's cache folder (`cubedb`
/// inside it, e.g. `~/.cache/cubedb`), else `./data`.
fn data_dir() -> PathBuf {
    cubedb::table::data_dir_from_env()
        .or_else(|| dirs::cache_dir().map(|d| d.join("cubedb")))
        .unwrap_or_else(|| PathBuf::from("data"))
}

pub(crate) fn store() -> TableStore {
    TableStore::new(data_dir())
}

/// The first of `items` when no count was asked (`count` is `None`), else all of them
/// as a list: the shape of the scramble functions' answers.
pub(crate) fn one_or_list(
    py: Python<'_>,
    count: Option<u64>,
    items: Vec<String>,
) -> PyResult<Py<PyAny>> {
    Ok(match count {
        None => items
            .into_iter()
            .next()
            .unwrap_or_default()
            .into_pyobject(py)?
            .into_any()
            .unbind(),
        Some(_) => items.into_pyobject(py)?.into_any().unbind(),
    })
}

/// A value loaded once per process (per metric), retried after a failure.
pub(crate) struct Cached<T>(Mutex<Option<Arc<T>>>);

impl<T> Cached<T> {
    pub(crate) const fn new() -> Self {
        Self(Mutex::new(None))
    }

    pub(crate) fn get(&self, load: impl FnOnce() -> Result<T, LibTableError>) -> PyResult<Arc<T>> {
        let mut slot = self.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(value) = slot.as_ref() {
            return Ok(Arc::clone(value));
        }
        let value = Arc::new(load().map_err(table_error)?);
        *slot = Some(Arc::clone(&value));
        Ok(value)
    }

    /// The value, if loaded.
    pub(crate) fn peek(&self) -> Option<Arc<T>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Stores a value loaded elsewhere (a background build).
    pub(crate) fn set(&self, value: T) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(Arc::new(value));
    }
}

/// The folder where tables are looked for and built.
#[pyfunction]
fn data_directory() -> String {
    data_dir().display().to_string()
}

/// `value` if it is an int from `min` to `max`, else `CubeError` naming `name` and the
/// range (`TypeError` for anything but an int): the library's rule and words, for
/// arguments checked in the pure-Python layer (`cubedb.dask`).
#[pyfunction]
fn _whole(name: &str, value: &Bound<'_, PyAny>, min: u64, max: u64) -> PyResult<u64> {
    args::whole(name, cubedb::limits::WholeRange { min, max }, value)
}

/// The extension module.
#[pymodule]
fn _cubedb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<cube::Cube>()?;
    m.add_class::<perm::Puzzle>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(solve::scramble, m)?)?;
    m.add_function(wrap_pyfunction!(events::scramble_event, m)?)?;
    m.add_function(wrap_pyfunction!(events::scramble_picture, m)?)?;
    m.add(
        "_kociemba_solve",
        wrap_pyfunction!(solve::kociemba_solve, m)?,
    )?;
    m.add_function(wrap_pyfunction!(puzzles::rolling, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles::rotation, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles::soma, m)?)?;
    m.add_function(wrap_pyfunction!(puzzles::walk, m)?)?;
    m.add_function(wrap_pyfunction!(data_directory, m)?)?;
    m.add_function(wrap_pyfunction!(_whole, m)?)?;
    m.add_function(wrap_pyfunction!(solve::_twophase_tables, m)?)?;
    m.add("CubeError", m.py().get_type::<CubeError>())?;
    m.add("NoSolutionError", m.py().get_type::<NoSolutionError>())?;
    m.add("TableError", m.py().get_type::<TableError>())?;
    Ok(())
}
