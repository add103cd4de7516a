//! Sticker masks: the shortest sequences after which chosen stickers show chosen colours
//! (`?` for stickers that do not matter).
//!
//! A mask is 54 characters in facelet order (U R F D L B faces, each row by row), each a
//! face letter naming the colour of that face's centre, or `?`. A slot with a named
//! sticker accepts the cubies (in the orientations) that show those colours there; the
//! search follows where those cubies are, since the position of a cubie after a move
//! depends on its position before alone (what sits in a slot does not: it comes from
//! another slot). The cubies are split into parts of at most four edges or four corners,
//! each part's positions numbered by a BFS from solved, and each part's distance to
//! "every slot that only this part's cubies can satisfy is satisfied" filled in by a BFS
//! from all such positions at once. The largest of the parts' distances is a lower bound,
//! exact when one part accounts for every named sticker; the search (canonical
//! sequences, depth-first under that bound) keeps the sequences after which the cube
//! shows the mask.

use crate::puzzles::rubik::coord::projection::{
    distances_to, shortest_sequences, BoundedSpace, Numbered, Pieces,
};
use crate::puzzles::rubik::model::consistency::some_cube_shows;
use crate::puzzles::rubik::model::cube::{Cube, Face, Move, CORNERS, EDGES};
use crate::puzzles::rubik::model::facelets::{faces_of_cube, STICKERS};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::stickers::{corner_slot_stickers, edge_slot_stickers};
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::bfs::UNREACHED;
use std::collections::HashMap;
use thiserror::Error;

/// A mask that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MaskError {
    /// Not 54 characters.
    #[error("a mask has 54 characters (face letters or ?), this one {0}")]
    Length(usize),
    /// A character that is no face letter and not `?`.
    #[error("character {position} is {shown}, expected U, R, F, D, L, B or ?")]
    Character {
        /// 1-based position.
        position: usize,
        /// The character, quoted.
        shown: String,
    },
    /// A centre asked to show another colour (centres never move).
    #[error("the centre of {face} always shows {face}, the mask asks for {asked}")]
    Centre {
        /// The face.
        face: char,
        /// The colour asked for.
        asked: char,
    },
    /// No named sticker.
    #[error("the mask names no sticker (all ?)")]
    Empty,
    /// No cube shows the named stickers.
    #[error("no cube shows these stickers: {0}")]
    NoCube(String),
}

/// A parsed mask: the face index each sticker must show, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mask {
    wanted: [Option<u8>; STICKERS],
}

impl std::str::FromStr for Mask {
    type Err = MaskError;
    fn from_str(text: &str) -> Result<Self, MaskError> {
        let chars: Vec<char> = text.trim().chars().collect();
        if chars.len() != STICKERS {
            return Err(MaskError::Length(chars.len()));
        }
        let mut wanted = [None; STICKERS];
        for (i, &c) in chars.iter().enumerate() {
            if c == '?' {
                continue;
            }
            let face = Face::ALL
                .into_iter()
                .find(|f| f.letter() == c)
                .ok_or_else(|| MaskError::Character {
                    position: i + 1,
                    shown: crate::text::quote(c.encode_utf8(&mut [0; 4])).to_string(),
                })?;
            wanted[i] = Some(face.index() as u8);
        }
        for face in Face::ALL {
            let centre = 9 * face.index() + 4;
            if let Some(asked) = wanted[centre] {
                if asked as usize != face.index() {
                    return Err(MaskError::Centre {
                        face: face.letter(),
                        asked: Face::ALL[asked as usize].letter(),
                    });
                }
                wanted[centre] = None;
            }
        }
        if wanted.iter().all(Option::is_none) {
            return Err(MaskError::Empty);
        }
        some_cube_shows(&wanted).map_err(MaskError::NoCube)?;
        Ok(Mask { wanted })
    }
}

impl Mask {
    /// Whether `cube` shows every named sticker.
    pub fn holds(&self, cube: &Cube) -> bool {
        let faces = faces_of_cube(cube);
        self.wanted
            .iter()
            .zip(faces)
            .all(|(w, f)| w.is_none_or(|w| w == f))
    }
}

/// A slot with named stickers and what it accepts: `(cubie, orientation)` pairs.
#[derive(Debug, Clone)]
struct Demand {
    corner: bool,
    slot: u8,
    accepts: Vec<(u8, u8)>,
}

