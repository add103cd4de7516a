//! The kinds table: how many of a phase's moves a state needs before every slot that no
//! later phase moves holds the kind of piece it holds when solved, in a set of identical
//! pieces whose kinds the phase's target does not tell apart.
//!
//! A subgroup target makes identical pieces one class when they share an orbit of the
//! subgroup's moves, so a kind that sits both in a slot those moves never touch and in a
//! bigger orbit is merged with the kinds of that orbit: the target then takes any of them
//! in the fixed slot, where only one can stay, and the next phase refuses the state. The
//! FTO's first phase (its target `Subgroup UFL UFR UBR`) saw 98% of its solutions refused
//! so: a centre of the wrong colour in one of the three fixed slots of its two centre
//! sets. With this table the phase's search cuts every branch that cannot put the right
//! kinds there in the moves it has left, and the solutions it hands on are the ones it
//! handed on before, found with fewer nodes.
//!
//! A set's state here is the arrangement of the kinds that matter (the pieces of the
//! labels solved in such slots; every other piece blank): `n! / (c1! c2! ... blank!)`
//! arrangements, every one numbered (18,480 for the FTO's second centre set: two
//! colours of three pieces and six blanks on 12 slots), with a move table and each
//! arrangement's distance to the nearest where the fixed slots hold their kinds. Made at
//! open, in milliseconds: nothing is written.
//!
//! The same table serves a set of distinct pieces that the later phases' moves keep to
//! an orbit of slots and to fewer arrangements there than its pieces have
//! (`Plan::order_goals`): the goal is then any one of those arrangements, the
//! orbit's pieces each a kind of its own. The FTO's middle phase moves three edges among
//! their own three slots by 3-cycles, so only their even orders can end solved: its first
//! phase, whose target sees those three edges' slots but not their order, had two thirds
//! of its solutions refused (the edges in an odd order), now cut where the moves left
//! cannot put them in an even one.

use super::coset::CosetTable;
use super::tie::TieTable;
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::puzzle::PermPuzzle;
use std::collections::HashMap;

/// Most arrangements a kinds table numbers.
const MOST_ARRANGEMENTS: usize = 1 << 20;

/// Distance of an arrangement from which the fixed slots cannot be given their kinds.
const NEVER: u8 = u8::MAX;

/// What a phase must leave in a set: per slot no later phase moves, the label solved there
/// when the phase's target does not already ask for it; or the pieces of an orbit of the
/// later phases' moves in one of the arrangements those moves reach.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KindsGoal {
    /// The set.
    pub set: usize,
    /// The ways to meet the goal (one for fixed slots): in any one, its slots must hold
    /// its labels' kinds. Every way names the same labels.
    pub ways: Vec<Vec<(usize, u8)>>,
}

impl KindsGoal {
    /// Whether the kinds `kinds` (per slot) meet one of the goal's ways, each label read
    /// as its kind by `kind_of_label`.
    fn holds(&self, kinds: &[u8], kind_of_label: &[u8]) -> bool {
        self.ways.iter().any(|way| {
            way.iter()
                .all(|&(slot, label)| kinds.get(slot) == Some(&kind_of_label[label as usize]))
        })
    }
}

/// The kinds table of one set, for one phase's moves.
pub struct KindsTable {
    pub(super) set: usize,
    /// Per piece label: its kind (0: blank, not followed).
    kind_of_label: Vec<u8>,
    /// Every arrangement's number.
    numbers: HashMap<Vec<u8>, u32>,
    /// Per arrangement and move (`number * moves + m`): the arrangement after the move.
    steps: Vec<u32>,
    /// Per arrangement: the moves to one whose fixed slots hold their kinds.
    distance: Vec<u8>,
    moves: usize,
}

