//! Pictures of the puzzles cut from their geometry (pyraminx, skewb, FTO, megaminx), from
//! the sticker maps `puzzles/generate.py` writes beside their definitions
//! (`puzzles/*.picture`): each sticker a polygon of the drawing, the slot and position of
//! the definition's piece it shows, and each move as a permutation of the stickers.
//!
//! A scramble is drawn by permuting the stickers move by move, so moves the definition
//! does not have (the megaminx's Pochmann `R++`, which turns the centres too) are drawn
//! as well; a state of the definition is drawn from its pieces. The two agree, which is
//! what the tests check.

use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::PermPuzzle;
use std::collections::HashMap;

/// Why a sticker map or a scramble cannot be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PictureError {
    /// A line of a sticker map that breaks the format.
    #[error("{name}.picture line {line}: {rule}")]
    Map {
        /// The picture's name.
        name: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        rule: String,
    },
    /// A word of a scramble that names no move of the picture.
    #[error("unknown move {word:?} in a {name} scramble: the moves are {known}")]
    UnknownMove {
        /// The picture's name.
        name: String,
        /// The word.
        word: String,
        /// The moves the picture knows.
        known: String,
    },
    /// A state whose sets do not match the sticker map's.
    #[error("the {name} picture cannot show this state: {rule}")]
    State {
        /// The picture's name.
        name: String,
        /// What does not match.
        rule: String,
    },
}

/// Where a sticker sits on the definition's pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Place {
    set: String,
    /// Slot, from 0.
    slot: usize,
    /// Position around the piece, from 0.
    position: usize,
}

/// One sticker: its colour when solved, its piece (none: a piece that never moves), its
/// outline on the drawing.
#[derive(Debug, Clone)]
struct Sticker {
    colour: String,
    place: Option<Place>,
    points: Vec<(f32, f32)>,
}

/// A puzzle's sticker map.
#[derive(Debug, Clone)]
pub struct StickerPicture {
    name: String,
    width: f32,
    height: f32,
    stickers: Vec<Sticker>,
    /// Per set without orientations: for the piece at home in each slot, the twist it
    /// shows in each slot.
    twists: HashMap<String, Vec<Vec<usize>>>,
    /// Per move: the sticker each sticker shows after it.
    moves: HashMap<String, Vec<usize>>,
    /// Move names in file order (for messages).
    order: Vec<String>,
    /// The picture's name of each definition move it names otherwise (the megaminx's
    /// faces go by the WCA program's names).
    names: HashMap<String, String>,
}

