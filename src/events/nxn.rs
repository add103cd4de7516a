//! An N×N×N cube as its 6·N² stickers, for the events' notation: outer-block turns
//! (`R`, `Rw`, `3Rw`, with `2` and `'`) and whole-cube rotations (`x`, `y`, `z`) applied
//! to stickers, so a scramble printed in the WCA's words can be read back and compared.
//!
//! Each sticker has a place in space: doubled coordinates, the cube spanning `-N..=N` on
//! each axis (x right, y up, z toward the front face), and a normal. A turn of the `k`
//! outer layers on the right rotates every sticker whose piece lies in those layers by a
//! quarter about +x; the other faces likewise about their own axis. Stickers are numbered
//! face by face in the order U, R, F, D, L, B, each face row by row as it is drawn in the
//! usual net (U with B above it, D with F above it, the four side faces upright), the
//! order of a Kociemba facelet string.

use std::fmt;

/// The six faces, in sticker order.
pub const FACES: [char; 6] = ['U', 'R', 'F', 'D', 'L', 'B'];

/// A face's outward normal and its drawing basis (right, down), as unit axis vectors.
const FRAMES: [([i32; 3], [i32; 3], [i32; 3]); 6] = [
    ([0, 1, 0], [1, 0, 0], [0, 0, 1]),    // U: B above
    ([1, 0, 0], [0, 0, -1], [0, -1, 0]),  // R
    ([0, 0, 1], [1, 0, 0], [0, -1, 0]),   // F
    ([0, -1, 0], [1, 0, 0], [0, 0, -1]),  // D: F above
    ([-1, 0, 0], [0, 0, 1], [0, -1, 0]),  // L
    ([0, 0, -1], [-1, 0, 0], [0, -1, 0]), // B
];

/// A clockwise quarter turn seen from each face, as a matrix on (x, y, z).
const QUARTERS: [[[i32; 3]; 3]; 6] = [
    [[0, 0, -1], [0, 1, 0], [1, 0, 0]], // U: front goes left
    [[1, 0, 0], [0, 0, 1], [0, -1, 0]], // R: front goes up
    [[0, 1, 0], [-1, 0, 0], [0, 0, 1]], // F: up goes right
    [[0, 0, 1], [0, 1, 0], [-1, 0, 0]], // D: front goes right
    [[1, 0, 0], [0, 0, -1], [0, 1, 0]], // L: front goes down
    [[0, -1, 0], [1, 0, 0], [0, 0, 1]], // B: up goes left
];

/// A matrix times a vector.
fn times(m: &[[i32; 3]; 3], v: [i32; 3]) -> [i32; 3] {
    std::array::from_fn(|r| m[r][0] * v[0] + m[r][1] * v[1] + m[r][2] * v[2])
}

/// The product `a · b` (first `b`, then `a`).
fn product(a: &[[i32; 3]; 3], b: &[[i32; 3]; 3]) -> [[i32; 3]; 3] {
    std::array::from_fn(|r| std::array::from_fn(|c| (0..3).map(|k| a[r][k] * b[k][c]).sum()))
}

/// The inverse of a rotation matrix: its transpose.
fn transposed(m: &[[i32; 3]; 3]) -> [[i32; 3]; 3] {
    std::array::from_fn(|r| std::array::from_fn(|c| m[c][r]))
}

/// `m` to the power `k`.
fn power(m: &[[i32; 3]; 3], k: u8) -> [[i32; 3]; 3] {
    let mut out = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    for _ in 0..k {
        out = product(m, &out);
    }
    out
}

/// The face whose outward normal is `normal`.
fn face_of(normal: [i32; 3]) -> usize {
    FRAMES
        .iter()
        .position(|(n, _, _)| *n == normal)
        .expect("a face normal")
}

