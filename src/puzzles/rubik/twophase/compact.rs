//! Two-phase solving from a compact table set built in memory in a fraction of a second:
//! what answers a first call while the full tables (about 100 MB, seconds to build) do
//! not exist yet.
//!
//! The method is the same as the full search's ([`super::search`]): phase 1 to the
//! subgroup H, phase 2 inside it, every phase-1 path of increasing length continued in
//! phase 2 within what is left of the cap, so the search is complete. Only the bounds are
//! weaker, the maxima of two small exact tables per phase (Kociemba's original choice):
//! - phase 1: (E-slice slots, twist), 495 x 2187, and (E-slice slots, flip), 495 x 2048;
//! - phase 2: (corner permutation, E-slice order), 8! x 24, and (U-D edge permutation,
//!   E-slice order), 8! x 24.
//!
//! About 4 MB of bounds, built by the shared BFS in about 0.3 s (with the coordinate
//! tables). Face turns only: the quarter-turn solver waits for its full tables.

use super::coords::{
    is_phase2_move, ud_edges, Coords, FLIPS, PHASE2_MOVES, PHASE2_MOVE_COUNT, SLICE_ORDERS,
    SLICE_SLOTS, SOLVED_SLOTS, TWISTS, UD_EDGE_PERMS,
};
use super::search::{Outcome, SHORT_OPTIMAL, STOP_CHECK};
use super::{solve_by_restarts, Best, Searcher};
use crate::limits::Stop;
use crate::progress::Progress;
use crate::puzzles::rubik::coord::perm::rank_permutation;
use crate::puzzles::rubik::model::cube::{htm_may_follow, Cube, Move, EDGES, MOVE_COUNT};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::symmetry::AXIS_ROTATIONS;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::bfs::{layered_bfs, RankedSpace};

/// Corner permutations (8!).
const CORNER_PERMS: usize = 40_320;

/// Longest path the search handles (moves).
const MAX_PATH: usize = 64;

/// No move before: every move may come first.
const NONE: usize = MOVE_COUNT;

/// The compact tables: coordinate move tables and four small exact distance tables.
#[derive(Debug)]
pub struct CompactTables {
    coords: Coords,
    /// `order_move[order * 10 + p]`: the E-slice order (inside H) after phase-2 move `p`.
    order_move: Vec<u16>,
    /// Face-turn distance of (slots, twist) to (solved slots, no twist).
    slots_twist: Vec<u8>,
    /// Face-turn distance of (slots, flip) to (solved slots, no flip).
    slots_flip: Vec<u8>,
    /// Phase-2 distance of (corners, order) to solved.
    corners_order: Vec<u8>,
    /// Phase-2 distance of (U-D edges, order) to solved.
    edges_order: Vec<u8>,
}

/// Pairs of coordinates `first * second_size + second`, each moved by its own table:
/// `moves[k]` gives the column of move `k` in each table.
struct PairSpace<'a> {
    first: &'a [u16],
    first_stride: usize,
    first_size: usize,
    second: &'a [u16],
    second_stride: usize,
    second_size: usize,
    moves: Vec<(usize, usize)>,
}

impl RankedSpace for PairSpace<'_> {
    fn size(&self) -> u64 {
        (self.first_size * self.second_size) as u64
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let (a, b) = (
            rank as usize / self.second_size,
            rank as usize % self.second_size,
        );
        for &(ma, mb) in &self.moves {
            let a2 = self.first[a * self.first_stride + ma] as usize;
            let b2 = self.second[b * self.second_stride + mb] as usize;
            visit((a2 * self.second_size + b2) as u64);
        }
    }
}

/// Exact distances of every pair from the pair ranked `source`.
fn distances(space: &PairSpace<'_>, source: u64) -> Vec<u8> {
    layered_bfs(space, &[source], &Progress::hidden(), "").depths
}