impl StickerPicture {
    /// Reads a sticker map (`name` for messages).
    pub fn parse(name: &str, text: &str) -> Result<Self, PictureError> {
        let mut picture = StickerPicture {
            name: name.to_string(),
            width: 0.0,
            height: 0.0,
            stickers: Vec::new(),
            twists: HashMap::new(),
            moves: HashMap::new(),
            order: Vec::new(),
            names: HashMap::new(),
        };
        let mut raw_moves = Vec::new();
        let mut name_lines: Vec<(usize, String)> = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let bad = |rule: &str| PictureError::Map {
                name: name.to_string(),
                line: i + 1,
                rule: rule.to_string(),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.as_slice() {
                [] => {}
                [first, ..] if first.starts_with('#') => {}
                ["Picture", _] => {}
                ["Size", w, h] => {
                    picture.width = w.parse().map_err(|_| bad("a width in pixels"))?;
                    picture.height = h.parse().map_err(|_| bad("a height in pixels"))?;
                }
                ["Sticker", colour, rest @ ..] => {
                    let (place, points) = match rest {
                        ["-", points @ ..] => (None, points),
                        [set, slot, position, points @ ..] => {
                            let slot: usize = slot
                                .parse()
                                .ok()
                                .filter(|&s| s >= 1)
                                .ok_or_else(|| bad("a slot counts from 1"))?;
                            let position = position
                                .parse()
                                .map_err(|_| bad("a position counts from 0"))?;
                            let set = set.to_string();
                            (
                                Some(Place {
                                    set,
                                    slot: slot - 1,
                                    position,
                                }),
                                points,
                            )
                        }
                        _ => return Err(bad("Sticker COLOUR SET SLOT POSITION X,Y ...")),
                    };
                    let points = points
                        .iter()
                        .map(|p| {
                            let (x, y) = p.split_once(',')?;
                            Some((x.parse().ok()?, y.parse().ok()?))
                        })
                        .collect::<Option<Vec<(f32, f32)>>>()
                        .ok_or_else(|| bad("points are X,Y pairs of numbers"))?;
                    if points.len() < 3 {
                        return Err(bad("a sticker has at least 3 points"));
                    }
                    picture.stickers.push(Sticker {
                        colour: colour.to_string(),
                        place,
                        points,
                    });
                }
                ["Twist", set, _home, twists @ ..] => {
                    let twists = twists
                        .iter()
                        .map(|t| t.parse::<usize>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| bad("twists are numbers"))?;
                    picture
                        .twists
                        .entry(set.to_string())
                        .or_default()
                        .push(twists);
                }
                ["Name", definition, drawn] => {
                    if picture
                        .names
                        .insert(definition.to_string(), drawn.to_string())
                        .is_some()
                    {
                        return Err(bad("a definition move is named once"));
                    }
                    name_lines.push((i + 1, drawn.to_string()));
                }
                ["Move", move_name, sources @ ..] => {
                    let sources = sources
                        .iter()
                        .map(|s| s.parse::<usize>())
                        .collect::<Result<Vec<_>, _>>()
                        .map_err(|_| bad("a move lists sticker numbers"))?;
                    raw_moves.push((i + 1, move_name.to_string(), sources));
                }
                _ => return Err(bad("a line is Picture, Size, Sticker, Twist, Name or Move")),
            }
        }
        let count = picture.stickers.len();
        for (k, (line, drawn)) in name_lines.iter().enumerate() {
            let taken = name_lines[..k].iter().any(|(_, other)| other == drawn);
            if taken || !raw_moves.iter().any(|(_, m, _)| m == drawn) {
                return Err(PictureError::Map {
                    name: name.to_string(),
                    line: *line,
                    rule: "each Name gives a different move of the picture".into(),
                });
            }
        }
        for (line, move_name, sources) in raw_moves {
            let mut seen = vec![false; count];
            for &s in &sources {
                if s >= count || std::mem::replace(&mut seen[s], true) {
                    break;
                }
            }
            if sources.len() != count || seen.iter().any(|&s| !s) {
                return Err(PictureError::Map {
                    name: name.to_string(),
                    line,
                    rule: format!("a move is a permutation of the {count} stickers"),
                });
            }
            picture.order.push(move_name.clone());
            picture.moves.insert(move_name, sources);
        }
        Ok(picture)
    }

    /// The stickers' colours after `scramble` from solved: the sticker whose solved
    /// colour each sticker shows. A word is a move of the map, with a power (`U2`), `'`
    /// for its inverse, or `--` for the inverse of a `++` move.
    pub fn after(&self, scramble: &str) -> Result<Vec<usize>, PictureError> {
        let mut shown: Vec<usize> = (0..self.stickers.len()).collect();
        let mut next = shown.clone();
        for word in scramble.split_whitespace() {
            let (sources, inverse, power) = self.parse_word(word)?;
            for _ in 0..power {
                for (i, &s) in sources.iter().enumerate() {
                    if inverse {
                        next[s] = shown[i];
                    } else {
                        next[i] = shown[s];
                    }
                }
                std::mem::swap(&mut shown, &mut next);
            }
        }
        Ok(shown)
    }

    /// A scramble word as a move, whether inverted, and its power.
    fn parse_word(&self, word: &str) -> Result<(&[usize], bool, usize), PictureError> {
        if let Some(m) = self.moves.get(word) {
            return Ok((m, false, 1));
        }
        let unknown = || PictureError::UnknownMove {
            name: self.name.clone(),
            word: word.to_string(),
            known: self.order.join(" "),
        };
        if let Some(base) = word.strip_suffix("--") {
            let m = self.moves.get(&format!("{base}++")).ok_or_else(unknown)?;
            return Ok((m, true, 1));
        }
        let (rest, inverse) = match word.strip_suffix('\'') {
            Some(rest) => (rest, true),
            None => (word, false),
        };
        let digits = rest.len() - rest.trim_end_matches(|c: char| c.is_ascii_digit()).len();
        let (base, power) = rest.split_at(rest.len() - digits);
        let power = if power.is_empty() {
            1
        } else {
            power
                .parse()
                .ok()
                .filter(|&p| p <= 12)
                .ok_or_else(unknown)?
        };
        let m = self.moves.get(base).ok_or_else(unknown)?;
        Ok((m, inverse, power))
    }

    /// The picture's name of the definition's move `definition` (the same name unless a
    /// `Name` line gives another).
    pub fn move_name<'a>(&'a self, definition: &'a str) -> &'a str {
        self.names
            .get(definition)
            .map_or(definition, String::as_str)
    }

