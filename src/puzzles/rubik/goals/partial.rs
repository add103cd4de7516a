//! A cube known only in part: facelets with `?` for stickers that do not matter, and the
//! shortest sequence that brings every named sticker to a face of its colour.
//!
//! The named stickers are followed one by one: a move sends the sticker at one position
//! to another, whatever the other stickers are, so the positions of the named stickers
//! are a projection of the cube that moves act on, known even though the cube is not.
//! The stickers are grouped by piece (the stickers of one piece move together) into parts
//! of at most four pieces of a kind; each part's positions are numbered by a BFS from
//! where they are now, and each part's distance to "every sticker on a face of its
//! colour" is filled in by a BFS from all such positions at once. The goal holds exactly
//! when every part is at distance 0, and the largest distance is a lower bound (exact with
//! one part), which prunes a depth-first search over canonical sequences.

use crate::puzzles::rubik::coord::projection::{
    distances_to, shortest_sequences, BoundedSpace, Numbered,
};
use crate::puzzles::rubik::goals::mask::SLOT_STICKERS;
use crate::puzzles::rubik::model::consistency::some_cube_shows;
use crate::puzzles::rubik::model::cube::{Cube, Face, Move, CORNERS, EDGES};
use crate::puzzles::rubik::model::facelets::{faces_of_cube, STICKERS};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::bfs::UNREACHED;
use std::sync::LazyLock;
use thiserror::Error;

/// A partial facelet string that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PartialError {
    /// Not 54 characters.
    #[error("facelets have 54 characters (colours or ?), these {0}")]
    Length(usize),
    /// A centre left out: centres name the colours.
    #[error("the centre of face {0} is ?: the six centres name the colours")]
    UnknownCentre(char),
    /// Two centres alike.
    #[error("the centres of faces {0} and {1} have the same colour")]
    CentresAlike(char, char),
    /// A colour no centre has.
    #[error("sticker {position} is {shown}, a colour no centre has")]
    Colour {
        /// 1-based position.
        position: usize,
        /// The character, quoted.
        shown: String,
    },
    /// Nothing named but the centres.
    #[error("no sticker is named (all ? but the centres)")]
    Empty,
    /// No cube shows the named stickers.
    #[error("no cube shows these stickers: {0}")]
    NoCube(String),
}

/// The named stickers of a partially known cube: position and face colour of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialCube {
    stickers: Vec<(u8, u8)>,
}

impl std::str::FromStr for PartialCube {
    type Err = PartialError;
    fn from_str(text: &str) -> Result<Self, PartialError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != STICKERS {
            return Err(PartialError::Length(chars.len()));
        }
        let mut centres = [' '; 6];
        for face in Face::ALL {
            let c = chars[9 * face.index() + 4];
            if c == '?' {
                return Err(PartialError::UnknownCentre(face.letter()));
            }
            if let Some(other) = Face::ALL[..face.index()]
                .iter()
                .find(|f| centres[f.index()] == c)
            {
                return Err(PartialError::CentresAlike(other.letter(), face.letter()));
            }
            centres[face.index()] = c;
        }
        let mut stickers = Vec::new();
        for (i, &c) in chars.iter().enumerate() {
            if c == '?' || i % 9 == 4 {
                continue;
            }
            let face =
                centres
                    .iter()
                    .position(|&x| x == c)
                    .ok_or_else(|| PartialError::Colour {
                        position: i + 1,
                        shown: crate::text::quote(c.encode_utf8(&mut [0; 4])).to_string(),
                    })?;
            stickers.push((i as u8, face as u8));
        }
        if stickers.is_empty() {
            return Err(PartialError::Empty);
        }
        let mut wanted = [None; STICKERS];
        for &(position, face) in &stickers {
            wanted[position as usize] = Some(face);
        }
        some_cube_shows(&wanted).map_err(PartialError::NoCube)?;
        Ok(PartialCube { stickers })
    }
}

impl PartialCube {
    /// Whether `moves` bring every named sticker to a face of its colour.
    pub fn solved_by(&self, moves: &[Move]) -> bool {
        let solved = faces_of_cube(&Cube::SOLVED);
        self.stickers.iter().all(|&(start, face)| {
            let end = moves
                .iter()
                .fold(start, |p, m| FACELET_MOVES[m.index()][p as usize]);
            solved[end as usize] == face
        })
    }
}

/// Where each move sends the sticker at each position (centres stay). Derived from the
/// cubie model: the sticker of colour `c` on the cubie in slot `s` goes with that cubie
/// to its new slot, onto the sticker there that shows `c`.
pub static FACELET_MOVES: LazyLock<[[u8; STICKERS]; 18]> = LazyLock::new(|| {
    let (corner_stickers, edge_stickers) = &*SLOT_STICKERS;
    let solved = faces_of_cube(&Cube::SOLVED);
    std::array::from_fn(|m| {
        let moved = MOVE_CUBES[m];
        let after = faces_of_cube(&moved);
        let mut to: [u8; STICKERS] = std::array::from_fn(|p| p as u8);
        for (slots, count, perm) in [
            (corner_stickers, CORNERS, &moved.cp[..]),
            (edge_stickers, EDGES, &moved.ep[..]),
        ] {
            for slot in 0..count {
                // The cubie from `slot` is now where `perm` holds it.
                let new_slot = perm
                    .iter()
                    .position(|&x| x as usize == slot)
                    .expect("a cubie");
                for &p in &slots[slot] {
                    to[p] = *slots[new_slot]
                        .iter()
                        .find(|&&q| after[q] == solved[p])
                        .expect("a cubie shows each of its colours once")
                        as u8;
                }
            }
        }
        to
    })
});