/// The same turns written without wide turns of the D, L and B faces or rotations, as
/// the WCA's program writes 4x4x4 scrambles: a wide turn of half the layers from D is
/// the same from U and a rotation (`Dw` is `Uw` then `y'`), and every turn after a
/// rotation is written for the face it then turns; the last rotation is dropped, so the
/// result reaches the same state up to holding the cube another way. Turns that then
/// meet their own face and width with only their axis between are merged.
pub fn without_back_wide_turns(turns: &[Turn], n: usize) -> Vec<Turn> {
    // The cube as turned = held · (the cube the output reaches).
    let mut held = [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
    let mut out: Vec<Turn> = Vec::with_capacity(turns.len());
    for turn in turns {
        let rotation = power(&QUARTERS[turn.face], turn.quarters);
        if turn.rotation {
            held = product(&rotation, &held);
            continue;
        }
        let face = face_of(times(&transposed(&held), FRAMES[turn.face].0));
        let mut written = Turn { face, ..*turn };
        if face >= 3 && 2 * turn.layers == n {
            written.face = face - 3;
            held = product(&held, &power(&QUARTERS[face], turn.quarters));
        }
        push_merged(&mut out, written);
    }
    out
}

/// Appends `turn`, merging it with an earlier turn of its face and width that only turns
/// of its axis separate (dropping both when they cancel).
fn push_merged(out: &mut Vec<Turn>, turn: Turn) {
    for at in (0..out.len()).rev() {
        let earlier = out[at];
        if earlier.face % 3 != turn.face % 3 {
            break;
        }
        if earlier.face == turn.face && earlier.layers == turn.layers {
            let quarters = (earlier.quarters + turn.quarters) % 4;
            if quarters == 0 {
                out.remove(at);
            } else {
                out[at].quarters = quarters;
            }
            return;
        }
    }
    out.push(turn);
}

/// One turn: `layers` outer layers of `face` (all N for a rotation) by `quarters`
/// clockwise quarter turns seen from that face (1, 2 or 3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// Index into [`FACES`].
    pub face: usize,
    /// How many layers from that face turn (1 for `R`, 2 for `Rw`, N for a rotation).
    pub layers: usize,
    /// Clockwise quarter turns, 1..=3.
    pub quarters: u8,
    /// Whether it was written as a rotation (`x`, `y`, `z`).
    pub rotation: bool,
}

/// Why a move text could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NotationError {
    /// A token that is not a move of this cube.
    #[error("move {index} ({token:?}) is not a move of the {n}x{n}x{n} (outer-block turns like R, Rw, 3Rw with 2 or ', or x y z)")]
    Unknown {
        /// 1-based position of the token.
        index: usize,
        /// The token.
        token: String,
        /// The cube's size.
        n: usize,
    },
}

impl Turn {
    /// Reads one token in outer-block notation for an `n`-layer cube: `R`, `R2`, `R'`,
    /// `Rw`, `3Rw2`, `x'`; `None` if it is not one (width above `n - 1`, a wide move on a
    /// 2x2x2 or 3x3x3 written with a prefix it cannot have, ...).
    pub fn parse(token: &str, n: usize) -> Option<Turn> {
        let bytes = token.as_bytes();
        let mut i = 0;
        let mut width: Option<usize> = None;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        if i > 0 {
            width = Some(token[..i].parse().ok()?);
        }
        let letter = *bytes.get(i)? as char;
        i += 1;
        let (face, rotation) = match letter {
            'x' => (1, true),
            'y' => (0, true),
            'z' => (2, true),
            _ => (FACES.iter().position(|&f| f == letter)?, false),
        };
        let wide = bytes.get(i) == Some(&b'w');
        if wide {
            i += 1;
        }
        let quarters = match &bytes[i..] {
            [] => 1,
            [b'2'] => 2,
            [b'\''] => 3,
            [b'2', b'\''] => 2,
            _ => return None,
        };
        let layers = if rotation {
            if width.is_some() || wide {
                return None;
            }
            n
        } else {
            match (width, wide) {
                (None, false) => 1,
                (None, true) => 2,
                // `3Rw`: three layers; a count needs the w, and 2 is written `Rw`.
                (Some(w), true) if w >= 3 => w,
                _ => return None,
            }
        };
        if !rotation && layers >= n {
            return None;
        }
        Some(Turn {
            face,
            layers,
            quarters,
            rotation,
        })
    }
}

impl Turn {
    /// The turn's word (`R`, `Rw2`, `3Fw'`, `y`) added to `out`: what [`fmt::Display`]
    /// writes, without the formatting machinery (a 7x7x7 scramble writes 100).
    pub fn write_to(&self, out: &mut String) {
        if self.rotation {
            out.push(match self.face {
                0 => 'y',
                1 => 'x',
                _ => 'z',
            });
        } else {
            if self.layers >= 3 {
                match u8::try_from(self.layers) {
                    Ok(digit @ 0..=9) => out.push(char::from(b'0' + digit)),
                    _ => out.push_str(&self.layers.to_string()),
                }
            }
            out.push(FACES[self.face]);
            if self.layers >= 2 {
                out.push('w');
            }
        }
        match self.quarters {
            2 => out.push('2'),
            3 => out.push('\''),
            _ => {}
        }
    }
}

impl fmt::Display for Turn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut word = String::with_capacity(6);
        self.write_to(&mut word);
        f.write_str(&word)
    }
}

/// Reads a move text (turns separated by spaces) for an `n`-layer cube.
pub fn parse_turns(text: &str, n: usize) -> Result<Vec<Turn>, NotationError> {
    text.split_whitespace()
        .enumerate()
        .map(|(i, token)| {
            Turn::parse(token, n).ok_or_else(|| NotationError::Unknown {
                index: i + 1,
                token: token.to_string(),
                n,
            })
        })
        .collect()
}

