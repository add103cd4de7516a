//! The table of a matching: how far a state is from every pair holding partners, when
//! the phase's moves split each pair between an orbit A and an orbit B of slots.
//!
//! Number the pairs `0..n` and read a state as the permutation `t` with `t(j) = k` when
//! the partner of the piece in pair `j`'s A slot lies in pair `k`'s B slot: the pairs are
//! whole exactly when `t` is the identity. A move permutes the A slots by `a` and the B
//! slots by `b` (slot `j` receiving from `a(j)`), and takes `t` to `b⁻¹ ∘ t ∘ a` (first
//! `a`, then `t`, then `b⁻¹`), a function of `t` alone, so distances to the identity over
//! the `n!` permutations are a table like any other. It is built by a breadth-first
//! search from the identity as deep as a budget of states allows (the 4x4x4's twelve
//! pairs: every state within 9 moves of its 479 million), 2 bits a permutation: the
//! distance modulo 3 where the search reached, 3 beyond it (a bound of one more than
//! its depth).
//!
//! When every move permutes the A slots and the B slots with the same parity (the
//! 4x4x4's pairs phase: a quarter turn of a face moves four of each, a slice half turn
//! swaps them in twos), `t` keeps its parity, so an odd `t` is never paired: such a
//! state is refused as a start, as a state the tables cannot rank is. The table then
//! holds the even permutations alone, each at its Lehmer rank halved (the 4x4x4's: 60 MB
//! instead of 120, so more of it stays in the caches, and its reads took 15% less of a
//! solve's time on one core).
//!
//! The A and B slots may be of two sets (an anchored matching): a 5x5x5's wings of one
//! side, each against the midge it must sit beside, where the 4x4x4's are the two wings
//! of an edge against each other; the 5x5x5's pairs phase follows two such matchings,
//! one per side, since the wings matched only with each other leave the midges free.
//! When the moves keep some pairs among themselves (the 5x5x5's E slice under U, D and
//! half turns: 8 pairs and 4), a permutation reached from the identity maps each class
//! onto itself, and the table numbers one permutation per class (8! x 4! = 967,680
//! entries instead of 12!).
//!
//! A search node holds `t` itself, 4 bits a pair (pair `j`'s value in bits `4j..4j+4`),
//! not its rank: a move is then two byte shuffles, and only the table read ranks it, all
//! twelve places at once ([`super::nibbles`]; with both, the 4x4x4's solves take 12% less
//! time than with the place-by-place loops, which other processors keep).

use crate::puzzles::perm::element::{parity, root, Element};
use crate::puzzles::perm::exact::ExactError;
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::puzzles::perm::site::TableSite;
use crate::search::bfs::{mod3_bfs_bytes, mod3_bfs_observed, Mod3Observer, RankedSpace};
use crate::table::{packed, Table};
use std::sync::atomic::AtomicU8;

use super::view::{Beside, Sides};

/// Lehmer rank of a permutation of `0..n` (`n` at most 16) packed 4 bits a value: for
/// twelve values or fewer all places at once where the build allows
/// ([`super::nibbles`]), else [`rank_packed_by_places`].
#[inline]
fn rank_packed(packed: u64, n: usize) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
    if n <= super::nibbles::RANK_MAX {
        return super::nibbles::rank(packed, n);
    }
    rank_packed_by_places(packed, n)
}

/// [`rank_packed`] in `n` steps: a word of 4-bit counters holds, for each value, how many
/// smaller values are still unused.
#[inline]
fn rank_packed_by_places(packed: u64, n: usize) -> u64 {
    let mut smaller: u64 = 0xFEDC_BA98_7654_3210;
    let mut rank = 0u64;
    for i in 0..n {
        let shift = 4 * ((packed >> (4 * i)) & 0xF) as u32;
        rank = rank * (n - i) as u64 + ((smaller >> shift) & 0xF);
        // Every value above this one has one smaller value fewer left.
        smaller = smaller.wrapping_sub(0x1111_1111_1111_1110u64.wrapping_shl(shift));
    }
    rank
}

/// The permutation of `0..n` (`n` at most 16) with Lehmer rank `rank`, packed 4 bits a
/// value: each digit picks among the values left, kept in order in the nibbles of a word.
#[inline]
fn unrank_packed(mut rank: u64, n: usize) -> u64 {
    let mut digits = [0u64; 16];
    for i in (0..n).rev() {
        let radix = (n - i) as u64;
        digits[i] = rank % radix;
        rank /= radix;
    }
    let mut left: u64 = 0xFEDC_BA98_7654_3210;
    let mut out = 0u64;
    for (i, &d) in digits[..n].iter().enumerate() {
        let shift = 4 * d as u32;
        out |= ((left >> shift) & 0xF) << (4 * i);
        // Remove that nibble: the ones above it move down.
        let low = left & ((1u64 << shift) - 1);
        let high = left.checked_shr(shift + 4).unwrap_or(0) << shift;
        left = low | high;
    }
    out
}

/// The parity of a permutation of `0..n` packed 4 bits a value (0 even, 1 odd), from
/// its inversions, without unpacking it.
fn packed_parity(t: u64, n: usize) -> u8 {
    let value = |j: usize| (t >> (4 * j)) & 0xF;
    let mut inversions = 0u32;
    for i in 0..n {
        for j in i + 1..n {
            inversions += u32::from(value(j) < value(i));
        }
    }
    (inversions % 2) as u8
}

/// The parity of the permutation of `0..n` with Lehmer rank `rank` (the parity of the
/// sum of its digits: each digit counts inversions).
fn rank_parity(mut rank: u64, n: usize) -> u64 {
    let mut sum = 0u64;
    for radix in 1..=n as u64 {
        sum += rank % radix;
        rank /= radix;
    }
    sum & 1
}

/// The index of a packed permutation in a table over every permutation (its Lehmer
/// rank) or, `halved`, over the even ones only: an even permutation and the odd one
/// with its last two values swapped have ranks `2i` and `2i + 1` in some order (they
/// differ in the last digit but one), so the even one's index is its rank halved.
#[inline]
fn index_packed(t: u64, n: usize, halved: bool) -> u64 {
    rank_packed(t, n) >> u32::from(halved)
}

/// The packed permutation at `index` (see [`index_packed`]).
fn unindex_packed(index: u64, n: usize, halved: bool) -> u64 {
    if !halved {
        return unrank_packed(index, n);
    }
    let even = 2 * index;
    unrank_packed(even + rank_parity(even, n), n)
}

/// The identity permutation of `0..n`, packed.
fn identity_packed(n: usize) -> u64 {
    (0..n as u64).fold(0, |acc, j| acc | (j << (4 * j)))
}

/// One move on a matching: the A slots' permutation and the inverse of the B slots'.
struct Step {
    a: [u8; 16],
    b_inverse: [u8; 16],
}

impl Step {
    /// `b⁻¹ ∘ t ∘ a` for a packed `t` of `n` values: two byte shuffles where the build
    /// allows ([`super::nibbles`]), else [`Step::apply_by_places`].
    #[inline]
    fn apply(&self, t: u64, n: usize) -> u64 {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse4.1"))]
        return super::nibbles::compose(t, &self.a, &self.b_inverse, n);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "sse4.1")))]
        self.apply_by_places(t, n)
    }

    /// [`Step::apply`] a place at a time.
    #[cfg(any(test, not(all(target_arch = "x86_64", target_feature = "sse4.1"))))]
    #[inline]
    fn apply_by_places(&self, t: u64, n: usize) -> u64 {
        let mut next = 0u64;
        for j in 0..n {
            let x = (t >> (4 * self.a[j])) & 0xF;
            next |= u64::from(self.b_inverse[x as usize]) << (4 * j);
        }
        next
    }
}

