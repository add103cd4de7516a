//! Coordinates: numbers for parts of a state, each with a move table, so that a table's
//! BFS and a search move states by lookups instead of composing permutations.
//!
//! - [`Twist`]: the orientations of a whole set, slot by slot (they move independently
//!   of where the pieces go), one digit fewer when every move keeps their sum;
//! - [`Places`]: where the pieces of a set are, pieces grouped into classes (identical
//!   pieces, or pieces not followed, share a class), ranked as a multiset arrangement,
//!   halved when the pieces are distinct and every move keeps the parity;
//! - [`Split`]: where 10 to 14 distinct pieces are, as the places of the first ones and
//!   the order of the rest (one table would be too big);
//! - [`Tracked`]: where some distinct pieces are and how each is twisted.
//!
//! A [`Projection`] is a list of coordinates; its states are the mixed-radix numbers of
//! their values. With every piece and orientation covered it is the whole puzzle (an
//! exact table); otherwise a pattern database's space.

use super::element::{parity, Element, WILD};
use super::puzzle::PermPuzzle;
use std::sync::OnceLock;

/// Largest table of one coordinate, in entries (moves times values).
pub const MOVE_TABLE_LIMIT: u64 = 1 << 27;

fn factorial(n: usize) -> u64 {
    (1..=n as u64).product()
}

/// Working bytes for one encoding: on the stack up to 64 (every orbit of the shipped
/// puzzles), on the heap beyond, so that a table lookup allocates nothing.
enum Scratch {
    Stack([u8; 64], usize),
    Heap(Vec<u8>),
}

impl Scratch {
    fn new(len: usize) -> Self {
        if len <= 64 {
            Scratch::Stack([0; 64], len)
        } else {
            Scratch::Heap(vec![0; len])
        }
    }

    fn slice(&mut self) -> &mut [u8] {
        match self {
            Scratch::Stack(bytes, len) => &mut bytes[..*len],
            Scratch::Heap(bytes) => bytes,
        }
    }
}

/// Lehmer rank of a permutation of `0..n` (`n` at most 20: the rank fits 64 bits).
/// Each digit counts the later values below it, read from a mask of them (one
/// popcount), and weighs the factorial of the places after it.
pub fn rank_perm(p: &[u8]) -> u64 {
    debug_assert!(p.len() <= 20 && p.iter().all(|&x| usize::from(x) < p.len()));
    let (mut later, mut rank, mut weight) = (0u64, 0u64, 1u64);
    for (k, &x) in p.iter().rev().enumerate() {
        rank += (later & ((1u64 << x) - 1)).count_ones() as u64 * weight;
        later |= 1u64 << x;
        weight = weight.wrapping_mul(k as u64 + 1);
    }
    rank
}

/// The permutation of `0..n` with Lehmer rank `rank` (`n` at most 20, as
/// [`rank_perm`]).
pub fn unrank_perm(mut rank: u64, n: usize) -> Vec<u8> {
    debug_assert!(n <= 20);
    let mut digits = vec![0u8; n];
    for i in (0..n).rev() {
        let radix = (n - i) as u64;
        digits[i] = (rank % radix) as u8;
        rank /= radix;
    }
    // Each digit picks among the values not yet placed, smallest first, from a mask of
    // them (the digits turned into the values in place).
    let mut left = (1u64 << n) - 1;
    for d in digits.iter_mut() {
        let mut pick = left;
        for _ in 0..*d {
            pick &= pick - 1;
        }
        let value = pick.trailing_zeros();
        left &= !(1u64 << value);
        *d = value as u8;
    }
    digits
}

/// Number of arrangements of a multiset with these class counts, saturating at
/// `u128::MAX` (sets of dozens of pieces): what sizes and bounds are compared with.
pub fn arrangements(counts: &[usize]) -> u128 {
    let (mut value, mut placed) = (1u128, 0u128);
    for &c in counts {
        for k in 1..=c as u128 {
            placed += 1;
            value = value.saturating_mul(placed) / k;
        }
    }
    value
}

/// A number of states for a message: its digits, or "more than 10^38" when
/// [`arrangements`] saturated.
pub fn shown_count(n: u128) -> String {
    if n == u128::MAX {
        "more than 10^38".to_string()
    } else {
        crate::text::count(n)
    }
}

/// [`arrangements`] as a coordinate size (saturating at `u64::MAX`).
fn multinomial(counts: &[usize]) -> u64 {
    u64::try_from(arrangements(counts)).unwrap_or(u64::MAX)
}

/// The integer type multiset ranks are computed in: `u64` when `M·T` fits (`M`
/// arrangements of `T` pieces), which every table-sized coordinate does, else `u128`.
trait RankWord:
    Copy
    + PartialOrd
    + From<u64>
    + TryInto<u64>
    + std::ops::Mul<Output = Self>
    + std::ops::Div<Output = Self>
    + std::ops::Sub<Output = Self>
{
    fn narrow(self) -> u64 {
        self.try_into().unwrap_or(u64::MAX)
    }
}
impl RankWord for u64 {}
impl RankWord for u128 {}

/// Whether a multiset's ranks can be computed in `u64`.
fn fits_u64(counts: &[usize]) -> bool {
    let total = counts.iter().sum::<usize>() as u128;
    arrangements(counts)
        .checked_mul(total.max(1))
        .is_some_and(|v| v <= u64::MAX as u128)
}

/// Rank of an arrangement of classes among all with the same class counts. The
/// arrangements left after placing class `c` first number `M·left[c]/T` (`M` of the
/// remaining multiset of `T` pieces), each a whole number, so those of every smaller
/// class together are `M·(their count)/T`: one division per piece.
#[cfg(test)]
fn rank_multiset(classes: &[u8], counts: &[usize]) -> u64 {
    let all = multinomial(counts);
    if fits_u64(counts) {
        rank_multiset_in::<u64>(classes, counts, all)
    } else {
        rank_multiset_in::<u128>(classes, counts, all)
    }
}

/// Binomial coefficients `C(n, k)` for `n, k < 256`, saturating at `u64::MAX`.
fn binomials() -> &'static [[u64; 256]] {
    static TABLE: std::sync::OnceLock<Vec<[u64; 256]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = vec![[0u64; 256]; 256];
        for n in 0..256 {
            table[n][0] = 1;
            for k in 1..=n {
                table[n][k] = table[n - 1][k - 1].saturating_add(table[n - 1][k]);
            }
        }
        table
    })
}

/// [`rank_multiset`] of two classes (same ranks): the arrangements that put a 0 where
/// a 1 is, with `z` zeros and `o` ones left, number `C(z + o - 1, o)`; no division.
fn rank_two_classes(classes: &[u8], counts: &[usize]) -> u64 {
    if classes.len() < SMALL_BINOMIALS {
        // As below, with the class-1 slots as bits: each adds C(n - i - 1, the ones from
        // slot i on); the terms do not depend on one another.
        let mask = classes
            .iter()
            .enumerate()
            .fold(0u64, |mask, (i, &c)| mask | u64::from(c != 0) << i);
        return rank_two_class_mask(mask, classes.len());
    }
    let binomial = binomials();
    let (mut zeros, mut ones) = (counts[0], counts[1]);
    let mut rank = 0u64;
    for &c in classes {
        if c == 0 {
            zeros -= 1;
        } else {
            if zeros > 0 {
                rank += binomial[zeros + ones - 1][ones];
            }
            ones -= 1;
        }
    }
    rank
}

/// Sets of fewer than this many slots rank two classes with [`small_binomials`].
const SMALL_BINOMIALS: usize = 32;

/// [`rank_two_classes`] of `n` (below [`SMALL_BINOMIALS`]) slots given as the mask of
/// the class-1 slots.
#[inline]
fn rank_two_class_mask(mask: u64, n: usize) -> u64 {
    let binomial = small_binomials();
    let mut rank = 0u64;
    let mut bits = mask;
    while bits != 0 {
        let i = bits.trailing_zeros() as usize;
        rank += u64::from(binomial[n - i - 1][(mask >> i).count_ones() as usize]);
        bits &= bits - 1;
    }
    rank
}

/// [`rank_two_class_mask`] for one `n`, a byte at a time: byte `k`'s terms depend only on
/// its bits and on how many ones lie in the bytes above it, so they are summed once per
/// (byte, ones above, value), and a rank is one lookup per byte. A 4x4x4 centres
/// coordinate's move table (735,471 x 36 ranks, 16 ones each) fills three times faster.
#[derive(Debug, Clone)]
struct TwoClassRanker {
    bytes: usize,
    /// `terms[(k * (n + 1) + above) * 256 + value]`.
    terms: Vec<u32>,
    n: usize,
}

impl TwoClassRanker {
    fn new(n: usize) -> Self {
        let binomial = small_binomials();
        let bytes = n.div_ceil(8);
        let mut terms = vec![0u32; bytes * (n + 1) * 256];
        for k in 0..bytes {
            for above in 0..=n {
                for value in 0..256usize {
                    let mut sum = 0u32;
                    for j in 0..8 {
                        let i = 8 * k + j;
                        if value >> j & 1 == 1 && i < n {
                            let ones = above + (value >> j).count_ones() as usize;
                            sum += binomial[n - i - 1].get(ones).copied().unwrap_or(0);
                        }
                    }
                    terms[(k * (n + 1) + above) * 256 + value] = sum;
                }
            }
        }
        Self { bytes, terms, n }
    }

    #[inline]
    fn rank(&self, mask: u32) -> u64 {
        let mut rank = 0u64;
        let mut above = 0usize;
        for k in (0..self.bytes).rev() {
            let value = (mask >> (8 * k)) as usize & 0xFF;
            rank += u64::from(self.terms[(k * (self.n + 1) + above) * 256 + value]);
            above += value.count_ones() as usize;
        }
        rank
    }

    /// The mask of `ones` ones with rank `rank`: slot `i` holds a one exactly when the
    /// rank left is at least the arrangements that put a zero there, `C(n - i - 1, ones
    /// left)`.
    fn unrank(&self, mut rank: u64, mut ones: usize) -> u32 {
        let binomial = small_binomials();
        let mut mask = 0u32;
        for i in 0..self.n {
            if ones == 0 {
                break;
            }
            let zero_first = u64::from(binomial[self.n - i - 1].get(ones).copied().unwrap_or(0));
            if rank >= zero_first {
                mask |= 1 << i;
                rank -= zero_first;
                ones -= 1;
            }
        }
        mask
    }
}

/// Binomials `C(n, k)` for `n, k < 32`, in 4 KB that stay in the first-level cache (move
/// tables rank two classes tens of millions of times; the full table is 512 KB).
fn small_binomials() -> &'static [[u32; SMALL_BINOMIALS]] {
    static TABLE: std::sync::OnceLock<Vec<[u32; SMALL_BINOMIALS]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        binomials()[..SMALL_BINOMIALS]
            .iter()
            .map(|row| {
                let mut small = [0u32; SMALL_BINOMIALS];
                for (to, &from) in small.iter_mut().zip(row) {
                    // C(31, 15) is below 2^32.
                    *to = from as u32;
                }
                small
            })
            .collect()
    })
}

