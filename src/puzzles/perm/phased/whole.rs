//! Whole pieces in given slots, whichever pieces they are: the 5x5x5's four edges (a
//! midge and its two wings) gathered into one slice before the last phase pairs the
//! other eight, as cs0x7f's cube555 does in its fourth phase.
//!
//! A plan's `Whole SET SLOT...` line asks that each listed slot of `SET` (the anchors:
//! the midges) hold some piece of the set with, in each slot a later phase's pairs keep
//! beside that slot, the piece that belongs beside it (its wings). Which pieces, and in
//! what order, does not matter. A pattern cannot say that: naming four edges piece by
//! piece fixes which edges, and the phase's moves (the 5x5x5's `R L U2 D2 F2 B2 Uw2 ...`
//! keep the M slice as a set) can never bring out a piece that sits there.
//!
//! So each start chooses the `k` edges (as many as slots are listed) among those whose
//! anchor and partners all lie in the orbits of the phase's moves that hold the listed
//! slots and their partners' slots. For a choice, the state is numbered as cube555 does:
//! where the chosen anchors are (a combination of the anchor orbit's slots), then, per
//! side, where the chosen partners are, listed in the order of their anchors' slots (an
//! arrangement of `k` of the side orbit's slots). A move carries the anchors to new slots,
//! whose order may differ: the sides' lists are reordered by the same permutation. That
//! number forgets which pieces were chosen and their order, so it commutes with the moves,
//! and the goal is one number: the anchors in the listed slots, each partner beside its
//! anchor. For the 5x5x5, `C(8,4) x (8!/4!)^2` = 197,568,000 numbers; their distances
//! (4 bits, a breadth-first search from the goal over the phase's moves) are a table
//! file of 98.8 MB.
//!
//! A start is scored by its best choice (the fewest moves, the first such); a state
//! with fewer than `k` candidate edges has no start, which skips the earlier phase's
//! solutions that leave too many pieces in the kept slice (cube555's slice check).

use super::view::Sides;
use crate::puzzles::perm::element::{slot_orbits, Element, SetDef};
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::search::bfs::RankedSpace;
use crate::table::packed::Nibbles;

/// Most slots a `Whole` line lists.
pub const MOST_SLOTS: usize = 4;

/// Most slots in an orbit the numbering follows (positions are 4 bits).
const MOST_ORBIT: usize = 16;

/// Most numbers a table holds.
const MOST_ENTRIES: u64 = 1 << 28;

/// Distance of a number from which the goal cannot be reached.
pub const NEVER: usize = usize::MAX;

/// Bits of a node's value per side's arrangement.
const SIDE_BITS: u32 = 16;

/// What a `Whole` line asks, resolved against the puzzle and a later phase's pairs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WholeGoal {
    /// The anchors' set.
    pub set: usize,
    /// The listed slots, ascending.
    pub slots: Vec<usize>,
    /// The partners' set.
    pub side_set: usize,
    /// Per side, per anchor slot: the partner slot beside it (`usize::MAX`: none).
    pub beside: Vec<Vec<usize>>,
    /// Per side, per anchor label: its partner's label on that side (`u8::MAX`: none).
    pub partner: Vec<Vec<u8>>,
    /// The plan line of `Whole`.
    pub line: usize,
}

