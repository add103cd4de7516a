//! The two-phase search: IDA* on phase 1 (to H) interleaved over six views of the cube,
//! each phase-1 solution continued by IDA* on phase 2 (inside H) within what is left of
//! the length limit. See `docs/rubik-twophase.md` for the method and its measured tricks.

use super::coords::{
    is_phase2_move, ud_edges, Coords, CoordsView, FLIPS, PHASE2_MOVES, PHASE2_MOVE_COUNT,
    SLICE_ORDERS, SOLVED_SLOTS, TWISTS,
};
use super::tables::TwoPhaseTables;
use super::{Best, UNLIMITED};
use crate::limits::Stop;
use crate::puzzles::rubik::coord::perm::rank_permutation;
use crate::puzzles::rubik::model::cube::{
    htm_may_follow, permutation_parity, Cube, Move, EDGES, MOVE_COUNT,
};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::symmetry::AXIS_ROTATIONS;
use crate::puzzles::rubik::model::symmetry::UD_SYMMETRY_COUNT;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::table::packed::{Crumbs, Nibbles};
use std::time::Instant;

/// Longest path the search handles (moves); no two-phase solution comes near it.
const MAX_PATH: usize = 64;

/// Positions at most this far from solved (in the chosen metric) are answered with an
/// optimal solution: the search first tries every total length up to it.
pub const SHORT_OPTIMAL: u32 = 8;

/// Nodes between two looks at the stop (a clock read, about 25 ns): nothing measurable
/// per node, and a deadline kept within about 30 us here (the `kociemba` drop-in's
/// budget is 100 us; at 1024 nodes its searches overran it by a factor of two).
pub const STOP_CHECK: u64 = 256;

/// Every one of the six views ([`TwoPhaseSearch::take_views`]).
pub const ALL_VIEWS: u8 = 0b11_1111;

/// The views of the cube as given, along its three axes.
pub const AS_GIVEN_VIEWS: u8 = 0b01_0101;

/// The views of the cube inverted, along its three axes.
pub const INVERTED_VIEWS: u8 = 0b10_1010;

/// No move before: every move may come first.
const NONE: usize = MOVE_COUNT;

/// What a search ended with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// A solution within the limit (moves of the original cube).
    Found(Vec<Move>),
    /// No solution within the limit exists (the search was exhaustive).
    NoneWithin,
    /// The deadline passed first.
    TimedOut,
}

/// One of the six ways the search looks at a cube: turned so that its U-D, R-L or F-B axis
/// is U-D, and the position itself or its inverse. A cube is often much closer to H along
/// one axis, or as its inverse, than as given.
#[derive(Debug, Clone)]
struct View {
    /// `unmap[m]`: the move of the original cube that move `m` of this view stands for.
    unmap: [Move; MOVE_COUNT],
    inverse: bool,
    flip: usize,
    slice: usize,
    twist: usize,
    corners: u16,
    edges: [u8; EDGES],
    /// Exact phase-1 distance (face turns).
    distance: u32,
}

/// Edge permutation of each move (`ep` of the move's cube).
static MOVE_EDGES: std::sync::LazyLock<[[u8; EDGES]; MOVE_COUNT]> =
    std::sync::LazyLock::new(|| std::array::from_fn(|m| MOVE_CUBES[m].ep));

/// `FOLLOWS[last]`: bit `m` set when move `m` may follow move `last` in a canonical
/// sequence (index [`NONE`]: every move).
static FOLLOWS: std::sync::LazyLock<[u32; MOVE_COUNT + 1]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|last| {
        let previous = (last < MOVE_COUNT).then(|| Move::from_index(last));
        (0..MOVE_COUNT)
            .filter(|&m| htm_may_follow(previous, Move::from_index(m)))
            .fold(0, |mask, m| mask | 1 << m)
    })
});

