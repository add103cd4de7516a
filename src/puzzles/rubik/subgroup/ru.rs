//! The `<R,U>` subgroup whole: every one of its 73,483,200 positions with its distance
//! (mod 3) in each metric, so a position is solved optimally with R and U turns by
//! walking down the table, in microseconds.
//!
//! R and U move only the six corners and seven edges of the U and R layers, never flip an
//! edge, and keep the other pieces home. A position is indexed by its corner part (one of
//! 29,160 arrangements and twists the moves reach: 120 of the 720 corner orders, times
//! 3^5 twists) and its edge order (one of 7!; its parity is the corner order's, so only
//! 2,520 remain): 29,160 x 2,520 = 73,483,200 ranks, each a position of the group. The
//! parts are numbered in the order a breadth-first search from solved meets them, with
//! move tables for both, so nothing is typed in.

use crate::progress::Progress;
use crate::puzzles::rubik::coord::projection::Numbered;
use crate::puzzles::rubik::model::cube::{permutation_parity, Cube, Face, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::bfs::{layered_bfs, RankedSpace, UNREACHED};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::packed::{pack, Crumbs};
use crate::table::{Table, TableError, TableSpec, TableStore};
use std::collections::HashMap;
use std::sync::LazyLock;

/// The `cubedb-gen` target of these tables.
pub const GROUP: &str = "rubik-ru";

/// Corner slots R and U move: URF, UFL, ULB, UBR, DFR, DRB.
const CORNER_SLOTS: [usize; 6] = [0, 1, 2, 3, 4, 7];
/// Edge slots R and U move: UR, UF, UL, UB, DR, FR, BR.
const EDGE_SLOTS: [usize; 7] = [0, 1, 2, 3, 4, 8, 11];
/// Positions of the corner part.
const CORNER_STATES: usize = 29_160;
/// Edge orders of one parity.
const EDGE_HALF: usize = 2_520;
/// Positions of the group.
pub const POSITIONS: u64 = (CORNER_STATES * EDGE_HALF) as u64;

/// The six face turns of R and U, in move-index order.
fn turns() -> [Move; 6] {
    [Face::U, Face::R]
        .map(|f| [1, 2, 3].map(|t| Move::new(f, t)))
        .concat()[..]
        .try_into()
        .expect("six turns")
}

/// The turns of R and U in `metric`.
pub fn metric_turns(metric: Metric) -> Vec<Move> {
    turns()
        .into_iter()
        .filter(|m| metric == Metric::Htm || m.is_quarter())
        .collect()
}

/// Numbering and move tables of the two parts.
struct Parts {
    corner_index: HashMap<[u8; 12], u16>,
    corner_moves: Vec<[u16; 6]>,
    corner_parity: Vec<u8>,
    edge_index: HashMap<[u8; 7], u16>,
    edge_moves: Vec<[u16; 6]>,
    edge_parity: Vec<u8>,
    /// Rank of each edge order among those of its parity.
    edge_half: Vec<u16>,
    /// Edge orders by parity and rank.
    edge_by_half: [Vec<u16>; 2],
}

fn corner_key(cube: &Cube) -> [u8; 12] {
    let mut key = [0u8; 12];
    for (i, &slot) in CORNER_SLOTS.iter().enumerate() {
        key[2 * i] = cube.cp[slot];
        key[2 * i + 1] = cube.co[slot];
    }
    key
}

fn edge_key(cube: &Cube) -> [u8; 7] {
    EDGE_SLOTS.map(|slot| cube.ep[slot])
}

/// Numbers the states a BFS from solved meets through R and U (by `key`), with their
/// move tables.
fn number_states<K: std::hash::Hash + Eq + Copy>(
    key: impl Fn(&Cube) -> K,
) -> (HashMap<K, u16>, Vec<Cube>, Vec<[u16; 6]>) {
    let moves = turns();
    let numbered = Numbered::<Cube, K, 6>::new(
        Cube::SOLVED,
        |cube, k| cube.then(&MOVE_CUBES[moves[k].index()]),
        key,
    );
    let narrow = |i: u32| u16::try_from(i).expect("part numbers fit 16 bits");
    let index = numbered
        .index
        .into_iter()
        .map(|(k, i)| (k, narrow(i)))
        .collect();
    let table = numbered.moves.iter().map(|row| row.map(narrow)).collect();
    (index, numbered.states, table)
}

static PARTS: LazyLock<Parts> = LazyLock::new(|| {
    let (corner_index, corner_reps, corner_moves) = number_states(corner_key);
    assert_eq!(corner_reps.len(), CORNER_STATES);
    let corner_parity = corner_reps
        .iter()
        .map(|c| permutation_parity(&c.cp) as u8)
        .collect();
    let (edge_index, edge_reps, edge_moves) = number_states(edge_key);
    let mut edge_by_half = [Vec::new(), Vec::new()];
    let mut edge_half = Vec::with_capacity(edge_reps.len());
    let mut edge_parity = Vec::with_capacity(edge_reps.len());
    for (i, cube) in edge_reps.iter().enumerate() {
        let parity = permutation_parity(&cube.ep) as usize;
        edge_parity.push(parity as u8);
        edge_half.push(edge_by_half[parity].len() as u16);
        edge_by_half[parity].push(i as u16);
    }
    assert!(edge_by_half.iter().all(|half| half.len() == EDGE_HALF));
    Parts {
        corner_index,
        corner_moves,
        corner_parity,
        edge_index,
        edge_moves,
        edge_parity,
        edge_half,
        edge_by_half,
    }
});

impl Parts {
    fn rank(&self, corner: u16, edge: u16) -> u64 {
        corner as u64 * EDGE_HALF as u64 + self.edge_half[edge as usize] as u64
    }

    fn parts_of(&self, rank: u64) -> (u16, u16) {
        let corner = (rank / EDGE_HALF as u64) as usize;
        let parity = self.corner_parity[corner] as usize;
        (
            corner as u16,
            self.edge_by_half[parity][(rank % EDGE_HALF as u64) as usize],
        )
    }

    /// The rank after turn number `k` (of [`turns`]).
    fn after(&self, rank: u64, k: usize) -> u64 {
        let (corner, edge) = self.parts_of(rank);
        self.rank(
            self.corner_moves[corner as usize][k],
            self.edge_moves[edge as usize][k],
        )
    }

    /// The rank of `cube`, if it is a position of the group.
    fn rank_of(&self, cube: &Cube) -> Option<u64> {
        let others_home = (0..8)
            .all(|s| CORNER_SLOTS.contains(&s) || cube.cp[s] as usize == s && cube.co[s] == 0)
            && (0..12).all(|s| EDGE_SLOTS.contains(&s) || cube.ep[s] as usize == s)
            && cube.eo.iter().all(|&o| o == 0);
        if !others_home {
            return None;
        }
        let corner = *self.corner_index.get(&corner_key(cube))?;
        let edge = *self.edge_index.get(&edge_key(cube))?;
        (self.corner_parity[corner as usize] == self.edge_parity[edge as usize])
            .then(|| self.rank(corner, edge))
    }
}

/// The group with the turns of one metric, for the shared BFS.
struct RuSpace {
    /// Indices into [`turns`] of the metric's turns.
    turns: Vec<usize>,
}

impl RankedSpace for RuSpace {
    fn size(&self) -> u64 {
        POSITIONS
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let parts = &*PARTS;
        let (corner, edge) = parts.parts_of(rank);
        for &k in &self.turns {
            visit(parts.rank(
                parts.corner_moves[corner as usize][k],
                parts.edge_moves[edge as usize][k],
            ));
        }
    }
}

fn turn_indices(metric: Metric) -> Vec<usize> {
    let all = turns();
    metric_turns(metric)
        .iter()
        .map(|m| all.iter().position(|x| x == m).expect("a turn of R or U"))
        .collect()
}

/// The table of one metric.
pub fn spec(metric: Metric) -> TableSpec {
    let name = match metric {
        Metric::Qtm => "rubik-ru-qtm",
        Metric::Htm => "rubik-ru-htm",
    };
    TableSpec {
        name,
        group: GROUP,
        puzzle: "rubik",
        kind: name,
        params: vec![("positions".into(), POSITIONS)],
        entries: POSITIONS,
        bits_per_entry: 2,
    }
}

/// The `cubedb-gen` target of the `<R,U>` tables.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "Rubik's cube, the <R,U> subgroup: all 73,483,200 positions, distance mod 3, both metrics (37 MB)",
        [Metric::Htm, Metric::Qtm]
            .into_iter()
            .map(|metric| GroupMember::of::<RuTable>(metric, Some(metric.name())))
            .collect(),
    )]
}

