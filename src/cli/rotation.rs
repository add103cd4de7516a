//! `cubedb rotation`: the rotation game in the POJ 2286 judge format.

use super::io::open_input;
use super::CommonArgs;
use anyhow::Result;
use clap::Args;
use cubedb::engine::Engine;
use cubedb::progress::Progress;
use cubedb::puzzles::rotation::{self, RotationTable, SearchSolver, Solver, TableSolver};
use cubedb::table::TableStore;

/// Arguments of `cubedb rotation`.
#[derive(Debug, Args)]
pub struct RotationArgs {
    #[command(flatten)]
    common: CommonArgs,
}

/// Answers the judge input.
pub fn run(args: RotationArgs) -> Result<()> {
    let input = open_input(args.common.input.as_deref())?;
    let stdout = cubedb::output::stdout()?;
    match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            let table = RotationTable::load_or_build(&store, &Progress::stderr(args.common.quiet))?;
            rotation::answer_judge_input(input, &Solver::Table(TableSolver::new(&table)), stdout)?;
        }
        Engine::Search => {
            rotation::answer_judge_input(input, &Solver::Search(SearchSolver), stdout)?;
        }
    }
    Ok(())
}