impl WholeGoal {
    /// The goal of slots `slots` of set `set`, their partners told by `sides` (a later
    /// phase's anchored matchings: per pair, a partner slot and the anchor slot beside
    /// it).
    pub fn new(
        puzzle: &PermPuzzle,
        set: usize,
        slots: &[usize],
        sides: &[Sides],
        line: usize,
    ) -> Result<Self, String> {
        let name = &puzzle.sets[set].name;
        let sides: Vec<&Sides> = sides.iter().filter(|s| s.b_set == set).collect();
        let Some(first) = sides.first() else {
            return Err(format!(
                "Whole: no later phase pairs pieces with those of {name} (a Subgroup \
                 target whose moves keep pieces of another set beside them)"
            ));
        };
        let side_set = first.a_set;
        if sides.iter().any(|s| s.a_set != side_set) {
            return Err(format!(
                "Whole: the pieces beside {name} are of more than one set"
            ));
        }
        if slots.len() > MOST_SLOTS {
            return Err(format!(
                "Whole: at most {MOST_SLOTS} slots, not {}",
                slots.len()
            ));
        }
        let solved = &puzzle.solved.orbits;
        for s in [set, side_set] {
            let mut labels = solved[s].perm.clone();
            labels.sort_unstable();
            labels.dedup();
            if labels.len() != puzzle.sets[s].size {
                return Err(format!(
                    "Whole: the pieces of {} are not all distinct",
                    puzzle.sets[s].name
                ));
            }
        }
        let size = puzzle.sets[set].size;
        let mut beside = vec![vec![usize::MAX; size]; sides.len()];
        let mut partner = vec![vec![u8::MAX; 256]; sides.len()];
        for (j, side) in sides.iter().enumerate() {
            for (&a, &b) in side.a.iter().zip(&side.b) {
                beside[j][b] = a;
                partner[j][solved[set].perm[b] as usize] = solved[side_set].perm[a];
            }
        }
        let mut listed = slots.to_vec();
        listed.sort_unstable();
        for &slot in &listed {
            if beside.iter().any(|b| b[slot] == usize::MAX) {
                return Err(format!(
                    "Whole: slot {} of {name} has no pieces of {} paired beside it",
                    slot + 1,
                    puzzle.sets[side_set].name
                ));
            }
        }
        Ok(Self {
            set,
            slots: listed,
            side_set,
            beside,
            partner,
            line,
        })
    }

    /// Whether the goal holds in `state`: each listed slot's partner slots hold the
    /// partners of the piece it holds.
    pub fn holds(&self, state: &Element) -> bool {
        let anchors = &state.orbits[self.set].perm;
        let others = &state.orbits[self.side_set].perm;
        self.slots.iter().all(|&slot| {
            let label = anchors[slot] as usize;
            self.beside
                .iter()
                .zip(&self.partner)
                .all(|(beside, partner)| others[beside[slot]] == partner[label])
        })
    }

    /// Whether move `m` keeps the goal: it takes the listed slots among themselves and
    /// each one's partner slots to the partner slots of the slot it goes to.
    pub fn kept_by(&self, m: &Element) -> bool {
        let to = |set: usize, slot: usize| {
            m.orbits[set]
                .perm
                .iter()
                .position(|&from| from as usize == slot)
        };
        self.slots.iter().all(|&slot| {
            let Some(dest) = to(self.set, slot) else {
                return false;
            };
            self.slots.contains(&dest)
                && self
                    .beside
                    .iter()
                    .all(|beside| to(self.side_set, beside[slot]) == Some(beside[dest]))
        })
    }
}

/// Per move, where each slot's piece goes (`dest[m][slot]`).
fn destinations(set: usize, moves: &[&Element]) -> Vec<Vec<usize>> {
    moves
        .iter()
        .map(|m| {
            let perm = &m.orbits[set].perm;
            let mut dest = vec![0; perm.len()];
            for (slot, &from) in perm.iter().enumerate() {
                dest[from as usize] = slot;
            }
            dest
        })
        .collect()
}

/// The positions `0..n` of an orbit's slots, and each slot's position.
struct OrbitPlaces {
    slots: Vec<usize>,
    place: Vec<u8>,
}

impl OrbitPlaces {
    fn of(root: &[usize], slot: usize) -> Self {
        let slots: Vec<usize> = (0..root.len()).filter(|&s| root[s] == root[slot]).collect();
        let mut place = vec![u8::MAX; root.len()];
        for (i, &s) in slots.iter().enumerate() {
            place[s] = i as u8;
        }
        Self { slots, place }
    }

