//! `cubedb rubik solve` without a length cap: optimal solutions, by the optimal solver's
//! tables or (`--engine search`) by IDA* alone.

use super::args::SolveArgs;
use crate::cube_input::{for_each_cube, parse_cube, CubeFormat};
use anyhow::{Context, Result};
use cubedb::engine::Engine;
use cubedb::limits::Stop;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::OptimalSolver;
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, IterationStart, Preset};
use cubedb::table::TableStore;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

/// How long a solve runs before a slow preset is pointed out.
const SLOW_SOLVE: std::time::Duration = std::time::Duration::from_secs(5);

/// Solves every cube optimally and prints one line of moves each.
pub fn run(args: SolveArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let solver = match args.engine {
        Engine::Table => {
            let store = TableStore::locate(args.data.clone());
            OptimalSolver::open(&store, args.metric, args.tables, &progress)?
        }
        Engine::Search => OptimalSolver::without_tables(args.metric),
    };
    let slow_noted = AtomicBool::new(false);
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        // On a terminal, each IDA* bound as it starts; once, a hint if the preset is slow.
        let status = progress.status();
        status.set_message(format!("cube {number}: starting"));
        let observe = |start: &IterationStart| {
            status.set_message(format!(
                "cube {number}: trying {} {} ({} nodes so far)",
                start.bound,
                args.metric.unit(),
                start.nodes
            ));
            if start.elapsed >= SLOW_SOLVE && !slow_noted.swap(true, Ordering::Relaxed) {
                if let Some(hint) = solver.preset().and_then(Preset::faster_options) {
                    progress.note(format!("note: {hint}"));
                }
            }
        };
        let solution = solver
            .solve_until(&cube, &Stop::never(), Some(&observe))?
            .context("internal error: nothing stopped the solve, yet it gave up")?;
        status.finish_and_clear();
        // A last check before anything is printed: the solution must solve the cube.
        anyhow::ensure!(
            cube.apply_all(&solution.moves).is_solved(),
            "cube {number}: internal error, the solution found does not solve the cube"
        );
        writeln!(
            out,
            "{}",
            format_moves(&merge_quarter_pairs(&solution.moves))
        )
        .context(crate::WRITING)?;
        out.flush().context(crate::WRITING)?;
        if !args.quiet {
            let secs = solution.elapsed.as_secs_f64();
            progress.note(format!(
                "cube {number}: {} {} ({} nodes, {:.3} s, {:.2} M nodes/s)",
                solution.length,
                args.metric.unit(),
                solution.nodes,
                secs,
                solution.nodes as f64 / secs.max(1e-9) / 1e6
            ));
        }
        Ok(())
    };
    for_each_cube(&args.facelets, &args.scramble, solve_one)
}