/// An N×N×N cube's stickers, each holding the index of the face whose colour it shows.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct CubeN {
    n: usize,
    stickers: Vec<u8>,
}

impl CubeN {
    /// The solved cube of `n` layers (2 to 7).
    pub fn solved(n: usize) -> CubeN {
        let stickers = (0..6 * n * n).map(|i| (i / (n * n)) as u8).collect();
        CubeN { n, stickers }
    }

    /// The cube a facelet string of `n`-layer faces shows (face letters U R F D L B, in
    /// [`CubeN::facelets`]' order); `None` if it is not one.
    pub fn from_facelets(n: usize, text: &str) -> Option<CubeN> {
        let stickers: Option<Vec<u8>> = text
            .chars()
            .map(|c| FACES.iter().position(|&f| f == c).map(|i| i as u8))
            .collect();
        let stickers = stickers?;
        (stickers.len() == 6 * n * n).then_some(CubeN { n, stickers })
    }

    /// Its size.
    pub fn n(&self) -> usize {
        self.n
    }

    /// The colours (face indices), sticker by sticker.
    pub fn stickers(&self) -> &[u8] {
        &self.stickers
    }

    /// Whether every face shows one colour (in any orientation of the cube).
    pub fn is_solved(&self) -> bool {
        let nn = self.n * self.n;
        self.stickers
            .chunks(nn)
            .all(|face| face.iter().all(|&c| c == face[0]))
    }

    /// The stickers as a facelet string (`U`, `R`, ... per sticker).
    pub fn facelets(&self) -> String {
        self.stickers.iter().map(|&c| FACES[c as usize]).collect()
    }

    /// The sticker at a place (doubled coordinates on the surface) with a normal.
    fn index_at(&self, place: [i32; 3], normal: [i32; 3]) -> usize {
        let n = self.n as i32;
        let face = FRAMES
            .iter()
            .position(|(nm, _, _)| *nm == normal)
            .expect("a face normal");
        let (_, right, down) = FRAMES[face];
        let dot = |a: [i32; 3], b: [i32; 3]| a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        // Along `right`, pieces lie at -n+1, -n+3, ..., n-1.
        let col = ((dot(place, right) + n - 1) / 2) as usize;
        let row = ((dot(place, down) + n - 1) / 2) as usize;
        face * self.n * self.n + row * self.n + col
    }

    /// The place and normal of sticker `index`.
    fn place_of(&self, index: usize) -> ([i32; 3], [i32; 3]) {
        let n = self.n as i32;
        let nn = self.n * self.n;
        let (face, rest) = (index / nn, index % nn);
        let (row, col) = ((rest / self.n) as i32, (rest % self.n) as i32);
        let (normal, right, down) = FRAMES[face];
        let mut place = [0; 3];
        for a in 0..3 {
            place[a] = normal[a] * n + right[a] * (2 * col - n + 1) + down[a] * (2 * row - n + 1);
        }
        (place, normal)
    }

    /// Applies one turn.
    pub fn apply(&mut self, turn: Turn) {
        let n = self.n as i32;
        let (normal, _, _) = FRAMES[turn.face];
        let axis = normal.iter().position(|&c| c != 0).expect("an axis");
        let sign = normal[axis];
        let quarter = |v: [i32; 3]| times(&QUARTERS[turn.face], v);
        let depth = turn.layers as i32;
        let mut next = self.stickers.clone();
        for index in 0..self.stickers.len() {
            let (place, normal_here) = self.place_of(index);
            // The piece's coordinate along the axis, from this face: its layer.
            let piece = place[axis] - normal_here[axis];
            let layer = (n - 1 - sign * piece) / 2;
            if layer >= depth {
                continue;
            }
            let (mut p, mut m) = (place, normal_here);
            for _ in 0..turn.quarters {
                p = quarter(p);
                m = quarter(m);
            }
            next[self.index_at(p, m)] = self.stickers[index];
        }
        self.stickers = next;
    }

    /// Whether `other` shows the same stickers once the cube is held some other way.
    pub fn same_up_to_rotation(&self, other: &CubeN) -> bool {
        let mut held = other.clone();
        for first in ["", "x", "x2", "x'", "z", "z'"] {
            for second in ["", "y", "y2", "y'"] {
                held.clone_from(other);
                let text = format!("{first} {second}");
                held.apply_text(&text).expect("rotations");
                if held == *self {
                    return true;
                }
            }
        }
        false
    }

