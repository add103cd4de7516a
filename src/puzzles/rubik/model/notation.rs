//! Singmaster move sequences: `R U R' U2`, also written `R2'`, `R'2`, `R3`, `R’` or without
//! spaces (`RUR'U'`).

use crate::puzzles::rubik::model::cube::{Face, Move};
use thiserror::Error;

/// A move sequence that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("move sequence, character {position}: {problem}")]
pub struct NotationError {
    /// 1-based character position.
    pub position: usize,
    /// What is wrong.
    pub problem: String,
}

fn face_of(c: char) -> Option<Face> {
    Face::ALL.into_iter().find(|f| f.letter() == c)
}

/// Parses a move sequence. A face letter may be followed by a count (1, 2 or 3) and a
/// prime in either order; `X2'` is `X2`, `X3` is `X'`.
pub fn parse_moves(text: &str) -> Result<Vec<Move>, NotationError> {
    let chars: Vec<char> = text.chars().collect();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
            continue;
        }
        let face = face_of(c).ok_or_else(|| NotationError {
            position: i + 1,
            problem: format!(
                "{} is not a face (U, R, F, D, L or B)",
                crate::text::quote(c.encode_utf8(&mut [0; 4]))
            ),
        })?;
        i += 1;
        let mut count: Option<u8> = None;
        let mut prime = false;
        while i < chars.len() {
            match chars[i] {
                '\'' | '’' | '`' if !prime => prime = true,
                d @ '1'..='3' if count.is_none() => count = Some(d as u8 - b'0'),
                _ => break,
            }
            i += 1;
        }
        let n = count.unwrap_or(1);
        let turns = if prime { 4 - n } else { n };
        moves.push(Move::new(face, turns));
    }
    Ok(moves)
}

/// Parses a set of allowed moves, e.g. `R,U` or `R U2 F'`: a bare face letter allows every
/// turn of that face in the metric (quarter turns only, if `quarter_only`), a letter with a
/// count or prime allows that one turn. Sorted, without repeats; never empty.
pub fn parse_move_set(text: &str, quarter_only: bool) -> Result<Vec<Move>, NotationError> {
    let mut set = Vec::new();
    let mut position = 1;
    for token in text.split(|c: char| c == ',' || c.is_whitespace()) {
        let at = position;
        position += token.chars().count() + 1;
        if token.is_empty() {
            continue;
        }
        let error = |problem: String| NotationError {
            position: at,
            problem,
        };
        let mut chars = token.chars();
        let face = chars.next().and_then(face_of);
        if let (Some(face), None) = (face, chars.next()) {
            set.extend((1..=3).map(|turns| Move::new(face, turns)));
            continue;
        }
        let parsed = parse_moves(token).map_err(|e| error(e.problem))?;
        let [mv] = parsed[..] else {
            return Err(error(format!(
                "{} is not one move",
                crate::text::quote(token)
            )));
        };
        if quarter_only && !mv.is_quarter() {
            return Err(error(format!(
                "{mv} is not a quarter turn (in quarter turns, name the face: {})",
                mv.face().letter()
            )));
        }
        set.push(mv);
    }
    if quarter_only {
        set.retain(|m| m.is_quarter());
    }
    set.sort_by_key(|m| m.index());
    set.dedup();
    if set.is_empty() {
        return Err(NotationError {
            position: 1,
            problem: "no moves given".into(),
        });
    }
    Ok(set)
}

/// Writes moves as Singmaster notation separated by single spaces.
pub fn format_moves(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Writes two equal quarter turns in a row as one half turn (`F F` -> `F2`); the
/// quarter-turn length is unchanged.
pub fn merge_quarter_pairs(moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = Vec::with_capacity(moves.len());
    for &mv in moves {
        match out.last() {
            Some(&last) if last == mv && mv.is_quarter() => {
                out.pop();
                out.push(Move::new(mv.face(), 2));
            }
            _ => out.push(mv),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_parse() {
        let m = |s| format_moves(&parse_moves(s).unwrap());
        assert_eq!(m("R U R' U2"), "R U R' U2");
        assert_eq!(m("R2' L'2 F3 B1 D’"), "R2 L2 F' B D'");
        assert_eq!(m("RUR'U'"), "R U R' U'");
        assert_eq!(m("  "), "");
        for mv in Move::all() {
            assert_eq!(parse_moves(&mv.to_string()).unwrap(), vec![mv]);
        }
        let err = parse_moves("R x").unwrap_err();
        assert_eq!(err.position, 3);
        assert!(parse_moves("R4").is_err());
        assert!(parse_moves("R''").is_err());
        let merged = merge_quarter_pairs(&parse_moves("F F U' U' R R R").unwrap());
        assert_eq!(format_moves(&merged), "F2 U2 R2 R");
    }
}
