//! Cheapest routes: Dijkstra's algorithm over (square, orientation) states.
//!
//! A state is `square * 24 + orientation`. Rolling into a state costs the number then on
//! the bottom face. The search runs on reduced costs (A* with a consistent heuristic):
//! with `least` the smallest of the six numbers and `h` the taxicab distance to the end,
//! every roll costs at least `least` and changes `h` by one, so a roll toward the end costs
//! `value - least` and one away `value + least`, never negative. Keys are `g + least * h`,
//! which at the end square is the exact sum.
//!
//! Every edge weight is therefore one of twelve numbers (six faces, toward or away). That
//! allows a priority queue without a heap: twelve FIFO queues, one per weight. States are
//! settled in key order, so the keys appended to each queue (settled key + that queue's
//! weight) arrive in order, and the next state to settle is at the head of one of the
//! queues. Each queue operation is O(1); the smallest head is found with one branch-free
//! `min` over packed (key, queue) words.
//!
//! Distances are kept in `u32` (the common case: on a board of `n` squares a cheapest
//! route visits each of the `24 n` states at most once, so it costs at most `24 000 n`);
//! if a key would not fit, the search is redone in `u64`. Memory: one distance and one
//! byte (the direction the state was entered from) per state, ~120 MB on 1000x1000.

use super::board::Board;
use super::cube::{Direction, OrientationTable, BOTTOM, DIRECTIONS, FACES, ORIENTATIONS, TABLE};
use std::collections::VecDeque;
use thiserror::Error;

/// Largest number allowed on a face.
pub const MAX_VALUE: u16 = 1000;

/// One query: walk from `start` to `end` (square indices, both on the board, not blocked,
/// different), the six numbers in judge order (near, far, top, right, bottom, left).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Case {
    /// Start square.
    pub start: u32,
    /// End square.
    pub end: u32,
    /// Numbers on the near, far, top, right, bottom and left faces at the start.
    pub values: [u16; FACES],
}

impl Case {
    /// A random case on a board of `size` (at least 2 squares): distinct squares, numbers
    /// in 0..=1000 (for benchmarks and tests).
    pub fn random(rng: &mut crate::rng::SplitMix64, size: super::BoardSize) -> Case {
        let squares = size.squares() as u64;
        let start = rng.below(squares) as u32;
        let mut end = rng.below(squares - 1) as u32;
        if end >= start {
            end += 1;
        }
        Case {
            start,
            end,
            values: std::array::from_fn(|_| rng.below(MAX_VALUE as u64 + 1) as u16),
        }
    }
}

/// A cheapest route: its cost (bottom numbers summed, start and end included) and the
/// squares from start to end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The minimal sum.
    pub cost: u64,
    /// Squares visited, `start` first and `end` last.
    pub squares: Vec<u32>,
}

/// A sum did not fit the distance type in use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("a route cost does not fit the distance type")]
pub struct CostOverflow;

/// An unsigned distance type for [`Dijkstra`]; its largest value means "not reached".
pub trait Cost: Copy + Ord + Into<u64> + std::fmt::Debug {
    /// "Not reached yet"; never a real distance.
    const INFINITE: Self;
    /// `value` as a distance, or `None` if it does not fit below [`Cost::INFINITE`].
    fn from_u64(value: u64) -> Option<Self>;
    /// `self + other`, or `None` if the sum would reach [`Cost::INFINITE`].
    fn plus(self, other: Self) -> Option<Self>;
}

macro_rules! impl_cost {
    ($($t:ty),*) => {$(
        impl Cost for $t {
            const INFINITE: Self = <$t>::MAX;
            #[inline]
            fn from_u64(value: u64) -> Option<Self> {
                <$t>::try_from(value).ok().filter(|&v| v != Self::INFINITE)
            }
            #[inline]
            fn plus(self, other: Self) -> Option<Self> {
                self.checked_add(other).filter(|&s| s != Self::INFINITE)
            }
        }
    )*};
}
impl_cost!(u16, u32, u64);

/// Number of FIFO queues: one per (bottom face, toward or away from the end).
const QUEUES: usize = 2 * FACES;

/// Bits of a packed queue head that hold the queue index.
const QUEUE_BITS: u32 = 4;
/// Mask of the queue index in a packed head.
const QUEUE_MASK: u64 = (1 << QUEUE_BITS) - 1;
/// Packed head of an empty queue.
const EMPTY: u64 = u64::MAX;

/// The packed head for `key` at the front of queue `queue`. Keys stay far below 2^60:
/// at most 24 * 2^22 states times 2000 per step.
#[inline]
fn head<D: Cost>(key: D, queue: usize) -> u64 {
    let key: u64 = key.into();
    debug_assert!(key < 1 << (64 - QUEUE_BITS));
    key << QUEUE_BITS | queue as u64
}