    /// The stickers' colours in `state`, a state of `puzzle` (the definition the map
    /// was written beside): the sticker whose solved colour each sticker shows.
    pub fn of_state(
        &self,
        puzzle: &PermPuzzle,
        state: &Element,
    ) -> Result<Vec<usize>, PictureError> {
        let bad = |rule: String| PictureError::State {
            name: self.name.clone(),
            rule,
        };
        let set_index: HashMap<&str, usize> = puzzle
            .sets
            .iter()
            .enumerate()
            .map(|(i, s)| (s.name.as_str(), i))
            .collect();
        // The sticker of each (set, home label, position) when solved, and each piece's
        // number of stickers.
        let mut home: HashMap<(usize, u8, usize), usize> = HashMap::new();
        let mut size: HashMap<(usize, usize), usize> = HashMap::new();
        for (i, sticker) in self.stickers.iter().enumerate() {
            if let Some(place) = &sticker.place {
                let set = *set_index
                    .get(place.set.as_str())
                    .ok_or_else(|| bad(format!("the puzzle has no set {}", place.set)))?;
                let label = *puzzle.solved.orbits[set]
                    .perm
                    .get(place.slot)
                    .ok_or_else(|| bad(format!("{} has no slot {}", place.set, place.slot + 1)))?;
                home.entry((set, label, place.position)).or_insert(i);
                *size.entry((set, place.slot)).or_insert(0) += 1;
            }
        }
        self.stickers
            .iter()
            .enumerate()
            .map(|(i, sticker)| {
                let Some(place) = &sticker.place else {
                    return Ok(i);
                };
                let set = set_index[place.set.as_str()];
                let orbit = &state.orbits[set];
                let label = orbit.perm[place.slot];
                let k = size[&(set, place.slot)];
                let twist = match self.twists.get(&place.set) {
                    Some(table) => {
                        // The piece's twist in this slot is fixed by where its home is.
                        let home_slot = puzzle.solved.orbits[set]
                            .perm
                            .iter()
                            .position(|&l| l == label)
                            .ok_or_else(|| bad(format!("no piece {label} in {}", place.set)))?;
                        table
                            .get(home_slot)
                            .and_then(|row| row.get(place.slot))
                            .copied()
                            .ok_or_else(|| {
                                bad(format!("no twist of {} {}", place.set, home_slot + 1))
                            })?
                    }
                    None => orbit.ori[place.slot] as usize,
                };
                let own = (place.position + k - twist % k) % k;
                home.get(&(set, label, own)).copied().ok_or_else(|| {
                    bad(format!(
                        "no sticker {own} of piece {label} in {}",
                        place.set
                    ))
                })
            })
            .collect()
    }

    /// The drawing as one line of SVG, each sticker in the solved colour of the sticker
    /// `shown` names for it.
    pub fn svg(&self, shown: &[usize]) -> String {
        let (w, h) = (self.width, self.height);
        let mut out = format!(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" \
             viewBox=\"0 0 {w} {h}\">"
        );
        for (sticker, &from) in self.stickers.iter().zip(shown) {
            let points: Vec<(f64, f64)> = sticker
                .points
                .iter()
                .map(|&(x, y)| (f64::from(x), f64::from(y)))
                .collect();
            super::picture::polygon(&mut out, &points, &self.stickers[from].colour);
        }
        out.push_str("</svg>");
        out
    }

    /// The number of stickers.
    pub fn len(&self) -> usize {
        self.stickers.len()
    }

    /// Whether the map has no stickers.
    pub fn is_empty(&self) -> bool {
        self.stickers.is_empty()
    }

    /// Each sticker's colour when solved.
    pub fn colours(&self) -> impl Iterator<Item = &str> {
        self.stickers.iter().map(|s| s.colour.as_str())
    }

    /// Whether two drawings (see [`StickerPicture::after`]) show the same colours
    /// everywhere (identical pieces make different but equal drawings).
    pub fn same_drawing(&self, a: &[usize], b: &[usize]) -> bool {
        a.len() == b.len()
            && a.iter()
                .zip(b)
                .all(|(&x, &y)| self.stickers[x].colour == self.stickers[y].colour)
    }
}

#[cfg(test)]
mod tests {
    use super::super::builtin;
    use super::*;
    use crate::puzzles::perm::{Definition, PuzzleMetric};