    /// Applies a move text (see [`parse_turns`]).
    pub fn apply_text(&mut self, text: &str) -> Result<(), NotationError> {
        for turn in parse_turns(text, self.n)? {
            self.apply(turn);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(n: usize, text: &str) -> CubeN {
        let mut cube = CubeN::solved(n);
        cube.apply_text(text).expect("moves");
        cube
    }

    #[test]
    fn a_3x3x3_turn_moves_the_stickers_kociemba_strings_say() {
        // R: the U face's right column shows F's colour, the F face's shows D's.
        assert_eq!(
            after(3, "R").facelets(),
            "UUFUUFUUFRRRRRRRRRFFDFFDFFDDDBDDBDDBLLLLLLLLLUBBUBBUBB"
        );
        // U: the F face's top row shows R's colour.
        assert_eq!(
            after(3, "U").facelets(),
            "UUUUUUUUUBBBRRRRRRRRRFFFFFFDDDDDDDDDFFFLLLLLLLLLBBBBBB"
        );
        // F: the U face's bottom row shows L's colour.
        assert_eq!(
            after(3, "F").facelets(),
            "UUUUUULLLURRURRURRFFFFFFFFFRRRDDDDDDLLDLLDLLDBBBBBBBBB"
        );
    }

    #[test]
    fn each_turn_has_order_four_and_opposite_turns_commute() {
        for n in 2..=7 {
            for face in 0..6 {
                for layers in 1..n {
                    let turn = Turn {
                        face,
                        layers,
                        quarters: 1,
                        rotation: false,
                    };
                    let mut cube = CubeN::solved(n);
                    cube.apply(turn);
                    assert!(!cube.is_solved() || layers == n);
                    for _ in 0..3 {
                        cube.apply(turn);
                    }
                    assert_eq!(cube, CubeN::solved(n), "{turn} on {n}");
                }
            }
            // A turn of every layer but one is a rotation and the other layer's turn.
            if n >= 3 {
                let wide = Turn {
                    face: 1,
                    layers: n - 1,
                    quarters: 1,
                    rotation: false,
                };
                let mut a = CubeN::solved(n);
                a.apply(wide);
                a.apply_text("x'").expect("x");
                assert_eq!(a, after(n, "L"), "{n}");
            }
        }
    }

    #[test]
    fn a_sexy_move_has_order_six_and_a_rotation_solves_as_solved() {
        let mut cube = CubeN::solved(3);
        for _ in 0..6 {
            cube.apply_text("R U R' U'").expect("moves");
        }
        assert_eq!(cube, CubeN::solved(3));
        let turned = after(5, "x y2 z'");
        assert!(turned.is_solved());
        assert_ne!(turned, CubeN::solved(5));
        // Rw and x' leave the two left layers turned as Lw does.
        assert_eq!(after(4, "Rw x' Lw'"), CubeN::solved(4));
    }

    #[test]
    fn back_wide_turns_are_written_from_the_front_faces() {
        let mut rng = crate::rng::SplitMix64::new(9);
        let all: Vec<Turn> = (0..6)
            .flat_map(|face| {
                (1..=2).flat_map(move |layers| {
                    (1..=3).map(move |quarters| Turn {
                        face,
                        layers,
                        quarters,
                        rotation: false,
                    })
                })
            })
            .chain((0..3).map(|face| Turn {
                face,
                layers: 4,
                quarters: 1,
                rotation: true,
            }))
            .collect();
        for _ in 0..300 {
            let turns: Vec<Turn> = (0..30)
                .map(|_| all[rng.below(all.len() as u64) as usize])
                .collect();
            let written = without_back_wide_turns(&turns, 4);
            assert!(written
                .iter()
                .all(|t| !t.rotation && (t.layers == 1 || t.face < 3)));
            let mut a = CubeN::solved(4);
            turns.iter().for_each(|&t| a.apply(t));
            let mut b = CubeN::solved(4);
            written.iter().for_each(|&t| b.apply(t));
            assert!(a.same_up_to_rotation(&b));
        }
        let dw = without_back_wide_turns(&parse_turns("Dw Uw'", 4).expect("moves"), 4);
        assert!(dw.is_empty(), "{dw:?}");
    }

    #[test]
    fn tokens_read_and_print_the_same() {
        for token in ["R", "R2", "R'", "Rw", "Rw2", "3Rw'", "x", "y2", "z'"] {
            let turn = Turn::parse(token, 7).expect(token);
            assert_eq!(turn.to_string(), token);
        }
        let wide = Turn::parse("12Fw2", 30).expect("a wide turn of a big cube");
        assert_eq!((wide.layers, wide.to_string().as_str()), (12, "12Fw2"));
        for bad in ["2R", "3R", "Rw3", "r", "7Rw", "1Rw", "xw", "", "R2''"] {
            assert!(Turn::parse(bad, 7).is_none(), "{bad}");
        }
        assert!(Turn::parse("Rw", 2).is_none());
        assert!(Turn::parse("3Rw", 3).is_none());
        assert!(parse_turns("R U Q", 3).is_err());
    }
}
