//! Facelets: facelet strings (URFDLB), the ZOJ net, and the conversion between stickers
//! and cubies, with the reason when stickers are no cube; the quarter turns and the
//! symmetries acting on stickers, from the sticker geometry of [`super::stickers`].

use super::stickers::{
    add, cross, dot, scale, solved_faces, sticker_at, sticker_geometry, symmetry_slot_maps, Vec3,
    CORNER_FACES, EDGE_FACES, LAYOUT, NORMAL,
};
use crate::puzzles::rubik::model::cube::{
    Cube, CubeError, Face, CORNERS, CORNER_NAMES, EDGES, EDGE_NAMES,
};
use std::sync::LazyLock;
use thiserror::Error;

pub use super::stickers::STICKERS;

/// The cube after a clockwise quarter turn of `face` from solved, from the geometry: the
/// layer's stickers are rotated by -90 degrees about the face's outward normal.
pub(crate) fn quarter_turn_cube(face: Face) -> Cube {
    let n = NORMAL[face.index()];
    let rotate = |v: Vec3| add(scale(cross(n, v), -1), scale(n, dot(n, v)));
    let solved = solved_faces();
    let mut turned = solved;
    for (i, &colour) in solved.iter().enumerate() {
        let (pos, normal) = sticker_geometry(i);
        if dot(pos, n) == 1 {
            turned[sticker_at(rotate(pos), rotate(normal))] = colour;
        }
    }
    cube_from_faces(&turned).expect("a face turn of the solved cube is a cube")
}

/// A cube transformed by the symmetry with matrix `m`, sticker by sticker: every sticker
/// moved to its image and recoloured with the face its colour's face goes to (the
/// reference for [`SlotMaps`]; slow).
pub(crate) fn transform_by_stickers(cube: &Cube, m: [[i8; 3]; 3]) -> Cube {
    let apply = |v: Vec3| -> Vec3 { std::array::from_fn(|r| dot(m[r], v)) };
    let maps = symmetry_slot_maps(m);
    let faces = faces_of_cube(cube);
    let mut out = faces;
    for (i, &f) in faces.iter().enumerate() {
        let (pos, normal) = sticker_geometry(i);
        out[sticker_at(apply(pos), apply(normal))] = maps.faces[f as usize];
    }
    cube_from_faces_unchecked(&out).expect("a transformed cube is made of cubies")
}

/// Stickers that are not a cube net at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NetError {
    /// Not 54 stickers.
    #[error("expected 54 stickers, found {0}")]
    StickerCount(usize),
    /// A sticker token longer than one character.
    #[error("sticker {} is not a single character", crate::text::quote(.0))]
    LongSticker(String),
    /// More than six colours.
    #[error("{count} different colours ({list}); a cube has 6")]
    TooManyColours {
        /// How many colours.
        count: usize,
        /// The colours.
        list: String,
    },
    /// Two centres of one colour.
    #[error(
        "the centres of faces {0} and {1} are both {colour}; every face needs its own centre colour",
        colour = crate::text::quote(.2.encode_utf8(&mut [0; 4]))
    )]
    CentresAlike(char, char, char),
}

/// Stickers that form a net but not a cube that can be solved, with the rule broken.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum Unsolvable {
    /// A colour does not appear nine times.
    #[error("wrong sticker counts: the colour of the {face} centre appears {count} times (rule: 9 stickers of each centre colour)")]
    StickerCounts {
        /// The face whose centre colour is miscounted.
        face: char,
        /// How often it appears.
        count: usize,
    },
    /// A corner or edge sticker group that no cubie has.
    #[error("impossible cubie: the {what} at {slot} shows {faces} (rule: every corner and edge sticker group names a real cubie)")]
    NoSuchCubie {
        /// "corner" or "edge".
        what: &'static str,
        /// Slot name.
        slot: &'static str,
        /// The faces seen there.
        faces: String,
    },
    /// A cubie-level rule (permutation, twist, flip, parity).
    #[error(transparent)]
    Cube(#[from] CubeError),
}