/// [`rank_multiset`] with `all` the number of arrangements, in `W`.
fn rank_multiset_in<W: RankWord>(classes: &[u8], counts: &[usize], all: u64) -> u64 {
    // Set sizes are below 256, so every count fits a byte.
    let mut left = [0u8; 256];
    for (l, &c) in left.iter_mut().zip(counts) {
        *l = c as u8;
    }
    let mut total = classes.len() as u64;
    let mut arrangements = W::from(all);
    let mut rank = 0u64;
    for &c in classes {
        let smaller: usize = left[..c as usize].iter().map(|&l| l as usize).sum();
        let t = W::from(total);
        rank += (arrangements * W::from(smaller as u64) / t).narrow();
        arrangements = arrangements * W::from(left[c as usize] as u64) / t;
        left[c as usize] -= 1;
        total -= 1;
    }
    rank
}

/// The arrangement of rank `rank`: at each slot the class whose block of ranks holds it.
/// Those blocks end at `M·(pieces of classes up to c)/T`, so `rank·T/M` (one division)
/// counts the pieces of the classes before it.
#[cfg(test)]
fn unrank_multiset(rank: u64, counts: &[usize]) -> Vec<u8> {
    let all = multinomial(counts);
    if fits_u64(counts) {
        unrank_multiset_in::<u64>(rank, counts, all)
    } else {
        unrank_multiset_in::<u128>(rank, counts, all)
    }
}

/// [`unrank_multiset`] with `all` the number of arrangements, in `W`.
fn unrank_multiset_in<W: RankWord>(rank: u64, counts: &[usize], all: u64) -> Vec<u8> {
    let n: usize = counts.iter().sum();
    let mut left = counts.to_vec();
    let mut total = n as u64;
    let mut arrangements = W::from(all);
    let mut rank = W::from(rank);
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let t = W::from(total);
        let before = (rank * t / arrangements).narrow();
        // The class holding piece number `before` (counting classes in order).
        let (mut c, mut below) = (0usize, 0u64);
        while below + left[c] as u64 <= before {
            below += left[c] as u64;
            c += 1;
        }
        out.push(c as u8);
        rank = rank - arrangements * W::from(below) / t;
        arrangements = arrangements * W::from(left[c] as u64) / t;
        left[c] -= 1;
        total -= 1;
    }
    out
}

/// Rank of the slots of `k` distinct pieces (piece `j` in slot `slots[j]`) among `n`.
fn rank_slots(slots: &[u8], n: usize) -> u64 {
    let mut rank = 0u64;
    for (i, &s) in slots.iter().enumerate() {
        let before = slots[..i].iter().filter(|&&t| t < s).count() as u64;
        rank = rank * (n - i) as u64 + (s as u64 - before);
    }
    rank
}

fn unrank_slots(rank: u64, k: usize, n: usize) -> Vec<u8> {
    let mut slots = vec![0u8; k];
    unrank_slots_into(rank, n, &mut slots);
    slots
}

/// [`unrank_slots`] into `slots` (its length is `k`), without allocating: the free
/// slots are the set bits of a 256-bit mask (sets have fewer than 256 slots).
fn unrank_slots_into(mut rank: u64, n: usize, slots: &mut [u8]) {
    let k = slots.len();
    for i in (0..k).rev() {
        let radix = (n - i) as u64;
        slots[i] = (rank % radix) as u8;
        rank /= radix;
    }
    let mut free = [u64::MAX; 4];
    for slot in slots.iter_mut() {
        // The `d`-th free slot, in order.
        let mut d = u32::from(*slot);
        let mut word = 0;
        loop {
            let ones = free[word].count_ones();
            if d < ones {
                break;
            }
            d -= ones;
            word += 1;
        }
        let mut bits = free[word];
        for _ in 0..d {
            bits &= bits - 1;
        }
        let bit = bits.trailing_zeros();
        free[word] &= !(1u64 << bit);
        *slot = (word as u32 * 64 + bit) as u8;
    }
}

/// The orientations of a whole set, slot by slot.
#[derive(Debug, Clone)]
pub struct Twist {
    set: usize,
    omod: u64,
    n: usize,
    /// One digit fewer: every move keeps the sum, which is `sum` (mod `omod`).
    reduced: Option<u64>,
    table: Vec<u32>,
}

impl Twist {
    fn digits(&self) -> usize {
        self.n - usize::from(self.reduced.is_some())
    }

    fn size(&self) -> u64 {
        self.omod.pow(self.digits() as u32)
    }

    fn encode_ori(&self, ori: &[u8]) -> u64 {
        ori[..self.digits()]
            .iter()
            .rev()
            .fold(0, |v, &o| v * self.omod + o as u64)
    }

    fn decode(&self, mut value: u64) -> Vec<u8> {
        let mut ori = vec![0u8; self.n];
        for o in ori.iter_mut().take(self.digits()) {
            *o = (value % self.omod) as u8;
            value /= self.omod;
        }
        if let Some(sum) = self.reduced {
            let partial: u64 = ori.iter().map(|&o| o as u64).sum();
            ori[self.n - 1] = ((sum + self.omod * self.n as u64 - partial) % self.omod) as u8;
        }
        ori
    }
}

/// The orientations of some slots of a set no move permutes (its pieces never leave
/// their slots): a pattern database's share of a set too big to follow whole.
#[derive(Debug, Clone)]
pub struct TwistPart {
    set: usize,
    omod: u64,
    /// The slots followed, in digit order.
    slots: Vec<usize>,
    table: Vec<u32>,
}

impl TwistPart {
    fn size(&self) -> u64 {
        self.omod.pow(self.slots.len() as u32)
    }

    fn encode_ori(&self, ori: &[u8]) -> u64 {
        self.slots
            .iter()
            .rev()
            .fold(0, |v, &slot| v * self.omod + (ori[slot] as u64 % self.omod))
    }
}

/// Where the pieces of a set are, by class.
#[derive(Debug, Clone)]
pub struct Places {
    set: usize,
    /// Class of each label (labels not followed share the last class).
    class_of: Vec<u8>,
    counts: Vec<usize>,
    /// Distinct pieces whose parity every move keeps: ranks halved.
    halved: bool,
    /// The parity of the solved arrangement (the only one when halved).
    solved_parity: u8,
    /// A label of each class (what a decoded state shows).
    labels: Vec<u8>,
    /// The number of arrangements, and whether ranks are computed in `u64`.
    arrangements: u64,
    narrow: bool,
    /// The move table (`table[value * moves + m]`): made at once, or for two classes
    /// with a large table, only when asked for ([`Coord::move_table`]).
    table: OnceLock<Vec<u32>>,
    /// For two classes: steps a value without the move table.
    stepper: Option<Box<TwoClassStepper>>,
}

/// Steps a two-class arrangement without a move table: the mask of its class-1 slots
/// (read from a table by value) goes through each move byte by byte (`carry`) and is
/// ranked again. A large coordinate (the 4x4x4's first phase: 735,471 values and 36
/// moves) then needs 2.9 MB of masks, made in milliseconds, instead of a 106 MB move
/// table that took half the time of opening the puzzle.
#[derive(Debug, Clone)]
struct TwoClassStepper {
    /// `carry[m * bytes + k][byte]`: where move `m` takes the class-1 slots among the
    /// 8 slots of byte `k`.
    carry: Vec<[u32; 256]>,
    bytes: usize,
    ranker: TwoClassRanker,
    ones: usize,
    moves: usize,
    /// Each value's mask (`masks[value]`), made at the first step when there are at
    /// most [`MOST_STEPPED_MASKS`] values: a read in place of a branchy unranking (the
    /// 4x4x4's first phase: 735,471 values, 2.9 MB, made in a few milliseconds).
    masks: OnceLock<Vec<u32>>,
    /// Number of values, `C(n, ones)`.
    values: u64,
}

/// Most values whose masks a [`TwoClassStepper`] keeps (4 bytes each: 32 MiB).
const MOST_STEPPED_MASKS: u64 = 1 << 23;

impl TwoClassStepper {
    /// Every mask of `ones` ones among the ranker's slots, by rank. Ranks order masks
    /// as numbers read with slot 0 the highest bit, so the masks in increasing order of
    /// their bits reversed (Gosper's step) come by rank, written one after another.
    fn all_masks(&self) -> Vec<u32> {
        let n = self.ranker.n as u32;
        let mut masks = Vec::with_capacity(self.values as usize);
        if self.ones == 0 {
            masks.push(0);
            return masks;
        }
        let reversed = |x: u32| x.reverse_bits() >> (32 - n);
        let mut x = (1u32 << self.ones) - 1;
        while masks.len() < self.values as usize {
            masks.push(reversed(x));
            let low = x & x.wrapping_neg();
            let ripple = x.wrapping_add(low);
            x = (((ripple ^ x) >> 2) / low) | ripple;
        }
        masks
    }

    /// The mask of `value`, read from [`Self::masks`] when kept.
    #[inline]
    fn mask_of(&self, value: u64) -> u32 {
        if self.values <= MOST_STEPPED_MASKS {
            self.masks.get_or_init(|| self.all_masks())[value as usize]
        } else {
            self.ranker.unrank(value, self.ones)
        }
    }

    #[inline]
    fn moved(&self, mask: u32, m: usize) -> u32 {
        let rows = &self.carry[m * self.bytes..][..self.bytes];
        rows.iter().enumerate().fold(0u32, |acc, (k, row)| {
            acc | row[(mask >> (8 * k)) as usize & 0xFF]
        })
    }

    #[inline]
    fn step(&self, value: u64, m: usize) -> u64 {
        self.step_mask(self.mask_of(value), m)
    }

    /// The value after move `m` of the arrangement whose mask is `mask`.
    #[inline]
    fn step_mask(&self, mask: u32, m: usize) -> u64 {
        self.ranker.rank(self.moved(mask, m))
    }

    fn table(&self, size: u64) -> Vec<u32> {
        let decode = |v| self.ranker.unrank(v, self.ones);
        fill_table(size, self.moves, decode, |&mask, m| {
            self.ranker.rank(self.moved(mask, m))
        })
    }
}

/// Most move-table entries a two-class coordinate fills at once; a larger one steps
/// without its table until one is asked for.
const EAGER_TWO_CLASS_ENTRIES: u64 = 1 << 22;

impl Places {
    fn size(&self) -> u64 {
        multinomial(&self.counts) >> u32::from(self.halved)
    }

    /// The move table, made now if it was left for later.
    fn move_table(&self) -> &[u32] {
        self.table.get_or_init(|| {
            self.stepper
                .as_ref()
                .map_or_else(Vec::new, |stepper| stepper.table(self.size()))
        })
    }

    /// The value after move `m` (of `moves`), stepped when the table was left for later.
    #[inline(never)]
    fn apply_without_table(&self, value: u64, m: usize, moves: usize) -> u64 {
        match &self.stepper {
            Some(stepper) => stepper.step(value, m),
            None => u64::from(self.move_table()[value as usize * moves + m]),
        }
    }

    fn encode_classes(&self, classes: &[u8]) -> u64 {
        if self.halved {
            rank_perm(classes) / 2
        } else if self.counts.iter().all(|&c| c == 1) {
            rank_perm(classes)
        } else if self.narrow && self.counts.len() == 2 {
            rank_two_classes(classes, &self.counts)
        } else if self.narrow {
            rank_multiset_in::<u64>(classes, &self.counts, self.arrangements)
        } else {
            rank_multiset_in::<u128>(classes, &self.counts, self.arrangements)
        }
    }