impl CompactTables {
    /// Computes the tables (about 0.3 s on one core of a 2-core machine).
    pub fn build() -> Self {
        let coords = Coords::compute();
        // `slots_move[slots * 18 + m]`: the E-slice slots after move `m`.
        let slots_move: Vec<u16> = (0..SLICE_SLOTS * MOVE_COUNT)
            .map(|i| {
                let (slots, m) = (i / MOVE_COUNT, i % MOVE_COUNT);
                coords.slice_move[slots * SLICE_ORDERS * MOVE_COUNT + m] / SLICE_ORDERS as u16
            })
            .collect();
        let order_move: Vec<u16> = (0..SLICE_ORDERS * PHASE2_MOVE_COUNT)
            .map(|i| {
                let (order, p) = (i / PHASE2_MOVE_COUNT, i % PHASE2_MOVE_COUNT);
                let slice = SOLVED_SLOTS * SLICE_ORDERS + order;
                coords.slice_move[slice * MOVE_COUNT + PHASE2_MOVES[p] as usize]
                    % SLICE_ORDERS as u16
            })
            .collect();
        let every_move: Vec<(usize, usize)> = (0..MOVE_COUNT).map(|m| (m, m)).collect();
        let phase2_moves: Vec<(usize, usize)> = PHASE2_MOVES
            .iter()
            .enumerate()
            .map(|(p, &m)| (m as usize, p))
            .collect();
        // Distances to the solved slot set (ranked last) with nothing twisted or flipped.
        let by_slots = |table: &[u16], size: usize| {
            let space = PairSpace {
                first: &slots_move,
                first_stride: MOVE_COUNT,
                first_size: SLICE_SLOTS,
                second: table,
                second_stride: MOVE_COUNT,
                second_size: size,
                moves: every_move.clone(),
            };
            distances(&space, (SOLVED_SLOTS * size) as u64)
        };
        let slots_twist = by_slots(&coords.twist_move, TWISTS);
        let slots_flip = by_slots(&coords.flip_move, FLIPS);
        let corners_order = distances(
            &PairSpace {
                first: &coords.corner_move,
                first_stride: MOVE_COUNT,
                first_size: CORNER_PERMS,
                second: &order_move,
                second_stride: PHASE2_MOVE_COUNT,
                second_size: SLICE_ORDERS,
                moves: phase2_moves,
            },
            0,
        );
        let phase2_columns: Vec<(usize, usize)> = (0..PHASE2_MOVE_COUNT).map(|p| (p, p)).collect();
        let edges_order = distances(
            &PairSpace {
                first: &coords.ud_edge_move,
                first_stride: PHASE2_MOVE_COUNT,
                first_size: UD_EDGE_PERMS,
                second: &order_move,
                second_stride: PHASE2_MOVE_COUNT,
                second_size: SLICE_ORDERS,
                moves: phase2_columns,
            },
            0,
        );
        Self {
            coords,
            order_move,
            slots_twist,
            slots_flip,
            corners_order,
            edges_order,
        }
    }

    /// The phase-1 lower bound of (slots, flip, twist).
    #[inline]
    fn phase1_bound(&self, slots: usize, flip: usize, twist: usize) -> u32 {
        let by_twist = self.slots_twist[slots * TWISTS + twist];
        let by_flip = self.slots_flip[slots * FLIPS + flip];
        by_twist.max(by_flip) as u32
    }

    /// The phase-2 lower bound of (corners, U-D edges, order).
    #[inline]
    fn phase2_bound(&self, corners: usize, ud: usize, order: usize) -> u32 {
        let by_corners = self.corners_order[corners * SLICE_ORDERS + order];
        let by_edges = self.edges_order[ud * SLICE_ORDERS + order];
        by_corners.max(by_edges) as u32
    }
}

/// Bit `m` set when move `m` may follow move `last` (index [`NONE`]: every move).
static FOLLOWS: std::sync::LazyLock<[u32; MOVE_COUNT + 1]> = std::sync::LazyLock::new(|| {
    std::array::from_fn(|last| {
        let previous = (last < MOVE_COUNT).then(|| Move::from_index(last));
        (0..MOVE_COUNT)
            .filter(|&m| htm_may_follow(previous, Move::from_index(m)))
            .fold(0, |mask, m| mask | 1 << m)
    })
});

/// One of the six ways the search looks at a cube (as the full search does): turned so
/// that its U-D, R-L or F-B axis is U-D, and the position itself or its inverse. A cube
/// is often much closer to H along one axis, or as its inverse, than as given: searching
/// every view at each phase-1 length finds a solution within a tight cap (21) far sooner
/// on the hard cubes.
#[derive(Debug, Clone, Copy)]
struct View {
    /// `unmap[m]`: the move of the original cube that move `m` of this view stands for.
    unmap: [Move; MOVE_COUNT],
    inverse: bool,
    slots: usize,
    order: usize,
    flip: usize,
    twist: usize,
    corners: usize,
    edges: [u8; EDGES],
    /// Lower bound of the phase-1 distance.
    bound: u32,
}

