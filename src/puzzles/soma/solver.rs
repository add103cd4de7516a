//! The two engines: the catalogue (one contiguous read per query) and exact-cover search
//! from scratch.

use super::assembly::{assemblies_with_a, Assembly};
use super::geometry::{geometry, Geometry};
use super::judge::Query;
use super::tables::SomaTables;

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

    /// Every assembly with piece `a` in the query's orientation, ascending.
    pub fn solve(&self, query: &Query) -> Vec<Assembly> {
        self.tables.assemblies(query.orientation).collect()
    }

    /// Appends the judge answer straight from the catalogue's bytes.
    pub fn write_answer(&self, query: &Query, out: &mut String) {
        let bytes = self.tables.group_bytes(query.orientation);
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

    /// Every assembly with piece `a` in the query's orientation, ascending.
    pub fn solve(&self, query: &Query) -> Vec<Assembly> {
        assemblies_with_a(self.geometry, query.orientation).0
    }
}