impl TableFamily for RuTable {
    type Params = Metric;

    fn title(metric: Metric) -> String {
        format!("the <R,U> table ({metric:?})")
    }

    fn specs(metric: Metric) -> Vec<TableSpec> {
        vec![spec(metric)]
    }

    fn build(
        store: &TableStore,
        metric: Metric,
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build_metric(store, metric, progress)
    }

    fn open(store: &TableStore, metric: Metric) -> Result<Self, TableError> {
        Ok(Self {
            table: store.open(&spec(metric))?,
            turns: turn_indices(metric),
        })
    }
}

fn build_metric(store: &TableStore, metric: Metric, progress: &Progress) -> Result<(), TableError> {
    let space = RuSpace {
        turns: turn_indices(metric),
    };
    let result = layered_bfs(&space, &[0], progress, &format!("<R,U> ({metric:?})"));
    let mod3: Vec<u8> = result
        .depths
        .iter()
        .map(|&d| {
            assert!(d != UNREACHED, "every rank is a position of the group");
            d % 3
        })
        .collect();
    store.write(&spec(metric), &pack(&mod3, 2), result.histogram)
}

/// The opened table of one metric.
#[derive(Debug)]
pub struct RuTable {
    table: Table,
    /// Indices into [`turns`] of the metric's turns.
    turns: Vec<usize>,
}