/// Two-phase solving of one cube at a time (make one per thread; the tables are shared).
pub struct TwoPhaseSearch<'t> {
    coords: CoordsView<'t>,
    /// `unmaps[axis][m]`: the move of the original cube that move `m` of a view along
    /// `axis` stands for (identity, then the two axis rotations).
    unmaps: [[Move; MOVE_COUNT]; 3],
    phase1: Crumbs<'t>,
    corner_edges: Nibbles<'t>,
    corner_slice: Nibbles<'t>,
    metric: Metric,
    /// Quarter turns: the parity every solution's length has (else `None`).
    parity: Option<u32>,
    /// Moves along which phase-1 distances change by at most one (all, or quarter turns).
    unit_moves: u32,
    /// Cost of each move in the metric searched.
    cost: [u32; MOVE_COUNT],
    /// `order_move[order * 10 + p]`: the E-slice order after phase-2 move `p`.
    order_move: [u8; SLICE_ORDERS * PHASE2_MOVE_COUNT],
    max_cost: u32,
    path: [u8; MAX_PATH],
    /// `edge_cache[i]`: edge permutation of the current view after `path[..i]`, valid up
    /// to `edges_valid` (phase-1 paths share prefixes, so most phase-2 entries recompute
    /// one or two moves, not the whole path).
    edge_cache: [[u8; EDGES]; MAX_PATH + 1],
    edges_valid: usize,
    solution_len: usize,
    nodes: u64,
    /// When to give up (checked every 4096 nodes).
    stop: Stop,
    /// Give up once the node count reaches this (checked with the stop).
    node_limit: u64,
    timed_out: bool,
    /// Axes (bit `face % 3`: U-D, R-L, F-B) a solution's first move may not be on.
    banned_first: u8,
    /// Axes a solution's last move may not be on.
    banned_last: u8,
    /// How the view being searched maps its moves to the cube's (set per view).
    view_unmap: [Move; MOVE_COUNT],
    /// Whether the view being searched is the inverse.
    view_inverse: bool,
    /// The length limit of the search under way: its `max_cost`, lowered to one under
    /// each solution found while improving ([`TwoPhaseSearch::solve_improving`]).
    cap: u32,
    /// While improving: the length a solution must reach to end the search; longer ones
    /// are kept in `improved` and the search goes on for shorter.
    aim: Option<u32>,
    /// The shortest solution found so far while improving (moves of the original cube).
    improved: Option<Vec<Move>>,
    /// The views searched (bit `v` of [`TwoPhaseSearch::views`]' six; all by default).
    taken_views: u8,
}

impl<'t> TwoPhaseSearch<'t> {
    /// A search over `tables`, counting lengths in the tables' metric.
    pub fn new(tables: &'t TwoPhaseTables) -> Self {
        let metric = tables.metric();
        let coords = tables.coords();
        let order_move = std::array::from_fn(|i| {
            let (order, p) = (i / PHASE2_MOVE_COUNT, i % PHASE2_MOVE_COUNT);
            let slice = SOLVED_SLOTS * SLICE_ORDERS + order;
            (coords
                .slice_move
                .at(slice * MOVE_COUNT + PHASE2_MOVES[p] as usize) as usize
                % SLICE_ORDERS) as u8
        });
        let identity: [Move; MOVE_COUNT] = std::array::from_fn(Move::from_index);
        let unmaps = std::array::from_fn(|axis| {
            let mut unmap = identity;
            if axis > 0 {
                let rotation = AXIS_ROTATIONS[axis - 1];
                for mv in Move::all() {
                    unmap[rotation.map_move(mv).index()] = mv;
                }
            }
            unmap
        });
        Self {
            coords,
            unmaps,
            phase1: tables.phase1(),
            corner_edges: tables.corner_edges(),
            corner_slice: tables.corner_slice(),
            metric,
            parity: None,
            unit_moves: metric.move_mask(),
            cost: std::array::from_fn(|m| metric.length(&[Move::from_index(m)])),
            order_move,
            max_cost: 0,
            path: [0; MAX_PATH],
            edge_cache: [[0; EDGES]; MAX_PATH + 1],
            edges_valid: 0,
            solution_len: 0,
            nodes: 0,
            stop: Stop::never(),
            node_limit: u64::MAX,
            timed_out: false,
            banned_first: 0,
            banned_last: 0,
            view_unmap: identity,
            view_inverse: false,
            cap: 0,
            aim: None,
            improved: None,
            taken_views: ALL_VIEWS,
        }
    }