impl Demand {
    /// Whether a part's key (slot, orientation per cubie of `cubies`) satisfies it.
    fn met_by(&self, cubies: &[u8], key: &[u8]) -> bool {
        cubies.iter().enumerate().any(|(i, &cubie)| {
            key[2 * i] == self.slot && self.accepts.contains(&(cubie, key[2 * i + 1]))
        })
    }
}

/// What each slot with a named sticker accepts.
fn demands(mask: &Mask) -> Vec<Demand> {
    let (corner_stickers, edge_stickers) = &*SLOT_STICKERS;
    let mut out = Vec::new();
    for (corner, slots, count, orientations) in [
        (true, corner_stickers, CORNERS, 3u8),
        (false, edge_stickers, EDGES, 2u8),
    ] {
        for (slot, stickers) in slots.iter().enumerate() {
            if stickers.iter().all(|&i| mask.wanted[i].is_none()) {
                continue;
            }
            let mut accepts = Vec::new();
            for cubie in 0..count {
                for o in 0..orientations {
                    // A position with that cubie so in the slot (the rest does not matter
                    // to the slot's stickers).
                    let mut cube = Cube::SOLVED;
                    if corner {
                        let from = cube
                            .cp
                            .iter()
                            .position(|&x| x as usize == cubie)
                            .unwrap_or(slot);
                        cube.cp.swap(slot, from);
                        cube.co[slot] = o;
                    } else {
                        let from = cube
                            .ep
                            .iter()
                            .position(|&x| x as usize == cubie)
                            .unwrap_or(slot);
                        cube.ep.swap(slot, from);
                        cube.eo[slot] = o;
                    }
                    let faces = faces_of_cube(&cube);
                    if stickers
                        .iter()
                        .all(|&i| mask.wanted[i].is_none_or(|w| w == faces[i]))
                    {
                        accepts.push((cubie as u8, o));
                    }
                }
            }
            out.push(Demand {
                corner,
                slot: slot as u8,
                accepts,
            });
        }
    }
    out
}

/// One part: its cubies' positions numbered, a move table, and the distance of each to
/// the demands only its cubies can meet.
struct MaskPart {
    cubies: Pieces,
    index: HashMap<Vec<u8>, u32>,
    moves: Vec<[u32; 18]>,
    distance: Vec<u8>,
    /// Whether the part meets demands on its own (else its bound is 0).
    owns_demands: bool,
}

impl MaskPart {
    fn new(cubies: Pieces, demands: &[Demand], metric: Metric) -> Self {
        let numbered = Numbered::<Cube, Vec<u8>, 18>::new(
            Cube::SOLVED,
            |cube, m| cube.then(&MOVE_CUBES[m]),
            |cube| cubies.key(cube),
        );
        let keys: Vec<Vec<u8>> = numbered.states.iter().map(|c| cubies.key(c)).collect();
        let (index, moves) = (numbered.index, numbered.moves);
        let (list, corner) = match &cubies {
            Pieces::Corners(list) => (list.clone(), true),
            Pieces::Edges(list) => (list.clone(), false),
        };
        // Demands only these cubies can meet.
        let owned: Vec<&Demand> = demands
            .iter()
            .filter(|d| d.corner == corner && d.accepts.iter().all(|(c, _)| list.contains(c)))
            .collect();
        let goals: Vec<u64> = keys
            .iter()
            .enumerate()
            .filter(|(_, key)| owned.iter().all(|d| d.met_by(&list, key)))
            .map(|(i, _)| i as u64)
            .collect();
        MaskPart {
            cubies,
            index,
            distance: distances_to(&moves, &goals, metric),
            moves,
            owns_demands: !owned.is_empty(),
        }
    }

    fn rank_of(&self, cube: &Cube) -> u32 {
        self.index[&self.cubies.key(cube)]
    }
}

/// The stickers of each slot: corner slots, then edge slots.
pub(crate) type SlotStickers = (Vec<Vec<usize>>, Vec<Vec<usize>>);

/// The sticker positions of every slot, from the facelet layout.
pub(crate) static SLOT_STICKERS: std::sync::LazyLock<SlotStickers> =
    std::sync::LazyLock::new(|| {
        (
            corner_slot_stickers().iter().map(|s| s.to_vec()).collect(),
            edge_slot_stickers().iter().map(|s| s.to_vec()).collect(),
        )
    });

/// A mask ready to search: its parts and their distances.
pub struct MaskSearch {
    parts: Vec<MaskPart>,
    metric: Metric,
    mask: Mask,
    exact: bool,
}

