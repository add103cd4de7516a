//! The rolling tables: exact answers for every judge query, and depths (mod 3) of every
//! state from every start, from which optimal paths are read back.
//!
//! Both come out of three BFS runs over the 15,116,544 ranks, from a corner, an edge and
//! the centre start; the board's symmetries carry the answers to the other six starts.

use super::ranking::{self, roll_rank, RollingSpace, CODES, PATTERNS, PATTERNS_PER_EMPTY, STATES};
use super::state::{Board, Roll};
use super::symmetry::Symmetry;
use crate::progress::Progress;
use crate::search::{layered_bfs, UNREACHED};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::packed::Crumbs;
use crate::table::{Table, TableError, TableSpec, TableStore};
use rayon::prelude::*;

/// Name of the `cubedb-gen` target that builds these tables.
pub const GROUP: &str = "rolling";
/// Number of start cells.
pub const STARTS: u32 = 9;
/// The starts BFS runs from: a corner, an edge and the centre. Every start is the image
/// of one of them under a board symmetry.
pub const REPRESENTATIVES: [usize; 3] = [0, 1, 4];
/// Value in the depth table of a state unreachable from that start.
const DEPTH_UNREACHED: u8 = 3;

/// `answers[start * PATTERNS + pattern]`: fewest rolls, [`UNREACHED`] if impossible.
pub fn answers_spec() -> TableSpec {
    TableSpec {
        name: "rolling-answers",
        group: GROUP,
        puzzle: "rolling",
        kind: "answers",
        params: vec![
            ("starts".into(), STARTS as u64),
            ("patterns".into(), PATTERNS as u64),
        ],
        entries: (STARTS * PATTERNS) as u64,
        bits_per_entry: 8,
    }
}

/// `depths[r * STATES + rank]`: depth mod 3 from representative start `r`, 3 if
/// unreachable.
pub fn depths_spec() -> TableSpec {
    TableSpec {
        name: "rolling-depths",
        group: GROUP,
        puzzle: "rolling",
        kind: "depth-mod3",
        params: vec![
            ("representative_starts".into(), REPRESENTATIVES.len() as u64),
            ("states".into(), STATES as u64),
        ],
        entries: REPRESENTATIVES.len() as u64 * STATES as u64,
        bits_per_entry: 2,
    }
}

/// The representative of `start`'s class (its index and cell) and a symmetry mapping the
/// representative onto `start`.
fn representative_of(start: usize) -> (usize, usize, Symmetry) {
    REPRESENTATIVES
        .iter()
        .enumerate()
        .find_map(|(index, &rep)| Symmetry::mapping(rep, start).map(|g| (index, rep, g)))
        .expect("every cell is the image of a corner, an edge or the centre")
}

/// The `cubedb-gen` target of these tables.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "cubic eight-puzzle: exact answers for all 531,441 judge inputs, and paths",
        vec![GroupMember::of::<RollingTables>(RollingUse::Paths, None)],
    )]
}

/// What the rolling tables are opened for: answers alone need the 0.5 MB answers table;
/// paths need the 11 MB depth table too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RollingUse {
    /// Fewest rolls only.
    Answers,
    /// Fewest rolls and optimal sequences of rolls ([`RollingTables::path`]).
    Paths,
}

impl TableFamily for RollingTables {
    type Params = RollingUse;

    fn title(_: RollingUse) -> String {
        "the rolling tables".into()
    }

    fn specs(used: RollingUse) -> Vec<TableSpec> {
        match used {
            RollingUse::Answers => vec![answers_spec()],
            RollingUse::Paths => vec![answers_spec(), depths_spec()],
        }
    }

    /// Both tables, from the same BFS runs.
    fn build(
        store: &TableStore,
        _: RollingUse,
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build(store, progress)
    }

    fn open(store: &TableStore, used: RollingUse) -> Result<Self, TableError> {
        Ok(Self {
            answers: store.open(&answers_spec())?,
            depths: match used {
                RollingUse::Answers => None,
                RollingUse::Paths => Some(store.open(&depths_spec())?),
            },
        })
    }
}

/// Runs the BFS from each representative start and writes both tables.
fn build(store: &TableStore, progress: &Progress) -> Result<(), TableError> {
    let patterns = PATTERNS as usize;
    let mut rep_answers = vec![UNREACHED; REPRESENTATIVES.len() * patterns];
    let mut depths = vec![0u8; (depths_spec().payload_len()) as usize];
    let mut depth_histogram: Vec<u64> = Vec::new();
    let crumbs_per_start = (STATES / 4) as usize;
    for (index, &start) in REPRESENTATIVES.iter().enumerate() {
        let source = ranking::rank(&Board::start(start)) as u64;
        let label = format!("rolling start {}/{}", index + 1, REPRESENTATIVES.len());
        let result = layered_bfs(&RollingSpace, &[source], progress, &label);
        for (d, &count) in result.histogram.iter().enumerate() {
            if depth_histogram.len() <= d {
                depth_histogram.push(0);
            }
            depth_histogram[d] += count;
        }
        reduce_to_patterns(
            &result.depths,
            &mut rep_answers[index * patterns..][..patterns],
        );
        pack_depths_mod3(
            &result.depths,
            &mut depths[index * crumbs_per_start..][..crumbs_per_start],
        );
    }
    // distance(s, p) = distance(g(s), g(p)): carry each representative's answers over.
    let mut answers = vec![UNREACHED; STARTS as usize * patterns];
    answers
        .par_chunks_mut(patterns)
        .enumerate()
        .for_each(|(start, slice)| {
            let (index, _, g) = representative_of(start);
            let source = &rep_answers[index * patterns..][..patterns];
            for (pattern, &d) in source.iter().enumerate() {
                slice[g.pattern(pattern as u32) as usize] = d;
            }
        });
    let mut answer_histogram = vec![0u64; 256];
    for &a in &answers {
        answer_histogram[a as usize] += 1;
    }
    let used = answer_histogram[..255]
        .iter()
        .rposition(|&c| c > 0)
        .map_or(0, |i| i + 1);
    answer_histogram.truncate(used);
    store.write(&answers_spec(), &answers, answer_histogram)?;
    store.write(&depths_spec(), &depths, depth_histogram)
}

