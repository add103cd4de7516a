//! The judge format of POJ 3131: data sets of a start cell and a 3x3 goal of top colours,
//! ended by `0 0`; one answer line each.

use super::goal::{goal_of_pattern, pattern_index, GoalCell, Query};
use super::solver::Solution;
use super::state::Colour;
use crate::judge::{InputError, JudgeError, JudgeInput};
use std::fmt::Write as _;
use std::io::BufRead;

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
pub fn parse_judge_input<R: BufRead>(reader: R) -> impl Iterator<Item = Result<Query, JudgeError>> {
    crate::judge::cases(reader, parse_data_set)
}

/// Parses one data set; `Ok(None)` at the `0 0` terminator.
pub fn parse_data_set<R: BufRead>(
    input: &mut JudgeInput<R>,
    case: usize,
) -> Result<Option<Query>, JudgeError> {
    let error = |line: usize, problem: String| {
        JudgeError::Input(InputError {
            what: "data set",
            case,
            line,
            problem,
        })
    };
    let missing = |line: usize, what: &str| {
        error(
            line,
            format!("input ends where {what} was expected (is the `0 0` terminator missing?)"),
        )
    };
    // A start coordinate: 1..=3 as 0..=2, or 0 (only valid as the terminator).
    let coordinate = |input: &mut JudgeInput<R>, name: &str| {
        let last_line = input.line_no();
        let (line, text) = input
            .next_token()
            .map_err(JudgeError::Read)?
            .ok_or_else(|| missing(last_line, &format!("the start {name}")))?;
        match text.parse::<usize>() {
            Ok(v @ 0..=3) => Ok((line, v)),
            _ => Err(error(
                line,
                format!("start {name} {} is not 1, 2 or 3", crate::text::quote(text)),
            )),
        }
    };
    let (x_line, x) = coordinate(input, "column")?;
    let (y_line, y) = coordinate(input, "row")?;
    if (x, y) == (0, 0) {
        return Ok(None);
    }
    if x == 0 {
        return Err(error(x_line, "start column `0` is not 1, 2 or 3".into()));
    }
    if y == 0 {
        return Err(error(y_line, "start row `0` is not 1, 2 or 3".into()));
    }
    let mut goal = [GoalCell::Empty; 9];
    let mut empties = 0;
    for (cell, slot) in goal.iter_mut().enumerate() {
        let last_line = input.line_no();
        let (line, text) = input
            .next_token()
            .map_err(JudgeError::Read)?
            .ok_or_else(|| missing(last_line, "a goal colour (W, R, B or E)"))?;
        *slot = match text {
            "W" => GoalCell::Top(Colour::White),
            "R" => GoalCell::Top(Colour::Red),
            "B" => GoalCell::Top(Colour::Blue),
            "E" => {
                empties += 1;
                GoalCell::Empty
            }
            other => {
                return Err(error(
                    line,
                    format!(
                        "goal cell (row {}, column {}) is {}, expected W, R, B or E",
                        cell / 3 + 1,
                        cell % 3 + 1,
                        crate::text::quote(other)
                    ),
                ))
            }
        };
    }
    if empties != 1 {
        return Err(error(
            input.line_no(),
            format!("the goal must have exactly one E, found {empties}"),
        ));
    }
    Ok(Some(Query {
        start: (y - 1) * 3 + (x - 1),
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
    use super::super::ranking::PATTERNS_PER_EMPTY;
    use super::*;

    #[test]
    fn queries_round_trip_through_the_judge_format() {
        for pattern in (0..9 * PATTERNS_PER_EMPTY).step_by(97) {
            let query = Query {
                start: (pattern % 9) as usize,
                pattern,
            };
            let text = format!("{}0 0\n", format_query(&query));
            let parsed: Vec<_> = parse_judge_input(text.as_bytes())
                .map(|q| q.map_err(|e| e.to_string()))
                .collect();
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
            ("1 1\nE W W\nW W W\nW W W\n", 2, 4, "terminator"),
            ("1 1\nE W W\nW W", 1, 3, "terminator"),
        ];
        for (input, case, line, needle) in cases {
            let err = crate::judge::first_input_error(parse_judge_input(input.as_bytes()))
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!((err.case, err.line), (case, line), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }
}