impl RuTable {
    /// An optimal solution of `cube` with R and U turns of the table's metric, or `None`
    /// if the cube is not in the group.
    pub fn solve(&self, cube: &Cube) -> Option<Vec<Move>> {
        let parts = &*PARTS;
        let mut rank = parts.rank_of(cube)?;
        let depths = Crumbs::new(self.table.payload());
        let all = turns();
        let mut here = depths.get(rank as usize);
        let mut moves = Vec::new();
        while rank != 0 {
            // A neighbour one closer has depth one less, mod 3: rank the neighbours, then
            // take the first one that is closer.
            let mut next = [(0usize, 0u64); 6];
            for (slot, &k) in next.iter_mut().zip(&self.turns) {
                *slot = (k, parts.after(rank, k));
            }
            let want = (here + 2) % 3;
            let &(k, closer) = next[..self.turns.len()]
                .iter()
                .find(|&&(_, r)| depths.get(r as usize) == want)?;
            moves.push(all[k]);
            rank = closer;
            here = want;
        }
        Some(moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_number_every_reachable_state_once() {
        let parts = &*PARTS;
        assert_eq!(parts.corner_moves.len(), CORNER_STATES);
        assert_eq!(parts.edge_moves.len(), 5040);
        // Ranks and positions agree along random walks.
        let mut rng = crate::rng::SplitMix64::new(4);
        let all = turns();
        let mut cube = Cube::SOLVED;
        let mut rank = 0;
        for _ in 0..2000 {
            let k = rng.below(6) as usize;
            cube = cube.apply(all[k]);
            rank = parts.after(rank, k);
            assert_eq!(parts.rank_of(&cube), Some(rank));
        }
        assert_eq!(
            parts.rank_of(&Cube::from_moves(&[Move::new(Face::F, 1)])),
            None
        );
    }
}
