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

use super::view::Sides;

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
    /// Per class, the number of its permutations.
    radix: Vec<u64>,
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
        }
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
        self.classes.is_empty()
            || (0..self.n)
                .all(|j| self.class_of[((t >> (4 * j)) & 0xF) as usize] == self.class_of[j])
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

/// A matching's moves and table.
pub struct MatchingTable {
    sides: Sides,
    /// Per move: the A slots' permutation and the inverse of the B slots'.
    steps: Vec<Step>,
    ranking: Ranking,
    table: Table,
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
    spec: crate::table::TableSpec,
}

impl Layout {
    fn new(puzzle: &PermPuzzle, sides: &Sides, moves: &[&Element], source: &str) -> Self {
        let n = sides.a.len();
        let steps = steps_of(sides, moves);
        // Only even permutations are reached when the moves keep the parity: the table
        // holds those alone, half the bytes (for the 4x4x4, 60 MB instead of 120, more
        // of it in the caches at every read).
        let ranking = Ranking::new(n, keeps_parity(&steps, n), classes_of(&steps, n));
        let size = ranking.size();
        // Named by the moves' slot lists (the same names as tables built before the steps
        // were packed), and the classes when there are several.
        let lists: Vec<(Vec<u8>, Vec<u8>)> = steps
            .iter()
            .map(|s| (s.a[..n].to_vec(), s.b_inverse[..n].to_vec()))
            .collect();
        let classes = if ranking.classes.is_empty() {
            String::new()
        } else {
            format!("|classes{:?}", ranking.classes)
        };
        let hash = xxhash_rust::xxh3::xxh3_64(
            format!(
                "{}|matching|{lists:?}{}{classes}",
                puzzle.hash,
                if ranking.halved { "|even" } else { "" }
            )
            .as_bytes(),
        );
        let spec = crate::puzzles::perm::exact::keyed_spec(
            puzzle,
            source,
            "matching",
            hash,
            "matching-mod3",
            vec![
                ("pairs".into(), n as u64),
                ("moves".into(), steps.len() as u64),
            ],
            size,
            2,
        );
        Self {
            steps,
            ranking,
            spec,
        }
    }

