//! The straddle table: how many of a phase's moves a state needs before every pair of
//! the next phase's matching straddles that matching's two orbits (one piece in orbit
//! A, one in B).
//!
//! The next phase can start only from such a state (its moves never take a piece from
//! one orbit to the other, so a pair on one side stays apart), but the phase before it
//! moves pieces between the orbits and, without this table, finds out only at its end:
//! the 4x4x4's centres phase reached the centres' target about 1,700 times for each
//! state the pairs phase could take. With it the phase's search cuts every branch that
//! cannot bring every pair across in the moves it has left.
//!
//! A pair's place is the unordered pair of slots its two pieces occupy (`n (n - 1) / 2`
//! values for `n` slots; a move takes each to another, a small table). Whether a pair
//! straddles depends on its place alone, so the distance for a group of pairs is a
//! function of their places: the table holds it for groups of three (`places³` entries
//! at 4 bits, 10.5 MB for the 4x4x4's 24 wing slots), the same for every group since the
//! pairs are told apart only by their places. A node carries each group's three places
//! packed in one value; its bound is the largest distance over the groups (the pairs
//! cut into groups of three, the last group overlapping the one before when three does
//! not divide their number). Where every group reads 0 every pair straddles, so the
//! bound is exact at the end of the phase.

use super::view::Matching;
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::exact::ExactError;
use crate::puzzles::perm::pdb::depth_nibbles;
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::puzzles::perm::site::TableSite;
use crate::search::bfs::{layered_bfs, layered_bfs_bytes, RankedSpace};
use crate::table::{packed, Table};

/// Pairs per group: the table has `places^GROUP` entries.
const GROUP: usize = 3;

/// Bits of one place in a node's packed value.
const PLACE_BITS: u32 = 9;

/// Most entries of the table (4 bits each: 64 MiB).
const MOST_ENTRIES: u64 = 1 << 27;

/// The unordered pair of slot indices `i != j`, numbered `0..n (n - 1) / 2`.
#[inline]
fn place_of(i: usize, j: usize) -> usize {
    let (lo, hi) = (i.min(j), i.max(j));
    hi * (hi - 1) / 2 + lo
}

/// The straddle table of one phase, with its moves on places.
pub struct StraddleTable {
    /// The set the pairs are pieces of.
    set: usize,
    /// Per slot of the set, its index among the pairs' slots.
    slot_index: Vec<u8>,
    /// Per piece label, its pair.
    pair_of: Vec<u8>,
    /// Number of pairs.
    pairs: usize,
    /// The pairs of each group.
    groups: Vec<[usize; GROUP]>,
    /// Number of places.
    places: usize,
    /// Per place and move (`place * moves + m`), the place after the move.
    steps: Vec<u16>,
    moves: usize,
    table: Table,
}

/// The space of a group's places, for the breadth-first search.
struct Space<'a> {
    places: u64,
    moves: usize,
    steps: &'a [u16],
}

impl Space<'_> {
    fn split(&self, rank: u64) -> [usize; GROUP] {
        let p = self.places;
        [
            (rank / (p * p)) as usize,
            (rank / p % p) as usize,
            (rank % p) as usize,
        ]
    }

    fn join(&self, places: [usize; GROUP]) -> u64 {
        let p = self.places;
        (places[0] as u64 * p + places[1] as u64) * p + places[2] as u64
    }
}

impl RankedSpace for Space<'_> {
    fn size(&self) -> u64 {
        self.places.pow(GROUP as u32)
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let here = self.split(rank);
        for m in 0..self.moves {
            visit(self.join(here.map(|p| self.steps[p * self.moves + m] as usize)));
        }
    }
}

/// What a straddle table is made of, worked out from the pairs and the moves alone.
struct Layout {
    /// Per slot of the set, its index among the pairs' slots (A slots first).
    slot_index: Vec<u8>,
    /// Per piece label, its pair.
    pair_of: Vec<u8>,
    groups: Vec<[usize; GROUP]>,
    places: usize,
    /// Per move, where the piece in each slot index goes.
    goes: Vec<Vec<usize>>,
}