/// Maps sticker colours to faces by the centre colours. `stickers` are in facelet order
/// (URFDLB, 9 each).
pub fn faces_of_colours(stickers: &[char; STICKERS]) -> Result<[u8; STICKERS], NetError> {
    let mut centres = ['\0'; 6];
    for face in 0..6 {
        centres[face] = stickers[face * 9 + 4];
        if let Some(other) = centres[..face].iter().position(|&c| c == centres[face]) {
            return Err(NetError::CentresAlike(
                Face::ALL[other].letter(),
                Face::ALL[face].letter(),
                centres[face],
            ));
        }
    }
    let mut faces = [0u8; STICKERS];
    let mut extra: Vec<char> = Vec::new();
    for (slot, &c) in faces.iter_mut().zip(stickers) {
        match centres.iter().position(|&x| x == c) {
            Some(f) => *slot = f as u8,
            None => {
                if !extra.contains(&c) {
                    extra.push(c);
                }
            }
        }
    }
    if !extra.is_empty() {
        // At most a dozen shown: the message stays short whatever the input.
        const SHOWN: usize = 12;
        let count = centres.len() + extra.len();
        let mut all: String = centres
            .iter()
            .chain(&extra)
            .take(SHOWN)
            .map(|c| crate::text::quote(c.encode_utf8(&mut [0; 4])).to_string())
            .collect::<Vec<_>>()
            .join(" ");
        if count > SHOWN {
            all.push_str(&format!(" and {} more", count - SHOWN));
        }
        return Err(NetError::TooManyColours {
            count: 6 + extra.len(),
            list: all,
        });
    }
    Ok(faces)
}

/// The cube shown by stickers given as faces (URFDLB index per sticker), or the rule the
/// stickers break. Sticker counts are checked first, then cubies, then the cube rules.
pub fn cube_from_faces(faces: &[u8; STICKERS]) -> Result<Cube, Unsolvable> {
    let mut counts = [0usize; 6];
    for &f in faces {
        counts[f as usize] += 1;
    }
    if let Some(f) = counts.iter().position(|&n| n != 9) {
        return Err(Unsolvable::StickerCounts {
            face: Face::ALL[f].letter(),
            count: counts[f],
        });
    }
    let cube = cube_from_faces_unchecked(faces)?;
    cube.validate()?;
    Ok(cube)
}

/// Reads cubies from the stickers without the cube rules (permutation, twist, flip,
/// parity); fails only on a sticker group that names no cubie.
fn cube_from_faces_unchecked(faces: &[u8; STICKERS]) -> Result<Cube, Unsolvable> {
    let layout = &*LAYOUT;
    let names = |fs: &[u8]| {
        fs.iter()
            .map(|&f| Face::ALL[f as usize].letter())
            .collect::<String>()
    };
    let mut cube = Cube::SOLVED;
    for (slot, stickers) in layout.corners.iter().enumerate() {
        let seen: [u8; 3] = stickers.map(|i| faces[i]);
        let found = (0..3).find_map(|twist| {
            let rotated = [seen[twist], seen[(twist + 1) % 3], seen[(twist + 2) % 3]];
            CORNER_FACES
                .iter()
                .position(|c| c.map(|f| f as u8) == rotated)
                .map(|cubie| (cubie, twist))
        });
        let (cubie, twist) = found.ok_or_else(|| Unsolvable::NoSuchCubie {
            what: "corner",
            slot: CORNER_NAMES[slot],
            faces: names(&seen),
        })?;
        cube.cp[slot] = cubie as u8;
        cube.co[slot] = twist as u8;
    }
    for (slot, stickers) in layout.edges.iter().enumerate() {
        let seen: [u8; 2] = stickers.map(|i| faces[i]);
        let found = (0..2).find_map(|flip| {
            let rotated = [seen[flip], seen[1 - flip]];
            EDGE_FACES
                .iter()
                .position(|e| e.map(|f| f as u8) == rotated)
                .map(|cubie| (cubie, flip))
        });
        let (cubie, flip) = found.ok_or_else(|| Unsolvable::NoSuchCubie {
            what: "edge",
            slot: EDGE_NAMES[slot],
            faces: names(&seen),
        })?;
        cube.ep[slot] = cubie as u8;
        cube.eo[slot] = flip as u8;
    }
    Ok(cube)
}

