//! `cubedb rubik solve --all`, `--count N` and `--moves M`: every optimal solution, the
//! first N by length, and shortest solutions with only some moves.

use super::args::SolveArgs;
use crate::cube_input::{cube_option, for_each_cube, parse_cube, CubeFormat};
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{NotInGroup, SolutionFinder};
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, parse_move_set, Metric};
use cubedb::table::TableStore;
use std::io::Write;

/// Runs `solve` with `--all`, `--count` or `--moves`.
pub fn run(args: SolveArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let metric = args.metric;
    let moves = match &args.moves {
        Some(text) => {
            Some(
                parse_move_set(text, metric == Metric::Qtm).map_err(|e| InputError {
                    what: "option --moves",
                    case: 1,
                    line: 1,
                    problem: e.to_string(),
                })?,
            )
        }
        None => None,
    };
    let store = TableStore::locate(args.data.clone());
    let one_each = !args.all && args.count.is_none();
    let finder = SolutionFinder::open(&store, metric, moves, args.tables, one_each, &progress)?;
    let limit = if args.all {
        usize::MAX
    } else {
        args.count.map_or(1, |n| n as usize)
    };
    let batch = cube_option(&args.facelets, &args.scramble).is_none();
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let listing = match finder.find(&cube, limit, args.all) {
            Ok(listing) => listing,
            Err(e @ NotInGroup::Outside(_)) => {
                return Err(JudgeError::Unanswerable(InputError {
                    what: "cube",
                    case: number,
                    line: number,
                    problem: e.to_string(),
                })
                .into())
            }
            Err(e) => anyhow::bail!("cube {number}: {e}"),
        };
        if batch {
            writeln!(out, "# cube {number}").context(crate::WRITING)?;
        }
        for solution in &listing.solutions {
            writeln!(out, "{}", format_moves(&merge_quarter_pairs(solution)))
                .context(crate::WRITING)?;
        }
        out.flush().context(crate::WRITING)?;
        if !args.quiet {
            let longest = listing
                .solutions
                .iter()
                .map(|s| metric.length(s))
                .max()
                .unwrap_or(listing.optimal);
            let lengths = if longest == listing.optimal {
                format!("{}", listing.optimal)
            } else {
                format!("{} to {longest}", listing.optimal)
            };
            note!(
                "cube {number}: {} solution(s) of {lengths} {}{} (optimal {}; {} nodes, {:.3} s)",
                listing.solutions.len(),
                metric.unit(),
                finder
                    .restriction()
                    .map_or(String::new(), |names| format!(" with {names}")),
                listing.optimal,
                listing.nodes,
                listing.elapsed.as_secs_f64()
            );
        }
        Ok(())
    };
    for_each_cube(&args.facelets, &args.scramble, solve_one)
}
