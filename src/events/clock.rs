//! The WCA Rubik's Clock: its 18 dials, the scramble notation the WCA's program (TNoodle)
//! writes, and the picture TNoodle draws of a scrambled clock.
//!
//! The model follows TNoodle's. Dials are kept as seen by whoever holds the clock: the
//! nine of the side facing them first, then the nine of the other side, each side row by
//! row as seen from that side (so the two sides' columns are mirror images). A pin
//! setting's turn moves the facing side's dials around the pins that are up, and the
//! corners among them turn the other way on the far side (the corner dials are shared).
//! `y2` turns the clock over: the two nines swap.
//!
//! The picture is TNoodle's: the facing side on the left, the other on the right, each
//! in its own colours (the side that faced the scrambler at the start is dark blue with
//! pale dials, the other pale with dark dials).

use std::fmt::Write;

/// The pins, in the order pin-only words name them: UR, DR, DL, UL.
const PINS: [&str; 4] = ["UR", "DR", "DL", "UL"];

/// A pin setting of the notation: which dials its turn moves, row by row from each side.
struct Setting {
    name: &'static str,
    /// Dials of the facing side that turn the way the word says.
    near: &'static [usize],
    /// Dials of the far side (seen from there) that turn the other way.
    far: &'static [usize],
}

/// The nine pin settings, in TNoodle's order. A corner of the facing side at column c
/// is the far side's corner at column 2 - c of the same row.
const SETTINGS: [Setting; 9] = [
    Setting {
        name: "UR",
        near: &[1, 2, 4, 5],
        far: &[0],
    },
    Setting {
        name: "DR",
        near: &[4, 5, 7, 8],
        far: &[6],
    },
    Setting {
        name: "DL",
        near: &[3, 4, 6, 7],
        far: &[8],
    },
    Setting {
        name: "UL",
        near: &[0, 1, 3, 4],
        far: &[2],
    },
    Setting {
        name: "U",
        near: &[0, 1, 2, 3, 4, 5],
        far: &[0, 2],
    },
    Setting {
        name: "R",
        near: &[1, 2, 4, 5, 7, 8],
        far: &[0, 6],
    },
    Setting {
        name: "D",
        near: &[3, 4, 5, 6, 7, 8],
        far: &[6, 8],
    },
    Setting {
        name: "L",
        near: &[0, 1, 3, 4, 6, 7],
        far: &[2, 8],
    },
    Setting {
        name: "ALL",
        near: &[0, 1, 2, 3, 4, 5, 6, 7, 8],
        far: &[0, 2, 6, 8],
    },
];

/// Why a scramble cannot be applied to a clock.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// A word of no known shape.
    #[error(
        "word {index} ({word:?}) is not a clock move: a turn is a pin setting \
         (UR DR DL UL U R D L ALL) then 0+ to 6+ or 1- to 5-, y2 turns the clock over, \
         and UR DR DL UL alone name a pin left up"
    )]
    Unknown {
        /// Where the word is in the scramble (from 1).
        index: usize,
        /// The word.
        word: String,
    },
    /// A turn whose pins are not a pin setting.
    #[error(
        "word {index} ({word:?}) names the pins {pins:?}: the pin settings are \
         UR DR DL UL U R D L ALL"
    )]
    Pins {
        /// Where the word is in the scramble (from 1).
        index: usize,
        /// The word.
        word: String,
        /// The part naming the pins.
        pins: String,
    },
    /// A pin setting without a turn (`UR1`, or `U` alone).
    #[error(
        "word {index} ({word:?}) has no turn: a turn ends in hours and + (clockwise) or - \
         (counter-clockwise), as UR3+; only UR DR DL UL may stand alone (a pin left up)"
    )]
    NoTurn {
        /// Where the word is in the scramble (from 1).
        index: usize,
        /// The word.
        word: String,
    },
    /// A turn by hours the notation does not write (`UR13+`, `UR6-`).
    #[error(
        "word {index} ({word:?}) turns {hours:?} hours: a turn is 0+ to 6+ or 1- to 5- \
         (TNoodle writes six hours as 6+)"
    )]
    Hours {
        /// Where the word is in the scramble (from 1).
        index: usize,
        /// The word.
        word: String,
        /// The hours as written.
        hours: String,
    },
}

