//! The cells one digit occupies, as a 24-bit mask with 8 bits set, ranked in `0..C(24,8)`
//! by the combinatorial number system; moves act on masks through byte lookup tables.

use super::state::{Move, CELLS, CENTRE};
use crate::search::RankedSpace;

/// Number of masks: C(24, 8).
pub const MASKS: u32 = 735_471;

/// `BINOMIAL[n][k]` = C(n, k) for n <= 24, k <= 8.
const BINOMIAL: [[u32; 9]; 25] = binomials();

const fn binomials() -> [[u32; 9]; 25] {
    let mut t = [[0u32; 9]; 25];
    let mut n = 0;
    while n <= 24 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= 8 {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
}

/// The mask of the goal: the digit fills the centre.
pub const CENTRE_MASK: u32 = centre_mask();

const fn centre_mask() -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < CENTRE.len() {
        mask |= 1 << CENTRE[i];
        i += 1;
    }
    mask
}

/// Rank of a mask with exactly 8 bits set (colexicographic order).
#[inline]
pub fn rank(mask: u32) -> u32 {
    let mut rest = mask;
    let mut rank = 0;
    let mut k = 1;
    while rest != 0 {
        let position = rest.trailing_zeros() as usize;
        rank += BINOMIAL[position][k];
        rest &= rest - 1;
        k += 1;
    }
    rank
}

/// The mask of rank `rank` (< [`MASKS`]).
pub fn unrank(mut rank: u32) -> u32 {
    let mut mask = 0;
    let mut position = CELLS;
    for k in (1..=8).rev() {
        position -= 1;
        while BINOMIAL[position][k] > rank {
            position -= 1;
        }
        rank -= BINOMIAL[position][k];
        mask |= 1 << position;
    }
    mask
}

/// Per move, per byte of the mask: where that byte's bits land after the move.
pub struct MaskMoves {
    tables: Box<[[[u32; 256]; 3]; 8]>,
}

impl MaskMoves {
    /// Derives the tables from the moves' lines.
    pub fn new() -> Self {
        let mut tables = Box::new([[[0u32; 256]; 3]; 8]);
        for mv in Move::ALL {
            // destination[c] = where the value in cell c goes.
            let mut destination: [usize; CELLS] = std::array::from_fn(|c| c);
            let line = mv.line();
            for i in 0..7 {
                destination[line[(i + 1) % 7]] = line[i];
            }
            for (byte_index, table) in tables[mv.0 as usize].iter_mut().enumerate() {
                for (byte, entry) in table.iter_mut().enumerate() {
                    *entry = (0..8)
                        .filter(|bit| byte >> bit & 1 == 1)
                        .fold(0, |m, bit| m | 1 << destination[byte_index * 8 + bit]);
                }
            }
        }
        Self { tables }
    }

    /// The mask after `mv`.
    #[inline]
    pub fn apply(&self, mask: u32, mv: Move) -> u32 {
        let t = &self.tables[mv.0 as usize];
        t[0][(mask & 255) as usize] | t[1][(mask >> 8 & 255) as usize] | t[2][(mask >> 16) as usize]
    }
}

impl Default for MaskMoves {
    fn default() -> Self {
        Self::new()
    }
}

/// The masks as a ranked space for the shared BFS.
pub struct RotationSpace {
    moves: MaskMoves,
}

impl RotationSpace {
    /// The space with its move tables.
    pub fn new() -> Self {
        Self {
            moves: MaskMoves::new(),
        }
    }
}

impl Default for RotationSpace {
    fn default() -> Self {
        Self::new()
    }
}

impl RankedSpace for RotationSpace {
    fn size(&self) -> u64 {
        MASKS as u64
    }

    fn for_each_neighbour(&self, r: u64, mut visit: impl FnMut(u64)) {
        let mask = unrank(r as u32);
        for mv in Move::ALL {
            visit(rank(self.moves.apply(mask, mv)) as u64);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rotation::state::Board;
    use crate::rng::SplitMix64;

    #[test]
    fn ranks_are_a_bijection() {
        let mut seen = vec![false; MASKS as usize];
        for r in 0..MASKS {
            let mask = unrank(r);
            assert_eq!(mask.count_ones(), 8);
            assert!(mask < 1 << CELLS);
            assert_eq!(rank(mask), r);
            seen[r as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn mask_moves_match_board_moves() {
        let moves = MaskMoves::new();
        let mut rng = SplitMix64::new(5);
        for _ in 0..1000 {
            let mut cells = [
                1u8, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3,
            ];
            for i in (1..CELLS).rev() {
                cells.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let board = Board { cells };
            for mv in Move::ALL {
                for digit in 1..=3 {
                    assert_eq!(
                        moves.apply(board.mask_of(digit), mv),
                        board.apply(mv).mask_of(digit)
                    );
                }
            }
        }
    }
}
