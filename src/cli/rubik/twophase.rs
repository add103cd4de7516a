//! `cubedb rubik solve --max-length N` (two-phase, batches on every core) and
//! `cubedb rubik scramble`.

use super::args::{RandomArgs, SolveArgs};
use crate::cli::pipeline::{cores, in_order_on_all_cores, Jobs};
use crate::cube_input::{cube_option, parse_cube, stdin_lines, CubeFormat};
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{TwoPhaseAnswer, TwoPhaseSolver};
use cubedb::puzzles::rubik::twophase::Best;
use cubedb::puzzles::rubik::{format_moves, Cube, Metric};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::io::{IsTerminal, Write};
use std::time::Instant;

/// The answer to one input line of `solve --max-length`.
struct Answer {
    cube: Cube,
    answer: TwoPhaseAnswer,
}

/// `cubedb rubik solve --max-length N [--timeout S]`.
pub fn run_solve(args: SolveArgs) -> Result<()> {
    let max = args.max_length.context("--max-length is required here")?;
    let timeout = args
        .timeout
        .map(|t| cubedb::limits::timeout("--timeout", t))
        .transpose()?;
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let metric = args.metric;
    let solver = TwoPhaseSolver::open(&store, metric, &progress)?;
    if max < solver.quick_length() && timeout.is_none() {
        progress.note(format!(
            "note: two-phase search finds {} {} for any cube within tens of milliseconds; under \
             --max-length {max}, a cube whose shortest solution is longer is searched to the \
             end, which can take minutes: add --timeout SECONDS for the shortest found in that \
             time, or drop --max-length for an optimal solution",
            solver.quick_length(),
            metric.unit()
        ));
    }
    let one = cube_option(&args.facelets, &args.scramble);
    let single = one.is_some();
    // On a terminal, a status line while cubes are being solved.
    let status = progress.status();
    status.set_message(match single {
        true => format!(
            "cube 1: looking for at most {max} {} (Ctrl-C stops)",
            metric.unit()
        ),
        false => "solving cubes from stdin".to_string(),
    });
    // Lines are read and parsed here, so a job holds a cube, never a long line.
    type Job = Result<Cube, InputError>;
    let produce = move |jobs: Jobs<Job>| match one {
        Some((text, format)) => {
            let _ = jobs.send(0, parse_cube(&text, format, 1));
        }
        None => {
            let mut input = stdin_lines();
            for i in 0.. {
                let number = i + 1;
                let cube = match input.next_line() {
                    Ok(Some((_, text))) => parse_cube(text, CubeFormat::Either, number),
                    Ok(None) => return,
                    Err(e) => Err(InputError {
                        what: "cube",
                        case: number,
                        line: number,
                        problem: format!("cannot read it: {e}"),
                    }),
                };
                let failed = cube.is_err();
                if jobs.send(i, cube).is_err() || failed {
                    return;
                }
            }
        }
    };
    let work = |search: &mut _, _: usize, job: Job| {
        let cube = job?;
        let answer = solver.solve(search, &cube, max, timeout, None);
        Ok::<_, InputError>(Answer { cube, answer })
    };
    let started = Instant::now();
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    let (mut solved, mut total_length, mut longest) = (0u64, 0u64, 0u32);
    let interactive = std::io::stdout().is_terminal();
    let emit = |index: usize, answer: Result<Answer, InputError>| -> Result<()> {
        let number = index + 1;
        let answer = match answer {
            Ok(answer) => answer,
            Err(e) => {
                out.flush().context(crate::WRITING)?;
                return Err(JudgeError::Input(e).into());
            }
        };
        let moves = match &answer.answer.best {
            Best::Within(moves) => moves,
            Best::Above { moves, optimal } => {
                out.flush().context(crate::WRITING)?;
                if !args.quiet {
                    let why = if *optimal {
                        "none exists; this one is optimal".to_string()
                    } else {
                        format!("none found in {} s", args.timeout.unwrap_or(0.0))
                    };
                    note!(
                        "cubedb: warning: cube {number}: {} {}, above --max-length {max} ({why})",
                        metric.length(moves),
                        metric.unit()
                    );
                }
                moves
            }
            Best::Nothing => {
                out.flush().context(crate::WRITING)?;
                let problem = match args.timeout {
                    Some(t) => format!("no solution found within {t} s"),
                    None => format!("no solution of at most {max} {} exists", metric.unit()),
                };
                return Err(JudgeError::Unanswerable(InputError {
                    what: "cube",
                    case: number,
                    line: number,
                    problem,
                })
                .into());
            }
        };
        // A last check before anything is printed: the solution must solve the cube.
        anyhow::ensure!(
            answer.cube.apply_all(moves).is_solved(),
            "cube {number}: internal error, the solution found does not solve the cube"
        );
        writeln!(out, "{}", format_moves(moves)).context(crate::WRITING)?;
        if interactive {
            out.flush().context(crate::WRITING)?;
        }
        let length = metric.length(moves);
        solved += 1;
        if !single {
            status.set_message(format!("{solved} cubes solved"));
        }
        total_length += length as u64;
        longest = longest.max(length);
        if single && !args.quiet {
            out.flush().context(crate::WRITING)?;
            note!(
                "cube {number}: {length} {} ({} nodes, {:.3} ms)",
                metric.unit(),
                answer.answer.nodes,
                answer.answer.elapsed.as_secs_f64() * 1e3
            );
        }
        Ok(())
    };
    let result = in_order_on_all_cores(cores(), produce, || solver.search(), work, emit);
    status.finish_and_clear();
    result?;
    out.flush().context(crate::WRITING)?;
    if !single && !args.quiet && solved > 0 {
        let secs = started.elapsed().as_secs_f64();
        note!(
            "solved {solved} cubes in {secs:.2} s ({:.0} cubes/s): mean {:.2}, longest {longest} {}",
            solved as f64 / secs.max(1e-9),
            total_length as f64 / solved as f64,
            metric.unit()
        );
    }
    Ok(())
}

/// `cubedb rubik scramble [--count N] [--seed S]`.
pub fn run_scramble(args: RandomArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let solver = TwoPhaseSolver::open(&store, Metric::Htm, &progress)?;
    let (count, seed) = (args.count, args.seed);
    // Positions are drawn in order on one thread, so a seed always gives the same list.
    let produce = move |jobs: Jobs<Cube>| {
        let mut rng = SplitMix64::new(seed);
        for i in 0..count {
            if jobs.send(i as usize, Cube::random(&mut rng)).is_err() {
                return;
            }
        }
    };
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    in_order_on_all_cores(
        cores(),
        produce,
        || solver.search(),
        |search, _, cube| solver.scramble(search, &cube),
        |index, scramble| {
            let scramble = scramble.with_context(|| {
                format!("scramble {}: internal error, no scramble found", index + 1)
            })?;
            writeln!(out, "{}", format_moves(&scramble)).context(crate::WRITING)?;
            Ok(())
        },
    )?;
    out.flush().context(crate::WRITING)?;
    Ok(())
}
