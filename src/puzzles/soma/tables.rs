//! The catalogue of every assembly, as two table files:
//!
//! - `soma-assemblies`: every assembly as 27 letters, grouped by the orientation of piece
//!   `a` (orientation 0 first), ascending within each group;
//! - `soma-index`: `offsets[k]` (`u32` LE, one per orientation of `a`, plus the total), the
//!   first assembly of group `k`; group `k` is `offsets[k]..offsets[k + 1]`.
//!
//! A query for one orientation of `a` thus reads its assemblies as one contiguous slice,
//! already in judge output order.

use super::assembly::{a_orientation, enumerate_all, Assembly};
use super::geometry::{geometry, CELLS, PIECES};
use crate::progress::Progress;
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::{Table, TableError, TableSpec, TableStore};
use std::sync::OnceLock;

/// Name of the `cubedb-gen` target that builds these tables.
pub const GROUP: &str = "soma";
/// Bytes of one assembly in the catalogue.
pub const ASSEMBLY_BYTES: usize = CELLS;

/// Number of orientations of piece `a` (computed from its cells).
fn orientations() -> usize {
    geometry().piece_a().orientations.len()
}

/// The index table: one `u32` offset per orientation of `a`, then the total.
pub fn index_spec() -> TableSpec {
    TableSpec {
        name: "soma-index",
        group: GROUP,
        puzzle: "soma",
        kind: "catalogue-index",
        params: vec![
            ("orientations".into(), orientations() as u64),
            ("cells".into(), CELLS as u64),
        ],
        entries: orientations() as u64 + 1,
        bits_per_entry: 32,
    }
}

/// The assemblies table holding `count` assemblies of 27 letters each.
pub fn assemblies_spec(count: u64) -> TableSpec {
    TableSpec {
        name: "soma-assemblies",
        group: GROUP,
        puzzle: "soma",
        kind: "assemblies",
        params: vec![
            ("cells".into(), CELLS as u64),
            ("pieces".into(), PIECES as u64),
        ],
        entries: count,
        bits_per_entry: (ASSEMBLY_BYTES * 8) as u32,
    }
}

/// The `cubedb-gen` target of the catalogue.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "Soma cube: every assembly, indexed by the orientation of piece a",
        vec![GroupMember::of::<SomaTables>((), None)],
    )]
}

impl TableFamily for SomaTables {
    type Params = ();

    fn title((): ()) -> String {
        "the soma catalogue".into()
    }

    /// The size of the catalogue is the number of assemblies, which is not typed in
    /// anywhere: the first call solves the exact cover (a few milliseconds) to learn it.
    /// Loading the tables for queries does not call this; it takes the size from the
    /// verified index.
    fn specs((): ()) -> Vec<TableSpec> {
        static COUNT: OnceLock<u64> = OnceLock::new();
        let count = *COUNT.get_or_init(|| enumerate_all(geometry()).0.len() as u64);
        vec![index_spec(), assemblies_spec(count)]
    }

    fn present(store: &TableStore, (): ()) -> bool {
        store.exists(&index_spec()) && store.exists(&assemblies_spec(0))
    }

    fn build(
        store: &TableStore,
        (): (),
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build(store, progress)
    }

    /// Beyond the header, length and checksum checks of every table, the contents are
    /// checked: offsets ascending and matching the assemblies table's size, every
    /// assembly a tiling with piece `a` in its group's orientation, each group ascending.
    fn open(store: &TableStore, (): ()) -> Result<Self, TableError> {
        let index = store.open(&index_spec())?;
        let offsets: Vec<usize> = index
            .payload()
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
            .collect();
        let bad = |table: &Table, found: String, expected: &str| TableError::WrongTable {
            path: table.path().to_path_buf(),
            group: GROUP,
            found,
            expected: expected.to_string(),
        };
        if offsets.first() != Some(&0) || offsets.windows(2).any(|w| w[0] > w[1]) {
            return Err(bad(
                &index,
                format!("offsets {offsets:?}"),
                "ascending offsets from 0",
            ));
        }
        let count = offsets.last().copied().unwrap_or(0) as u64;
        let assemblies = store.open(&assemblies_spec(count))?;
        let tables = Self {
            assemblies,
            offsets,
        };
        tables.check_contents()?;
        Ok(tables)
    }
}

/// Enumerates every assembly and writes the catalogue.
fn build(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    let g = geometry();
    let (mut all, stats) = enumerate_all(g);
    progress.note(format!(
        "soma: {} assemblies: {} by exact cover with piece a fixed ({} search nodes), \
         each turned 24 ways",
        all.len(),
        stats.solutions,
        stats.nodes
    ));
    let mut keyed: Vec<(usize, Assembly)> = all
        .drain(..)
        .map(|assembly| {
            let orientation = a_orientation(g, &assembly)
                .expect("exact cover places piece a in one of its orientations");
            (orientation, assembly)
        })
        .collect();
    keyed.sort_unstable();
    let mut counts = vec![0u64; orientations()];
    for &(orientation, _) in &keyed {
        counts[orientation] += 1;
    }
    let mut index = Vec::with_capacity(4 * (counts.len() + 1));
    let mut offset = 0u32;
    index.extend_from_slice(&offset.to_le_bytes());
    for &count in &counts {
        offset += count as u32;
        index.extend_from_slice(&offset.to_le_bytes());
    }
    let payload: Vec<u8> = keyed.iter().flat_map(|(_, a)| a.0).collect();
    store.write(
        &assemblies_spec(keyed.len() as u64),
        &payload,
        counts.clone(),
    )?;
    // The index last: it is what says the catalogue is complete.
    store.write(&index_spec(), &index, counts)
}

