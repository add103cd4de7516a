//! A built-in puzzle's scramble rewritten in the WCA's words, and checked to reach the
//! same state:
//! - 4x4x4: outer-block turns without `Dw`, `Lw`, `Bw` or rotations (each is the front
//!   face's wide turn and a rotation, carried into the turns after it), as TNoodle
//!   writes them; the state is the same up to holding the cube another way;
//! - pyraminx: the tips last, in the order `u l r b` (a tip turn commutes with every
//!   move);
//! - Square-1: `(x,y)` for the layer turns between slashes, `/` for a slash;
//! - random-state megaminx: face turns by the WCA program's names of the faces (`U F L
//!   BL BR R` and their opposites `D B DBR DBL DR DL`, as its drawing names them), powers
//!   in fifths (`R2'`);
//! - FTO: face turns by cubing.js's names of the faces (`U F L R B D BL BR`, as its
//!   drawing names them);
//! - the others as the definition writes them (2x2x2 `U R F`, skewb `R U L B`).

use super::nxn::{self, CubeN};
use super::{Event, EventError};
use crate::puzzles::perm::{Element, PermPuzzle};

/// `text` (a scramble in `puzzle`'s move names, reaching the state drawn) in the
/// event's words, checked to reach the same state.
pub fn in_event_words(event: Event, puzzle: &PermPuzzle, text: &str) -> Result<String, EventError> {
    let bad = |what: &str| EventError::Internal(format!("{} scramble {what}: {text}", event.id()));
    match event {
        Event::Cube4 | Event::Blind4 => {
            let turns = nxn::parse_turns(text, 4).map_err(|e| bad(&e.to_string()))?;
            let written = nxn::without_back_wide_turns(&turns, 4);
            let (mut drawn, mut reached) = (CubeN::solved(4), CubeN::solved(4));
            turns.iter().for_each(|&t| drawn.apply(t));
            written.iter().for_each(|&t| reached.apply(t));
            if !drawn.same_up_to_rotation(&reached) {
                return Err(bad(
                    "rewritten without back wide turns reaches another state",
                ));
            }
            Ok(super::random_moves::format_turns(&written))
        }
        Event::Cube5 | Event::Blind5 => {
            // The plan's words are the WCA's (`R`, `Rw2`, ...): read back as such.
            let turns = nxn::parse_turns(text, 5).map_err(|e| bad(&e.to_string()))?;
            Ok(super::random_moves::format_turns(&turns))
        }
        Event::Pyraminx => {
            let written = tips_last(text);
            same_state(puzzle, text, &written).map_err(|e| bad(&e))?;
            Ok(written)
        }
        Event::Square1 => {
            let written = square1_words(text).map_err(|e| bad(&e))?;
            let back = square1_moves(&written).map_err(|e| bad(&e))?;
            same_state(puzzle, text, &back).map_err(|e| bad(&e))?;
            Ok(written)
        }
        Event::Megaminx | Event::Fto => {
            let map = super::sticker_map(event)?;
            let written = renamed(text, |name| map.move_name(name));
            // The rewritten scramble draws as the state the definition's words reach.
            let state = puzzle.scrambled(text).map_err(|e| bad(&e.to_string()))?;
            let drawn = map.after(&written).map_err(|e| bad(&e.to_string()))?;
            let reached = map
                .of_state(puzzle, &state)
                .map_err(|e| bad(&e.to_string()))?;
            if !map.same_drawing(&drawn, &reached) {
                return Err(bad("renamed draws another state"));
            }
            Ok(written)
        }
        _ => Ok(text.to_string()),
    }
}

/// `text` with each word's move renamed by `name_of` (its power and `'` kept).
fn renamed<'a>(text: &'a str, name_of: impl Fn(&'a str) -> &'a str) -> String {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|word| {
            let base = word.trim_end_matches(|c: char| c == '\'' || c.is_ascii_digit());
            format!("{}{}", name_of(base), &word[base.len()..])
        })
        .collect();
    words.join(" ")
}

/// The scramble's length as the WCA counts it: one per move, a Square-1 `(x,y)` and `/`
/// one each, a pyraminx tip one.
pub fn length(written: &str) -> usize {
    written.split_whitespace().count()
}

/// Whether two texts in `puzzle`'s names reach one state.
fn same_state(puzzle: &PermPuzzle, a: &str, b: &str) -> Result<(), String> {
    let first = puzzle.scrambled(a).map_err(|e| e.to_string())?;
    let second = puzzle.scrambled(b).map_err(|e| e.to_string())?;
    if first == second {
        Ok(())
    } else {
        Err(format!("rewritten as {b:?} reaches another state"))
    }
}