    /// Refuses a build (when the table is missing from the site, or it rebuilds) that
    /// needs more than the site's budget.
    fn within_budget(&self, puzzle: &PermPuzzle, site: &TableSite) -> Result<(), ExactError> {
        if !site.rebuild && site.store.exists(&self.spec) {
            return Ok(());
        }
        Ok(site.within_budget(
            || format!("the table of {} pairs of {}", self.ranking.n, puzzle.name),
            mod3_bfs_bytes(self.ranking.size()),
        )?)
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
        Layout::new(puzzle, sides, moves, site.source).within_budget(puzzle, site)
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
        let (store, source, progress, rebuild) =
            (site.store, site.source, site.progress, site.rebuild);
        let layout = Layout::new(puzzle, sides, moves, source);
        layout.within_budget(puzzle, site)?;
        let Layout {
            steps,
            ranking,
            spec,
        } = layout;
        let n = sides.a.len();
        let size = ranking.size();
        if rebuild || !store.exists(&spec) {
            store.check_writable()?;
            progress.note(format!(
                "building the table of {n} pairs of {} ({size} entries, {:.1} MB) ...",
                puzzle.name,
                size.div_ceil(4) as f64 / 1e6
            ));
            let space = Space {
                ranking: &ranking,
                steps: &steps,
            };
            let identity = ranking.index(identity_packed(n));
            let mut budget = Budget {
                limit: SETTLED_LIMIT,
                depth: 0,
            };
            let result = mod3_bfs_observed(&space, &[identity], progress, "pairs BFS", &mut budget);
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
        Some(t)
    }

    /// The packed permutation after move `m`.
    #[inline]
    pub fn child(&self, t: u64, m: usize) -> u64 {
        self.steps[m].apply(t, self.ranking.n)
    }

    /// The table's value for a packed permutation: the distance modulo 3, or 3 beyond
    /// the searched depth.
    #[inline]
    pub fn value(&self, t: u64) -> u8 {
        let index = self.ranking.index(t);
        packed::Crumbs::new(self.table.payload()).get(index as usize)
    }

    /// Asks for the table's byte of a packed permutation (read a little later, by
    /// [`MatchingTable::value_at`]); returns its index.
    #[inline]
    pub fn prefetch(&self, t: u64) -> u64 {
        let index = self.ranking.index(t);
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
    /// (a walk down the table), `depth + 1` beyond.
    pub fn distance(&self, t: u64) -> usize {
        let mut value = self.value(t);
        if value == 3 {
            return self.depth + 1;
        }
        let identity = identity_packed(self.ranking.n);
        let mut here = t;
        let mut distance = 0;
        while here != identity && distance <= self.depth {
            let want = (value + 2) % 3;
            let Some(next) = (0..self.steps.len())
                .map(|m| self.child(here, m))
                .find(|&c| self.value(c) == want)
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
                let mut step = Step {
                    a: [0; 16],
                    b_inverse: [0; 16],
                };
                let mut back = Step {
                    a: [0; 16],
                    b_inverse: [0; 16],
                };
                for j in 0..n {
                    step.a[j] = a[j];
                    step.b_inverse[b[j] as usize] = j as u8;
                    back.a[a[j] as usize] = j as u8;
                    back.b_inverse[j] = b[j];
                }
                steps.push(step);
                steps.push(back);
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
    use std::collections::HashMap;

    /// IDA* over the matching and the three pairs of centre faces (each as a mask of
    /// which four of its eight slots hold the first colour).
    struct Search<'a> {
        steps: &'a [Step],
        masks: &'a [[[u8; 8]; 3]],
        face: &'a [usize],
        table: &'a MatchingTable,
        centres: &'a [u8],
        combined: Option<(&'a HashMap<u64, u8>, usize)>,
        nodes: u64,
    }

    fn move_mask(c: u8, m: &[u8; 8]) -> u8 {
        (0..8).fold(0u8, |acc, s| acc | ((c >> m[s]) & 1) << s)
    }

    fn centres_index(c: [u8; 3]) -> usize {
        (c[0] as usize * 256 + c[1] as usize) * 256 + c[2] as usize
    }

    impl Search<'_> {
        fn bound(&self, t: u64, d: usize, c: [u8; 3]) -> usize {
            let mut h = d.max(self.centres[centres_index(c)] as usize);
            if let Some((map, depth)) = self.combined {
                let k = t << 8 | u64::from(c[0]);
                h = h.max(map.get(&k).map_or(depth + 1, |&v| v as usize));
            }
            h
        }

        fn dfs(&mut self, t: u64, d: usize, c: [u8; 3], left: usize, last: usize) -> bool {
            if left == 0 {
                return t == identity_packed(12) && c == [0x0F; 3];
            }
            for m in 0..self.steps.len() {
                if last < self.face.len() && self.face[m] == self.face[last] {
                    continue;
                }
                self.nodes += 1;
                let t2 = self.steps[m].apply_by_places(t, 12);
                let d2 = self.table.step_distance(d, self.table.value(t2));
                let c2 = [0, 1, 2].map(|g| move_mask(c[g], &self.masks[m][g]));
                if self.bound(t2, d2, c2) > left - 1 {
                    continue;
                }
                if self.dfs(t2, d2, c2, left - 1, m) {
                    return true;
                }
            }
            false
        }
    }

    /// How many nodes the 4x4x4's pairs phase (to every pair whole and every centre
    /// solved) takes from random starts of its group, bounded by the matching's table
    /// and the centres' exact distance, and then also by the distance over the matching
    /// and the U-D centres where it is within a few moves (a breadth-first search kept
    /// in memory): `CUBEDB_DATA` names a folder with the matching table (else it is
    /// built). Both find the same lengths; the second never bounds above them.
    #[test]
    #[ignore]
    fn a_bound_over_the_matching_and_the_centres_cuts_the_pairs_phase() {
        let (puzzle, plan, at) = crate::puzzles::perm::phased::shipped_4x4x4_pairing();
        let matching = plan.phases[at].view.matching.as_ref().expect("matching");
        let sides = Sides::within(&puzzle, matching);
        let moves = plan.phase_elements(at);
        let dir = std::env::var("CUBEDB_DATA")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|_| std::env::temp_dir().join("cubedb-pairs-bound"));
        let (store, hidden) = (crate::table::TableStore::new(&dir), Progress::hidden());
        let site = TableSite::new(&store, "4x4x4", 8192, &hidden);
        let table = MatchingTable::load_or_build(&puzzle, &sides, &moves, &site).expect("table");
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
        // The (matching, U-D centres) distances within `near` moves.
        let near: usize = std::env::var("NEAR")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(8);
        let mut combined: HashMap<u64, u8> = HashMap::new();
        let start = identity_packed(12) << 8 | 0x0F;
        combined.insert(start, 0);
        let mut frontier = vec![start];
        for d in 1..=near {
            let mut next = Vec::new();
            for key in frontier {
                for (step, mm) in steps.iter().zip(&masks) {
                    let k2 = step.apply_by_places(key >> 8, 12) << 8
                        | u64::from(move_mask((key & 0xFF) as u8, &mm[0]));
                    if let std::collections::hash_map::Entry::Vacant(e) = combined.entry(k2) {
                        e.insert(d as u8);
                        next.push(k2);
                    }
                }
            }
            frontier = next;
        }
        crate::output::note(format_args!(
            "{} (matching, U-D centres) states within {near}",
            combined.len()
        ));
        let mut rng = crate::rng::SplitMix64::new(11);
        let starts: usize = std::env::var("STARTS")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(5);
        let walk: usize = std::env::var("WALK")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(60);
        for trial in 0..starts {
            let (mut t, mut c) = (identity_packed(12), solved);
            for _ in 0..walk {
                let m = rng.below(steps.len() as u64) as usize;
                t = steps[m].apply_by_places(t, 12);
                c = [0, 1, 2].map(|g| move_mask(c[g], &masks[m][g]));
            }
            let d = table.distance(t);
            let mut found = Vec::new();
            for with in [false, true] {
                let mut search = Search {
                    steps: &steps,
                    masks: &masks,
                    face: &face,
                    table: &table,
                    centres: &centres,
                    combined: with.then_some((&combined, near)),
                    nodes: 0,
                };
                let first = search.bound(t, d, c);
                let began = std::time::Instant::now();
                let length = (first..30)
                    .find(|&bound| search.dfs(t, d, c, bound, usize::MAX))
                    .expect("solved");
                crate::output::note(format_args!(
                    "start {trial}: bound {first}, length {length}, {} nodes, {:.2} s{}",
                    search.nodes,
                    began.elapsed().as_secs_f64(),
                    if with { " (with the centres)" } else { "" }
                ));
                found.push((first, length));
            }
            assert_eq!(found[0].1, found[1].1, "the same length");
            assert!(found[1].0 >= found[0].0 && found[1].0 <= found[1].1);
        }
    }
}
