//! Random-move scrambles, as the WCA's program draws them where no random-state solver
//! is used: the 5x5x5, 6x6x6 and 7x7x7 (60, 80 and 100 outer-block turns), the megaminx
//! (seven lines of Pochmann moves) and the clock (every pin setting's dial turn drawn
//! independently, which makes the clock's state uniformly random).
//!
//! The cube rule: each turn is drawn uniformly among the turns that are not redundant,
//! where a turn is redundant when an earlier turn of the same face and width can be
//! reached by walking back over turns of its axis (turns of one axis commute: `R L R`
//! would merge the two `R`s, `R Rw` would not).

use super::nxn::{Turn, FACES};
use crate::rng::SplitMix64;

/// The turns a random-move scramble of an `n`-layer cube draws from: every face at
/// widths 1 to n/2, except that on even cubes the half-depth width turns only R, U and F
/// (its L, D and B turns are the same up to a rotation).
pub fn cube_turns(n: usize) -> Vec<Turn> {
    let mut turns = Vec::new();
    for layers in 1..=n / 2 {
        for (face, &letter) in FACES.iter().enumerate() {
            if n.is_multiple_of(2) && layers == n / 2 && !matches!(letter, 'R' | 'U' | 'F') {
                continue;
            }
            for quarters in 1..=3 {
                turns.push(Turn {
                    face,
                    layers,
                    quarters,
                    rotation: false,
                });
            }
        }
    }
    turns
}

/// The axis of a face (U-D 0, R-L 1, F-B 2).
pub fn axis(face: usize) -> usize {
    face % 3
}

/// Whether `turn` after `before` is redundant: an earlier turn of its face and width
/// with only turns of its axis since (the rule [`cube_scramble`] masks by; the tests
/// check it against this).
#[cfg(test)]
fn redundant(before: &[Turn], turn: &Turn) -> bool {
    for earlier in before.iter().rev() {
        if axis(earlier.face) != axis(turn.face) {
            return false;
        }
        if earlier.face == turn.face && earlier.layers == turn.layers {
            return true;
        }
    }
    false
}

/// A random-move scramble of `length` turns of an `n`-layer cube.
pub fn cube_scramble(n: usize, length: usize, rng: &mut SplitMix64) -> Vec<Turn> {
    let turns = cube_turns(n);
    let mut out: Vec<Turn> = Vec::with_capacity(length);
    // A turn is redundant exactly when its face and width is in the trailing run of
    // turns of the last turn's axis (see `redundant`): those are masked out, per face a
    // bit a width, kept as the run grows and cleared when the axis changes; the pick
    // counts the others in the list's order.
    let mut blocked = [0u128; 6];
    let mut masked = 0usize;
    let mut run = usize::MAX;
    while out.len() < length {
        // The list holds each face and width's three turns together.
        let open = |group: &&[Turn]| blocked[group[0].face] >> group[0].layers.min(127) & 1 == 0;
        // Every masked face and width is in the list (it was drawn from it).
        let count = turns.len() - 3 * masked;
        let mut pick = rng.below(count as u64) as usize;
        for group in turns.chunks(3).filter(open) {
            if pick < group.len() {
                let turn = group[pick];
                if axis(turn.face) != run {
                    run = axis(turn.face);
                    blocked = [0; 6];
                    masked = 0;
                }
                // Open before, so a new bit.
                blocked[turn.face] |= 1u128 << turn.layers.min(127);
                masked += 1;
                out.push(turn);
                break;
            }
            pick -= group.len();
        }
    }
    out
}

/// Turns written with single spaces.
pub fn format_turns(turns: &[Turn]) -> String {
    let mut out = String::with_capacity(turns.len() * 4);
    for (i, turn) in turns.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        turn.write_to(&mut out);
    }
    out
}

