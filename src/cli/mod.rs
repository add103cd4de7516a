//! Command-line interface of the `cubedb` binary: one module per puzzle command and the
//! in-order batch pipeline (the cube reader of the `rubik` subcommands, shared with the
//! benchmarks, is `crate::cube_input`).

mod pipeline;
mod puzzle;
mod rolling;
mod rotation;
mod rubik;
mod scramble;
mod soma;
mod walk;

use clap::{Args, Parser, Subcommand};
use cubedb::engine::Engine;
use cubedb::judge::{InputError, JudgeError};
use cubedb::puzzles::perm::DefinitionFileError;
use cubedb::puzzles::walk::board::BlockedFileError;
use std::path::PathBuf;
use std::process::ExitCode;

/// Exit code for malformed input (judge input, or a file given by an option).
const EXIT_BAD_INPUT: u8 = 2;
/// Exit code for a well-formed case that has no answer (a walled-off walk target).
const EXIT_NO_ANSWER: u8 = 3;

/// Exact answers to cube puzzles in their judge formats.
///
/// Tables are built on first use (in --data, default $CUBEDB_DATA or ./data).
#[derive(Debug, Parser)]
#[command(name = "cubedb", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,

    /// Threads for searches and table builds [default: one per core].
    #[arg(long, global = true, value_name = "N", value_parser = crate::ranges::threads, allow_negative_numbers = true)]
    threads: Option<std::num::NonZeroUsize>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Cubic eight-puzzle (POJ 3131): fewest rolls to a pattern of top colours.
    Rolling(rolling::RollingArgs),
    /// Rotation game (POJ 2286): fewest line shifts filling the centre with one digit.
    Rotation(rotation::RotationArgs),
    /// Cube on the walk (Timus 1016): cheapest rolling route between two squares.
    Walk(walk::WalkArgs),
    /// Soma cube (UVa 197): every assembly with piece a in a given orientation.
    Soma(soma::SomaArgs),
    /// Rubik's cube (ZOJ 2477): fewest quarter turns; `solve` for any scramble.
    Rubik(rubik::RubikArgs),
    /// Any permutation puzzle from a `.tws` definition file: info, God's algorithm,
    /// optimal solving, scrambles.
    Puzzle(puzzle::PuzzleArgs),
    /// Scrambles for a WCA event (random state where the WCA's program draws one), in
    /// its notation.
    Scramble(scramble::ScrambleArgs),
    /// Run the same queries through both engines and compare time and answers.
    Bench(crate::bench::BenchArgs),
    /// HTTP service and web page for the Rubik solvers (JSON API; loopback by default).
    #[cfg(feature = "serve")]
    Serve(crate::serve::ServeArgs),
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
    // Every command writes to stdout: refuse a closed one before doing any work.
    if let Err(err) = cubedb::output::stdout() {
        note!("cubedb: error: {err}");
        return ExitCode::FAILURE;
    }
    let cli = match Cli::try_parse().map_err(cubedb::text::cut_quoted_values) {
        Ok(cli) => cli,
        // Help, version, or a usage error; help that cannot be written is an error too.
        Err(err) => {
            return match err.print() {
                Ok(()) => ExitCode::from(err.exit_code().clamp(0, 255) as u8),
                Err(e) => {
                    note!("cubedb: error: writing output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    };
    cubedb::set_threads(cli.threads);
    let result = match cli.command {
        Command::Rolling(args) => rolling::run(args),
        Command::Rotation(args) => rotation::run(args),
        Command::Walk(args) => walk::run(args),
        Command::Soma(args) => soma::run(args),
        Command::Rubik(args) => rubik::run(args),
        Command::Puzzle(args) => puzzle::run(args),
        Command::Scramble(args) => scramble::run(args),
        Command::Bench(args) => crate::bench::run(args),
        #[cfg(feature = "serve")]
        Command::Serve(args) => crate::serve::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            note!("cubedb: error: {err:#}");
            ExitCode::from(exit_code(&err))
        }
    }
}

/// 2 for bad input, 3 for a case without an answer, 1 for anything else.
fn exit_code(err: &anyhow::Error) -> u8 {
    for cause in err.chain() {
        if cause.downcast_ref::<InputError>().is_some()
            || cause.downcast_ref::<BlockedFileError>().is_some()
            || matches!(
                cause.downcast_ref::<DefinitionFileError>(),
                Some(DefinitionFileError::Invalid { .. })
            )
        {
            return EXIT_BAD_INPUT;
        }
        // A table the plan asks for, over --memory.
        if matches!(
            cause.downcast_ref::<cubedb::puzzles::perm::ExactError>(),
            Some(cubedb::puzzles::perm::ExactError::BuildTooBig(_))
        ) {
            return EXIT_BAD_INPUT;
        }
        if matches!(
            cause.downcast_ref::<cubedb::events::EventError>(),
            Some(
                cubedb::events::EventError::Unknown { .. }
                    | cubedb::events::EventError::NoRandomState(_)
            )
        ) {
            return EXIT_BAD_INPUT;
        }
        match cause.downcast_ref::<JudgeError>() {
            Some(JudgeError::Input(_)) => return EXIT_BAD_INPUT,
            Some(JudgeError::Read(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                return EXIT_BAD_INPUT
            }
            Some(JudgeError::Unanswerable(_)) => return EXIT_NO_ANSWER,
            _ => {}
        }
    }
    1
}