/// One word of a scramble, read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Word {
    /// Setting `setting`'s dials turned by `hours` clockwise (0..12).
    Turn { setting: usize, hours: u8 },
    /// `y2`.
    Flip,
    /// A pin left up (index into [`PINS`]).
    Pin(usize),
}

/// Reads word `index` (from 1) of a scramble.
fn read_word(index: usize, word: &str) -> Result<Word, ClockError> {
    if word == "y2" {
        return Ok(Word::Flip);
    }
    if let Some(pin) = PINS.iter().position(|&p| p == word) {
        return Ok(Word::Pin(pin));
    }
    let (body, clockwise) = match (word.strip_suffix('+'), word.strip_suffix('-')) {
        (Some(body), _) => (body, Some(true)),
        (_, Some(body)) => (body, Some(false)),
        _ => (word, None),
    };
    let pins = body.trim_end_matches(|c: char| c.is_ascii_digit());
    let hours = &body[pins.len()..];
    let setting = SETTINGS.iter().position(|s| s.name == pins);
    let owned = || word.to_string();
    let (setting, clockwise) = match (setting, clockwise) {
        (Some(setting), Some(clockwise)) => (setting, clockwise),
        (Some(_), None) => {
            return Err(ClockError::NoTurn {
                index,
                word: owned(),
            })
        }
        (None, Some(_)) if !pins.is_empty() => {
            return Err(ClockError::Pins {
                index,
                word: owned(),
                pins: pins.to_string(),
            })
        }
        (None, _) => {
            return Err(ClockError::Unknown {
                index,
                word: owned(),
            })
        }
    };
    let amount = match (hours, clockwise) {
        ("0" | "1" | "2" | "3" | "4" | "5" | "6", true) | ("1" | "2" | "3" | "4" | "5", false) => {
            hours.parse::<u8>().ok()
        }
        _ => None,
    };
    let amount = amount.ok_or_else(|| ClockError::Hours {
        index,
        word: owned(),
        hours: hours.to_string(),
    })?;
    let hours = if clockwise {
        amount
    } else {
        (12 - amount) % 12
    };
    Ok(Word::Turn { setting, hours })
}

/// A clock's state: 18 dials (front 9 then back 9, row by row as seen from each side) in
/// hours 0..12 (0 = 12 o'clock), and which pins are up (seen from the front). "Front" is
/// the side facing the holder now (after a `y2` it is the side that started at the back),
/// as in TNoodle's model; the pins are those a scramble's closing pin-only words name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Clock {
    dials: [u8; 18],
    /// UR, DR, DL, UL.
    pins: [bool; 4],
    /// Whether the side that started at the back faces the holder.
    flipped: bool,
}

impl Clock {
    /// The solved clock: every dial at 12 o'clock, every pin down, the front facing you.
    pub fn solved() -> Clock {
        Clock {
            dials: [0; 18],
            pins: [false; 4],
            flipped: false,
        }
    }

    /// Applies a scramble in the notation above; an unknown or malformed word is an error
    /// naming it (and the clock is left as it was). Words are TNoodle's: a pin setting
    /// `UR DR DL UL U R D L ALL` with `0+`..`6+` or `1-`..`5-`, `y2`, and the single pins
    /// `UR DR DL UL` alone (older scrambles end with the pins left up).
    pub fn apply_text(&mut self, text: &str) -> Result<(), ClockError> {
        let words = text
            .split_whitespace()
            .enumerate()
            .map(|(i, word)| read_word(i + 1, word))
            .collect::<Result<Vec<_>, _>>()?;
        for word in words {
            self.apply(word);
        }
        Ok(())
    }

    /// Applies one word.
    fn apply(&mut self, word: Word) {
        match word {
            Word::Turn { setting, hours } => {
                let setting = &SETTINGS[setting];
                for &dial in setting.near {
                    self.dials[dial] = (self.dials[dial] + hours) % 12;
                }
                for &dial in setting.far {
                    self.dials[9 + dial] = (self.dials[9 + dial] + 12 - hours) % 12;
                }
            }
            Word::Flip => {
                self.dials.rotate_left(9);
                self.flipped = !self.flipped;
            }
            Word::Pin(pin) => self.pins[pin] = true,
        }
    }

