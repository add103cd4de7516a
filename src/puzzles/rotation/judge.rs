//! The judge format of POJ 2286: one line of 24 digits per case, ended by a line `0`; two
//! output lines per case (the moves, or `No moves needed`; then the centre digit).

use super::solver::Solution;
use super::state::{Board, CELLS};
use crate::engine::Solve;
use crate::judge::{InputError, JudgeError, JudgeInput};
use std::io::BufRead;

/// Parses judge input lazily, one board per case, stopping after the first error.
pub fn parse_judge_input<R: BufRead>(reader: R) -> impl Iterator<Item = Result<Board, JudgeError>> {
    crate::judge::cases(reader, parse_case)
}

/// Parses one case (a line of 24 digits); `Ok(None)` at the terminating line `0`.
pub fn parse_case<R: BufRead>(
    input: &mut JudgeInput<R>,
    case: usize,
) -> Result<Option<Board>, JudgeError> {
    while let Some((line, text)) = input.next_line().map_err(JudgeError::Read)? {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        if text == "0" {
            return Ok(None);
        }
        return parse_board(text, case, line)
            .map(Some)
            .map_err(JudgeError::Input);
    }
    Err(JudgeError::Input(error(
        case,
        input.line_no(),
        "input ends without the terminating line `0`".into(),
    )))
}

fn error(case: usize, line: usize, problem: String) -> InputError {
    InputError {
        what: "case",
        case,
        line,
        problem,
    }
}

fn parse_board(text: &str, case: usize, line: usize) -> Result<Board, InputError> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    if tokens.len() != CELLS {
        return Err(error(
            case,
            line,
            format!("expected 24 digits, found {} tokens", tokens.len()),
        ));
    }
    let mut cells = [0u8; CELLS];
    for (i, token) in tokens.iter().enumerate() {
        cells[i] = match *token {
            "1" => 1,
            "2" => 2,
            "3" => 3,
            other => {
                return Err(error(
                    case,
                    line,
                    format!(
                        "cell {i} is {}, expected 1, 2 or 3",
                        crate::text::quote(other)
                    ),
                ))
            }
        };
    }
    let counts = [1u8, 2, 3].map(|d| cells.iter().filter(|&&c| c == d).count());
    if counts != [8, 8, 8] {
        return Err(error(
            case,
            line,
            format!(
                "each digit must appear 8 times, found 1: {}, 2: {}, 3: {}",
                counts[0], counts[1], counts[2]
            ),
        ));
    }
    Ok(Board { cells })
}

/// Appends the two answer lines of `solution`.
pub fn format_answer(out: &mut String, solution: &Solution) {
    if solution.moves.is_empty() {
        out.push_str("No moves needed");
    } else {
        out.extend(solution.moves.iter().map(|m| m.letter()));
    }
    out.push('\n');
    out.push((b'0' + solution.digit) as char);
    out.push('\n');
}

/// Writes `board` as one judge input line.
pub fn format_board(board: &Board) -> String {
    let digits: Vec<String> = board.cells.iter().map(|d| d.to_string()).collect();
    digits.join(" ") + "\n"
}

/// Answers a whole judge input as it arrives, writing each answer as soon as it is known.
/// On bad input the answers before the bad case are written and the error is returned.
pub fn answer_judge_input(
    input: impl BufRead,
    solver: &impl Solve<Query = Board, Answer = Solution>,
    out: impl std::io::Write,
) -> Result<usize, JudgeError> {
    crate::judge::answer_each(input, out, parse_case, |board, buffer| {
        format_answer(buffer, &solver.solve(board));
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";

    #[test]
    fn bad_input_names_the_case_and_line() {
        let cases = [
            (format!("{GOOD}\n1 2 3\n0\n"), 2, 2, "found 3 tokens"),
            (
                format!("{GOOD}\n\n{}\n0\n", GOOD.replace('3', "4")),
                2,
                3,
                "`4`",
            ),
            (
                format!("{}\n0\n", GOOD.replacen('3', "1", 1)),
                1,
                1,
                "found 1: 9",
            ),
            (format!("{GOOD}\n"), 2, 1, "terminating"),
        ];
        for (input, case, line, needle) in cases {
            let err = crate::judge::first_input_error(parse_judge_input(input.as_bytes()))
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!((err.case, err.line), (case, line), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
        assert_eq!(
            parse_judge_input(format!("{GOOD}\n0\n").as_bytes()).count(),
            1
        );
    }
}
