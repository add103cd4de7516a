//! The two engines: exact table lookups, and bidirectional BFS from scratch.

use super::goal::Query;
use super::ranking::{self, roll_rank};
use super::state::{Board, Roll};
use super::tables::RollingTables;
use crate::engine::Solve;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// An answer: the fewest rolls (if within the limit asked) and, on request, the rolls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Fewest rolls, `None` if more than the limit (or impossible).
    pub moves: Option<u32>,
    /// An optimal sequence of rolls, when asked for and `moves` is `Some`.
    pub path: Option<Vec<Roll>>,
}

/// What every answer of an engine includes besides the query: answers beyond `limit`
/// rolls are `None`, and with `with_path` an optimal sequence of rolls comes along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    /// Fewest rolls reported; more is answered `None`.
    pub limit: u32,
    /// Whether answers carry an optimal sequence of rolls.
    pub with_path: bool,
}

/// Answers by table lookup.
#[derive(Debug)]
pub struct TableSolver<'a> {
    tables: &'a RollingTables,
    options: Options,
}

impl<'a> TableSolver<'a> {
    /// A solver over loaded tables (opened with paths if `options` ask for them).
    pub fn new(tables: &'a RollingTables, options: Options) -> Self {
        assert!(
            !options.with_path || tables.has_paths(),
            "paths need the rolling tables opened with RollingUse::Paths"
        );
        Self { tables, options }
    }
}

impl Solve for TableSolver<'_> {
    type Query = Query;
    type Answer = Solution;

    /// Solves `query`, reporting `None` beyond the limit.
    fn solve(&self, query: &Query) -> Solution {
        let Options { limit, with_path } = self.options;
        let moves = self
            .tables
            .distance(query.start, query.pattern)
            .filter(|&d| d <= limit);
        let path = match moves {
            Some(_) if with_path => self.tables.path(query.start, query.pattern),
            _ => None,
        };
        Solution { moves, path }
    }
}

/// Multiply-shift hasher for ranks (they are already well spread).
#[derive(Default)]
struct RankHasher(u64);

impl Hasher for RankHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = (n as u64)
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .rotate_left(29);
    }
}

type DepthMap = HashMap<u32, u8, BuildHasherDefault<RankHasher>>;

/// Answers by bidirectional breadth-first search, with no precomputed table: forward
/// from the start, backward from the 256 boards showing the goal pattern, always growing
/// the smaller frontier by one whole layer.
#[derive(Debug)]
pub struct SearchSolver {
    options: Options,
}

impl SearchSolver {
    /// A search engine answering with `options`.
    pub fn new(options: Options) -> Self {
        Self { options }
    }
}

/// One side of the bidirectional search.
struct Side {
    seen: DepthMap,
    frontier: Vec<u32>,
    depth: u32,
}

impl Side {
    fn new(sources: impl IntoIterator<Item = u32>) -> Self {
        let mut seen = DepthMap::default();
        let frontier: Vec<u32> = sources
            .into_iter()
            .filter(|&r| seen.insert(r, 0).is_none())
            .collect();
        Self {
            seen,
            frontier,
            depth: 0,
        }
    }

    /// Grows one layer; returns the first new state the other side has seen.
    fn grow(&mut self, other: &Side) -> Option<u32> {
        let next_depth = self.depth + 1;
        let mut next = Vec::with_capacity(self.frontier.len() * 2);
        let mut meeting = None;
        for &rank in &self.frontier {
            for roll in Roll::ALL {
                let Some(n) = roll_rank(rank, roll) else {
                    continue;
                };
                if self.seen.contains_key(&n) {
                    continue;
                }
                self.seen.insert(n, next_depth as u8);
                next.push(n);
                if meeting.is_none() && other.seen.contains_key(&n) {
                    meeting = Some(n);
                }
            }
        }
        self.frontier = next;
        self.depth = next_depth;
        meeting
    }

    /// Rolls from `rank` to one of this side's sources, each step one layer closer.
    fn walk_to_source(&self, mut rank: u32) -> Vec<Roll> {
        let mut rolls = Vec::new();
        let mut depth = self.seen[&rank];
        while depth > 0 {
            let (roll, next) = Roll::ALL
                .iter()
                .find_map(|&roll| {
                    let next = roll_rank(rank, roll)?;
                    (self.seen.get(&next) == Some(&(depth - 1))).then_some((roll, next))
                })
                .expect("every seen state has a parent one layer closer");
            rolls.push(roll);
            rank = next;
            depth -= 1;
        }
        rolls
    }
}

impl Solve for SearchSolver {
    type Query = Query;
    type Answer = Solution;

    /// Solves `query` by search, giving up (answer `None`) beyond the limit.
    fn solve(&self, query: &Query) -> Solution {
        let Options { limit, with_path } = self.options;
        let start = ranking::rank(&Board::start(query.start));
        let mut forward = Side::new([start]);
        let mut backward = Side::new(ranking::ranks_of_pattern(query.pattern));
        if backward.seen.contains_key(&start) {
            return Solution {
                moves: Some(0),
                path: with_path.then(Vec::new),
            };
        }
        while forward.depth + backward.depth < limit {
            if forward.frontier.is_empty() || backward.frontier.is_empty() {
                break;
            }
            let grow_forward = forward.frontier.len() <= backward.frontier.len();
            let meeting = if grow_forward {
                forward.grow(&backward)
            } else {
                backward.grow(&forward)
            };
            if let Some(meet) = meeting {
                let moves = forward.seen[&meet] as u32 + backward.seen[&meet] as u32;
                let path = with_path.then(|| {
                    let mut rolls: Vec<Roll> = forward
                        .walk_to_source(meet)
                        .into_iter()
                        .rev()
                        .map(Roll::opposite)
                        .collect();
                    rolls.extend(backward.walk_to_source(meet));
                    rolls
                });
                return Solution {
                    moves: Some(moves),
                    path,
                };
            }
        }
        Solution {
            moves: None,
            path: None,
        }
    }
}

/// Applies `rolls` to the start board with `start` empty; `None` if a roll is impossible.
pub fn replay(start: usize, rolls: &[Roll]) -> Option<Board> {
    rolls
        .iter()
        .try_fold(Board::start(start), |board, &roll| board.roll(roll))
}