    /// Dials in hours (front 9, back 9).
    pub fn dials(&self) -> [u8; 18] {
        self.dials
    }

    /// The pins left up, seen from the front, in the order UR, DR, DL, UL.
    pub fn pins_up(&self) -> [bool; 4] {
        self.pins
    }

    /// The picture: one line of SVG, TNoodle's layout and colours.
    pub fn picture(&self) -> String {
        let mut out = format!(
            "<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}px\" \
             height=\"{HEIGHT}px\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" \
             style=\"stroke-width:{STROKE}px;stroke-miterlimit:10;stroke-linejoin:round;\">"
        );
        // The left face shows the side facing the holder, in that side's colours.
        let sides = if self.flipped {
            [&BACK, &FRONT]
        } else {
            [&FRONT, &BACK]
        };
        for (s, palette) in sides.iter().enumerate() {
            draw_body(&mut out, face_centre(s), palette);
        }
        for (i, &hours) in self.dials.iter().enumerate() {
            let (x, y) = dial_centre(i / 9, i % 9);
            draw_hand(&mut out, x, y, hours, sides[i / 9]);
        }
        for (s, palette) in sides.iter().enumerate() {
            let (cx, cy) = face_centre(s);
            for dy in [-1.0, 1.0] {
                for dx in [-1.0, 1.0] {
                    let (x, y) = (cx + dx * CLOCK_OUTER, cy + dy * CLOCK_OUTER);
                    // Writing to a String cannot fail.
                    let _ = write!(
                        out,
                        "<circle cx=\"0\" cy=\"0\" r=\"{PIN}\" fill=\"{}\" transform=\"{}\"/>",
                        palette.pin,
                        matrix(0, x, y)
                    );
                }
            }
        }
        out.push_str("</svg>");
        out
    }
}

/// The colours of one side of the clock.
struct Palette {
    body: &'static str,
    dial: &'static str,
    /// The 12 o'clock mark.
    top: &'static str,
    hand: &'static str,
    pin: &'static str,
}

/// The side facing the scrambler at the start (TNoodle's "Front"; its pins are drawn in
/// the colour TNoodle names "BackPin").
const FRONT: Palette = Palette {
    body: "#113366",
    dial: "#ccddee",
    top: "#ffcc44",
    hand: "#113366",
    pin: "#446699",
};

/// The other side (TNoodle's "Back"; its pins in TNoodle's "FrontPin").
const BACK: Palette = Palette {
    body: "#ccddee",
    dial: "#113366",
    top: "#cc6600",
    hand: "#ccddee",
    pin: "#88aacc",
};

/// The body's radius.
const RADIUS: f64 = 70.0;
/// Space around each face.
const GAP: f64 = 5.0;
/// A dial's radius.
const CLOCK_RADIUS: f64 = 14.0;
/// The radius of the bulge around each corner dial; dials are two of these apart.
const CLOCK_OUTER: f64 = 21.0;
/// Where the hour marks sit (TNoodle's integer mean of the two radii above).
const MARKS: f64 = 17.0;
/// Hour marks' radius (the 12 o'clock one is twice as big).
const MARK: f64 = 1.0;
/// The hand's length and its base's radius.
const HAND_LENGTH: f64 = 10.0;
const HAND_BASE: f64 = 2.0;
/// A pin's radius.
const PIN: f64 = 4.0;
/// The picture's stroke width (1 around each dial).
const STROKE: f64 = 2.0;
/// The picture's size: two faces side by side.
const WIDTH: f64 = 4.0 * (RADIUS + GAP);
const HEIGHT: f64 = 2.0 * (RADIUS + GAP);

/// The centre of face `s` (0 left, 1 right).
fn face_centre(s: usize) -> (f64, f64) {
    ((2 * s + 1) as f64 * (RADIUS + GAP), RADIUS + GAP)
}

/// The centre of dial `d` (row by row) of face `s`.
fn dial_centre(s: usize, d: usize) -> (f64, f64) {
    let (cx, cy) = face_centre(s);
    let step = 2.0 * CLOCK_OUTER;
    (
        cx + ((d % 3) as f64 - 1.0) * step,
        cy + ((d / 3) as f64 - 1.0) * step,
    )
}

