//! Table families: the one place where a set of tables is declared, built on first use and
//! opened, and the `cubedb-gen` targets made of them.
//!
//! A family is a type (usually the opened tables themselves) implementing [`TableFamily`]:
//! it names its tables for some parameters (a metric, a pattern), builds them with the
//! shared BFS, and opens and verifies them. [`TableFamily::load_or_build`] is written once,
//! here: every front end opens tables through it. A [`TableGroup`] is a `cubedb-gen` target:
//! one or more [`GroupMember`]s, each a family with its parameters; the catalogue
//! (`crate::catalog`) lists every group.

use super::{TableError, TableSpec, TableStore};
use crate::progress::Progress;
use std::time::Instant;

/// How much of a family's set [`TableFamily::build`] writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rebuild {
    /// Only the tables whose files are missing (a family whose tables come out of one
    /// computation may write all of them).
    Missing,
    /// Every table of the set, replacing files already there.
    All,
}

/// A set of tables declared, built and opened as one unit (see the module comment).
pub trait TableFamily: Sized {
    /// What selects one set of the family's tables: a metric, a pattern and metric, or
    /// `()` for a family with a single set.
    type Params: Copy;

    /// The set in words for notes, e.g. "the rolling tables" (no size: that is added).
    fn title(params: Self::Params) -> String;

    /// The tables of the set.
    fn specs(params: Self::Params) -> Vec<TableSpec>;

    /// Builds the set's tables (see [`Rebuild`]) and writes them to `store`.
    fn build(
        store: &TableStore,
        params: Self::Params,
        rebuild: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError>;

    /// Whether every table of the set has a file in `store` (which opening still checks).
    /// The default asks [`TableFamily::specs`]; a family whose specs cost time to compute
    /// answers from the file names alone.
    fn present(store: &TableStore, params: Self::Params) -> bool {
        Self::specs(params).iter().all(|spec| store.exists(spec))
    }

    /// Opens and verifies the set (every file must be present).
    fn open(store: &TableStore, params: Self::Params) -> Result<Self, TableError>;

    /// Opens the set, first building the tables that are missing (with a note saying what
    /// and how big). A table that is present but damaged is an error naming its file,
    /// never rebuilt silently nor trusted.
    fn load_or_build(
        store: &TableStore,
        params: Self::Params,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        ensure_built::<Self>(store, params, progress)?;
        Self::open(store, params)
    }
}

/// Builds the tables of one set of family `F` that are missing from `store`, with a note
/// before (what, how big, where) and after (how long). Does nothing if all are present.
pub fn ensure_built<F: TableFamily>(
    store: &TableStore,
    params: F::Params,
    progress: &Progress,
) -> Result<(), TableError> {
    if F::present(store, params) {
        return Ok(());
    }
    store.check_writable()?;
    let specs = F::specs(params);
    let missing: Vec<&TableSpec> = specs.iter().filter(|s| !store.exists(s)).collect();
    let bytes: u64 = missing.iter().map(|s| s.payload_len()).sum();
    let title = F::title(params);
    progress.note(format!(
        "building {title} ({:.1} MB) in {} ...",
        bytes as f64 / 1e6,
        store.dir().display()
    ));
    let started = Instant::now();
    F::build(store, params, Rebuild::Missing, progress)?;
    progress.note(format!(
        "{title}: built in {:.1} s",
        started.elapsed().as_secs_f64()
    ));
    Ok(())
}

/// Builds one set of tables (a family with its parameters bound).
type BuildSet =
    Box<dyn Fn(&TableStore, Rebuild, &Progress) -> Result<(), TableError> + Send + Sync>;

/// One set of tables inside a [`TableGroup`]: a family with its parameters.
pub struct GroupMember {
    /// Which variant this is (a metric, `htm` or `qtm`), for `cubedb-gen --metric`;
    /// `None` for sets that serve every variant.
    pub variant: Option<&'static str>,
    /// The set's tables.
    pub specs: Vec<TableSpec>,
    build: BuildSet,
}

impl GroupMember {
    /// The set of family `F` with `params`, labelled `variant`.
    pub fn of<F: TableFamily>(params: F::Params, variant: Option<&'static str>) -> Self
    where
        F::Params: Send + Sync + 'static,
    {
        Self {
            variant,
            specs: F::specs(params),
            build: Box::new(move |store, rebuild, progress| {
                F::build(store, params, rebuild, progress)
            }),
        }
    }

    /// Builds the set's tables (every one with [`Rebuild::All`]).
    pub fn build(
        &self,
        store: &TableStore,
        rebuild: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        (self.build)(store, rebuild, progress)
    }
}

impl std::fmt::Debug for GroupMember {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GroupMember")
            .field("variant", &self.variant)
            .field("specs", &self.specs)
            .finish_non_exhaustive()
    }
}

/// A `cubedb-gen` target: sets of tables built together.
#[derive(Debug)]
pub struct TableGroup {
    /// Target name on the `cubedb-gen` command line.
    pub name: &'static str,
    /// One line saying what the tables are for.
    pub about: &'static str,
    /// The sets of the group (one per metric, say).
    pub members: Vec<GroupMember>,
    /// Whether `cubedb-gen` with no group named builds it (big, slow groups are built
    /// only when named).
    pub by_default: bool,
    /// For slow groups, what building them took on the project machine (2 cores), for the
    /// estimate `cubedb-gen` gives before it starts.
    pub measured_cost: Option<BuildCost>,
}

impl TableGroup {
    /// A group built by default, with no measured cost.
    pub fn new(name: &'static str, about: &'static str, members: Vec<GroupMember>) -> Self {
        Self {
            name,
            about,
            members,
            by_default: true,
            measured_cost: None,
        }
    }

    /// Every table of the group, without repeats (sets may share a table).
    pub fn specs(&self) -> Vec<TableSpec> {
        let mut specs: Vec<TableSpec> = Vec::new();
        for spec in self.members.iter().flat_map(|m| &m.specs) {
            if !specs.iter().any(|s| s.name == spec.name) {
                specs.push(spec.clone());
            }
        }
        specs
    }

    /// Builds (or rebuilds) every table of the group.
    pub fn build(&self, store: &TableStore, progress: &Progress) -> Result<(), TableError> {
        for member in &self.members {
            member.build(store, Rebuild::All, progress)?;
        }
        Ok(())
    }
}

/// What building a group took on the project machine (2 cores, both metrics).
#[derive(Debug, Clone, Copy)]
pub struct BuildCost {
    /// Wall-clock seconds on 2 cores.
    pub seconds_on_two_cores: u32,
    /// Peak resident memory in bytes.
    pub peak_bytes: u64,
}

impl BuildCost {
    /// Expected wall-clock seconds on `threads` threads (the BFS scales about linearly).
    pub fn seconds_on(&self, threads: usize) -> f64 {
        f64::from(self.seconds_on_two_cores) * 2.0 / threads.max(1) as f64
    }
}