    /// The colours a drawing shows (identical pieces make different but equal drawings).
    fn shown(map: &StickerPicture, from: Vec<usize>) -> Vec<String> {
        from.iter()
            .map(|&i| map.stickers[i].colour.clone())
            .collect()
    }

    /// Each sticker map with the definition it was written beside.
    fn maps() -> Vec<(StickerPicture, PermPuzzle)> {
        [
            ("pyraminx", builtin::PYRAMINX_PICTURE, builtin::PYRAMINX),
            ("skewb-fixed", builtin::SKEWB_PICTURE, builtin::SKEWB),
            ("fto", builtin::FTO_PICTURE, builtin::FTO),
            ("megaminx", builtin::MEGAMINX_PICTURE, builtin::MEGAMINX),
        ]
        .into_iter()
        .map(|(name, picture, definition)| {
            let definition = Definition::parse(definition).expect("definition");
            (
                StickerPicture::parse(name, picture).expect("picture"),
                PermPuzzle::new(&definition, PuzzleMetric::Htm).expect("puzzle"),
            )
        })
        .collect()
    }

    #[test]
    fn every_move_draws_as_the_definition_moves_the_pieces() {
        for (map, puzzle) in maps() {
            let solved: Vec<usize> = (0..map.len()).collect();
            assert_eq!(
                shown(&map, map.of_state(&puzzle, &puzzle.solved).unwrap()),
                shown(&map, solved.clone())
            );
            assert_eq!(map.after("").unwrap(), solved);
            for (name, _) in &puzzle.bases {
                let state = puzzle.scrambled(name).unwrap();
                let drawn = map.move_name(name);
                assert_eq!(
                    shown(&map, map.after(drawn).unwrap()),
                    shown(&map, map.of_state(&puzzle, &state).unwrap()),
                    "{} {name} (drawn as {drawn})",
                    map.name
                );
                // A move changes the drawing, and its inverse undoes it.
                assert_ne!(map.after(drawn).unwrap(), solved, "{name}");
                assert_eq!(map.after(&format!("{drawn} {drawn}'")).unwrap(), solved);
            }
        }
    }

    #[test]
    fn long_sequences_draw_as_their_states() {
        for (map, puzzle) in maps() {
            let mut rng = crate::rng::SplitMix64::new(9);
            for _ in 0..20 {
                let words: Vec<(&str, &str)> = (0..40)
                    .map(|_| {
                        let (name, _) =
                            &puzzle.bases[rng.below(puzzle.bases.len() as u64) as usize];
                        (name.as_str(), if rng.below(2) == 0 { "" } else { "'" })
                    })
                    .collect();
                let written = |name_of: &dyn Fn(&str) -> String| {
                    let words: Vec<String> = words
                        .iter()
                        .map(|(n, s)| format!("{}{s}", name_of(n)))
                        .collect();
                    words.join(" ")
                };
                let text = written(&|n| n.to_string());
                let drawn = written(&|n| map.move_name(n).to_string());
                let state = puzzle.scrambled(&text).unwrap();
                assert_eq!(
                    shown(&map, map.after(&drawn).unwrap()),
                    shown(&map, map.of_state(&puzzle, &state).unwrap()),
                    "{}: {text}",
                    map.name
                );
            }
        }
    }

