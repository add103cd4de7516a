//! `cubedb walk`: cube on the walk (Timus 1016) in the judge format, on any board size,
//! with blocked squares.

use crate::input::open_input;
use anyhow::{Context, Result};
use clap::Args;
use cubedb::puzzles::walk::board::read_blocked;
use cubedb::puzzles::walk::{self, Board, BoardSize};
use std::path::{Path, PathBuf};

/// Arguments of `cubedb walk`.
#[derive(Debug, Args)]
#[command(after_help = "\
Input: one case per line: start square, end square, then the numbers (0..1000) on the \
near, far, top, right, bottom and left faces, e.g. `e2 e3 0 8 1 2 1 1`. Near faces row 1, \
right faces the last column. Output: one line per case, the minimal sum of the numbers \
touching the board (start and end included), then a cheapest route, start to end.

Squares: column letters a..z, aa, ab, ..., az, ba, ... then the row number from 1 \
(`aa10` is column 27, row 10); on 8x8 these are the chessboard names a1..h8.

Exit codes: 0 all cases answered; 2 bad input (the message names the case and line, or \
the blocked file and line; earlier answers are printed); 3 an end square walled off by \
blocked squares (earlier answers are printed, no route for that case); 1 other errors.")]
pub struct WalkArgs {
    /// Judge input file, one case per line [default: stdin].
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,

    /// Board size, columns x rows (at most 2048x2048 squares in all).
    #[arg(long, value_name = "WxH", default_value = "8x8")]
    board: BoardSize,

    /// File of squares the cube may not enter: names separated by whitespace, `#` starts a
    /// comment.
    #[arg(long, value_name = "FILE")]
    blocked: Option<PathBuf>,
}

/// Answers the judge input on the board asked for.
pub fn run(args: WalkArgs) -> Result<()> {
    let board = load_board(args.board, args.blocked.as_deref())?;
    let input = open_input(args.input.as_deref())?;
    walk::answer_judge_input(input, &board, cubedb::output::stdout()?)?;
    Ok(())
}

/// The board of `size` with the squares listed in `blocked` (a file) blocked.
fn load_board(size: BoardSize, blocked: Option<&Path>) -> Result<Board> {
    let Some(path) = blocked else {
        return Ok(Board::open(size));
    };
    let file = std::fs::File::open(path)
        .with_context(|| format!("reading blocked-squares file {}", path.display()))?;
    let squares = read_blocked(std::io::BufReader::new(file), size)
        .with_context(|| format!("in blocked-squares file {}", path.display()))?;
    Ok(Board::with_blocked(size, &squares))
}