/// A number for SVG: four decimals at most, no trailing zeros, no `-0`.
fn num(x: f64) -> String {
    let rounded = (x * 10_000.0).round() / 10_000.0;
    if rounded == 0.0 {
        return "0".into();
    }
    let text = format!("{rounded:.4}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// An SVG transform: turned `hours` clockwise about the origin, then moved to (x, y).
fn matrix(hours: u8, x: f64, y: f64) -> String {
    let angle = (f64::from(hours) * 30.0).to_radians();
    let (sin, cos) = angle.sin_cos();
    format!(
        "matrix({},{},{},{},{},{})",
        num(cos),
        num(sin),
        num(-sin),
        num(cos),
        num(x),
        num(y)
    )
}

/// One side's body: the round case with a bulge at each corner dial, the nine dials and
/// their hour marks.
fn draw_body(out: &mut String, (cx, cy): (f64, f64), palette: &Palette) {
    let corners = [(-1.0, -1.0), (-1.0, 1.0), (1.0, -1.0), (1.0, 1.0)];
    let step = 2.0 * CLOCK_OUTER;
    // The bulges' outlines, then the case over them, then the bulges' insides (a little
    // smaller, so the case's outline stays whole).
    for (i, j) in corners {
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" stroke=\"#000000\" transform=\"{}\"/>",
            num(i * step),
            num(j * step),
            num(CLOCK_OUTER),
            matrix(0, cx, cy)
        );
    }
    let _ = write!(
        out,
        "<circle cx=\"0\" cy=\"0\" r=\"{}\" fill=\"{}\" stroke=\"#000000\" transform=\"{}\"/>",
        num(RADIUS),
        palette.body,
        matrix(0, cx, cy)
    );
    for (i, j) in corners {
        let _ = write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\" transform=\"{}\"/>",
            num(i * step),
            num(j * step),
            num(CLOCK_OUTER - STROKE / 2.0),
            palette.body,
            matrix(0, cx, cy)
        );
    }
    // TNoodle draws the dials column by column.
    for column in 0..3 {
        for row in 0..3 {
            let x = cx + (column as f64 - 1.0) * step;
            let y = cy + (row as f64 - 1.0) * step;
            let _ = write!(
                out,
                "<circle cx=\"0\" cy=\"0\" r=\"{}\" fill=\"{}\" stroke=\"#000000\" \
                 style=\"stroke-width:1px;stroke-miterlimit:10;stroke-linejoin:round;\" \
                 transform=\"{}\"/>",
                num(CLOCK_RADIUS),
                palette.dial,
                matrix(0, x, y)
            );
            for hour in 0..12u8 {
                let (r, fill) = if hour == 0 {
                    (2.0 * MARK, palette.top)
                } else {
                    (MARK, palette.dial)
                };
                let _ = write!(
                    out,
                    "<circle cx=\"0\" cy=\"{}\" r=\"{}\" fill=\"{fill}\" transform=\"{}\"/>",
                    num(-MARKS),
                    num(r),
                    matrix(hour, x, y)
                );
            }
        }
    }
}

/// A hand pointing at `hours`, on the dial centred at (x, y): a narrow triangle whose
/// sides touch its round base.
fn draw_hand(out: &mut String, x: f64, y: f64, hours: u8, palette: &Palette) {
    // The sides leave the base where they are tangent to it.
    let rise = HAND_BASE * HAND_BASE / HAND_LENGTH;
    let half = (HAND_BASE * HAND_BASE - rise * rise).sqrt();
    let transform = matrix(hours, x, y);
    let _ = write!(
        out,
        "<path d=\"M 0 0 L {} {} L 0 {} L {} {} Z\" fill=\"{hand}\" stroke=\"{hand}\" \
         transform=\"{transform}\"/>\
         <circle cx=\"0\" cy=\"0\" r=\"{}\" fill=\"{hand}\" stroke=\"{hand}\" \
         transform=\"{transform}\"/>",
        num(half),
        num(-rise),
        num(-HAND_LENGTH),
        num(-half),
        num(-rise),
        num(HAND_BASE),
        hand = palette.hand,
    );
}

