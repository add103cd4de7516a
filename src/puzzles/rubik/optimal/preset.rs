//! Pattern-database presets: which tables a solve reads, chosen by size, and the opened
//! set of one metric ([`Pdbs`]).

use super::pdb::{spec, Encoding, Pattern, Pdb};
use crate::progress::Progress;
use crate::puzzles::rubik::model::metric::Metric;
use crate::table::family::{BuildCost, GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::{TableError, TableSpec, TableStore};

/// Table sets: bigger ones make deep solves faster; every one gives optimal answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Preset {
    /// Corners + two 6-edge tables per metric (86 MB): minutes to hours for a random
    /// cube; for tests and scripts that name it.
    Small,
    /// The flip-slice-twist table with the pairing and parity of the E-slice edges,
    /// reduced by symmetry, in 2-bit entries (215 MB per metric, built in about 30 s):
    /// seconds for a random cube, what a first use builds.
    #[value(name = "200m")]
    TwoHundredMb,
    /// Corners + two 7-edge tables per metric (555 MB).
    Medium,
    /// The `2g` projection with the corner layers up to exchanging U and D, in 2-bit
    /// entries around a base (1.25 GB per metric): half of `2g`'s entries, within the
    /// 1.95 GB of cube48opt's sixth table.
    #[value(name = "1g")]
    OneGb,
    /// The flip-slice-twist table reduced by symmetry, read along all three axes on the
    /// position and its inverse (1.7 GB per metric). Adding the corner and 7-edge tables
    /// to it changed neither node counts nor times measurably, so they are left out.
    Large,
    /// The flip-slice-twist table with the corner layers instead of the slice order,
    /// reduced by symmetry and read like the large one (4.9 GB per metric).
    Huge,
    /// The huge preset's projection in 2-bit entries around a base value (2.5 GB per
    /// metric): about equal to H48's `h48h6` and cube48opt's 2 GB table.
    #[value(name = "2g")]
    TwoGb,
    /// The corner-layers projection with the E-slice parity too, in 2-bit entries
    /// (5.0 GB per metric): twice the entries of `2g`.
    #[value(name = "5g")]
    FiveGb,
    /// The corner-layers projection with the pairing of the E-slice edges, in 2-bit
    /// entries (7.5 GB per metric): three times the entries of `2g`, the biggest preset.
    /// (It replaced the `5g` table read beside an edge-layers table, which pruned less
    /// at the same size and cost two reads per view.)
    #[value(name = "8g")]
    EightGb,
}

impl Preset {
    /// The fastest preset whose tables for `metric` are all present in `store`, else
    /// `200m` (built on first use in about 30 s). Speed follows size, except that
    /// `200m` solves random cubes far faster than the older `medium` and `small`.
    pub fn fastest_present(store: &TableStore, metric: Metric) -> Preset {
        [
            Preset::EightGb,
            Preset::FiveGb,
            Preset::Huge,
            Preset::TwoGb,
            Preset::OneGb,
            Preset::Large,
            Preset::TwoHundredMb,
            Preset::Medium,
        ]
        .into_iter()
        .find(|preset| Pdbs::present(store, (*preset, metric)))
        .unwrap_or(Preset::TwoHundredMb)
    }

    /// The pattern databases of this preset and how each stores its entries.
    pub fn patterns(self) -> Vec<(Pattern, Encoding)> {
        let edges = |first, count| Pattern::Edges { first, count };
        let nibbles = |patterns: Vec<Pattern>| {
            patterns
                .into_iter()
                .map(|p| (p, Encoding::Nibbles))
                .collect()
        };
        match self {
            Preset::Small => nibbles(vec![Pattern::Corners, edges(0, 6), edges(6, 6)]),
            Preset::TwoHundredMb => {
                vec![(Pattern::FlipSliceTwistPairingParity, Encoding::BaseLines)]
            }
            Preset::Medium => nibbles(vec![Pattern::Corners, edges(0, 7), edges(5, 7)]),
            Preset::OneGb => vec![(Pattern::FlipSliceTwistLayersSplit, Encoding::BaseLines)],
            Preset::Large => nibbles(vec![Pattern::FlipSliceTwist]),
            Preset::Huge => nibbles(vec![Pattern::FlipSliceTwistLayers]),
            Preset::TwoGb => vec![(Pattern::FlipSliceTwistLayers, Encoding::BaseLines)],
            Preset::FiveGb => vec![(Pattern::FlipSliceTwistLayersParity, Encoding::BaseLines)],
            Preset::EightGb => vec![(Pattern::FlipSliceTwistLayersPairing, Encoding::BaseLines)],
        }
    }

