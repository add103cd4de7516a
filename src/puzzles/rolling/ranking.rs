//! Ranks: a board as a number in `0..STATES`, and rolls and goal patterns computed on ranks
//! directly, without decoding the board.
//!
//! `rank = empty_cell * 6^8 + sum(orientation of slot k * 6^k)`, where slot `k` is the
//! `k`-th occupied cell in row-major order. A sideways roll keeps every cube in its slot and
//! changes one digit; a vertical roll moves a cube past two others, rotating three
//! consecutive digits.

use super::state::{Board, Roll, EMPTY, ORIENTATIONS, ROLL_FORWARD, ROLL_SIDEWAYS};
use crate::search::RankedSpace;

/// Number of orientation codes for the 8 cubes: 6^8.
pub const CODES: u32 = 1_679_616;
/// Number of board states: 9 empty cells x 6^8 codes.
pub const STATES: u32 = 9 * CODES;
/// Number of goal patterns: 9 empty cells x 3^8 top colourings.
pub const PATTERNS: u32 = 9 * 6561;
/// Patterns with a given empty cell: 3^8.
pub const PATTERNS_PER_EMPTY: u32 = 6561;

const fn powers(base: u32) -> [u32; 9] {
    let mut p = [1u32; 9];
    let mut i = 1;
    while i < 9 {
        p[i] = p[i - 1] * base;
        i += 1;
    }
    p
}

const POW6: [u32; 9] = powers(6);
const POW3: [u32; 9] = powers(3);

/// Three consecutive digits `(x, y, o)` -> `(forward(o), x, y)`: a cube rolls up past two.
const fn block_up() -> [u16; 216] {
    let mut t = [0u16; 216];
    let mut b = 0;
    while b < 216 {
        let (x, y, o) = (b % 6, b / 6 % 6, b / 36);
        t[b] = (ROLL_FORWARD[o] as usize + 6 * x + 36 * y) as u16;
        b += 1;
    }
    t
}

/// Three consecutive digits `(o, x, y)` -> `(x, y, forward(o))`: a cube rolls down past two.
const fn block_down() -> [u16; 216] {
    let mut t = [0u16; 216];
    let mut b = 0;
    while b < 216 {
        let (o, x, y) = (b % 6, b / 6 % 6, b / 36);
        t[b] = (x + 6 * y + 36 * ROLL_FORWARD[o] as usize) as u16;
        b += 1;
    }
    t
}

/// Four orientation digits -> their four top colours as base-3 digits.
const fn half_patterns() -> [u16; 1296] {
    let mut t = [0u16; 1296];
    let mut h = 0;
    while h < 1296 {
        let mut value = 0;
        let mut k = 0;
        while k < 4 {
            let digit = h / POW6[k] as usize % 6;
            value += (digit / 2) * POW3[k] as usize;
            k += 1;
        }
        t[h] = value as u16;
        h += 1;
    }
    t
}

static BLOCK_UP: [u16; 216] = block_up();
static BLOCK_DOWN: [u16; 216] = block_down();
static HALF_PATTERN: [u16; 1296] = half_patterns();

/// `code / 6^power`, with the divisor known at compile time in each arm (a runtime
/// division is several times slower and this sits in the BFS's innermost loop).
#[inline(always)]
fn shift_down(code: u32, power: usize) -> u32 {
    match power {
        0 => code,
        1 => code / 6,
        2 => code / 36,
        3 => code / 216,
        4 => code / 1296,
        5 => code / 7776,
        6 => code / 46656,
        _ => code / 279_936,
    }
}

/// The rank of `board`.
pub fn rank(board: &Board) -> u32 {
    let empty = board.empty() as u32;
    let code = board
        .cells
        .iter()
        .filter(|&&c| c != EMPTY)
        .rev()
        .fold(0u32, |acc, &c| acc * 6 + c as u32);
    empty * CODES + code
}

/// The board with rank `rank` (< [`STATES`]).
pub fn unrank(rank: u32) -> Board {
    let empty = (rank / CODES) as usize;
    let mut code = rank % CODES;
    let mut cells = [EMPTY; 9];
    for (cell, slot) in cells.iter_mut().enumerate() {
        if cell != empty {
            *slot = (code % 6) as u8;
            code /= 6;
        }
    }
    Board { cells }
}

/// The rank after `roll`, or `None` if no cube can roll that way.
#[inline]
pub fn roll_rank(rank: u32, roll: Roll) -> Option<u32> {
    let empty = rank / CODES;
    let code = rank % CODES;
    let source = roll.source(empty as usize)? as u32;
    let new_code = match roll {
        Roll::Left | Roll::Right => {
            // The cube keeps its slot: the lower of the two cells.
            let slot = empty.min(source) as usize;
            let o = shift_down(code, slot) % 6;
            code - o * POW6[slot] + ROLL_SIDEWAYS[o as usize] as u32 * POW6[slot]
        }
        Roll::Up | Roll::Down => {
            // The three digits from the lower of the two cells onward rotate.
            let low = empty.min(source) as usize;
            let block = shift_down(code, low) % 216;
            let table = if roll == Roll::Up {
                &BLOCK_UP
            } else {
                &BLOCK_DOWN
            };
            code - block * POW6[low] + table[block as usize] as u32 * POW6[low]
        }
    };
    Some(source * CODES + new_code)
}

/// The goal pattern (empty cell and top colours) of the board with rank `rank`.
#[inline]
pub fn pattern_of_rank(rank: u32) -> u32 {
    let empty = rank / CODES;
    let code = rank % CODES;
    empty * PATTERNS_PER_EMPTY
        + HALF_PATTERN[(code % 1296) as usize] as u32
        + 81 * HALF_PATTERN[(code / 1296) as usize] as u32
}

/// The ranks of all 256 boards showing goal pattern `pattern`.
pub fn ranks_of_pattern(pattern: u32) -> Vec<u32> {
    let empty = pattern / PATTERNS_PER_EMPTY;
    let colours = pattern % PATTERNS_PER_EMPTY;
    (0..256u32)
        .map(|choice| {
            let code = (0..8).fold(0u32, |acc, slot| {
                let top = colours / POW3[slot] % 3;
                let orientation = top * 2 + (choice >> slot & 1);
                acc + orientation * POW6[slot]
            });
            empty * CODES + code
        })
        .collect()
}

/// The cubic eight-puzzle as a ranked space for the shared BFS.
#[derive(Debug, Clone, Copy, Default)]
pub struct RollingSpace;

impl RankedSpace for RollingSpace {
    fn size(&self) -> u64 {
        STATES as u64
    }

    #[inline]
    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        for roll in Roll::ALL {
            if let Some(next) = roll_rank(rank as u32, roll) {
                visit(next as u64);
            }
        }
    }
}

const _: () = assert!(ORIENTATIONS == 6);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    #[test]
    fn rank_round_trips_and_rank_rolls_match_board_rolls() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..20_000 {
            let r = rng.below(STATES as u64) as u32;
            let board = unrank(r);
            assert_eq!(rank(&board), r);
            for roll in Roll::ALL {
                assert_eq!(roll_rank(r, roll), board.roll(roll).map(|b| rank(&b)));
            }
            let pattern = pattern_of_rank(r);
            assert!(ranks_of_pattern(pattern).contains(&r));
        }
    }

    #[test]
    fn patterns_partition_the_states() {
        let pattern = 4 * PATTERNS_PER_EMPTY + 1234;
        let ranks = ranks_of_pattern(pattern);
        let mut unique = ranks.clone();
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), 256);
        assert!(ranks.iter().all(|&r| pattern_of_rank(r) == pattern));
    }
}