/// Writes a pyraminx scramble (in the definition's move numbers) with its tips last, as
/// [`tips_last`] writes its text. Made once per puzzle: the tip moves found by name and
/// the rewrite proven on the moves themselves ([`tips_last_holds`]), so that writing a
/// scramble neither reads text back nor proves anything again.
pub struct TipsLast {
    /// Per move: the tip (`u l r b` as 0-3) and the thirds it turns, for a tip move.
    tip_of: Vec<Option<(usize, u8)>>,
    /// Per tip and thirds (1 or 2): the move that writes it, where the puzzle has one.
    written_as: [[Option<usize>; 2]; 4],
    /// Whether the rewrite keeps the state of every sequence of the puzzle's moves.
    proven: bool,
}

impl TipsLast {
    /// The writer of `puzzle`'s scrambles.
    pub fn of(puzzle: &PermPuzzle) -> Self {
        let tip_of = puzzle
            .moves
            .iter()
            .map(|m| {
                let tip = "ulrb".find(m.name.chars().next().unwrap_or(' '))?;
                Some((tip, if m.name.ends_with('\'') { 2 } else { 1 }))
            })
            .collect();
        let mut written_as = [[None; 2]; 4];
        for (tip, letter) in "ulrb".chars().enumerate() {
            for (thirds, name) in [letter.to_string(), format!("{letter}'")]
                .iter()
                .enumerate()
            {
                written_as[tip][thirds] = puzzle.moves.iter().position(|m| m.name == *name);
            }
        }
        Self {
            tip_of,
            written_as,
            proven: tips_last_holds(puzzle),
        }
    }

    /// `moves` written with the tips last, each tip's turns merged, in the order u l r b;
    /// checked to reach the same state where the rewrite is not proven.
    pub fn words(&self, puzzle: &PermPuzzle, moves: &[usize]) -> Result<String, EventError> {
        let mut tips = [0u8; 4];
        let mut written: Vec<usize> = Vec::with_capacity(moves.len());
        for &m in moves {
            match self.tip_of.get(m).copied().flatten() {
                Some((tip, thirds)) => tips[tip] = (tips[tip] + thirds) % 3,
                None => written.push(m),
            }
        }
        for (tip, &thirds) in tips.iter().enumerate() {
            if thirds == 0 {
                continue;
            }
            let m = self.written_as[tip][thirds as usize - 1].ok_or_else(|| {
                let letter = &"ulrb"[tip..tip + 1];
                let prime = if thirds == 2 { "'" } else { "" };
                EventError::Internal(format!("pyram: no move \"{letter}{prime}\""))
            })?;
            written.push(m);
        }
        if !self.proven
            && puzzle.apply_path(&puzzle.solved, moves)
                != puzzle.apply_path(&puzzle.solved, &written)
        {
            return Err(EventError::Internal(format!(
                "pyram scramble {}: rewritten with its tips last reaches another state",
                puzzle.format_path(moves)
            )));
        }
        Ok(puzzle.format_path(&written))
    }
}

/// Whether writing the tips last is right for every sequence of `puzzle`'s moves: each
/// tip's turns commute with every move of another letter, and each tip turn is the turn
/// named by the letter alone to the power [`TipsLast`] counts (1, or 2 with `'`), a turn
/// of order 3. Worked out from the moves themselves.
fn tips_last_holds(puzzle: &PermPuzzle) -> bool {
    let sets = &puzzle.sets;
    let letter = |m: &crate::puzzles::perm::puzzle::PuzzleMove| {
        m.name.chars().next().filter(|c| "ulrb".contains(*c))
    };
    let commute = |a: &Element, b: &Element| a.then(b, sets) == b.then(a, sets);
    puzzle.moves.iter().all(|m| {
        let Some(tip) = letter(m) else {
            return true;
        };
        let Some(one) = puzzle.moves.iter().find(|o| o.name == tip.to_string()) else {
            return false;
        };
        let (single, double) = (&one.element, one.element.then(&one.element, sets));
        let power = if m.name.ends_with('\'') {
            &double
        } else {
            single
        };
        m.element == *power
            && double.then(single, sets) == Element::identity(sets)
            && puzzle
                .moves
                .iter()
                .filter(|o| letter(o) != Some(tip))
                .all(|o| commute(&m.element, &o.element))
    })
}