/// Each move as a [`Step`] on the matching's permutation.
fn steps_of(sides: &Sides, moves: &[&Element]) -> Vec<Step> {
    let index_of = |slots: &[usize], slot: usize| -> u8 {
        slots.iter().position(|&x| x == slot).unwrap_or(0) as u8
    };
    moves
        .iter()
        .map(|m| {
            let (perm_a, perm_b) = (&m.orbits[sides.a_set].perm, &m.orbits[sides.b_set].perm);
            let mut step = Step {
                a: [0; 16],
                b_inverse: [0; 16],
            };
            for (j, &slot) in sides.a.iter().enumerate() {
                step.a[j] = index_of(&sides.a, perm_a[slot] as usize);
            }
            for (k, &slot) in sides.b.iter().enumerate() {
                step.b_inverse[index_of(&sides.b, perm_b[slot] as usize) as usize] = k as u8;
            }
            step
        })
        .collect()
}

/// The pairs split into classes no move mixes: the finest partition of `0..n` that
/// every step's A permutation and B permutation keep (joined by union-find). A
/// permutation reached from the identity maps each class onto itself, so the table
/// ranks one permutation per class (the 5x5x5's edges against their midges, with the
/// E slice kept: 8! x 4! instead of 12!).
fn classes_of(steps: &[Step], n: usize) -> Vec<Vec<u8>> {
    let mut parent: Vec<usize> = (0..n).collect();
    for step in steps {
        for j in 0..n {
            for k in [step.a[j] as usize, step.b_inverse[j] as usize] {
                let (x, y) = (root(&mut parent, j), root(&mut parent, k));
                parent[x.max(y)] = x.min(y);
            }
        }
    }
    let mut classes: Vec<Vec<u8>> = Vec::new();
    let mut class_of_root = vec![usize::MAX; n];
    for j in 0..n {
        let r = root(&mut parent, j);
        if class_of_root[r] == usize::MAX {
            class_of_root[r] = classes.len();
            classes.push(Vec::new());
        }
        classes[class_of_root[r]].push(j as u8);
    }
    classes
}

/// How permutations are numbered in a table: by Lehmer rank over all of them, by rank
/// halved over the even ones, or, when the pairs fall into classes, by the mixed-radix
/// number of each class's own permutation.
#[derive(Debug, Clone)]
struct Ranking {
    n: usize,
    halved: bool,
    /// The classes, when more than one (each class's pairs in increasing order).
    classes: Vec<Vec<u8>>,
    /// Per pair, its class and its place in it.
    class_of: [u8; 16],
    place: [u8; 16],
    /// Per class, the number of its permutations (1 for a class kept whole).
    radix: Vec<u64>,
    /// The pairs of classes kept whole ([`Ranking::keeping_whole`]): each must hold its
    /// own partner.
    whole: Vec<u8>,
}

impl Ranking {
    fn new(n: usize, halved: bool, classes: Vec<Vec<u8>>) -> Self {
        let mut class_of = [0u8; 16];
        let mut place = [0u8; 16];
        for (c, members) in classes.iter().enumerate() {
            for (i, &j) in members.iter().enumerate() {
                class_of[j as usize] = c as u8;
                place[j as usize] = i as u8;
            }
        }
        let radix = classes
            .iter()
            .map(|m| (1..=m.len() as u64).product())
            .collect();
        let classes = if classes.len() > 1 {
            classes
        } else {
            Vec::new()
        };
        Self {
            n,
            halved: halved && classes.is_empty(),
            classes,
            class_of,
            place,
            radix,
            whole: Vec::new(),
        }
    }

    /// The same numbering without the classes the moves `steps` keep whole: where every
    /// pair of a class holds its partner, every move leaves it so (the 5x5x5's four edges
    /// gathered whole into the slice its last phase turns only whole). Such a class is
    /// numbered by its one permutation, and a state where it is not whole is one the
    /// table does not hold: the 5x5x5's wings against their midges, 8! permutations
    /// instead of 8! x 4!, so that the large table with the centres fits a first use.
    fn keeping_whole(mut self, steps: &[Step]) -> Self {
        for (c, members) in self.classes.iter().enumerate() {
            let kept = steps.iter().all(|s| {
                members
                    .iter()
                    .all(|&j| s.b_inverse[s.a[j as usize] as usize] == j)
            });
            if kept {
                self.radix[c] = 1;
                self.whole.extend(members);
            }
        }
        self
    }

    /// Entries of a table.
    fn size(&self) -> u64 {
        if self.classes.is_empty() {
            (1..=self.n as u64).product::<u64>() >> u32::from(self.halved)
        } else {
            self.radix.iter().product()
        }
    }

    /// Whether `t` maps every class onto itself (the table holds no other).
    fn holds(&self, t: u64) -> bool {
        let whole = (self.whole.iter()).all(|&j| (t >> (4 * j)) & 0xF == u64::from(j));
        whole
            && (self.classes.is_empty()
                || (0..self.n)
                    .all(|j| self.class_of[((t >> (4 * j)) & 0xF) as usize] == self.class_of[j]))
    }

    /// The index of `t` (one [`Ranking::holds`]).
    #[inline]
    fn index(&self, t: u64) -> u64 {
        if self.classes.is_empty() {
            return index_packed(t, self.n, self.halved);
        }
        let mut index = 0u64;
        for (members, &radix) in self.classes.iter().zip(&self.radix) {
            let mut local = 0u64;
            for (i, &j) in members.iter().enumerate() {
                let value = (t >> (4 * j)) & 0xF;
                local |= u64::from(self.place[value as usize]) << (4 * i);
            }
            index = index * radix + rank_packed(local, members.len());
        }
        index
    }

    /// The permutation at `index`.
    fn unindex(&self, mut index: u64) -> u64 {
        if self.classes.is_empty() {
            return unindex_packed(index, self.n, self.halved);
        }
        let mut t = 0u64;
        for (members, &radix) in self.classes.iter().zip(&self.radix).rev() {
            let local = unrank_packed(index % radix, members.len());
            index /= radix;
            for (i, &j) in members.iter().enumerate() {
                let value = members[((local >> (4 * i)) & 0xF) as usize];
                t |= u64::from(value) << (4 * j);
            }
        }
        t
    }
}

/// Whether every step permutes the A slots and the B slots with the same parity (then
/// `b⁻¹ ∘ t ∘ a` has `t`'s parity).
fn keeps_parity(steps: &[Step], n: usize) -> bool {
    steps
        .iter()
        .all(|s| parity(&s.a[..n]) == parity(&s.b_inverse[..n]))
}

/// Most states the search from the identity settles before it stops deepening.
const SETTLED_LIMIT: u64 = 40_000_000;

/// Most slots a large table sees beside a matching (their arrangement numbered in 16
/// bits).
pub const MOST_BESIDE: usize = 16;

/// Most arrangements of the slots beside a matching, over all their sets (a node's
/// arrangement is moved by a table of 16-bit numbers).
pub const MOST_BESIDE_ARRANGEMENTS: u64 = 1 << 16;

/// Most pairs of a matching with slots beside: a node's value holds the pairs in its
/// low 48 bits and the slots' number above them.
pub const MOST_PAIRS_BESIDE: usize = 12;

/// Most entries of a large table a first use builds (67 MB at 2 bits; the 5x5x5's pairs
/// phase has two of 49 MB); a bigger one (the 4x4x4's, 4.2 GB) is built on request only
/// (`cubedb-gen puzzle --large`).
pub const FIRST_USE_LARGE_ENTRIES: u64 = 1 << 28;

/// Where a node's value holds the number of its slots beside.
const BESIDE_SHIFT: u32 = 48;

/// The pairs' part of a node's value.
const PAIRS: u64 = (1 << BESIDE_SHIFT) - 1;

/// The arrangement of two kinds in a matching's [`Beside`] slots, numbered: which slots
/// hold the kind the first slot holds solved (a bit per slot), among the masks with as
/// many bits as the solved one (the 4x4x4's U and D centres: 70).
#[derive(Debug, Clone)]
struct BesideCoord {
    set: usize,
    slots: Vec<usize>,
    /// The kind counted.
    kind: u8,
    /// Per mask of the slots, its number (`u16::MAX`: another count of bits).
    number: Vec<u16>,
    /// How many numbers.
    count: u64,
    /// The solved arrangement's number.
    solved: u64,
    /// Per move, per number, the number after the move.
    moves: Vec<Vec<u16>>,
    /// The coordinates of the other sets' slots ([`Beside::also`]), each numbered after
    /// this one's: `count`, `solved` and `moves` above are of them all together.
    also: Vec<BesideCoord>,
}

