//! The data directory that holds table files.

use super::{Table, TableError, TableSpec};
use std::path::{Path, PathBuf};

/// Environment variable naming the default data directory.
pub const DATA_ENV: &str = "CUBEDB_DATA";

/// A folder of table files.
#[derive(Debug, Clone)]
pub struct TableStore {
    dir: PathBuf,
}

impl TableStore {
    /// A store in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// `dir` if given, else `$CUBEDB_DATA`, else `data/` in the working directory.
    pub fn locate(dir: Option<PathBuf>) -> Self {
        let dir = dir
            .or_else(|| std::env::var_os(DATA_ENV).map(PathBuf::from))
            .unwrap_or_else(|| PathBuf::from("data"));
        Self::new(dir)
    }

    /// The folder itself.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Where the table described by `spec` lives.
    pub fn path_of(&self, spec: &TableSpec) -> PathBuf {
        self.dir.join(spec.file_name())
    }

    /// Whether a file exists under the table's name (it may still be invalid).
    pub fn exists(&self, spec: &TableSpec) -> bool {
        self.path_of(spec).exists()
    }

    /// Opens and verifies a table.
    pub fn open(&self, spec: &TableSpec) -> Result<Table, TableError> {
        Table::open(&self.path_of(spec), spec)
    }

    /// Writes a table atomically under its name.
    pub fn write(
        &self,
        spec: &TableSpec,
        payload: &[u8],
        histogram: Vec<u64>,
    ) -> Result<(), TableError> {
        super::write_table(&self.path_of(spec), spec, payload, histogram)
    }
}