/// One part: the positions of some pieces' named stickers, numbered, with move table
/// and distance to "all on their colours".
struct StickerPart {
    moves: Vec<[u32; 18]>,
    distance: Vec<u8>,
}

impl StickerPart {
    /// The part of `stickers` (position now, colour), numbered from where they are now
    /// (rank 0).
    fn new(stickers: &[(u8, u8)], metric: Metric) -> Self {
        // Positions packed 6 bits each (at most 12 stickers: four corners).
        let pack =
            |state: &[u8]| -> u128 { state.iter().fold(0u128, |key, &p| key << 6 | p as u128) };
        let start: Vec<u8> = stickers.iter().map(|&(p, _)| p).collect();
        let numbered = Numbered::<Vec<u8>, u128, 18>::new(
            start,
            |state, m| {
                state
                    .iter()
                    .map(|&p| FACELET_MOVES[m][p as usize])
                    .collect()
            },
            |state| pack(state),
        );
        let (states, moves) = (numbered.states, numbered.moves);
        let solved = faces_of_cube(&Cube::SOLVED);
        let goals: Vec<u64> = states
            .iter()
            .enumerate()
            .filter(|(_, state)| {
                state
                    .iter()
                    .zip(stickers)
                    .all(|(&p, &(_, face))| solved[p as usize] == face)
            })
            .map(|(i, _)| i as u64)
            .collect();
        let distance = distances_to(&moves, &goals, metric);
        StickerPart { moves, distance }
    }
}

/// A partial cube ready to search.
pub struct PartialSearch {
    parts: Vec<StickerPart>,
    metric: Metric,
}

impl PartialSearch {
    /// Groups the named stickers by piece into parts of at most four pieces of a kind.
    pub fn new(cube: &PartialCube, metric: Metric) -> Self {
        let (corner_stickers, edge_stickers) = &*SLOT_STICKERS;
        let mut groups: Vec<Vec<(u8, u8)>> = Vec::new();
        for slots in [corner_stickers, edge_stickers] {
            let pieces: Vec<Vec<(u8, u8)>> = slots
                .iter()
                .map(|positions| {
                    cube.stickers
                        .iter()
                        .filter(|(p, _)| positions.contains(&(*p as usize)))
                        .copied()
                        .collect::<Vec<_>>()
                })
                .filter(|named: &Vec<(u8, u8)>| !named.is_empty())
                .collect();
            for chunk in pieces.chunks(4) {
                groups.push(chunk.concat());
            }
        }
        Self {
            parts: groups.iter().map(|g| StickerPart::new(g, metric)).collect(),
            metric,
        }
    }

    /// Solutions: at most `limit`, of the optimal length and up to `lengths` moves more,
    /// by length (each length in move order), and the optimal length; `u32::MAX` and none
    /// when no sequence works (the named stickers are no part of a real cube).
    pub fn solve(&self, lengths: u32, limit: usize) -> (u32, Vec<Vec<Move>>) {
        if self.parts.iter().any(|p| p.distance[0] == UNREACHED) {
            return (u32::MAX, Vec::new());
        }
        shortest_sequences(self, &vec![0u32; self.parts.len()], lengths, limit)
    }
}

impl BoundedSpace for PartialSearch {
    /// Each part's rank.
    type State = Vec<u32>;
    fn metric(&self) -> Metric {
        self.metric
    }
    fn bound(&self, ranks: &Vec<u32>) -> u32 {
        self.parts
            .iter()
            .zip(ranks)
            .map(|(p, &r)| p.distance[r as usize] as u32)
            .max()
            .unwrap_or(0)
    }
    fn reached(&self, _: &Vec<u32>) -> bool {
        // Every part at distance 0 is the goal itself.
        true
    }
    fn apply(&self, ranks: &Vec<u32>, mv: Move) -> Vec<u32> {
        self.parts
            .iter()
            .zip(ranks)
            .map(|(p, &r)| p.moves[r as usize][mv.index()])
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::facelets::facelet_string;
    use crate::puzzles::rubik::model::notation::parse_moves;

    #[test]
    fn facelet_moves_agree_with_the_cubie_model() {
        // Colours after a sequence, read through the facelet permutation, equal the
        // facelets of the cube the sequence makes.
        let moves = parse_moves("R U2 F' L D B2 R' U").unwrap();
        let solved = faces_of_cube(&Cube::SOLVED);
        let mut shown = [0u8; STICKERS];
        for (p, &colour) in solved.iter().enumerate() {
            let end = moves
                .iter()
                .fold(p as u8, |q, m| FACELET_MOVES[m.index()][q as usize]);
            shown[end as usize] = colour;
        }
        assert_eq!(shown, faces_of_cube(&Cube::from_moves(&moves)));
    }

    #[test]
    fn a_fully_named_cube_is_solved_optimally() {
        let cube = Cube::from_moves(&parse_moves("R U F").unwrap());
        let partial: PartialCube = facelet_string(&cube).parse().unwrap();
        let search = PartialSearch::new(&partial, Metric::Htm);
        let (optimal, found) = search.solve(0, 10);
        assert_eq!(optimal, 3);
        for s in &found {
            assert!(cube.apply_all(s).is_solved());
            assert!(partial.solved_by(s));
        }
    }
}