    fn decode(&self, value: u64, parity_of_solved: u8) -> Vec<u8> {
        if self.halved {
            // Ranks `2v` and `2v + 1` differ by a swap of the last two values, and so in
            // parity.
            let n = self.counts.len();
            let mut perm = unrank_perm(value * 2, n);
            if n >= 2 && parity(&perm) != parity_of_solved {
                perm.swap(n - 2, n - 1);
            }
            perm
        } else if self.counts.iter().all(|&c| c == 1) {
            unrank_perm(value, self.counts.len())
        } else if self.narrow {
            unrank_multiset_in::<u64>(value, &self.counts, self.arrangements)
        } else {
            unrank_multiset_in::<u128>(value, &self.counts, self.arrangements)
        }
    }
}

/// Where 10 to 14 distinct pieces are: the slots of the first ones, and the order of the
/// rest in the slots left.
#[derive(Debug, Clone)]
pub struct Split {
    set: usize,
    n: usize,
    /// Pieces placed by slot (the first `a`); the other `n - a` by order.
    a: usize,
    /// `head[v * moves + m]`: the new slots rank; `order_move[...]`: how the slots left
    /// are reordered (rank of that permutation of `n - a`).
    head: Vec<u32>,
    order_move: Vec<u16>,
    /// `compose[order * (n-a)! + induced]`: the new order.
    compose: Vec<u16>,
    /// Every move is even: only the orders of the solved state's parity are numbered
    /// (halving the values; Lehmer ranks `2k` and `2k + 1` differ by one swap).
    halved: bool,
    /// The solved state's parity.
    want: u8,
    /// Per head value, the parity of the state with the rest in increasing order.
    head_parity: Vec<u8>,
    /// Per order, its parity.
    tail_parity: Vec<u8>,
}

impl Split {
    /// The value after move `m` (of `moves`): its head by table, its order composed
    /// with the order the move induces (out of line: [`Coord::apply`] inlines the plain
    /// tables' reads only).
    #[inline(never)]
    fn step(&self, value: u64, m: usize, moves: usize) -> u64 {
        let (tail, orders) = (self.tail(), self.orders());
        let (head, mut order) = (value / orders, value % orders);
        if self.halved {
            order *= 2;
            order += u64::from(
                self.tail_parity[order as usize] ^ self.head_parity[head as usize] != self.want,
            );
        }
        let at = head as usize * moves + m;
        let induced = self.order_move[at] as u64;
        let order = self.compose[(order * tail + induced) as usize] as u64;
        self.head[at] as u64 * orders + (order >> u32::from(self.halved))
    }

    fn tail(&self) -> u64 {
        factorial(self.n - self.a)
    }

    /// Number of order values kept per head.
    fn orders(&self) -> u64 {
        self.tail() >> u32::from(self.halved)
    }

    fn size(&self) -> u64 {
        (0..self.a).fold(1u64, |v, i| v * (self.n - i) as u64) * self.orders()
    }
}

/// Where some distinct pieces are, and their twists (piece by piece).
#[derive(Debug, Clone)]
pub struct Tracked {
    set: usize,
    n: usize,
    /// The labels followed (distinct), in the order their digits are kept.
    labels: Vec<u8>,
    omod: u64,
    /// Its move tables (shared by every tracked group of as many pieces of the set).
    tables: std::sync::Arc<TrackedMoves>,
}

/// Move tables of [`Tracked`]: they depend on the set and the number of pieces, not on
/// which pieces.
#[derive(Debug)]
pub struct TrackedMoves {
    /// `head[slots * moves + m]`: the new slots rank.
    head: Vec<u32>,
    /// `delta[slots * moves + m]`: the twists gained, one base-`omod` digit per piece.
    delta: Vec<u32>,
}

/// Move tables of tracked pieces already made, by set, number of pieces and twists.
pub type TrackedCache =
    std::collections::HashMap<(usize, usize, u64), std::sync::Arc<TrackedMoves>>;

impl Tracked {
    /// The value after move `m` (of `moves`): the slots by table, the twists added
    /// (out of line, as [`Split::step`]).
    #[inline(never)]
    fn step(&self, value: u64, m: usize, moves: usize) -> u64 {
        let twists = self.twists();
        let (slots, code) = (value / twists, value % twists);
        let at = slots as usize * moves + m;
        if self.omod == 1 {
            return self.tables.head[at] as u64;
        }
        self.tables.head[at] as u64 * twists + self.add(code, self.tables.delta[at] as u64)
    }

    fn slots(&self) -> u64 {
        (0..self.labels.len()).fold(1u64, |v, i| v * (self.n - i) as u64)
    }

    fn twists(&self) -> u64 {
        self.omod.pow(self.labels.len() as u32)
    }

    fn size(&self) -> u64 {
        self.slots() * self.twists()
    }

    /// Digit-wise sum of two twist codes.
    #[inline]
    fn add(&self, a: u64, b: u64) -> u64 {
        if self.omod == 2 {
            return a ^ b;
        }
        let (mut a, mut b, mut out, mut place) = (a, b, 0u64, 1u64);
        for _ in 0..self.labels.len() {
            out += (a % self.omod + b % self.omod) % self.omod * place;
            a /= self.omod;
            b /= self.omod;
            place *= self.omod;
        }
        out
    }
}

/// Every state some sets can reach together (places and orientations), numbered
/// densely: constraints inside a set (parities, orientation sums) and between the sets
/// (the pyraminx's centres and tips both turn with the whole puzzle) cost no unused ranks.
/// With `Illegal` rules on those sets, only the states legal moves reach are numbered, and
/// a move into a forbidden state leaves the number as it is (the search never takes it).
#[derive(Debug, Clone)]
pub struct Reachable {
    /// The sets, and per set whether its orientations are dropped (never twisted, or
    /// "any" in the solved state).
    sets: Vec<(usize, bool)>,
    /// Bits per packed byte: 8, or 4 when a state's bytes do not fit 16 but every value is
    /// below 16 (Square-1's shape: 24 slots of three classes).
    width: u32,
    /// The `Illegal` rules on these sets: the packed byte they watch and the values it may
    /// not hold.
    rules: Vec<(usize, Vec<u8>)>,
    /// A reading parity among these sets: the packed bytes of the set read (start, size),
    /// the byte of its parity set, and per value whether it is counted.
    reading: Option<(usize, usize, usize, Vec<bool>)>,
    /// The number of each state, by its bytes (labels, then kept orientations, set by
    /// set) packed in a `u128`.
    index: std::collections::HashMap<u128, u32, PackedHash>,
    /// The packed states, by number (what a table file keeps to skip the enumeration).
    keys: Vec<u128>,
    table: Vec<u32>,
    /// Per table entry, whether the move breaks a rule (one bit each; empty without
    /// rules): the entry itself then keeps the number, so only this tells.
    forbidden: Vec<u64>,
}

/// An enumerated coordinate's move table and the entries whose moves break a rule, as a
/// file beside a table keeps them ([`crate::table::derived`]).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct MoveRows {
    #[serde(with = "crate::table::derived::words")]
    table: Vec<u32>,
    forbidden: Vec<u64>,
}

impl Projection {
    /// The move rows of its enumerated coordinates, in order.
    pub fn move_rows(&self) -> Vec<MoveRows> {
        self.coords
            .iter()
            .filter_map(|c| match c {
                Coord::Reachable(r) => Some(MoveRows {
                    table: r.table.clone(),
                    forbidden: r.forbidden.clone(),
                }),
                _ => None,
            })
            .collect()
    }
}

/// A fast hash for packed states (a multiply and a fold; the keys are not adversarial).
#[derive(Debug, Clone, Copy, Default)]
pub struct PackedHash;

/// The hasher of [`PackedHash`].
#[derive(Debug, Default)]
pub struct PackedHasher(u64);

impl std::hash::BuildHasher for PackedHash {
    type Hasher = PackedHasher;
    fn build_hasher(&self) -> PackedHasher {
        PackedHasher(0)
    }
}

