//! The search of one phase: every canonical move sequence of a given cost that takes a
//! state to the phase's target, depth first, pruned by the phase's tables. With an exact
//! table the distance is known at every node (a move changes it by -1, 0 or +1, which
//! the table's value modulo 3 tells), so only moves that keep the target within reach
//! are followed, and a sequence never touches the target before its end (such a sequence
//! is a shorter solution with a detour). With pattern databases the largest one bounds
//! the rest, and a node that reaches the bound is checked against the whole pattern.

use super::steps::{FreeSteps, Step};
use super::tables::{PhaseTables, StartNode};
use crate::limits::Stop;
use crate::puzzles::perm::coord::{set_bits as bits, Reachable};
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::puzzle::PermPuzzle;

/// What a phase search needs besides its tables.
pub struct PhaseMoves<'a> {
    /// The phase's tables.
    pub tables: &'a PhaseTables,
    /// Cost of each phase move (0 or 1).
    pub costs: &'a [u8],
    /// The full puzzle and each phase move as it acts on full states, when the phase's
    /// moves can break the definition's `Illegal` rules and no coordinate tells which
    /// do (states along the path are then kept and checked).
    pub legality: Option<(&'a PermPuzzle, Vec<&'a Element>)>,
    /// The coordinate that tells which moves break the rules, and its place among a
    /// node's values ([`PhaseTables::legality_guard`]).
    pub guard: Option<(usize, &'a Reachable)>,
    /// Moves costing nothing that are not followed from a target reached (bit per move):
    /// the next phase's table is over classes its own free moves join, and these are
    /// such moves, so every solution they would make reaches a class handed on already.
    pub spare_at_target: u128,
    /// Moves costing nothing not followed once nothing but free moves is left: each is an
    /// earlier free move then a free move of the next phase (whose table is over the
    /// classes those join), so it reaches the classes the earlier one reaches.
    pub spare_at_zero: u128,
    /// The phase's steps of free moves then a paid move, listed per state, when they are.
    pub steps: Option<&'a FreeSteps>,
}

/// Why a search stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Halt {
    /// The visitor asked to stop.
    Enough,
    /// The deadline passed or the search was cancelled.
    Stopped,
    /// The run generated the nodes it was allowed ([`PhaseRun::budget`]).
    Budget,
    /// A run searched beside it, earlier in the candidates' order, found a solution
    /// ([`PhaseRun::overtaken_by`]).
    Overtaken,
}

/// Most matchings a phase follows (the 5x5x5's pairs phase: two, each side of the wings
/// against the midges).
pub const MOST_MATCHINGS: usize = 4;

/// A node's weight in [`PhaseRun::closeness`] by its cost left `r`: `BASE^-r`, so that
/// one node a move nearer the end outweighs a million farther (bases of 1,000 and more
/// measured alike on the FTO, 100 a little slower, 10 a third slower).
const BASE: f64 = 1e6;
const CLOSENESS: [f64; 40] = {
    let mut weights = [1.0; 40];
    let mut r = 1;
    while r < weights.len() {
        weights[r] = weights[r - 1] / BASE;
        r += 1;
    }
    weights
};

/// A search's buffers, which grow with its depth: per depth, the node's values and
/// distances, its children's and their table indices, and the path.
#[derive(Default)]
struct Buffers {
    /// Coordinate values per depth.
    stack: Vec<u64>,
    /// Per depth, every child's coordinate values (worked out, and their database
    /// entries asked for, before any is read).
    children: Vec<u64>,
    /// Per depth, every child's index in each matching's table (worked out for the
    /// prefetch, read after).
    ranks: Vec<u64>,
    /// A node's children's entries in a far exact table (read right after the prefetch).
    indices: Vec<u64>,
    /// Exact distance per depth (exact tables).
    distance: Vec<usize>,
    /// Each matching's distance per depth (exact within its table's depth, else one
    /// more): `matchings` values a depth.
    pairs: Vec<usize>,
    path: Vec<usize>,
}

