//! `cubedb rubik`: the Rubik's cube in the ZOJ 2477 judge format, and its subcommands:
//! `solve` (optimal, near-optimal, every solution, goals, partial cubes), `random`,
//! `scramble` and `show`.

mod args;
mod goals;
mod optimal;
mod show;
mod solutions;
mod twophase;

use super::CommonArgs;
use crate::input::open_input;
use anyhow::{Context, Result};
use args::{RandomArgs, ShowArgs, SolveArgs};
use clap::{Args, Subcommand};
use cubedb::engine::Engine;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::NearSolver;
use cubedb::puzzles::rubik::{self, facelet_string, Cube, Metric, Options};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::io::Write;

/// Arguments of `cubedb rubik`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct RubikArgs {
    #[command(subcommand)]
    command: Option<RubikCommand>,

    #[command(flatten)]
    common: CommonArgs,

    /// Answer -1 for cubes needing more than N quarter turns (the judge asks 5).
    #[arg(long, value_name = "N", default_value_t = rubik::JUDGE_LIMIT, value_parser = crate::ranges::judge_depth, allow_negative_numbers = true)]
    max_depth: u32,
}

#[derive(Debug, Subcommand)]
enum RubikCommand {
    /// Optimal solutions of scrambles or facelet strings, one line of moves each.
    Solve(SolveArgs),
    /// Uniformly random positions as facelet strings, one per line (input for `solve`).
    Random(RandomArgs),
    /// Random-state scrambles: a uniformly random position as at most 21 face turns.
    Scramble(RandomArgs),
    /// Shows a cube (a scramble or facelets) as a net, in colour on a terminal.
    Show(ShowArgs),
}

/// Runs `cubedb rubik` or its subcommand.
pub fn run(args: RubikArgs) -> Result<()> {
    match args.command {
        Some(RubikCommand::Solve(solve)) => run_solve(solve),
        Some(RubikCommand::Scramble(args)) => twophase::run_scramble(args),
        Some(RubikCommand::Show(args)) => show::run(args),
        Some(RubikCommand::Random(random)) => run_random(random),
        None => run_judge(args),
    }
}

/// `cubedb rubik solve`, by the mode its options ask for.
fn run_solve(solve: SolveArgs) -> Result<()> {
    if solve.max_length.is_some() {
        twophase::run_solve(solve)
    } else if solve.facelets.as_deref().is_some_and(|f| f.contains('?')) {
        goals::run_partial(solve)
    } else if solve.goal.is_some() {
        goals::run(solve)
    } else if solve.all || solve.count.is_some() || solve.moves.is_some() {
        solutions::run(solve)
    } else {
        optimal::run(solve)
    }
}

/// `cubedb rubik random`: uniformly random positions as facelet strings.
fn run_random(random: RandomArgs) -> Result<()> {
    let mut rng = SplitMix64::new(random.seed);
    let mut out = cubedb::output::stdout()?;
    for _ in 0..random.count {
        writeln!(out, "{}", facelet_string(&Cube::random(&mut rng))).context(crate::WRITING)?;
    }
    Ok(())
}

/// `cubedb rubik [INPUT]`: the ZOJ judge format.
fn run_judge(args: RubikArgs) -> Result<()> {
    let input = open_input(args.common.input.as_deref())?;
    let stdout = cubedb::output::stdout()?;
    let stderr = std::io::stderr();
    let options = Options {
        metric: Metric::Qtm,
        max_depth: args.max_depth,
    };
    let solver = match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            NearSolver::open(&store, options, &Progress::stderr(args.common.quiet))?
        }
        Engine::Search => NearSolver::without_tables(options),
    };
    rubik::answer_judge_input(input, &solver, stdout, stderr)?;
    Ok(())
}
