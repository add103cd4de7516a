//! The two engines: the catalogue (one contiguous read per query) and exact-cover search
//! from scratch.

use super::assembly::{assemblies_with_a, Assembly};
use super::geometry::{geometry, Geometry};
use super::tables::SomaTables;
use crate::engine::{Solve, Solver};

/// A Soma engine: every assembly with piece `a` in one orientation (an index into its
/// orientations), and the judge answer for it.
pub trait SomaEngine: Solve<Query = usize, Answer = Vec<Assembly>> {
    /// Appends the judge answer for piece `a` in `orientation` to `out`.
    fn write_answer(&self, orientation: usize, out: &mut String) {
        super::judge::format_answer(out, &self.solve(&orientation));
    }
}

/// Answers by reading the query's group of the catalogue.
#[derive(Debug)]
pub struct TableSolver<'a> {
    tables: &'a SomaTables,
}

impl<'a> TableSolver<'a> {
    /// A solver over a loaded catalogue.
    pub fn new(tables: &'a SomaTables) -> Self {
        Self { tables }
    }
}

impl Solve for TableSolver<'_> {
    type Query = usize;
    type Answer = Vec<Assembly>;

    /// Every assembly with piece `a` in `orientation`, ascending.
    fn solve(&self, &orientation: &usize) -> Vec<Assembly> {
        self.tables.assemblies(orientation).collect()
    }
}

impl SomaEngine for TableSolver<'_> {
    /// Appends the judge answer straight from the catalogue's bytes.
    fn write_answer(&self, orientation: usize, out: &mut String) {
        let bytes = self.tables.group_bytes(orientation);
        out.reserve(bytes.len() / super::tables::ASSEMBLY_BYTES * 28 + 1);
        for assembly in bytes.chunks_exact(super::tables::ASSEMBLY_BYTES) {
            // The catalogue was checked to hold only the letters `a` to `g`.
            out.extend(assembly.iter().map(|&b| b as char));
            out.push('\n');
        }
        out.push('\n');
    }
}

/// Answers by solving the exact cover of the cube with piece `a` restricted to the
/// query's orientation, from scratch for every query.
#[derive(Debug, Clone, Copy)]
pub struct SearchSolver {
    geometry: &'static Geometry,
}

impl Default for SearchSolver {
    fn default() -> Self {
        Self::new()
    }
}

impl SearchSolver {
    /// A search solver (the pieces' placements are computed once per process).
    pub fn new() -> Self {
        Self {
            geometry: geometry(),
        }
    }
}

impl Solve for SearchSolver {
    type Query = usize;
    type Answer = Vec<Assembly>;

    /// Every assembly with piece `a` in `orientation`, ascending.
    fn solve(&self, &orientation: &usize) -> Vec<Assembly> {
        assemblies_with_a(self.geometry, orientation).0
    }
}

impl SomaEngine for SearchSolver {}

impl<T: SomaEngine, S: SomaEngine> SomaEngine for Solver<T, S> {
    fn write_answer(&self, orientation: usize, out: &mut String) {
        match self {
            Solver::Table(engine) => engine.write_answer(orientation, out),
            Solver::Search(engine) => engine.write_answer(orientation, out),
        }
    }
}
