//! Near-optimal solving of any position in milliseconds: Kociemba's two-phase method on
//! cubedb's table machinery.
//!
//! Phase 1 brings the cube into the subgroup H = <U, D, R2, L2, F2, B2> (no twisted
//! corner, no flipped edge, the E-slice edges in the E slice); phase 2 solves it inside H.
//! Each phase has pruning tables built by the shared BFS ([`tables`]); the search
//! ([`search`]) tries phase-1 paths of increasing length on six views of the cube and
//! continues each in phase 2 within what is left of the length limit. The method, the
//! tables and the measured effect of each trick are in `docs/rubik-twophase.md`.
//!
//! - [`coords`]: the coordinates and their move, symmetry and class tables;
//! - [`tables`]: the table files and their BFS;
//! - [`search`]: the search.

pub mod coords;
pub mod search;
pub mod tables;

pub use search::{Outcome, TwoPhaseSearch, SHORT_OPTIMAL};
pub use tables::{TwoPhaseTables, GROUP};

use crate::limits::Stop;
use crate::puzzles::rubik::model::cube::{Cube, Move};
use std::time::Instant;

/// A length limit no two-phase search reaches (30 face turns suffice for any cube:
/// phase 1 needs at most 12 and phase 2 at most 18; in quarter turns, well under 50).
pub const UNLIMITED: u32 = 50;

/// Longest scramble, in face turns (the limit for random-state scrambles in competitions).
pub const SCRAMBLE_LENGTH: u32 = 21;

/// A random-state scramble for `cube`: at most 21 face turns that produce it from solved
/// (the inverse of a two-phase solution), checked by applying them. `search` must count
/// face turns. `None` only if no solution was found, which does not happen for a valid
/// cube (every position is within 20).
pub fn scramble(search: &mut TwoPhaseSearch<'_>, cube: &Cube) -> Option<Vec<Move>> {
    debug_assert_eq!(search.metric(), crate::puzzles::rubik::Metric::Htm);
    match search.solve(cube, SCRAMBLE_LENGTH, None) {
        Outcome::Found(moves) => {
            let undo: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
            (Cube::from_moves(&undo) == *cube).then_some(undo)
        }
        Outcome::NoneWithin | Outcome::TimedOut => None,
    }
}

/// What a search with a deadline ends with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Best {
    /// A solution within the limit.
    Within(Vec<Move>),
    /// The shortest solution found, longer than the limit: time ran out first, or
    /// (`optimal`) no solution within the limit exists.
    Above {
        /// The moves.
        moves: Vec<Move>,
        /// True when the search proved that no shorter solution exists.
        optimal: bool,
    },
    /// Time ran out before any solution was found.
    Nothing,
}

/// The best solution of `cube` found before `deadline`: first any solution, then shorter
/// ones (each search asked for one move less than the last found) until one is within
/// `max_cost` or time runs out.
pub fn solve_by_deadline(
    search: &mut TwoPhaseSearch<'_>,
    cube: &Cube,
    max_cost: u32,
    deadline: Instant,
) -> Best {
    solve_until(search, cube, max_cost, &Stop::at(Some(deadline)))
}

/// [`solve_by_deadline`] with any stop: a deadline, a cancel flag, or both.
pub fn solve_until(
    search: &mut TwoPhaseSearch<'_>,
    cube: &Cube,
    max_cost: u32,
    stop: &Stop,
) -> Best {
    let metric = search.metric();
    let mut best = match search.solve_until(cube, max_cost.max(UNLIMITED), stop.clone()) {
        Outcome::Found(moves) => moves,
        Outcome::TimedOut | Outcome::NoneWithin => return Best::Nothing,
    };
    loop {
        let length = metric.length(&best);
        if length <= max_cost {
            return Best::Within(best);
        }
        match search.solve_until(cube, length - 1, stop.clone()) {
            Outcome::Found(moves) => best = moves,
            Outcome::TimedOut => {
                return Best::Above {
                    moves: best,
                    optimal: false,
                }
            }
            Outcome::NoneWithin => {
                return Best::Above {
                    moves: best,
                    optimal: true,
                }
            }
        }
    }
}