impl MaskSearch {
    /// Prepares `mask` for `metric` (milliseconds: each part has at most 190,080
    /// contents).
    pub fn new(mask: &Mask, metric: Metric) -> Self {
        let demands = demands(mask);
        let cubies = |corner: bool| -> Vec<u8> {
            let mut list: Vec<u8> = demands
                .iter()
                .filter(|d| d.corner == corner)
                .flat_map(|d| d.accepts.iter().map(|&(c, _)| c))
                .collect();
            list.sort_unstable();
            list.dedup();
            list
        };
        let (corners, edges) = (cubies(true), cubies(false));
        let mut groups: Vec<Pieces> = corners
            .chunks(4)
            .map(|c| Pieces::Corners(c.to_vec()))
            .collect();
        groups.extend(edges.chunks(4).map(|e| Pieces::Edges(e.to_vec())));
        let exact = groups.len() == 1;
        let parts = groups
            .into_iter()
            .map(|g| MaskPart::new(g, &demands, metric))
            .collect();
        Self {
            parts,
            metric,
            mask: mask.clone(),
            exact,
        }
    }

    /// Whether the bound is the exact distance (one part holds every named sticker).
    pub fn exact(&self) -> bool {
        self.exact
    }

    /// Solutions of the mask on `cube`: at most `limit`, of the optimal length and up to
    /// `lengths` moves more, by length (each length in move order). Also the optimal
    /// length: `u32::MAX` (and no solution) when no position shows the mask.
    pub fn solve(&self, cube: &Cube, lengths: u32, limit: usize) -> (u32, Vec<Vec<Move>>) {
        let ranks: Vec<u32> = self.parts.iter().map(|p| p.rank_of(cube)).collect();
        if self
            .parts
            .iter()
            .zip(&ranks)
            .any(|(p, &r)| p.distance[r as usize] == UNREACHED)
        {
            return (u32::MAX, Vec::new());
        }
        shortest_sequences(self, &(*cube, ranks), lengths, limit)
    }
}

impl BoundedSpace for MaskSearch {
    /// The cube (for the final check on its stickers) and each part's rank.
    type State = (Cube, Vec<u32>);
    fn metric(&self) -> Metric {
        self.metric
    }
    fn bound(&self, (_, ranks): &Self::State) -> u32 {
        self.parts
            .iter()
            .zip(ranks)
            .filter(|(p, _)| p.owns_demands)
            .map(|(p, &r)| p.distance[r as usize] as u32)
            .max()
            .unwrap_or(0)
    }
    fn reached(&self, (cube, _): &Self::State) -> bool {
        self.mask.holds(cube)
    }
    fn apply(&self, (cube, ranks): &Self::State, mv: Move) -> Self::State {
        let ranks = self
            .parts
            .iter()
            .zip(ranks)
            .map(|(p, &r)| p.moves[r as usize][mv.index()])
            .collect();
        (cube.apply(mv), ranks)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::notation::parse_moves;

    /// The mask naming `stickers` with their solved colours.
    fn solved_mask(stickers: &[usize]) -> Mask {
        let faces = faces_of_cube(&Cube::SOLVED);
        let text: String = (0..STICKERS)
            .map(|i| {
                if stickers.contains(&i) {
                    Face::ALL[faces[i] as usize].letter()
                } else {
                    '?'
                }
            })
            .collect();
        text.parse().unwrap()
    }

    #[test]
    fn solutions_show_the_mask() {
        let (corners, edges) = &*SLOT_STICKERS;
        // The D cross: the four D edges' stickers.
        let stickers: Vec<usize> = [4, 5, 6, 7]
            .iter()
            .flat_map(|&e| edges[e].clone())
            .collect();
        let mask = solved_mask(&stickers);
        assert!(mask.holds(&Cube::SOLVED));
        let search = MaskSearch::new(&mask, Metric::Htm);
        assert!(search.exact());
        let cube = Cube::from_moves(&parse_moves("R U2 F' L D2 B R' U F2").unwrap());
        let (optimal, found) = search.solve(&cube, 1, 50);
        assert!(optimal < 9);
        for s in &found {
            assert!(mask.holds(&cube.apply_all(s)), "{s:?}");
        }
        // Corners too: two parts, the bound is a bound.
        let stickers: Vec<usize> = corners[4].iter().chain(&edges[8]).copied().collect();
        let mask = solved_mask(&stickers);
        let search = MaskSearch::new(&mask, Metric::Htm);
        let (_, found) = search.solve(&cube, 0, 5);
        assert!(!found.is_empty());
        for s in &found {
            assert!(mask.holds(&cube.apply_all(s)), "{s:?}");
        }
    }
}