impl Layout {
    /// `None` when a straddle table has no use or no room: the moves keep each orbit
    /// (every start straddles as it came), the set has slots outside the pairs' or
    /// identical pieces, fewer than three pairs, or too many slots for the table.
    fn new(puzzle: &PermPuzzle, matching: &Matching, moves: &[&Element]) -> Option<Self> {
        let set = matching.pairing.set;
        let pairs = matching.a.len();
        let slots: Vec<usize> = matching.a.iter().chain(&matching.b).copied().collect();
        let n = slots.len();
        let places = n * (n - 1) / 2;
        let solved = &puzzle.solved.orbits[set].perm;
        let mut labels = solved.clone();
        labels.sort_unstable();
        labels.dedup();
        if pairs < GROUP
            || places >= 1 << PLACE_BITS
            || (places as u64).pow(GROUP as u32) > MOST_ENTRIES
            || solved.len() != n
            || labels.len() != n
        {
            return None;
        }
        let mut slot_index = vec![u8::MAX; n];
        for (i, &s) in slots.iter().enumerate() {
            slot_index[s] = i as u8;
        }
        let in_a = |i: usize| i < pairs;
        let mut crosses = false;
        let goes: Vec<Vec<usize>> = moves
            .iter()
            .map(|m| {
                // Slot `dest` receives from slot `from`.
                let mut to = vec![0; n];
                for (dest, &from) in m.orbits[set].perm.iter().enumerate() {
                    let (f, d) = (
                        slot_index[from as usize] as usize,
                        slot_index[dest] as usize,
                    );
                    to[f] = d;
                    crosses |= in_a(f) != in_a(d);
                }
                to
            })
            .collect();
        if !crosses {
            return None;
        }
        let mut pair_of = vec![u8::MAX; 256];
        for (pair, (&a, &b)) in matching.a.iter().zip(&matching.b).enumerate() {
            pair_of[solved[a] as usize] = pair as u8;
            pair_of[solved[b] as usize] = pair as u8;
        }
        let mut groups: Vec<[usize; GROUP]> = (0..pairs / GROUP)
            .map(|g| [GROUP * g, GROUP * g + 1, GROUP * g + 2])
            .collect();
        if !pairs.is_multiple_of(GROUP) {
            groups.push([pairs - 3, pairs - 2, pairs - 1]);
        }
        Some(Self {
            slot_index,
            pair_of,
            groups,
            places,
            goes,
        })
    }

    fn entries(&self) -> u64 {
        (self.places as u64).pow(GROUP as u32)
    }
}

impl StraddleTable {
    /// The entries of the straddle table `matching` (the next phase's) gets under this
    /// phase's moves `moves`, or `None` when it gets none (see [`StraddleTable::load_or_build`]).
    pub fn entries_for(
        puzzle: &PermPuzzle,
        matching: &Matching,
        moves: &[&Element],
    ) -> Option<u64> {
        Layout::new(puzzle, matching, moves).map(|l| l.entries())
    }