    /// The megaminx's faces go by the WCA program's names, as its Pochmann turns and its
    /// colours place them: `R++` turns all but L (purple), `D++` all but U (white), and
    /// `U` (clockwise from above) brings F's stickers (green) to L, L's to BL (yellow),
    /// BL's to BR (blue), BR's to R (red) and R's to F. A mirrored or shifted naming
    /// fails one of these.
    #[test]
    fn the_megaminx_faces_go_by_the_wca_programs_names() {
        let (map, puzzle) = maps().pop().expect("megaminx");
        let colour = |i: usize| map.stickers[i].colour.as_str();
        let (white, green, purple, yellow, blue, red) = (
            "#ffffff", "#006600", "#8a1aff", "#ffcc00", "#0000b3", "#dd0000",
        );
        for (turn, still) in [("R++", purple), ("D++", white)] {
            let after = map.after(turn).unwrap();
            for (i, &from) in after.iter().enumerate() {
                if colour(i) == still {
                    assert_eq!(from, i, "{turn} moves a sticker of the face it keeps");
                }
            }
        }
        let after = map.after("U").unwrap();
        let ring = [green, purple, yellow, blue, red];
        for (k, &face) in ring.iter().enumerate() {
            let receiving: Vec<usize> = (0..map.len())
                .filter(|&i| colour(i) == face && after[i] != i)
                .collect();
            assert_eq!(receiving.len(), 3, "U moves three stickers of {face}");
            for i in receiving {
                assert_eq!(colour(after[i]), ring[(k + 4) % 5], "{face} after U");
            }
        }
        // Every face of the definition is named, each by a different name.
        let mut names: Vec<&str> = puzzle.bases.iter().map(|(n, _)| map.move_name(n)).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            ["B", "BL", "BR", "D", "DBL", "DBR", "DL", "DR", "F", "L", "R", "U"]
        );
    }

    /// The FTO's faces go by cubing.js's names and colours (U white, F green, R red, D
    /// yellow, B blue, L purple, BL orange, BR grey): a face's turn moves stickers of
    /// every face but the one opposite it (U and D, F and B, L and BR, R and BL).
    #[test]
    fn the_fto_faces_go_by_cubing_js_names() {
        let (map, puzzle) = maps().remove(2);
        assert_eq!(map.name, "fto");
        let colour_of = |face: &str| match face {
            "U" => "#ffffff",
            "F" => "#00d800",
            "R" => "#ff0000",
            "D" => "#ffff00",
            "B" => "#0000ff",
            "L" => "#8a1aff",
            "BL" => "#ff8000",
            _ => "#999999",
        };
        let opposite = [("U", "D"), ("F", "B"), ("L", "BR"), ("R", "BL")];
        for (a, b) in opposite.iter().flat_map(|&(a, b)| [(a, b), (b, a)]) {
            let after = map.after(a).unwrap();
            for other in ["U", "F", "R", "D", "B", "L", "BL", "BR"] {
                let moved = (0..map.len())
                    .filter(|&i| map.stickers[i].colour == colour_of(other) && after[i] != i)
                    .count();
                assert_eq!(moved == 0, other == b, "{a} and the stickers of {other}");
            }
        }
        let mut names: Vec<&str> = puzzle.bases.iter().map(|(n, _)| map.move_name(n)).collect();
        names.sort_unstable();
        assert_eq!(names, ["B", "BL", "BR", "D", "F", "L", "R", "U"]);
    }

    #[test]
    fn pochmann_turns_move_the_megaminx_centres_and_have_order_five() {
        let (map, _) = maps().pop().expect("megaminx");
        let solved: Vec<usize> = (0..map.len()).collect();
        for turn in ["R++", "D++"] {
            let once = map.after(turn).unwrap();
            let fixed = map.stickers.iter().filter(|s| s.place.is_none());
            // The centres (pieces the face turns never move) move: all but one face's.
            let moved = fixed
                .clone()
                .zip(
                    once.iter()
                        .zip(0..)
                        .filter(|(_, i)| map.stickers[*i].place.is_none()),
                )
                .filter(|(_, (&from, i))| from != *i)
                .count();
            assert_eq!(fixed.count(), 12);
            assert_eq!(moved, 10, "{turn}");
            let base = turn.trim_end_matches('+');
            assert_eq!(map.after(&format!("{turn} {base}--")).unwrap(), solved);
            assert_eq!(map.after(&[turn; 5].join(" ")).unwrap(), solved);
            assert_ne!(map.after(&[turn; 4].join(" ")).unwrap(), solved);
        }
    }

    #[test]
    fn bad_maps_and_words_are_named() {
        let err = StickerPicture::parse("x", "Size 10 10\nSticker #fff - 0,0 1,1\n").unwrap_err();
        assert!(err.to_string().contains("x.picture line 2"), "{err}");
        let err = StickerPicture::parse(
            "x",
            "Sticker #fff - 0,0 1,1 1,0\nSticker #000 - 0,0 1,1 1,0\nMove A 0 0\n",
        )
        .unwrap_err();
        assert!(
            err.to_string().contains("permutation of the 2 stickers"),
            "{err}"
        );
        // A Name must give a move of the picture, and a different one each time.
        let two = "Sticker #fff - 0,0 1,1 1,0\nSticker #000 - 0,0 1,1 1,0\nMove A 1 0\n";
        for (names, line) in [("Name P B\n", 1), ("Name P A\nName Q A\n", 2)] {
            let err = StickerPicture::parse("x", &format!("{names}{two}")).unwrap_err();
            assert!(
                err.to_string()
                    .contains(&format!("x.picture line {line}: each Name")),
                "{err}"
            );
        }
        let (map, _) = maps().remove(0);
        let err = map.after("U x").unwrap_err();
        assert!(err.to_string().contains("unknown move \"x\""), "{err}");
    }
}