/// The orientation written after a blindfolded scramble: one of the 24 ways to hold the
/// cube, uniformly, as a turn about R or F (or none) then a turn about U (or none), each
/// of `layers` layers (a rotation when `layers` is the cube's size).
pub fn random_orientation(n: usize, layers: usize, rng: &mut SplitMix64) -> Vec<Turn> {
    let rotation = layers == n;
    let turn = |face: usize, quarters: u8| Turn {
        face,
        layers,
        quarters,
        rotation,
    };
    // R-axis quarter turns, or F-axis odd turns: the six ways to put a face on top.
    let first: [Option<Turn>; 6] = [
        None,
        Some(turn(1, 1)),
        Some(turn(1, 2)),
        Some(turn(1, 3)),
        Some(turn(2, 1)),
        Some(turn(2, 3)),
    ];
    let second: [Option<Turn>; 4] = [None, Some(turn(0, 1)), Some(turn(0, 2)), Some(turn(0, 3))];
    let pick = rng.below(24) as usize;
    first[pick / 4]
        .into_iter()
        .chain(second[pick % 4])
        .collect()
}

/// A 5x5x5 blindfolded scramble: 60 random turns, then a random orientation in
/// three-layer turns. A tail turn that the first orientation turn would merge with up to
/// a rotation (`3Rw` is `Lw` turned, on five layers) is dropped, so nothing cancels.
pub fn cube_blind_scramble(n: usize, length: usize, rng: &mut SplitMix64) -> Vec<Turn> {
    let mut turns = cube_scramble(n, length, rng);
    let orientation = random_orientation(n, n.div_ceil(2), rng);
    if let Some(first) = orientation.first() {
        // The same turn seen from the opposite face: n - layers layers of that face.
        let opposite = (first.face + 3) % 6;
        let mut at = turns.len();
        while at > 0 && axis(turns[at - 1].face) == axis(first.face) {
            at -= 1;
            let t = turns[at];
            let same = t.face == first.face && t.layers == first.layers;
            let mirrored = t.face == opposite && t.layers == n - first.layers;
            if same || mirrored {
                turns.remove(at);
            }
        }
    }
    turns.extend(orientation);
    turns
}

/// A megaminx scramble in Pochmann notation: seven lines, each ten `R` and `D` moves
/// alternating (`++` or `--`, equally likely) then `U` after a `D++`, `U'` after a `D--`.
pub fn megaminx_scramble(rng: &mut SplitMix64) -> String {
    // Seven lines of 10 words of 3 bytes and a `U` or `U'`, written in place.
    let mut text = String::with_capacity(7 * 43);
    for line in 0..7 {
        if line > 0 {
            text.push('\n');
        }
        let mut last_up = true;
        for i in 0..10 {
            let up = rng.below(2) == 0;
            text.push_str(match (i % 2 == 0, up) {
                (true, true) => "R++ ",
                (true, false) => "R-- ",
                (false, true) => "D++ ",
                (false, false) => "D-- ",
            });
            last_up = up;
        }
        text.push_str(if last_up { "U" } else { "U'" });
    }
    text
}

/// The clock's pin settings, in the order a scramble turns them: the front's nine, then
/// after `y2` the back's five.
pub const CLOCK_FRONT: [&str; 9] = ["UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL"];
/// The back's pin settings (after `y2`).
pub const CLOCK_BACK: [&str; 5] = ["U", "R", "D", "L", "ALL"];

