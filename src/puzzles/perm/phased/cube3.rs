//! A plan's `Finish 3x3x3`: the states its last phase reaches are a 3x3x3 (a reduced
//! 4x4x4 or 5x5x5, or the 3x3x3 itself), solved by cubedb's two-phase solver
//! (`docs/rubik-twophase.md`) instead of more generic phases.
//!
//! The map from the puzzle to the 3x3x3 is worked out from the moves alone. The six
//! named moves generate a group `H` that acts on each set's *points* (a slot with an
//! orientation: where a piece is and how it is turned), as the 3x3x3's face turns act
//! on its 24 corner points (8 slots, 3 twists) and its 24 edge points (12 slots, 2
//! flips). A set whose points `H` moves exactly as the turns move the corner points (or
//! the edge points) is mapped by the bijection that carries one action onto the other:
//! fixing the image of one point fixes the rest, since a point's image after a move is
//! the move's image of its image. The 3x3x3's corners, the 4x4x4's 24 wings (each one
//! edge point: its edge and which of its two stickers it sits like), the 5x5x5's midges
//! and wings are such sets. Every other set must look solved under the six moves (the
//! centres, identical per face). A state of `H` then maps to the cube that the same
//! moves make on the 3x3x3: a piece sits, relative to its home, as its image does.

use super::PlanError;
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::puzzles::rubik::model::cube::{Cube, Face, Move, CORNERS, EDGES};

/// The faces in the order a `Finish 3x3x3` line names their moves.
pub const FACE_ORDER: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

/// One set of the puzzle carried onto the 3x3x3's corners or edges.
#[derive(Debug, Clone)]
struct SetMap {
    /// The set's index.
    set: usize,
    /// Its orientations.
    omod: u8,
    /// Onto the corners (else the edges).
    corners: bool,
    /// Per point of the set (`slot * omod + orientation`): the 3x3x3 point (slot, twist).
    image: Vec<(u8, u8)>,
    /// Per piece label: the 3x3x3 point its home (solved slot, orientation 0) maps to.
    home: Vec<(u8, u8)>,
}

/// The compiled `Finish 3x3x3` of a plan.
#[derive(Debug, Clone)]
pub struct Finish3 {
    /// The sets mapped onto corners and edges.
    maps: Vec<SetMap>,
    /// Sets that must be at their solved labels (and orientations).
    fixed: Vec<usize>,
    /// Per 3x3x3 move (`Move::index`): the plan moves that make it (two quarter turns
    /// for a half turn in quarter turns).
    pub moves: Vec<Vec<usize>>,
    /// The line of the plan that names it.
    pub line: usize,
}

/// Where each point of a set goes under a move (a point: `slot * omod + orientation`).
fn point_action(perm: &[u8], ori: &[u8], omod: u8) -> Vec<u16> {
    let n = perm.len();
    let mut to = vec![0u16; n * omod as usize];
    for (j, (&from, &twist)) in perm.iter().zip(ori).enumerate() {
        for o in 0..omod {
            let turned = (o + twist) % omod;
            to[from as usize * omod as usize + o as usize] =
                (j * omod as usize) as u16 + turned as u16;
        }
    }
    to
}

/// A bijection `image` from the points of one action onto another's with
/// `image[a[g][x]] = b[g][image[x]]` for every generator `g`, if there is one. Both
/// actions must be transitive for one to be found.
fn carry(a: &[Vec<u16>], b: &[Vec<u16>]) -> Option<Vec<u16>> {
    let n = a.first()?.len();
    if n == 0 || b.first()?.len() != n {
        return None;
    }
    'start: for first in 0..n as u16 {
        let mut image = vec![u16::MAX; n];
        image[0] = first;
        let mut queue = vec![0usize];
        while let Some(x) = queue.pop() {
            for (ga, gb) in a.iter().zip(b) {
                let (next, want) = (ga[x] as usize, gb[image[x] as usize]);
                if image[next] == u16::MAX {
                    image[next] = want;
                    queue.push(next);
                } else if image[next] != want {
                    continue 'start;
                }
            }
        }
        let mut seen = vec![false; n];
        for &y in &image {
            if y == u16::MAX || std::mem::replace(&mut seen[y as usize], true) {
                continue 'start;
            }
        }
        return Some(image);
    }
    None
}