/// The hours the hands of a picture drawn by [`Clock::picture`] point at, in the order
/// of [`Clock::dials`] (left face then right, each row by row; 0 = 12 o'clock), for
/// tests. Each hand is a `<path>` whose `transform` matrix turns it from 12 o'clock and
/// moves it onto its dial: the turn gives the hour and the place gives the dial. Hands
/// whose transform cannot be read are left out.
pub fn hands(svg: &str) -> Vec<u8> {
    let mut found: Vec<((i64, i64, i64), u8)> = Vec::new();
    for element in svg.split("<path").skip(1) {
        let tag = element.split('>').next().unwrap_or_default();
        let Some(inner) = tag
            .split("transform=\"matrix(")
            .nth(1)
            .and_then(|rest| rest.split(')').next())
        else {
            continue;
        };
        let values: Vec<f64> = inner
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        let [_, _, c, d, e, f] = values[..] else {
            continue;
        };
        // The hand's tip, (0, -1) before the transform, ends up along (-c, -d); its
        // clockwise angle from straight up (y grows downwards).
        let degrees = (-c).atan2(d).to_degrees();
        let hours = (degrees / 30.0).round().rem_euclid(12.0) as u8;
        let side = i64::from(e > WIDTH / 2.0);
        let (cx, cy) = face_centre(side as usize);
        let step = 2.0 * CLOCK_OUTER;
        let row = ((f - cy) / step).round() as i64;
        let column = ((e - cx) / step).round() as i64;
        found.push(((side, row, column), hours));
    }
    found.sort_by_key(|&(place, _)| place);
    found.into_iter().map(|(_, hours)| hours).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::events::random_moves::clock_scramble;
    use crate::rng::SplitMix64;

    /// The pins a setting pushes up, as (row, column) of the pin among the 2x2 pins,
    /// seen from the side facing you.
    fn pins_of(name: &str) -> Vec<(usize, usize)> {
        let (ul, ur, dl, dr) = ((0, 0), (0, 1), (1, 0), (1, 1));
        match name {
            "UR" => vec![ur],
            "DR" => vec![dr],
            "DL" => vec![dl],
            "UL" => vec![ul],
            "U" => vec![ul, ur],
            "R" => vec![ur, dr],
            "D" => vec![dl, dr],
            "L" => vec![ul, dl],
            "ALL" => vec![ul, ur, dl, dr],
            _ => panic!("no setting {name}"),
        }
    }

    /// The physical clock: turning a wheel with `pins` up turns, on the side facing you,
    /// every dial next to an up pin (the 2x2 dials around it) by `hours`. Each corner
    /// dial is one gear with the far side's corner behind it, which (seen from the far
    /// side, where left and right swap) turns the other way. The far side's other dials
    /// are not linked to the wheel: the pins up on the near side are down there.
    fn physical_turn(dials: &mut [i32; 18], pins: &[(usize, usize)], hours: i32) {
        let mut moved = [false; 9];
        for &(pr, pc) in pins {
            for row in pr..=pr + 1 {
                for column in pc..=pc + 1 {
                    moved[row * 3 + column] = true;
                }
            }
        }
        for row in 0..3 {
            for column in 0..3 {
                if !moved[row * 3 + column] {
                    continue;
                }
                dials[row * 3 + column] += hours;
                let corner = row != 1 && column != 1;
                if corner {
                    dials[9 + row * 3 + (2 - column)] -= hours;
                }
            }
        }
    }

    /// Turning the clock over: the far side now faces you.
    fn physical_flip(dials: &mut [i32; 18]) {
        let (near, far) = dials.split_at_mut(9);
        near.swap_with_slice(far);
    }

    fn hours(dials: &[i32; 18]) -> [u8; 18] {
        dials.map(|d| d.rem_euclid(12) as u8)
    }

    /// A scramble run on the physical model (words assumed well formed).
    fn physical_scramble(text: &str) -> [u8; 18] {
        let mut dials = [0i32; 18];
        for word in text.split_whitespace() {
            if word == "y2" {
                physical_flip(&mut dials);
                continue;
            }
            let Some(sign) = word.chars().last().filter(|c| *c == '+' || *c == '-') else {
                continue;
            };
            let body = &word[..word.len() - 1];
            let split = body.find(|c: char| c.is_ascii_digit()).expect("hours");
            let amount: i32 = body[split..].parse().expect("hours");
            let amount = if sign == '+' { amount } else { -amount };
            physical_turn(&mut dials, &pins_of(&body[..split]), amount);
        }
        hours(&dials)
    }

    fn applied(text: &str) -> Clock {
        let mut clock = Clock::solved();
        clock.apply_text(text).expect(text);
        clock
    }

    fn scramble(index: u64) -> String {
        clock_scramble(&mut SplitMix64::stream(42, index))
    }

    const NAMES: [&str; 9] = ["UR", "DR", "DL", "UL", "U", "R", "D", "L", "ALL"];

    #[test]
    fn the_solved_clock_reads_twelve_everywhere() {
        let clock = Clock::solved();
        assert_eq!(clock.dials(), [0; 18]);
        assert_eq!(clock.pins_up(), [false; 4]);
        let svg = clock.picture();
        assert_eq!(hands(&svg), vec![0; 18]);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(!svg.contains('\n'));
        assert!(svg.contains("width=\"300px\" height=\"150px\""));
    }

    #[test]
    fn each_pin_setting_turns_the_dials_its_pins_link() {
        for name in NAMES {
            for (word, amount) in [("1+", 1), ("6+", 6), ("0+", 0), ("3-", -3), ("5-", -5)] {
                let text = format!("{name}{word}");
                let mut expected = [0i32; 18];
                physical_turn(&mut expected, &pins_of(name), amount);
                assert_eq!(applied(&text).dials(), hours(&expected), "{text}");
            }
        }
        // Spelled out for one: UR turns the front's top-right 2x2 forwards and, behind
        // the front's top-right corner, the back's top-left corner (seen from the back)
        // backwards.
        let mut ur = [0u8; 18];
        for dial in [1, 2, 4, 5] {
            ur[dial] = 2;
        }
        ur[9] = 10;
        assert_eq!(applied("UR2+").dials(), ur);
    }

    #[test]
    fn turns_are_seen_from_the_side_facing_you_after_y2() {
        // UL turned from the back: the back's top-left 2x2 turns, and the front's corner
        // behind the back's top-left, which is the front's top-right, the other way.
        let clock = applied("y2 UL1+ y2");
        let mut expected = [0u8; 18];
        for dial in [0, 1, 3, 4] {
            expected[9 + dial] = 1;
        }
        expected[2] = 11;
        assert_eq!(clock.dials(), expected);
        assert_eq!(clock, applied("y2 UL1+ y2 y2 y2"));
    }

    #[test]
    fn a_turn_and_its_opposite_cancel() {
        let start = applied(&scramble(0));
        for name in NAMES {
            for n in 1..=5 {
                let mut clock = start;
                clock
                    .apply_text(&format!("{name}{n}+ {name}{n}-"))
                    .expect("turns");
                assert_eq!(clock, start, "{name}{n}");
                clock
                    .apply_text(&format!("{name}{n}- {name}{n}+"))
                    .expect("turns");
                assert_eq!(clock, start, "{name}{n}");
            }
        }
    }

    #[test]
    fn twelve_hours_is_a_full_turn() {
        let start = applied(&scramble(1));
        for name in NAMES {
            for text in [
                format!("{name}6+ {name}6+"),
                format!("{name}5+ {name}5+ {name}2+"),
                format!("{name}4- {name}4- {name}4-"),
                format!("{name}0+"),
            ] {
                let mut clock = start;
                clock.apply_text(&text).expect("turns");
                assert_eq!(clock, start, "{text}");
            }
            // Less than twelve hours is not.
            let mut clock = start;
            clock
                .apply_text(&format!("{name}6+ {name}5+"))
                .expect("turns");
            assert_ne!(clock, start, "{name}");
        }
    }

    #[test]
    fn turning_over_twice_is_nothing() {
        let start = applied(&scramble(2));
        let mut clock = start;
        clock.apply_text("y2").expect("y2");
        assert_ne!(clock, start);
        let dials = start.dials();
        let mut swapped = [0u8; 18];
        swapped[..9].copy_from_slice(&dials[9..]);
        swapped[9..].copy_from_slice(&dials[..9]);
        assert_eq!(clock.dials(), swapped);
        clock.apply_text("y2").expect("y2");
        assert_eq!(clock, start);
    }

    #[test]
    fn scrambles_reach_the_physical_clocks_state() {
        let example = "UR1+ DR0+ DL5- UL1- U3- R3- D5- L5+ ALL3- y2 U1+ R1+ D6+ L4+ ALL0+";
        assert_eq!(applied(example).dials(), physical_scramble(example));
        for index in 0..200 {
            let text = scramble(index);
            assert_eq!(applied(&text).dials(), physical_scramble(&text), "{text}");
        }
    }

    #[test]
    fn the_picture_shows_the_dials_the_clock_holds() {
        let mut nonzero = 0;
        for index in 0..50 {
            let clock = applied(&scramble(index));
            let svg = clock.picture();
            assert_eq!(hands(&svg), clock.dials().to_vec(), "{}", scramble(index));
            assert!(!svg.contains('\n'));
            nonzero += clock.dials().iter().filter(|&&d| d != 0).count();
        }
        assert!(nonzero > 0);
        // Every hour, on a corner, an edge and the centre of each side.
        for n in 0..12u8 {
            let word = if n <= 6 {
                format!("{n}+")
            } else {
                format!("{}-", 12 - n)
            };
            let clock = applied(&format!("UL{word} y2 DR{word}"));
            assert_eq!(hands(&clock.picture()), clock.dials().to_vec(), "{word}");
        }
    }

    /// The fills of the two cases (the circles of radius 70), left then right.
    fn case_fills(svg: &str) -> Vec<&str> {
        svg.split("r=\"70\" fill=\"")
            .skip(1)
            .filter_map(|rest| rest.split('"').next())
            .collect()
    }

    #[test]
    fn the_picture_uses_each_sides_colours() {
        // Unturned: the front (dark, pale dials) on the left.
        let svg = Clock::solved().picture();
        assert_eq!(case_fills(&svg), ["#113366", "#ccddee"]);
        // A scramble ends turned over: the back faces you, on the left.
        let svg = applied(&scramble(3)).picture();
        assert_eq!(case_fills(&svg), ["#ccddee", "#113366"]);
        assert_eq!(svg.matches("#ffcc44").count(), 9);
        assert_eq!(svg.matches("#cc6600").count(), 9);
        assert_eq!(svg.matches("<path").count(), 18);
        // The left face's hands are pale, the right's dark; the front's pins #446699.
        let hand_fills: Vec<&str> = svg
            .split("<path")
            .skip(1)
            .filter_map(|rest| rest.split("fill=\"").nth(1)?.split('"').next())
            .collect();
        assert_eq!(hand_fills[..9], ["#ccddee"; 9]);
        assert_eq!(hand_fills[9..], ["#113366"; 9]);
        assert_eq!(svg.matches("fill=\"#446699\"").count(), 4);
        assert_eq!(svg.matches("fill=\"#88aacc\"").count(), 4);
    }

    #[test]
    fn pin_words_name_the_pins_left_up() {
        let text = "UR2+ DR5- DL0+ UL3- U1+ R6+ D4- L2+ ALL1- y2 U3+ R0+ D5+ L2- ALL6+ UR DL";
        let clock = applied(text);
        assert_eq!(clock.pins_up(), [true, false, true, false]);
        assert_eq!(clock.dials(), physical_scramble(text));
    }

    #[test]
    fn bad_words_are_errors_naming_them() {
        let cases = [
            ("UR13+", "Hours"),
            ("UR6-", "Hours"),
            ("UR0-", "Hours"),
            ("UR+", "Hours"),
            ("XX1+", "Pins"),
            ("UR1", "NoTurn"),
            ("U", "NoTurn"),
            ("y3", "Unknown"),
            ("R2'", "Unknown"),
            ("5+", "Unknown"),
        ];
        for (word, kind) in cases {
            let mut clock = applied("UR3+");
            let before = clock;
            let error = clock
                .apply_text(&format!("DR1+ {word} UL2-"))
                .expect_err(word);
            let matches = match &error {
                ClockError::Hours { index, word: w, .. }
                | ClockError::Pins { index, word: w, .. }
                | ClockError::NoTurn { index, word: w }
                | ClockError::Unknown { index, word: w } => *index == 2 && w == word,
            };
            assert!(matches, "{word}: {error:?}");
            assert!(format!("{error:?}").starts_with(kind), "{word}: {error:?}");
            assert!(error.to_string().contains(&format!("{word:?}")), "{error}");
            assert_eq!(clock, before, "{word}");
        }
        assert!(Clock::solved().apply_text("").is_ok());
    }
}