impl std::hash::Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u128(&mut self, key: u128) {
        let mixed =
            (key as u64 ^ ((key >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = mixed ^ mixed >> 32;
    }
}

/// Most bytes a [`Reachable`] state packs (labels and orientations of its sets).
const REACHABLE_BYTES: usize = 16;

impl Reachable {
    fn key(&self, state: &Element) -> u128 {
        let mut key = 0u128;
        for &(s, drop_ori) in &self.sets {
            let orbit = &state.orbits[s];
            for &b in &orbit.perm {
                key = key << self.width | b as u128;
            }
            if !drop_ori {
                for &b in &orbit.ori {
                    key = key << self.width | b as u128;
                }
            }
        }
        key
    }

    /// A coordinate over `group` with no states yet: the packing that fits its sets (8
    /// bits a byte, or 4 when only that fits and the sets carry `Illegal` rules or a reading
    /// parity) and its `Illegal` rules as packed bytes;
    /// `None` when the states fit no packing.
    fn empty(puzzle: &PermPuzzle, group: &[usize], facts: &[SetFacts]) -> Option<Self> {
        let sets: Vec<(usize, bool)> = group
            .iter()
            .map(|&s| (s, facts[s].wild || !facts[s].twisted))
            .collect();
        let mut total = 0usize;
        let mut small_values = true;
        let mut offsets = Vec::with_capacity(sets.len());
        for &(s, drop_ori) in &sets {
            let solved = &puzzle.solved.orbits[s];
            offsets.push(total);
            total += solved.perm.len() * if drop_ori { 1 } else { 2 };
            small_values &= solved.perm.iter().all(|&l| l < 16)
                && (drop_ori || (puzzle.sets[s].omod < 16 && !solved.ori.contains(&WILD)));
        }
        let rules: Vec<(usize, Vec<u8>)> = puzzle
            .illegal
            .iter()
            .filter_map(|rule| {
                let k = sets.iter().position(|&(s, _)| s == rule.set)?;
                Some((offsets[k] + rule.slot, rule.labels.clone()))
            })
            .collect();
        let reading = puzzle.readings.iter().find_map(|r| {
            let k = sets.iter().position(|&(s, _)| s == r.set)?;
            let b = sets.iter().position(|&(s, _)| s == r.bit)?;
            Some((
                offsets[k],
                puzzle.sets[r.set].size,
                offsets[b],
                r.counted.clone(),
            ))
        });
        // Half-byte packing only for sets no other coordinate can follow (`Illegal` rules,
        // a reading parity): the 4x4x4's 24 centres would fit it too, but their places
        // rank far faster than a hash of every state (its plan opened in 15 s, not 1.3).
        let only_here = !rules.is_empty() || reading.is_some();
        let width = if total <= REACHABLE_BYTES {
            8
        } else if small_values && only_here && total <= 2 * REACHABLE_BYTES {
            4
        } else {
            return None;
        };
        Some(Reachable {
            sets,
            width,
            rules,
            reading,
            index: std::collections::HashMap::default(),
            keys: Vec::new(),
            table: Vec::new(),
            forbidden: Vec::new(),
        })
    }

    /// Notes the move table's next entry as a move into a forbidden state.
    fn forbid_next(&mut self) {
        self.forbid(self.table.len());
    }

    /// Notes the move table's entry `at` as a move into a forbidden state.
    fn forbid(&mut self, at: usize) {
        if self.forbidden.len() <= at / 64 {
            self.forbidden.resize(at / 64 + 1, 0);
        }
        self.forbidden[at / 64] |= 1 << (at % 64);
    }

    /// Whether move `m` (of `moves`) from state `value` breaks one of the coordinate's
    /// `Illegal` rules.
    #[inline]
    pub fn forbids(&self, value: u64, m: usize, moves: usize) -> bool {
        let at = value as usize * moves + m;
        self.forbidden
            .get(at / 64)
            .is_some_and(|word| word >> (at % 64) & 1 == 1)
    }

    /// The moves (of `moves`, at most 128) that break one of the coordinate's `Illegal`
    /// rules from state `value`, a bit per move: a search leaves them out before it
    /// makes any child.
    pub fn forbidden_moves(&self, value: u64, moves: usize) -> u128 {
        let start = value as usize * moves;
        let word = |i: usize| self.forbidden.get(i).copied().unwrap_or(0) as u128;
        // The bits start..start + moves, from the three words they can span.
        let (i, shift) = (start / 64, start % 64);
        let low = (word(i) | word(i + 1) << 64) >> shift;
        let high = if shift == 0 {
            0
        } else {
            word(i + 2) << (128 - shift)
        };
        let bits = low | high;
        if moves >= 128 {
            bits
        } else {
            bits & ((1u128 << moves) - 1)
        }
    }

    /// How many `Illegal` rules the coordinate keeps.
    pub fn rules(&self) -> usize {
        self.rules.len()
    }

    /// `pm` applied to packed state `here`, the reading parity worked out from where the
    /// counted pieces were and where the move takes them.
    fn step(&self, pm: &PackedMove, here: &[u8], there: &mut [u8]) {
        pm.apply(here, there);
        let Some((at, size, bit, counted)) = &self.reading else {
            return;
        };
        // The counted pieces numbered in their order here, then read in their order there:
        // the parity of that arrangement (by its cycles) is the change the move makes.
        let mut place = [u8::MAX; 2 * REACHABLE_BYTES];
        let mut next = 0u8;
        for i in 0..*size {
            if counted[here[at + i] as usize] {
                place[i] = next;
                next += 1;
            }
        }
        let mut order = [0u8; 2 * REACHABLE_BYTES];
        let mut k = 0;
        for j in 0..*size {
            let p = place[pm.from[at + j] - at];
            if p != u8::MAX {
                order[k] = p;
                k += 1;
            }
        }
        let mut seen = 0u32;
        let mut cycles = 0;
        for start in 0..k {
            if seen >> start & 1 == 0 {
                cycles += 1;
                let mut i = start;
                while seen >> i & 1 == 0 {
                    seen |= 1 << i;
                    i = order[i] as usize;
                }
            }
        }
        let order_odd = (k - cycles) % 2 == 1;
        let odd = (here[*bit] == 1) != order_odd;
        there[*bit] = u8::from(odd);
        there[bit + 1] = u8::from(!odd);
    }

    /// Whether packed state `bytes` breaks none of the coordinate's `Illegal` rules.
    fn legal(&self, bytes: &[u8]) -> bool {
        self.rules
            .iter()
            .all(|(at, labels)| !labels.contains(&bytes[*at]))
    }

    fn pack(&self, bytes: &[u8]) -> u128 {
        bytes
            .iter()
            .fold(0u128, |k, &b| k << self.width | b as u128)
    }

    fn unpack(&self, key: u128, out: &mut [u8]) {
        let len = out.len();
        let mask = (1u128 << self.width) - 1;
        for (i, b) in out.iter_mut().enumerate() {
            *b = (key >> (self.width as usize * (len - 1 - i)) & mask) as u8;
        }
    }

    /// Number of states.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none (never: the solved state is one).
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The sets enumerated together.
    pub fn sets(&self) -> Vec<usize> {
        self.sets.iter().map(|&(s, _)| s).collect()
    }

    /// The packed states, by number.
    pub fn keys(&self) -> &[u128] {
        &self.keys
    }

    /// Bytes of one packed state, and the moves acting on packed states.
    fn layout(&self, puzzle: &PermPuzzle) -> (usize, Vec<PackedMove>) {
        let total: usize = self
            .sets
            .iter()
            .map(|&(s, drop_ori)| puzzle.sets[s].size * if drop_ori { 1 } else { 2 })
            .sum();
        let packed_moves = puzzle
            .moves
            .iter()
            .map(|m| {
                let mut pm = PackedMove {
                    from: Vec::with_capacity(total),
                    twist: Vec::with_capacity(total),
                    omod: Vec::with_capacity(total),
                };
                let mut at = 0;
                for &(s, drop_ori) in &self.sets {
                    let o = &m.element.orbits[s];
                    let size = o.perm.len();
                    for &src in &o.perm {
                        pm.from.push(at + src as usize);
                        pm.twist.push(0);
                        pm.omod.push(1);
                    }
                    if !drop_ori {
                        for (&src, &t) in o.perm.iter().zip(&o.ori) {
                            pm.from.push(at + size + src as usize);
                            pm.twist.push(t);
                            pm.omod.push(puzzle.sets[s].omod);
                        }
                    }
                    at += if drop_ori { size } else { 2 * size };
                }
                pm
            })
            .collect();
        (total, packed_moves)
    }
}

/// A move acting on packed states: byte `i` of the result comes from byte `from[i]`,
/// plus `twist[i]` modulo `omod[i]` (orientation bytes; "any" stays any).
struct PackedMove {
    from: Vec<usize>,
    twist: Vec<u8>,
    omod: Vec<u8>,
}

impl PackedMove {
    fn apply(&self, bytes: &[u8], out: &mut [u8]) {
        for i in 0..out.len() {
            let b = bytes[self.from[i]];
            out[i] = if self.omod[i] <= 1 || b == WILD {
                b
            } else {
                ((b as u16 + self.twist[i] as u16) % self.omod[i] as u16) as u8
            };
        }
    }
}

/// One coordinate of a projection.
#[derive(Debug, Clone)]
pub enum Coord {
    /// The reachable states of a whole set.
    Reachable(Reachable),
    /// Orientations of a whole set.
    Twist(Twist),
    /// Orientations of some slots of a set whose pieces never move.
    TwistPart(TwistPart),
    /// Places of a set's pieces by class.
    Places(Places),
    /// Places of 10 to 14 distinct pieces, in two parts.
    Split(Split),
    /// Places and twists of some distinct pieces.
    Tracked(Tracked),
}

/// Why a projection cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct CoordError(pub String);

impl Coord {
    /// Number of values.
    pub fn size(&self) -> u64 {
        match self {
            Coord::Reachable(r) => r.index.len() as u64,
            Coord::Twist(t) => t.size(),
            Coord::TwistPart(t) => t.size(),
            Coord::Places(p) => p.size(),
            Coord::Split(s) => s.size(),
            Coord::Tracked(t) => t.size(),
        }
    }

    /// The value of a state (`None`: a state of the set no move sequence reaches).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        Some(match self {
            Coord::Reachable(r) => *r.index.get(&r.key(state))? as u64,
            Coord::Twist(t) => {
                let ori = &state.orbits[t.set].ori;
                // The digit left out must be what the kept sum says: a state breaking the
                // moves' invariant has no rank.
                if let Some(sum) = t.reduced {
                    let total: u64 = ori.iter().map(|&o| o as u64).sum();
                    if total % t.omod != sum {
                        return None;
                    }
                }
                t.encode_ori(ori)
            }
            Coord::TwistPart(t) => t.encode_ori(&state.orbits[t.set].ori),
            Coord::Places(p) => {
                let perm = &state.orbits[p.set].perm;
                let mut scratch = Scratch::new(perm.len());
                let classes = scratch.slice();
                for (c, &l) in classes.iter_mut().zip(perm) {
                    *c = p.class_of[l as usize];
                }
                if p.halved && parity(classes) != p.solved_parity {
                    return None;
                }
                p.encode_classes(classes)
            }
            Coord::Split(s) => {
                let perm = &state.orbits[s.set].perm;
                if s.halved && parity(perm) != s.want {
                    return None;
                }
                let mut slots = Scratch::new(s.n);
                let slot_of = slots.slice();
                for (slot, &label) in perm.iter().enumerate() {
                    slot_of[label as usize] = slot as u8;
                }
                let head = rank_slots(&slot_of[..s.a], s.n);
                let mut rest = Scratch::new(perm.len().saturating_sub(s.a));
                let order = rest.slice();
                for (o, &l) in order
                    .iter_mut()
                    .zip(perm.iter().filter(|&&l| l as usize >= s.a))
                {
                    *o = l - s.a as u8;
                }
                head * s.orders() + (rank_perm(order) >> u32::from(s.halved))
            }
            Coord::Tracked(t) => {
                let orbit = &state.orbits[t.set];
                let mut scratch = Scratch::new(t.labels.len());
                let slots = scratch.slice();
                let mut code = 0u64;
                let mut place = 1u64;
                for (i, &label) in t.labels.iter().enumerate() {
                    let slot = orbit.perm.iter().position(|&l| l == label).unwrap_or(0);
                    slots[i] = slot as u8;
                    code += orbit.ori[slot] as u64 % t.omod * place;
                    place *= t.omod;
                }
                rank_slots(slots, t.n) * t.twists() + code
            }
        })
    }

    /// Writes the part of a state this coordinate covers, from its value, into `out`;
    /// false when this kind of coordinate cannot (tracked pieces, an unknown value).
    pub fn decode_into(&self, value: u64, out: &mut Element) -> bool {
        match self {
            Coord::Reachable(r) => {
                let Some(&key) = r.keys.get(value as usize) else {
                    return false;
                };
                let total: usize = r
                    .sets
                    .iter()
                    .map(|&(s, drop)| out.orbits[s].perm.len() * if drop { 1 } else { 2 })
                    .sum();
                let mut bytes = vec![0u8; total];
                r.unpack(key, &mut bytes);
                let mut at = 0;
                for &(s, drop_ori) in &r.sets {
                    let orbit = &mut out.orbits[s];
                    let n = orbit.perm.len();
                    orbit.perm.copy_from_slice(&bytes[at..at + n]);
                    at += n;
                    if !drop_ori {
                        orbit.ori.copy_from_slice(&bytes[at..at + n]);
                        at += n;
                    }
                }
                true
            }
            Coord::Twist(t) => {
                out.orbits[t.set].ori = t.decode(value);
                true
            }
            Coord::TwistPart(t) => {
                let mut value = value;
                for &slot in &t.slots {
                    out.orbits[t.set].ori[slot] = (value % t.omod) as u8;
                    value /= t.omod;
                }
                true
            }
            Coord::Places(p) => {
                let classes = p.decode(value, p.solved_parity);
                out.orbits[p.set].perm = classes.iter().map(|&c| p.labels[c as usize]).collect();
                true
            }
            Coord::Split(s) => {
                let orders = s.orders();
                let (head, order) = (value / orders, value % orders);
                let slots = unrank_slots(head, s.a, s.n);
                let build = |order_rank: u64| -> Vec<u8> {
                    let rest = unrank_perm(order_rank, s.n - s.a);
                    let mut perm = vec![u8::MAX; s.n];
                    for (label, &slot) in slots.iter().enumerate() {
                        perm[slot as usize] = label as u8;
                    }
                    let mut rest = rest.iter();
                    for cell in perm.iter_mut().filter(|c| **c == u8::MAX) {
                        *cell = rest.next().map_or(0, |&l| l + s.a as u8);
                    }
                    perm
                };
                out.orbits[s.set].perm = if s.halved {
                    let even = build(order * 2);
                    if parity(&even) == s.want {
                        even
                    } else {
                        build(order * 2 + 1)
                    }
                } else {
                    build(order)
                };
                true
            }
            Coord::Tracked(_) => false,
        }
    }

    /// The set whose orientations this coordinate keeps apart from its places.
    pub fn twist_set(&self) -> Option<usize> {
        match self {
            Coord::Twist(t) => Some(t.set),
            _ => None,
        }
    }

    /// The coordinate's move table (`table[value * moves + m]`), when it has a plain one.
    pub fn move_table(&self) -> Option<&[u32]> {
        match self {
            Coord::Reachable(r) => Some(&r.table),
            Coord::Twist(t) => Some(&t.table),
            Coord::TwistPart(t) => Some(&t.table),
            Coord::Places(p) => Some(p.move_table()),
            Coord::Split(_) | Coord::Tracked(_) => None,
        }
    }

    /// The value after move `m` (of `moves` moves): one read of a move table, inlined
    /// into the searches' inner loops; the coordinates without a plain table step apart.
    #[inline(always)]
    pub fn apply(&self, value: u64, m: usize, moves: usize) -> u64 {
        let at = value as usize * moves + m;
        match self {
            Coord::Reachable(r) => u64::from(r.table[at]),
            Coord::Twist(t) => u64::from(t.table[at]),
            Coord::TwistPart(t) => u64::from(t.table[at]),
            Coord::Places(p) => match p.table.get() {
                Some(table) => u64::from(table[at]),
                None => p.apply_without_table(value, m, moves),
            },
            Coord::Split(s) => s.step(value, m, moves),
            Coord::Tracked(t) => t.step(value, m, moves),
        }
    }

    /// [`Coord::apply`] for every move of `taken` (a bit per move), each value handed to
    /// `write` with its move: the kind of coordinate is told apart once a node rather
    /// than once a child, which the searches' children-first loops pay for otherwise. A
    /// coordinate with a move table hands on its whole row, the moves not taken too: a
    /// straight copy costs less than picking the moves out (the 4x4x4's solves 5%).
    #[inline(always)]
    pub fn apply_each(
        &self,
        value: u64,
        moves: usize,
        taken: u128,
        mut write: impl FnMut(usize, u64),
    ) {
        let row = value as usize * moves;
        #[inline(always)]
        fn copy(row: &[u32], write: &mut impl FnMut(usize, u64)) {
            for (m, &v) in row.iter().enumerate() {
                write(m, u64::from(v));
            }
        }
        match self {
            Coord::Reachable(r) => copy(&r.table[row..][..moves], &mut write),
            Coord::Twist(t) => copy(&t.table[row..][..moves], &mut write),
            Coord::TwistPart(t) => copy(&t.table[row..][..moves], &mut write),
            Coord::Places(p) => match p.table.get() {
                Some(table) => copy(&table[row..][..moves], &mut write),
                None => match &p.stepper {
                    // One mask for every move.
                    Some(stepper) => {
                        let mask = stepper.mask_of(value);
                        set_bits(taken).for_each(|m| write(m, stepper.step_mask(mask, m)))
                    }
                    None => set_bits(taken)
                        .for_each(|m| write(m, p.apply_without_table(value, m, moves))),
                },
            },
            Coord::Split(s) => set_bits(taken).for_each(|m| write(m, s.step(value, m, moves))),
            Coord::Tracked(t) => set_bits(taken).for_each(|m| write(m, t.step(value, m, moves))),
        }
    }
}

