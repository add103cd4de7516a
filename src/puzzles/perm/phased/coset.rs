//! Coset tables: for the phase before the last, how far a set of distinct pieces is from
//! an arrangement the last phase's moves reach, counted up to what those moves do to it,
//! together with a set the last phase never changes.
//!
//! Let `T` be the arrangements of a set of distinct pieces that the last phase's moves
//! reach from solved (the FTO's edges under the four faces of one colour class: 81 of
//! them, each three edges cycled among their own slots). Read as maps of labels, they are
//! a group, and relabelling the pieces of an arrangement by one of them commutes with
//! every move (moves carry slots, relabellings rename pieces). So the moves needed to
//! bring an arrangement into `T` are the same for every arrangement of its class under
//! relabelling: the table numbers classes, not arrangements (544,320 edge arrangements,
//! 6,720 classes). A class is named by its smallest packed member.
//!
//! The classes are joined with the arrangement of a partner: a set the last phase's
//! moves leave as it is, which the phase must therefore solve (the FTO's centres of the
//! four faces' own class: turning those faces never moves one off its colour's face).
//! The pair's distance, by a
//! breadth-first search from (the class of solved, the partner solved), bounds the phase
//! better than either alone: the FTO's middle phase took a pattern over the edges' groups
//! (which three slots each three edges are in) times those centres, and a table of the
//! edges alone; the edges' classes carry the order within each three as well.

use super::tie::{
    inverses_present, numbered, pack, packs, pair_distances, step_packed, PackedMap, NEVER,
};
use crate::puzzles::perm::element::{Element, SetDef};

/// A node's value: the class shifted by this many bits, then the partner's arrangement,
/// so that a move splits it with a shift and a mask, not a division.
const PLACE_BITS: u32 = 32;

/// The partner's part of a node's value.
const PLACE_MASK: u64 = (1 << PLACE_BITS) - 1;

/// Most relabellings a class is read through (each an arrangement's worth of work).
const MOST_RELABELLINGS: usize = 1 << 10;

/// Most classes numbered.
const MOST_CLASSES: usize = 1 << 20;

/// Most arrangements of a partner numbered.
const MOST_PARTNER_ARRANGEMENTS: usize = 1 << 16;

/// Most entries of a coset table (a byte each).
const MOST_ENTRIES: usize = 1 << 25;

/// How far a state is, in the phase's moves, from one whose set `set` (distinct pieces)
/// is an arrangement the last phase reaches and whose partner is solved.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct CosetTable {
    set: usize,
    def: SetDef,
    /// Per relabelling: the new label of each label.
    relabellings: Vec<Vec<u8>>,
    /// Every class's number, by its smallest packed member.
    classes: PackedMap<u32>,
    /// Per class and move: the class after it.
    #[serde(with = "crate::table::derived::words")]
    class_steps: Vec<u32>,
    /// The partner set and its definition, with every arrangement's number and the
    /// number after each move (without a partner: one arrangement, every move keeping
    /// it).
    partner: Option<(usize, SetDef)>,
    partners: PackedMap<u32>,
    #[serde(with = "crate::table::derived::words")]
    partner_steps: Vec<u32>,
    /// Per entry (`class * partners + partner`): the moves needed.
    #[serde(with = "crate::table::derived::bytes")]
    distance: Vec<u8>,
    moves: usize,
}

