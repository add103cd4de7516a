//! Where a definition's tables live and what building them may take: the folder, the
//! definition's name in their headers, the memory one build may use (`--memory`), where
//! progress goes, and whether tables already there are built again (`cubedb-gen
//! --force`). Every table of a definition (its exact table, pattern databases, a plan's
//! phase tables) is opened or built against one of these.

use crate::progress::Progress;
use crate::table::TableStore;

/// Memory a table build may use unless told otherwise (`--memory`), in MB: the command
/// line's default, and what the service, the event scramblers and Python open tables
/// with.
pub const DEFAULT_BUDGET_MB: u64 = 8192;

/// A table build refused for needing more memory than a site allows (carried by the
/// exact tables' `BuildTooBig` error where a table is opened).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{table}: {needed_mb:.0} MB to build, over the {budget_mb} MB allowed (--memory)")]
pub struct OverBudget {
    /// The table, in words (with the plan line that asks for it, where there is one).
    pub table: String,
    /// Memory the build needs.
    pub needed_mb: f64,
    /// The budget.
    pub budget_mb: u64,
}

/// Where tables are read and built, and within what.
#[derive(Clone, Copy)]
pub struct TableSite<'a> {
    /// The folder of table files.
    pub store: &'a TableStore,
    /// The definition, as tables name it (their rebuild hint).
    pub source: &'a str,
    /// Memory one build may use, in MB.
    pub budget_mb: u64,
    /// Where builds report.
    pub progress: &'a Progress,
    /// Build every table again, each replacing the old one by a rename.
    pub rebuild: bool,
    /// Build the large tables a plan names (`Large`) when missing; without it they are
    /// read when present, and the smaller tables serve when not.
    pub large: bool,
}

impl<'a> TableSite<'a> {
    /// Tables read from `store`, built there when missing, within `budget_mb`.
    pub fn new(
        store: &'a TableStore,
        source: &'a str,
        budget_mb: u64,
        progress: &'a Progress,
    ) -> Self {
        Self {
            store,
            source,
            budget_mb,
            progress,
            rebuild: false,
            large: false,
        }
    }

    /// The same site, building every table again when `rebuild`.
    pub fn rebuilding(self, rebuild: bool) -> Self {
        Self { rebuild, ..self }
    }

    /// The same site, building the plans' large tables when `large`.
    pub fn building_large(self, large: bool) -> Self {
        Self { large, ..self }
    }

    /// The budget in bytes.
    pub fn budget_bytes(&self) -> u64 {
        self.budget_mb.saturating_mul(1 << 20)
    }

    /// Refuses a build of `table` (named when refused) that needs `needed` bytes, more
    /// than the budget allows.
    pub fn within_budget(
        &self,
        table: impl FnOnce() -> String,
        needed: u64,
    ) -> Result<(), OverBudget> {
        if needed <= self.budget_bytes() {
            return Ok(());
        }
        Err(OverBudget {
            table: table(),
            needed_mb: needed as f64 / (1 << 20) as f64,
            budget_mb: self.budget_mb,
        })
    }
}
