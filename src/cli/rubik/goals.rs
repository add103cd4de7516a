//! `cubedb rubik solve --goal GOAL [--orientations all] [--all | --count N]` and
//! `cubedb rubik solve --facelets S` with `?`: the shortest sequences solving part of the
//! cube.

use super::args::{Orientations, SolveArgs};
use crate::cube_input::{cube_option, for_each_cube, parse_cube, CubeFormat};
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{
    GoalSolver, GoalSpec, GoalUnreachable, PartialSolver, PartialUnreachable, COUNT_EXTRA_LENGTH,
};
use cubedb::puzzles::rubik::goals::partial::{PartialCube, PartialError};
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs};
use cubedb::table::TableStore;
use std::io::Write;
use std::time::Instant;

/// The lengths and count of solutions asked: `(extra lengths, limit)`.
fn wanted(args: &SolveArgs) -> (u32, usize) {
    match (args.all, args.count) {
        (true, _) => (0, usize::MAX),
        (false, Some(n)) => (COUNT_EXTRA_LENGTH, n as usize),
        (false, None) => (0, 1),
    }
}

/// An error naming cube `number`.
fn cube_error(number: usize, problem: String) -> InputError {
    InputError {
        what: "cube",
        case: number,
        line: number,
        problem,
    }
}

/// Runs `solve --goal`.
pub fn run(args: SolveArgs) -> Result<()> {
    let text = args.goal.clone().context("--goal is required here")?;
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let spec: GoalSpec = text.parse().map_err(|problem| InputError {
        what: "option --goal",
        case: 1,
        line: 1,
        problem,
    })?;
    let solver = GoalSolver::open(&store, spec, args.metric, &progress)?;
    let every = args.orientations == Some(Orientations::All);
    let (lengths, limit) = wanted(&args);
    let batch = cube_option(&args.facelets, &args.scramble).is_none();
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let started = Instant::now();
        if batch {
            writeln!(out, "# cube {number}").context(crate::WRITING)?;
        }
        let answers = match solver.solve(&cube, every, lengths, limit) {
            Ok(answers) => answers,
            Err(e @ GoalUnreachable::NoPosition(_)) => {
                return Err(JudgeError::Unanswerable(cube_error(number, e.to_string())).into())
            }
            Err(e) => anyhow::bail!("cube {number}: {e}"),
        };
        for answer in &answers {
            for solution in &answer.solutions {
                let moves = format_moves(&merge_quarter_pairs(solution));
                if every {
                    writeln!(out, "{}: {moves}", answer.label).context(crate::WRITING)?;
                } else {
                    writeln!(out, "{moves}").context(crate::WRITING)?;
                }
            }
        }
        out.flush().context(crate::WRITING)?;
        if !args.quiet {
            let best = answers.iter().map(|a| a.optimal).min().unwrap_or(0);
            note!(
                "cube {number}: {} in {best} {}{} ({:.1} us)",
                if every {
                    format!("{}, best orientation", solver.name())
                } else {
                    solver.name()
                },
                args.metric.unit(),
                if every { "" } else { " (optimal)" },
                started.elapsed().as_secs_f64() * 1e6
            );
        }
        Ok(())
    };
    for_each_cube(&args.facelets, &args.scramble, solve_one)
}

/// `solve --facelets` with `?`: the shortest sequences bringing every named sticker to a
/// face of its colour.
pub fn run_partial(args: SolveArgs) -> Result<()> {
    let text = args
        .facelets
        .clone()
        .context("--facelets is required here")?;
    anyhow::ensure!(
        args.goal.is_none() && args.moves.is_none(),
        "facelets with ? name the stickers to solve; they do not combine with --goal or --moves"
    );
    let partial: PartialCube = text
        .parse()
        .map_err(|e: PartialError| cube_error(1, format!("facelets: {e}")))?;
    let started = Instant::now();
    let (lengths, limit) = wanted(&args);
    let (optimal, solutions) = match PartialSolver::new(partial, args.metric).solve(lengths, limit)
    {
        Ok(found) => found,
        Err(e @ PartialUnreachable::NoCube) => {
            return Err(JudgeError::Unanswerable(cube_error(1, e.to_string())).into())
        }
        Err(e) => anyhow::bail!("{e}"),
    };
    let mut out = cubedb::output::stdout()?;
    for solution in &solutions {
        writeln!(out, "{}", format_moves(&merge_quarter_pairs(solution)))
            .context(crate::WRITING)?;
    }
    out.flush().context(crate::WRITING)?;
    if !args.quiet {
        note!(
            "cube 1: {} solution(s) for the named stickers, optimal {optimal} {} ({:.3} s)",
            solutions.len(),
            args.metric.unit(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
