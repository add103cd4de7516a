//! Python arguments to library values, with the library's ranges and wording
//! (`cubedb::limits`): a bad value is a `CubeError` naming the argument and its range,
//! never PyO3's generic `OverflowError`.

use crate::cube_error;
use cubedb::limits::{self, WholeRange};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};
use std::time::Duration;

/// A whole number in `range` (a Python `int`, not a `bool`).
pub fn whole(name: &str, range: WholeRange, value: &Bound<'_, PyAny>) -> PyResult<u64> {
    if value.is_instance_of::<PyBool>() || !value.is_instance_of::<PyInt>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be an int, not {}",
            value.get_type().name()?
        )));
    }
    match value.extract::<i128>() {
        Ok(v) => range.check(name, v).map_err(|e| cube_error(e.to_string())),
        // Beyond 128 bits: out of every range.
        Err(_) => Err(cube_error(range.error(name, value.str()?).to_string())),
    }
}

/// [`whole`], with `None` passed through.
pub fn optional_whole(
    name: &str,
    range: WholeRange,
    value: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<u64>> {
    match value {
        Some(v) if !v.is_none() => whole(name, range, v).map(Some),
        _ => Ok(None),
    }
}

/// A list (any iterable but a `str`) of `str`s, argument `name`: a bad item is a
/// `TypeError` naming it by its number from 1, `{item} 2` (as batches name cubes).
pub fn strings(name: &str, item: &str, value: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
    let type_name =
        |v: &Bound<'_, PyAny>| v.get_type().name().map_or("?".into(), |n| n.to_string());
    if value.is_instance_of::<PyString>() {
        return Err(PyTypeError::new_err(format!(
            "{name} must be a list of str, not a str"
        )));
    }
    let items = value.try_iter().map_err(|_| {
        PyTypeError::new_err(format!(
            "{name} must be a list of str, not {}",
            type_name(value)
        ))
    })?;
    items
        .enumerate()
        .map(|(i, v)| {
            let v = v?;
            v.cast::<PyString>().map(|s| s.to_string()).map_err(|_| {
                PyTypeError::new_err(format!(
                    "{item} {}: must be a str, not {}",
                    i + 1,
                    type_name(&v)
                ))
            })
        })
        .collect()
}

/// A timeout in seconds (`None`: no timeout): an int (any size: one beyond a float is
/// longer than any timeout) or a float, by the library's rule.
pub fn timeout(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Duration>> {
    let Some(value) = value.filter(|v| !v.is_none()) else {
        return Ok(None);
    };
    if value.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err("timeout must be a number, not bool"));
    }
    let seconds = if value.is_instance_of::<PyInt>() {
        limits::parse_seconds(&value.str()?.to_string())
            .map_err(|e| cube_error(format!("timeout {e}")))?
    } else {
        value.extract::<f64>().map_err(|_| {
            PyTypeError::new_err(format!(
                "timeout must be a number of seconds, not {}",
                value
                    .get_type()
                    .name()
                    .map_or("?".into(), |n| n.to_string())
            ))
        })?
    };
    limits::timeout("timeout", seconds)
        .map(Some)
        .map_err(|e| cube_error(e.to_string()))
}