    /// Makes later searches look at the views of `mask` only (bit `v`: view `v`, the
    /// cube as given then inverted along U-D, R-L and F-B, in that order): two searches
    /// of complementary masks share one search's work between two threads, each with
    /// its own node budget, so their answers stay the same on any machine. Each is still
    /// complete; only one with view 0 gives a cube within [`SHORT_OPTIMAL`] of solved an
    /// optimal solution first.
    pub fn take_views(&mut self, mask: u8) {
        self.taken_views = mask & ALL_VIEWS;
    }

    /// Makes later searches skip solutions whose first move is on an axis of
    /// `first_axes` or whose last move is on an axis of `last_axes` (bit `face % 3` of
    /// the faces U R F D L B; 0: no restriction). A scramble is a solution inverted, so
    /// this keeps a scramble's ends from cancelling with moves written beside it (the
    /// fewest-moves frame, the blindfolded orientation). The search stays complete: a
    /// length limit it answers `NoneWithin` for has no allowed solution.
    pub fn ban_end_axes(&mut self, first_axes: u8, last_axes: u8) {
        self.banned_first = first_axes;
        self.banned_last = last_axes;
    }

    /// Whether the solution `path[..len]` of the current view has allowed ends.
    fn ends_allowed(&self, len: usize) -> bool {
        if self.banned_first | self.banned_last == 0 || len == 0 {
            return true;
        }
        let axis = |step: u8| 1u8 << (self.view_unmap[step as usize].face() as usize % 3);
        // An inverse view's path is the solution backwards.
        let (first, last) = if self.view_inverse {
            (self.path[len - 1], self.path[0])
        } else {
            (self.path[0], self.path[len - 1])
        };
        axis(first) & self.banned_first == 0 && axis(last) & self.banned_last == 0
    }

    /// The metric lengths are counted in.
    pub fn metric(&self) -> Metric {
        self.metric
    }

    /// Nodes (phase-1 and phase-2 positions) generated by the searches so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// A solution of `cube` of at most `max_cost` (in the metric), or why there is none.
    /// Cubes within [`SHORT_OPTIMAL`] of solved get an optimal solution.
    pub fn solve(&mut self, cube: &Cube, max_cost: u32, deadline: Option<Instant>) -> Outcome {
        self.solve_until(cube, max_cost, Stop::at(deadline))
    }