/// The pyraminx tips' turns moved to the end, each tip's merged, in the order u l r b.
pub fn tips_last(text: &str) -> String {
    let mut tips = [0u8; 4];
    let mut words = Vec::new();
    for word in text.split_whitespace() {
        match "ulrb".find(word.chars().next().unwrap_or(' ')) {
            Some(tip) => {
                let thirds = if word.ends_with('\'') { 2 } else { 1 };
                tips[tip] = (tips[tip] + thirds) % 3;
            }
            None => words.push(word.to_string()),
        }
    }
    for (tip, &thirds) in tips.iter().enumerate() {
        let name = &"ulrb"[tip..tip + 1];
        match thirds {
            1 => words.push(name.to_string()),
            2 => words.push(format!("{name}'")),
            _ => {}
        }
    }
    words.join(" ")
}

/// A layer turn of the definition (`U3`, `D5'`) as twelfths of a turn, -5..=6 (positive:
/// the definition's direction).
fn twelfths(word: &str) -> Option<(char, i32)> {
    let mut chars = word.chars();
    let layer = chars.next()?;
    let rest: String = chars.collect();
    let (digits, inverse) = match rest.strip_suffix('\'') {
        Some(d) => (d.to_string(), true),
        None => (rest, false),
    };
    let amount: i32 = if digits.is_empty() {
        1
    } else {
        digits.parse().ok()?
    };
    let signed = if inverse { -amount } else { amount };
    Some((layer, (signed + 5).rem_euclid(12) - 5))
}

/// Square-1 moves (`U3 D' S ...`) in the WCA's words: `(x,y)` for the layer turns before
/// each slash (none when both are 0), `/` for the slash, single spaces.
pub fn square1_words(text: &str) -> Result<String, String> {
    let mut words: Vec<String> = Vec::new();
    let (mut top, mut bottom) = (0i32, 0i32);
    let flush = |words: &mut Vec<String>, top: &mut i32, bottom: &mut i32| {
        let norm = |v: i32| (v + 5).rem_euclid(12) - 5;
        let (t, b) = (norm(*top), norm(*bottom));
        if t != 0 || b != 0 {
            words.push(format!("({t},{b})"));
        }
        *top = 0;
        *bottom = 0;
    };
    for word in text.split_whitespace() {
        if word == "S" || word == "S'" {
            flush(&mut words, &mut top, &mut bottom);
            words.push("/".into());
            continue;
        }
        match twelfths(word) {
            Some(('U', v)) => top += v,
            Some(('D', v)) => bottom += v,
            _ => return Err(format!("{word:?} is not a Square-1 move")),
        }
    }
    flush(&mut words, &mut top, &mut bottom);
    Ok(words.join(" "))
}