/// Which of `slots` hold `kind` (`labels` per slot), a bit per slot in their order.
fn mask_of(slots: &[usize], labels: &[u8], kind: u8) -> usize {
    (slots.iter().enumerate())
        .filter(|&(_, &x)| labels[x] == kind)
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

impl BesideCoord {
    fn new(puzzle: &PermPuzzle, beside: &Beside, moves: &[&Element]) -> Self {
        let first = Self::of_set(puzzle, beside.set, beside.slots.clone(), moves);
        let also = (beside.also.iter())
            .map(|(set, slots)| Self::of_set(puzzle, *set, slots.clone(), moves))
            .collect();
        first.joined(also)
    }

    /// The coordinate of one set's slots.
    fn of_set(puzzle: &PermPuzzle, set: usize, slots: Vec<usize>, moves: &[&Element]) -> Self {
        let solved_labels = &puzzle.solved.orbits[set].perm;
        let kind = solved_labels[slots[0]];
        // Per move, per slot `i`, the place among the slots of the one it receives from
        // (the moves keep the slots: checked where the plan is read).
        let sources: Vec<Vec<usize>> = moves
            .iter()
            .map(|m| {
                (slots.iter())
                    .map(|&x| {
                        let source = m.orbits[set].perm[x] as usize;
                        slots.iter().position(|&y| y == source).unwrap_or(0)
                    })
                    .collect()
            })
            .collect();
        let solved_mask = mask_of(&slots, solved_labels, kind);
        Self::from_sources(set, slots, kind, solved_mask, &sources)
    }

    /// The coordinate of `slots` of `set`, the kind `kind` solved in `solved_mask`,
    /// under moves given by where each slot receives from (places among the slots).
    fn from_sources(
        set: usize,
        slots: Vec<usize>,
        kind: u8,
        solved_mask: usize,
        sources: &[Vec<usize>],
    ) -> Self {
        let ones = solved_mask.count_ones();
        let mut number = vec![u16::MAX; 1 << slots.len()];
        let mut masks = Vec::new();
        for (mask, n) in number.iter_mut().enumerate() {
            if mask.count_ones() == ones {
                *n = masks.len() as u16;
                masks.push(mask);
            }
        }
        let moves = sources
            .iter()
            .map(|from| {
                masks
                    .iter()
                    .map(|&mask| {
                        let after = (from.iter().enumerate())
                            .filter(|&(_, &j)| mask >> j & 1 == 1)
                            .fold(0, |acc, (i, _)| acc | 1 << i);
                        number[after]
                    })
                    .collect()
            })
            .collect();
        Self {
            set,
            kind,
            count: masks.len() as u64,
            solved: u64::from(number[solved_mask]),
            number,
            moves,
            slots,
            also: Vec::new(),
        }
    }

    /// This coordinate with the others `also` numbered after it (mixed radix, this one
    /// first), moved together.
    fn joined(mut self, also: Vec<Self>) -> Self {
        if also.is_empty() {
            return self;
        }
        let count = also.iter().fold(self.count, |acc, p| acc * p.count);
        let solved = also
            .iter()
            .fold(self.solved, |acc, p| acc * p.count + p.solved);
        let moves = (0..self.moves.len())
            .map(|m| {
                (0..count)
                    .map(|mut number| {
                        let mut after = 0u64;
                        let mut stride = 1u64;
                        for part in also.iter().rev() {
                            let moved = u64::from(part.moves[m][(number % part.count) as usize]);
                            after += moved * stride;
                            stride *= part.count;
                            number /= part.count;
                        }
                        (after + u64::from(self.moves[m][number as usize]) * stride) as u16
                    })
                    .collect()
            })
            .collect();
        self.count = count;
        self.solved = solved;
        self.moves = moves;
        self.also = also;
        self
    }

    /// The number of a full state's arrangement; `None` when the slots hold another
    /// count of the kind.
    fn encode(&self, state: &Element) -> Option<u64> {
        let mask = mask_of(&self.slots, &state.orbits[self.set].perm, self.kind);
        let n = self.number[mask];
        let first = (n != u16::MAX).then_some(u64::from(n))?;
        (self.also.iter()).try_fold(first, |acc, part| {
            Some(acc * part.count + part.encode(state)?)
        })
    }
}

/// A matching's moves and table.
pub struct MatchingTable {
    sides: Sides,
    /// Per move: the A slots' permutation and the inverse of the B slots'.
    steps: Vec<Step>,
    ranking: Ranking,
    table: Table,
    /// The slots its large table sees beside the pairs, when that table is the one read.
    beside: Option<BesideCoord>,
    /// The depth the search completed: values beyond it read as `depth + 1`.
    pub depth: usize,
}

/// The permutation space of a matching, for the breadth-first search.
struct Space<'a> {
    ranking: &'a Ranking,
    steps: &'a [Step],
}

impl RankedSpace for Space<'_> {
    fn size(&self) -> u64 {
        self.ranking.size()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let t = self.ranking.unindex(rank);
        for step in self.steps {
            visit(self.ranking.index(step.apply(t, self.ranking.n)));
        }
    }
}

/// A matching's permutations with the arrangement of its slots beside them, for the
/// breadth-first search of its large table: rank `index * count + number`. The ranks
/// of one permutation lie together, and their neighbours by a move too, so a run of
/// them works out the permutation's neighbours once and claims bytes side by side.
struct BesideSpace<'a> {
    ranking: &'a Ranking,
    steps: &'a [Step],
    beside: &'a BesideCoord,
}

impl BesideSpace<'_> {
    /// The first rank of the neighbour by move `m` of the permutation at `index`.
    #[inline]
    fn neighbour_base(&self, t: u64, m: usize) -> u64 {
        self.ranking.index(self.steps[m].apply(t, self.ranking.n)) * self.beside.count
    }

    /// The neighbour's number, by move `m`, of a rank's number.
    #[inline]
    fn number_after(&self, rank: u64, m: usize) -> u64 {
        u64::from(self.beside.moves[m][(rank % self.beside.count) as usize])
    }
}

impl RankedSpace for BesideSpace<'_> {
    fn size(&self) -> u64 {
        self.ranking.size() * self.beside.count
    }

    fn for_each_neighbour(&self, rank: u64, visit: impl FnMut(u64)) {
        self.for_each_neighbour_of_sorted(&[rank], visit);
    }

    fn for_each_neighbour_of_sorted(&self, ranks: &[u64], mut visit: impl FnMut(u64)) {
        let count = self.beside.count;
        for run in ranks.chunk_by(|x, y| x / count == y / count) {
            let t = self.ranking.unindex(run[0] / count);
            for m in 0..self.steps.len() {
                let base = self.neighbour_base(t, m);
                for &rank in run {
                    visit(base + self.number_after(rank, m));
                }
            }
        }
    }

    fn move_count(&self) -> usize {
        self.steps.len()
    }

    fn neighbours_by_move(&self, rank: u64) -> impl Fn(usize) -> u64 + '_ {
        let t = self.ranking.unindex(rank / self.beside.count);
        move |m| self.neighbour_base(t, m) + self.number_after(rank, m)
    }

    fn neighbours_by_move_of_sorted(&self, ranks: &[u64], m: usize, out: &mut [u64]) -> bool {
        let count = self.beside.count;
        let mut at = 0;
        for run in ranks.chunk_by(|x, y| x / count == y / count) {
            let base = self.neighbour_base(self.ranking.unindex(run[0] / count), m);
            for &rank in run {
                out[at] = base + self.number_after(rank, m);
                at += 1;
            }
        }
        true
    }
}