    /// Makes later searches give up ([`Outcome::TimedOut`]) once [`TwoPhaseSearch::nodes`]
    /// reaches `limit` (`u64::MAX`: never): an effort bound that, unlike a deadline, gives
    /// the same answers on any machine.
    pub fn limit_nodes(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    /// [`TwoPhaseSearch::solve`], giving up ([`Outcome::TimedOut`]) when `stop` is
    /// reached: a deadline passed or a cancel flag set.
    pub fn solve_until(&mut self, cube: &Cube, max_cost: u32, stop: Stop) -> Outcome {
        self.stop = stop;
        self.timed_out = false;
        self.cap = max_cost;
        let mut views = self.views(cube);
        // In quarter turns every move changes the corner permutation's parity by its
        // cost, so a solution's length has the parity of the cube's corner permutation.
        self.parity = match self.metric {
            Metric::Qtm => Some(permutation_parity(&cube.cp)),
            Metric::Htm => None,
        };
        // Short positions: every total length in turn, so the first solution is optimal
        // (two-phase search with a total limit is complete: a solution is its own
        // phase 1, or a phase-1 part to H and a phase-2 part inside it).
        // (View 0 alone: a search without it leaves the short positions to one with it.)
        let short_first = self.taken_views & 1 == 1;
        if short_first {
            for total in 0..=max_cost.min(SHORT_OPTIMAL) {
                if self.parity.is_some_and(|p| total % 2 != p) {
                    continue;
                }
                for phase1_cost in views[0].distance..=total {
                    if let Some(outcome) = self.try_lengths(cube, &views[..1], phase1_cost, total) {
                        return outcome;
                    }
                    // Improving: the first solution found here is optimal.
                    if self.improved.is_some() {
                        return Outcome::NoneWithin;
                    }
                }
            }
        }
        if max_cost <= SHORT_OPTIMAL && short_first {
            return Outcome::NoneWithin;
        }
        let mut v = 0;
        views.retain(|_| {
            v += 1;
            self.taken_views >> (v - 1) & 1 == 1
        });
        let shortest = views.iter().map(|v| v.distance).min().unwrap_or(0);
        let mut phase1_cost = shortest;
        // The cap only falls (improving), and phase 1 never costs more than the total.
        while phase1_cost <= self.cap {
            if let Some(outcome) = self.try_lengths(cube, &views, phase1_cost, self.cap) {
                return outcome;
            }
            phase1_cost += 1;
        }
        Outcome::NoneWithin
    }

    /// The shortest solution of `cube` found by one search that, whenever it finds a
    /// solution longer than `aim`, keeps it and goes on from where it is for one move
    /// shorter: what searching again for each shorter length finds, without searching
    /// again the phase-1 paths already tried (they had nothing within the longer limit,
    /// so nothing within the shorter). Gives up at `stop` or the node limit with the
    /// shortest found.
    pub fn solve_improving(&mut self, cube: &Cube, aim: u32, stop: Stop) -> Best {
        self.aim = Some(aim);
        self.improved = None;
        let outcome = self.solve_until(cube, aim.max(UNLIMITED), stop);
        self.aim = None;
        match (outcome, self.improved.take()) {
            (Outcome::Found(moves), _) => Best::Within(moves),
            (Outcome::NoneWithin, Some(moves)) => Best::Above {
                moves,
                optimal: true,
            },
            (Outcome::TimedOut, Some(moves)) => Best::Above {
                moves,
                optimal: false,
            },
            (_, None) => Best::Nothing,
        }
    }

    /// Phase-1 paths of cost `phase1_cost` in every view (in order), each continued in
    /// phase 2 up to a total of `max_cost`: `Some` outcome if a solution was found or time
    /// ran out.
    fn try_lengths(
        &mut self,
        cube: &Cube,
        views: &[View],
        phase1_cost: u32,
        max_cost: u32,
    ) -> Option<Outcome> {
        self.max_cost = max_cost;
        for view in views {
            if view.distance > phase1_cost {
                continue;
            }
            self.edge_cache[0] = view.edges;
            self.edges_valid = 0;
            self.view_unmap = view.unmap;
            self.view_inverse = view.inverse;
            let found = self.phase1(
                view.flip,
                view.slice,
                view.twist,
                view.corners as usize,
                view.distance,
                0,
                phase1_cost,
                0,
                NONE,
            );
            if found {
                let moves = self.original_moves();
                debug_assert!(cube.apply_all(&moves).is_solved());
                return Some(Outcome::Found(moves));
            }
            if self.improved.is_some() && phase1_cost > self.cap {
                return None;
            }
            if self.timed_out {
                return Some(Outcome::TimedOut);
            }
        }
        None
    }

    /// The six views of `cube`, with their phase-1 coordinates and distances.
    fn views(&self, cube: &Cube) -> Vec<View> {
        let inverse = cube.inverse();
        let mut views = Vec::with_capacity(6);
        for (axis, &unmap) in self.unmaps.iter().enumerate() {
            let turn = axis.checked_sub(1).map(|a| AXIS_ROTATIONS[a]);
            for (position, is_inverse) in [(cube, false), (&inverse, true)] {
                let seen = turn.map_or(*position, |r| r.conjugate(position));
                let (flip, slice, twist) = Coords::phase1_of(&seen);
                views.push(View {
                    unmap,
                    inverse: is_inverse,
                    flip,
                    slice,
                    twist,
                    corners: rank_permutation(&seen.cp) as u16,
                    edges: seen.ep,
                    distance: 0,
                });
            }
        }
        let starts: [(usize, usize, usize); 6] =
            std::array::from_fn(|v| (views[v].flip, views[v].slice, views[v].twist));
        for (view, distance) in views.iter_mut().zip(self.phase1_distances(starts)) {
            view.distance = distance;
        }
        views
    }

    /// Class entry of a (slice, flip) pair.
    #[inline]
    fn class_entry(&self, slice: usize, flip: usize) -> u32 {
        let pair = slice / SLICE_ORDERS * FLIPS + flip;
        self.coords.flip_slice_class.at(pair)
    }

    /// The phase-1 table's value (distance mod 3) for a class entry and a twist.
    #[inline]
    fn phase1_value(&self, entry: u32, twist: usize) -> u32 {
        let rep = self
            .coords
            .twist_conj
            .at(twist * UD_SYMMETRY_COUNT + (entry & 15) as usize);
        self.phase1
            .get((entry >> 4) as usize * TWISTS + rep as usize) as u32
    }

    /// The exact phase-1 distances of several (flip, slice, twist) starts: each steps down
    /// to H, always to a neighbour one closer (the only neighbours whose value mod 3 is one
    /// less). The starts step together, and each step's table reads are issued back to
    /// back, so the walk costs a few rounds of overlapping cache misses, not a chain.
    fn phase1_distances<const N: usize>(&self, starts: [(usize, usize, usize); N]) -> [u32; N] {
        let c = self.coords;
        let at_goal = |&(f, s, t): &(usize, usize, usize)| {
            f == 0 && t == 0 && s / SLICE_ORDERS == SOLVED_SLOTS
        };
        let mut here = starts;
        let mut value: [u32; N] = std::array::from_fn(|v| {
            let (f, s, t) = here[v];
            self.phase1_value(self.class_entry(s, f), t)
        });
        let mut distance = [0u32; N];
        let mut next = [[(0usize, 0usize, 0usize); MOVE_COUNT]; N];
        let mut entries = [[0u32; MOVE_COUNT]; N];
        let unit = |m: &usize| self.unit_moves >> m & 1 == 1;
        while !here.iter().all(at_goal) {
            for v in 0..N {
                if at_goal(&here[v]) {
                    continue;
                }
                let (f, s, t) = here[v];
                for m in (0..MOVE_COUNT).filter(unit) {
                    next[v][m] = (
                        c.flip_move.at(f * MOVE_COUNT + m) as usize,
                        c.slice_move.at(s * MOVE_COUNT + m) as usize,
                        c.twist_move.at(t * MOVE_COUNT + m) as usize,
                    );
                    entries[v][m] = self.class_entry(next[v][m].1, next[v][m].0);
                }
            }
            for v in 0..N {
                if at_goal(&here[v]) {
                    continue;
                }
                let down = (value[v] + 2) % 3;
                let step = (0..MOVE_COUNT)
                    .filter(unit)
                    .find(|&m| self.phase1_value(entries[v][m], next[v][m].2) == down);
                let Some(m) = step else {
                    unreachable!("a verified phase-1 table always has a way down")
                };
                here[v] = next[v][m];
                value[v] = down;
                distance[v] += 1;
            }
        }
        distance
    }

    /// Counts a node; checks the stop (deadline, cancel flag) every [`STOP_CHECK`] nodes.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(STOP_CHECK)
            && (self.nodes >= self.node_limit || self.stop.reached())
        {
            self.timed_out = true;
        }
        self.timed_out
    }

