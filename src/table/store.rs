//! The data directory that holds table files.

use super::{Table, TableError, TableSpec};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// Environment variable naming the default data directory.
pub const DATA_ENV: &str = "CUBEDB_DATA";

/// The folder `$CUBEDB_DATA` names; an empty value counts as unset, as it does for
/// every front end.
pub fn data_dir_from_env() -> Option<PathBuf> {
    std::env::var_os(DATA_ENV)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// A folder of table files.
#[derive(Debug, Clone)]
pub struct TableStore {
    dir: PathBuf,
    builds_big: bool,
    /// The paths of the tables opened, when noted ([`TableStore::noting_opens`]); shared
    /// by the store's clones.
    opened: Option<Arc<Mutex<Vec<PathBuf>>>>,
}

impl TableStore {
    /// A store in `dir`.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            builds_big: false,
            opened: None,
        }
    }

    /// The store noting the path of every table opened through it or its clones from now
    /// on: the tables a solver reads, whatever they are (`cubedb-gen puzzle --warm`).
    pub fn noting_opens(mut self) -> Self {
        self.opened = Some(Arc::default());
        self
    }

    /// The tables opened since [`TableStore::noting_opens`], each once, in the order
    /// they were first opened (none when opens are not noted).
    pub fn opened(&self) -> Vec<PathBuf> {
        let Some(Ok(paths)) = self.opened.as_ref().map(|o| o.lock()) else {
            return Vec::new();
        };
        let mut seen = std::collections::HashSet::new();
        paths.iter().filter(|p| seen.insert(*p)).cloned().collect()
    }

    /// Notes `path` as opened, when opens are noted.
    fn note_open(&self, path: &Path) {
        if let Some(Ok(mut paths)) = self.opened.as_ref().map(|o| o.lock()) {
            paths.push(path.to_path_buf());
        }
    }

    /// The store as an explicit build uses it (`cubedb-gen`): tables too big to build on
    /// a first use are built too (see [`TableStore::builds_big`]).
    pub fn for_explicit_builds(mut self) -> Self {
        self.builds_big = true;
        self
    }

    /// Whether tables that a first use would not build (a phase's exact table of
    /// hundreds of megabytes, where pattern databases serve) are built here; those
    /// present are used either way.
    pub fn builds_big(&self) -> bool {
        self.builds_big
    }

    /// `dir` if given, else `$CUBEDB_DATA` (unless empty), else `data/` in the working
    /// directory.
    pub fn locate(dir: Option<PathBuf>) -> Self {
        let dir = dir
            .or_else(data_dir_from_env)
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

    /// Whether the table's file is there (`Ok(false)` if not); an error if the folder or
    /// the file cannot be examined or is not what it should be, so that an unreadable
    /// table is never reported as merely missing.
    pub fn status(&self, spec: &TableSpec) -> Result<bool, TableError> {
        self.check_dir()?;
        super::probe(&self.path_of(spec), spec.group)
    }

    /// Opens and verifies a table.
    pub fn open(&self, spec: &TableSpec) -> Result<Table, TableError> {
        self.check_dir()?;
        let path = self.path_of(spec);
        let table = Table::open(&path, spec)?;
        self.note_open(&path);
        Ok(table)
    }

    /// [`TableStore::open`], hashing the payload even if a seal says it was verified.
    pub fn open_fully(&self, spec: &TableSpec) -> Result<Table, TableError> {
        self.check_dir()?;
        let path = self.path_of(spec);
        let table = Table::open_checked(&path, spec, super::Verify::Full)?;
        self.note_open(&path);
        Ok(table)
    }

    /// Refuses a data directory that exists but is not a folder.
    pub fn check_dir(&self) -> Result<(), TableError> {
        match std::fs::metadata(&self.dir) {
            Ok(meta) if !meta.is_dir() => Err(TableError::DataDirNotAFolder {
                dir: self.dir.clone(),
            }),
            _ => Ok(()),
        }
    }

    /// Checks, before any table is built, that tables can be written here: creates the
    /// folder if needed and a file in it (removed at once). A read-only or missing-rights
    /// folder is refused before minutes of building, not after.
    pub fn check_writable(&self) -> Result<(), TableError> {
        self.check_dir()?;
        let not_writable = |error| TableError::NotWritable {
            dir: self.dir.clone(),
            error,
        };
        std::fs::create_dir_all(&self.dir).map_err(not_writable)?;
        let probe = self
            .dir
            .join(format!(".cubedb-write-check-{}", std::process::id()));
        std::fs::File::create(&probe).map_err(not_writable)?;
        let _ = std::fs::remove_file(&probe);
        Ok(())
    }

    /// Writes a table atomically under its name (and first removes temporary files that
    /// interrupted builds of it left behind).
    pub fn write(
        &self,
        spec: &TableSpec,
        payload: &[u8],
        histogram: Vec<u64>,
    ) -> Result<(), TableError> {
        self.remove_stale_temporaries(spec);
        super::write_table(&self.path_of(spec), spec, payload, histogram)
    }

    /// Deletes `NAME.cdb.tmp-PID` files of processes that no longer run (Linux only, where
    /// /proc tells; elsewhere they are left for the user).
    fn remove_stale_temporaries(&self, spec: &TableSpec) {
        if !cfg!(target_os = "linux") {
            return;
        }
        let prefix = format!("{}.tmp-", spec.file_name());
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(pid) = name.to_str().and_then(|n| n.strip_prefix(&prefix)) else {
                continue;
            };
            let dead = pid.parse::<u32>().is_ok_and(|pid| {
                pid != std::process::id() && !Path::new("/proc").join(pid.to_string()).exists()
            });
            if dead {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}
