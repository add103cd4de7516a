//! `cubedb rolling`: the cubic eight-puzzle in the POJ 3131 judge format.

use super::io::open_input;
use super::CommonArgs;
use anyhow::Result;
use clap::Args;
use cubedb::engine::Engine;
use cubedb::progress::Progress;
use cubedb::puzzles::rolling::{self, RollingTables, SearchSolver, Solver, TableSolver};
use cubedb::table::TableStore;

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
    match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            let tables =
                RollingTables::load_or_build(&store, &Progress::stderr(args.common.quiet))?;
            let solver = Solver::Table(TableSolver::new(&tables));
            rolling::answer_judge_input(input, &solver, args.path, stdout)?;
        }
        Engine::Search => {
            let solver = Solver::Search(SearchSolver);
            rolling::answer_judge_input(input, &solver, args.path, stdout)?;
        }
    }
    Ok(())
}