thread_local! {
    /// Buffers lent to runs below a first move while they search: such runs are many
    /// (ten a candidate on the FTO) and each searches briefly at each total, so they
    /// hold only their start's values between searches and borrow the rest here,
    /// rather than each growing and letting go of its own every time.
    static SPARE_BUFFERS: std::cell::RefCell<Vec<Buffers>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

/// One run of a phase's search from one state.
pub struct PhaseRun<'a> {
    moves: &'a PhaseMoves<'a>,
    width: usize,
    /// The search's buffers; between a run below a first move's searches, only its
    /// start's values, distance and matchings' distances.
    buffers: Buffers,
    /// How many matchings the phase follows.
    matchings: usize,
    /// Whether the exact table is far ([`PhaseTables::exact_is_far`]).
    far: bool,
    /// The pattern state at the start (for the final check with pattern databases),
    /// shared by the runs below its first moves.
    start: std::sync::Arc<Element>,
    /// Full states per depth (only with `Illegal` rules).
    full: Vec<Element>,
    /// The moves costing nothing (a bit per move): the only ones taken with no cost left.
    free: u128,
    /// Nodes generated.
    pub nodes: u64,
    /// How near its searches came to a solution: every node adds `BASE^-r`, `r` its cost
    /// left, so a run that reached a node fewer moves from its end counts more, and among
    /// runs that came as near, the one with more such nodes. A phase that stops at its
    /// first solution searches its runs in this order at its next total (see
    /// `PhasedSolver::pass_from`).
    pub closeness: f64,
    /// The one move its solutions start with, when it searches that subtree alone.
    pub first_move: Option<usize>,
    /// Nodes it may generate before it halts with [`Halt::Budget`] (deterministic,
    /// unlike a deadline).
    pub budget: u64,
    /// Its place among runs searched side by side, and the place of the earliest of
    /// them that has found a solution: once that is before its own, it halts with
    /// [`Halt::Overtaken`] (its answer would not be taken).
    pub overtaken_by: Option<(usize, std::sync::Arc<std::sync::atomic::AtomicUsize>)>,
    stop: &'a Stop,
}

impl<'a> PhaseRun<'a> {
    /// A search from `start` (see [`PhaseTables::start`]) of the full state `full`;
    /// returns it with its bound.
    pub fn new(
        moves: &'a PhaseMoves<'a>,
        start: StartNode,
        full: &Element,
        stop: &'a Stop,
    ) -> (Self, usize) {
        let width = moves.tables.width;
        assert!(
            moves.tables.matchings.len() <= MOST_MATCHINGS,
            "too many matchings"
        );
        let bound = start.bound();
        let run = Self {
            moves,
            width,
            buffers: Buffers {
                stack: start.values,
                distance: vec![start.pattern],
                pairs: start.pairs,
                ..Buffers::default()
            },
            matchings: moves.tables.matchings.len(),
            far: moves.tables.exact_is_far(),
            start: std::sync::Arc::new(start.inner),
            full: if moves.legality.is_some() {
                vec![full.clone()]
            } else {
                Vec::new()
            },
            free: (moves.costs.iter().enumerate())
                .filter(|&(_, &c)| c == 0)
                .fold(0, |mask, (m, _)| mask | 1 << m),
            nodes: 0,
            closeness: 0.0,
            first_move: None,
            budget: u64::MAX,
            overtaken_by: None,
            stop,
        };
        (run, bound)
    }

    /// The same search, of the subtree below `first_move` alone, with the closeness
    /// this run has so far.
    pub fn below(&self, first_move: usize) -> Self {
        Self {
            moves: self.moves,
            width: self.width,
            buffers: Buffers {
                stack: self.buffers.stack[..self.width].to_vec(),
                distance: self.buffers.distance[..1].to_vec(),
                pairs: self.buffers.pairs[..self.matchings].to_vec(),
                ..Buffers::default()
            },
            matchings: self.matchings,
            far: self.far,
            start: self.start.clone(),
            full: self.full.iter().take(1).cloned().collect(),
            free: self.free,
            nodes: 0,
            closeness: self.closeness,
            first_move: Some(first_move),
            budget: self.budget,
            overtaken_by: None,
            stop: self.stop,
        }
    }