    /// The positions pieces at `positions` go to by a move's destinations `dest`.
    fn moved(&self, positions: &[u8], dest: &[usize]) -> Vec<u8> {
        (positions.iter())
            .map(|&p| self.place[dest[self.slots[p as usize]]])
            .collect()
    }
}

/// Every ordered choice of `k` distinct positions below `n`, numbered in lexicographic
/// order, and the number of each (by its positions packed 4 bits each).
struct Arrangements {
    list: Vec<Vec<u8>>,
    number: Vec<u32>,
}

/// Every choice of `k` distinct positions below `n` (ascending ones only unless
/// `ordered`), in lexicographic order.
fn choices(n: usize, k: usize, ordered: bool) -> Vec<Vec<u8>> {
    fn walk(n: usize, k: usize, ordered: bool, current: &mut Vec<u8>, list: &mut Vec<Vec<u8>>) {
        if current.len() == k {
            list.push(current.clone());
            return;
        }
        let from = if ordered {
            0
        } else {
            current.last().map_or(0, |&l| l as usize + 1)
        };
        for x in from..n {
            if !current.contains(&(x as u8)) {
                current.push(x as u8);
                walk(n, k, ordered, current, list);
                current.pop();
            }
        }
    }
    let mut list = Vec::new();
    walk(n, k, ordered, &mut Vec::with_capacity(k), &mut list);
    list
}

impl Arrangements {
    fn new(n: usize, k: usize, ordered: bool) -> Self {
        let list = choices(n, k, ordered);
        let mut number = vec![u32::MAX; 1 << (4 * k)];
        for (i, a) in list.iter().enumerate() {
            number[pack(a)] = i as u32;
        }
        Self { list, number }
    }

    #[inline]
    fn number_of(&self, positions: &[u8]) -> u32 {
        self.number[pack(positions)]
    }
}

#[inline]
fn pack(positions: &[u8]) -> usize {
    positions
        .iter()
        .fold(0usize, |acc, &p| (acc << 4) | p as usize)
}

/// The orbits of the phase's moves `moves` that hold the goal's listed slots and their
/// partners' slots (each side's partners in one orbit, the sides apart), checked to be
/// numbered within [`MOST_ENTRIES`].
fn orbits(
    puzzle: &PermPuzzle,
    goal: &WholeGoal,
    moves: &[&Element],
) -> Result<(OrbitPlaces, Vec<OrbitPlaces>), String> {
    let roots = slot_orbits(&puzzle.sets, moves);
    let first = goal.slots[0];
    let anchor_orbit = OrbitPlaces::of(&roots[goal.set], first);
    let side_orbits: Vec<OrbitPlaces> = (goal.beside.iter())
        .map(|b| OrbitPlaces::of(&roots[goal.side_set], b[first]))
        .collect();
    let name = |s: usize| &puzzle.sets[s].name;
    // Per orbit, the slot each listed slot stands for there (itself, or its partner).
    let listed = std::iter::once((&anchor_orbit, None)).chain(
        side_orbits
            .iter()
            .zip(&goal.beside)
            .map(|(o, b)| (o, Some(b))),
    );
    for (orbit, beside) in listed {
        let of = |s: usize| beside.map_or(s, |b| b[s]);
        if goal.slots.iter().any(|&s| orbit.place[of(s)] == u8::MAX) {
            let set = if beside.is_some() {
                goal.side_set
            } else {
                goal.set
            };
            return Err(format!(
                "Whole: the slots of {} it names are not in one orbit of the phase's moves",
                name(set)
            ));
        }
    }
    if side_orbits.len() > 1 && side_orbits[0].slots == side_orbits[1].slots {
        return Err(format!(
            "Whole: the phase's moves take pieces of {} from one side of their anchors \
             to the other",
            name(goal.side_set)
        ));
    }
    if std::iter::once(&anchor_orbit)
        .chain(&side_orbits)
        .any(|o| o.slots.len() > MOST_ORBIT)
    {
        return Err(format!("Whole: an orbit of more than {MOST_ORBIT} slots"));
    }
    if side_orbits.len() > 3 {
        return Err(format!(
            "Whole: {} pieces beside each slot, at most 3",
            side_orbits.len()
        ));
    }
    // C(n, k) combinations of the anchors, n!/(n-k)! arrangements a side.
    let k = goal.slots.len() as u64;
    let n = anchor_orbit.slots.len() as u64;
    let combinations = (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1));
    let entries = side_orbits.iter().fold(combinations, |acc, o| {
        let n = o.slots.len() as u64;
        (0..k).fold(acc, |acc, i| acc.saturating_mul(n - i))
    });
    if entries > MOST_ENTRIES {
        return Err(format!(
            "Whole: {entries} numbers, over the {MOST_ENTRIES} a table may hold"
        ));
    }
    Ok((anchor_orbit, side_orbits))
}