    /// The `cubedb-gen` group building this preset.
    pub fn group(self) -> &'static str {
        match self {
            Preset::Small => "rubik",
            Preset::TwoHundredMb => "rubik-200m",
            Preset::Medium => "rubik-medium",
            Preset::OneGb => "rubik-1g",
            Preset::Large => "rubik-large",
            Preset::Huge => "rubik-huge",
            Preset::TwoGb => "rubik-2g",
            Preset::FiveGb => "rubik-5g",
            Preset::EightGb => "rubik-8g",
        }
    }

    /// The preset's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Small => "small",
            Preset::TwoHundredMb => "200m",
            Preset::Medium => "medium",
            Preset::OneGb => "1g",
            Preset::Large => "large",
            Preset::Huge => "huge",
            Preset::TwoGb => "2g",
            Preset::FiveGb => "5g",
            Preset::EightGb => "8g",
        }
    }

    /// What building this preset for `metric` took, and what it then gives, on the
    /// project machine (2 cores; `docs/results.md`).
    pub fn figures(self, metric: Metric) -> PresetFigures {
        let htm = metric == Metric::Htm;
        let pick = |h: u32, q: u32| if htm { h } else { q };
        let pick_f = |h: f64, q: f64| if htm { h } else { q };
        let (build_seconds_on_two_cores, build_peak_bytes, random_median_seconds) = match self {
            Preset::Small => (30, 1_000_000_000, None),
            Preset::TwoHundredMb => (pick(21, 13), 280_000_000, Some(pick_f(21.6, 13.5))),
            Preset::Medium => (300, 2_000_000_000, None),
            Preset::OneGb => (pick(103, 91), 1_640_000_000, Some(pick_f(3.99, 4.32))),
            Preset::Large => (pick(224, 171), 6_600_000_000, Some(pick_f(44.0, 28.0))),
            Preset::Huge => (630, 17_400_000_000, Some(pick_f(6.54, 5.70))),
            Preset::TwoGb => (pick(214, 120), 3_110_000_000, Some(pick_f(3.33, 4.56))),
            Preset::FiveGb => (pick(678, 522), 7_400_000_000, Some(pick_f(2.41, 2.66))),
            Preset::EightGb => (pick(390, 433), 9_260_000_000, Some(pick_f(1.65, 1.45))),
        };
        PresetFigures {
            build_seconds_on_two_cores,
            build_peak_bytes,
            random_median_seconds,
        }
    }

    /// Bytes of its tables for `metric` on disk.
    pub fn bytes(self, metric: Metric) -> u64 {
        <Pdbs as TableFamily>::specs((self, metric))
            .iter()
            .map(TableSpec::payload_len)
            .sum()
    }

    /// Every preset, smallest first.
    pub const ALL: [Preset; 9] = [
        Preset::Small,
        Preset::TwoHundredMb,
        Preset::Medium,
        Preset::OneGb,
        Preset::Large,
        Preset::TwoGb,
        Preset::Huge,
        Preset::FiveGb,
        Preset::EightGb,
    ];
}

/// What a preset took to build and gives, one metric, on the project machine (2 cores).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PresetFigures {
    /// Wall-clock seconds of the build on 2 cores.
    pub build_seconds_on_two_cores: u32,
    /// Peak memory of the build.
    pub build_peak_bytes: u64,
    /// Median time of an optimal solve of a uniformly random position on both cores
    /// (`None`: minutes to hours, not measured).
    pub random_median_seconds: Option<f64>,
}

/// Opened pattern databases of one metric.
#[derive(Debug)]
pub struct Pdbs {
    metric: Metric,
    preset: Option<Preset>,
    pub(super) tables: Vec<Pdb>,
}

impl Pdbs {
    /// Opens any set of tables for `metric` (built under `group` if missing): for tests
    /// and experiments outside the presets.
    pub fn load_or_build_patterns(
        store: &TableStore,
        patterns: &[(Pattern, Encoding)],
        metric: Metric,
        group: &'static str,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let tables = patterns
            .iter()
            .map(|&(p, encoding)| Pdb::load_or_build(store, (p, encoding, metric, group), progress))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            metric,
            preset: None,
            tables,
        })
    }

    /// The opened tables, in the preset's order.
    pub fn tables(&self) -> &[Pdb] {
        &self.tables
    }

    /// Bytes of table payload in use.
    pub fn payload_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.entries_len() as u64).sum()
    }

    /// Mean entry of the first table over all its projected states.
    pub fn mean_entry(&self) -> f64 {
        self.tables.first().map_or(0.0, Pdb::mean_entry)
    }

    /// The preset the tables come from, if they make one.
    pub fn preset(&self) -> Option<Preset> {
        self.preset
    }

    /// The metric the tables measure.
    pub fn metric(&self) -> Metric {
        self.metric
    }
}

