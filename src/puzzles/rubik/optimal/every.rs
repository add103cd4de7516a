//! Every solution of a given length, and shortest solutions with a restricted move set,
//! by depth-first search under the pattern databases' bounds.
//!
//! Sequences are canonical (see [`htm_may_follow`], [`qtm_may_follow`]): moves of one face
//! are merged, and turns of opposite faces, which commute, come in URFDLB order. So two
//! different sequences are never equal up to commuting moves, and each position reached
//! by a sequence is listed once per canonical sequence. A solution never passes through
//! the solved state before its end (that would be a shorter solution plus a detour).
//!
//! Solutions come out in lexicographic order of their move indices (U before U2 before
//! U' before R ...): the depth-first search tries moves in that order, and the subtrees
//! searched in parallel are joined in it.

use crate::puzzles::rubik::model::cube::{htm_may_follow, qtm_may_follow, Cube, Move, MOVE_CUBES};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::optimal::search::KorfSolver;
use rayon::prelude::*;

/// Solutions of one length, and the work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    /// The solutions, sorted; at most the limit asked for.
    pub solutions: Vec<Vec<Move>>,
    /// Positions generated.
    pub nodes: u64,
}

/// Searches canonical sequences over a set of moves, pruned by a [`KorfSolver`]'s bounds
/// (admissible for any subset of the moves: a subgroup's distance is never shorter).
#[derive(Debug, Clone)]
pub struct Enumerator<'a> {
    solver: KorfSolver<'a>,
    moves: Vec<Move>,
    metric: Metric,
}

impl<'a> Enumerator<'a> {
    /// Over `moves` (each a move of the solver's metric: quarter turns in QTM).
    pub fn new(solver: KorfSolver<'a>, moves: &[Move]) -> Self {
        let metric = solver.metric();
        debug_assert!(moves
            .iter()
            .all(|m| metric == Metric::Htm || m.is_quarter()));
        let mut moves = moves.to_vec();
        moves.sort_by_key(|m| m.index());
        moves.dedup();
        Self {
            solver,
            moves,
            metric,
        }
    }

    /// Length step between possible solution lengths: 2 in QTM (a position's parity fixes
    /// the parity of every sequence reaching it), else 1.
    pub fn step(&self) -> u32 {
        match self.metric {
            Metric::Qtm => 2,
            Metric::Htm => 1,
        }
    }

    fn may_follow(&self, before: Option<Move>, previous: Option<Move>, mv: Move) -> bool {
        match self.metric {
            Metric::Qtm => qtm_may_follow(before, previous, mv),
            Metric::Htm => htm_may_follow(previous, mv),
        }
    }

    /// The first `limit` canonical solutions of exactly `length` moves, in order.
    pub fn solutions_of_length(&self, cube: &Cube, length: u32, limit: usize) -> Found {
        let inv = cube.inverse();
        let mut nodes = 0;
        if length < 4 || limit == 0 {
            let mut out = Vec::new();
            let mut path = Vec::new();
            self.dfs(
                cube, &inv, 0, length, None, None, &mut path, &mut out, limit, &mut nodes,
            );
            return Found {
                solutions: out,
                nodes,
            };
        }
        // Two-move prefixes, searched in parallel and joined in order.
        let mut prefixes = Vec::new();
        for &a in &self.moves {
            let c1 = cube.apply(a);
            nodes += 1;
            if c1.is_solved() {
                continue;
            }
            for &b in &self.moves {
                if !self.may_follow(None, Some(a), b) {
                    continue;
                }
                nodes += 1;
                let c2 = c1.apply(b);
                if !c2.is_solved() {
                    prefixes.push((a, b, c2));
                }
            }
        }
        let parts: Vec<(Vec<Vec<Move>>, u64)> = prefixes
            .par_iter()
            .map(|&(a, b, c2)| {
                let mut out = Vec::new();
                let mut nodes = 0;
                let mut path = vec![a, b];
                let i2 = c2.inverse();
                self.dfs(
                    &c2,
                    &i2,
                    2,
                    length,
                    Some(a),
                    Some(b),
                    &mut path,
                    &mut out,
                    limit,
                    &mut nodes,
                );
                (out, nodes)
            })
            .collect();
        let mut solutions = Vec::new();
        for (part, part_nodes) in parts {
            nodes += part_nodes;
            let room = limit - solutions.len().min(limit);
            solutions.extend(part.into_iter().take(room));
        }
        Found { solutions, nodes }
    }

    /// The shortest solutions, at most `limit` of them, of at most `max_length` moves:
    /// `None` if there is none that short. Lengths are tried upward from the root's bound.
    pub fn shortest(&self, cube: &Cube, max_length: u32, limit: usize) -> (Option<Found>, u64) {
        let inv = cube.inverse();
        // A budget of the position's parity (QTM), larger than any distance.
        let parity = match self.metric {
            Metric::Qtm => crate::puzzles::rubik::model::cube::permutation_parity(&cube.cp),
            Metric::Htm => 0,
        };
        let mut h = [0];
        self.solver
            .bounds(&[(Move::from_index(0), *cube, inv)], 1000 + parity, &mut h);
        let mut length = h[0];
        let mut nodes = 0;
        while length <= max_length {
            let found = self.solutions_of_length(cube, length, limit);
            nodes += found.nodes;
            if !found.solutions.is_empty() {
                return (
                    Some(Found {
                        solutions: found.solutions,
                        nodes,
                    }),
                    nodes,
                );
            }
            length += self.step();
        }
        (None, nodes)
    }

    #[allow(clippy::too_many_arguments)]
    fn dfs(
        &self,
        cube: &Cube,
        inv: &Cube,
        g: u32,
        length: u32,
        before: Option<Move>,
        previous: Option<Move>,
        path: &mut Vec<Move>,
        out: &mut Vec<Vec<Move>>,
        limit: usize,
        nodes: &mut u64,
    ) {
        if g == length {
            if cube.is_solved() {
                out.push(path.clone());
            }
            return;
        }
        if (g > 0 && cube.is_solved()) || out.len() >= limit {
            return;
        }
        let mut kids = [(Move::from_index(0), Cube::SOLVED, Cube::SOLVED); 18];
        let mut n = 0;
        for &mv in &self.moves {
            if self.may_follow(before, previous, mv) {
                kids[n] = (
                    mv,
                    cube.apply(mv),
                    MOVE_CUBES[mv.inverse().index()].then(inv),
                );
                n += 1;
            }
        }
        *nodes += n as u64;
        let budget = length - g - 1;
        let mut bounds = [0u32; 18];
        self.solver.bounds(&kids[..n], budget, &mut bounds[..n]);
        for (&(mv, child, child_inv), &h) in kids[..n].iter().zip(&bounds[..n]) {
            if h > budget {
                continue;
            }
            path.push(mv);
            self.dfs(
                &child,
                &child_inv,
                g + 1,
                length,
                previous,
                Some(mv),
                path,
                out,
                limit,
                nodes,
            );
            path.pop();
            if out.len() >= limit {
                return;
            }
        }
    }
}
