//! The judge format of Timus 1016, one case per line: start square, end square, and the
//! numbers on the near, far, top, right, bottom and left faces; one answer line per case:
//! the minimal sum, then the route's squares.

use super::board::{push_square_name, Board};
use super::cube::FACES;
use super::solver::{Case, MAX_VALUE};
use crate::judge::{InputError, JudgeError, JudgeInput};
use std::io::BufRead;

/// How the format calls one case in error messages.
pub const WHAT: &str = "case";

/// Names of the six numbers, in input order.
pub const FACE_NAMES: [&str; FACES] = ["near", "far", "top", "right", "bottom", "left"];

/// A parsed case and where it stands in the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Located {
    /// The case.
    pub case: Case,
    /// 1-based case number (blank lines are not cases).
    pub number: usize,
    /// 1-based input line.
    pub line: usize,
}

/// Parses judge input lazily, one item per non-blank line, stopping after the first error.
/// Squares are checked against `board` (on it, not blocked) and start must differ from end.
pub fn parse_judge_input<'a, R: BufRead + 'a>(
    reader: R,
    board: &'a Board,
) -> impl Iterator<Item = Result<Located, JudgeError>> + 'a {
    crate::judge::cases(reader, move |input: &mut JudgeInput<R>, number| {
        parse_next(input, number, board)
    })
}

/// Parses the next non-blank line as case `number`; `Ok(None)` at the end of input.
pub fn parse_next<R: BufRead>(
    input: &mut JudgeInput<R>,
    number: usize,
    board: &Board,
) -> Result<Option<Located>, JudgeError> {
    while let Some((line, text)) = input.next_line().map_err(JudgeError::Read)? {
        if text.trim_ascii().is_empty() {
            continue;
        }
        return parse_case(text, board)
            .map(|case| Some(Located { case, number, line }))
            .map_err(|problem| {
                JudgeError::Input(InputError {
                    what: WHAT,
                    case: number,
                    line,
                    problem,
                })
            });
    }
    Ok(None)
}

/// Parses one non-blank line.
fn parse_case(text: &str, board: &Board) -> Result<Case, String> {
    let mut tokens = [""; 9];
    let mut count = 0;
    for token in text.split_ascii_whitespace() {
        if count < tokens.len() {
            tokens[count] = token;
        }
        count += 1;
    }
    if count != 2 + FACES {
        let numbers = count.saturating_sub(2);
        return Err(if count < 2 {
            format!(
                "expected a start square, an end square and {FACES} numbers, found {count} item(s)"
            )
        } else {
            format!(
                "expected {FACES} numbers (near, far, top, right, bottom, left) after the squares, found {numbers}"
            )
        });
    }
    let size = board.size();
    let start = size.parse_square(tokens[0])?;
    let end = size.parse_square(tokens[1])?;
    let mut values = [0u16; FACES];
    for (face, value) in values.iter_mut().enumerate() {
        let token = tokens[2 + face];
        *value = token
            .parse::<u16>()
            .ok()
            .filter(|&v| v <= MAX_VALUE && token.bytes().all(|b| b.is_ascii_digit()))
            .ok_or_else(|| {
                format!(
                    "{} ({} face) is not a whole number in 0..{MAX_VALUE}",
                    crate::text::quote(token),
                    FACE_NAMES[face]
                )
            })?;
    }
    if start == end {
        return Err(format!(
            "start and end are the same square {}",
            size.name(start)
        ));
    }
    for (role, square) in [("start", start), ("end", end)] {
        if board.is_blocked(square) {
            return Err(format!("{role} square {} is blocked", size.name(square)));
        }
    }
    Ok(Case { start, end, values })
}

/// Writes `case` in the judge input format, with square names of a board `width` wide.
pub fn format_case(out: &mut String, case: &Case, width: u32) {
    push_square_name(out, case.start, width);
    out.push(' ');
    push_square_name(out, case.end, width);
    for v in case.values {
        out.push(' ');
        push_number(out, v as u64);
    }
    out.push('\n');
}

