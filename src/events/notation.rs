//! The shape of a scramble in the WCA's notation (Article 12 of its regulations, as the
//! WCA's program prints it), per event: which words may appear, in what order, how many.
//! A check of the text alone, for any program's scrambles; whether a scramble reaches
//! the state it was made for is checked by the models ([`super::nxn`], the built-in
//! definitions).

use super::nxn::Turn;
use super::Event;

/// Why a scramble does not have its event's shape.
pub type ShapeError = String;

/// Checks that `text` is shaped as `event`'s scrambles are.
pub fn check(event: Event, text: &str) -> Result<(), ShapeError> {
    let words: Vec<&str> = text.split(' ').collect();
    if event != Event::Megaminx && (text.is_empty() || words.iter().any(|w| w.is_empty())) {
        return Err("words must be separated by single spaces, with none at either end".into());
    }
    match event {
        Event::Cube2 => cube_words(&words, 2, &["R", "U", "F"]),
        Event::Cube3 | Event::OneHanded => cube_words(&words, 3, &["R", "U", "F", "L", "D", "B"]),
        Event::Blind3 | Event::MultiBlind => {
            let (body, tail) = split_orientation(&words, |w| {
                w.starts_with(['R', 'F', 'U']) && w.contains('w')
            });
            cube_words(body, 3, &["R", "U", "F", "L", "D", "B"])?;
            orientation(tail, &["Rw", "Fw"], "Uw")
        }
        Event::FewestMoves => {
            let n = words.len();
            if n < 6 || words[..3] != ["R'", "U'", "F"] || words[n - 3..] != ["R'", "U'", "F"] {
                return Err("a fewest-moves scramble starts and ends with R' U' F".into());
            }
            cube_words(&words[3..n - 3], 3, &["R", "U", "F", "L", "D", "B"])?;
            if words[3].starts_with(['F', 'B']) || words[n - 4].starts_with(['R', 'L']) {
                return Err("the scramble between the frames cancels with them".into());
            }
            Ok(())
        }
        Event::Cube4 => cube_words(&words, 4, &["R", "U", "F", "L", "D", "B", "Rw", "Uw", "Fw"]),
        Event::Blind4 => {
            let (body, tail) = split_orientation(&words, |w| w.starts_with(['x', 'y', 'z']));
            cube_words(body, 4, &["R", "U", "F", "L", "D", "B", "Rw", "Uw", "Fw"])?;
            orientation(tail, &["x", "z"], "y")
        }
        Event::Cube5 => random_cube(&words, 5, 60),
        Event::Blind5 => {
            let (body, tail) = split_orientation(&words, |w| w.starts_with("3"));
            if !(59..=60).contains(&body.len()) {
                return Err(format!(
                    "{} turns before the orientation, not 59 or 60",
                    body.len()
                ));
            }
            cube_words(body, 5, &FIVE)?;
            orientation(tail, &["3Rw", "3Fw"], "3Uw")
        }
        Event::Cube6 => random_cube(&words, 6, 80),
        Event::Cube7 => random_cube(&words, 7, 100),
        Event::Clock => clock(&words),
        Event::Megaminx => megaminx(text),
        Event::Pyraminx => pyraminx(&words),
        Event::Skewb => plain(&words, &["R", "U", "L", "B"], 3),
        Event::Square1 => square1(&words),
        // cubing.js's names of the faces.
        Event::Fto => plain(&words, &["U", "F", "L", "R", "B", "D", "BL", "BR"], 3),
    }
}

/// A random-state 5x5x5 scramble (`--random-state`): the random-move scrambles' words,
/// as long as the solution they invert; every other event as [`check`] does.
pub fn check_random_state(event: Event, text: &str) -> Result<(), ShapeError> {
    let words: Vec<&str> = text.split(' ').collect();
    if text.is_empty() || words.iter().any(|w| w.is_empty()) {
        return Err("words must be separated by single spaces, with none at either end".into());
    }
    match event {
        Event::Cube5 => cube_words(&words, 5, &FIVE),
        Event::Blind5 => {
            let (body, tail) = split_orientation(&words, |w| w.starts_with("3"));
            cube_words(body, 5, &FIVE)?;
            orientation(tail, &["3Rw", "3Fw"], "3Uw")
        }
        _ => check(event, text),
    }
}

/// The 5x5x5's random-move turns: every face at one and two layers.
const FIVE: [&str; 12] = [
    "R", "U", "F", "L", "D", "B", "Rw", "Uw", "Fw", "Lw", "Dw", "Bw",
];

