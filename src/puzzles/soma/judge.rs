//! The judge format of UVa 197: one 27-character line of `a` and `.` per test case
//! (piece `a` somewhere in the cube); the answer is every assembly with `a` in that
//! orientation, one per line, then an empty line.

use super::assembly::Assembly;
use super::geometry::{Geometry, CELLS, PIECE_A};
use crate::judge::{InputError, JudgeError, JudgeInput};
use std::io::BufRead;

/// One judge query: the orientation of piece `a` it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Query {
    /// Index into piece `a`'s orientations.
    pub orientation: usize,
    /// The cells of `a` as given (any translation of the orientation).
    pub cells: u32,
}

/// Parses judge input lazily: one item per test case, stopping after the first error.
pub fn parse_judge_input<'a, R: BufRead + 'a>(
    reader: R,
    geometry: &'a Geometry,
) -> impl Iterator<Item = Result<Query, JudgeError>> + 'a {
    crate::judge::cases(reader, move |input: &mut JudgeInput<R>, case| {
        parse_case(input, case, geometry)
    })
}

/// Parses one test case (a line); `Ok(None)` at the end of input.
pub fn parse_case<R: BufRead>(
    input: &mut JudgeInput<R>,
    case: usize,
    geometry: &Geometry,
) -> Result<Option<Query>, JudgeError> {
    while let Some((line, text)) = input.next_line().map_err(JudgeError::Read)? {
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        return parse_line(text, case, line, geometry)
            .map(Some)
            .map_err(JudgeError::Input);
    }
    Ok(None)
}

fn parse_line(
    text: &str,
    case: usize,
    line: usize,
    geometry: &Geometry,
) -> Result<Query, InputError> {
    let error = |problem: String| InputError {
        what: "test case",
        case,
        line,
        problem,
    };
    let length = text.chars().count();
    if length != CELLS {
        return Err(error(format!(
            "{} has {length} characters, expected {CELLS} (`a` and `.`)",
            crate::text::quote(text)
        )));
    }
    let mut cells = 0u32;
    for (position, ch) in text.chars().enumerate() {
        match ch {
            'a' => cells |= 1 << position,
            '.' => {}
            other => {
                return Err(error(format!(
                    "character {} is {}, expected `a` or `.`",
                    position + 1,
                    crate::text::quote(other.encode_utf8(&mut [0; 4]))
                )))
            }
        }
    }
    let count = cells.count_ones();
    if count != 4 {
        return Err(error(format!(
            "{count} cells hold `a`, piece a has exactly 4"
        )));
    }
    let orientation = geometry.pieces[PIECE_A]
        .orientation_of(cells)
        .ok_or_else(|| {
            error(format!(
                "the `a` cells of {} do not form an L tetracube",
                crate::text::quote(text)
            ))
        })?;
    Ok(Query { orientation, cells })
}

/// Appends one case's answer: each assembly on its own line, then an empty line.
pub fn format_answer(out: &mut String, assemblies: &[Assembly]) {
    out.reserve(assemblies.len() * (CELLS + 1) + 1);
    for assembly in assemblies {
        out.extend(assembly.0.iter().map(|&b| b as char));
        out.push('\n');
    }
    out.push('\n');
}

/// Every valid query: piece a in each of its placements (144), in placement order.
pub fn every_valid_query(geometry: &Geometry) -> Vec<Query> {
    geometry
        .placements
        .iter()
        .filter(|p| p.piece == PIECE_A as u8)
        .map(|p| Query {
            orientation: p.orientation as usize,
            cells: p.mask,
        })
        .collect()
}

/// A query in the judge input format (one line).
pub fn format_query(cells: u32) -> String {
    super::geometry::mask_text(cells, b'a') + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::soma::geometry::geometry;

    #[test]
    fn every_placement_of_a_parses_to_its_orientation() {
        let g = geometry();
        let expected = every_valid_query(g);
        let input: String = expected.iter().map(|q| format_query(q.cells)).collect();
        let parsed: Vec<_> = parse_judge_input(input.as_bytes(), g)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(parsed, expected);
        assert_eq!(parsed.len(), 144);
    }

    #[test]
    fn bad_input_names_the_case_and_line() {
        let g = geometry();
        let good = "aa.a..a....................";
        let cases = [
            (format!("{good}\n\naa.a..a...\n"), 2, 3, "has 10 characters"),
            (format!("{good}\n{good}.\n"), 2, 2, "has 28 characters"),
            (
                format!("{good}\naa.a..b....................\n"),
                2,
                2,
                "character 7 is `b`",
            ),
            (
                format!("{good}\naa.a..A....................\n"),
                2,
                2,
                "`A`",
            ),
            (
                "aa.a..a..a.................\n".into(),
                1,
                1,
                "5 cells hold `a`",
            ),
            (
                "aa.a.......................\n".into(),
                1,
                1,
                "3 cells hold `a`",
            ),
            (
                "...........................\n".into(),
                1,
                1,
                "0 cells hold `a`",
            ),
            // A T, an S, a square, an L broken across a row end, scattered cells, a
            // disconnected four.
            ("aaa.a......................\n".into(), 1, 1, "L tetracube"),
            ("a..aa..a...................\n".into(), 1, 1, "L tetracube"),
            ("aa.aa......................\n".into(), 1, 1, "L tetracube"),
            (".aaa..a....................\n".into(), 1, 1, "L tetracube"),
            ("a.a.......a........a.......\n".into(), 1, 1, "L tetracube"),
            ("aa.a.....a.................\n".into(), 1, 1, "L tetracube"),
            (
                format!("{good}\n{good}\n\n  {}\n", good.replacen("aa", "aé", 1)),
                3,
                4,
                "character 2 is `\\u{00E9}`",
            ),
        ];
        for (input, case, line, needle) in cases {
            let err = crate::judge::first_input_error(parse_judge_input(input.as_bytes(), g))
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!((err.case, err.line), (case, line), "{err}");
            assert!(err.to_string().contains(needle), "{err}");
            assert!(err
                .to_string()
                .starts_with(&format!("test case {case} (line {line})")));
        }
    }
}
