//! The `Cube` class: a Rubik's cube position, immutable, and cube arguments.

use crate::cube_error;
use cubedb::puzzles::rubik::{facelet_string, parse_facelets, parse_moves, Cube as CubieCube};
use cubedb::rng::SplitMix64;
use pyo3::prelude::*;
use pyo3::types::PyString;

/// A Rubik's cube position (immutable).
#[pyclass(module = "cubedb", frozen, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Cube {
    pub(crate) cube: CubieCube,
}

pub(crate) fn cube_from_facelets(text: &str) -> PyResult<CubieCube> {
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
    fn random(seed: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let seed = crate::args::optional_whole("seed", cubedb::limits::WholeRange::SEED, seed)?;
        let mut rng = SplitMix64::new(seed.unwrap_or_else(random_seed));
        Ok(Self {
            cube: CubieCube::random(&mut rng),
        })
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
pub(crate) fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish()
}

/// A cube argument: a `Cube` or a facelet string.
pub(crate) fn cube_arg(cube: &Bound<'_, PyAny>) -> PyResult<CubieCube> {
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