impl CosetTable {
    /// The table of set `set` for a phase with moves `moves` (full-puzzle elements, each
    /// with its inverse among them) before a last phase with moves `last`, from
    /// `solved`; `None` when `set` is not of distinct untwisted pieces in order, or its
    /// classes or entries are too many.
    pub fn new(
        sets: &[SetDef],
        solved: &Element,
        last: &[&Element],
        moves: &[&Element],
        set: usize,
    ) -> Option<Self> {
        let def = &sets[set];
        let home = &solved.orbits[set];
        let in_order = home.perm.iter().enumerate().all(|(i, &l)| l as usize == i);
        if def.omod > 1 || !packs(def) || !in_order {
            return None;
        }
        if !inverses_present(sets, moves) {
            return None;
        }
        // The arrangements the last phase reaches, read as relabellings (the solved
        // labels are the slots, so the arrangement itself is the map).
        let start = pack(solved, set, def);
        let (reached, _) = numbered(
            [start],
            last.len(),
            |key, m| step_packed(key, last[m], set, def),
            MOST_RELABELLINGS,
        )?;
        let n = def.size;
        let relabellings: Vec<Vec<u8>> = reached.keys().map(|&key| unpacked(key, n)).collect();
        let canonical = |key: u128| class_of(key, n, &relabellings);
        let count = moves.len();
        let (classes, class_steps) = numbered(
            [canonical(start)],
            count,
            |key, m| canonical(step_packed(key, moves[m], set, def)),
            MOST_CLASSES,
        )?;
        // The partner: the set the last phase leaves as it is (moved by this phase) with
        // the most arrangements that fit.
        let mut partner = None;
        let mut partners = PackedMap::default();
        partners.insert(0u128, 0u32);
        let mut partner_steps = vec![0u32; count];
        for (s, other) in sets.iter().enumerate() {
            if s == set || !packs(other) {
                continue;
            }
            let home = pack(solved, s, other);
            let kept = last.iter().all(|m| step_packed(home, m, s, other) == home);
            let moved = moves.iter().any(|m| step_packed(home, m, s, other) != home);
            if !kept || !moved {
                continue;
            }
            let Some((numbers, steps)) = numbered(
                [home],
                count,
                |key, m| step_packed(key, moves[m], s, other),
                MOST_PARTNER_ARRANGEMENTS,
            ) else {
                continue;
            };
            if numbers.len() > partners.len()
                && numbers.len().saturating_mul(classes.len()) <= MOST_ENTRIES
            {
                partner = Some((s, other.clone()));
                partners = numbers;
                partner_steps = steps;
            }
        }
        let width = partners.len();
        let entries = classes.len() * width;
        if entries > MOST_ENTRIES {
            return None;
        }
        // The target is entry 0 (both numberings start there).
        let distance = pair_distances([(0, 0)], &class_steps, &partner_steps, width, count);
        Some(Self {
            set,
            def: def.clone(),
            relabellings,
            classes,
            class_steps,
            partner,
            partners,
            partner_steps,
            distance,
            moves: count,
        })
    }

    /// The entry of a full state (`None`: a class or partner arrangement the phase's
    /// moves never reach).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        let key = pack(state, self.set, &self.def);
        let c = *self
            .classes
            .get(&class_of(key, self.def.size, &self.relabellings))?;
        let p = match &self.partner {
            Some((s, def)) => *self.partners.get(&pack(state, *s, def))?,
            None => 0,
        };
        Some((c as u64) << PLACE_BITS | p as u64)
    }

    /// The entry after move `m`.
    #[inline]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        let (c, p) = (
            (value >> PLACE_BITS) as usize,
            (value & PLACE_MASK) as usize,
        );
        (self.class_steps[c * self.moves + m] as u64) << PLACE_BITS
            | self.partner_steps[p * self.moves + m] as u64
    }

    /// The moves needed (`usize::MAX`: never).
    #[inline]
    pub fn bound(&self, value: u64) -> usize {
        let (c, p) = (
            (value >> PLACE_BITS) as usize,
            (value & PLACE_MASK) as usize,
        );
        match self.distance[c * self.partners.len() + p] {
            NEVER => usize::MAX,
            d => d as usize,
        }
    }

    /// Asks the memory for the entry of value `value`.
    #[inline]
    pub fn prefetch(&self, value: u64) {
        let (c, p) = (
            (value >> PLACE_BITS) as usize,
            (value & PLACE_MASK) as usize,
        );
        crate::table::prefetch(&self.distance, c * self.partners.len() + p);
    }

    /// Whether some state needs a move (else the table says nothing).
    pub fn bounds_anything(&self) -> bool {
        self.distance.iter().any(|&d| d > 0)
    }

    /// What it follows, for `puzzle info`: `EDGE classes with CENTER`.
    pub fn describe(&self, sets: &[SetDef]) -> String {
        match &self.partner {
            Some((s, _)) => format!(
                "{} up to the last phase's {} arrangements, with {}",
                self.def.name,
                self.relabellings.len(),
                sets[*s].name
            ),
            None => format!(
                "{} up to the last phase's {} arrangements",
                self.def.name,
                self.relabellings.len()
            ),
        }
    }

    /// Entries.
    pub fn size(&self) -> usize {
        self.distance.len()
    }

    /// Whether a table read back from a file fits a phase of `moves` moves: every step
    /// and entry where the numbers say.
    pub fn sound(&self, moves: usize) -> bool {
        let (classes, partners) = (self.classes.len(), self.partners.len());
        self.moves == moves
            && self.class_steps.len() == classes * moves
            && self.partner_steps.len() == partners * moves
            && self.class_steps.iter().all(|&c| (c as usize) < classes)
            && self.partner_steps.iter().all(|&p| (p as usize) < partners)
            && self.classes.values().all(|&c| (c as usize) < classes)
            && self.partners.values().all(|&p| (p as usize) < partners)
            && self.distance.len() == classes * partners
            && self
                .relabellings
                .iter()
                .all(|r| r.len() == self.def.size && r.iter().all(|&l| (l as usize) < r.len()))
    }

    /// The node value of entry `entry` (below [`CosetTable::size`]).
    pub fn value_of_entry(&self, entry: usize) -> u64 {
        let width = self.partners.len();
        ((entry / width) as u64) << PLACE_BITS | (entry % width) as u64
    }

    /// Classes of the set's arrangements.
    pub fn classes(&self) -> usize {
        self.classes.len()
    }
}

