//! `cubedb walk`: cube on the walk (Timus 1016) in the judge format, on any board size,
//! with blocked squares; and its benchmark for `cubedb bench walk`.

use super::io::read_input;
use anyhow::{Context, Result};
use clap::Args;
use cubedb::judge::InputError;
use cubedb::puzzles::walk::board::{parse_blocked, BlockedFileError};
use cubedb::puzzles::walk::judge::format_case;
use cubedb::puzzles::walk::{self, Board, BoardSize, Case, WalkError, Walker};
use cubedb::rng::SplitMix64;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// Exit code for malformed input (judge input, blocked-squares file).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit code when a case's end square cannot be reached.
const EXIT_UNREACHABLE: u8 = 3;

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

/// Runs `cubedb walk` and chooses the exit code: 2 for bad input, 3 for an unreachable
/// end, 1 for anything else.
pub fn main(args: WalkArgs) -> ExitCode {
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("cubedb: error: {err:#}");
            ExitCode::from(exit_code(&err))
        }
    }
}

fn exit_code(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        if cause.downcast_ref::<InputError>().is_some()
            || cause.downcast_ref::<BlockedFileError>().is_some()
        {
            return EXIT_BAD_INPUT;
        }
        match cause.downcast_ref::<WalkError>() {
            Some(WalkError::Input(_)) => return EXIT_BAD_INPUT,
            Some(WalkError::Unreachable { .. }) => return EXIT_UNREACHABLE,
            _ => {}
        }
    }
    1
}

fn run(args: WalkArgs) -> Result<()> {
    let board = load_board(args.board, args.blocked.as_deref())?;
    let input = read_input(args.input.as_deref())?;
    walk::answer_judge_input(&input, &board, std::io::stdout().lock())?;
    Ok(())
}

/// The board of `size` with the squares listed in `blocked` (a file) blocked.
fn load_board(size: BoardSize, blocked: Option<&Path>) -> Result<Board> {
    let Some(path) = blocked else {
        return Ok(Board::open(size));
    };
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading blocked-squares file {}", path.display()))?;
    let squares = parse_blocked(&text, size)
        .with_context(|| format!("in blocked-squares file {}", path.display()))?;
    Ok(Board::with_blocked(size, &squares))
}

/// `cubedb bench walk [INPUT]`: end-to-end and solver-only throughput on random 8x8 cases
/// (or on INPUT), and the time of random cases on a 1000x1000 board.
pub fn bench(input: Option<&Path>) -> Result<()> {
    let chess = Board::open(BoardSize::CHESS);
    let mut rng = SplitMix64::new(1016);
    println!("walk: Dijkstra (A* potential) over (square, orientation), no tables");
    println!(
        "{:<34} {:>9} {:>12} {:>14}",
        "set", "cases", "time/case", "cases/s"
    );
    let text = match input {
        Some(path) => read_input(Some(path))?,
        None => {
            let mut text = String::new();
            for _ in 0..100_000 {
                format_case(&mut text, &random_case(&mut rng, BoardSize::CHESS), 8);
            }
            text
        }
    };
    let name = input.map_or("random 8x8".to_string(), |p| p.display().to_string());
    let cases: Vec<Case> = walk::parse_judge_input(&text, &chess)
        .map(|r| r.map(|l| l.case))
        .collect::<Result<_, _>>()
        .with_context(|| format!("in {name}"))?;
    let mut walker = Walker::new(&chess);
    let mut squares = Vec::new();
    let solve_only = time_per_item(&cases, Duration::from_millis(500), |case| {
        std::hint::black_box(walker.solve_into(case, &mut squares));
    });
    print_row(&format!("{name}: solve only"), cases.len(), solve_only);
    let started = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || started.elapsed() < Duration::from_millis(500) {
        walk::answer_judge_input(&text, &chess, std::io::sink())?;
        passes += 1;
    }
    let end_to_end = started.elapsed() / (passes * cases.len().max(1) as u32);
    print_row(
        &format!("{name}: parse+solve+print"),
        cases.len(),
        end_to_end,
    );

    let size = BoardSize {
        width: 1000,
        height: 1000,
    };
    let big = Board::open(size);
    let mut walker = Walker::new(&big);
    let mut corner = random_case(&mut rng, size);
    (corner.start, corner.end) = (0, size.squares() as u32 - 1);
    let mut big_cases = vec![corner];
    big_cases.extend((0..4).map(|_| random_case(&mut rng, size)));
    for (i, case) in big_cases.iter().enumerate() {
        let started = Instant::now();
        let cost = walker.solve_into(case, &mut squares);
        let elapsed = started.elapsed();
        let label = if i == 0 {
            "1000x1000 corner to corner".to_string()
        } else {
            format!("1000x1000 random #{i}")
        };
        print_row(&label, 1, elapsed);
        println!(
            "    {} -> {}: sum {}, {} squares",
            size.name(case.start),
            size.name(case.end),
            cost.map_or("unreachable".to_string(), |c| c.to_string()),
            squares.len()
        );
    }
    Ok(())
}

/// A random case on a board of `size`: distinct squares, numbers in 0..=1000.
fn random_case(rng: &mut SplitMix64, size: BoardSize) -> Case {
    let squares = size.squares() as u64;
    let start = rng.below(squares) as u32;
    let mut end = rng.below(squares - 1) as u32;
    if end >= start {
        end += 1;
    }
    Case {
        start,
        end,
        values: std::array::from_fn(|_| rng.below(1001) as u16),
    }
}

fn print_row(set: &str, cases: usize, per_case: Duration) {
    println!(
        "{set:<34} {cases:>9} {:>12} {:>14.0}",
        human(per_case),
        1.0 / per_case.as_secs_f64()
    );
}

/// Mean time of `f` over `items`, repeating the whole pass until at least `min_time`.
fn time_per_item<T>(items: &[T], min_time: Duration, mut f: impl FnMut(&T)) -> Duration {
    let started = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || started.elapsed() < min_time {
        items.iter().for_each(&mut f);
        passes += 1;
    }
    started.elapsed() / (passes * items.len().max(1) as u32)
}

/// A duration with a unit that suits it.
fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{:.2} us", s * 1e6)
    }
}