    /// Calls `visit` with every solution of cost exactly `cost` (phase move indices, in
    /// canonical order) until it returns false.
    pub fn solutions(
        &mut self,
        cost: usize,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<(), Halt> {
        // A run below one first move is one of many kept between totals (ten a
        // candidate on the FTO): it searches in buffers lent by its thread, its start
        // copied in, and keeps only its start.
        let lent = self.first_move.is_some();
        let mut own = Buffers::default();
        if lent {
            let mut spare = SPARE_BUFFERS
                .with(|spare| spare.borrow_mut().pop())
                .unwrap_or_default();
            spare.stack.clear();
            spare
                .stack
                .extend_from_slice(&self.buffers.stack[..self.width]);
            spare.distance.clear();
            spare.distance.push(self.buffers.distance[0]);
            spare.pairs.clear();
            spare
                .pairs
                .extend_from_slice(&self.buffers.pairs[..self.matchings]);
            own = std::mem::replace(&mut self.buffers, spare);
        }
        self.buffers.path.clear();
        self.buffers.stack.truncate(self.width);
        // Room for 32 depths, made when the run first searches: a phase keeping
        // several solutions starts thousands of runs (the 4x4x4's centres phase: 2,000)
        // and searches few of them.
        self.buffers.stack.reserve(self.width * 31);
        self.buffers.distance.truncate(1);
        self.buffers.pairs.truncate(self.matchings);
        let first = self.moves.tables.ranked.moves.len();
        let result = self.dfs(cost, first, visit);
        if lent {
            let spare = std::mem::replace(&mut self.buffers, own);
            SPARE_BUFFERS.with(|pool| pool.borrow_mut().push(spare));
            self.full.truncate(1);
            self.full.shrink_to_fit();
        }
        result
    }

    fn dfs(
        &mut self,
        left: usize,
        last: usize,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<(), Halt> {
        let tables = self.moves.tables;
        let depth = self.buffers.path.len();
        let exact = tables.is_exact();
        self.closeness += CLOSENESS[left.min(CLOSENESS.len() - 1)];
        let mut spare = 0u128;
        if left == 0 {
            let nm = self.matchings;
            let paired = self.buffers.pairs[depth * nm..][..nm]
                .iter()
                .all(|&d| d == 0);
            let done = paired
                && if exact {
                    // With moves that cost nothing, cost 0 is also a step or two away.
                    self.buffers.distance[depth] == 0
                        && (tables.costs.is_empty()
                            || tables
                                .at_target(&self.buffers.stack[depth * self.width..][..self.width]))
                } else {
                    let values = &self.buffers.stack[depth * self.width..][..self.width];
                    tables.pdb_bound(values) == 0 && tables.at_solved_values(values) && {
                        let end = tables.ranked.apply_path(&self.start, &self.buffers.path);
                        tables.is_target(&end)
                    }
                };
            if done && !visit(&self.buffers.path) {
                return Err(Halt::Enough);
            }
            spare = self.moves.spare_at_zero;
            if done {
                spare |= self.moves.spare_at_target;
            }
            // Zero-cost moves may still follow (and reach the target at cost 0).
            if !self.moves.costs.contains(&0) {
                return Ok(());
            }
        }
        if self.nodes & 0xFFF == 0 {
            if self.stop.reached() {
                return Err(Halt::Stopped);
            }
            if let Some((place, earliest)) = &self.overtaken_by {
                if earliest.load(std::sync::atomic::Ordering::Relaxed) < *place {
                    return Err(Halt::Overtaken);
                }
            }
        }
        if self.nodes >= self.budget {
            return Err(Halt::Budget);
        }
        if left > 0 {
            if let Some(steps) = self.moves.steps {
                let rank =
                    tables.exact_rank(&self.buffers.stack[depth * self.width..][..self.width]);
                if let Some(list) = steps.after(last, rank) {
                    return self.steps(list, left, visit);
                }
            }
        }
        let moves = tables.ranked.moves.len();
        let width = self.width;
        let mut taken = tables.ranked.follows[last] & !spare;
        if let (0, Some(m)) = (depth, self.first_move) {
            taken &= 1 << m;
        }
        if left == 0 {
            taken &= self.free;
        }
        // Moves into a state the definition forbids, told by the coordinate that keeps
        // the rules: never made.
        if let Some((at, coord)) = self.moves.guard {
            taken &= !coord.forbidden_moves(self.buffers.stack[depth * width + at], moves);
        }
        // Every child first, its database entries asked for: the reads below then overlap.
        let block = moves * width;
        self.buffers.children.resize((depth + 1) * block, 0);
        let here = &self.buffers.stack[depth * width..][..width];
        let kids = &mut self.buffers.children[depth * block..][..block];
        // Children an exact table already cuts (it is small and read at once) get no
        // prefetch: the other tables' reads are the slow ones, and asking for lines that
        // are never read only delays those that are. Their distances are kept for below.
        let d = self.buffers.distance[depth];
        let nm = self.matchings;
        self.buffers.ranks.resize((depth + 1) * moves * nm, 0);
        let ranks = &mut self.buffers.ranks[depth * moves * nm..][..moves * nm];
        let mut near = [0u16; 128];
        let mut alive = 0u128;
        // Over an exact table every child is made first, each coordinate's kind told
        // apart once (the 4x4x4's pairs phase: 15% faster). Over pattern databases each
        // child is made just before its entries are asked for: the making spaces out the
        // many reads asked for (the FTO's last phase: 5% slower all at once).
        if exact {
            tables.children(here, taken, kids);
        }
        // A table far bigger than the caches: every child's entry asked for first.
        let far = self.far;
        if far {
            self.buffers.indices.resize(moves, 0);
            for m in bits(taken) {
                self.buffers.indices[m] = tables.exact_index(&kids[m * width..][..width]);
                tables.prefetch_exact(self.buffers.indices[m]);
            }
        }
        for m in bits(taken) {
            if !exact {
                tables.child(here, m, &mut kids[m * width..][..width]);
            }
            let cost = self.moves.costs[m] as usize;
            if exact {
                let value = if far {
                    tables.exact_value_at(self.buffers.indices[m])
                } else {
                    tables.exact_value(&kids[m * width..][..width])
                };
                match exact_step(value, d, cost, left - cost) {
                    Some(distance) => near[m] = distance as u16,
                    None => continue,
                }
                tables.finish_child(here, m, &mut kids[m * width..][..width]);
            }
            let kid = &kids[m * width..][..width];
            alive |= 1 << m;
            tables.prefetch(kid, &mut ranks[m * nm..][..nm]);
            tables.prefetch_kinds(kid);
        }
        self.buffers.stack.resize((depth + 2) * width, 0);
        for m in bits(taken) {
            self.nodes += 1;
            if alive >> m & 1 == 0 {
                continue;
            }
            let cost = self.moves.costs[m] as usize;
            let rest = left - cost;
            self.buffers.stack[(depth + 1) * width..][..width]
                .copy_from_slice(&self.buffers.children[depth * block + m * width..][..width]);
            let next = &self.buffers.stack[(depth + 1) * width..][..width];
            let next_distance = if exact {
                near[m] as usize
            } else {
                let h = tables.pdb_bound(next) as usize;
                if h > rest {
                    continue;
                }
                h
            };
            // Pairs the next phase needs straddling its orbits that cannot be in time.
            if tables.straddle_bound(next) > rest {
                continue;
            }
            // Kinds the later phases need in slots they never move that cannot be in
            // time.
            if tables.kinds_exceed(next, rest) {
                continue;
            }
            // Each matching's distance, from the index the prefetch worked out (every
            // child that gets here had one).
            let mut next_pairs = [0usize; MOST_MATCHINGS];
            let mut far = false;
            for (i, matching) in tables.matchings.iter().enumerate() {
                let value = matching.value_at(self.buffers.ranks[(depth * moves + m) * nm + i]);
                let d = matching.step_distance(self.buffers.pairs[depth * nm + i], value);
                far |= d > rest;
                next_pairs[i] = d;
            }
            if far {
                continue;
            }
            if let Some((puzzle, elements)) = &self.moves.legality {
                // Full states per depth, their memory reused from node to node.
                if self.full.len() < depth + 2 {
                    let copy = self.full[depth].clone();
                    self.full.push(copy);
                }
                let (here, next) = self.full.split_at_mut(depth + 1);
                here[depth].then_into(elements[m], &puzzle.sets, &mut next[0]);
                if !puzzle.is_legal(&next[0]) {
                    continue;
                }
            }
            self.buffers.distance.truncate(depth + 1);
            self.buffers.distance.push(next_distance);
            self.buffers.pairs.truncate((depth + 1) * nm);
            self.buffers.pairs.extend_from_slice(&next_pairs[..nm]);
            self.buffers.path.push(m);
            let result = self.dfs(rest, m, visit);
            self.buffers.path.pop();
            result?;
        }
        Ok(())
    }

    /// [`PhaseRun::dfs`] by listed steps (free moves, then a paid one): each step the
    /// table lets go on becomes a node, the free moves' states in between are not made.
    fn steps(
        &mut self,
        list: &[Step],
        left: usize,
        visit: &mut dyn FnMut(&[usize]) -> bool,
    ) -> Result<(), Halt> {
        let depth = self.buffers.path.len();
        let width = self.width;
        let d = self.buffers.distance[depth];
        let tables = self.moves.tables;
        for step in list {
            self.nodes += 1;
            if self.nodes & 0xFFF == 0 && self.stop.reached() {
                return Err(Halt::Stopped);
            }
            // Every step's last move is paid (costs 1).
            let Some(next_distance) = exact_step(step.value, d, 1, left - 1) else {
                continue;
            };
            let to = depth + step.move_count();
            self.buffers.stack.resize((to + 1) * width, 0);
            tables.exact_values(
                step.rank as u64,
                &mut self.buffers.stack[to * width..][..width],
            );
            // Free moves keep the distance; no matching beside a listed table.
            self.buffers.distance.truncate(depth + 1);
            self.buffers.distance.resize(to, d);
            self.buffers.distance.push(next_distance);
            self.buffers.pairs.truncate((depth + 1) * self.matchings);
            self.buffers.pairs.resize((to + 1) * self.matchings, 0);
            self.buffers.path.extend(step.moves());
            let result = self.dfs(left - 1, step.last(), visit);
            self.buffers.path.truncate(depth);
            result?;
        }
        Ok(())
    }
}

/// A child's exact distance from its table value `value` (distance modulo 3, or 3:
/// unreachable), its parent's distance `d` and the move's cost, when the search goes on
/// there with `rest` left; `None` when it is cut: unreachable, too far, or at the target
/// before the end (a detour).
#[inline]
fn exact_step(value: u8, d: usize, cost: usize, rest: usize) -> Option<usize> {
    if value == 3 {
        return None;
    }
    // The neighbour's distance is d - 1, d or d + 1 (d by a move costing nothing): the
    // one congruent to its value.
    let candidate = if cost == 0 {
        d
    } else {
        [d.wrapping_sub(1), d, d + 1]
            .into_iter()
            .find(|&c| c != usize::MAX && (c % 3) as u8 == value)
            .unwrap_or(d + 1)
    };
    (candidate <= rest && !(candidate == 0 && rest > 0 && cost > 0)).then_some(candidate)
}