/// The labels of a packed arrangement of `n` untwisted pieces.
fn unpacked(key: u128, n: usize) -> Vec<u8> {
    (0..n).map(|i| (key >> (8 * (n - 1 - i))) as u8).collect()
}

/// The class of a packed arrangement of `n` pieces: its smallest relabelling.
fn class_of(key: u128, n: usize, relabellings: &[Vec<u8>]) -> u128 {
    let mut labels = [0u8; 16];
    for (i, l) in labels[..n].iter_mut().enumerate() {
        *l = (key >> (8 * (n - 1 - i))) as u8;
    }
    relabellings
        .iter()
        .map(|map| {
            labels[..n]
                .iter()
                .fold(0u128, |k, &l| k << 8 | map[l as usize] as u128)
        })
        .min()
        .unwrap_or(key)
}

/// The coset tables of a phase (moves `moves`) whose next phase is the last (moves
/// `last`, from `solved`): one per set of distinct pieces `last` keeps to fewer
/// arrangements than `moves` reach.
pub fn tables_before(
    sets: &[SetDef],
    solved: &Element,
    last: &[&Element],
    moves: &[&Element],
) -> Vec<CosetTable> {
    use rayon::prelude::*;
    (0..sets.len())
        .into_par_iter()
        .filter_map(|s| CosetTable::new(sets, solved, last, moves, s))
        .filter(|t| t.bounds_anything() && t.classes() > 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{moves_of, set_named as set, shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;
    use std::collections::HashSet;

    /// The FTO's edges under the phase into the four faces of one colour class: 6,720
    /// classes (544,320 arrangements by the 81 of the four faces), joined with the
    /// centres those faces keep; each entry one more than its nearest neighbour's; along
    /// random walks an entry follows the moves, and reads 0 exactly where the edges are
    /// an arrangement the four faces reach and those centres are solved. A table over
    /// arrangements without the relabellings, or a BFS writing depth + 1, fails it.
    #[test]
    fn a_coset_table_holds_each_classs_distance() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let class = moves_of(&puzzle, &["UFL", "UBR", "DFR", "DBL"]);
        let phase = moves_of(&puzzle, &["UFR", "UFL", "UBR", "DFR", "DBL"]);
        let edge = set(&puzzle, "EDGE");
        let centre = set(&puzzle, "CENTER");
        let table =
            CosetTable::new(&puzzle.sets, &puzzle.solved, &class, &phase, edge).expect("fits");
        assert_eq!(table.classes(), 6720);
        assert_eq!(table.partner.as_ref().map(|p| p.0), Some(centre));
        assert!(table.sound(phase.len()));
        // The arrangements the four faces reach, found here by their own search.
        let def = &puzzle.sets[edge];
        let mut reached: HashSet<u128> = HashSet::from([pack(&puzzle.solved, edge, def)]);
        let mut queue: Vec<u128> = reached.iter().copied().collect();
        while let Some(key) = queue.pop() {
            for m in &class {
                let next = step_packed(key, m, edge, def);
                if reached.insert(next) {
                    queue.push(next);
                }
            }
        }
        assert_eq!(reached.len(), 81);
        let mut rng = SplitMix64::new(9);
        let far = super::super::tie::farthest_checked(
            &mut rng,
            table.size(),
            phase.len(),
            |entry| table.value_of_entry(entry),
            |value| table.bound(value),
            |value, m| table.child(value, m),
        );
        assert!(far >= 8, "{far}");
        let mut state = puzzle.solved.clone();
        let mut value = table.encode(&state).expect("solved");
        let mut zeros = 0;
        for _ in 0..3000 {
            let m = rng.below(phase.len() as u64) as usize;
            state = state.then(phase[m], &puzzle.sets);
            value = table.child(value, m);
            assert_eq!(table.encode(&state), Some(value));
            let home = reached.contains(&pack(&state, edge, def))
                && state.orbits[centre] == puzzle.solved.orbits[centre];
            assert_eq!(table.bound(value) == 0, home);
            // Back to where the four faces could finish, now and then.
            if rng.below(8) == 0 {
                state = puzzle.solved.clone();
                for _ in 0..rng.below(12) {
                    let m = rng.below(class.len() as u64) as usize;
                    state = state.then(class[m], &puzzle.sets);
                }
                value = table.encode(&state).expect("reached");
                assert_eq!(table.bound(value), 0);
                zeros += 1;
            }
        }
        assert!(zeros > 100, "{zeros}");
    }
}