    /// The straddle table for `matching` (the next phase's) under this phase's moves
    /// `moves` (full-puzzle elements), built into `store` when missing (or `rebuild`);
    /// `None` when it has no use or no room: the moves keep each orbit (every start
    /// straddles as it came), the set has slots outside the pairs' or identical pieces,
    /// fewer than three pairs, too many slots for the table, or a build needing more
    /// than the site's budget (noted on its progress: the phase is searched without it).
    pub fn load_or_build(
        puzzle: &PermPuzzle,
        matching: &Matching,
        moves: &[&Element],
        site: &TableSite,
    ) -> Result<Option<Self>, ExactError> {
        let (store, source, progress, rebuild) =
            (site.store, site.source, site.progress, site.rebuild);
        let Some(layout) = Layout::new(puzzle, matching, moves) else {
            return Ok(None);
        };
        let Layout {
            slot_index,
            pair_of,
            groups,
            places,
            goes,
        } = layout;
        let set = matching.pairing.set;
        let pairs = matching.a.len();
        let n = slot_index.len();
        let in_a = |i: usize| i < pairs;
        let mut steps = vec![0u16; places * moves.len()];
        for i in 0..n {
            for j in 0..i {
                for (m, to) in goes.iter().enumerate() {
                    steps[place_of(i, j) * moves.len() + m] = place_of(to[i], to[j]) as u16;
                }
            }
        }
        let space = Space {
            places: places as u64,
            moves: moves.len(),
            steps: &steps,
        };
        let hash = xxhash_rust::xxh3::xxh3_64(
            format!("{}|straddle|{pairs}|{goes:?}", puzzle.hash).as_bytes(),
        );
        let spec = crate::puzzles::perm::exact::keyed_spec(
            puzzle,
            source,
            "straddle",
            hash,
            "depth-nibble",
            vec![
                ("places".into(), places as u64),
                ("moves".into(), moves.len() as u64),
            ],
            space.size(),
            4,
        );
        if rebuild || !store.exists(&spec) {
            // A table the phase can do without: over the budget, it goes without.
            let size = space.size();
            if let Err(over) = site.within_budget(
                || format!("the straddle table of {pairs} pairs of {}", puzzle.name),
                layered_bfs_bytes(size) + size.div_ceil(2),
            ) {
                progress.note(format!("{over}: the phase is searched without it"));
                return Ok(None);
            }
            store.check_writable()?;
            progress.note(format!(
                "building the straddle table of {pairs} pairs of {} ({} entries, {:.1} MB) ...",
                puzzle.name,
                space.size(),
                space.size().div_ceil(2) as f64 / 1e6
            ));
            // Every group of three places on distinct slots, each one slot in A, one in B.
            let straddling: Vec<usize> = (0..n)
                .flat_map(|i| (0..i).map(move |j| (i, j)))
                .filter(|&(i, j)| in_a(i) != in_a(j))
                .map(|(i, j)| place_of(i, j))
                .collect();
            let slots_of = |p: usize| -> u64 {
                let hi = (1..n).find(|&h| h * (h + 1) / 2 > p).unwrap_or(n - 1);
                let lo = p - hi * (hi - 1) / 2;
                (1u64 << hi) | (1u64 << lo)
            };
            let mut sources: Vec<u64> = Vec::new();
            for &x in &straddling {
                for &y in &straddling {
                    for &z in &straddling {
                        let (sx, sy, sz) = (slots_of(x), slots_of(y), slots_of(z));
                        if sx & sy == 0 && sx & sz == 0 && sy & sz == 0 {
                            sources.push(space.join([x, y, z]));
                        }
                    }
                }
            }
            let result = layered_bfs(&space, &sources, progress, "straddle BFS");
            let payload = depth_nibbles(&result.depths);
            store.write(&spec, &payload, result.histogram)?;
        }
        let table = store.open(&spec)?;
        Ok(Some(Self {
            set,
            slot_index,
            pair_of,
            pairs,
            groups,
            places,
            steps,
            moves: moves.len(),
            table,
        }))
    }

    /// How many values a node carries: one per group.
    pub fn width(&self) -> usize {
        self.groups.len()
    }

    /// Each group's places in a full state, packed, into `out`.
    pub fn encode(&self, state: &Element, out: &mut [u64]) {
        let perm = &state.orbits[self.set].perm;
        // At most 32 slots: at most 16 pairs.
        let mut first = [usize::MAX; 16];
        let mut place = [0usize; 16];
        for (slot, &piece) in perm.iter().enumerate() {
            let pair = self.pair_of[piece as usize] as usize;
            let i = self.slot_index[slot] as usize;
            if first[pair] == usize::MAX {
                first[pair] = i;
            } else {
                place[pair] = place_of(first[pair], i);
            }
        }
        for (value, group) in out.iter_mut().zip(&self.groups) {
            *value = group.iter().enumerate().fold(0, |acc, (k, &pair)| {
                acc | (place[pair] as u64) << (PLACE_BITS * k as u32)
            });
        }
        debug_assert!(first[..self.pairs].iter().all(|&f| f != usize::MAX));
    }