/// `parent` entry of the start state (directions are 0..4).
const START: u8 = DIRECTIONS as u8;

/// Reusable working memory for the search, with distances of type `D`.
#[derive(Debug, Clone)]
pub struct Dijkstra<D> {
    dist: Vec<D>,
    /// Direction each reached state was last improved from, or [`START`].
    parent: Vec<u8>,
    /// One FIFO per (bottom face, toward or away): (key, state), keys non-decreasing.
    queues: [VecDeque<(D, u32)>; QUEUES],
}

impl<D: Cost> Default for Dijkstra<D> {
    fn default() -> Self {
        Self {
            dist: Vec::new(),
            parent: Vec::new(),
            queues: std::array::from_fn(|_| VecDeque::new()),
        }
    }
}

impl<D: Cost> Dijkstra<D> {
    /// Empty working memory; it grows to the board on first use.
    pub fn new() -> Self {
        Self::default()
    }

    /// Finds a cheapest route for `case` on `board`, writing its squares into `squares`
    /// and returning its cost; `Ok(None)` if the end cannot be reached.
    ///
    /// Deterministic: among equal keys the lower queue index goes first, and within a
    /// queue the earlier entry.
    pub fn run(
        &mut self,
        board: &Board,
        case: &Case,
        squares: &mut Vec<u32>,
    ) -> Result<Option<D>, CostOverflow> {
        let table: &OrientationTable = &TABLE;
        let size = board.size();
        let states = size.squares() * ORIENTATIONS;
        if self.dist.len() != states {
            self.dist = vec![D::INFINITE; states];
            self.parent = vec![0; states];
        } else {
            self.dist.fill(D::INFINITE);
        }
        let dist = &mut self.dist[..];
        let parent = &mut self.parent[..];
        let queues = &mut self.queues;
        queues.iter_mut().for_each(VecDeque::clear);

        // Potential: `least` (the smallest number) times the taxicab distance to the end.
        // Rolling toward the end then costs `value - least`, away `value + least`.
        let least = *case.values.iter().min().unwrap_or(&0);
        let mut weights = [D::INFINITE; QUEUES];
        for (f, &value) in case.values.iter().enumerate() {
            weights[2 * f] = D::from_u64((value - least) as u64).ok_or(CostOverflow)?;
            weights[2 * f + 1] = D::from_u64((value + least) as u64).ok_or(CostOverflow)?;
        }
        let width = size.width;
        let (end_row, end_column) = (case.end / width, case.end % width);
        let steps = board.steps();
        // Per queue: its head's key and the queue's index, packed so that one `min` finds
        // the next state without unpredictable branches (ties go to the lower index).
        let mut heads = [EMPTY; QUEUES];

        // Start orientation is index 0 of the table (the input's own layout).
        debug_assert_eq!(table.bottom[0] as usize, BOTTOM);
        let start = case.start * ORIENTATIONS as u32;
        let (row, column) = (case.start / width, case.start % width);
        let taxicab = row.abs_diff(end_row) as u64 + column.abs_diff(end_column) as u64;
        let start_key =
            D::from_u64(case.values[BOTTOM] as u64 + least as u64 * taxicab).ok_or(CostOverflow)?;
        dist[start as usize] = start_key;
        parent[start as usize] = START;
        let mut current = (start_key, start);
        loop {
            let (key, state) = current;
            let square = state / ORIENTATIONS as u32;
            let orientation = (state % ORIENTATIONS as u32) as usize;
            if square == case.end {
                self.trace(board, state, squares);
                return Ok(Some(key));
            }
            let (row, column) = (square / width, square % width);
            // Bit d set: rolling in direction d moves away from the end.
            let away = (column >= end_column) as u8
                | ((column <= end_column) as u8) << 1
                | ((row >= end_row) as u8) << 2
                | ((row <= end_row) as u8) << 3;
            let mut mask = board.moves(square);
            while mask != 0 {
                let d = mask.trailing_zeros() as usize;
                mask &= mask - 1;
                let next_orientation = table.next[orientation][d];
                let queue =
                    2 * table.bottom[next_orientation as usize] as usize + (away >> d & 1) as usize;
                let next_key = key.plus(weights[queue]).ok_or(CostOverflow)?;
                let next =
                    square.wrapping_add(steps[d]) * ORIENTATIONS as u32 + next_orientation as u32;
                let slot = &mut dist[next as usize];
                if next_key < *slot {
                    *slot = next_key;
                    parent[next as usize] = d as u8;
                    if heads[queue] == EMPTY {
                        heads[queue] = head(next_key, queue);
                    }
                    queues[queue].push_back((next_key, next));
                }
            }
            // Settle the next state: the smallest head, skipping stale entries.
            current = loop {
                let smallest = *heads.iter().min().unwrap_or(&EMPTY);
                if smallest == EMPTY {
                    squares.clear();
                    return Ok(None);
                }
                let best = (smallest & QUEUE_MASK) as usize;
                let queue = &mut queues[best];
                let Some(entry) = queue.pop_front() else {
                    unreachable!("a queue with a head is not empty")
                };
                heads[best] = queue.front().map_or(EMPTY, |e| head(e.0, best));
                if entry.0 == dist[entry.1 as usize] {
                    break entry;
                }
            };
        }
    }

