//! `cubedb rubik show`: a cube as a net, in colour on a terminal.

use super::args::{ColourChoice, ShowArgs};
use crate::cube_input::{cube_option, parse_cube, stdin_lines, CubeFormat};
use anyhow::{Context, Result};
use cubedb::puzzles::rubik::{facelet_string, Cube, Face};
use std::io::{IsTerminal, Write};

/// ANSI background colour of each face in URFDLB order (the usual scheme: white up, green
/// front, red right) and the letter's foreground.
const FACE_STYLE: [&str; 6] = [
    "\x1b[30;107m",
    "\x1b[97;41m",
    "\x1b[30;42m",
    "\x1b[30;103m",
    "\x1b[30;48;5;208m",
    "\x1b[97;44m",
];

/// The net of a cube: U above F, then L F R B in a row, then D below F; each sticker as
/// its face letter, coloured when `colour`.
pub fn render_net(cube: &Cube, colour: bool) -> String {
    let letters: Vec<char> = facelet_string(cube).chars().collect();
    let sticker = |face: Face, index: usize| {
        let letter = letters[face.index() * 9 + index];
        let face_of_letter = Face::ALL.iter().position(|f| f.letter() == letter);
        match (colour, face_of_letter) {
            (true, Some(f)) => format!("{} {letter} \x1b[0m", FACE_STYLE[f]),
            _ => format!(" {letter} "),
        }
    };
    let row = |face: Face, r: usize| (0..3).map(|c| sticker(face, r * 3 + c)).collect::<String>();
    let pad = " ".repeat(9);
    let mut text = String::new();
    for r in 0..3 {
        text += &format!("{pad}{}\n", row(Face::U, r));
    }
    for r in 0..3 {
        for face in [Face::L, Face::F, Face::R, Face::B] {
            text += &row(face, r);
        }
        text += "\n";
    }
    for r in 0..3 {
        text += &format!("{pad}{}\n", row(Face::D, r));
    }
    text
}

/// `cubedb rubik show`.
pub fn run(args: ShowArgs) -> Result<()> {
    let (text, format) = match cube_option(&args.facelets, &args.scramble) {
        Some(given) => given,
        None => {
            let line = stdin_lines()
                .next_line()
                .map_err(cubedb::judge::JudgeError::Read)?
                .map(|(_, text)| text.to_string())
                .unwrap_or_default();
            (line, CubeFormat::Either)
        }
    };
    let cube = parse_cube(&text, format, 1)?;
    let colour = match args.colour {
        ColourChoice::Always => true,
        ColourChoice::Never => false,
        ColourChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let mut out = cubedb::output::stdout()?;
    out.write_all(render_net(&cube, colour).as_bytes())
        .context(crate::WRITING)?;
    out.flush().context(crate::WRITING)?;
    Ok(())
}