impl KindsTable {
    /// The table of `goal` for the moves `moves` (full-puzzle elements) of `puzzle`;
    /// `None` when the arrangements are too many to number.
    pub fn new(puzzle: &PermPuzzle, goal: &KindsGoal, moves: &[&Element]) -> Option<Self> {
        let set = goal.set;
        let solved = &puzzle.solved.orbits.get(set)?.perm;
        let mut kind_of_label = vec![0u8; 256];
        let mut kinds = 0u8;
        for &(_, label) in goal.ways.iter().flatten() {
            if kind_of_label[label as usize] == 0 {
                kinds += 1;
                kind_of_label[label as usize] = kinds;
            }
        }
        let first: Vec<u8> = solved.iter().map(|&l| kind_of_label[l as usize]).collect();
        let arrangements = arrangements_of(&first)?;
        let numbers: HashMap<Vec<u8>, u32> = arrangements
            .iter()
            .enumerate()
            .map(|(i, a)| (a.clone(), i as u32))
            .collect();
        let count = moves.len();
        let mut steps = vec![0u32; arrangements.len() * count];
        let mut after = vec![0u8; first.len()];
        for (i, arrangement) in arrangements.iter().enumerate() {
            for (m, element) in moves.iter().enumerate() {
                let from = &element.orbits.get(set)?.perm;
                for (slot, &source) in from.iter().enumerate() {
                    after[slot] = *arrangement.get(source as usize)?;
                }
                steps[i * count + m] = *numbers.get(&after)?;
            }
        }
        // From every arrangement whose fixed slots hold their kinds, backwards: an
        // arrangement is one move further than the nearest a move takes it to.
        let mut distance: Vec<u8> = arrangements
            .iter()
            .map(|a| {
                if goal.holds(a, &kind_of_label) {
                    0
                } else {
                    NEVER
                }
            })
            .collect();
        for depth in 0..NEVER - 1 {
            let mut grew = false;
            for i in 0..arrangements.len() {
                if distance[i] == NEVER
                    && steps[i * count..][..count]
                        .iter()
                        .any(|&n| distance[n as usize] == depth)
                {
                    distance[i] = depth + 1;
                    grew = true;
                }
            }
            if !grew {
                break;
            }
        }
        Some(Self {
            set,
            kind_of_label,
            numbers,
            steps,
            distance,
            moves: count,
        })
    }

    /// The number of the full state's arrangement (`None`: a state of another shape).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        let kinds: Vec<u8> = state
            .orbits
            .get(self.set)?
            .perm
            .iter()
            .map(|&l| self.kind_of_label[l as usize])
            .collect();
        self.numbers.get(&kinds).map(|&n| n as u64)
    }

    /// The arrangement after move `m`.
    #[inline]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        self.steps[value as usize * self.moves + m] as u64
    }

    /// The moves needed before the fixed slots hold their kinds (`usize::MAX`: never).
    #[inline]
    pub fn bound(&self, value: u64) -> usize {
        match self.distance[value as usize] {
            NEVER => usize::MAX,
            d => d as usize,
        }
    }

    /// Arrangements numbered.
    pub fn size(&self) -> usize {
        self.distance.len()
    }
}

/// A table that says how far a state is from what a later phase needs placed: kinds in
/// the slots no later phase moves ([`KindsTable`]), or a told set's pieces where the next
/// phase's tie puts them ([`TieTable`]). A node carries one value per table.
pub enum Placing {
    /// Kinds in fixed slots.
    Kinds(KindsTable),
    /// One kind of a told set, beside its telling set.
    Tie(TieTable),
    /// A set of distinct pieces up to what the last phase does to it, with a set the
    /// last phase keeps.
    Coset(CosetTable),
    /// Some pieces whole in given slots (`Whole`).
    Whole(Box<super::whole::WholeTable>),
}

impl Placing {
    /// The value of a full state (`None`: a state of another shape, or one the table
    /// says can never be put right).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        match self {
            Placing::Kinds(t) => t.encode(state),
            Placing::Tie(t) => t.encode(state),
            Placing::Coset(t) => t.encode(state),
            Placing::Whole(t) => t.encode(state),
        }
    }

    /// The value after move `m`.
    #[inline(always)]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        match self {
            Placing::Kinds(t) => t.child(value, m),
            Placing::Tie(t) => t.child(value, m),
            Placing::Coset(t) => t.child(value, m),
            Placing::Whole(t) => t.child(value, m),
        }
    }

    /// The moves needed (`usize::MAX`: never).
    #[inline]
    pub fn bound(&self, value: u64) -> usize {
        match self {
            Placing::Kinds(t) => t.bound(value),
            Placing::Tie(t) => t.bound(value),
            Placing::Coset(t) => t.bound(value),
            Placing::Whole(t) => t.bound(value),
        }
    }

    /// Whether it needs more than `rest` moves at value `value` (a tie table stops at its
    /// first kind that does).
    #[inline]
    pub fn exceeds(&self, value: u64, rest: usize) -> bool {
        match self {
            Placing::Tie(t) => t.exceeds(value, rest),
            _ => self.bound(value) > rest,
        }
    }

    /// Asks the memory for the entry of value `value`, which the search reads soon.
    #[inline]
    pub fn prefetch(&self, value: u64) {
        match self {
            Placing::Kinds(_) => {}
            Placing::Tie(t) => t.prefetch(value),
            Placing::Coset(t) => t.prefetch(value),
            Placing::Whole(t) => t.prefetch(value),
        }
    }

    /// What it follows, for `puzzle info`.
    pub fn describe(&self, sets: &[crate::puzzles::perm::element::SetDef]) -> String {
        match self {
            Placing::Kinds(t) => format!("kinds of {}", sets[t.set].name),
            Placing::Tie(t) => t.describe(sets),
            Placing::Coset(t) => t.describe(sets),
            Placing::Whole(t) => t.describe(sets),
        }
    }

    /// Entries.
    pub fn size(&self) -> usize {
        match self {
            Placing::Kinds(t) => t.size(),
            Placing::Tie(t) => t.size(),
            Placing::Coset(t) => t.size(),
            Placing::Whole(t) => t.size() as usize,
        }
    }

    /// Bytes its entries take (a byte each, 4 bits in a tie table's parts of two kinds).
    pub fn bytes(&self) -> usize {
        match self {
            Placing::Tie(t) => t.bytes(),
            Placing::Whole(t) => t.bytes() as usize,
            _ => self.size(),
        }
    }
}