/// Appends the answer line: the cost, then the route's squares.
pub fn format_answer(out: &mut String, cost: u64, squares: &[u32], width: u32) {
    push_number(out, cost);
    for &square in squares {
        out.push(' ');
        push_square_name(out, square, width);
    }
    out.push('\n');
}

/// Appends a decimal number.
fn push_number(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut len = 0;
    loop {
        digits[len] = b'0' + (n % 10) as u8;
        len += 1;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[..len].iter().rev().map(|&b| b as char));
}

#[cfg(test)]
mod tests {
    use super::super::board::BoardSize;
    use super::*;

    #[test]
    fn cases_round_trip_through_the_judge_format() {
        let board = Board::open("30x12".parse().expect("size"));
        let case = Case {
            start: 3,
            end: 30 * 11 + 29,
            values: [0, 1000, 7, 42, 999, 10],
        };
        let mut text = String::new();
        format_case(&mut text, &case, 30);
        assert_eq!(text, "d1 ad12 0 1000 7 42 999 10\n");
        let parsed: Vec<_> = parse_judge_input(text.as_bytes(), &board)
            .map(|r| r.map_err(|e| e.to_string()))
            .collect();
        assert_eq!(
            parsed,
            vec![Ok(Located {
                case,
                number: 1,
                line: 1
            })]
        );
        let mut answer = String::new();
        format_answer(&mut answer, 1234, &[3, 4, 34], 30);
        assert_eq!(answer, "1234 d1 e1 e2\n");
    }

    #[test]
    fn blank_lines_are_skipped_and_cases_counted() {
        let board = Board::open(BoardSize::CHESS);
        let input = "\n a1 h8 1 2 3 4 5 6\r\n\n\nb2 b3 0 0 0 0 0 0";
        let parsed: Vec<_> = parse_judge_input(input.as_bytes(), &board)
            .map(|r| r.map(|l| (l.number, l.line)).map_err(|e| e.to_string()))
            .collect();
        assert_eq!(parsed, vec![Ok((1, 2)), Ok((2, 5))]);
    }

    #[test]
    fn bad_input_names_the_case_line_and_problem() {
        let board = Board::with_blocked(BoardSize::CHESS, &[2]);
        let cases = [
            ("a1 h8 1 2 3 4 5\n", 1, 1, "expected 6 numbers"),
            ("a1 h8 1 2 3 4 5 6\ne2 e3 0 8 1\n", 2, 2, "found 3"),
            ("a1\n", 1, 1, "found 1 item"),
            ("a1 h8 1 2 3 4 5 6 7\n", 1, 1, "found 7"),
            (
                "a1 i8 1 2 3 4 5 6\n",
                1,
                1,
                "`i8` is not a square of the 8x8 board",
            ),
            ("a0 h8 1 2 3 4 5 6\n", 1, 1, "`a0`"),
            ("a1 h8 1 2 3 1001 5 6\n", 1, 1, "`1001` (right face)"),
            ("a1 h8 1 2 3 4 -5 6\n", 1, 1, "`-5` (bottom face)"),
            ("a1 h8 1 2 3 4 5 x\n", 1, 1, "`x` (left face)"),
            ("\n\nd4 d4 1 2 3 4 5 6\n", 1, 3, "same square d4"),
            ("c1 d4 1 2 3 4 5 6\n", 1, 1, "start square c1 is blocked"),
            ("d4 c1 1 2 3 4 5 6\n", 1, 1, "end square c1 is blocked"),
        ];
        for (input, case, line, needle) in cases {
            let results: Vec<_> = parse_judge_input(input.as_bytes(), &board).collect();
            let err = results
                .iter()
                .find_map(|r| match r {
                    Err(JudgeError::Input(e)) => Some(e),
                    _ => None,
                })
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!((err.case, err.line), (case, line), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
            assert!(
                results.last().is_some_and(|r| r.is_err()),
                "stops at the error"
            );
        }
    }
}
