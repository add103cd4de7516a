//! `cubedb soma`: the Soma cube in the UVa 197 judge format, and `--stats` on the catalogue.

use super::CommonArgs;
use crate::input::open_input;
use anyhow::Result;
use clap::Args;
use cubedb::engine::{Engine, Solver};
use cubedb::progress::Progress;
use cubedb::puzzles::soma::{
    self, assembly::enumerate_all, geometry, geometry::mask_text, SearchSolver, SomaTables, Stats,
    TableSolver,
};
use cubedb::table::{TableFamily, TableStore};

/// Arguments of `cubedb soma`.
#[derive(Debug, Args)]
pub struct SomaArgs {
    #[command(flatten)]
    common: CommonArgs,

    /// Instead of answering input, count every assembly: in all, up to rotation, up to
    /// rotation and mirroring, and by orientation of piece a.
    #[arg(long, conflicts_with = "input")]
    stats: bool,
}

/// Answers the judge input, or prints the statistics.
pub fn run(args: SomaArgs) -> Result<()> {
    let progress = Progress::stderr(args.common.quiet);
    let store = TableStore::locate(args.common.data.clone());
    if args.stats {
        let assemblies = match args.common.engine {
            Engine::Table => SomaTables::load_or_build(&store, (), &progress)?.all(),
            Engine::Search => enumerate_all(geometry()).0,
        };
        print_stats(&Stats::of(geometry(), &assemblies))?;
        return Ok(());
    }
    let input = open_input(args.common.input.as_deref())?;
    let stdout = cubedb::output::stdout()?;
    let tables;
    let solver = match args.common.engine {
        Engine::Table => {
            tables = SomaTables::load_or_build(&store, (), &progress)?;
            Solver::Table(TableSolver::new(&tables))
        }
        Engine::Search => Solver::Search(SearchSolver::new()),
    };
    soma::answer_judge_input(input, &solver, stdout)?;
    Ok(())
}

fn print_stats(stats: &Stats) -> Result<()> {
    say!("assemblies: {}", stats.total);
    say!("classes up to rotation: {}", stats.rotation_classes);
    say!(
        "classes up to rotation and mirroring: {}",
        stats.symmetry_classes
    );
    say!("assemblies by orientation of piece a (shown at the corner of the cube):");
    let orientations = &geometry().piece_a().orientations;
    for (k, (&shape, &count)) in orientations.iter().zip(&stats.per_orientation).enumerate() {
        say!("  {k:>2}  {}  {count}", mask_text(shape, b'a'));
    }
    Ok(())
}
