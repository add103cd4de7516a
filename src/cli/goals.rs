//! `cubedb rubik solve --goal GOAL [--orientations all] [--all | --count N]`: the
//! shortest sequences solving part of the cube.

use super::rubik::{cube_option, for_each_cube, parse_cube, CubeFormat, Orientations, SolveArgs};
use super::solutions::COUNT_EXTRA_LENGTH;
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::goal::{from_frame, orientation, Goal, GoalKind, GoalTable};
use cubedb::puzzles::rubik::mask::{Mask, MaskSearch};
use cubedb::puzzles::rubik::partial::{PartialCube, PartialError, PartialSearch};
use cubedb::puzzles::rubik::symmetry::Symmetry;
use cubedb::puzzles::rubik::{format_moves, merge_quarter_pairs, Cube, Face, Metric, Move};
use cubedb::table::TableStore;
use std::io::Write;
use std::time::Instant;

/// What `--goal` asks for, ready to solve.
enum Target {
    /// A named goal and its table.
    Named(Goal, GoalTable),
    /// A sticker mask and its search.
    Mask(Mask, MaskSearch),
}

impl Target {
    /// Solutions on `cube` seen through `frame`, in the cube's own moves.
    fn solve(
        &self,
        cube: &Cube,
        frame: &Symmetry,
        lengths: u32,
        limit: usize,
    ) -> (u32, Vec<Vec<Move>>) {
        match self {
            Target::Named(_, table) => table.solve(cube, frame, lengths, limit),
            Target::Mask(_, search) => {
                let (optimal, found) = search.solve(&frame.conjugate(cube), lengths, limit);
                let mut back: Vec<Vec<Move>> = found.iter().map(|s| from_frame(frame, s)).collect();
                back.sort_by_key(|s| s.iter().map(|m| m.index()).collect::<Vec<_>>());
                back.dedup();
                (optimal, back)
            }
        }
    }

    /// Whether the goal holds on `cube` seen through `frame`.
    fn reached(&self, seen: &Cube) -> bool {
        match self {
            Target::Named(goal, _) => goal.kind.reached(seen),
            Target::Mask(mask, _) => mask.holds(seen),
        }
    }

    /// The frame a single answer is solved in.
    fn frame(&self) -> Symmetry {
        match self {
            Target::Named(goal, _) => frame_of(*goal),
            Target::Mask(..) => orientation(Face::D, Face::F).expect("the identity"),
        }
    }

    fn name(&self) -> String {
        match self {
            Target::Named(goal, _) => goal.to_string(),
            Target::Mask(..) => "the mask".into(),
        }
    }
}

/// Reads `--goal`: a goal name (with its face), or a 54-character sticker mask.
fn parse_target(
    text: &str,
    metric: Metric,
    store: &TableStore,
    progress: &Progress,
) -> Result<Target> {
    let bad = |problem: String| InputError {
        what: "option --goal",
        case: 1,
        line: 1,
        problem,
    };
    let looks_like_mask = text.trim().chars().count() == 54 && !text.contains(':');
    if looks_like_mask {
        let mask: Mask = text
            .parse()
            .map_err(|e: cubedb::puzzles::rubik::mask::MaskError| bad(e.to_string()))?;
        let search = MaskSearch::new(&mask, metric);
        return Ok(Target::Mask(mask, search));
    }
    let goal: Goal = text
        .parse()
        .map_err(|e: String| bad(format!("{e}; or give a 54-character sticker mask")))?;
    let table = GoalTable::load_or_build(store, goal.kind, metric, progress)?;
    Ok(Target::Named(goal, table))
}

/// Runs `solve --goal`.
pub(super) fn run(args: SolveArgs) -> Result<()> {
    let text = args.goal.clone().context("--goal is required here")?;
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let target = parse_target(&text, args.metric, &store, &progress)?;
    // The frames to solve in: the goal's own, or every orientation.
    let frames: Vec<(String, Symmetry)> = match args.orientations {
        Some(Orientations::All) => every_orientation(),
        None => vec![(target.name(), target.frame())],
    };
    let (lengths, limit) = match (args.all, args.count) {
        (true, _) => (0, usize::MAX),
        (false, Some(n)) => (COUNT_EXTRA_LENGTH, n),
        (false, None) => (0, 1),
    };
    let labelled = frames.len() > 1;
    let batch = cube_option(&args.facelets, &args.scramble).is_none();
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let started = Instant::now();
        if batch {
            writeln!(out, "# cube {number}").context(super::WRITING)?;
        }
        let mut best = u32::MAX;
        for (label, frame) in &frames {
            let (optimal, solutions) = target.solve(&cube, frame, lengths, limit);
            if optimal == u32::MAX {
                return Err(JudgeError::Unanswerable(InputError {
                    what: "cube",
                    case: number,
                    line: number,
                    problem: format!("no position shows {}", target.name()),
                })
                .into());
            }
            best = best.min(optimal);
            for solution in &solutions {
                // Checked on the cube itself: the goal holds, seen from the frame.
                let after = frame.conjugate(&cube.apply_all(solution));
                anyhow::ensure!(
                    target.reached(&after),
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
                    format!("{}, best orientation", target.name())
                } else {
                    target.name()
                },
                args.metric.unit(),
                if labelled { "" } else { " (optimal)" },
                started.elapsed().as_secs_f64() * 1e6
            );
        }
        Ok(())
    };
    for_each_cube(&args, solve_one)
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

/// `solve --facelets` with `?`: the shortest sequences bringing every named sticker to a
/// face of its colour.
pub(super) fn run_partial(args: SolveArgs) -> Result<()> {
    let text = args
        .facelets
        .clone()
        .context("--facelets is required here")?;
    anyhow::ensure!(
        args.goal.is_none() && args.moves.is_none(),
        "facelets with ? name the stickers to solve; they do not combine with --goal or --moves"
    );
    let partial: PartialCube = text.parse().map_err(|e: PartialError| InputError {
        what: "cube",
        case: 1,
        line: 1,
        problem: format!("facelets: {e}"),
    })?;
    let started = Instant::now();
    let search = PartialSearch::new(&partial, args.metric);
    let (lengths, limit) = match (args.all, args.count) {
        (true, _) => (0, usize::MAX),
        (false, Some(n)) => (COUNT_EXTRA_LENGTH, n),
        (false, None) => (0, 1),
    };
    let (optimal, solutions) = search.solve(lengths, limit);
    if optimal == u32::MAX {
        return Err(JudgeError::Unanswerable(InputError {
            what: "cube",
            case: 1,
            line: 1,
            problem: "no sequence brings the named stickers to their colours: they are no part of a real cube".into(),
        })
        .into());
    }
    let mut out = cubedb::output::stdout()?;
    for solution in &solutions {
        anyhow::ensure!(
            partial.solved_by(solution),
            "internal error: a sequence found leaves a named sticker off its colour"
        );
        writeln!(out, "{}", format_moves(&merge_quarter_pairs(solution)))
            .context(super::WRITING)?;
    }
    out.flush().context(super::WRITING)?;
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