    /// Phase-1 paths of exactly `togo` more cost from (flip, slice, twist), at phase-1
    /// distance `distance`, each tried in phase 2. True when a solution is in `path`.
    /// The corner permutation rides along (all children's values are one cache line of
    /// the move table; recomputing it at each phase-2 entry was a chain of misses).
    #[allow(clippy::too_many_arguments)]
    fn phase1(
        &mut self,
        flip: usize,
        slice: usize,
        twist: usize,
        corners: usize,
        distance: u32,
        depth: usize,
        togo: u32,
        cost_so_far: u32,
        last: usize,
    ) -> bool {
        if togo == 0 {
            // In H (pruning kept only distance 0). A last move inside H would mean a
            // shorter phase 1 already tried, so such paths are skipped.
            if depth > 0 && is_phase2_move(last) {
                return false;
            }
            return self.phase2_entry(slice, corners, depth, cost_so_far, last);
        }
        if self.count_node() {
            return false;
        }
        // The children's table reads are independent: issue them back to back (class
        // entries first, then the table entries they lead to) so their cache misses
        // overlap, then walk the children in order.
        let c = self.coords;
        let mut kids = [(0u8, 0u16, 0u16, 0u16, 0u16); MOVE_COUNT];
        let mut count = 0;
        let mut allowed = FOLLOWS[last];
        while allowed != 0 {
            let m = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            // A move that ends phase 1 must leave a position outside H: a move inside H
            // cannot bring the cube into H.
            if self.cost[m] > togo || (self.cost[m] == togo && is_phase2_move(m)) {
                continue;
            }
            kids[count] = (
                m as u8,
                c.flip_move.at(flip * MOVE_COUNT + m),
                c.slice_move.at(slice * MOVE_COUNT + m),
                c.twist_move.at(twist * MOVE_COUNT + m),
                c.corner_move.at(corners * MOVE_COUNT + m),
            );
            count += 1;
        }
        let kids = &kids[..count];
        let mut entries = [0u32; MOVE_COUNT];
        for (e, &(_, f, s, _, _)) in entries.iter_mut().zip(kids) {
            *e = self.class_entry(s as usize, f as usize);
        }
        let mut stored = [0u32; MOVE_COUNT];
        for ((v, &(_, _, _, t, _)), &e) in stored.iter_mut().zip(kids).zip(&entries) {
            *v = self.phase1_value(e, t as usize);
        }
        // Neighbours along a unit move are one closer, as far, or one farther: the value
        // mod 3 says which. In quarter turns a half turn is two quarter turns: it is read
        // against its quarter-turn sibling (always among the children before it: filters
        // treat a face's turns alike, and a half turn passes only when its quarter does).
        let mut distances = [0u32; MOVE_COUNT];
        let mut quarter = distance;
        for (k, &(m, ..)) in kids.iter().enumerate() {
            let m = m as usize;
            let from = if self.unit_moves >> m & 1 == 1 {
                distance
            } else {
                debug_assert_eq!(kids[k.wrapping_sub(1)].0 as usize, m - 1);
                quarter
            };
            distances[k] = match (stored[k] + 3 - from % 3) % 3 {
                0 => from,
                1 => from + 1,
                _ => from - 1,
            };
            quarter = distances[k];
        }
        for (k, &(m, flip2, slice2, twist2, corners2)) in kids.iter().enumerate() {
            let m = m as usize;
            let cost = self.cost[m];
            let distance2 = distances[k];
            if distance2 > togo - cost {
                continue;
            }
            self.path[depth] = m as u8;
            self.edges_valid = self.edges_valid.min(depth);
            if self.phase1(
                flip2 as usize,
                slice2 as usize,
                twist2 as usize,
                corners2 as usize,
                distance2,
                depth + 1,
                togo - cost,
                cost_so_far + cost,
                m,
            ) {
                return true;
            }
            // Improving: a solution found below may have cut the total under this length.
            if self.timed_out || cost_so_far + togo > self.cap {
                return false;
            }
        }
        false
    }

