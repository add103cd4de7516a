//! The judge format of ZOJ 2477: `T`, then T nets of 54 one-character stickers; answers
//! are `N` and N lines `face dir` (face 0..5 = L F R B U D, dir 1 clockwise), or `-1`.

use super::model::cube::{Cube, Move};
use super::model::facelets::{
    cube_from_faces, faces_of_colours, Unsolvable, STICKERS, ZOJ_FACES, ZOJ_ORDER,
};
use crate::judge::{InputError, JudgeError, JudgeInput};
use std::fmt::Write as _;
use std::io::BufRead;

/// One well-formed case: the cube, or why the net is no solvable cube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// 1-based case number.
    pub case: usize,
    /// Line of the case's first sticker.
    pub line: usize,
    /// The cube, or the rule its stickers break.
    pub cube: Result<Cube, Unsolvable>,
}

/// What the judge calls one case in messages.
const WHAT: &str = "case";

/// Parses judge input lazily: one item per case, stopping after the first error. Input
/// that is not a net (wrong token count, a long token, more than six colours, two centres
/// alike) is an error; a net breaking a cube rule is a query with the rule.
pub fn parse_judge_input<R: BufRead>(reader: R) -> impl Iterator<Item = Result<Query, JudgeError>> {
    let mut parser = JudgeParser::default();
    crate::judge::cases(reader, move |input: &mut JudgeInput<R>, _| {
        parser.next(input)
    })
}

/// Reads the case count, then one case at a time, then checks nothing follows.
#[derive(Debug, Default)]
pub struct JudgeParser {
    total: Option<usize>,
    case: usize,
}

impl JudgeParser {
    /// The next case; `Ok(None)` after the last one (when nothing else follows it).
    pub fn next<R: BufRead>(
        &mut self,
        input: &mut JudgeInput<R>,
    ) -> Result<Option<Query>, JudgeError> {
        let error = |case: usize, line: usize, problem: String| {
            JudgeError::Input(InputError {
                what: WHAT,
                case,
                line,
                problem,
            })
        };
        let total = match self.total {
            Some(t) => t,
            None => {
                let line = input.line_no();
                let t = match input.next_token().map_err(JudgeError::Read)? {
                    None => {
                        return Err(error(
                            1,
                            line,
                            "input is empty; expected the number of cases".into(),
                        ))
                    }
                    Some((line, text)) => text.parse::<usize>().map_err(|_| {
                        error(
                            1,
                            line,
                            format!(
                                "the number of cases {} is not a number",
                                crate::text::quote(text)
                            ),
                        )
                    })?,
                };
                self.total = Some(t);
                t
            }
        };
        if self.case == total {
            return match input.next_token().map_err(JudgeError::Read)? {
                None => Ok(None),
                Some((line, text)) => Err(error(
                    total.max(1),
                    line,
                    format!(
                        "unexpected {} after the last of {total} cases",
                        crate::text::quote(text)
                    ),
                )),
            };
        }
        self.case += 1;
        parse_case(input, self.case).map(Some)
    }
}

fn parse_case<R: BufRead>(input: &mut JudgeInput<R>, case: usize) -> Result<Query, JudgeError> {
    let error = |line: usize, problem: String| {
        JudgeError::Input(InputError {
            what: WHAT,
            case,
            line,
            problem,
        })
    };
    let mut first_line = None;
    let mut stickers = ['\0'; STICKERS];
    for (k, &facelet) in ZOJ_ORDER.iter().enumerate() {
        let last_line = input.line_no();
        let Some((line, text)) = input.next_token().map_err(JudgeError::Read)? else {
            return Err(error(
                last_line,
                format!("input ends after {k} of the 54 stickers of this case"),
            ));
        };
        first_line.get_or_insert(line);
        let mut chars = text.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => stickers[facelet] = c,
            _ => {
                return Err(error(
                    line,
                    format!(
                        "sticker {} {} is not a single character",
                        k + 1,
                        crate::text::quote(text)
                    ),
                ))
            }
        }
    }
    let first_line = first_line.unwrap_or(1);
    let faces = faces_of_colours(&stickers).map_err(|e| error(first_line, e.to_string()))?;
    Ok(Query {
        case,
        line: first_line,
        cube: cube_from_faces(&faces),
    })
}