/// Words of an `n`-layer cube, each one of `allowed` with `''`, `2` or `'`; no turn
/// follows one of its face and width with only turns of its axis between.
fn cube_words(words: &[&str], n: usize, allowed: &[&str]) -> Result<(), ShapeError> {
    // Stems compared as numbers (`3Rw`: a few bytes), not string by string.
    let allowed_stems: Vec<u64> = allowed.iter().filter_map(|a| short_word(a)).collect();
    let mut turns: Vec<Turn> = Vec::with_capacity(words.len());
    for (i, word) in words.iter().enumerate() {
        // The word without its trailing `2`s and `'`s (bytes: both are ASCII).
        let stem = &word[..word
            .bytes()
            .rposition(|b| b != b'2' && b != b'\'')
            .map_or(0, |at| at + 1)];
        let listed = match short_word(stem) {
            Some(number) => allowed_stems.contains(&number),
            None => allowed.contains(&stem),
        };
        let turn = Turn::parse(word, n).filter(|t| !t.rotation && listed);
        let Some(turn) = turn else {
            return Err(format!(
                "word {} ({word:?}) is not one of {}",
                i + 1,
                allowed.join(" ")
            ));
        };
        for earlier in turns.iter().rev() {
            if earlier.face % 3 != turn.face % 3 {
                break;
            }
            if earlier.face == turn.face && earlier.layers == turn.layers {
                return Err(format!(
                    "word {} ({word:?}) merges with an earlier turn",
                    i + 1
                ));
            }
        }
        turns.push(turn);
    }
    Ok(())
}

/// A word of at most 7 bytes as a number (its length, then its bytes), so that two such
/// words are equal exactly when their numbers are; `None` for a longer word.
fn short_word(word: &str) -> Option<u64> {
    let bytes = word.as_bytes();
    (bytes.len() <= 7).then(|| {
        bytes
            .iter()
            .fold(bytes.len() as u64, |acc, &b| acc << 8 | u64::from(b))
    })
}

/// A random-move cube scramble: `length` turns of the cube's move set.
fn random_cube(words: &[&str], n: usize, length: usize) -> Result<(), ShapeError> {
    if words.len() != length {
        return Err(format!("{} turns, not {length}", words.len()));
    }
    let extra: &[&str] = match n {
        6 => &["3Rw", "3Uw", "3Fw"],
        7 => &["3Rw", "3Uw", "3Fw", "3Lw", "3Dw", "3Bw"],
        _ => &[],
    };
    let mut names = [""; FIVE.len() + 6];
    for (slot, name) in names.iter_mut().zip(FIVE.iter().chain(extra)) {
        *slot = name;
    }
    let allowed = &names[..FIVE.len() + extra.len()];
    cube_words(words, n, allowed)
}

/// The words after the last one that `is_turn` does not take: the orientation.
fn split_orientation<'a>(
    words: &'a [&'a str],
    is_orientation: impl Fn(&str) -> bool,
) -> (&'a [&'a str], &'a [&'a str]) {
    let mut at = words.len();
    while at > 0 && words.len() - at < 2 && is_orientation(words[at - 1]) {
        at -= 1;
    }
    words.split_at(at)
}

/// An orientation: at most one of `first` (with `''`, `2`, `'`; the F-axis one only odd)
/// then at most one `second`.
fn orientation(tail: &[&str], first: &[&str], second: &str) -> Result<(), ShapeError> {
    let mut rest = tail;
    if let Some(word) = rest.first() {
        // The word without its trailing `2`s and `'`s (bytes: both are ASCII).
        let stem = &word[..word
            .bytes()
            .rposition(|b| b != b'2' && b != b'\'')
            .map_or(0, |at| at + 1)];
        if first.contains(&stem) {
            if stem == first[1] && word.ends_with('2') {
                return Err(format!(
                    "orientation {word:?}: a half turn about F is not used"
                ));
            }
            rest = &rest[1..];
        }
    }
    match rest {
        [] => Ok(()),
        [word] if word.trim_end_matches(['2', '\'']) == second => Ok(()),
        _ => Err(format!(
            "orientation {:?} is not one of the 24",
            tail.join(" ")
        )),
    }
}

/// Words each one of `names` with `''` or `'`, no two of one name in a row; at least
/// `min` of them.
fn plain(words: &[&str], names: &[&str], min: usize) -> Result<(), ShapeError> {
    if words.len() < min {
        return Err(format!("{} moves, fewer than {min}", words.len()));
    }
    let mut last = "";
    for (i, word) in words.iter().enumerate() {
        let stem = word.strip_suffix('\'').unwrap_or(word);
        if !names.contains(&stem) {
            return Err(format!(
                "word {} ({word:?}) is not one of {}",
                i + 1,
                names.join(" ")
            ));
        }
        if stem == last {
            return Err(format!(
                "word {} ({word:?}) repeats the move before it",
                i + 1
            ));
        }
        last = stem;
    }
    Ok(())
}

