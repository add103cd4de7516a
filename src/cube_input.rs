//! Reading cubes from options, stdin and files for every `rubik solve` mode, `rubik show`
//! and the Rubik benchmarks.

use anyhow::Result;
use cubedb::judge::{InputError, JudgeError, JudgeInput};
use cubedb::puzzles::rubik::{parse_facelets, parse_moves, Cube};

/// How a cube's text is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeFormat {
    /// `--facelets`: a 54-sticker facelet string, nothing else.
    Facelets,
    /// `--scramble`: moves, nothing else.
    Scramble,
    /// A line of input: facelets if it looks like them ([`looks_like_facelets`]), else
    /// moves.
    Either,
}

/// Standard input as lines: each with its number, at most [`cubedb::judge::MAX_LINE`]
/// bytes, UTF-8 (errors name the line).
pub fn stdin_lines() -> JudgeInput<std::io::BufReader<std::io::Stdin>> {
    JudgeInput::new(std::io::BufReader::new(std::io::stdin()))
}

/// The cube given by `--facelets` or `--scramble` (with its format), if any.
pub fn cube_option(
    facelets: &Option<String>,
    scramble: &Option<String>,
) -> Option<(String, CubeFormat)> {
    match (facelets, scramble) {
        (Some(text), _) => Some((text.clone(), CubeFormat::Facelets)),
        (None, Some(text)) => Some((text.clone(), CubeFormat::Scramble)),
        (None, None) => None,
    }
}

/// Calls `solve_one` with the cube of `--facelets` / `--scramble` (number 1), else with
/// every line of stdin (numbered by line), stopping at the first error.
pub fn for_each_cube(
    facelets: &Option<String>,
    scramble: &Option<String>,
    mut solve_one: impl FnMut(&str, CubeFormat, usize) -> Result<()>,
) -> Result<()> {
    match cube_option(facelets, scramble) {
        Some((text, format)) => solve_one(&text, format, 1),
        None => {
            let mut input = stdin_lines();
            while let Some((number, line)) = input.next_line().map_err(JudgeError::Read)? {
                solve_one(line, CubeFormat::Either, number)?;
            }
            Ok(())
        }
    }
}

/// The rule for a line that may be either: facelets are 54 characters without spaces in
/// exactly six distinct colours; anything else is moves. (A line fitting both, such as the
/// solved cube's facelets `UUUUUUUUURRR...`, is read as facelets.)
fn looks_like_facelets(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut colours: Vec<char> = chars.clone();
    colours.sort_unstable();
    colours.dedup();
    chars.len() == 54 && !chars.iter().any(|c| c.is_whitespace()) && colours.len() == 6
}

/// For a cube given as moves, their length in `metric`: the cube is solved within it.
pub fn scramble_length(
    text: &str,
    format: CubeFormat,
    metric: cubedb::puzzles::rubik::Metric,
) -> Option<u32> {
    let trimmed = text.trim();
    let moves = match format {
        CubeFormat::Facelets => false,
        CubeFormat::Scramble => true,
        CubeFormat::Either => !looks_like_facelets(trimmed),
    };
    moves
        .then(|| parse_moves(trimmed).ok())
        .flatten()
        .map(|moves| metric.length(&moves))
}

/// Reads one cube in `format`; errors name cube `number`.
pub fn parse_cube(text: &str, format: CubeFormat, number: usize) -> Result<Cube, InputError> {
    let error = |problem: String| InputError {
        what: "cube",
        case: number,
        line: number,
        problem,
    };
    let trimmed = text.trim();
    let facelets = match format {
        CubeFormat::Facelets => true,
        CubeFormat::Scramble => false,
        CubeFormat::Either => looks_like_facelets(trimmed),
    };
    if facelets {
        parse_facelets(trimmed).map_err(|e| error(format!("facelets: {e}")))
    } else {
        let moves = parse_moves(trimmed).map_err(|e| error(e.to_string()))?;
        Ok(Cube::from_moves(&moves))
    }
}