/// A clock scramble: each pin setting's turn drawn uniformly from -5 to 6 hours, written
/// `3+` (clockwise) or `5-`, with `y2` between the front's and the back's.
pub fn clock_scramble(rng: &mut SplitMix64) -> String {
    let mut text = String::with_capacity(80);
    // A pin setting's turn: its name, the hours (0 to 6: one digit), the sign.
    let turn = |text: &mut String, pins: &str, rng: &mut SplitMix64| {
        let hours = rng.below(12) as i64 - 5;
        text.push_str(pins);
        text.push(char::from(b'0' + hours.unsigned_abs() as u8));
        text.push(if hours >= 0 { '+' } else { '-' });
        text.push(' ');
    };
    for pins in CLOCK_FRONT {
        turn(&mut text, pins, rng);
    }
    text.push_str("y2 ");
    for pins in CLOCK_BACK {
        turn(&mut text, pins, rng);
    }
    text.pop();
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_sets_have_the_widths_the_wca_program_draws() {
        // 5x5x5: 6 faces at two widths; 6x6x6: and 3Rw 3Uw 3Fw; 7x7x7: all at three.
        assert_eq!(cube_turns(5).len(), 36);
        assert_eq!(cube_turns(6).len(), 45);
        assert_eq!(cube_turns(7).len(), 54);
        let six: Vec<String> = cube_turns(6).iter().map(|t| t.to_string()).collect();
        assert!(six.contains(&"3Rw'".to_string()) && !six.contains(&"3Lw".to_string()));
    }

    #[test]
    fn no_turn_repeats_its_face_and_width_within_an_axis_run() {
        for n in 5..=7 {
            for index in 0..200 {
                let turns = cube_scramble(n, 20 * n - 40, &mut SplitMix64::stream(7, index));
                assert_eq!(turns.len(), 20 * n - 40);
                for i in 0..turns.len() {
                    assert!(
                        !redundant(&turns[..i], &turns[i]),
                        "{}",
                        format_turns(&turns)
                    );
                }
            }
        }
    }

    #[test]
    fn the_masked_draw_is_the_draw_among_the_turns_the_rule_allows() {
        // The draw as the rule says it: the allowed turns listed, one picked.
        let reference = |n: usize, length: usize, rng: &mut SplitMix64| {
            let turns = cube_turns(n);
            let mut out: Vec<Turn> = Vec::new();
            while out.len() < length {
                let allowed: Vec<Turn> = turns
                    .iter()
                    .filter(|t| !redundant(&out, t))
                    .copied()
                    .collect();
                out.push(allowed[rng.below(allowed.len() as u64) as usize]);
            }
            out
        };
        for n in 5..=7 {
            for index in 0..100 {
                let a = cube_scramble(n, 100, &mut SplitMix64::stream(3, index));
                let b = reference(n, 100, &mut SplitMix64::stream(3, index));
                assert_eq!(format_turns(&a), format_turns(&b));
            }
        }
    }

    #[test]
    fn blind_orientations_are_the_24_and_never_cancel() {
        let mut seen = std::collections::HashSet::new();
        for index in 0..2000 {
            let mut rng = SplitMix64::stream(3, index);
            seen.insert(format_turns(&random_orientation(3, 2, &mut rng)));
            let turns = cube_blind_scramble(5, 60, &mut SplitMix64::stream(3, index));
            let text = format_turns(&turns);
            // The last scramble turn before the orientation never merges with it.
            let orientation_start = turns.iter().position(|t| t.layers == 3);
            if let Some(at) = orientation_start.filter(|&at| at > 0) {
                let (before, first) = (turns[at - 1], turns[at]);
                assert!(
                    !(before.face == (first.face + 3) % 6 && before.layers == 2),
                    "{text}"
                );
            }
        }
        assert_eq!(seen.len(), 24);
    }

    #[test]
    fn megaminx_and_clock_lines_have_their_shape() {
        let minx = megaminx_scramble(&mut SplitMix64::new(5));
        let lines: Vec<&str> = minx.lines().collect();
        assert_eq!(lines.len(), 7);
        for line in lines {
            let words: Vec<&str> = line.split(' ').collect();
            assert_eq!(words.len(), 11);
            let up = words[9] == "D++";
            assert_eq!(words[10], if up { "U" } else { "U'" });
        }
        let clock = clock_scramble(&mut SplitMix64::new(5));
        assert_eq!(clock.split(' ').count(), 15);
        assert_eq!(clock.split(' ').nth(9), Some("y2"));
    }
}
