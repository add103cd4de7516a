//! `cubedb rubik solve` without a length cap: optimal solutions, by the optimal solver's
//! tables or (`--engine search`) by IDA* alone.
//!
//! Before the first long search it says what the solve will likely cost with the tables
//! at hand (a short look at the search, extrapolated: `OptimalSolver::outlook`), and
//! which faster presets this machine can build, how big and how long.

use super::args::SolveArgs;
use crate::cube_input::{for_each_cube, parse_cube, scramble_length, CubeFormat};
use anyhow::{Context, Result};
use cubedb::engine::Engine;
use cubedb::limits::Stop;
use cubedb::machine::bytes_text;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{Advice, OptimalSolver, Outlook, PresetOffer};
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, IterationStart, Metric, Preset};
use cubedb::table::TableStore;
use std::io::Write;
use std::time::Duration;

/// How long the search is watched before its cost is foretold.
const LOOK: Duration = Duration::from_millis(300);

/// Solves foretold to take longer than this are announced, with the faster options.
const ANNOUNCE_SECONDS: f64 = 10.0;

/// Solves every cube optimally and prints one line of moves each.
pub fn run(args: SolveArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    if !args.quiet && args.engine == Engine::Table {
        if let Some(preset) = OptimalSolver::to_build(&store, args.metric, args.tables) {
            announce_first_use(&progress, &store, args.metric, preset);
        }
    }
    let solver = match args.engine {
        Engine::Table => OptimalSolver::open(&store, args.metric, args.tables, &progress)?,
        Engine::Search => OptimalSolver::without_tables(args.metric),
    };
    // Until one cube has needed a search, the next one is looked at first.
    let mut looked = args.quiet || args.engine == Engine::Search;
    let mut out = cubedb::output::stdout()?;
    let mut solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let mut solution = None;
        if !looked {
            let at_most = scramble_length(text, format, args.metric);
            let outlook = solver.outlook(&cube, at_most, LOOK)?;
            match outlook.solved {
                Some(found) => solution = Some(found),
                None => {
                    looked = true;
                    if outlook.seconds >= ANNOUNCE_SECONDS {
                        announce(&progress, &store, &solver, &outlook, number);
                    }
                }
            }
        }
        let solution = match solution {
            Some(found) => found,
            None => {
                // On a terminal, each IDA* bound as it starts.
                let status = progress.status();
                status.set_message(format!("cube {number}: starting"));
                let observe = |start: &IterationStart| {
                    status.set_message(format!(
                        "cube {number}: trying {} {} ({} nodes so far)",
                        start.bound,
                        args.metric.unit(),
                        start.nodes
                    ));
                };
                let found = solver
                    .solve_until(&cube, &Stop::never(), Some(&observe))?
                    .context("internal error: nothing stopped the solve, yet it gave up")?;
                status.finish_and_clear();
                found
            }
        };
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
    for_each_cube(&args.facelets, &args.scramble, &mut solve_one)
}

/// Before a first use builds a preset: what it builds, what a random position will cost
/// with it, and what would be faster; said at once, before the build starts.
fn announce_first_use(progress: &Progress, store: &TableStore, metric: Metric, preset: Preset) {
    use cubedb::machine::duration_text;
    let figures = preset.figures(metric);
    let speed = match figures.random_median_seconds {
        Some(seconds) => format!("about {} per random position", duration_text(seconds)),
        None => "minutes to hours per random position".into(),
    };
    progress.note(format!(
        "the {} preset is not built in {}: a cube more than 7 quarter turns deep builds it \
         first ({} on disk, about {}), then solves in {speed}",
        preset.name(),
        store.dir().display(),
        bytes_text(preset.bytes(metric)),
        duration_text(f64::from(figures.build_seconds_on_two_cores)),
    ));
    let seconds = figures.random_median_seconds.unwrap_or(f64::INFINITY);
    let advice = OptimalSolver::advice(store, metric, Some(preset), seconds);
    note_faster(progress, &advice, metric, false);
}

/// What would be faster than the optimal solve foretold: the presets this machine can
/// build (or, with `out_of_reach`, the next one and what it would need), then the
/// near-optimal search.
fn note_faster(progress: &Progress, advice: &Advice, metric: Metric, out_of_reach: bool) {
    let offer = |o: &PresetOffer| format!("--tables {}: {}", o.preset.name(), o.summary());
    if !advice.offers.is_empty() {
        let offers: Vec<String> = advice.offers.iter().map(offer).collect();
        progress.note(format!(
            "faster (this machine has {}): {}",
            advice.room,
            offers.join("; ")
        ));
    } else if let Some(o) = advice.out_of_reach.as_ref().filter(|_| out_of_reach) {
        progress.note(format!(
            "no faster preset fits this machine ({}): {} needs {} of memory and {} of disk \
             to build",
            advice.room,
            o.preset.name(),
            bytes_text(o.build_memory),
            bytes_text(o.bytes)
        ));
    }
    let quick = match metric {
        Metric::Htm => 20,
        Metric::Qtm => 26,
    };
    progress.note(format!(
        "or, near-optimal: --max-length {quick} answers in milliseconds"
    ));
}

/// The cost foretold, and what would be faster: a few lines on stderr.
fn announce(
    progress: &Progress,
    store: &TableStore,
    solver: &OptimalSolver,
    outlook: &Outlook,
    number: usize,
) {
    let metric = solver.metric();
    let current = solver.preset();
    let tables = current.map_or("these", |p| p.name());
    progress.note(format!(
        "cube {number}: this optimal solve will take {}",
        outlook.summary(metric, tables)
    ));
    let advice = OptimalSolver::advice(store, metric, current, outlook.seconds);
    note_faster(progress, &advice, metric, true);
}