/// The stickers (face index per sticker, URFDLB order) of a cube.
pub fn faces_of_cube(cube: &Cube) -> [u8; STICKERS] {
    let layout = &*LAYOUT;
    let mut faces = solved_faces();
    for slot in 0..CORNERS {
        let (cubie, twist) = (cube.cp[slot] as usize, cube.co[slot] as usize);
        for k in 0..3 {
            faces[layout.corners[slot][(k + twist) % 3]] = CORNER_FACES[cubie][k] as u8;
        }
    }
    for slot in 0..EDGES {
        let (cubie, flip) = (cube.ep[slot] as usize, cube.eo[slot] as usize);
        for k in 0..2 {
            faces[layout.edges[slot][(k + flip) % 2]] = EDGE_FACES[cubie][k] as u8;
        }
    }
    faces
}

/// Stickers given in any order: a net of colours, or not a cube.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum StickerError {
    /// Not a net at all.
    #[error(transparent)]
    Net(#[from] NetError),
    /// Not in face letters with the centres in place (where face letters are required).
    #[error("{0}")]
    Letters(String),
    /// A net, but no solvable cube.
    #[error(transparent)]
    Unsolvable(#[from] Unsolvable),
}

/// Parses a 54-character facelet string (URFDLB faces, each row by row as seen from
/// outside). Any six colours are accepted; each face's centre names its colour.
pub fn parse_facelets(text: &str) -> Result<Cube, StickerError> {
    let chars: Vec<char> = text.chars().collect();
    let stickers: [char; STICKERS] = chars
        .as_slice()
        .try_into()
        .map_err(|_| NetError::StickerCount(chars.len()))?;
    let faces = faces_of_colours(&stickers)?;
    Ok(cube_from_faces(&faces)?)
}

/// Parses a facelet string written in face letters (`U R F D L B`) with every centre in
/// place, as the `kociemba` package requires: another letter, or a face whose centre
/// shows another face's letter, is refused (renaming colours would give another cube).
pub fn parse_face_letters(text: &str) -> Result<Cube, StickerError> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != STICKERS {
        return Err(NetError::StickerCount(chars.len()).into());
    }
    if let Some(bad) = chars.iter().find(|c| !"URFDLB".contains(**c)) {
        return Err(StickerError::Letters(format!(
            "sticker {} is not one of the face letters U R F D L B",
            crate::text::quote(bad.encode_utf8(&mut [0; 4]))
        )));
    }
    for face in Face::ALL {
        let centre = chars[face.index() * 9 + 4];
        if centre != face.letter() {
            return Err(StickerError::Letters(format!(
                "the centre of face {} shows {centre}; face letters need every centre in place",
                face.letter()
            )));
        }
    }
    parse_facelets(text)
}

/// The facelet string of a cube, with face letters as colours.
pub fn facelet_string(cube: &Cube) -> String {
    faces_of_cube(cube)
        .iter()
        .map(|&f| Face::ALL[f as usize].letter())
        .collect()
}

/// ZOJ face order (L F R B U D) as URFDLB indices.
pub const ZOJ_FACES: [Face; 6] = [Face::L, Face::F, Face::R, Face::B, Face::U, Face::D];

/// For each of the 54 tokens of a ZOJ net, in reading order, its facelet index.
pub static ZOJ_ORDER: LazyLock<[usize; STICKERS]> = LazyLock::new(|| {
    let mut order = Vec::with_capacity(STICKERS);
    let at = |face: Face, row: usize, col: usize| face.index() * 9 + row * 3 + col;
    for row in 0..3 {
        for col in 0..3 {
            order.push(at(Face::U, row, col));
        }
    }
    for row in 0..3 {
        for face in [Face::L, Face::F, Face::R, Face::B] {
            for col in 0..3 {
                order.push(at(face, row, col));
            }
        }
    }
    for row in 0..3 {
        for col in 0..3 {
            order.push(at(Face::D, row, col));
        }
    }
    order.try_into().expect("54 positions")
});

