//! `cubedb rubik solve --goal GOAL [--orientations all] [--all | --count N]`: the
//! shortest sequences solving part of the cube.

use super::rubik::{cube_option, parse_cube, stdin_lines, CubeFormat, Orientations, SolveArgs};
use super::solutions::COUNT_EXTRA_LENGTH;
use anyhow::{Context, Result};
use cubedb::judge::JudgeError;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::goal::{orientation, Goal, GoalKind, GoalTable};
use cubedb::puzzles::rubik::symmetry::Symmetry;
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, Face};
use cubedb::table::TableStore;
use std::io::Write;
use std::time::Instant;

/// Runs `solve --goal`.
pub(super) fn run(args: SolveArgs) -> Result<()> {
    let goal = args.goal.context("--goal is required here")?;
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let table = GoalTable::load_or_build(&store, goal.kind, args.metric, &progress)?;
    // The frames to solve in: the goal's face, or every orientation.
    let frames: Vec<(String, Symmetry)> = match args.orientations {
        Some(Orientations::All) => every_orientation(),
        None => vec![(goal.to_string(), frame_of(goal))],
    };
    let (lengths, limit) = match (args.all, args.count) {
        (true, _) => (0, usize::MAX),
        (false, Some(n)) => (COUNT_EXTRA_LENGTH, n),
        (false, None) => (0, 1),
    };
    let labelled = frames.len() > 1;
    let batch = cube_option(&args.facelets, &args.scramble).is_none();
    let mut out = cubedb::output::stdout()?;
    let mut solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let started = Instant::now();
        if batch {
            writeln!(out, "# cube {number}").context(super::WRITING)?;
        }
        let mut best = u32::MAX;
        for (label, frame) in &frames {
            let (optimal, solutions) = table.solve(&cube, frame, lengths, limit);
            best = best.min(optimal);
            for solution in &solutions {
                // Checked on the cube itself: the goal holds, seen from the frame.
                let after = frame.conjugate(&cube.apply_all(solution));
                anyhow::ensure!(
                    goal.kind.reached(&after),
                    "cube {number}: internal error, a sequence found does not reach {label}"
                );
                let moves = format_moves(&merge_quarter_pairs(solution));
                if labelled {
                    writeln!(out, "{label}: {moves}").context(super::WRITING)?;
                } else {
                    writeln!(out, "{moves}").context(super::WRITING)?;
                }
            }
        }
        out.flush().context(super::WRITING)?;
        if !args.quiet {
            note!(
                "cube {number}: {} in {best} {}{} ({:.1} us)",
                if labelled {
                    format!("{}, best orientation", goal.kind.name())
                } else {
                    goal.to_string()
                },
                args.metric.unit(),
                if labelled { "" } else { " (optimal)" },
                started.elapsed().as_secs_f64() * 1e6
            );
        }
        Ok(())
    };
    match cube_option(&args.facelets, &args.scramble) {
        Some((text, format)) => solve_one(&text, format, 1)?,
        None => {
            let mut input = stdin_lines();
            while let Some((number, line)) = input.next_line().map_err(JudgeError::Read)? {
                solve_one(line, CubeFormat::Either, number)?;
            }
        }
    }
    Ok(())
}

/// The frame that puts the goal's face where the goal is defined: down, or for `eo` in
/// front.
fn frame_of(goal: Goal) -> Symmetry {
    let neighbour = |face: Face| {
        Face::ALL
            .into_iter()
            .find(|&f| f != face && f != face.opposite())
            .expect("every face has neighbours")
    };
    let found = if goal.kind == GoalKind::Eo {
        orientation(neighbour(goal.face), goal.face)
    } else {
        orientation(goal.face, neighbour(goal.face))
    };
    found.expect("a face and a neighbour fix a rotation")
}

/// All 24 orientations, labelled `down/front` (e.g. `D/F`).
fn every_orientation() -> Vec<(String, Symmetry)> {
    let mut frames = Vec::new();
    for down in Face::ALL {
        for front in Face::ALL {
            if front == down || front == down.opposite() {
                continue;
            }
            if let Some(frame) = orientation(down, front) {
                frames.push((format!("{}/{}", down.letter(), front.letter()), frame));
            }
        }
    }
    frames
}