/// ZOJ face number of a move's face.
fn zoj_face(mv: Move) -> usize {
    ZOJ_FACES
        .iter()
        .position(|&f| f == mv.face())
        .expect("every face has a ZOJ number")
}

/// Appends the judge answer: `N` and N lines `face dir`, or `-1`. Half turns (never in
/// quarter-turn solutions) would be written as two quarter turns.
pub fn format_answer(out: &mut String, moves: Option<&[Move]>) {
    let Some(moves) = moves else {
        out.push_str("-1\n");
        return;
    };
    let quarter: u32 = moves.iter().map(|m| m.qtm_cost()).sum();
    let _ = writeln!(out, "{quarter}");
    for &mv in moves {
        let face = zoj_face(mv);
        match mv.turns() {
            1 => {
                let _ = writeln!(out, "{face} 1");
            }
            3 => {
                let _ = writeln!(out, "{face} -1");
            }
            _ => {
                let _ = writeln!(out, "{face} 1\n{face} 1");
            }
        }
    }
}

/// Reads a judge answer back into moves (for tests and tools): `None` for `-1`.
pub fn parse_answer(text: &str) -> Option<Option<Vec<Move>>> {
    use super::model::cube::Face;
    let mut lines = text.lines();
    let n: i64 = lines.next()?.trim().parse().ok()?;
    if n == -1 {
        return Some(None);
    }
    let mut moves = Vec::new();
    for _ in 0..n {
        let mut parts = lines.next()?.split_whitespace();
        let face: usize = parts.next()?.parse().ok()?;
        let dir: i32 = parts.next()?.parse().ok()?;
        let face: Face = *ZOJ_FACES.get(face)?;
        moves.push(Move::new(face, if dir == 1 { 1 } else { 3 }));
    }
    Some(Some(moves))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::facelets::zoj_net;

    fn net(cube: &Cube) -> String {
        zoj_net(cube, &['w', 'b', 'g', 'y', 'r', 'o'])
    }

    #[test]
    fn nets_round_trip() {
        let cube = Cube::from_moves(&crate::puzzles::rubik::parse_moves("R U F' D2 L B").unwrap());
        let input = format!("2\n{}\n{}", net(&cube), net(&Cube::SOLVED));
        let queries: Vec<_> = parse_judge_input(input.as_bytes()).collect();
        assert_eq!(queries.len(), 2);
        assert_eq!(queries[0].as_ref().unwrap().cube, Ok(cube));
        assert_eq!(queries[1].as_ref().unwrap().cube, Ok(Cube::SOLVED));
    }

    #[test]
    fn bad_input_names_the_case() {
        let solved = net(&Cube::SOLVED);
        let cases = [
            (format!("2\n{solved}"), 2, "input ends after 0"),
            (format!("1\n{solved} w"), 1, "unexpected `w`"),
            (format!("x\n{solved}"), 1, "not a number"),
            (String::new(), 1, "empty"),
            (
                format!("1\n{}", solved.replacen('w', "ww", 1)),
                1,
                "single character",
            ),
            (
                format!("1\n{}", solved.replacen('w', "q", 1)),
                1,
                "7 different colours",
            ),
        ];
        for (input, case, needle) in cases {
            let err = crate::judge::first_input_error(parse_judge_input(input.as_bytes()))
                .unwrap_or_else(|| panic!("accepted: {input}"));
            assert_eq!(err.case, case, "{err}");
            assert!(err.to_string().contains(needle), "{err}");
        }
    }
}
