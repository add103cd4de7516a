//! What a rolling query asks: the start cell that is empty, and the goal pattern of top
//! colours (the judge format reads these; the solvers and tables work on them).

use super::ranking::PATTERNS_PER_EMPTY;
use super::state::Colour;

/// One judge query: the empty cell at the start and the goal pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Query {
    /// Initially empty cell, row-major 0..9.
    pub start: usize,
    /// Goal pattern index: `empty * 3^8 + sum(top colour of slot k * 3^k)`.
    pub pattern: u32,
}

/// A goal cell as written in the judge input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalCell {
    /// A cube showing this colour on top.
    Top(Colour),
    /// The empty cell.
    Empty,
}

/// The pattern index of a goal grid (row-major, exactly one [`GoalCell::Empty`]).
pub fn pattern_index(goal: &[GoalCell; 9]) -> u32 {
    let empty = goal
        .iter()
        .position(|&c| c == GoalCell::Empty)
        .expect("a goal has an empty cell") as u32;
    let colours = goal.iter().rev().fold(0u32, |acc, &cell| match cell {
        GoalCell::Top(c) => acc * 3 + c as u32,
        GoalCell::Empty => acc,
    });
    empty * PATTERNS_PER_EMPTY + colours
}

/// The goal grid of a pattern index.
pub fn goal_of_pattern(pattern: u32) -> [GoalCell; 9] {
    let empty = (pattern / PATTERNS_PER_EMPTY) as usize;
    let mut colours = pattern % PATTERNS_PER_EMPTY;
    let mut goal = [GoalCell::Empty; 9];
    for (cell, slot) in goal.iter_mut().enumerate() {
        if cell != empty {
            *slot = GoalCell::Top(Colour::ALL[(colours % 3) as usize]);
            colours /= 3;
        }
    }
    goal
}