impl Finish3 {
    /// The finish whose 3x3x3 faces U R F D L B are turned clockwise by `faces` (the
    /// puzzle's elements of the named moves); `moves` gives, per 3x3x3 move, the plan
    /// moves that make it. An error (for `line`) names what does not map.
    pub fn new(
        puzzle: &PermPuzzle,
        faces: &[Element; 6],
        moves: Vec<Vec<usize>>,
        line: usize,
    ) -> Result<Self, PlanError> {
        let fail = |problem: String| PlanError { line, problem };
        let turns: Vec<Cube> = FACE_ORDER
            .iter()
            .map(|&f| Cube::from_moves(&[Move::new(f, 1)]))
            .collect();
        let corner_action: Vec<Vec<u16>> = turns
            .iter()
            .map(|c| point_action(&c.cp, &c.co, 3))
            .collect();
        let edge_action: Vec<Vec<u16>> = turns
            .iter()
            .map(|c| point_action(&c.ep, &c.eo, 2))
            .collect();
        let mut maps = Vec::new();
        let mut fixed = Vec::new();
        for (s, set) in puzzle.sets.iter().enumerate() {
            let solved = &puzzle.solved.orbits[s];
            let action: Vec<Vec<u16>> = faces
                .iter()
                .map(|f| point_action(&f.orbits[s].perm, &f.orbits[s].ori, set.omod))
                .collect();
            let labels_distinct = {
                let mut seen = vec![false; set.size];
                solved.perm.iter().all(|&l| {
                    (l as usize) < set.size && !std::mem::replace(&mut seen[l as usize], true)
                })
            };
            let carried = labels_distinct
                .then(|| {
                    carry(&action, &corner_action)
                        .map(|image| (true, image))
                        .or_else(|| carry(&action, &edge_action).map(|image| (false, image)))
                })
                .flatten();
            if let Some((corners, image)) = carried {
                let m: u16 = if corners { 3 } else { 2 };
                let image: Vec<(u8, u8)> = image
                    .iter()
                    .map(|&y| ((y / m) as u8, (y % m) as u8))
                    .collect();
                let mut home = vec![(0, 0); set.size];
                for (slot, &label) in solved.perm.iter().enumerate() {
                    home[label as usize] = image[slot * set.omod as usize];
                }
                maps.push(SetMap {
                    set: s,
                    omod: set.omod,
                    corners,
                    image,
                    home,
                });
                continue;
            }
            // Not a corner or edge set: the six moves must leave it looking solved.
            let kept = faces.iter().all(|f| {
                let after = puzzle.solved.then(f, &puzzle.sets);
                after.orbits[s] == *solved
            });
            if !kept {
                return Err(fail(format!(
                    "Finish 3x3x3: the moves turn set {} neither as a 3x3x3's corners or \
                     edges are turned nor keeping it solved",
                    set.name
                )));
            }
            fixed.push(s);
        }
        for (corners, what) in [(true, "corners"), (false, "edges")] {
            if !maps.iter().any(|m| m.corners == corners) {
                return Err(fail(format!(
                    "Finish 3x3x3: no set of the puzzle moves as the 3x3x3's {what} do under \
                     the six moves"
                )));
            }
        }
        Ok(Self {
            maps,
            fixed,
            moves,
            line,
        })
    }

