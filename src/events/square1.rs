//! The Square-1's picture, drawn from a state of its definition (`puzzles/square-1.tws`:
//! 12 slots of 30 degrees a layer, a corner filling a slot and the "second half" slot
//! after it, the equator's flip) in the WCA program's colours (yellow top, white bottom,
//! red front, blue left, orange back, green right): the top layer seen from above with
//! the front below it, the equator's front, the bottom layer seen from below with the
//! front above it; each piece with its side stickers as a band around it.
//!
//! Geometry: the slash line runs from back to front, 15 degrees off the middle. Top
//! slots run clockwise seen from above from its back end (top slots 1-6 are the right
//! half); the slash turns the right half over about the axis across the line, taking
//! top slot i to bottom slot i, so bottom slots run clockwise seen from below from the
//! line's front end.

use super::picture::polygon;
use super::stickers::PictureError;
use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::PermPuzzle;
use std::f64::consts::PI;

const TOP: &str = "#ffff00";
const BOTTOM: &str = "#ffffff";
/// Sides in the order back, right, front, left.
const SIDES: [&str; 4] = ["#ff8000", "#00d800", "#ff0000", "#0000ff"];
const FRONT: usize = 2;
const BACK: usize = 0;
/// Half the width of a layer in cube shape, in pixels.
const HALF: f64 = 36.0;
/// How far the side band reaches out, as a multiple of a piece's reach.
const BAND: f64 = 1.3;
const MARGIN: f64 = 4.0;
/// Height of the equator's bar.
const BAR: f64 = 14.0;

/// Where a piece lives when solved.
struct Home {
    top: bool,
    /// Side colours, in slot order (one for an edge, two for a corner).
    sides: Vec<usize>,
}

/// The side (index into [`SIDES`]) a slot faces when solved: top slots 11, 12 and 1
/// face the back, then clockwise seen from above; bottom slots 12, 1 and 2 face the
/// front, then clockwise seen from below (slots from 0 here).
fn side_of(slot: usize) -> usize {
    let k = slot % 12;
    if slot < 12 {
        // Back 10 11 0, right 1 2 3, front 4 5 6, left 7 8 9.
        k.div_ceil(3) % 4
    } else {
        // Front 11 0 1, right 2 3 4, back 5 6 7, left 8 9 10.
        [FRONT, 1, BACK, 3][(k + 1) / 3 % 4]
    }
}

/// The picture of `state`, a state of the Square-1 definition `puzzle`.
pub fn picture(puzzle: &PermPuzzle, state: &Element) -> Result<String, PictureError> {
    let bad = |rule: &str| PictureError::State {
        name: "square-1".into(),
        rule: rule.into(),
    };
    let set = |name: &str| {
        puzzle
            .sets
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| bad(&format!("the definition has no set {name}")))
    };
    let (slice, middle) = (set("SLICE")?, set("MIDDLE")?);
    let solved = &puzzle.solved.orbits[slice].perm;
    if solved.len() != 24 {
        return Err(bad("SLICE has 24 slots"));
    }
    // The second half of every corner is the one label seen more than once.
    let half = *solved
        .iter()
        .find(|&&l| solved.iter().filter(|&&m| m == l).count() > 1)
        .ok_or_else(|| bad("no corner halves"))?;
    let home = |label: u8| -> Result<Home, PictureError> {
        let h = solved
            .iter()
            .position(|&l| l == label)
            .ok_or_else(|| bad(&format!("no piece {label}")))?;
        let layer = h / 12 * 12;
        let next = layer + (h + 1) % 12;
        let mut sides = vec![side_of(h)];
        if solved[next] == half {
            sides.push(side_of(next));
        }
        Ok(Home { top: h < 12, sides })
    };
    let reach = HALF / (PI / 12.0).cos();
    let size = 2.0 * HALF * 2f64.sqrt() * BAND + 2.0 * MARGIN;
    let (width, height) = (size, 2.0 * size + BAR);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" \
         viewBox=\"0 0 {width:.1} {height:.1}\">"
    );
    let perm = &state.orbits[slice].perm;
    for (layer, centre_y, start) in [(0, size / 2.0, 15.0), (12, size + BAR + size / 2.0, 345.0)] {
        let centre = (width / 2.0, centre_y);
        // Angle on the page, clockwise from up, of slot k's start.
        let at = |k: f64, r: f64| {
            let a = (start + 30.0 * k).to_radians();
            (centre.0 + r * a.sin(), centre.1 - r * a.cos())
        };
        for k in 0..12 {
            let label = perm[layer + k];
            if label == half {
                continue;
            }
            let piece = home(label)?;
            let kf = k as f64;
            let top = if piece.top { TOP } else { BOTTOM };
            if piece.sides.len() == 1 {
                let (a, b) = (at(kf, reach), at(kf + 1.0, reach));
                polygon(&mut out, &[centre, a, b], top);
                let (a2, b2) = (at(kf, reach * BAND), at(kf + 1.0, reach * BAND));
                polygon(&mut out, &[a, a2, b2, b], SIDES[piece.sides[0]]);
            } else {
                if k == 11 || perm[layer + k + 1] != half {
                    return Err(bad(&format!(
                        "a corner without its second half at slot {}",
                        layer + k + 1
                    )));
                }
                let tip = HALF * 2f64.sqrt();
                let (a, m, b) = (at(kf, reach), at(kf + 1.0, tip), at(kf + 2.0, reach));
                polygon(&mut out, &[centre, a, m, b], top);
                let (a2, m2, b2) = (
                    at(kf, reach * BAND),
                    at(kf + 1.0, tip * BAND),
                    at(kf + 2.0, reach * BAND),
                );
                polygon(&mut out, &[a, a2, m2, m], SIDES[piece.sides[0]]);
                polygon(&mut out, &[m, m2, b2, b], SIDES[piece.sides[1]]);
            }
        }
    }
    // The equator seen from the front: its left half never moves; its right half shows
    // the back's colour when flipped.
    let flipped = state.orbits[middle].ori.first().copied().unwrap_or(0) != 0;
    let (left, y) = (MARGIN + size * 0.1, size);
    let bar_width = (width - 2.0 * left) / 2.0;
    polygon(
        &mut out,
        &[
            (left, y),
            (left + bar_width, y),
            (left + bar_width, y + BAR),
            (left, y + BAR),
        ],
        SIDES[FRONT],
    );
    let right = left + bar_width;
    polygon(
        &mut out,
        &[
            (right, y),
            (right + bar_width, y),
            (right + bar_width, y + BAR),
            (right, y + BAR),
        ],
        SIDES[if flipped { BACK } else { FRONT }],
    );
    out.push_str("</svg>");
    Ok(out)
}
