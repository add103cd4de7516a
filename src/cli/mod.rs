//! Command-line interface of the `cubedb` binary.

mod bench;
mod io;
mod rolling;
mod rubik;

use clap::{Args, Parser, Subcommand};
use cubedb::engine::Engine;
use cubedb::judge::{InputError, JudgeError};
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code for malformed input.
const EXIT_BAD_INPUT: u8 = 2;

/// Exact answers to cube puzzles in their judge formats.
///
/// Tables are built on first use (in --data, default $CUBEDB_DATA or ./data).
#[derive(Debug, Parser)]
#[command(name = "cubedb", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Cubic eight-puzzle (POJ 3131): fewest rolls to a pattern of top colours.
    Rolling(rolling::RollingArgs),
    /// Rubik's cube (ZOJ 2477): fewest quarter turns; `solve` for any scramble.
    Rubik(rubik::RubikArgs),
    /// Run the same queries through both engines and compare time and answers.
    Bench(bench::BenchArgs),
}

/// Options every puzzle command shares.
#[derive(Debug, Args, Clone)]
pub struct CommonArgs {
    /// Judge input file [default: stdin].
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// Which engine answers: table lookups, or search from scratch.
    #[arg(long, value_enum, default_value_t = Engine::Table)]
    pub engine: Engine,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Entry point: runs the command and maps errors to exit codes (2 for bad input).
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rolling(args) => rolling::run(args),
        Command::Rubik(args) => rubik::run(args),
        Command::Bench(args) => bench::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("cubedb: error: {err:#}");
            if is_bad_input(&err) {
                ExitCode::from(EXIT_BAD_INPUT)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause.downcast_ref::<InputError>().is_some()
            || matches!(
                cause.downcast_ref::<JudgeError>(),
                Some(JudgeError::Input(_))
            )
    })
}