/// Stops the search once the settled states pass the limit (after the layer that does).
struct Budget {
    limit: u64,
    depth: usize,
}

impl Mod3Observer for Budget {
    fn layer_done(
        &mut self,
        depth: usize,
        histogram: &[u64],
        _crumbs: &[AtomicU8],
        _lists: &mut Vec<Vec<u64>>,
    ) -> bool {
        self.depth = depth;
        histogram.iter().sum::<u64>() < self.limit
    }
}

/// What a matching's table is: its moves on the pairs, its numbering and its file.
struct Layout {
    steps: Vec<Step>,
    ranking: Ranking,
    /// The slots beside the pairs, for a large table.
    beside: Option<BesideCoord>,
    spec: crate::table::TableSpec,
}

impl Layout {
    /// The table a site reads for `sides`: the large one (slots beside the pairs) when
    /// the plan names one and the site has it or builds it, else the matching's own.
    fn chosen(puzzle: &PermPuzzle, sides: &Sides, moves: &[&Element], site: &TableSite) -> Self {
        if let Some(beside) = &sides.beside {
            let coord = BesideCoord::new(puzzle, beside, moves);
            let large = Self::new(puzzle, sides, moves, site.source, Some(coord));
            if large.builds_when_missing(site) || site.store.exists(&large.spec) {
                return large;
            }
        }
        Self::new(puzzle, sides, moves, site.source, None)
    }

    fn new(
        puzzle: &PermPuzzle,
        sides: &Sides,
        moves: &[&Element],
        source: &str,
        beside: Option<BesideCoord>,
    ) -> Self {
        let n = sides.a.len();
        let steps = steps_of(sides, moves);
        // Only even permutations are reached when the moves keep the parity: the table
        // holds those alone, half the bytes (for the 4x4x4, 60 MB instead of 120, more
        // of it in the caches at every read).
        let ranking =
            Ranking::new(n, keeps_parity(&steps, n), classes_of(&steps, n)).keeping_whole(&steps);
        let size = ranking.size() * beside.as_ref().map_or(1, |b| b.count);
        // Named by the moves' slot lists (the same names as tables built before the steps
        // were packed), and the classes when there are several.
        let lists: Vec<(Vec<u8>, Vec<u8>)> = steps
            .iter()
            .map(|s| (s.a[..n].to_vec(), s.b_inverse[..n].to_vec()))
            .collect();
        let classes = if ranking.classes.is_empty() {
            String::new()
        } else if ranking.whole.is_empty() {
            format!("|classes{:?}", ranking.classes)
        } else {
            format!("|classes{:?} whole{:?}", ranking.classes, ranking.whole)
        };
        let with_slots = beside.as_ref().map_or(String::new(), |b| {
            let also: Vec<(usize, &[usize])> =
                b.also.iter().map(|p| (p.set, p.slots.as_slice())).collect();
            let also = if also.is_empty() {
                String::new()
            } else {
                format!(" also {also:?}")
            };
            format!("|beside {} {:?} {:?}{also}", b.set, b.slots, b.moves)
        });
        let hash = xxhash_rust::xxh3::xxh3_64(
            format!(
                "{}|matching|{lists:?}{}{classes}{with_slots}",
                puzzle.hash,
                if ranking.halved { "|even" } else { "" }
            )
            .as_bytes(),
        );
        let mut params = vec![
            ("pairs".into(), n as u64),
            ("moves".into(), steps.len() as u64),
        ];
        params.extend(beside.as_ref().map(|b| ("beside".into(), b.count)));
        let spec = crate::puzzles::perm::exact::keyed_spec(
            puzzle,
            source,
            if beside.is_some() {
                "matching-large"
            } else {
                "matching"
            },
            hash,
            "matching-mod3",
            params,
            size,
            2,
        );
        Self {
            steps,
            ranking,
            beside,
            spec,
        }
    }

    /// Refuses a build (when the table is missing from the site, or it rebuilds) that
    /// needs more than the site's budget.
    fn within_budget(&self, puzzle: &PermPuzzle, site: &TableSite) -> Result<(), ExactError> {
        if !self.builds(site) {
            return Ok(());
        }
        Ok(site.within_budget(|| self.what(puzzle), mod3_bfs_bytes(self.spec.entries))?)
    }

    /// Whether the site builds the table: when missing or rebuilding; a large table
    /// present is read as it is, and built again only when the site builds large ones.
    fn builds(&self, site: &TableSite) -> bool {
        let wanted = site.rebuild || !site.store.exists(&self.spec);
        match self.beside {
            Some(_) => self.builds_when_missing(site) && wanted,
            None => wanted,
        }
    }

    /// Whether a missing large table is built: asked for (`--large`), or small enough
    /// for a first use ([`FIRST_USE_LARGE_ENTRIES`]).
    fn builds_when_missing(&self, site: &TableSite) -> bool {
        site.large || self.spec.entries <= FIRST_USE_LARGE_ENTRIES
    }

    /// The table, as notes name it.
    fn what(&self, puzzle: &PermPuzzle) -> String {
        let beside = self.beside.as_ref().map_or(String::new(), |b| {
            let slots = b.slots.len() + b.also.iter().map(|p| p.slots.len()).sum::<usize>();
            format!(" with {slots} slots beside")
        });
        format!(
            "the table of {} pairs of {}{beside}",
            self.ranking.n, puzzle.name
        )
    }
}

impl MatchingTable {
    /// Refuses the table of the matching `sides` under `moves` when `site` lacks it (or
    /// rebuilds) and its build needs more than the site's budget: asked before any table
    /// of a plan is built, so that a refused plan leaves nothing behind.
    pub fn within_budget(
        puzzle: &PermPuzzle,
        sides: &Sides,
        moves: &[&Element],
        site: &TableSite,
    ) -> Result<(), ExactError> {
        Layout::chosen(puzzle, sides, moves, site).within_budget(puzzle, site)
    }

    /// The table of the matching `sides` under the moves `moves` (full puzzle elements),
    /// built at `site` when missing (or when it rebuilds), within its budget. `puzzle`
    /// names the table (its hash covers the moves).
    pub fn load_or_build(
        puzzle: &PermPuzzle,
        sides: &Sides,
        moves: &[&Element],
        site: &TableSite,
    ) -> Result<Self, ExactError> {
        let (store, progress) = (site.store, site.progress);
        let layout = Layout::chosen(puzzle, sides, moves, site);
        layout.within_budget(puzzle, site)?;
        let what = layout.what(puzzle);
        let build = layout.builds(site);
        let Layout {
            steps,
            ranking,
            beside,
            spec,
        } = layout;
        let n = sides.a.len();
        let size = spec.entries;
        if build {
            store.check_writable()?;
            progress.note(format!(
                "building {what} ({size} entries, {:.1} MB) ...",
                size.div_ceil(4) as f64 / 1e6
            ));
            let identity = ranking.index(identity_packed(n));
            let result = match &beside {
                None => {
                    let space = Space {
                        ranking: &ranking,
                        steps: &steps,
                    };
                    let mut budget = Budget {
                        limit: SETTLED_LIMIT,
                        depth: 0,
                    };
                    mod3_bfs_observed(&space, &[identity], progress, "pairs BFS", &mut budget)
                }
                // A large table is built for its reach: every layer searched.
                Some(beside) => {
                    let space = BesideSpace {
                        ranking: &ranking,
                        steps: &steps,
                        beside,
                    };
                    let source = identity * beside.count + beside.solved;
                    mod3_bfs_observed(&space, &[source], progress, "pairs BFS", &mut ())
                }
            };
            store.write(&spec, &result.crumbs, result.histogram)?;
        }
        // Read at random, one entry a search node, and bigger than the caches (the
        // 4x4x4's 60 MB), but mapped, not copied into huge pages: the copy cost a fresh
        // process more than it saved a batch (see `table::Resident`).
        let table = store.open(&spec)?;
        // The layers the search completed (the last counted layer may be partial).
        let depth = table.header().histogram.len().saturating_sub(1);
        Ok(Self {
            sides: sides.clone(),
            steps,
            ranking,
            table,
            beside,
            depth,
        })
    }

