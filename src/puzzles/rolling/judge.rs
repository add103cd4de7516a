//! The judge format of POJ 3131: data sets of a start cell and a 3x3 goal of top colours,
//! ended by `0 0`; one answer line each.

use super::ranking::PATTERNS_PER_EMPTY;
use super::solver::Solution;
use super::state::Colour;
use crate::judge::{InputError, Token, Tokens};
use std::fmt::Write as _;

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

/// Writes `query` in the judge input format.
pub fn format_query(query: &Query) -> String {
    let mut text = format!("{} {}\n", query.start % 3 + 1, query.start / 3 + 1);
    for (i, cell) in goal_of_pattern(query.pattern).iter().enumerate() {
        let letter = match cell {
            GoalCell::Top(c) => c.letter(),
            GoalCell::Empty => 'E',
        };
        text.push(letter);
        text.push(if i % 3 == 2 { '\n' } else { ' ' });
    }
    text
}

/// Parses judge input lazily: one item per data set, stopping after the first error.
pub fn parse_judge_input(input: &str) -> impl Iterator<Item = Result<Query, InputError>> + '_ {
    let mut tokens = Tokens::new(input);
    crate::judge::cases(move |case| parse_data_set(&mut tokens, case))
}

fn parse_data_set(tokens: &mut Tokens<'_>, case: usize) -> Result<Option<Query>, InputError> {
    let error = |line: usize, problem: String| InputError {
        what: "data set",
        case,
        line,
        problem,
    };
    let mut next = |what: &str| -> Result<Token<'_>, InputError> {
        let line = tokens.line();
        tokens.next().ok_or_else(|| {
            error(
                line,
                format!("input ends where {what} was expected (is the `0 0` terminator missing?)"),
            )
        })
    };
    let x = next("the start column")?;
    let y = next("the start row")?;
    if x.text == "0" && y.text == "0" {
        return Ok(None);
    }
    let coordinate = |token: Token<'_>, name: &str| -> Result<usize, InputError> {
        match token.text.parse::<usize>() {
            Ok(v @ 1..=3) => Ok(v - 1),
            _ => Err(error(
                token.line,
                format!("start {name} `{}` is not 1, 2 or 3", token.text),
            )),
        }
    };
    let (column, row) = (coordinate(x, "column")?, coordinate(y, "row")?);
    let mut goal = [GoalCell::Empty; 9];
    let mut empties = Vec::new();
    let mut last_line = y.line;
    for (cell, slot) in goal.iter_mut().enumerate() {
        let token = next("a goal colour (W, R, B or E)")?;
        last_line = token.line;
        *slot = match token.text {
            "W" => GoalCell::Top(Colour::White),
            "R" => GoalCell::Top(Colour::Red),
            "B" => GoalCell::Top(Colour::Blue),
            "E" => {
                empties.push(cell);
                GoalCell::Empty
            }
            other => {
                return Err(error(
                    token.line,
                    format!(
                        "goal cell (row {}, column {}) is `{other}`, expected W, R, B or E",
                        cell / 3 + 1,
                        cell % 3 + 1
                    ),
                ))
            }
        };
    }
    if empties.len() != 1 {
        return Err(error(
            last_line,
            format!("the goal must have exactly one E, found {}", empties.len()),
        ));
    }
    Ok(Some(Query {
        start: row * 3 + column,
        pattern: pattern_index(&goal),
    }))
}

/// Appends the judge answer line for `solution` (and, with `with_path`, the rolls line).
pub fn format_answer(out: &mut String, solution: &Solution, with_path: bool) {
    match solution.moves {
        Some(m) => {
            let _ = writeln!(out, "{m}");
        }
        None => out.push_str("-1\n"),
    }
    if with_path {
        if let Some(path) = &solution.path {
            out.extend(path.iter().map(|r| r.letter()));
        }
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queries_round_trip_through_the_judge_format() {
        for pattern in (0..9 * PATTERNS_PER_EMPTY).step_by(97) {
            let query = Query {
                start: (pattern % 9) as usize,
                pattern,
            };
            let text = format!("{}0 0\n", format_query(&query));
            let parsed: Vec<_> = parse_judge_input(&text).collect();
            assert_eq!(parsed, vec![Ok(query)]);
        }
    }

    #[test]
    fn bad_input_names_the_data_set_and_line() {
        let cases = [
            (
                "1 1\nW W W\nW W W\nW W E\n2 2\nW X W\nW E W\nW W W\n0 0\n",
                2,
                6,
                "`X`",
            ),
            (
                "1 1\nW W W\nW W W\nW W W\n0 0\n",
                1,
                4,
                "exactly one E, found 0",
            ),
            (
                "1 1\nE W W\nW W W\nW W E\n0 0\n",
                1,
                4,
                "exactly one E, found 2",
            ),
            ("4 1\nE W W\nW W W\nW W W\n0 0\n", 1, 1, "column `4`"),
            ("1 0\nE W W\nW W W\nW W W\n0 0\n", 1, 1, "row `0`"),
            ("1 1\nE W W\nW W W\nW W W\n", 2, 5, "terminator"),
            ("1 1\nE W W\nW W", 1, 3, "terminator"),
        ];
        for (input, case, line, needle) in cases {
            let results: Vec<_> = parse_judge_input(input).collect();
            let err = results
                .iter()
                .find_map(|r| r.as_ref().err())
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!((err.case, err.line), (case, line), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }
}