/// The set bits of `mask` (moves, a bit each), lowest first.
#[inline]
pub fn set_bits(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let m = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            m
        })
    })
}

/// Per set: whether the moves change its places, its orientations, and which invariants
/// they keep.
#[derive(Debug, Clone)]
pub struct SetFacts {
    /// Some move moves a piece.
    pub moved: bool,
    /// Some move twists a piece.
    pub twisted: bool,
    /// Every move keeps the orientation sum.
    pub keeps_sum: bool,
    /// Every move is an even permutation of the set.
    pub keeps_parity: bool,
    /// The solved state repeats no label.
    pub distinct: bool,
    /// The solved state has orientation "any" in the set (all its pieces).
    pub wild: bool,
    /// Some pieces but not all have orientation "any".
    pub partly_wild: bool,
}

/// What the moves do to each set.
pub fn set_facts(puzzle: &PermPuzzle) -> Vec<SetFacts> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(s, def)| {
            let solved = &puzzle.solved.orbits[s];
            let mut labels = solved.perm.clone();
            labels.sort_unstable();
            let wilds = solved.ori.iter().filter(|&&o| o == WILD).count();
            SetFacts {
                moved: puzzle.moves.iter().any(|m| {
                    m.element.orbits[s]
                        .perm
                        .iter()
                        .enumerate()
                        .any(|(i, &p)| p as usize != i)
                }),
                twisted: def.omod > 1
                    && puzzle
                        .moves
                        .iter()
                        .any(|m| m.element.orbits[s].ori.iter().any(|&t| t != 0)),
                keeps_sum: puzzle.moves.iter().all(|m| {
                    m.element.orbits[s]
                        .ori
                        .iter()
                        .map(|&t| t as u64)
                        .sum::<u64>()
                        % def.omod as u64
                        == 0
                }),
                keeps_parity: puzzle
                    .moves
                    .iter()
                    .all(|m| parity(&m.element.orbits[s].perm) == 0),
                distinct: labels.windows(2).all(|w| w[0] != w[1]),
                wild: wilds > 0 && wilds == def.size,
                partly_wild: wilds > 0 && wilds < def.size,
            }
        })
        .collect()
}

/// For each move, where the piece in each slot of set `s` goes.
fn destinations(puzzle: &PermPuzzle, s: usize) -> Vec<Vec<u8>> {
    puzzle
        .moves
        .iter()
        .map(|m| {
            let perm = &m.element.orbits[s].perm;
            let mut to = vec![0u8; perm.len()];
            for (i, &from) in perm.iter().enumerate() {
                to[from as usize] = i as u8;
            }
            to
        })
        .collect()
}

/// Fills a coordinate's move table: decode each value, apply each move, encode.
/// A move table: row `v` holds where each move takes value `v`. `decode` runs once per
/// row (into what every move of the row reads), `step` once per entry; rows are filled
/// on every core.
fn fill_table<D>(
    size: u64,
    moves: usize,
    decode: impl Fn(u64) -> D + Sync,
    step: impl Fn(&D, usize) -> u64 + Sync,
) -> Vec<u32> {
    use rayon::prelude::*;
    let mut table = vec![0u32; size as usize * moves];
    if moves == 0 {
        return table;
    }
    table
        .par_chunks_mut(moves)
        .enumerate()
        .for_each(|(v, row)| {
            let decoded = decode(v as u64);
            for (m, entry) in row.iter_mut().enumerate() {
                *entry = step(&decoded, m) as u32;
            }
        });
    table
}

/// Largest set state space [`Coord::reachable`] enumerates, in entries of its move
/// table (states times moves).
pub const REACHABLE_LIMIT: u64 = 1 << 25;

impl Coord {
    /// A move table of the coordinate's `size` values made by stepping each one
    /// ([`Coord::apply`]): for a BFS over a coordinate that steps without a plain table.
    pub fn stepped_move_table(&self, size: u64, moves: usize) -> Vec<u32> {
        fill_table(size, moves, |v| v, |&v, m| self.apply(v, m, moves))
    }

    /// The states the sets `group` reach together (by a BFS of those sets alone, by legal
    /// moves when the definition has `Illegal` rules on them), or `None` when there are
    /// too many for a table ([`REACHABLE_LIMIT`]).
    pub fn reachable(
        puzzle: &PermPuzzle,
        group: &[usize],
        facts: &[SetFacts],
    ) -> Option<Reachable> {
        Self::explore(puzzle, group, facts, usize::MAX)
    }

    /// How many states the sets `group` reach together, counted up to `enough` (the
    /// search stops there: a lower bound needs no more), or `None` as for
    /// [`Coord::reachable`].
    pub fn reachable_count(
        puzzle: &PermPuzzle,
        group: &[usize],
        facts: &[SetFacts],
        enough: usize,
    ) -> Option<usize> {
        Self::explore(puzzle, group, facts, enough).map(|r| r.len().min(enough))
    }

    /// The BFS of [`Coord::reachable`], stopped once `enough` states are numbered (the
    /// result then lists only those, and is no coordinate).
    fn explore(
        puzzle: &PermPuzzle,
        group: &[usize],
        facts: &[SetFacts],
        enough: usize,
    ) -> Option<Reachable> {
        let moves = puzzle.moves.len();
        let limit = (REACHABLE_LIMIT / moves as u64) as usize;
        let mut coord = Reachable::empty(puzzle, group, facts)?;
        // A cheap bound first: arrangements of the labels times orientations (which
        // `Illegal` rules may cut far down: then only the search tells).
        let mut bound = 1u128;
        for &(s, drop_ori) in &coord.sets {
            let solved = &puzzle.solved.orbits[s];
            let mut labels = solved.perm.clone();
            labels.sort_unstable();
            let counts: Vec<usize> = labels.chunk_by(|a, b| a == b).map(<[u8]>::len).collect();
            let twists = if drop_ori {
                1
            } else {
                // Orientations `?` are not kept: only the others count.
                let kept = solved.ori.iter().filter(|&&o| o != WILD).count();
                (puzzle.sets[s].omod as u128)
                    .checked_pow(kept as u32)
                    .unwrap_or(u128::MAX)
            };
            bound = bound
                .saturating_mul(arrangements(&counts))
                .saturating_mul(twists);
        }
        if coord.rules.is_empty()
            && bound.saturating_mul(moves as u128) > 4 * REACHABLE_LIMIT as u128
        {
            return None;
        }
        // Packed layout: per set, its labels, then its orientations if kept.
        let (total, packed_moves) = coord.layout(puzzle);
        let mut solved = Vec::with_capacity(total);
        for &(s, drop_ori) in &coord.sets {
            solved.extend_from_slice(&puzzle.solved.orbits[s].perm);
            if !drop_ori {
                solved.extend_from_slice(&puzzle.solved.orbits[s].ori);
            }
        }
        coord.index.insert(coord.pack(&solved), 0);
        coord.keys.push(coord.pack(&solved));
        let mut states: Vec<u8> = solved;
        let mut there = vec![0u8; total];
        let mut next = 0;
        while next * total < states.len() && coord.index.len() < enough {
            for pm in &packed_moves {
                coord.step(pm, &states[next * total..][..total], &mut there);
                if !coord.legal(&there) {
                    coord.forbid_next();
                    coord.table.push(next as u32);
                    continue;
                }
                let fresh = coord.index.len() as u32;
                let key = coord.pack(&there);
                let id = *coord.index.entry(key).or_insert(fresh);
                if id == fresh {
                    if fresh as usize >= limit {
                        return None;
                    }
                    states.extend_from_slice(&there);
                    coord.keys.push(key);
                }
                coord.table.push(id);
            }
            next += 1;
        }
        Some(coord)
    }