    /// Writes the squares of the route ending in `state`, start first.
    fn trace(&self, board: &Board, mut state: u32, squares: &mut Vec<u32>) {
        let table: &OrientationTable = &TABLE;
        let steps = board.steps();
        squares.clear();
        loop {
            let square = state / ORIENTATIONS as u32;
            squares.push(square);
            let d = self.parent[state as usize];
            if d == START {
                break;
            }
            let back = Direction::ALL[d as usize].opposite() as usize;
            let orientation = (state % ORIENTATIONS as u32) as usize;
            let previous = table.next[orientation][back];
            state = square.wrapping_add(steps[back]) * ORIENTATIONS as u32 + previous as u32;
        }
        squares.reverse();
    }
}

/// Solves cases on one board, reusing memory between cases: `u32` distances, and `u64`
/// only for a case whose sums do not fit in `u32`.
#[derive(Debug)]
pub struct Walker<'b> {
    board: &'b Board,
    narrow: Dijkstra<u32>,
    wide: Option<Dijkstra<u64>>,
}

impl<'b> Walker<'b> {
    /// A solver for cases on `board`.
    pub fn new(board: &'b Board) -> Self {
        Self {
            board,
            narrow: Dijkstra::new(),
            wide: None,
        }
    }

    /// The board this solver walks on.
    pub fn board(&self) -> &'b Board {
        self.board
    }

    /// The minimal sum for `case`, with the route's squares written into `squares`;
    /// `None` if the end cannot be reached.
    pub fn solve_into(&mut self, case: &Case, squares: &mut Vec<u32>) -> Option<u64> {
        match self.narrow.run(self.board, case, squares) {
            Ok(cost) => cost.map(u64::from),
            Err(CostOverflow) => {
                let wide = self.wide.get_or_insert_with(Dijkstra::new);
                match wide.run(self.board, case, squares) {
                    Ok(cost) => cost,
                    // 24 * 2^22 states * 1000 per state is far below 2^64.
                    Err(CostOverflow) => unreachable!("u64 sums of a bounded board overflowed"),
                }
            }
        }
    }

    /// A cheapest route for `case`, `None` if the end cannot be reached.
    pub fn solve(&mut self, case: &Case) -> Option<Route> {
        let mut squares = Vec::new();
        self.solve_into(case, &mut squares)
            .map(|cost| Route { cost, squares })
    }
}

#[cfg(test)]
mod tests {
    use super::super::board::BoardSize;
    use super::*;

    #[test]
    fn judge_sample() {
        let board = Board::open(BoardSize::CHESS);
        let size = board.size();
        let sq = |name: &str| size.parse_square(name).expect("square");
        let case = Case {
            start: sq("e2"),
            end: sq("e3"),
            values: [0, 8, 1, 2, 1, 1],
        };
        let route = Walker::new(&board).solve(&case).expect("reachable");
        assert_eq!(route.cost, 5);
        assert_eq!(route.squares.first(), Some(&case.start));
        assert_eq!(route.squares.last(), Some(&case.end));
    }

    #[test]
    fn overflowing_distance_types_are_detected() {
        // 80 squares at 1000 each do not fit in u16; u32 gets the same answer as u64.
        let size: BoardSize = "80x1".parse().expect("size");
        let board = Board::open(size);
        let case = Case {
            start: 0,
            end: 79,
            values: [1000; FACES],
        };
        let mut squares = Vec::new();
        assert_eq!(
            Dijkstra::<u16>::new().run(&board, &case, &mut squares),
            Err(CostOverflow)
        );
        let narrow = Dijkstra::<u32>::new().run(&board, &case, &mut squares);
        assert_eq!(narrow, Ok(Some(80_000)));
        let wide = Dijkstra::<u64>::new().run(&board, &case, &mut squares);
        assert_eq!(wide, Ok(Some(80_000)));
        assert_eq!(squares, (0..80).collect::<Vec<_>>());
    }

    #[test]
    fn walled_off_end_is_unreachable() {
        let size: BoardSize = "3x3".parse().expect("size");
        // b1 and a2 wall off a1.
        let board = Board::with_blocked(size, &[1, 3]);
        let case = Case {
            start: 8,
            end: 0,
            values: [1, 2, 3, 4, 5, 6],
        };
        assert_eq!(Walker::new(&board).solve(&case), None);
    }
}
