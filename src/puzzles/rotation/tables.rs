//! The distance table: for each of the C(24,8) masks one digit can occupy, the fewest
//! moves that bring that digit into all eight centre cells.

use super::ranking::{rank, RotationSpace, CENTRE_MASK, MASKS};
use crate::progress::Progress;
use crate::search::{layered_bfs, UNREACHED};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::packed::{pack, Nibbles};
use crate::table::{Table, TableError, TableSpec, TableStore};

/// Name of the `cubedb-gen` target that builds this table.
pub const GROUP: &str = "rotation";

/// `distances[rank(mask)]`, 4 bits per entry (the farthest mask is 14 moves away).
pub fn distances_spec() -> TableSpec {
    TableSpec {
        name: "rotation-distances",
        group: GROUP,
        puzzle: "rotation",
        kind: "distance-to-centre",
        params: vec![("masks".into(), MASKS as u64)],
        entries: MASKS as u64,
        bits_per_entry: 4,
    }
}

/// The `cubedb-gen` target of this table.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "rotation game: distance to the centre for all C(24,8) digit patterns",
        vec![GroupMember::of::<RotationTable>((), None)],
    )]
}

impl TableFamily for RotationTable {
    type Params = ();

    fn title((): ()) -> String {
        "the rotation table".into()
    }

    fn specs((): ()) -> Vec<TableSpec> {
        vec![distances_spec()]
    }

    fn build(
        store: &TableStore,
        (): (),
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build(store, progress)
    }

    fn open(store: &TableStore, (): ()) -> Result<Self, TableError> {
        Ok(Self {
            table: store.open(&distances_spec())?,
        })
    }
}

/// Runs the BFS from the centre mask and writes the table.
fn build(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    let result = layered_bfs(
        &RotationSpace::new(),
        &[rank(CENTRE_MASK) as u64],
        progress,
        "rotation",
    );
    assert!(
        result.depths.iter().all(|&d| d != UNREACHED && d < 16),
        "every mask reaches the centre within 15 moves"
    );
    store.write(
        &distances_spec(),
        &pack(&result.depths, 4),
        result.histogram,
    )
}

/// The opened, verified distance table.
#[derive(Debug)]
pub struct RotationTable {
    table: Table,
}

impl RotationTable {
    /// Fewest moves that bring the digit occupying `mask` into the centre.
    #[inline]
    pub fn distance(&self, mask: u32) -> u32 {
        Nibbles::new(self.table.payload()).get(rank(mask) as usize) as u32
    }
}

impl RotationTable {
    /// Every judge input whose answer is at least `min_moves`, found from the table alone:
    /// three disjoint masks (digits 1, 2, 3), each at least `min_moves` from the centre.
    pub fn inputs_needing_at_least(&self, min_moves: u32) -> Vec<super::state::Board> {
        let far: Vec<u32> = (0..MASKS)
            .map(super::ranking::unrank)
            .filter(|&m| self.distance(m) >= min_moves)
            .collect();
        let all_cells = (1u32 << super::state::CELLS) - 1;
        let mut boards = Vec::new();
        for &ones in &far {
            for &twos in far.iter().filter(|&&m| m & ones == 0) {
                let threes = all_cells & !(ones | twos);
                if self.distance(threes) >= min_moves {
                    let cells = std::array::from_fn(|i| {
                        if ones >> i & 1 == 1 {
                            1
                        } else if twos >> i & 1 == 1 {
                            2
                        } else {
                            3
                        }
                    });
                    boards.push(super::state::Board { cells });
                }
            }
        }
        boards
    }
}
