//! What a caller expects a table file to be: its name, group, identity and size.

use super::packed;

/// What a caller expects a table file to be; opening checks the file against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// File stem under the data directory, e.g. `rolling-answers` -> `rolling-answers.cdb`.
    pub name: &'static str,
    /// The `cubedb-gen` target that builds this table, named in every error about it.
    pub group: &'static str,
    /// Puzzle the table belongs to.
    pub puzzle: &'static str,
    /// What the entries mean.
    pub kind: &'static str,
    /// Parameters the contents depend on.
    pub params: Vec<(String, u64)>,
    /// Number of entries.
    pub entries: u64,
    /// Width of one entry in bits.
    pub bits_per_entry: u32,
}

impl TableSpec {
    /// File name of this table inside a data directory.
    pub fn file_name(&self) -> String {
        format!("{}.cdb", self.name)
    }

    /// Payload length in bytes implied by entries and entry width.
    pub fn payload_len(&self) -> u64 {
        packed::packed_len(self.entries, self.bits_per_entry)
    }

    pub(super) fn describe_params(params: &[(String, u64)]) -> String {
        params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// A `'static` copy of a table name made at run time (a puzzle definition's hash in it),
/// kept once per distinct name: specs name their tables with `&'static str`.
pub fn intern(name: String) -> &'static str {
    use std::collections::HashSet;
    use std::sync::{LazyLock, Mutex};
    static NAMES: LazyLock<Mutex<HashSet<&'static str>>> = LazyLock::new(Default::default);
    let mut names = NAMES.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(&known) = names.get(name.as_str()) {
        return known;
    }
    let leaked: &'static str = Box::leak(name.into_boxed_str());
    names.insert(leaked);
    leaked
}