/// The `cubedb-gen` targets of the presets, both metrics each: `rubik` (small),
/// `rubik-medium`, `rubik-1g`, `rubik-large`, `rubik-huge`, `rubik-2g`, `rubik-5g` and
/// `rubik-8g`.
pub fn groups() -> Vec<TableGroup> {
    let group = |preset: Preset, about: &'static str| TableGroup {
        members: [Metric::Qtm, Metric::Htm]
            .into_iter()
            .map(|metric| GroupMember::of::<Pdbs>((preset, metric), Some(metric.name())))
            .collect(),
        ..TableGroup::new(preset.group(), about, Vec::new())
    };
    vec![
        group(
            Preset::Small,
            "Rubik's cube, small preset: corner + two 6-edge pattern databases, QTM and HTM",
        ),
        TableGroup {
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 34,
                peak_bytes: 280_000_000,
            }),
            ..group(
                Preset::TwoHundredMb,
                "Rubik's cube, 200m preset: flip-slice-twist with the E-slice pairing and parity in 2-bit entries around a base, 215 MB per metric, QTM and HTM",
            )
        },
        TableGroup {
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 600,
                peak_bytes: 2_000_000_000,
            }),
            ..group(
                Preset::Medium,
                "Rubik's cube, medium preset: corner + two 7-edge pattern databases, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 103,
                peak_bytes: 1_640_000_000,
            }),
            ..group(
                Preset::OneGb,
                "Rubik's cube, 1g preset: flip-slice-twist with the corner layers up to exchanging U and D, in 2-bit entries around a base, 1.25 GB per metric, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 395,
                peak_bytes: 6_600_000_000,
            }),
            ..group(
                Preset::Large,
                "Rubik's cube, large preset: the flip-slice-twist table reduced by 16 symmetries, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 1255,
                peak_bytes: 17_400_000_000,
            }),
            ..group(
                Preset::Huge,
                "Rubik's cube, huge preset: flip-slice-twist with corner layers reduced by 16 symmetries, 4.9 GB per metric, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 214,
                peak_bytes: 3_110_000_000,
            }),
            ..group(
                Preset::TwoGb,
                "Rubik's cube, 2g preset: flip-slice-twist with corner layers in 2-bit entries around a base, 2.5 GB per metric, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 680,
                peak_bytes: 7_400_000_000,
            }),
            ..group(
                Preset::FiveGb,
                "Rubik's cube, 5g preset: flip-slice-twist with corner layers and E-slice parity in 2-bit entries around a base, 5.0 GB per metric, QTM and HTM",
            )
        },
        TableGroup {
            by_default: false,
            measured_cost: Some(BuildCost {
                seconds_on_two_cores: 433,
                peak_bytes: 9_260_000_000,
            }),
            ..group(
                Preset::EightGb,
                "Rubik's cube, 8g preset: flip-slice-twist with corner layers and E-slice pairing in 2-bit entries around a base, 7.5 GB per metric, QTM and HTM",
            )
        },
    ]
}

impl TableFamily for Pdbs {
    type Params = (Preset, Metric);

    fn title((preset, metric): (Preset, Metric)) -> String {
        format!(
            "the {} preset's pattern databases ({metric:?})",
            preset.name()
        )
    }

    fn specs((preset, metric): (Preset, Metric)) -> Vec<TableSpec> {
        preset
            .patterns()
            .into_iter()
            .map(|(p, encoding)| spec(p, encoding, metric, preset.group()))
            .collect()
    }

    /// Each missing table (or, with [`Rebuild::All`], each table) by its own BFS.
    fn build(
        store: &TableStore,
        (preset, metric): (Preset, Metric),
        rebuild: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        for (pattern, encoding) in preset.patterns() {
            let params = (pattern, encoding, metric, preset.group());
            if rebuild == Rebuild::All || !Pdb::present(store, params) {
                Pdb::build(store, params, rebuild, progress)?;
            }
        }
        Ok(())
    }

    fn open(store: &TableStore, (preset, metric): (Preset, Metric)) -> Result<Self, TableError> {
        let tables = preset
            .patterns()
            .into_iter()
            .map(|(p, encoding)| Pdb::open(store, (p, encoding, metric, preset.group())))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Self {
            metric,
            preset: Some(preset),
            tables,
        })
    }
}