impl WholeGoal {
    /// Whether the goal can be numbered under the phase's moves `moves` (the reason
    /// when not), without making the numbering's tables.
    pub fn fits(&self, puzzle: &PermPuzzle, moves: &[&Element]) -> Result<(), String> {
        orbits(puzzle, self, moves).map(|_| ())
    }
}

/// The numbering of [`WholeGoal`] states under one phase's moves, with its distances.
pub struct WholeTable {
    goal: WholeGoal,
    /// The anchors' orbit and each side's.
    anchor_orbit: OrbitPlaces,
    side_orbits: Vec<OrbitPlaces>,
    /// Anchor combinations (ascending positions) and each side's arrangements.
    combinations: Arrangements,
    sides: Vec<Arrangements>,
    /// Per combination and move: the combination after it and the order its anchors
    /// come in (an index into `orders`).
    combination_steps: Vec<(u32, u32)>,
    /// The orders of `k` anchors: per order, which old index goes to each new index.
    orders: Arrangements,
    /// Per side, per arrangement and move: the arrangement after it (old anchor order).
    side_steps: Vec<Vec<u32>>,
    /// Per side, per arrangement and order: the arrangement reordered.
    reorders: Vec<Vec<u32>>,
    moves: usize,
    /// The goal's value.
    target: u64,
    /// The distances (4 bits, 15: at least 15 or never), once attached.
    distances: Option<crate::table::Table>,
    /// Whether an entry of 15 means never (no number was found 15 or more deep).
    fifteen_is_never: bool,
}

impl WholeTable {
    /// The numbering of `goal` under the moves `moves` (full-puzzle elements).
    pub fn new(puzzle: &PermPuzzle, goal: &WholeGoal, moves: &[&Element]) -> Result<Self, String> {
        let (anchor_orbit, side_orbits) = orbits(puzzle, goal, moves)?;
        let k = goal.slots.len();
        let combinations = Arrangements::new(anchor_orbit.slots.len(), k, false);
        let sides: Vec<Arrangements> = side_orbits
            .iter()
            .map(|o| Arrangements::new(o.slots.len(), k, true))
            .collect();
        let orders = Arrangements::new(k, k, true);
        let count = moves.len();
        let anchor_dest = destinations(goal.set, moves);
        let side_dest = destinations(goal.side_set, moves);
        let mut combination_steps = Vec::with_capacity(combinations.list.len() * count);
        for positions in &combinations.list {
            for dest in &anchor_dest {
                let moved = anchor_orbit.moved(positions, dest);
                let mut order: Vec<u8> = (0..k as u8).collect();
                order.sort_by_key(|&i| moved[i as usize]);
                let mut sorted = moved.clone();
                sorted.sort_unstable();
                combination_steps.push((combinations.number_of(&sorted), orders.number_of(&order)));
            }
        }
        let mut side_steps = Vec::with_capacity(sides.len());
        let mut reorders = Vec::with_capacity(sides.len());
        for (orbit, arrangements) in side_orbits.iter().zip(&sides) {
            let mut steps = Vec::with_capacity(arrangements.list.len() * count);
            let mut reorder = Vec::with_capacity(arrangements.list.len() * orders.list.len());
            for positions in &arrangements.list {
                for dest in &side_dest {
                    let moved = orbit.moved(positions, dest);
                    steps.push(arrangements.number_of(&moved));
                }
                for order in &orders.list {
                    let reordered: Vec<u8> = order.iter().map(|&i| positions[i as usize]).collect();
                    reorder.push(arrangements.number_of(&reordered));
                }
            }
            side_steps.push(steps);
            reorders.push(reorder);
        }
        let mut table = Self {
            goal: goal.clone(),
            anchor_orbit,
            side_orbits,
            combinations,
            sides,
            combination_steps,
            orders,
            side_steps,
            reorders,
            moves: count,
            target: 0,
            distances: None,
            fifteen_is_never: false,
        };
        let anchors: Vec<u8> = goal
            .slots
            .iter()
            .map(|&s| table.anchor_orbit.place[s])
            .collect();
        let partners: Vec<Vec<u8>> = goal
            .beside
            .iter()
            .zip(&table.side_orbits)
            .map(|(beside, orbit)| goal.slots.iter().map(|&s| orbit.place[beside[s]]).collect())
            .collect();
        table.target = table.value(&anchors, &partners);
        Ok(table)
    }