    /// The states of the sets `group` from their packed keys, in number order (as
    /// [`Coord::reachable`] enumerated them); the move table is made when `tables`
    /// (taken from `rows` when they fit: kept by an earlier process).
    /// `None` when the keys do not fit the sets (a damaged file).
    pub fn reachable_from_keys(
        puzzle: &PermPuzzle,
        group: &[usize],
        facts: &[SetFacts],
        keys: Vec<u128>,
        tables: bool,
        rows: Option<MoveRows>,
    ) -> Option<Reachable> {
        if group.iter().any(|&s| s >= puzzle.sets.len()) {
            return None;
        }
        let mut coord = Reachable::empty(puzzle, group, facts)?;
        coord.index = std::collections::HashMap::with_capacity_and_hasher(keys.len(), PackedHash);
        coord.keys = keys;
        for (id, &key) in coord.keys.iter().enumerate() {
            if coord.index.insert(key, id as u32).is_some() {
                return None;
            }
        }
        let (total, packed_moves) = coord.layout(puzzle);
        // Rows kept from an earlier process, when they fit these keys.
        let rows = rows.filter(|r| {
            let entries = coord.keys.len() * packed_moves.len();
            r.table.len() == entries
                && r.forbidden.len() <= entries.div_ceil(64)
                && r.table.iter().all(|&e| (e as usize) < coord.keys.len())
        });
        if let (true, Some(rows)) = (tables, rows) {
            coord.table = rows.table;
            coord.forbidden = rows.forbidden;
        } else if tables {
            use rayon::prelude::*;
            // Rows made a block of states at a time on every core, then joined in order:
            // each block's entries and the places of its moves into forbidden states.
            const BLOCK: usize = 1024;
            let moves = packed_moves.len();
            let blocks: Vec<Option<(Vec<u32>, Vec<usize>)>> = (0..coord.keys.len())
                .into_par_iter()
                .step_by(BLOCK)
                .map(|first| {
                    let last = (first + BLOCK).min(coord.keys.len());
                    let mut here = vec![0u8; total];
                    let mut there = vec![0u8; total];
                    let mut entries = Vec::with_capacity((last - first) * moves);
                    let mut forbidden = Vec::new();
                    for id in first..last {
                        coord.unpack(coord.keys[id], &mut here);
                        for (m, pm) in packed_moves.iter().enumerate() {
                            coord.step(pm, &here, &mut there);
                            let entry = if coord.legal(&there) {
                                *coord.index.get(&coord.pack(&there))?
                            } else {
                                forbidden.push(id * moves + m);
                                id as u32
                            };
                            entries.push(entry);
                        }
                    }
                    Some((entries, forbidden))
                })
                .collect();
            coord.table.reserve(coord.keys.len() * moves);
            for block in blocks {
                let (entries, forbidden) = block?;
                coord.table.extend_from_slice(&entries);
                for at in forbidden {
                    coord.forbid(at);
                }
            }
        }
        Some(coord)
    }

    /// The orientations of set `s` (with its move table when `tables`; without, it only
    /// encodes states).
    pub fn twist(
        puzzle: &PermPuzzle,
        s: usize,
        facts: &SetFacts,
        tables: bool,
    ) -> Result<Coord, CoordError> {
        let def = &puzzle.sets[s];
        let solved = &puzzle.solved.orbits[s];
        let reduced = facts
            .keeps_sum
            .then(|| solved.ori.iter().map(|&o| o as u64).sum::<u64>() % def.omod as u64);
        let mut twist = Twist {
            set: s,
            omod: def.omod as u64,
            n: def.size,
            reduced,
            table: Vec::new(),
        };
        let moves = puzzle.moves.len();
        // Checked before anything is made of it: 4 orientations of 32 pieces is 2^64.
        let values = (def.omod as u128)
            .checked_pow(twist.digits() as u32)
            .unwrap_or(u128::MAX);
        if values.saturating_mul(moves as u128) > MOVE_TABLE_LIMIT as u128 {
            return Err(CoordError(format!(
                "the orientations of set {} have {} values: too many for one table",
                def.name,
                shown_count(values)
            )));
        }
        if !tables {
            return Ok(Coord::Twist(twist));
        }
        let elements: Vec<_> = puzzle.moves.iter().map(|m| &m.element.orbits[s]).collect();
        twist.table = fill_table(
            twist.size(),
            moves,
            |v| twist.decode(v),
            |ori, m| {
                let mv = elements[m];
                let moved: Vec<u8> = mv
                    .perm
                    .iter()
                    .zip(&mv.ori)
                    .map(|(&from, &t)| ((ori[from as usize] as u64 + t as u64) % twist.omod) as u8)
                    .collect();
                twist.encode_ori(&moved)
            },
        );
        Ok(Coord::Twist(twist))
    }

    /// The orientations of `slots` of set `s`, whose pieces no move permutes (with its
    /// move table).
    pub fn twist_part(puzzle: &PermPuzzle, s: usize, slots: &[usize]) -> Result<Coord, CoordError> {
        let def = &puzzle.sets[s];
        let omod = def.omod as u64;
        let moves = puzzle.moves.len();
        let values = (omod as u128)
            .checked_pow(slots.len() as u32)
            .unwrap_or(u128::MAX);
        if values.saturating_mul(moves as u128) > MOVE_TABLE_LIMIT as u128 {
            return Err(CoordError(format!(
                "the orientations of {} slots of set {} have {} values: too many for one table",
                slots.len(),
                def.name,
                shown_count(values)
            )));
        }
        let mut part = TwistPart {
            set: s,
            omod,
            slots: slots.to_vec(),
            table: Vec::new(),
        };
        let twists: Vec<&[u8]> = puzzle
            .moves
            .iter()
            .map(|m| m.element.orbits[s].ori.as_slice())
            .collect();
        part.table = fill_table(
            part.size(),
            moves,
            |v| v,
            |&v, m| {
                // Pieces stay in their slots: each followed slot gains its own twist.
                let mut value = v;
                let mut out = 0u64;
                let mut place = 1u64;
                for &slot in &part.slots {
                    let o = (value % omod + twists[m][slot] as u64) % omod;
                    value /= omod;
                    out += o * place;
                    place *= omod;
                }
                out
            },
        );
        Ok(Coord::TwistPart(part))
    }

    /// Where the pieces of set `s` are; `follow[label]` says which labels are followed
    /// (the others count as one blank class). Identical labels share a class. The move
    /// table is made when `tables`.
    pub fn places(
        puzzle: &PermPuzzle,
        s: usize,
        facts: &SetFacts,
        follow: &[bool],
        tables: bool,
    ) -> Result<Coord, CoordError> {
        let def = &puzzle.sets[s];
        let solved = &puzzle.solved.orbits[s];
        // Classes in order of first appearance in the solved state; blank last.
        let mut class_of = vec![u8::MAX; 256];
        let mut kinds = 0u8;
        for &label in &solved.perm {
            if follow[label as usize] && class_of[label as usize] == u8::MAX {
                class_of[label as usize] = kinds;
                kinds += 1;
            }
        }
        let blank = kinds;
        for c in class_of.iter_mut() {
            if *c == u8::MAX {
                *c = blank;
            }
        }
        let mut counts = vec![0usize; kinds as usize + 1];
        for &label in &solved.perm {
            counts[class_of[label as usize] as usize] += 1;
        }
        if counts[blank as usize] == 0 {
            counts.pop();
        }
        let everything_distinct = counts.iter().all(|&c| c == 1);
        let mut labels = vec![0u8; counts.len()];
        for &label in solved.perm.iter().rev() {
            labels[class_of[label as usize] as usize] = label;
        }
        let mut places = Places {
            labels,
            set: s,
            class_of,
            halved: everything_distinct && facts.keeps_parity && facts.distinct,
            solved_parity: 0,
            arrangements: multinomial(&counts),
            narrow: fits_u64(&counts),
            counts,
            table: OnceLock::new(),
            stepper: None,
        };
        let moves = puzzle.moves.len();
        let values = arrangements(&places.counts)
            >> u32::from(places.halved && arrangements(&places.counts) != u128::MAX);
        if values.saturating_mul(moves as u128) > MOVE_TABLE_LIMIT as u128 {
            return Err(CoordError(format!(
                "where the pieces of set {} are: {} values, too many for one table",
                def.name,
                shown_count(values)
            )));
        }
        let solved_classes: Vec<u8> = solved
            .perm
            .iter()
            .map(|&l| places.class_of[l as usize])
            .collect();
        let solved_parity = parity(&solved_classes);
        places.solved_parity = solved_parity;
        if !tables {
            return Ok(Coord::Places(places));
        }
        let elements: Vec<_> = puzzle.moves.iter().map(|m| &m.element.orbits[s]).collect();
        let n = def.size;
        if places.counts.len() == 2 && !everything_distinct && n < SMALL_BINOMIALS {
            // Two classes: a value is the mask of its class-1 slots, and a move carries
            // each byte of it to its new bits through a table of 256.
            let bytes = n.div_ceil(8);
            let carry: Vec<[u32; 256]> = elements
                .iter()
                .flat_map(|e| {
                    (0..bytes).map(|k| {
                        let mut row = [0u32; 256];
                        for (byte, to) in row.iter_mut().enumerate() {
                            for (slot, &from) in e.perm.iter().enumerate() {
                                let from = from as usize;
                                if from / 8 == k && byte >> (from % 8) & 1 == 1 {
                                    *to |= 1 << slot;
                                }
                            }
                        }
                        row
                    })
                })
                .collect();
            let stepper = TwoClassStepper {
                carry,
                bytes,
                ranker: TwoClassRanker::new(n),
                ones: places.counts[1],
                moves,
                masks: OnceLock::new(),
                values: places.size(),
            };
            if places.size() * moves as u64 <= EAGER_TWO_CLASS_ENTRIES {
                let _ = places.table.set(stepper.table(places.size()));
            }
            places.stepper = Some(Box::new(stepper));
            return Ok(Coord::Places(places));
        }
        let decode = |v| places.decode(v, solved_parity);
        let table = fill_table(places.size(), moves, decode, |classes, m| {
            // Sets have fewer than 256 slots: the moved classes fit on the stack.
            let perm = &elements[m].perm;
            let mut moved = [0u8; 256];
            for (to, &from) in moved.iter_mut().zip(perm) {
                *to = classes[from as usize];
            }
            places.encode_classes(&moved[..perm.len()])
        });
        let _ = places.table.set(table);
        Ok(Coord::Places(places))
    }