/// Two-phase search over the compact tables, one cube at a time (one per thread).
pub struct CompactSearch<'t> {
    tables: &'t CompactTables,
    /// `unmaps[axis][m]`: the move of the original cube that move `m` of a view along
    /// `axis` stands for (identity, then the two axis rotations).
    unmaps: [[Move; MOVE_COUNT]; 3],
    /// `edge_cache[i]`: edge permutation of the view being searched after `path[..i]`,
    /// valid up to `edges_valid` (phase-1 paths share prefixes: most phase-2 entries
    /// apply one or two moves, not the whole path).
    edge_cache: [[u8; EDGES]; MAX_PATH + 1],
    edges_valid: usize,
    max_length: u32,
    path: [u8; MAX_PATH],
    solution_len: usize,
    nodes: u64,
    stop: Stop,
    /// Give up once the node count reaches this (checked with the stop).
    node_limit: u64,
    timed_out: bool,
}

impl<'t> CompactSearch<'t> {
    /// A search over `tables`.
    pub fn new(tables: &'t CompactTables) -> Self {
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
            tables,
            unmaps,
            edge_cache: [Cube::SOLVED.ep; MAX_PATH + 1],
            edges_valid: 0,
            max_length: 0,
            path: [0; MAX_PATH],
            solution_len: 0,
            nodes: 0,
            stop: Stop::never(),
            node_limit: u64::MAX,
            timed_out: false,
        }
    }

    /// The six views of `cube`, the cube as given first.
    fn views(&self, cube: &Cube) -> [View; 6] {
        let inverse = cube.inverse();
        std::array::from_fn(|v| {
            let (axis, is_inverse) = (v / 2, v % 2 == 1);
            let position = if is_inverse { &inverse } else { cube };
            let seen = match axis {
                0 => *position,
                a => AXIS_ROTATIONS[a - 1].conjugate(position),
            };
            let (flip, slice, twist) = Coords::phase1_of(&seen);
            let slots = slice / SLICE_ORDERS;
            View {
                unmap: self.unmaps[axis],
                inverse: is_inverse,
                slots,
                order: slice % SLICE_ORDERS,
                flip,
                twist,
                corners: rank_permutation(&seen.cp) as usize,
                edges: seen.ep,
                bound: self.tables.phase1_bound(slots, flip, twist),
            }
        })
    }

    /// Counts a node; checks the stop every [`STOP_CHECK`] nodes.
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

    /// Every phase-1 path of exactly `length` moves from `view`'s start, each continued in
    /// phase 2 within `max_length`: `Some` when a solution is found or time ran out.
    fn try_phase1_length(&mut self, cube: &Cube, view: &View, length: u32) -> Option<Outcome> {
        self.edge_cache[0] = view.edges;
        self.edges_valid = 0;
        if self.phase1(
            view.slots,
            view.order,
            view.flip,
            view.twist,
            view.corners,
            0,
            length,
            NONE,
        ) {
            let moves = self.path[..self.solution_len]
                .iter()
                .map(|&m| view.unmap[m as usize]);
            let moves: Vec<Move> = if view.inverse {
                let mut undo: Vec<Move> = moves.map(Move::inverse).collect();
                undo.reverse();
                undo
            } else {
                moves.collect()
            };
            debug_assert!(cube.apply_all(&moves).is_solved());
            return Some(Outcome::Found(moves));
        }
        self.timed_out.then_some(Outcome::TimedOut)
    }

    /// Phase-1 paths of exactly `togo` more moves; true when a solution is in `path`.
    /// The slice order rides along only to hand phase 2 its coordinate.
    #[allow(clippy::too_many_arguments)]
    fn phase1(
        &mut self,
        slots: usize,
        order: usize,
        flip: usize,
        twist: usize,
        corners: usize,
        depth: usize,
        togo: u32,
        last: usize,
    ) -> bool {
        if togo == 0 {
            // In H. A last move inside H would mean a shorter phase 1, tried already.
            if depth > 0 && is_phase2_move(last) {
                return false;
            }
            return self.phase2_entry(order, corners, depth);
        }
        if self.count_node() {
            return false;
        }
        let t = self.tables;
        let c = &t.coords;
        let mut allowed = FOLLOWS[last];
        while allowed != 0 {
            let m = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            if togo == 1 && is_phase2_move(m) {
                continue;
            }
            let slice2 = c.slice_move[(slots * SLICE_ORDERS + order) * MOVE_COUNT + m] as usize;
            let (slots2, order2) = (slice2 / SLICE_ORDERS, slice2 % SLICE_ORDERS);
            let flip2 = c.flip_move[flip * MOVE_COUNT + m] as usize;
            let twist2 = c.twist_move[twist * MOVE_COUNT + m] as usize;
            if t.phase1_bound(slots2, flip2, twist2) > togo - 1 {
                continue;
            }
            let corners2 = c.corner_move[corners * MOVE_COUNT + m] as usize;
            self.path[depth] = m as u8;
            self.edges_valid = self.edges_valid.min(depth);
            if self.phase1(
                slots2,
                order2,
                flip2,
                twist2,
                corners2,
                depth + 1,
                togo - 1,
                m,
            ) {
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        false
    }

    /// A phase-1 path of `depth` moves ends in H: phase 2 within the rest of the cap.
    fn phase2_entry(&mut self, order: usize, corners: usize, depth: usize) -> bool {
        let budget = self.max_length - depth as u32;
        // The corners' bound alone first: it needs no edges.
        if u32::from(self.tables.corners_order[corners * SLICE_ORDERS + order]) > budget {
            return false;
        }
        for i in self.edges_valid..depth {
            let moved = &MOVE_CUBES[self.path[i] as usize].ep;
            let before = self.edge_cache[i];
            self.edge_cache[i + 1] = std::array::from_fn(|k| before[moved[k] as usize]);
        }
        self.edges_valid = depth;
        let ud = ud_edges(&self.edge_cache[depth]);
        let bound = self.tables.phase2_bound(corners, ud, order);
        let last = if depth == 0 {
            NONE
        } else {
            self.path[depth - 1] as usize
        };
        for limit in bound..=budget {
            if self.phase2(corners, ud, order, limit, depth, last) {
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        false
    }

    /// Phase-2 sequences of exactly `togo` more moves; true when one solves the cube.
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
            if corners == 0 && ud == 0 && order == 0 {
                self.solution_len = depth;
                return true;
            }
            return false;
        }
        if self.count_node() {
            return false;
        }
        let t = self.tables;
        let c = &t.coords;
        let allowed = FOLLOWS[last];
        for (p, &m) in PHASE2_MOVES.iter().enumerate() {
            let m = m as usize;
            if allowed >> m & 1 == 0 {
                continue;
            }
            let corners2 = c.corner_move[corners * MOVE_COUNT + m] as usize;
            let order2 = t.order_move[order * PHASE2_MOVE_COUNT + p] as usize;
            let ud2 = c.ud_edge_move[ud * PHASE2_MOVE_COUNT + p] as usize;
            if t.phase2_bound(corners2, ud2, order2) > togo - 1 {
                continue;
            }
            self.path[depth] = m as u8;
            if self.phase2(corners2, ud2, order2, togo - 1, depth + 1, m) {
                return true;
            }
            if self.timed_out {
                return false;
            }
        }
        false
    }

    /// Every phase-1 length up to `max_length` in each of `views` in turn (complete: see
    /// [`super::search`]; one view is enough for that, the others find solutions sooner).
    fn search_within(&mut self, cube: &Cube, views: &[View], max_length: u32) -> Outcome {
        self.max_length = max_length;
        let start = views.iter().map(|v| v.bound).min().unwrap_or(0);
        for length in start..=max_length {
            for view in views.iter().filter(|v| v.bound <= length) {
                if let Some(outcome) = self.try_phase1_length(cube, view, length) {
                    return outcome;
                }
            }
        }
        Outcome::NoneWithin
    }
}

impl Searcher for CompactSearch<'_> {
    fn metric(&self) -> Metric {
        Metric::Htm
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn limit_nodes(&mut self, limit: u64) {
        self.node_limit = limit;
    }

    /// As the full search: optimal for cubes within [`SHORT_OPTIMAL`] of solved, else
    /// the first solution within `max_cost`.
    fn solve_until(&mut self, cube: &Cube, max_cost: u32, stop: Stop) -> Outcome {
        self.stop = stop;
        self.timed_out = false;
        let views = self.views(cube);
        let max_cost = max_cost.min(MAX_PATH as u32 - 1);
        // Short positions: every total in turn, in the cube as given (the first solution
        // is then optimal).
        for total in 0..=max_cost.min(SHORT_OPTIMAL) {
            match self.search_within(cube, &views[..1], total) {
                Outcome::NoneWithin => {}
                found_or_timed_out => return found_or_timed_out,
            }
        }
        if max_cost <= SHORT_OPTIMAL {
            return Outcome::NoneWithin;
        }
        self.search_within(cube, &views, max_cost)
    }

    fn solve_improving(&mut self, cube: &Cube, max_cost: u32, stop: &Stop) -> Best {
        solve_by_restarts(self, cube, max_cost, stop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::twophase::coords::slice;
    use crate::rng::SplitMix64;

    #[test]
    fn bounds_are_exact_distances_of_their_projections() {
        let tables = CompactTables::build();
        assert_eq!(tables.phase1_bound(SOLVED_SLOTS, 0, 0), 0);
        assert_eq!(tables.phase2_bound(0, 0, 0), 0);
        // Known maxima of these projections in face turns (Kociemba's tables).
        assert_eq!(tables.slots_twist.iter().max(), Some(&9));
        assert_eq!(tables.slots_flip.iter().max(), Some(&9));
        // One move changes a projection's distance by at most one.
        let mut rng = SplitMix64::new(5);
        for _ in 0..500 {
            let cube = Cube::random(&mut rng);
            let (flip, slice_coord, twist) = Coords::phase1_of(&cube);
            let here = tables.phase1_bound(slice_coord / SLICE_ORDERS, flip, twist);
            for mv in Move::all() {
                let next = cube.apply(mv);
                let (f, s, t) = Coords::phase1_of(&next);
                let there = tables.phase1_bound(s / SLICE_ORDERS, f, t);
                assert!(here.abs_diff(there) <= 1);
            }
            assert_eq!(slice(&cube), slice_coord);
        }
    }

    /// Issue 56 (F4): at 21 moves the search of one view spent 100,148 nodes per cube on
    /// these 200 cubes (`cubedb bench rubik-twophase --compact --caps htm:21`, seed 2026),
    /// most of them on a few cubes far from H along their own axis; six views spend
    /// 29,884.
    #[test]
    fn six_views_find_21_move_solutions_in_few_nodes() {
        let tables = CompactTables::build();
        let mut search = CompactSearch::new(&tables);
        let mut rng = SplitMix64::new(2026);
        let cubes: Vec<Cube> = (0..200).map(|_| Cube::random(&mut rng)).collect();
        let mut most = 0;
        for cube in &cubes {
            let before = search.nodes();
            match search.solve_until(cube, 21, Stop::never()) {
                Outcome::Found(moves) => {
                    assert!(moves.len() <= 21 && cube.apply_all(&moves).is_solved());
                }
                other => panic!("no solution within 21: {other:?}"),
            }
            most = most.max(search.nodes() - before);
        }
        let mean = search.nodes() / cubes.len() as u64;
        assert!(mean < 40_000, "{mean} nodes per cube");
        assert!(most < 1_000_000, "{most} nodes on one cube");
    }

    #[test]
    fn solutions_solve_and_respect_the_cap() {
        let tables = CompactTables::build();
        let mut search = CompactSearch::new(&tables);
        let mut rng = SplitMix64::new(11);
        for _ in 0..30 {
            let cube = Cube::random(&mut rng);
            match search.solve_until(&cube, 23, Stop::never()) {
                Outcome::Found(moves) => {
                    assert!(moves.len() <= 23);
                    assert!(cube.apply_all(&moves).is_solved());
                }
                other => panic!("no solution within 23: {other:?}"),
            }
        }
        // Short cubes get optimal answers; a cap below the optimum finds nothing.
        let cube =
            Cube::from_moves(&crate::puzzles::rubik::parse_moves("R U F").unwrap_or_default());
        assert_eq!(
            search.solve_until(&cube, 21, Stop::never()),
            Outcome::Found(crate::puzzles::rubik::parse_moves("F' U' R'").unwrap_or_default())
        );
        assert_eq!(
            search.solve_until(&cube, 2, Stop::never()),
            Outcome::NoneWithin
        );
    }
}