    /// The goal it numbers.
    pub fn goal(&self) -> &WholeGoal {
        &self.goal
    }

    /// Numbers it holds.
    pub fn size(&self) -> u64 {
        self.sides
            .iter()
            .fold(self.combinations.list.len() as u64, |acc, s| {
                acc * s.list.len() as u64
            })
    }

    /// A key of the numbering (orbits, steps), for its table file's name.
    pub fn key(&self) -> u64 {
        let text = format!(
            "whole pieces {:?} {:?} {:?} {:?}",
            self.goal,
            self.combination_steps,
            self.side_steps,
            self.side_orbits
                .iter()
                .map(|o| &o.slots)
                .collect::<Vec<_>>()
        );
        xxhash_rust::xxh3::xxh3_64(text.as_bytes())
    }

    /// The node value of anchors at ascending positions `anchors` with, per side, the
    /// positions of their partners in the same order.
    fn value(&self, anchors: &[u8], partners: &[Vec<u8>]) -> u64 {
        partners.iter().zip(&self.sides).fold(
            self.combinations.number_of(anchors) as u64,
            |acc, (p, side)| (acc << SIDE_BITS) | side.number_of(p) as u64,
        )
    }

    /// The value after move `m`.
    #[inline]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        let s = self.sides.len() as u32;
        let c = (value >> (SIDE_BITS * s)) as usize;
        let (next, order) = self.combination_steps[c * self.moves + m];
        let orders = self.orders.list.len();
        let mut out = next as u64;
        for j in 0..self.sides.len() {
            let t = ((value >> (SIDE_BITS * (s - 1 - j as u32))) & 0xFFFF) as usize;
            let moved = self.side_steps[j][t * self.moves + m] as usize;
            out = (out << SIDE_BITS) | self.reorders[j][moved * orders + order as usize] as u64;
        }
        out
    }

    /// The table index of a value.
    #[inline]
    fn rank(&self, value: u64) -> u64 {
        let s = self.sides.len() as u32;
        let mut rank = value >> (SIDE_BITS * s);
        for j in 0..self.sides.len() {
            let t = (value >> (SIDE_BITS * (s - 1 - j as u32))) & 0xFFFF;
            rank = rank * self.sides[j].list.len() as u64 + t;
        }
        rank
    }

    /// The value of a table index.
    fn unrank(&self, mut rank: u64) -> u64 {
        let mut parts = [0u64; 3];
        for j in (0..self.sides.len()).rev() {
            let n = self.sides[j].list.len() as u64;
            parts[j] = rank % n;
            rank /= n;
        }
        parts[..self.sides.len()]
            .iter()
            .fold(rank, |acc, &t| (acc << SIDE_BITS) | t)
    }

    /// The moves needed from a value to the goal (`NEVER`: it cannot be reached; 0
    /// before a table is attached).
    #[inline]
    pub fn bound(&self, value: u64) -> usize {
        let Some(table) = &self.distances else {
            return 0;
        };
        match Nibbles::new(table.payload()).get(self.rank(value) as usize) {
            15 if self.fifteen_is_never => NEVER,
            d => d as usize,
        }
    }

    /// Asks the memory for a value's entry.
    #[inline]
    pub fn prefetch(&self, value: u64) {
        if let Some(table) = &self.distances {
            Nibbles::new(table.payload()).prefetch(self.rank(value) as usize);
        }
    }

    /// The value of the best choice of pieces in the full state `state` (the fewest
    /// moves to the goal, the first such), or `None` when fewer pieces than listed slots
    /// can be chosen.
    pub fn encode(&self, state: &Element) -> Option<u64> {
        let goal = &self.goal;
        let anchors = &state.orbits[goal.set].perm;
        let others = &state.orbits[goal.side_set].perm;
        let mut where_is = [u8::MAX; 256];
        for (slot, &label) in others.iter().enumerate() {
            where_is[label as usize] = slot as u8;
        }
        // Candidates, by the position of their anchor: the partners' positions.
        let mut candidates: Vec<(u8, Vec<u8>)> = Vec::new();
        for (p, &slot) in self.anchor_orbit.slots.iter().enumerate() {
            let label = anchors[slot] as usize;
            let places: Option<Vec<u8>> = goal
                .partner
                .iter()
                .zip(&self.side_orbits)
                .map(|(partner, orbit)| {
                    let at = where_is[partner[label] as usize];
                    (at != u8::MAX)
                        .then(|| orbit.place[at as usize])
                        .filter(|&x| x != u8::MAX)
                })
                .collect();
            if let Some(places) = places {
                candidates.push((p as u8, places));
            }
        }
        let k = goal.slots.len();
        if candidates.len() < k {
            return None;
        }
        let mut best: Option<(usize, u64)> = None;
        for choice in &choices(candidates.len(), k, false) {
            let anchors: Vec<u8> = choice.iter().map(|&i| candidates[i as usize].0).collect();
            let partners: Vec<Vec<u8>> = (0..self.sides.len())
                .map(|j| {
                    choice
                        .iter()
                        .map(|&i| candidates[i as usize].1[j])
                        .collect()
                })
                .collect();
            let value = self.value(&anchors, &partners);
            let bound = self.bound(value);
            if best.is_none_or(|(b, _)| bound < b) {
                best = Some((bound, value));
            }
        }
        best.map(|(_, value)| value)
    }

    /// The distances of every number, 4 bits each, and how many at each depth: a
    /// breadth-first search from the goal over the phase's moves.
    pub fn distances(&self, progress: &crate::progress::Progress) -> (Vec<u8>, Vec<u64>) {
        let mut observer = crate::search::bfs::DepthNibbles::new(self.size());
        let result = crate::search::bfs::mod3_bfs_observed(
            &WholeSpace(self),
            &[self.rank(self.target)],
            progress,
            "whole pieces BFS",
            &mut observer,
        );
        (observer.into_bytes(), result.histogram)
    }

    /// Reads distances from `table` (a file [`WholeTable::distances`] wrote).
    pub fn attach(&mut self, table: crate::table::Table) {
        self.fifteen_is_never = table.header().histogram.len() < 16;
        self.distances = Some(table);
    }

    /// What it follows, for `puzzle info`.
    pub fn describe(&self, sets: &[SetDef]) -> String {
        format!(
            "{} of set {} whole with their {} in slots {}",
            self.goal.slots.len(),
            sets[self.goal.set].name,
            sets[self.goal.side_set].name,
            self.goal
                .slots
                .iter()
                .map(|s| (s + 1).to_string())
                .collect::<Vec<_>>()
                .join(" ")
        )
    }

    /// Bytes its distances take.
    pub fn bytes(&self) -> u64 {
        self.size().div_ceil(2)
    }
}