/// Writes a cube as a ZOJ net (indented top and bottom), colours given per URFDLB face.
pub fn zoj_net(cube: &Cube, colours: &[char; 6]) -> String {
    let faces = faces_of_cube(cube);
    let token = |k: usize| colours[faces[ZOJ_ORDER[k]] as usize];
    let mut out = String::new();
    let mut k = 0;
    for row in 0..9 {
        let n = if (3..6).contains(&row) { 12 } else { 3 };
        if n == 3 {
            out.push_str("      ");
        }
        let line: Vec<String> = (0..n).map(|j| token(k + j).to_string()).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
        k += n;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::cube::Move;
    use crate::rng::SplitMix64;

    #[test]
    fn layout_is_a_partition_and_corners_run_clockwise() {
        let layout = &*LAYOUT;
        let mut used = vec![0; STICKERS];
        for c in &layout.corners {
            c.iter().for_each(|&i| used[i] += 1);
        }
        for e in &layout.edges {
            e.iter().for_each(|&i| used[i] += 1);
        }
        for face in 0..6 {
            used[face * 9 + 4] += 1;
        }
        assert!(used.iter().all(|&u| u == 1));
        // Clockwise order around a corner means the normals form a left-handed triple.
        for faces in CORNER_FACES {
            let [a, b, c] = faces.map(|f| NORMAL[f.index()]);
            assert_eq!(dot(a, cross(b, c)), -1);
        }
    }

    #[test]
    fn stickers_round_trip() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..300 {
            let moves: Vec<Move> = (0..25)
                .map(|_| Move::from_index(rng.below(18) as usize))
                .collect();
            let cube = Cube::from_moves(&moves);
            let s = facelet_string(&cube);
            assert_eq!(parse_facelets(&s), Ok(cube));
        }
        assert_eq!(
            facelet_string(&Cube::SOLVED),
            "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBB"
        );
    }

    #[test]
    fn front_turn_moves_the_bottom_row_of_u_to_the_left_column_of_r() {
        let f = faces_of_cube(&Cube::from_moves(&[Move::new(Face::F, 1)]));
        let u = Face::U.index() as u8;
        for row in 0..3 {
            assert_eq!(f[Face::R.index() * 9 + row * 3], u);
        }
        // And U's bottom row now shows L.
        for col in 0..3 {
            assert_eq!(f[6 + col], Face::L.index() as u8);
        }
    }

    #[test]
    fn stickers_that_are_no_cube_name_the_rule() {
        let solved = facelet_string(&Cube::SOLVED);
        let swap = |s: &str, i: usize, j: usize| {
            let mut c: Vec<char> = s.chars().collect();
            c.swap(i, j);
            c.into_iter().collect::<String>()
        };
        let layout = &*LAYOUT;
        // Twist one corner in place.
        let [a, b, c] = layout.corners[0];
        let twisted = swap(&swap(&solved, a, b), b, c);
        let err = parse_facelets(&twisted).unwrap_err().to_string();
        assert!(err.contains("twisted corner"), "{err}");
        let [a, b] = layout.edges[0];
        let err = parse_facelets(&swap(&solved, a, b))
            .unwrap_err()
            .to_string();
        assert!(err.contains("flipped edge"), "{err}");
        // Swap two edges (stickers of UR and UF).
        let (e0, e1) = (layout.edges[0], layout.edges[1]);
        let swapped = swap(&swap(&solved, e0[0], e1[0]), e0[1], e1[1]);
        let err = parse_facelets(&swapped).unwrap_err().to_string();
        assert!(err.contains("parity"), "{err}");
        let err = parse_facelets(&swap(&solved, 0, 9))
            .unwrap_err()
            .to_string();
        assert!(err.contains("impossible cubie"), "{err}");
        let mut counts: Vec<char> = solved.chars().collect();
        counts[0] = 'R';
        let err = parse_facelets(&counts.iter().collect::<String>())
            .unwrap_err()
            .to_string();
        assert!(err.contains("sticker counts"), "{err}");
        let err = parse_facelets(&solved[1..]).unwrap_err().to_string();
        assert!(err.contains("54 stickers"), "{err}");
        let mut centres: Vec<char> = solved.chars().collect();
        centres[13] = 'U';
        let err = parse_facelets(&centres.iter().collect::<String>())
            .unwrap_err()
            .to_string();
        assert!(err.contains("centres"), "{err}");
        let mut seven: Vec<char> = solved.chars().collect();
        seven[0] = 'x';
        let err = parse_facelets(&seven.iter().collect::<String>())
            .unwrap_err()
            .to_string();
        assert!(err.contains("7 different colours"), "{err}");
    }
}