    /// The permutation of a full state, packed; `None` when some A slot holds a piece
    /// whose partner is in no B slot, or when the moves cannot pair them (an odd
    /// permutation where every move keeps its parity, a pair's partner in another class).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        let (orbit_a, orbit_b) = (
            &state.orbits[self.sides.a_set],
            &state.orbits[self.sides.b_set],
        );
        let mut where_b = [u8::MAX; 256];
        for (k, &slot) in self.sides.b.iter().enumerate() {
            where_b[orbit_b.perm[slot] as usize] = k as u8;
        }
        let mut t = 0u64;
        for (j, &slot) in self.sides.a.iter().enumerate() {
            let partner = self.sides.partner[orbit_a.perm[slot] as usize];
            let k = *where_b.get(partner as usize)?;
            if k == u8::MAX {
                return None;
            }
            t |= u64::from(k) << (4 * j);
        }
        let n = self.sides.a.len();
        if self.ranking.halved && packed_parity(t, n) == 1 || !self.ranking.holds(t) {
            return None;
        }
        match &self.beside {
            None => Some(t),
            Some(beside) => Some(t | beside.encode(state)? << BESIDE_SHIFT),
        }
    }

    /// The node value of the target: every pair whole (and the slots beside solved).
    fn target(&self) -> u64 {
        let beside = self.beside.as_ref().map_or(0, |b| b.solved);
        identity_packed(self.ranking.n) | beside << BESIDE_SHIFT
    }

    /// The table's index of a node value.
    #[inline]
    fn index(&self, t: u64) -> u64 {
        match &self.beside {
            None => self.ranking.index(t),
            Some(beside) => self.ranking.index(t & PAIRS) * beside.count + (t >> BESIDE_SHIFT),
        }
    }

    /// Whether the table read is the large one, with slots beside the pairs.
    pub fn is_large(&self) -> bool {
        self.beside.is_some()
    }

    /// The packed permutation after move `m`.
    #[inline]
    pub fn child(&self, t: u64, m: usize) -> u64 {
        let pairs = self.steps[m].apply(t, self.ranking.n);
        match &self.beside {
            None => pairs,
            Some(beside) => {
                let number = beside.moves[m][(t >> BESIDE_SHIFT) as usize];
                pairs | u64::from(number) << BESIDE_SHIFT
            }
        }
    }

    /// The table's value for a packed permutation: the distance modulo 3, or 3 beyond
    /// the searched depth.
    #[inline]
    pub fn value(&self, t: u64) -> u8 {
        let index = self.index(t);
        packed::Crumbs::new(self.table.payload()).get(index as usize)
    }

    /// Asks for the table's byte of a packed permutation (read a little later, by
    /// [`MatchingTable::value_at`]); returns its index.
    #[inline]
    pub fn prefetch(&self, t: u64) -> u64 {
        let index = self.index(t);
        crate::table::prefetch(self.table.payload(), (index / 4) as usize);
        index
    }

    /// The table's value at an index [`MatchingTable::prefetch`] returned.
    #[inline]
    pub fn value_at(&self, index: u64) -> u8 {
        packed::Crumbs::new(self.table.payload()).get(index as usize)
    }

    /// Bytes of the table.
    pub fn bytes(&self) -> u64 {
        self.table.payload().len() as u64
    }

    /// Entries of the table.
    pub fn entries(&self) -> u64 {
        self.table.header().entries
    }

    /// The distance of a start (a packed permutation): exact within the searched depth
    /// (a walk down the table), `depth + 1` beyond. Each step asks for every child's
    /// entry before reading one, so that their misses overlap (the 4.2 GB large table's
    /// entries are each a miss, and the child one closer is on average the eighth).
    pub fn distance(&self, t: u64) -> usize {
        let mut value = self.value(t);
        if value == 3 {
            return self.depth + 1;
        }
        let target = self.target();
        let mut here = t;
        let mut distance = 0;
        let mut children = vec![(0u64, 0u64); self.steps.len()];
        while here != target && distance <= self.depth {
            let want = (value + 2) % 3;
            for (m, child) in children.iter_mut().enumerate() {
                let next = self.child(here, m);
                *child = (next, self.prefetch(next));
            }
            let Some(&(next, _)) = children
                .iter()
                .find(|&&(_, index)| self.value_at(index) == want)
            else {
                return self.depth + 1;
            };
            here = next;
            value = want;
            distance += 1;
        }
        distance
    }

    /// The distance after a move from a node at distance `d` (its value `value` read
    /// from the table): the one of `d - 1`, `d`, `d + 1` congruent to it; beyond the
    /// searched depth, `depth + 1`; entering it from beyond, `depth`.
    #[inline]
    pub fn step_distance(&self, d: usize, value: u8) -> usize {
        if value == 3 {
            return self.depth + 1;
        }
        if d > self.depth {
            return self.depth;
        }
        [d.wrapping_sub(1), d, d + 1]
            .into_iter()
            .find(|&c| c != usize::MAX && (c % 3) as u8 == value)
            .unwrap_or(d + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A class whose pairs every move carries whole (each pair's two pieces to the same
    /// pair) keeps its identity: it is numbered once, and a permutation that is not the
    /// identity on it is one the table does not hold. A class some move breaks keeps all
    /// its permutations.
    #[test]
    fn a_class_the_moves_keep_whole_is_numbered_once() {
        let step = |a: [u8; 4], b_inverse: [u8; 4]| {
            let mut s = Step {
                a: [0; 16],
                b_inverse: [0; 16],
            };
            s.a[..4].copy_from_slice(&a);
            s.b_inverse[..4].copy_from_slice(&b_inverse);
            s
        };
        // Pairs 0 and 1 swapped whole; pairs 2 and 3 have their A pieces swapped.
        let steps = [
            step([1, 0, 2, 3], [1, 0, 2, 3]),
            step([0, 1, 3, 2], [0, 1, 2, 3]),
        ];
        let classes = classes_of(&steps, 4);
        assert_eq!(classes, vec![vec![0, 1], vec![2, 3]]);
        let ranking = Ranking::new(4, false, classes).keeping_whole(&steps);
        assert_eq!(ranking.whole, vec![0, 1]);
        assert_eq!(ranking.size(), 2);
        let identity = pack_permutation(&[0, 1, 2, 3]);
        let swapped_kept = pack_permutation(&[1, 0, 2, 3]);
        let swapped_free = pack_permutation(&[0, 1, 3, 2]);
        assert!(ranking.holds(identity) && ranking.holds(swapped_free));
        assert!(!ranking.holds(swapped_kept));
        assert_ne!(ranking.index(identity), ranking.index(swapped_free));
        for t in [identity, swapped_free] {
            assert_eq!(ranking.unindex(ranking.index(t)), t);
            for s in &steps {
                assert!(ranking.holds(s.apply_by_places(t, 4)));
            }
        }
    }

    /// The 5x5x5's last phase sees its U-D and F-B X-centre slots beside its pairs: the
    /// joined number moves as the state does, each part by its own moves, C(8,4)^2
    /// arrangements.
    #[test]
    fn slots_of_two_groups_beside_the_pairs_move_together() {
        use crate::puzzles::perm::{shipped_plan, shipped_puzzle, PuzzleMetric};
        let puzzle = shipped_puzzle("5x5x5.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "5x5x5.plan");
        let last = plan.phases.len() - 1;
        let beside = plan.phases[last].large.clone().expect("Large");
        assert_eq!(beside.also.len(), 1);
        let moves = plan.phase_elements(last);
        let coord = BesideCoord::new(&puzzle, &beside, &moves);
        assert_eq!(coord.count, 70 * 70);
        let mut state = puzzle.solved.clone();
        let mut number = coord.solved;
        assert_eq!(coord.encode(&state), Some(number));
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..3000 {
            let m = rng.below(moves.len() as u64) as usize;
            state = state.then(moves[m], &puzzle.sets);
            number = u64::from(coord.moves[m][number as usize]);
            assert_eq!(coord.encode(&state), Some(number));
            seen.insert(number);
        }
        assert!(seen.len() > 70, "both groups moved: {}", seen.len());
    }

    fn pack_permutation(values: &[u8]) -> u64 {
        (values.iter().enumerate()).fold(0, |t, (j, &v)| t | u64::from(v) << (4 * j))
    }
    use crate::progress::Progress;

    /// The 4x4x4's table of twelve pairs (239.5 M entries, 71 MB to build) over a
    /// 30 MB budget: refused, named, and no file written.
    #[test]
    fn a_table_over_the_budget_is_refused_unbuilt() {
        let (puzzle, plan, at) = crate::puzzles::perm::phased::shipped_4x4x4_pairing();
        let matching = plan.phases[at].view.matching.as_ref().expect("matching");
        let sides = Sides::within(&puzzle, matching);
        let dir = std::env::temp_dir().join(format!("cubedb-matching-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let (store, hidden) = (crate::table::TableStore::new(&dir), Progress::hidden());
        let refused = MatchingTable::load_or_build(
            &puzzle,
            &sides,
            &plan.phase_elements(at),
            &TableSite::new(&store, "4x4x4", 30, &hidden),
        );
        match refused {
            Err(e @ ExactError::BuildTooBig(_)) => {
                let said = e.to_string();
                assert!(said.contains("12 pairs of 4x4x4"), "{said}");
                assert!(
                    said.contains("71 MB to build, over the 30 MB allowed"),
                    "{said}"
                );
            }
            Err(e) => panic!("{e}"),
            Ok(_) => panic!("built within 30 MB"),
        }
        assert_eq!(std::fs::read_dir(&dir).map_or(0, |d| d.count()), 0);
    }

    /// The shuffles and the place-by-place loops agree: `apply` against the definition
    /// (nibble `j` becomes `b_inverse[t(a[j])]`, nibbles from `n` on zero) for every
    /// size up to 16, and the rank against the counters' rank up to twelve values, where
    /// the shuffles take over.
    #[test]
    fn shuffled_steps_and_ranks_agree_with_the_loops() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let mut permutation = |n: usize| {
            let mut p: Vec<u8> = (0..n as u8).collect();
            for i in (1..n).rev() {
                p.swap(i, rng.below(i as u64 + 1) as usize);
            }
            p
        };
        let pack = |p: &[u8]| {
            p.iter()
                .enumerate()
                .fold(0u64, |acc, (j, &x)| acc | (u64::from(x) << (4 * j)))
        };
        for n in 1..=16usize {
            for _ in 0..300 {
                let mut step = Step {
                    a: [0; 16],
                    b_inverse: [0; 16],
                };
                step.a[..n].copy_from_slice(&permutation(n));
                step.b_inverse[..n].copy_from_slice(&permutation(n));
                let t = permutation(n);
                let expected: Vec<u8> = (0..n)
                    .map(|j| step.b_inverse[t[step.a[j] as usize] as usize])
                    .collect();
                assert_eq!(step.apply(pack(&t), n), pack(&expected), "n = {n}");
                assert_eq!(step.apply_by_places(pack(&t), n), pack(&expected));
                assert_eq!(rank_packed(pack(&t), n), rank_packed_by_places(pack(&t), n));
            }
        }
    }

    #[test]
    fn fast_ranks_match_lehmer_ranks() {
        use crate::puzzles::perm::coord;
        let pack = |p: &[u8]| {
            p.iter()
                .enumerate()
                .fold(0u64, |acc, (j, &x)| acc | (u64::from(x) << (4 * j)))
        };
        let mut rng = crate::rng::SplitMix64::new(7);
        for n in [1usize, 2, 5, 8, 12, 16] {
            let size: u64 = (1..=n as u64).product();
            assert_eq!(rank_packed(identity_packed(n), n), 0);
            for _ in 0..200 {
                let r = rng.below(size);
                let p = coord::unrank_perm(r, n);
                assert_eq!(unrank_packed(r, n), pack(&p));
                assert_eq!(rank_packed(pack(&p), n), coord::rank_perm(&p));
                assert_eq!(rank_packed(pack(&p), n), r);
            }
        }
    }

    /// The 4x4x4's pairs phase keeps the matching's parity (so an odd one is refused
    /// as a start: it is never paired), checked on its moves and by walking them; a step
    /// that swaps two A slots alone would not.
    #[test]
    fn the_pairs_phase_keeps_the_matchings_parity() {
        let (puzzle, plan, at) = crate::puzzles::perm::phased::shipped_4x4x4_pairing();
        let matching = plan.phases[at].view.matching.as_ref().expect("matching");
        let moves = plan.phase_elements(at);
        let steps = steps_of(&Sides::within(&puzzle, matching), &moves);
        let n = matching.a.len();
        assert_eq!(n, 12);
        assert!(keeps_parity(&steps, n));
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut t = identity_packed(n);
        for _ in 0..10_000 {
            t = steps[rng.below(steps.len() as u64) as usize].apply(t, n);
            let values: Vec<u8> = (0..n).map(|j| ((t >> (4 * j)) & 0xF) as u8).collect();
            assert_eq!(parity(&values), 0);
            assert_eq!(packed_parity(t, n), 0);
        }
        let mut swap = Step {
            a: [0; 16],
            b_inverse: [0; 16],
        };
        for j in 0..n {
            swap.a[j] = j as u8;
            swap.b_inverse[j] = j as u8;
        }
        swap.a.swap(0, 1);
        assert_eq!(packed_parity(swap.apply(identity_packed(n), n), n), 1);
        assert!(!keeps_parity(&[swap], n));
    }

    /// Halved indices number the even permutations `0..n!/2` one to one, and
    /// `unindex_packed` inverts them; whole indices are the Lehmer ranks.
    #[test]
    fn halved_indices_number_the_even_permutations() {
        for n in 2..=8usize {
            let size: u64 = (1..=n as u64).product();
            let mut seen = vec![false; (size / 2) as usize];
            for rank in 0..size {
                let t = unrank_packed(rank, n);
                assert_eq!(index_packed(t, n, false), rank);
                assert_eq!(rank_parity(rank, n), u64::from(packed_parity(t, n)));
                if packed_parity(t, n) == 1 {
                    continue;
                }
                let index = index_packed(t, n, true);
                assert!(!seen[index as usize], "n = {n}: index {index} twice");
                seen[index as usize] = true;
                assert_eq!(unindex_packed(index, n, true), t);
            }
            assert!(seen.iter().all(|&s| s), "n = {n}: an index unused");
        }
    }

    /// The step of a move permuting the A slots by `a` and the B slots by `b`, and the
    /// step of its inverse.
    fn step_and_inverse(a: &[u8], b: &[u8]) -> [Step; 2] {
        let (mut step, mut back) = (
            Step {
                a: [0; 16],
                b_inverse: [0; 16],
            },
            Step {
                a: [0; 16],
                b_inverse: [0; 16],
            },
        );
        for j in 0..a.len() {
            step.a[j] = a[j];
            step.b_inverse[b[j] as usize] = j as u8;
            back.a[a[j] as usize] = j as u8;
            back.b_inverse[j] = b[j];
        }
        [step, back]
    }

    /// The table the breadth-first search writes, halved or whole, holds every
    /// permutation's distance modulo 3 as a search over the packed permutations
    /// themselves (a map, no ranks) finds it; odd ones stay unreached when the moves keep
    /// the parity. Moves: random pairs of permutations of 7 values, of equal parity or not,
    /// and their inverses.
    #[test]
    fn the_table_holds_the_distances_a_plain_search_finds() {
        use std::collections::HashMap;
        let n = 7usize;
        let size: u64 = (1..=n as u64).product();
        let mut rng = crate::rng::SplitMix64::new(5);
        for keep_parity in [true, false] {
            let mut steps = Vec::new();
            while steps.len() < 6 {
                let a = crate::puzzles::perm::coord::unrank_perm(rng.below(size), n);
                let b = crate::puzzles::perm::coord::unrank_perm(rng.below(size), n);
                if keep_parity && parity(&a) != parity(&b) {
                    continue;
                }
                // The move and its inverse (`t` to `b t a⁻¹`): the search pulls
                // through neighbours, which takes the moves to be closed under inverses.
                steps.extend(step_and_inverse(&a, &b));
            }
            let halved = keeps_parity(&steps, n);
            assert_eq!(halved, keep_parity);
            let ranking = Ranking::new(n, halved, vec![(0..n as u8).collect()]);
            assert_eq!(ranking.size(), size >> u32::from(halved));
            let space = Space {
                ranking: &ranking,
                steps: &steps,
            };
            let identity = identity_packed(n);
            let mut budget = Budget {
                limit: u64::MAX,
                depth: 0,
            };
            let result = mod3_bfs_observed(
                &space,
                &[index_packed(identity, n, halved)],
                &Progress::hidden(),
                "test",
                &mut budget,
            );
            let crumbs = packed::Crumbs::new(&result.crumbs);
            let mut depth = HashMap::from([(identity, 0usize)]);
            let mut layer = vec![identity];
            while !layer.is_empty() {
                let mut next = Vec::new();
                for &t in &layer {
                    for step in &steps {
                        let c = step.apply(t, n);
                        if !depth.contains_key(&c) {
                            depth.insert(c, depth[&t] + 1);
                            next.push(c);
                        }
                    }
                }
                layer = next;
            }
            for rank in 0..size {
                let t = unrank_packed(rank, n);
                if halved && packed_parity(t, n) == 1 {
                    assert!(!depth.contains_key(&t), "an odd permutation reached");
                    continue;
                }
                let index = index_packed(t, n, halved) as usize;
                let want = depth.get(&t).map_or(3, |&d| (d % 3) as u8);
                assert_eq!(crumbs.get(index), want, "rank {rank}, halved {halved}");
            }
        }
    }

    /// A large table (the pairs with slots beside) holds the distances a plain search
    /// of both together finds, pushed and pulled alike: random moves (each with its
    /// inverse) on seven pairs and on six slots holding three pieces of a kind.
    #[test]
    fn a_large_table_holds_the_distances_a_plain_search_finds() {
        use std::collections::HashMap;
        let (n, slots) = (7usize, 6usize);
        let size: u64 = (1..=n as u64).product();
        let mut rng = crate::rng::SplitMix64::new(9);
        let mut steps = Vec::new();
        let mut sources = Vec::new();
        while steps.len() < 6 {
            let a = crate::puzzles::perm::coord::unrank_perm(rng.below(size), n);
            let b = crate::puzzles::perm::coord::unrank_perm(rng.below(size), n);
            let from = crate::puzzles::perm::coord::unrank_perm(rng.below(720), slots);
            let mut back_from = vec![0usize; slots];
            for (i, &j) in from.iter().enumerate() {
                back_from[j as usize] = i;
            }
            steps.extend(step_and_inverse(&a, &b));
            sources.push(from.iter().map(|&j| j as usize).collect::<Vec<_>>());
            sources.push(back_from);
        }
        let halved = keeps_parity(&steps, n);
        let ranking = Ranking::new(n, halved, vec![(0..n as u8).collect()]);
        let beside = BesideCoord::from_sources(0, (0..slots).collect(), 1, 0b000111, &sources);
        assert_eq!(beside.count, 20);
        let space = BesideSpace {
            ranking: &ranking,
            steps: &steps,
            beside: &beside,
        };
        let identity = identity_packed(n);
        let source = index_packed(identity, n, halved) * beside.count + beside.solved;
        let result = mod3_bfs_observed(&space, &[source], &Progress::hidden(), "test", &mut ());
        let crumbs = packed::Crumbs::new(&result.crumbs);
        // The plain search: a permutation and a mask of the slots.
        let number_of = |mask: usize| u64::from(beside.number[mask]);
        let mut depth = HashMap::from([((identity, 0b000111usize), 0usize)]);
        let mut layer = vec![(identity, 0b000111usize)];
        while !layer.is_empty() {
            let mut next = Vec::new();
            for &(t, mask) in &layer {
                for (step, from) in steps.iter().zip(&sources) {
                    let moved = (0..slots)
                        .filter(|&i| mask >> from[i] & 1 == 1)
                        .fold(0, |acc, i| acc | 1 << i);
                    let child = (step.apply(t, n), moved);
                    if !depth.contains_key(&child) {
                        depth.insert(child, depth[&(t, mask)] + 1);
                        next.push(child);
                    }
                }
            }
            layer = next;
        }
        let mut checked = 0;
        for rank in 0..size {
            let t = unrank_packed(rank, n);
            if halved && packed_parity(t, n) == 1 {
                continue;
            }
            for mask in (0..1usize << slots).filter(|m| m.count_ones() == 3) {
                let index = index_packed(t, n, halved) * beside.count + number_of(mask);
                let want = depth.get(&(t, mask)).map_or(3, |&d| (d % 3) as u8);
                assert_eq!(
                    crumbs.get(index as usize),
                    want,
                    "rank {rank}, mask {mask:06b}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, space.size());
        assert!(result.histogram.len() > 5, "a search of several layers");
    }

    /// With the pairs in classes, indices number the class-keeping permutations one to
    /// one over the product of the classes' sizes, `unindex` inverts them, and the
    /// classes are the finest partition the steps keep.
    #[test]
    fn class_indices_number_the_permutations_that_keep_the_classes() {
        let n = 5;
        let classes = vec![vec![0u8, 2, 3], vec![1u8, 4]];
        let ranking = Ranking::new(n, true, classes.clone());
        assert!(!ranking.halved, "halving is for one class");
        assert_eq!(ranking.size(), 6 * 2);
        let mut seen = [false; 12];
        for rank in 0..120 {
            let t = unrank_packed(rank, n);
            if !ranking.holds(t) {
                continue;
            }
            let index = ranking.index(t) as usize;
            assert!(!seen[index], "index {index} twice");
            seen[index] = true;
            assert_eq!(ranking.unindex(index as u64), t);
        }
        assert!(seen.iter().all(|&s| s));
        // Steps that cycle 0 -> 2 -> 3 on the A side and swap 1, 4 on the B side.
        let mut step = Step {
            a: [0; 16],
            b_inverse: [0; 16],
        };
        for (j, &x) in [2u8, 1, 3, 0, 4].iter().enumerate() {
            step.a[j] = x;
        }
        for (j, &x) in [0u8, 4, 2, 3, 1].iter().enumerate() {
            step.b_inverse[j] = x;
        }
        assert_eq!(classes_of(&[step], n), classes);
    }

    #[test]
    fn a_step_composes_as_the_permutations_do() {
        let mut rng = crate::rng::SplitMix64::new(11);
        let n = 12;
        let mut step = Step {
            a: [0; 16],
            b_inverse: [0; 16],
        };
        let a = crate::puzzles::perm::coord::unrank_perm(rng.below(479_001_600), n);
        let b = crate::puzzles::perm::coord::unrank_perm(rng.below(479_001_600), n);
        step.a[..n].copy_from_slice(&a);
        step.b_inverse[..n].copy_from_slice(&b);
        let t = crate::puzzles::perm::coord::unrank_perm(rng.below(479_001_600), n);
        let packed: u64 = t
            .iter()
            .enumerate()
            .fold(0, |acc, (j, &x)| acc | (u64::from(x) << (4 * j)));
        let next = step.apply(packed, n);
        for j in 0..n {
            assert_eq!(
                (next >> (4 * j)) & 0xF,
                u64::from(b[t[a[j] as usize] as usize])
            );
        }
    }
}

/// An experiment, run by hand (ignored): how much a table over the matching and the U-D
/// centres would cut the 4x4x4's pairs phase, before such a table is built (see
/// docs/phases.md, "Not yet done"). `NEAR` (default 8) is how far its breadth-first
/// search goes (9: 107 M states, 3.9 GB), `STARTS` and `WALK` how many random starts and
/// how many moves of the phase make each.
#[cfg(test)]
mod centres_beside_the_matching {
    use super::*;
    use crate::progress::Progress;

    /// IDA* of the 4x4x4's pairs phase (every pair whole, every centre solved) over the
    /// matching's table and the three pairs of centre faces (each as a mask of which
    /// four of its eight slots hold the first colour), and, when given, the large
    /// table of the matching with the U and D centres.
    struct Search<'a> {
        steps: &'a [Step],
        masks: &'a [[[u8; 8]; 3]],
        face: &'a [usize],
        table: &'a MatchingTable,
        centres: &'a [u8],
        large: Option<&'a MatchingTable>,
        nodes: u64,
    }

    /// A node: the matching and its distance, the centres, the large table's value and
    /// distance.
    #[derive(Clone, Copy)]
    struct Node {
        t: u64,
        d: usize,
        c: [u8; 3],
        v: u64,
        dl: usize,
    }

    fn move_mask(c: u8, m: &[u8; 8]) -> u8 {
        (0..8).fold(0u8, |acc, s| acc | ((c >> m[s]) & 1) << s)
    }

    fn centres_index(c: [u8; 3]) -> usize {
        (c[0] as usize * 256 + c[1] as usize) * 256 + c[2] as usize
    }

    impl Search<'_> {
        fn bound(&self, n: &Node) -> usize {
            let h = n.d.max(self.centres[centres_index(n.c)] as usize);
            if self.large.is_some() {
                h.max(n.dl)
            } else {
                h
            }
        }

        fn dfs(&mut self, n: Node, left: usize, last: usize) -> bool {
            if left == 0 {
                return n.t == identity_packed(12) && n.c == [0x0F; 3];
            }
            for m in 0..self.steps.len() {
                if last < self.face.len() && self.face[m] == self.face[last] {
                    continue;
                }
                self.nodes += 1;
                let t = self.steps[m].apply_by_places(n.t, 12);
                let mut next = Node {
                    t,
                    d: self.table.step_distance(n.d, self.table.value(t)),
                    c: [0, 1, 2].map(|g| move_mask(n.c[g], &self.masks[m][g])),
                    v: n.v,
                    dl: n.dl,
                };
                if let Some(large) = self.large {
                    next.v = large.child(n.v, m);
                    next.dl = large.step_distance(n.dl, large.value(next.v));
                }
                if self.bound(&next) > left - 1 {
                    continue;
                }
                if self.dfs(next, left - 1, m) {
                    return true;
                }
            }
            false
        }
    }

    /// The 4x4x4's pairs phase from random states of its group, searched over the
    /// matching's table and the centres' exact distance, then also over the large table
    /// (the matching with the U and D centres, `cubedb-gen puzzle puzzles/4x4x4.tws
    /// --large --data DIR`, read from `CUBEDB_DATA`): both find the same lengths, the
    /// large table's bound never exceeds them, and the nodes each takes are printed.
    #[test]
    #[ignore]
    fn the_large_table_keeps_the_pairs_phase_lengths_with_fewer_nodes() {
        let (puzzle, plan, at) = crate::puzzles::perm::phased::shipped_4x4x4_pairing();
        let matching = plan.phases[at].view.matching.as_ref().expect("matching");
        let sides = Sides::within(&puzzle, matching);
        let moves = plan.phase_elements(at);
        let dir = std::env::var("CUBEDB_DATA")
            .map(std::path::PathBuf::from)
            .expect("CUBEDB_DATA names a folder with the 4x4x4's large table");
        let (store, hidden) = (crate::table::TableStore::new(&dir), Progress::hidden());
        let site = TableSite::new(&store, "4x4x4", 8192, &hidden);
        let table = MatchingTable::load_or_build(&puzzle, &sides, &moves, &site).expect("table");
        let with_centres = Sides {
            beside: plan.phases[at].large.clone(),
            ..sides.clone()
        };
        let large =
            MatchingTable::load_or_build(&puzzle, &with_centres, &moves, &site).expect("large");
        assert!(large.is_large(), "no large table in {}", dir.display());
        let steps = steps_of(&sides, &moves);
        // Centres: slots 0-7 R-L, 8-15 U-D, 16-23 F-B; each group's first colour as a mask.
        let center = puzzle
            .sets
            .iter()
            .position(|s| s.name == "CENTER")
            .expect("centres");
        let groups = [8usize, 16, 0];
        let masks: Vec<[[u8; 8]; 3]> = moves
            .iter()
            .map(|m| {
                groups.map(|base| {
                    let mut out = [0u8; 8];
                    for (s, o) in out.iter_mut().enumerate() {
                        let from = m.orbits[center].perm[base + s] as usize;
                        assert!((base..base + 8).contains(&from), "centres keep their axis");
                        *o = (from - base) as u8;
                    }
                    out
                })
            })
            .collect();
        let names: Vec<String> = plan.phases[at]
            .moves
            .iter()
            .map(|&m| plan.moves[m].name.clone())
            .collect();
        let face: Vec<usize> = names
            .iter()
            .map(|n| {
                let base = n.trim_end_matches(['2', '\'']);
                names
                    .iter()
                    .position(|x| x.trim_end_matches(['2', '\'']) == base)
                    .unwrap_or(0)
            })
            .collect();
        // The centres' exact distances (three masks of four of eight).
        let mut centres = vec![u8::MAX; 1 << 24];
        let solved = [0x0Fu8; 3];
        centres[centres_index(solved)] = 0;
        let mut frontier = vec![solved];
        let mut depth = 0u8;
        while !frontier.is_empty() {
            depth += 1;
            let mut next = Vec::new();
            for c in frontier {
                for mm in &masks {
                    let c2 = [0, 1, 2].map(|g| move_mask(c[g], &mm[g]));
                    if centres[centres_index(c2)] == u8::MAX {
                        centres[centres_index(c2)] = depth;
                        next.push(c2);
                    }
                }
            }
            frontier = next;
        }
        let number = |name: &str, default: usize| {
            std::env::var(name)
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(default)
        };
        let mut rng = crate::rng::SplitMix64::new(11);
        for trial in 0..number("STARTS", 5) {
            let mut state = puzzle.solved.clone();
            for _ in 0..number("WALK", 60) {
                let m = rng.below(moves.len() as u64) as usize;
                state = state.then(moves[m], &puzzle.sets);
            }
            let t = table.encode(&state).expect("a state of the phase's group");
            let v = large.encode(&state).expect("a state of the phase's group");
            let c = groups.map(|base| {
                let labels = &state.orbits[center].perm;
                (0..8).fold(0u8, |mask, s| {
                    mask | u8::from(labels[base + s] == puzzle.solved.orbits[center].perm[base])
                        << s
                })
            });
            let start = Node {
                t,
                d: table.distance(t),
                c,
                v,
                dl: large.distance(v),
            };
            let mut found = Vec::new();
            for with in [false, true] {
                let mut search = Search {
                    steps: &steps,
                    masks: &masks,
                    face: &face,
                    table: &table,
                    centres: &centres,
                    large: with.then_some(&large),
                    nodes: 0,
                };
                let first = search.bound(&start);
                let began = std::time::Instant::now();
                let length = (first..30)
                    .find(|&bound| search.dfs(start, bound, usize::MAX))
                    .expect("solved");
                crate::output::note(format_args!(
                    "start {trial}: bound {first}, length {length}, {} nodes, {:.2} s{}",
                    search.nodes,
                    began.elapsed().as_secs_f64(),
                    if with { " (with the large table)" } else { "" }
                ));
                found.push((first, length));
            }
            assert_eq!(found[0].1, found[1].1, "the same length");
            assert!(found[1].0 >= found[0].0 && found[1].0 <= found[1].1);
        }
    }
}