/// The opened, verified catalogue.
#[derive(Debug)]
pub struct SomaTables {
    assemblies: Table,
    offsets: Vec<usize>,
}

impl SomaTables {
    fn check_contents(&self) -> Result<(), TableError> {
        let g = geometry();
        for orientation in 0..self.orientations() {
            let mut previous: Option<Assembly> = None;
            for assembly in self.assemblies(orientation) {
                let problem = if let Err(problem) = g.check_tiling(&assembly.0) {
                    Some(problem)
                } else if a_orientation(g, &assembly) != Some(orientation) {
                    Some(format!("piece a not in orientation {orientation}"))
                } else if previous.is_some_and(|p| p >= assembly) {
                    Some("assemblies out of order".to_string())
                } else {
                    None
                };
                if let Some(problem) = problem {
                    return Err(TableError::WrongTable {
                        path: self.assemblies.path().to_path_buf(),
                        group: GROUP,
                        found: format!("assembly {assembly}: {problem}"),
                        expected: "assemblies of the seven pieces".to_string(),
                    });
                }
                previous = Some(assembly);
            }
        }
        Ok(())
    }

    /// Number of orientations of piece `a` (groups of the catalogue).
    pub fn orientations(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Number of assemblies in the catalogue.
    pub fn len(&self) -> usize {
        self.offsets[self.orientations()]
    }

    /// Whether the catalogue holds no assembly at all.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The assemblies with piece `a` in orientation `orientation`, as 27 bytes each, in
    /// ascending order.
    pub fn group_bytes(&self, orientation: usize) -> &[u8] {
        let first = self.offsets[orientation] * ASSEMBLY_BYTES;
        let last = self.offsets[orientation + 1] * ASSEMBLY_BYTES;
        &self.assemblies.payload()[first..last]
    }

    /// The assemblies with piece `a` in orientation `orientation`, ascending.
    pub fn assemblies(&self, orientation: usize) -> impl Iterator<Item = Assembly> + '_ {
        self.group_bytes(orientation)
            .chunks_exact(ASSEMBLY_BYTES)
            .map(|bytes| {
                let mut letters = [0u8; CELLS];
                letters.copy_from_slice(bytes);
                Assembly(letters)
            })
    }

    /// Every assembly in the catalogue.
    pub fn all(&self) -> Vec<Assembly> {
        (0..self.orientations())
            .flat_map(|k| self.assemblies(k))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn temp_store(tag: &str) -> TableStore {
        let dir: PathBuf =
            std::env::temp_dir().join(format!("cubedb-soma-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TableStore::new(dir)
    }

    #[test]
    fn catalogue_round_trips_and_groups_by_orientation() {
        let store = temp_store("round");
        let tables = SomaTables::load_or_build(&store, (), &Progress::hidden()).unwrap();
        let (mut all, _) = enumerate_all(geometry());
        all.sort_unstable();
        let mut stored = tables.all();
        stored.sort_unstable();
        assert_eq!(stored, all);
        for k in 0..tables.orientations() {
            let group: Vec<_> = tables.assemblies(k).collect();
            assert_eq!(group.len(), 480);
            assert!(group
                .iter()
                .all(|a| a_orientation(geometry(), a) == Some(k)));
        }
        let _ = std::fs::remove_dir_all(store.dir());
    }

    /// Files with good checksums but wrong contents (as a buggy builder would write) are
    /// refused too.
    #[test]
    fn well_formed_files_with_wrong_contents_are_refused() {
        let store = temp_store("contents");
        build(&store, &Progress::hidden()).unwrap();
        let index = store.open(&index_spec()).unwrap().payload().to_vec();
        let good = store
            .open(&assemblies_spec(11_520))
            .unwrap()
            .payload()
            .to_vec();
        let counts = vec![480; 24];
        let refused = |payload: &[u8], index: &[u8]| {
            store
                .write(
                    &assemblies_spec(payload.len() as u64 / 27),
                    payload,
                    counts.clone(),
                )
                .unwrap();
            store.write(&index_spec(), index, counts.clone()).unwrap();
            SomaTables::load_or_build(&store, (), &Progress::hidden()).is_err()
        };
        // Two assemblies of a group swapped (out of order).
        let mut bad = good.clone();
        let (first, second) = bad.split_at_mut(27);
        first.swap_with_slice(&mut second[..27]);
        assert!(refused(&bad, &index));
        // Two cells of an assembly swapped (no longer a tiling).
        let mut bad = good.clone();
        let other = (1..27).find(|&i| bad[i] != bad[0]).unwrap();
        bad.swap(0, other);
        assert!(refused(&bad, &index));
        // An assembly in the wrong orientation's group.
        let mut bad = good.clone();
        bad.copy_within(480 * 27..481 * 27, 0);
        assert!(refused(&bad, &index));
        // Offsets not ascending, and offsets beyond the assemblies.
        let mut bad_index = index.clone();
        bad_index[4..8].copy_from_slice(&500u32.to_le_bytes());
        assert!(refused(&good, &bad_index));
        let mut bad_index = index.clone();
        let end = bad_index.len();
        bad_index[end - 4..].copy_from_slice(&11_521u32.to_le_bytes());
        assert!(refused(&good, &bad_index));
        // And the untouched files load.
        assert!(!refused(&good, &index));
        let _ = std::fs::remove_dir_all(store.dir());
    }
}