    /// A phase-1 path of `depth` moves and cost `cost1` ends in H: tries phase 2 within the
    /// rest of the limit, cheapest bound first.
    fn phase2_entry(
        &mut self,
        slice: usize,
        corners: usize,
        depth: usize,
        cost1: u32,
        last: usize,
    ) -> bool {
        let c = self.coords;
        let order = slice % SLICE_ORDERS;
        let Some(budget) = self.max_cost.checked_sub(cost1) else {
            return false;
        };
        let bound_slice = self.corner_slice.get(corners * SLICE_ORDERS + order) as u32;
        if bound_slice > budget {
            return false;
        }
        for i in self.edges_valid..depth {
            let moved = &MOVE_EDGES[self.path[i] as usize];
            let before = self.edge_cache[i];
            self.edge_cache[i + 1] = std::array::from_fn(|k| before[moved[k] as usize]);
        }
        self.edges_valid = depth;
        let ud = ud_edges(&self.edge_cache[depth]);
        let bound_edges = self.corner_edges.get(c.corner_edge_index(corners, ud)) as u32;
        let bound = bound_slice.max(bound_edges);
        if bound > budget {
            return false;
        }
        // Quarter turns: the rest of the solution has a known parity.
        let parity = self.parity.map(|p| (p + cost1) % 2);
        for limit in (bound..=budget).filter(|l| parity.is_none_or(|p| l % 2 == p)) {
            if self.phase2(corners, ud, order, limit, depth, last) {
                let total = cost1 + limit;
                if self.aim.is_some_and(|aim| total > aim) {
                    // Kept; the search goes on for shorter ones (none through here).
                    self.improved = Some(self.original_moves());
                    self.cap = total - 1;
                    self.max_cost = self.cap;
                    return false;
                }
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        false
    }

    /// Phase-2 sequences of exactly `togo` more cost; true when one solves the cube.
    fn phase2(
        &mut self,
        corners: usize,
        ud: usize,
        order: usize,
        togo: u32,
        depth: usize,
        last: usize,
    ) -> bool {
        if togo == 0 {
            if corners == 0 && ud == 0 && order == 0 && self.ends_allowed(depth) {
                self.solution_len = depth;
                return true;
            }
            return false;
        }
        if self.count_node() {
            return false;
        }
        let c = self.coords;
        let allowed = FOLLOWS[last];
        for (p, &m) in PHASE2_MOVES.iter().enumerate() {
            let m = m as usize;
            let cost = self.cost[m];
            if allowed >> m & 1 == 0 || cost > togo {
                continue;
            }
            let corners2 = c.corner_move.at(corners * MOVE_COUNT + m) as usize;
            let order2 = self.order_move[order * PHASE2_MOVE_COUNT + p] as usize;
            if self.corner_slice.get(corners2 * SLICE_ORDERS + order2) as u32 > togo - cost {
                continue;
            }
            let ud2 = c.ud_edge_move.at(ud * PHASE2_MOVE_COUNT + p) as usize;
            if self.corner_edges.get(c.corner_edge_index(corners2, ud2)) as u32 > togo - cost {
                continue;
            }
            self.path[depth] = m as u8;
            if self.phase2(corners2, ud2, order2, togo - cost, depth + 1, m) {
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        false
    }

    /// The solution in `path` of the view being searched, as moves of the original cube.
    fn original_moves(&self) -> Vec<Move> {
        let moves = self.path[..self.solution_len]
            .iter()
            .map(|&m| self.view_unmap[m as usize]);
        if self.view_inverse {
            let mut undo: Vec<Move> = moves.map(Move::inverse).collect();
            undo.reverse();
            undo
        } else {
            moves.collect()
        }
    }
}