/// The numbers as a space for the breadth-first search.
struct WholeSpace<'a>(&'a WholeTable);

impl RankedSpace for WholeSpace<'_> {
    fn size(&self) -> u64 {
        self.0.size()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let value = self.0.unrank(rank);
        for m in 0..self.0.moves {
            visit(self.0.rank(self.0.child(value, m)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{shipped_plan, shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;

    /// The shipped 5x5x5 plan, its slice phase's number and moves.
    fn slice_phase() -> (PermPuzzle, super::super::Plan, usize) {
        let puzzle = shipped_puzzle("5x5x5.tws", PuzzleMetric::Htm);
        let plan = shipped_plan(&puzzle, "5x5x5.plan");
        let k = (plan.phases.iter())
            .position(|p| p.whole.is_some())
            .expect("a Whole phase");
        (puzzle, plan, k)
    }

    /// The value of the pieces whose anchors carry `labels` (ascending by slot), for
    /// tests that follow one choice.
    fn value_of(table: &WholeTable, state: &Element, labels: &[u8]) -> u64 {
        let goal = &table.goal;
        let anchors = &state.orbits[goal.set].perm;
        let others = &state.orbits[goal.side_set].perm;
        let mut chosen: Vec<(u8, u8)> = labels
            .iter()
            .map(|&l| {
                let slot = anchors.iter().position(|&x| x == l).expect("present");
                (table.anchor_orbit.place[slot], l)
            })
            .collect();
        chosen.sort_unstable();
        let positions: Vec<u8> = chosen.iter().map(|&(p, _)| p).collect();
        let partners: Vec<Vec<u8>> = (goal.partner.iter().zip(&table.side_orbits))
            .map(|(partner, orbit)| {
                chosen
                    .iter()
                    .map(|&(_, l)| {
                        let at = others
                            .iter()
                            .position(|&x| x == partner[l as usize])
                            .expect("present");
                        orbit.place[at]
                    })
                    .collect()
            })
            .collect();
        table.value(&positions, &partners)
    }

    /// The slice phase's goal is the four S-slice edges (DR UR DL UL: midge slots 1 3 6
    /// 8) whole: it holds solved, every move of the last phase keeps it, and the slice
    /// phase's own quarter turns break it.
    #[test]
    fn the_5x5x5_slice_phase_asks_for_four_whole_edges_the_last_phase_keeps() {
        let (puzzle, plan, k) = slice_phase();
        let goal = plan.phases[k].whole.as_ref().expect("goal");
        assert_eq!(puzzle.sets[goal.set].name, "MIDGE");
        assert_eq!(puzzle.sets[goal.side_set].name, "WING");
        assert_eq!(goal.slots, [0, 2, 5, 7]);
        assert_eq!(goal.beside.len(), 2);
        assert!(goal.holds(&puzzle.solved));
        for &m in &plan.phases[k + 1].moves {
            assert!(
                goal.kept_by(&plan.moves[m].element),
                "{}",
                plan.moves[m].name
            );
        }
        let r = (plan.phases[k].moves.iter())
            .find(|&&m| plan.moves[m].name == "R")
            .expect("R");
        assert!(!goal.kept_by(&plan.moves[*r].element));
        // Fw2 turns the S slice's inner layer: its wings leave their midges.
        let fw2 = (plan.phases[k].moves.iter())
            .find(|&&m| plan.moves[m].name == "Fw2")
            .expect("Fw2");
        let after = puzzle.solved.then(&plan.moves[*fw2].element, &puzzle.sets);
        assert!(!goal.holds(&after));
    }

    /// A value follows its pieces: moved by `child` it is the value of the moved state
    /// for the same pieces, a walk undone comes back to the goal's value, and at the
    /// goal's value the listed slots hold whole pieces. Four edges give
    /// C(8,4) x (8!/4!)^2 values.
    #[test]
    fn whole_values_follow_the_moves() {
        let (puzzle, plan, k) = slice_phase();
        let goal = plan.phases[k].whole.as_ref().expect("goal");
        let moves = plan.phase_elements(k);
        let table = WholeTable::new(&puzzle, goal, &moves).expect("numbered");
        assert_eq!(table.size(), 70 * 1680 * 1680);
        let solved = &puzzle.solved;
        let labels: Vec<u8> = goal
            .slots
            .iter()
            .map(|&s| solved.orbits[goal.set].perm[s])
            .collect();
        assert_eq!(value_of(&table, solved, &labels), table.target);
        let inverse: Vec<usize> = (0..moves.len())
            .map(|m| {
                (0..moves.len())
                    .find(|&n| {
                        solved
                            .then(moves[m], &puzzle.sets)
                            .then(moves[n], &puzzle.sets)
                            == *solved
                    })
                    .expect("inverse among the moves")
            })
            .collect();
        let mut rng = SplitMix64::new(7);
        for _ in 0..20 {
            let (mut state, mut value) = (solved.clone(), table.target);
            let mut path = Vec::new();
            for _ in 0..30 {
                let m = rng.below(moves.len() as u64) as usize;
                state = state.then(moves[m], &puzzle.sets);
                value = table.child(value, m);
                assert_eq!(value, value_of(&table, &state, &labels));
                assert!(value != table.target || goal.holds(&state));
                path.push(m);
            }
            for &m in path.iter().rev() {
                value = table.child(value, inverse[m]);
            }
            assert_eq!(value, table.target);
        }
        // Other pieces than the solved ones: any four edges outside the M slice.
        let other: Vec<u8> = [1usize, 3, 4, 6]
            .iter()
            .map(|&s| solved.orbits[goal.set].perm[s])
            .collect();
        let mut state = solved.clone();
        let mut value = value_of(&table, &state, &other);
        for _ in 0..200 {
            let m = rng.below(moves.len() as u64) as usize;
            state = state.then(moves[m], &puzzle.sets);
            value = table.child(value, m);
            assert_eq!(value, value_of(&table, &state, &other));
        }
    }

    /// The distances of a goal of two slots (C(8,2) x (8 x 7)^2 = 87,808 values): 0 at
    /// the goal alone, and elsewhere one more than the nearest value a move reaches (the
    /// moves include their inverses), so that the bound never overestimates; a start is
    /// given the choice of pieces nearest the goal.
    #[test]
    fn the_whole_table_holds_each_values_distance() {
        let (puzzle, plan, k) = slice_phase();
        let four = plan.phases[k].whole.as_ref().expect("goal");
        let sides: Vec<Sides> = plan.phases[k + 1].view.anchored.clone();
        let goal = WholeGoal::new(&puzzle, four.set, &[0, 2], &sides, 0).expect("goal");
        let moves = plan.phase_elements(k);
        let table = WholeTable::new(&puzzle, &goal, &moves).expect("numbered");
        assert_eq!(table.size(), 28 * 56 * 56);
        let (nibbles, histogram) = table.distances(&crate::progress::Progress::hidden());
        assert_eq!(
            histogram.iter().sum::<u64>(),
            table.size(),
            "every value reached"
        );
        let depth = |value: u64| Nibbles::new(&nibbles).get(table.rank(value) as usize) as usize;
        assert_eq!(histogram[0], 1);
        assert_eq!(depth(table.target), 0);
        let mut seen_far = false;
        for rank in 0..table.size() {
            let value = table.unrank(rank);
            assert_eq!(table.rank(value), rank);
            let d = depth(value);
            let near = (0..moves.len()).map(|m| depth(table.child(value, m))).min();
            if value == table.target {
                continue;
            }
            assert!(d > 0);
            assert_eq!(near, Some(d - 1), "value {value}");
            seen_far |= d >= 5;
        }
        assert!(seen_far);
    }
}