/// `answers[pattern]` = least depth over the 256 boards showing that pattern.
fn reduce_to_patterns(depths: &[u8], answers: &mut [u8]) {
    answers
        .par_chunks_mut(PATTERNS_PER_EMPTY as usize)
        .enumerate()
        .for_each(|(empty, slice)| {
            let base = empty as u32 * CODES;
            let offset = empty as u32 * PATTERNS_PER_EMPTY;
            for code in 0..CODES {
                let d = depths[(base + code) as usize];
                let p = (ranking::pattern_of_rank(base + code) - offset) as usize;
                slice[p] = slice[p].min(d);
            }
        });
}

fn pack_depths_mod3(depths: &[u8], out: &mut [u8]) {
    out.par_chunks_mut(1 << 14)
        .zip(depths.par_chunks(4 << 14))
        .for_each(|(bytes, values)| {
            for (byte, four) in bytes.iter_mut().zip(values.chunks(4)) {
                *byte = four.iter().enumerate().fold(0u8, |acc, (i, &d)| {
                    let v = if d == UNREACHED {
                        DEPTH_UNREACHED
                    } else {
                        d % 3
                    };
                    acc | v << (2 * i)
                });
            }
        });
}

/// The opened, verified rolling tables.
#[derive(Debug)]
pub struct RollingTables {
    answers: Table,
    /// Opened for [`RollingUse::Paths`] only.
    depths: Option<Table>,
}

impl RollingTables {
    /// Fewest rolls from the start with `start` empty to goal `pattern`, `None` if
    /// impossible.
    #[inline]
    pub fn distance(&self, start: usize, pattern: u32) -> Option<u32> {
        let d = self.answers.payload()[start * PATTERNS as usize + pattern as usize];
        (d != UNREACHED).then_some(d as u32)
    }

    fn depth_mod3(&self, depths: &Table, rep_index: usize, rank: u32) -> u8 {
        Crumbs::new(depths.payload()).get(rep_index * STATES as usize + rank as usize)
    }

    /// Whether the tables were opened for paths ([`RollingUse::Paths`]).
    pub fn has_paths(&self) -> bool {
        self.depths.is_some()
    }

    /// Walks from `rank` back to representative start `rep` (index `rep_index`), one roll
    /// per step to a state one closer. Returns the rolls taken (from `rank` toward the
    /// start), or `None` if unreachable.
    fn walk_to_start(
        &self,
        depths: &Table,
        rep_index: usize,
        rep: usize,
        mut rank: u32,
    ) -> Option<Vec<Roll>> {
        let mut here = self.depth_mod3(depths, rep_index, rank);
        if here == DEPTH_UNREACHED {
            return None;
        }
        let start_rank = ranking::rank(&Board::start(rep));
        let mut rolls = Vec::new();
        while rank != start_rank {
            let closer = (here + 2) % 3;
            let (roll, next) = Roll::ALL
                .iter()
                .find_map(|&roll| {
                    let next = roll_rank(rank, roll)?;
                    (self.depth_mod3(depths, rep_index, next) == closer).then_some((roll, next))
                })
                .expect("a reachable state has a neighbour one roll closer to the start");
            rolls.push(roll);
            rank = next;
            here = closer;
        }
        Some(rolls)
    }

    /// An optimal sequence of rolls from the start to goal `pattern`, `None` if impossible.
    ///
    /// Solved in the frame of the start's representative, then mapped back.
    ///
    /// # Panics
    /// If the tables were opened without paths ([`RollingUse::Answers`]).
    pub fn path(&self, start: usize, pattern: u32) -> Option<Vec<Roll>> {
        let depths = self
            .depths
            .as_ref()
            .expect("paths need the tables opened with RollingUse::Paths");
        let distance = self.distance(start, pattern)? as usize;
        let (index, rep, g) = representative_of(start);
        let back = Symmetry::all()
            .find(|h| (0..9).all(|c| h.cell(g.cell(c)) == c))
            .expect("every symmetry has an inverse");
        ranking::ranks_of_pattern(back.pattern(pattern))
            .into_iter()
            .filter_map(|rank| self.walk_to_start(depths, index, rep, rank))
            .find(|walk| walk.len() == distance)
            .map(|walk| {
                walk.into_iter()
                    .rev()
                    .map(|r| g.roll(r.opposite()))
                    .collect()
            })
    }
}