/// The WCA's Square-1 words read back as the definition's moves.
pub fn square1_moves(written: &str) -> Result<String, String> {
    let mut moves = Vec::new();
    for word in written.split_whitespace() {
        if word == "/" {
            moves.push("S".to_string());
            continue;
        }
        let inner = word
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(')'))
            .ok_or_else(|| format!("{word:?} is neither (x,y) nor /"))?;
        let (t, b) = inner
            .split_once(',')
            .ok_or_else(|| format!("{word:?} has no comma"))?;
        for (layer, value) in [('U', t), ('D', b)] {
            let v: i32 = value
                .parse()
                .map_err(|_| format!("{word:?}: {value:?} is not a whole number"))?;
            if !(-5..=6).contains(&v) {
                return Err(format!("{word:?}: {v} is outside -5..6"));
            }
            // The definition's power names: `U`, `U2`..`U6`, `U5'`..`U2'`, `U'`.
            match v {
                0 => {}
                1 => moves.push(layer.to_string()),
                -1 => moves.push(format!("{layer}'")),
                v if v > 0 => moves.push(format!("{layer}{v}")),
                v => moves.push(format!("{layer}{}'", -v)),
            }
        }
    }
    Ok(moves.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tips_go_last_merged_in_their_order() {
        assert_eq!(tips_last("b l' r u' R' B R'"), "R' B R' u' l' r b");
        assert_eq!(tips_last("u U u R b'"), "U R u' b'");
        assert_eq!(tips_last("u u u R"), "R");
    }

    /// The tips-last rewrite is proven for the built-in pyraminx, and not where a "tip"
    /// does not commute with the other moves (the tipless pyraminx's `U`, of order 3,
    /// named `u`) or is not of order 3 (the 2x2x2's `U` named `u`).
    #[test]
    fn tips_last_is_proven_only_where_it_holds() {
        use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
        assert!(tips_last_holds(&shipped_puzzle(
            "pyraminx.tws",
            PuzzleMetric::Htm
        )));
        for file in ["pyraminx-no-tips.tws", "2x2x2.tws"] {
            let mut puzzle = shipped_puzzle(file, PuzzleMetric::Htm);
            assert!(
                tips_last_holds(&puzzle),
                "{file}: no tips, nothing to disprove"
            );
            for m in &mut puzzle.moves {
                m.name = m.name.replace('U', "u");
            }
            assert!(!tips_last_holds(&puzzle), "{file}");
        }
    }

    /// The move-number rewrite writes what the text rewrite writes, on random sequences
    /// of the built-in pyraminx's moves (tips anywhere, any number of them).
    #[test]
    fn tips_last_words_equal_the_text_rewrite() {
        use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
        let puzzle = shipped_puzzle("pyraminx.tws", PuzzleMetric::Htm);
        let writer = TipsLast::of(&puzzle);
        let mut rng = crate::rng::SplitMix64::new(5);
        let moves = puzzle.moves.len() as u64;
        for length in 0..200 {
            let path: Vec<usize> = (0..length % 25)
                .map(|_| rng.below(moves) as usize)
                .collect();
            let words = writer.words(&puzzle, &path).expect("same state");
            assert_eq!(words, tips_last(&puzzle.format_path(&path)), "{path:?}");
        }
    }

    /// A random-state megaminx scramble is written by the WCA program's face names: each
    /// word is one of them with its power, and the words draw the state the
    /// definition's words reach (checked again here, on random texts).
    #[test]
    fn megaminx_scrambles_are_written_by_the_wca_face_names() {
        use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
        let puzzle = shipped_puzzle("megaminx.tws", PuzzleMetric::Htm);
        let map = super::super::sticker_map(Event::Megaminx).expect("map");
        let faces = [
            "U", "F", "L", "BL", "BR", "R", "D", "B", "DBR", "DBL", "DR", "DL",
        ];
        let mut rng = crate::rng::SplitMix64::new(4);
        for _ in 0..20 {
            let words: Vec<String> = (0..30)
                .map(|_| {
                    let (name, _) = &puzzle.bases[rng.below(12) as usize];
                    let power = ["", "2", "2'", "'"][rng.below(4) as usize];
                    format!("{name}{power}")
                })
                .collect();
            let text = words.join(" ");
            let written = in_event_words(Event::Megaminx, &puzzle, &text).expect("written");
            for (word, original) in written.split_whitespace().zip(&words) {
                let base = word.trim_end_matches(['2', '\'']);
                assert!(faces.contains(&base), "{word} in {written}");
                assert_eq!(
                    &word[base.len()..],
                    original.trim_start_matches(char::is_alphabetic)
                );
            }
            let state = puzzle.scrambled(&text).unwrap();
            let drawn = map.after(&written).unwrap();
            assert!(map.same_drawing(&drawn, &map.of_state(&puzzle, &state).unwrap()));
        }
        // Renaming is a change: the definition's `R` is another face than the WCA's.
        assert_ne!(map.move_name("R"), "R");
    }

    /// An FTO scramble is written by cubing.js's face names, and draws the state the
    /// definition's words reach.
    #[test]
    fn fto_scrambles_are_written_by_cubing_js_face_names() {
        use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let map = super::super::sticker_map(Event::Fto).expect("map");
        let faces = ["U", "F", "L", "R", "B", "D", "BL", "BR"];
        let mut rng = crate::rng::SplitMix64::new(6);
        for _ in 0..20 {
            let words: Vec<String> = (0..30)
                .map(|_| {
                    let (name, _) = &puzzle.bases[rng.below(8) as usize];
                    format!("{name}{}", ["", "'"][rng.below(2) as usize])
                })
                .collect();
            let text = words.join(" ");
            let written = in_event_words(Event::Fto, &puzzle, &text).expect("written");
            for word in written.split_whitespace() {
                assert!(faces.contains(&word.trim_end_matches('\'')), "{word}");
            }
            let state = puzzle.scrambled(&text).unwrap();
            let drawn = map.after(&written).unwrap();
            assert!(map.same_drawing(&drawn, &map.of_state(&puzzle, &state).unwrap()));
        }
    }

    #[test]
    fn square1_words_merge_layer_turns_between_slashes() {
        assert_eq!(
            square1_words("U3 D' S D U4 S D3' S U6").expect("moves"),
            "(3,-1) / (4,1) / (0,-3) / (6,0)"
        );
        assert_eq!(square1_words("S U2' S").expect("moves"), "/ (-2,0) /");
        assert_eq!(square1_words("U7 D6").expect("moves"), "(-5,6)");
        assert_eq!(
            square1_moves("/ (-2,0) / (3,-1)").expect("words"),
            "S U2' S U3 D'"
        );
        assert!(square1_moves("(7,0)").is_err());
        assert!(square1_moves("(1;0)").is_err());
    }
}