/// Every arrangement of the multiset `first` (its distinct orders), in lexicographic
/// order; `None` past [`MOST_ARRANGEMENTS`].
fn arrangements_of(first: &[u8]) -> Option<Vec<Vec<u8>>> {
    let mut current = first.to_vec();
    current.sort_unstable();
    let mut all = vec![current.clone()];
    // The next order: the rightmost ascent, swapped with the smallest larger value after
    // it, the tail reversed.
    loop {
        let Some(i) = (1..current.len())
            .rev()
            .find(|&i| current[i - 1] < current[i])
        else {
            return Some(all);
        };
        let pivot = i - 1;
        let j = (i..current.len())
            .rev()
            .find(|&j| current[j] > current[pivot])?;
        current.swap(pivot, j);
        current[i..].reverse();
        if all.len() == MOST_ARRANGEMENTS {
            return None;
        }
        all.push(current.clone());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{shipped_plan, shipped_puzzle, PuzzleMetric};

    /// The FTO's first phase gets goals exactly where its target merges kinds: slots no
    /// later move touches, each with its solved label, whose class another label shares;
    /// its last phase and the 4x4x4 (solved up to a turn of the cube) get none.
    #[test]
    fn goals_are_the_fixed_slots_whose_kind_the_target_merges() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "fto-faces.plan");
        let goals = plan.kinds_goals(&puzzle, 0);
        let later = plan.phase_elements(1);
        let names: Vec<&str> = goals
            .iter()
            .map(|g| puzzle.sets[g.set].name.as_str())
            .collect();
        assert_eq!(names, ["CENTER", "CENTER2"]);
        for goal in &goals {
            let labels = &puzzle.solved.orbits[goal.set].perm;
            let classes = &plan.phases[0].view.classes[goal.set];
            assert_eq!(goal.ways.len(), 1, "fixed slots: one way");
            for &(slot, label) in &goal.ways[0] {
                assert!(later
                    .iter()
                    .all(|e| e.orbits[goal.set].perm[slot] as usize == slot));
                assert_eq!(labels[slot], label);
                assert!(labels
                    .iter()
                    .any(|&other| other != label
                        && classes[other as usize] == classes[label as usize]));
            }
        }
        // CENTER's first three slots hold a colour of their own class: no goal there.
        assert!(
            goals[0].ways[0].iter().all(|&(slot, _)| slot > 2),
            "{goals:?}"
        );
        assert!(plan.kinds_goals(&puzzle, 1).is_empty());
        let cube = shipped_puzzle("4x4x4.tws", PuzzleMetric::Htm);
        let reduction = shipped_plan(&cube, "4x4x4.plan");
        assert!((0..reduction.phases.len()).all(|k| reduction.kinds_goals(&cube, k).is_empty()));
    }

    /// The table holds distances: 0 exactly where the fixed slots hold their kinds, and
    /// elsewhere one more than the nearest neighbour's (the moves include their
    /// inverses), so that it never overestimates; a state's number is its arrangement's.
    #[test]
    fn the_kinds_table_holds_each_arrangements_distance() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "fto-faces.plan");
        let moves = plan.phase_elements(0);
        for goal in plan.kinds_goals(&puzzle, 0) {
            let table = KindsTable::new(&puzzle, &goal, &moves).expect("small");
            assert_eq!(
                table.size(),
                arrangements_of(&table_first(&table, &puzzle))
                    .expect("few")
                    .len()
            );
            let mut seen_far = false;
            for value in 0..table.size() as u64 {
                let d = table.bound(value);
                let near = (0..moves.len())
                    .map(|m| table.bound(table.child(value, m)))
                    .min();
                if d == 0 {
                    continue;
                }
                assert_ne!(d, usize::MAX, "every arrangement can be put right");
                assert_eq!(near, Some(d - 1), "arrangement {value}");
                assert!((0..moves.len()).all(|m| table.bound(table.child(value, m)) + 1 >= d));
                seen_far |= d >= 2;
            }
            assert!(seen_far);
            // Along random walks of full states, the number follows the moves, and the
            // bound is 0 exactly where the goal's slots hold their labels' kinds.
            let mut rng = crate::rng::SplitMix64::new(9);
            let mut state = puzzle.solved.clone();
            let mut value = table.encode(&state).expect("solved");
            for _ in 0..2000 {
                let m = rng.below(moves.len() as u64) as usize;
                state = state.then(moves[m], &puzzle.sets);
                value = table.child(value, m);
                assert_eq!(table.encode(&state), Some(value));
                let holds = goal.ways.iter().any(|way| {
                    way.iter().all(|&(slot, label)| {
                        table.kind_of_label[state.orbits[goal.set].perm[slot] as usize]
                            == table.kind_of_label[label as usize]
                    })
                });
                assert_eq!(table.bound(value) == 0, holds);
            }
        }
    }

    /// The FTO's middle phase turns its three edges of `EDGE.1` among their own slots by
    /// 3-cycles (and so does the last): the first phase gets those edges' three even
    /// orders as its one order goal, and its table reads 0 exactly where the three sit
    /// there in such an order. The middle phase gets none (its coset table sees them).
    #[test]
    fn an_orbit_the_later_moves_keep_to_even_orders_is_a_goal() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "fto.plan");
        let goals = plan.kinds_goals(&puzzle, 0);
        let orders: Vec<&KindsGoal> = goals.iter().filter(|g| g.ways.len() > 1).collect();
        assert_eq!(orders.len(), 1, "{goals:?}");
        let goal = orders[0];
        assert_eq!(puzzle.sets[goal.set].name, "EDGE");
        assert_eq!(goal.ways.len(), 3, "three of the 3! orders");
        let solved = &puzzle.solved.orbits[goal.set].perm;
        let slots: Vec<usize> = goal.ways[0].iter().map(|&(slot, _)| slot).collect();
        let rank = |label: u8| {
            slots
                .iter()
                .position(|&i| solved[i] == label)
                .expect("home")
        };
        for way in &goal.ways {
            assert_eq!(way.iter().map(|&(slot, _)| slot).collect::<Vec<_>>(), slots);
            let order: Vec<u8> = way.iter().map(|&(_, label)| rank(label) as u8).collect();
            assert_eq!(crate::puzzles::perm::element::parity(&order), 0, "{way:?}");
        }
        assert!(plan
            .kinds_goals(&puzzle, 1)
            .iter()
            .all(|g| g.ways.len() == 1));
        let moves = plan.phase_elements(0);
        let table = KindsTable::new(&puzzle, goal, &moves).expect("1,320 arrangements");
        assert_eq!(table.size(), 12 * 11 * 10);
        let mut rng = crate::rng::SplitMix64::new(5);
        let mut state = puzzle.solved.clone();
        let mut value = table.encode(&state).expect("solved");
        let (mut even, mut odd) = (0, 0);
        for _ in 0..3000 {
            let m = rng.below(moves.len() as u64) as usize;
            state = state.then(moves[m], &puzzle.sets);
            value = table.child(value, m);
            assert_eq!(table.encode(&state), Some(value));
            let perm = &state.orbits[goal.set].perm;
            let here: Vec<u8> = slots.iter().map(|&i| perm[i]).collect();
            let home = here.iter().all(|&l| slots.iter().any(|&i| solved[i] == l));
            let in_order = home && {
                let order: Vec<u8> = here.iter().map(|&l| rank(l) as u8).collect();
                crate::puzzles::perm::element::parity(&order) == 0
            };
            assert_eq!(table.bound(value) == 0, in_order);
            even += usize::from(in_order);
            odd += usize::from(home && !in_order);
        }
        assert!(even > 0 && odd > 0, "both orders met: {even} / {odd}");
    }

    /// The solved state's arrangement of a table's kinds.
    fn table_first(table: &KindsTable, puzzle: &PermPuzzle) -> Vec<u8> {
        puzzle.solved.orbits[table.set]
            .perm
            .iter()
            .map(|&l| table.kind_of_label[l as usize])
            .collect()
    }

    #[test]
    fn arrangements_of_a_multiset_are_each_order_once() {
        let all = arrangements_of(&[2, 0, 1, 0, 2, 0]).expect("few");
        // 6! / (3! 2! 1!)
        assert_eq!(all.len(), 60);
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted, all);
        assert_eq!(arrangements_of(&[]).expect("one").len(), 1);
    }
}