    /// What the finish does, for `cubedb puzzle info`: the sets it reads the 3x3x3 from.
    pub fn describe(&self, puzzle: &PermPuzzle) -> String {
        let named = |corners: bool| {
            self.maps
                .iter()
                .filter(|m| m.corners == corners)
                .map(|m| puzzle.sets[m.set].name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!(
            "finish: the last phase's states as a 3x3x3 (corners from {}, edges from {}), \
             solved by the two-phase solver",
            named(true),
            named(false)
        )
    }

    /// The 3x3x3 that `state` is, or `None` when it is not one (not in the group of the
    /// six moves: a piece or a pair out of place for a 3x3x3).
    pub fn cube_of(&self, state: &Element, puzzle: &PermPuzzle) -> Option<Cube> {
        for &s in &self.fixed {
            if state.orbits[s] != puzzle.solved.orbits[s] {
                return None;
            }
        }
        const UNSET: u8 = u8::MAX;
        let mut cube = Cube {
            cp: [UNSET; CORNERS],
            co: [UNSET; CORNERS],
            ep: [UNSET; EDGES],
            eo: [UNSET; EDGES],
        };
        for map in &self.maps {
            let orbit = &state.orbits[map.set];
            let (perm, ori, m) = if map.corners {
                (&mut cube.cp[..], &mut cube.co[..], 3u8)
            } else {
                (&mut cube.ep[..], &mut cube.eo[..], 2u8)
            };
            for (slot, (&label, &o)) in orbit.perm.iter().zip(&orbit.ori).enumerate() {
                if o >= map.omod {
                    return None;
                }
                let (at, turned) = map.image[slot * map.omod as usize + o as usize];
                let (piece, home_turn) = *map.home.get(label as usize)?;
                let twist = (turned + m - home_turn) % m;
                let (p, t) = (&mut perm[at as usize], &mut ori[at as usize]);
                if *p == UNSET {
                    (*p, *t) = (piece, twist);
                } else if (*p, *t) != (piece, twist) {
                    return None;
                }
            }
        }
        cube.validate().ok().map(|_| cube)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;

    fn puzzle(file: &str) -> PermPuzzle {
        shipped_puzzle(file, PuzzleMetric::Htm)
    }

    fn finish(p: &PermPuzzle) -> Finish3 {
        let faces: [Element; 6] =
            std::array::from_fn(|i| p.names[&FACE_ORDER[i].letter().to_string()].clone());
        Finish3::new(p, &faces, vec![Vec::new(); 18], 1).expect("maps")
    }

    /// Random words in the six faces make the same cube on the puzzle (read through the
    /// map) as on the 3x3x3; a state off the group maps to nothing.
    #[test]
    fn face_words_map_to_the_cube_they_make() {
        let mut rng = SplitMix64::new(53);
        for file in ["3x3x3.tws", "4x4x4.tws", "5x5x5.tws"] {
            let p = puzzle(file);
            let f = finish(&p);
            for _ in 0..200 {
                let mut state = p.solved.clone();
                let mut moves = Vec::new();
                for _ in 0..rng.below(30) {
                    let mv = Move::from_index(rng.below(18) as usize);
                    let name = mv.to_string();
                    state = state.then(&p.names[&name], &p.sets);
                    moves.push(mv);
                }
                assert_eq!(
                    f.cube_of(&state, &p),
                    Some(Cube::from_moves(&moves)),
                    "{file}"
                );
            }
            if file != "3x3x3.tws" {
                let wide = state_after(&p, "2R");
                assert_eq!(f.cube_of(&wide, &p), None, "{file}: an inner slice");
            }
        }
    }

    fn state_after(p: &PermPuzzle, name: &str) -> Element {
        p.solved.then(&p.names[name], &p.sets)
    }

    /// Moves that turn no 3x3x3 are refused with the line.
    #[test]
    fn moves_of_no_cube_are_refused() {
        let p = puzzle("4x4x4.tws");
        let mut faces: [Element; 6] =
            std::array::from_fn(|i| p.names[&FACE_ORDER[i].letter().to_string()].clone());
        faces[1] = p.names["2R"].clone();
        let e = Finish3::new(&p, &faces, vec![Vec::new(); 18], 7).expect_err("no cube");
        assert_eq!(e.line, 7);
        assert!(e.problem.contains("Finish 3x3x3"), "{}", e.problem);
    }
}