/// Pyraminx: moves of U L R B, then at most one turn of each tip, in the order u l r b.
fn pyraminx(words: &[&str]) -> Result<(), ShapeError> {
    let tips_at = words
        .iter()
        .position(|w| w.starts_with(['u', 'l', 'r', 'b']))
        .unwrap_or(words.len());
    plain(&words[..tips_at], &["U", "L", "R", "B"], 0)?;
    let mut next_tip = 0;
    for word in &words[tips_at..] {
        let stem = word.strip_suffix('\'').unwrap_or(word);
        match ["u", "l", "r", "b"][next_tip.min(3)..]
            .iter()
            .position(|t| *t == stem)
        {
            Some(k) if next_tip < 4 => next_tip += k + 1,
            _ => return Err(format!("tip {word:?} out of the order u l r b, or twice")),
        }
    }
    Ok(())
}

/// Square-1: `(x,y)` (x and y from -5 to 6, not both 0) and `/`, alternating where a
/// `(x,y)` appears (no two in a row; `/` may repeat).
fn square1(words: &[&str]) -> Result<(), ShapeError> {
    let mut last_turn = false;
    for (i, word) in words.iter().enumerate() {
        if *word == "/" {
            last_turn = false;
            continue;
        }
        let pair = word
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(')'))
            .and_then(|w| w.split_once(','))
            .and_then(|(x, y)| Some((x.parse::<i32>().ok()?, y.parse::<i32>().ok()?)));
        let Some((x, y)) = pair else {
            return Err(format!("word {} ({word:?}) is neither (x,y) nor /", i + 1));
        };
        if !(-5..=6).contains(&x) || !(-5..=6).contains(&y) || (x, y) == (0, 0) {
            return Err(format!(
                "word {} ({word:?}): x and y from -5 to 6, not both 0",
                i + 1
            ));
        }
        if last_turn {
            return Err(format!("word {} ({word:?}) follows another (x,y)", i + 1));
        }
        last_turn = true;
    }
    Ok(())
}

/// Clock: the nine front pin sets `UR DR DL UL U R D L ALL` each with `0+`..`6+` or
/// `1-`..`5-`, `y2`, the back's `U R D L ALL` likewise; the pins left up may follow
/// (older scrambles).
fn clock(words: &[&str]) -> Result<(), ShapeError> {
    let order: Vec<&str> = super::random_moves::CLOCK_FRONT
        .iter()
        .copied()
        .chain(["y2"])
        .chain(super::random_moves::CLOCK_BACK)
        .collect();
    if words.len() < order.len() {
        return Err(format!(
            "{} words, not at least {}",
            words.len(),
            order.len()
        ));
    }
    for (i, (word, pins)) in words.iter().zip(&order).enumerate() {
        if *pins == "y2" {
            if *word != "y2" {
                return Err(format!("word {} ({word:?}) should be y2", i + 1));
            }
            continue;
        }
        let turn = word.strip_prefix(pins).filter(|rest| {
            let (digit, sign) = rest.split_at(rest.len().saturating_sub(1));
            matches!(
                (digit, sign),
                ("0" | "1" | "2" | "3" | "4" | "5" | "6", "+") | ("1" | "2" | "3" | "4" | "5", "-")
            )
        });
        if turn.is_none() {
            return Err(format!(
                "word {} ({word:?}) should be {pins} with 0+ to 6+ or 1- to 5-",
                i + 1
            ));
        }
    }
    let pins = ["UR", "DR", "DL", "UL"];
    let mut next = 0;
    for word in &words[order.len()..] {
        match pins[next.min(4)..].iter().position(|p| p == word) {
            Some(k) => next += k + 1,
            None => {
                return Err(format!(
                    "{word:?} is not a pin left up (UR DR DL UL, in order)"
                ))
            }
        }
    }
    Ok(())
}