    /// A group's packed places after move `m`.
    #[inline]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        let mask = (1u64 << PLACE_BITS) - 1;
        (0..GROUP).fold(0, |acc, k| {
            let shift = PLACE_BITS * k as u32;
            let place = (value >> shift & mask) as usize;
            acc | u64::from(self.steps[place * self.moves + m]) << shift
        })
    }

    #[inline]
    fn rank(&self, value: u64) -> usize {
        let mask = (1u64 << PLACE_BITS) - 1;
        let p = self.places;
        let at = |k: u32| (value >> (PLACE_BITS * k) & mask) as usize;
        (at(0) * p + at(1)) * p + at(2)
    }

    /// The bound: the largest distance over the groups' packed values.
    #[inline]
    pub fn bound(&self, values: &[u64]) -> usize {
        let table = packed::Nibbles::new(self.table.payload());
        values
            .iter()
            .map(|&v| table.get(self.rank(v)) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Asks for the table's bytes of the groups' packed values (read a little later).
    #[inline]
    pub fn prefetch(&self, values: &[u64]) {
        for &v in values {
            crate::table::prefetch(self.table.payload(), self.rank(v) / 2);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether every pair of `matching` has one piece in an A slot and one in a B slot.
    fn straddles(puzzle: &PermPuzzle, matching: &Matching, state: &Element) -> bool {
        let set = matching.pairing.set;
        let solved = &puzzle.solved.orbits[set].perm;
        let perm = &state.orbits[set].perm;
        let (a, b) = (&matching.a, &matching.b);
        let pair_of = |piece: u8| {
            (0..a.len())
                .find(|&j| solved[a[j]] == piece || solved[b[j]] == piece)
                .expect("a paired piece")
        };
        let mut in_a = vec![0usize; a.len()];
        for &slot in a {
            in_a[pair_of(perm[slot])] += 1;
        }
        in_a.iter().all(|&k| k == 1)
    }

    /// The 4x4x4 centres phase's straddle table, under the pairs phase's matching: it
    /// reads 0 exactly where every pair straddles the orbits, never more than the moves
    /// that made a state from one that straddles (it is a lower bound), and a move
    /// changes it by at most one.
    #[test]
    fn the_straddle_bound_is_zero_exactly_where_pairs_straddle_and_never_overestimates() {
        let (puzzle, plan, at) = crate::puzzles::perm::phased::shipped_4x4x4_pairing();
        let matching = plan.phases[at].view.matching.as_ref().expect("matching");
        let (before, pairing) = (plan.phase_elements(at - 1), plan.phase_elements(at));
        let dir = std::env::temp_dir().join(format!("cubedb-straddle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = crate::table::TableStore::new(&dir);
        let hidden = crate::progress::Progress::hidden();
        let site = |budget_mb: u64| TableSite::new(&store, "4x4x4", budget_mb, &hidden);
        // Its build (21 M entries) needs more than 40 MB: none made, no file written.
        assert!(
            StraddleTable::load_or_build(&puzzle, matching, &before, &site(40))
                .expect("no error")
                .is_none()
        );
        assert_eq!(std::fs::read_dir(&dir).map_or(0, |d| d.count()), 0);
        let table = StraddleTable::load_or_build(&puzzle, matching, &before, &site(8192))
            .expect("built")
            .expect("the centres phase moves wings across the orbits");
        assert_eq!(table.width(), 4);
        // The pairs phase's own moves keep the orbits: no table for them.
        assert!(
            StraddleTable::load_or_build(&puzzle, matching, &pairing, &site(8192))
                .expect("no error")
                .is_none()
        );
        let sets = &puzzle.sets;
        let bound = |state: &Element| {
            let mut values = vec![0u64; table.width()];
            table.encode(state, &mut values);
            table.bound(&values)
        };
        let mut rng = crate::rng::SplitMix64::new(3);
        let mut moved_off = 0;
        for trial in 0..300 {
            // A state that straddles: solved, then the pairs phase's moves.
            let mut state = puzzle.solved.clone();
            for _ in 0..20 {
                state = state.then(pairing[rng.below(pairing.len() as u64) as usize], sets);
            }
            assert!(straddles(&puzzle, matching, &state));
            assert_eq!(bound(&state), 0);
            // Then `k` moves of the centres phase: at most `k` from straddling.
            let k = 1 + trial % 6;
            let mut values = vec![0u64; table.width()];
            table.encode(&state, &mut values);
            for _ in 0..k {
                let m = rng.below(before.len() as u64) as usize;
                let was = table.bound(&values);
                state = state.then(before[m], sets);
                for v in values.iter_mut() {
                    *v = table.child(*v, m);
                }
                let mut fresh = vec![0u64; table.width()];
                table.encode(&state, &mut fresh);
                assert_eq!(values, fresh, "a move on places equals a move on the state");
                assert!(table.bound(&values).abs_diff(was) <= 1);
            }
            let b = bound(&state);
            assert!(b <= k, "bound {b} after {k} moves");
            assert_eq!(
                b == 0,
                straddles(&puzzle, matching, &state),
                "trial {trial}"
            );
            moved_off += usize::from(b > 0);
        }
        assert!(moved_off > 100, "most states moved off straddling");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
