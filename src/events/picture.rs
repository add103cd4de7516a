//! Pictures of scrambled puzzles as SVG, drawn as the WCA's program draws them: an
//! N×N×N cube as a net (U above F; L, F, R, B in a row; D below F) in the WCA's colour
//! scheme (white U, green F, red R, yellow D, orange L, blue B).

use super::nxn::CubeN;
use std::fmt::Write;

/// The colour of each face's stickers, in the order U R F D L B.
pub const CUBE_COLOURS: [&str; 6] = [
    "#ffffff", "#ff0000", "#00d800", "#ffff00", "#ff8000", "#0000ff",
];

/// Where each face sits in the net, in face widths (column, row), in the order U R F D L B.
const NET: [(usize, usize); 6] = [(1, 0), (2, 1), (1, 1), (1, 2), (0, 1), (3, 1)];

/// Width of a face in the picture, in pixels (whatever the cube's size).
const FACE: usize = 60;
/// Space between faces, in pixels.
const GAP: usize = 4;

/// The net of `cube` as one line of SVG markup.
pub fn cube_net(cube: &CubeN) -> String {
    let n = cube.n();
    let cell = FACE as f64 / n as f64;
    let (width, height) = (4 * FACE + 5 * GAP, 3 * FACE + 4 * GAP);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
         viewBox=\"0 0 {width} {height}\">"
    );
    let stickers = cube.stickers();
    for (face, &(col, row)) in NET.iter().enumerate() {
        let x0 = GAP + col * (FACE + GAP);
        let y0 = GAP + row * (FACE + GAP);
        for r in 0..n {
            for c in 0..n {
                let colour = CUBE_COLOURS[stickers[face * n * n + r * n + c] as usize];
                // Writing to a String cannot fail.
                let _ = write!(
                    out,
                    "<rect x=\"{:.2}\" y=\"{:.2}\" width=\"{cell:.2}\" height=\"{cell:.2}\" \
                     fill=\"{colour}\" stroke=\"#000\" stroke-width=\"1\"/>",
                    x0 as f64 + c as f64 * cell,
                    y0 as f64 + r as f64 * cell,
                );
            }
        }
    }
    out.push_str("</svg>");
    out
}

/// Appends a filled polygon with a black outline (the pictures of the puzzles that are
/// not cubes), coordinates to a tenth of a pixel.
pub fn polygon(out: &mut String, points: &[(f64, f64)], colour: &str) {
    out.push_str("<polygon points=\"");
    for (j, (x, y)) in points.iter().enumerate() {
        // Writing to a String cannot fail.
        let _ = write!(out, "{}{x:.1},{y:.1}", if j > 0 { " " } else { "" });
    }
    let _ = write!(
        out,
        "\" fill=\"{colour}\" stroke=\"#000\" stroke-width=\"1\"/>"
    );
}

/// The colour of every sticker in a net drawn by [`cube_net`], face by face, in the
/// order the rectangles are drawn (what a test compares).
pub fn net_colours(svg: &str) -> Vec<&str> {
    svg.split("fill=\"")
        .skip(1)
        .filter_map(|rest| rest.split('"').next())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_solved_net_shows_each_face_in_its_colour() {
        for n in 2..=7 {
            let svg = cube_net(&CubeN::solved(n));
            let colours = net_colours(&svg);
            assert_eq!(colours.len(), 6 * n * n);
            for (i, colour) in colours.iter().enumerate() {
                assert_eq!(*colour, CUBE_COLOURS[i / (n * n)]);
            }
            assert!(!svg.contains('\n'));
        }
        let mut turned = CubeN::solved(3);
        turned.apply_text("R").expect("R");
        let svg = cube_net(&turned);
        let colours = net_colours(&svg);
        // U's right column shows F's green.
        assert_eq!([colours[2], colours[5], colours[8]], [CUBE_COLOURS[2]; 3]);
    }
}