/// Megaminx: seven lines, each ten moves `R` and `D` alternating (`++` or `--`), then
/// `U` after `D++` or `U'` after `D--`.
fn megaminx(text: &str) -> Result<(), ShapeError> {
    let lines: Vec<&str> = text.split('\n').collect();
    if lines.len() != 7 {
        return Err(format!("{} lines, not 7", lines.len()));
    }
    for (l, line) in lines.iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        if words.len() != 11 {
            return Err(format!("line {}: {} words, not 11", l + 1, words.len()));
        }
        for (i, word) in words[..10].iter().enumerate() {
            let face = if i % 2 == 0 { "R" } else { "D" };
            if *word != format!("{face}++") && *word != format!("{face}--") {
                return Err(format!(
                    "line {}, word {} ({word:?}) should be {face}++ or {face}--",
                    l + 1,
                    i + 1
                ));
            }
        }
        let want = if words[9] == "D++" { "U" } else { "U'" };
        if words[10] != want {
            return Err(format!(
                "line {}: ends {:?} after {}, not {want}",
                l + 1,
                words[10],
                words[9]
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scrambles written by hand from the regulations' notation (Article 12), in the
    /// layout the WCA's program prints: each must pass, and each broken copy must fail.
    #[test]
    fn hand_written_scrambles_pass_and_broken_ones_fail() {
        let good: &[(Event, &str)] = &[
            (Event::Cube2, "R U' F2 R' U F' R2 U2 F R' U"),
            (Event::Cube3, "D2 B2 R' F2 L U2 R' B2 R D2 F' L' D B' U' L2 F R' U2"),
            (Event::OneHanded, "L2 U2 F2 D' B2 D' R2 U F2 R2 D B' U R' F2 L D2 B U2 F'"),
            (Event::Blind3, "F2 D2 R2 U' B2 L2 D R2 U2 L2 B' U' L' F' R2 B L D' F2 R Fw Uw'"),
            (Event::Blind3, "B2 D2 L F2 D2 L' U2 R2 B2 L' F2 R' B' D R' B' U' L B D2 Uw2"),
            (Event::FewestMoves, "R' U' F D2 L2 B2 U R2 U' L2 B2 U' B' L' F D L2 B U' L' D' R' U' F"),
            (Event::Cube4, "R2 F' U2 F D2 R' B2 U2 R D2 F2 Uw2 R' F2 Uw2 R Fw2 D Rw2 U B2 Fw2 Rw' U' Rw2 Fw Uw' Rw' Uw2"),
            (Event::Blind4, "Fw2 R2 U' Rw2 Uw2 B' Rw' U2 F D' Uw' x y2"),
            (Event::Clock, "UR2+ DR5- DL0+ UL3- U1+ R6+ D4- L2+ ALL1- y2 U3+ R0+ D5+ L2- ALL6+"),
            (Event::Clock, "UR2+ DR5- DL0+ UL3- U1+ R6+ D4- L2+ ALL1- y2 U3+ R0+ D5+ L2- ALL6+ UR DL"),
            (Event::Pyraminx, "U' L R' B L' U R U' L B R u l' b"),
            (Event::Pyraminx, "R L' U B' U' L R B U' L' B"),
            (Event::Skewb, "R U' L B' R' U L U' B R' L"),
            (Event::Square1, "(1,0) / (-1,2) / (0,-3) / (3,3) / (-4,-1) / (0,-2) / / (6,5)"),
            (Event::Square1, "/ (3,0) / (-1,-4) / (4,1) / (-3,0) / (0,3) /"),
            (Event::Fto, "R' D' B' L D L' BL' F BR' U R B D' U' BR"),
        ];
        for (event, text) in good {
            check(*event, text).unwrap_or_else(|e| panic!("{}: {text}: {e}", event.id()));
        }
        let megaminx_line = "R++ D-- R-- D++ R++ D-- R-- D++ R++ D++ U";
        let megaminx = [megaminx_line; 7].join("\n");
        check(Event::Megaminx, &megaminx).expect("megaminx");
        let bad: &[(Event, &str)] = &[
            (Event::Cube2, "R U' L"),
            (Event::Cube3, "R L R2"),
            (Event::Cube3, "R  U"),
            (Event::Blind3, "R U Rw2 Fw"),
            (Event::FewestMoves, "R' U' F F2 R' U' F"),
            (Event::Cube4, "R Dw U"),
            (Event::Blind4, "R U x2 z"),
            (
                Event::Clock,
                "UR2+ DR7+ DL0+ UL3- U1+ R6+ D4- L2+ ALL1- y2 U3+ R0+ D5+ L2- ALL6+",
            ),
            (
                Event::Clock,
                "UR2+ DR5- DL0+ UL3- U1+ R6+ D4- L2+ ALL1- y2 U3+ R0+ D5+ L2- ALL6+ DL UR",
            ),
            (Event::Pyraminx, "U L u r l"),
            (Event::Skewb, "R R' U"),
            (Event::Square1, "(0,0) /"),
            (Event::Square1, "(1,0) (2,0) /"),
            (Event::Square1, "(7,0) /"),
            (Event::Fto, "UFL DFR' UBR"),
            (Event::Fto, "R U U' F"),
            (Event::Fto, "R U2 F"),
        ];
        for (event, text) in bad {
            assert!(check(*event, text).is_err(), "{}: {text}", event.id());
        }
        let broken = megaminx.replacen("D++ U", "D++ U'", 1);
        assert!(check(Event::Megaminx, &broken).is_err());
        assert!(check(Event::Megaminx, megaminx_line).is_err());
    }
}
