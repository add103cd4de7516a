//! `cubedb rotation`: the rotation game in the POJ 2286 judge format.

use super::CommonArgs;
use crate::input::open_input;
use anyhow::Result;
use clap::Args;
use cubedb::engine::{Engine, Solver};
use cubedb::progress::Progress;
use cubedb::puzzles::rotation::{self, RotationTable, SearchSolver, TableSolver};
use cubedb::table::{TableFamily, TableStore};

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
    let table;
    let solver = match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            table = RotationTable::load_or_build(&store, (), &Progress::stderr(args.common.quiet))?;
            Solver::Table(TableSolver::new(&table))
        }
        Engine::Search => Solver::Search(SearchSolver),
    };
    rotation::answer_judge_input(input, &solver, stdout)?;
    Ok(())
}
