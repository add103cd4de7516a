//! Every table group cubedb knows how to build, for `cubedb-gen` and for listings.

use crate::progress::Progress;
use crate::puzzles::{rolling, rotation, rubik, soma};
use crate::table::{TableError, TableSpec, TableStore};

/// A set of tables built together by one `cubedb-gen` target.
#[derive(Debug, Clone, Copy)]
pub struct TableGroup {
    /// Target name on the `cubedb-gen` command line.
    pub name: &'static str,
    /// One line saying what the tables are for.
    pub about: &'static str,
    /// The tables of the group.
    pub specs: fn() -> Vec<TableSpec>,
    /// Builds and writes every table of the group.
    pub build: fn(&TableStore, &Progress) -> Result<(), TableError>,
    /// Whether `cubedb-gen` with no group named builds it (big, slow groups are built
    /// only when named).
    pub by_default: bool,
    /// For slow groups, what building them took on the project machine (2 cores), for the
    /// estimate `cubedb-gen` gives before it starts.
    pub measured_cost: Option<BuildCost>,
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

/// All table groups, in build order.
pub fn groups() -> Vec<TableGroup> {
    vec![
        TableGroup {
            name: rolling::tables::GROUP,
            about: "cubic eight-puzzle: exact answers for all 531,441 judge inputs, and paths",
            specs: rolling::tables::specs,
            build: rolling::tables::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: rotation::tables::GROUP,
            about: "rotation game: distance to the centre for all C(24,8) digit patterns",
            specs: rotation::tables::specs,
            build: rotation::tables::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: soma::tables::GROUP,
            about: "Soma cube: every assembly, indexed by the orientation of piece a",
            specs: soma::tables::specs,
            build: soma::tables::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: rubik::near::GROUP,
            about:
                "Rubik's cube: every position within 7 quarter turns, with an optimal first move",
            specs: rubik::near::specs,
            build: rubik::near::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: "rubik",
            about: "Rubik's cube, small preset: corner + two 6-edge pattern databases, QTM and HTM",
            specs: || rubik::Preset::Small.specs(),
            build: |store, progress| rubik::Preset::Small.build(store, progress),
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: "rubik-medium",
            about:
                "Rubik's cube, medium preset: corner + two 7-edge pattern databases, QTM and HTM",
            specs: || rubik::Preset::Medium.specs(),
            build: |store, progress| rubik::Preset::Medium.build(store, progress),
            by_default: true,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 600,
                peak_bytes: 2_000_000_000,
            }),
        },
        TableGroup {
            name: rubik::ru::GROUP,
            about: "Rubik's cube, the <R,U> subgroup: all 73,483,200 positions, distance mod 3, both metrics (37 MB)",
            specs: rubik::ru::specs,
            build: rubik::ru::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: rubik::goal::GROUP,
            about: "Rubik's cube, partial goals: exact distances for cross, xcross, F2L pair, first block and EO, both metrics",
            specs: rubik::goal::specs,
            build: rubik::goal::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: rubik::twophase::GROUP,
            about: "Rubik's cube, two-phase tables: near-optimal solutions in microseconds (130 MB, both metrics)",
            specs: rubik::twophase::tables::specs,
            build: rubik::twophase::tables::build,
            by_default: true,
            measured_cost: None,
        },
        TableGroup {
            name: "rubik-large",
            about: "Rubik's cube, large preset: the flip-slice-twist table reduced by 16 symmetries, QTM and HTM (not built by default)",
            specs: || rubik::Preset::Large.specs(),
            build: |store, progress| rubik::Preset::Large.build(store, progress),
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 395,
                peak_bytes: 6_600_000_000,
            }),
        },
        TableGroup {
            name: "rubik-huge",
            about: "Rubik's cube, huge preset: flip-slice-twist with corner layers reduced by 16 symmetries, 4.9 GB per metric, QTM and HTM (not built by default)",
            specs: || rubik::Preset::Huge.specs(),
            build: |store, progress| rubik::Preset::Huge.build(store, progress),
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 1255,
                peak_bytes: 17_400_000_000,
            }),
        },
    ]
}

/// The group called `name`.
pub fn group(name: &str) -> Option<TableGroup> {
    groups().into_iter().find(|g| g.name == name)
}