    /// Where the `n` (10 to 14) distinct pieces of set `s` are, in two parts (move tables
    /// made when `tables`).
    /// With `halved` (every move even), only positions of the solved state's parity are
    /// numbered.
    pub fn split(
        puzzle: &PermPuzzle,
        s: usize,
        halved: bool,
        tables: bool,
    ) -> Result<Coord, CoordError> {
        let def = &puzzle.sets[s];
        let n = def.size;
        let tail_len = 6usize.min(n - 1);
        let a = n - tail_len;
        let moves = puzzle.moves.len();
        let tail = factorial(tail_len);
        let heads = (0..a).fold(1u64, |v, i| v * (n - i) as u64);
        if heads.saturating_mul(moves as u64) > MOVE_TABLE_LIMIT {
            return Err(CoordError(format!(
                "where the {n} pieces of set {} are: too many values for tables",
                def.name
            )));
        }
        let mut split = Split {
            set: s,
            n,
            a,
            head: Vec::new(),
            order_move: Vec::new(),
            compose: Vec::new(),
            halved,
            want: parity(&puzzle.solved.orbits[s].perm),
            head_parity: Vec::new(),
            tail_parity: Vec::new(),
        };
        if !tables {
            return Ok(Coord::Split(split));
        }
        let dest = destinations(puzzle, s);
        let mut head = Vec::with_capacity((heads * moves as u64) as usize);
        let mut order_move = Vec::with_capacity(head.capacity());
        let mut head_parity = Vec::with_capacity(heads as usize);
        for v in 0..heads {
            let slots = unrank_slots(v, a, n);
            let mut taken = vec![false; n];
            for &s in &slots {
                taken[s as usize] = true;
            }
            let left: Vec<u8> = (0..n as u8).filter(|&s| !taken[s as usize]).collect();
            // The state with this head and the rest in increasing order: its parity.
            let mut perm = vec![0u8; n];
            for (piece, &slot) in slots.iter().enumerate() {
                perm[slot as usize] = piece as u8;
            }
            for (i, &slot) in left.iter().enumerate() {
                perm[slot as usize] = (a + i) as u8;
            }
            head_parity.push(parity(&perm));
            for to in &dest {
                let new_slots: Vec<u8> = slots.iter().map(|&s| to[s as usize]).collect();
                head.push(rank_slots(&new_slots, n) as u32);
                let mut new_taken = vec![false; n];
                for &s in &new_slots {
                    new_taken[s as usize] = true;
                }
                let new_left: Vec<u8> = (0..n as u8).filter(|&s| !new_taken[s as usize]).collect();
                // Index r of the slots left goes to index induced[r].
                let induced: Vec<u8> = left
                    .iter()
                    .map(|&s| {
                        let d = to[s as usize];
                        new_left.iter().position(|&t| t == d).unwrap_or(0) as u8
                    })
                    .collect();
                order_move.push(rank_perm(&induced) as u16);
            }
        }
        let mut compose = Vec::with_capacity((tail * tail) as usize);
        for order in 0..tail {
            let o = unrank_perm(order, tail_len);
            for induced in 0..tail {
                let ind = unrank_perm(induced, tail_len);
                let mut new = vec![0u8; tail_len];
                for r in 0..tail_len {
                    new[ind[r] as usize] = o[r];
                }
                compose.push(rank_perm(&new) as u16);
            }
        }
        split.tail_parity = (0..tail)
            .map(|o| parity(&unrank_perm(o, tail_len)))
            .collect();
        split.head = head;
        split.order_move = order_move;
        split.compose = compose;
        split.head_parity = head_parity;
        Ok(Coord::Split(split))
    }

    /// Where the distinct pieces `labels` of set `s` are, and their twists modulo
    /// `omod` (1: twists not followed); move tables come from `cache` when made before.
    pub fn tracked(
        puzzle: &PermPuzzle,
        s: usize,
        labels: &[u8],
        omod: u64,
        cache: &mut TrackedCache,
    ) -> Result<Coord, CoordError> {
        let def = &puzzle.sets[s];
        let n = def.size;
        let moves = puzzle.moves.len();
        let k = labels.len();
        let slots_count = (0..k).fold(1u64, |v, i| v * (n - i) as u64);
        if slots_count.saturating_mul(moves as u64) > MOVE_TABLE_LIMIT
            || omod.saturating_pow(k as u32) > u32::MAX as u64
        {
            return Err(CoordError(format!(
                "{k} pieces of set {} are too many for one table",
                def.name
            )));
        }
        let tables = cache
            .entry((s, k, omod))
            .or_insert_with(|| {
                let elements: Vec<_> = puzzle.moves.iter().map(|m| &m.element.orbits[s]).collect();
                let dest = destinations(puzzle, s);
                // Rows filled on every core: the megaminx's edges have 31 million entries.
                use rayon::prelude::*;
                let entries = (slots_count * moves as u64) as usize;
                let mut head = vec![0u32; entries];
                // Without twists every delta is 0: no table (half the memory).
                let mut delta = vec![0u32; if omod > 1 { entries } else { 0 }];
                // One row per slots value: the new slots rank, and (with twists) the
                // twists gained, one base-`omod` digit per piece.
                // Sets have fewer than 256 slots: a row's slots fit on the stack.
                let fill = |v: usize, head_row: &mut [u32], mut delta_row: Option<&mut [u32]>| {
                    let mut slots = [0u8; 256];
                    let slots = &mut slots[..k];
                    unrank_slots_into(v as u64, n, slots);
                    let mut moved = [0u8; 256];
                    let moved = &mut moved[..k];
                    for (m, to) in dest.iter().enumerate() {
                        for (new, &s) in moved.iter_mut().zip(slots.iter()) {
                            *new = to[s as usize];
                        }
                        head_row[m] = rank_slots(moved, n) as u32;
                        if let Some(delta_row) = delta_row.as_deref_mut() {
                            let mut code = 0u64;
                            let mut place = 1u64;
                            for &d in moved.iter() {
                                code += elements[m].ori[d as usize] as u64 % omod * place;
                                place *= omod;
                            }
                            delta_row[m] = code as u32;
                        }
                    }
                };
                if omod > 1 {
                    head.par_chunks_mut(moves)
                        .zip(delta.par_chunks_mut(moves))
                        .enumerate()
                        .for_each(|(v, (h, d))| fill(v, h, Some(d)));
                } else {
                    head.par_chunks_mut(moves)
                        .enumerate()
                        .for_each(|(v, h)| fill(v, h, None));
                }
                std::sync::Arc::new(TrackedMoves { head, delta })
            })
            .clone();
        Ok(Coord::Tracked(Tracked {
            set: s,
            n,
            labels: labels.to_vec(),
            omod,
            tables,
        }))
    }
}

/// A state space over some coordinates: states are the mixed-radix numbers of their
/// values (the first coordinate most significant).
#[derive(Debug, Clone)]
pub struct Projection {
    /// The coordinates.
    pub coords: Vec<Coord>,
    /// Their sizes.
    pub radix: Vec<u64>,
    /// Number of states.
    pub size: u64,
    /// Number of moves.
    pub moves: usize,
    /// The solved state's number.
    pub solved: u64,
}

impl Projection {
    /// A projection over `coords` of `puzzle`'s moves.
    pub fn new(puzzle: &PermPuzzle, coords: Vec<Coord>) -> Result<Self, CoordError> {
        let radix: Vec<u64> = coords.iter().map(Coord::size).collect();
        let size = radix
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r))
            .filter(|&s| s < 1 << 40)
            .ok_or_else(|| CoordError("the projection has more than 2^40 states".into()))?;
        let mut projection = Self {
            coords,
            radix,
            size,
            moves: puzzle.moves.len(),
            solved: 0,
        };
        projection.solved = projection
            .encode(&puzzle.solved)
            .ok_or_else(|| CoordError("the solved state has no rank".into()))?;
        Ok(projection)
    }

    /// The number of a state (`None` for a state the moves never reach).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        self.coords
            .iter()
            .zip(&self.radix)
            .try_fold(0, |acc, (c, &r)| Some(acc * r + c.encode(state)?))
    }

    /// The state of the coordinate values `values`, the rest taken from `base` (the
    /// solved state); `None` when a coordinate cannot be decoded.
    pub fn decode(&self, values: &[u64], base: &Element) -> Option<Element> {
        let mut out = base.clone();
        self.decode_into(values, base, &mut out).then_some(out)
    }

    /// [`Projection::decode`] written into `out` (its memory reused); whether every
    /// coordinate could be decoded.
    pub fn decode_into(&self, values: &[u64], base: &Element, out: &mut Element) -> bool {
        out.assign(base);
        self.coords
            .iter()
            .zip(values)
            .all(|(c, &v)| c.decode_into(v, out))
    }

    /// The coordinate values of a state number.
    #[inline]
    pub fn values(&self, mut rank: u64, out: &mut [u64]) {
        for i in (0..self.radix.len()).rev() {
            out[i] = rank % self.radix[i];
            rank /= self.radix[i];
        }
    }

    /// The state number after move `m`, from the coordinate values of the state.
    #[inline]
    pub fn after(&self, values: &[u64], m: usize) -> u64 {
        self.coords
            .iter()
            .zip(values)
            .zip(&self.radix)
            .fold(0, |acc, ((c, &v), &r)| acc * r + c.apply(v, m, self.moves))
    }
}

#[cfg(test)]
mod tests {
    /// The stepper's masks by value are the ranker's unranking of every value (24 slots,
    /// 8 ones: the 4x4x4's first phase; and every count of ones among 1, 7 and 13
    /// slots), and each value's mask ranks back to it.
    #[test]
    fn stepped_masks_unrank_every_value() {
        let stepper = |n: usize, ones: usize| super::TwoClassStepper {
            carry: Vec::new(),
            bytes: n.div_ceil(8),
            ranker: super::TwoClassRanker::new(n),
            ones,
            moves: 0,
            masks: std::sync::OnceLock::new(),
            values: super::binomials()[n][ones],
        };
        let mut cases = vec![(24, 8)];
        cases.extend(
            [1, 7, 13]
                .into_iter()
                .flat_map(|n| (0..=n).map(move |k| (n, k))),
        );
        for (n, ones) in cases {
            let stepper = stepper(n, ones);
            let masks = stepper.all_masks();
            assert_eq!(masks.len() as u64, stepper.values, "{n} slots, {ones} ones");
            for (value, &mask) in masks.iter().enumerate() {
                assert_eq!(mask.count_ones() as usize, ones);
                assert!(u64::from(mask) < 1 << n);
                assert_eq!(stepper.ranker.rank(mask), value as u64);
                if value % 101 == 0 {
                    assert_eq!(stepper.ranker.unrank(value as u64, ones), mask);
                    assert_eq!(stepper.mask_of(value as u64), mask);
                }
            }
        }
        assert_eq!(stepper(24, 8).all_masks().len(), 735_471);
    }

    /// The byte-at-a-time ranker gives [`rank_two_class_mask`]'s ranks, and its unrank
    /// reverses them: every mask of 13 slots, and one in 97 of 24 slots.
    #[test]
    fn byte_ranks_equal_bit_ranks() {
        let small = super::TwoClassRanker::new(13);
        for mask in 0u32..1 << 13 {
            let rank = small.rank(mask);
            assert_eq!(rank, super::rank_two_class_mask(u64::from(mask), 13));
            assert_eq!(small.unrank(rank, mask.count_ones() as usize), mask);
        }
        let wide = super::TwoClassRanker::new(24);
        for mask in (0u32..1 << 24).step_by(97) {
            let rank = wide.rank(mask);
            assert_eq!(rank, super::rank_two_class_mask(u64::from(mask), 24));
            assert_eq!(wide.unrank(rank, mask.count_ones() as usize), mask);
        }
    }

    use super::*;

    /// Lehmer ranks by their definition (each digit: the later values below it), and
    /// Lehmer order is the lexicographic order of permutations.
    #[test]
    fn permutation_ranks_follow_their_definition() {
        fn by_definition(p: &[u8]) -> u64 {
            (0..p.len()).fold(0u64, |rank, i| {
                let below = p[i + 1..].iter().filter(|&&x| x < p[i]).count() as u64;
                rank * (p.len() - i) as u64 + below
            })
        }
        let mut previous = Vec::new();
        for r in 0..5040 {
            let p = unrank_perm(r, 7);
            assert!(p > previous, "rank {r} not in lexicographic order");
            assert_eq!(by_definition(&p), r);
            assert_eq!(rank_perm(&p), r);
            previous = p;
        }
        let mut rng = crate::rng::SplitMix64::new(5);
        for n in [1, 9, 12, 20] {
            let count = (1..=n as u64).product::<u64>();
            for _ in 0..1000 {
                let r = rng.next_u64() % count;
                let p = unrank_perm(r, n);
                let mut sorted = p.clone();
                sorted.sort_unstable();
                assert_eq!(sorted, (0..n as u8).collect::<Vec<_>>());
                assert_eq!(by_definition(&p), r);
                assert_eq!(rank_perm(&p), r);
            }
        }
    }

