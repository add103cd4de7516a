//! `cubedb rolling`: the cubic eight-puzzle in the POJ 3131 judge format.

use super::CommonArgs;
use crate::input::open_input;
use anyhow::Result;
use clap::Args;
use cubedb::engine::{Engine, Solver};
use cubedb::progress::Progress;
use cubedb::puzzles::rolling::{
    self, Options, RollingTables, RollingUse, SearchSolver, TableSolver, JUDGE_LIMIT,
};
use cubedb::table::{TableFamily, TableStore};

/// Arguments of `cubedb rolling`.
#[derive(Debug, Args)]
pub struct RollingArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// After each answer, print an optimal sequence of rolls: one letter per roll, the
    /// direction the cube moves into the empty cell (L, R, U = toward row 1, D = toward
    /// row 3); an empty line for 0 moves or -1.
    #[arg(long)]
    path: bool,
}

/// Answers the judge input.
pub fn run(args: RollingArgs) -> Result<()> {
    let input = open_input(args.common.input.as_deref())?;
    let stdout = cubedb::output::stdout()?;
    let options = Options {
        limit: JUDGE_LIMIT,
        with_path: args.path,
    };
    let tables;
    let solver = match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            // The 11 MB depth table only when paths are asked for.
            let used = match args.path {
                true => RollingUse::Paths,
                false => RollingUse::Answers,
            };
            tables =
                RollingTables::load_or_build(&store, used, &Progress::stderr(args.common.quiet))?;
            Solver::Table(TableSolver::new(&tables, options))
        }
        Engine::Search => Solver::Search(SearchSolver::new(options)),
    };
    rolling::answer_judge_input(input, &solver, args.path, stdout)?;
    Ok(())
}