    #[test]
    fn rankings_round_trip() {
        for r in 0..720 {
            assert_eq!(rank_perm(&unrank_perm(r, 6)), r);
        }
        let counts = [2, 1, 3];
        for r in 0..multinomial(&counts) {
            assert_eq!(rank_multiset(&unrank_multiset(r, &counts), &counts), r);
        }
        assert_eq!(multinomial(&counts), 60);
        // The 4x4x4's centres: one colour followed (10,626), two (51,482,970).
        let mut rng = crate::rng::SplitMix64::new(5);
        for counts in [vec![4, 20], vec![4, 4, 16]] {
            let size = multinomial(&counts);
            assert!(size == 10_626 || size == 51_482_970);
            for r in (0..300).map(|_| rng.below(size)).chain([0, size - 1]) {
                assert_eq!(rank_multiset(&unrank_multiset(r, &counts), &counts), r);
            }
        }
        for r in 0..(8 * 7 * 6) {
            assert_eq!(rank_slots(&unrank_slots(r, 3, 8), 8), r);
        }
        // Slots past the first word of the free mask (up to 255 slots), the last rank
        // included: distinct slots, and back to the same rank.
        for (k, n) in [
            (1usize, 1usize),
            (5, 64),
            (4, 65),
            (6, 130),
            (3, 255),
            (12, 24),
        ] {
            let size = (0..k).fold(1u64, |v, i| v * (n - i) as u64);
            for r in (0..200).map(|_| rng.below(size)).chain([0, size - 1]) {
                let slots = unrank_slots(r, k, n);
                assert!(slots.iter().all(|&x| (x as usize) < n));
                let mut sorted = slots.clone();
                sorted.sort_unstable();
                sorted.dedup();
                assert_eq!(sorted.len(), k);
                assert_eq!(rank_slots(&slots, n), r);
            }
        }
    }

    /// Ranks are lexicographic (each arrangement ranked by the one before it plus one),
    /// classes may be empty, and the `u64` and `u128` paths agree; a multiset whose
    /// `M·T` passes 2^64 round-trips in `u128`.
    #[test]
    fn two_class_ranks_agree_with_the_general_rank_on_both_sides_of_the_small_table() {
        // Below 32 slots the ranks come from bit masks, from 32 on by the running count.
        for counts in [vec![8usize, 16], vec![16, 15], vec![5, 40], vec![1, 31]] {
            let all = multinomial(&counts);
            let step = (all / 5000).max(1);
            for r in (0..all).step_by(step as usize).chain([all - 1]) {
                let here = unrank_multiset_in::<u128>(r, &counts, all);
                assert_eq!(rank_two_classes(&here, &counts), r, "{counts:?}");
            }
        }
    }

    #[test]
    fn multiset_ranks_are_lexicographic_in_both_widths() {
        for counts in [
            vec![2, 0, 3, 1],
            vec![0, 4, 2],
            vec![3, 3, 3],
            vec![4, 5],
            vec![0, 3],
        ] {
            let mut previous: Option<Vec<u8>> = None;
            for r in 0..multinomial(&counts) {
                let here = unrank_multiset(r, &counts);
                let all = multinomial(&counts);
                if counts.len() == 2 {
                    assert_eq!(rank_two_classes(&here, &counts), r);
                }
                assert_eq!(here, unrank_multiset_in::<u128>(r, &counts, all));
                assert_eq!(rank_multiset_in::<u128>(&here, &counts, all), r);
                if let Some(p) = &previous {
                    assert!(*p < here, "{p:?} then {here:?}");
                }
                previous = Some(here);
            }
        }
        let counts = [9, 9, 9, 8];
        assert!(!fits_u64(&counts));
        let mut rng = crate::rng::SplitMix64::new(9);
        for _ in 0..100 {
            let r = rng.below(multinomial(&counts));
            assert_eq!(rank_multiset(&unrank_multiset(r, &counts), &counts), r);
        }
    }
}

#[cfg(test)]
mod split_tests {
    use super::*;
    use crate::puzzles::perm::{Definition, PuzzleMetric};

    /// A shipped definition (half turns counted as one), its sets' facts and the index
    /// of its set `name`.
    fn shipped_set(file: &str, name: &str) -> (PermPuzzle, Vec<SetFacts>, usize) {
        let puzzle = crate::puzzles::perm::shipped_puzzle(file, PuzzleMetric::Htm);
        let facts = set_facts(&puzzle);
        let s = (puzzle.sets.iter().position(|d| d.name == name))
            .unwrap_or_else(|| panic!("no set {name} in {file}"));
        (puzzle, facts, s)
    }

    /// The move table of two classes (made from masks) must be the one that decoding,
    /// moving and ranking each value gives: the 4x4x4's centres, one colour followed
    /// (10,626 values; its first phase's table, 735,471, takes the same path). Stepping
    /// without the table must give the same values.
    #[test]
    fn two_class_move_tables_match_moving_each_arrangement() {
        let (puzzle, facts, s) = shipped_set("4x4x4.tws", "CENTER");
        let mut follow = vec![false; 256];
        follow[puzzle.solved.orbits[s].perm[0] as usize] = true;
        let Coord::Places(places) =
            Coord::places(&puzzle, s, &facts[s], &follow, true).expect("places")
        else {
            panic!("not a places coordinate");
        };
        assert_eq!(places.counts.len(), 2);
        assert_eq!(places.size(), 10_626);
        let moves = puzzle.moves.len();
        assert_eq!(places.move_table().len(), 10_626 * moves);
        let lazy = Coord::Places(Places {
            table: OnceLock::new(),
            ..places.clone()
        });
        for v in 0..places.size() {
            let classes = places.decode(v, 0);
            for (m, mv) in puzzle.moves.iter().enumerate() {
                let perm = &mv.element.orbits[s].perm;
                let moved: Vec<u8> = perm.iter().map(|&from| classes[from as usize]).collect();
                let want = places.encode_classes(&moved);
                assert_eq!(
                    u64::from(places.move_table()[v as usize * moves + m]),
                    want,
                    "value {v}, move {m}"
                );
                assert_eq!(
                    lazy.apply(v, m, moves),
                    want,
                    "stepped: value {v}, move {m}"
                );
            }
        }
    }

    /// A count stopped at `enough` is the whole count when that is less, else at least
    /// `enough` (reported as `enough`): the FTO's corners, counted whole and in part.
    #[test]
    fn a_reachable_count_stops_at_enough() {
        let (puzzle, facts, s) = shipped_set("fto.tws", "CORNER");
        let whole = Coord::reachable(&puzzle, &[s], &facts)
            .expect("a table's worth")
            .len();
        assert!(whole > 1000, "{whole}");
        for enough in [1, 2, 100, whole - 1, whole, whole + 1, usize::MAX] {
            assert_eq!(
                Coord::reachable_count(&puzzle, &[s], &facts, enough),
                Some(whole.min(enough)),
                "enough {enough}"
            );
        }
    }

    /// Twelve pieces moved by three-cycles (even): the halved split must step exactly as
    /// composing states does.
    #[test]
    fn halved_split_steps_like_states() {
        let text = "Name cycles\nSet P 12 1\nSolved\nP\n1 2 3 4 5 6 7 8 9 10 11 12\nEnd\n\
            Move A\nP\n2 3 1 4 5 6 7 8 9 10 11 12\nEnd\n\
            Move B\nP\n1 2 4 5 3 6 7 8 9 10 11 12\nEnd\n\
            Move C\nP\n1 2 3 4 5 7 8 9 10 11 12 6\nEnd\n\
            Move D\nP\n12 2 3 4 6 5 7 8 9 10 11 1\nEnd\n";
        let puzzle = PermPuzzle::new(&Definition::parse(text).expect("parses"), PuzzleMetric::Htm)
            .expect("compiles");
        let facts = set_facts(&puzzle);
        let odd = facts[0].keeps_parity;
        assert!(odd, "every move is even");
        let split = Coord::split(&puzzle, 0, odd, true).expect("split");
        assert_eq!(split.size(), 479_001_600 >> u32::from(odd));
        let mut state = puzzle.solved.clone();
        let mut rng = crate::rng::SplitMix64::new(9);
        let moves = puzzle.moves.len();
        for _ in 0..3000 {
            let m = rng.below(moves as u64) as usize;
            let next = state.then(&puzzle.moves[m].element, &puzzle.sets);
            let value = split.encode(&state).expect("value");
            assert!(value < split.size());
            let mut decoded = puzzle.solved.clone();
            assert!(split.decode_into(value, &mut decoded));
            assert_eq!(decoded, state, "decoding undoes encoding");
            assert_eq!(
                split.apply(value, m, moves),
                split.encode(&next).expect("value")
            );
            state = next;
        }
    }

    /// The Square-1 shape phase's coordinate follows the reading parity (the order of the
    /// slice's pieces) in its move table: stepping it along random legal walks gives the
    /// value of each full state's view, the parity read from the full state each time.
    #[test]
    fn a_reading_parity_steps_like_the_states_it_reads() {
        use crate::puzzles::perm::exact::exact_projection_with;
        use crate::puzzles::perm::{shipped_plan, shipped_puzzle};
        let puzzle = shipped_puzzle("square-1.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "square-1.plan");
        let phase = &plan.phases[0];
        let elements = plan.phase_elements(0);
        let (searched, restriction) = phase.pattern.searched();
        let (ranked, split) = searched.split_orbits(&phase.splittable);
        assert!(
            !ranked.readings.is_empty(),
            "the shape phase reads a parity"
        );
        let (projection, _) = exact_projection_with(&ranked, None, true).expect("projection");
        let bit = ranked.readings[0].bit;
        // Each full state's value, and the parity its view reads.
        let value = |full: &Element| -> (u64, u8) {
            let view = phase.view.apply(full, &puzzle.sets).expect("view");
            let inner = split
                .apply(&restriction.apply(&view).expect("restricted"))
                .expect("split");
            (
                projection.encode(&inner).expect("rank"),
                inner.orbits[bit].perm[0],
            )
        };
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut values = vec![0u64; projection.radix.len()];
        let mut parities_read = std::collections::HashSet::new();
        for _ in 0..20 {
            let mut full = puzzle.solved.clone();
            let (mut rank, _) = value(&full);
            for _ in 0..200 {
                let m = rng.below(elements.len() as u64) as usize;
                let next = full.then(elements[m], &puzzle.sets);
                if !puzzle.is_legal(&next) {
                    continue;
                }
                projection.values(rank, &mut values);
                let (read, parity) = value(&next);
                assert_eq!(
                    projection.after(&values, m),
                    read,
                    "move {m} from rank {rank}"
                );
                parities_read.insert(parity);
                (full, rank) = (next, read);
            }
        }
        assert_eq!(parities_read.len(), 2, "the walks read both parities");
    }
}
