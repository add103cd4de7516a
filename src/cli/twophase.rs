//! `cubedb rubik solve --max-length N` (two-phase, batches on every core),
//! `cubedb rubik scramble` and `cubedb rubik show`.

use super::rubik::{cube_option, parse_cube, CubeFormat, RandomArgs, ShowArgs, SolveArgs};
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::twophase::{
    scramble, solve_by_deadline, Best, Outcome, TwoPhaseSearch, TwoPhaseTables,
};
use cubedb::puzzles::rubik::{facelet_string, format_moves, Cube, Face, Metric};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Jobs waiting for a worker, at most.
const QUEUE: usize = 1024;

/// Runs `work` on every job that `produce` sends, on `threads` threads, and hands each
/// result to `emit` in job order as soon as it and all before it are done. `emit`
/// returning an error stops everything (results after the failing job are dropped).
///
/// The producer runs on its own detached thread, so a producer blocked on reading stdin
/// never keeps the command from ending.
fn in_order_on_all_cores<J, S, R>(
    threads: usize,
    produce: impl FnOnce(SyncSender<(usize, J)>) + Send + 'static,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, J) -> R + Sync,
    mut emit: impl FnMut(usize, R) -> Result<()>,
) -> Result<()>
where
    J: Send + 'static,
    R: Send,
{
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, J)>(QUEUE);
    std::thread::spawn(move || produce(job_tx));
    let jobs: Mutex<Receiver<(usize, J)>> = Mutex::new(job_rx);
    let stop = AtomicBool::new(false);
    let (done_tx, done_rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let done_tx = done_tx.clone();
            let (jobs, stop, work, make_state) = (&jobs, &stop, &work, &make_state);
            scope.spawn(move || {
                let mut state = make_state();
                while !stop.load(Ordering::Relaxed) {
                    let next = jobs
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .recv_timeout(Duration::from_millis(50));
                    match next {
                        Ok((index, job)) => {
                            let result = work(&mut state, index, job);
                            if done_tx.send((index, result)).is_err() {
                                return;
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        }
        drop(done_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0usize;
        for (index, result) in done_rx.iter() {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                if let Err(e) = emit(next, result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                next += 1;
            }
        }
        Ok(())
    })
}

/// Worker threads: one per core.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The answer to one input line of `solve --max-length`.
struct Answer {
    cube: Cube,
    best: Best,
    nodes: u64,
    elapsed: Duration,
}

/// `cubedb rubik solve --max-length N [--timeout S]`.
pub(super) fn run_solve(args: SolveArgs) -> Result<()> {
    let max = args.max_length.context("--max-length is required here")?;
    let timeout = match args.timeout {
        Some(t) if !(t.is_finite() && t >= 0.0) => {
            anyhow::bail!("--timeout must be a number of seconds (0 or more), not {t}")
        }
        t => t.map(Duration::from_secs_f64),
    };
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let metric = args.metric;
    let tables = TwoPhaseTables::load_or_build(&store, metric, &progress)?;
    let one = cube_option(&args.facelets, &args.scramble);
    let single = one.is_some();
    type Job = (std::io::Result<String>, CubeFormat);
    let produce = move |tx: SyncSender<(usize, Job)>| match one {
        Some((text, format)) => {
            let _ = tx.send((0, (Ok(text), format)));
        }
        None => {
            let mut input = super::rubik::stdin_lines();
            for i in 0.. {
                let line = match input.next_line() {
                    Ok(Some((_, text))) => Ok(text.to_string()),
                    Ok(None) => return,
                    Err(e) => Err(e),
                };
                let failed = line.is_err();
                if tx.send((i, (line, CubeFormat::Either))).is_err() || failed {
                    return;
                }
            }
        }
    };
    let work = |search: &mut TwoPhaseSearch<'_>, index: usize, (line, format): Job| {
        let number = index + 1;
        let text = line.map_err(|e| InputError {
            what: "cube",
            case: number,
            line: number,
            problem: format!("cannot read it: {e}"),
        })?;
        let cube = parse_cube(&text, format, number)?;
        let started = Instant::now();
        let nodes_before = search.nodes();
        let best = match timeout {
            Some(limit) => solve_by_deadline(search, &cube, max, started + limit),
            None => match search.solve(&cube, max, None) {
                Outcome::Found(moves) => Best::Within(moves),
                Outcome::NoneWithin | Outcome::TimedOut => Best::Nothing,
            },
        };
        Ok::<_, InputError>(Answer {
            cube,
            best,
            nodes: search.nodes() - nodes_before,
            elapsed: started.elapsed(),
        })
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
                out.flush().context(super::WRITING)?;
                return Err(JudgeError::Input(e).into());
            }
        };
        let moves = match &answer.best {
            Best::Within(moves) => moves,
            Best::Above { moves, optimal } => {
                out.flush().context(super::WRITING)?;
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
                out.flush().context(super::WRITING)?;
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
        writeln!(out, "{}", format_moves(moves)).context(super::WRITING)?;
        if interactive {
            out.flush().context(super::WRITING)?;
        }
        let length = metric.length(moves);
        solved += 1;
        total_length += length as u64;
        longest = longest.max(length);
        if single && !args.quiet {
            out.flush().context(super::WRITING)?;
            note!(
                "cube {number}: {length} {} ({} nodes, {:.3} ms)",
                metric.unit(),
                answer.nodes,
                answer.elapsed.as_secs_f64() * 1e3
            );
        }
        Ok(())
    };
    in_order_on_all_cores(
        cores(),
        produce,
        || TwoPhaseSearch::new(&tables),
        work,
        emit,
    )?;
    out.flush().context(super::WRITING)?;
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
pub(super) fn run_scramble(args: RandomArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let tables = TwoPhaseTables::load_or_build(&store, Metric::Htm, &progress)?;
    let (count, seed) = (args.count, args.seed);
    // Positions are drawn in order on one thread, so a seed always gives the same list.
    let produce = move |tx: SyncSender<(usize, Cube)>| {
        let mut rng = SplitMix64::new(seed);
        for i in 0..count {
            if tx.send((i, Cube::random(&mut rng))).is_err() {
                return;
            }
        }
    };
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    in_order_on_all_cores(
        cores(),
        produce,
        || TwoPhaseSearch::new(&tables),
        |search, _, cube| scramble(search, &cube),
        |index, scramble| {
            let scramble = scramble.with_context(|| {
                format!("scramble {}: internal error, no scramble found", index + 1)
            })?;
            writeln!(out, "{}", format_moves(&scramble)).context(super::WRITING)?;
            Ok(())
        },
    )?;
    out.flush().context(super::WRITING)?;
    Ok(())
}

/// When `show` uses colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always (ANSI escape codes).
    Always,
    /// Never: face letters only.
    Never,
}

/// ANSI background colour of each face in URFDLB order (the usual scheme: white up, green
/// front, red right) and the letter's foreground.
const FACE_STYLE: [&str; 6] = [
    "\x1b[30;107m",
    "\x1b[97;41m",
    "\x1b[30;42m",
    "\x1b[30;103m",
    "\x1b[30;48;5;208m",
    "\x1b[97;44m",
];

/// The net of a cube: U above F, then L F R B in a row, then D below F; each sticker as
/// its face letter, coloured when `colour`.
pub fn render_net(cube: &Cube, colour: bool) -> String {
    let letters: Vec<char> = facelet_string(cube).chars().collect();
    let sticker = |face: Face, index: usize| {
        let letter = letters[face.index() * 9 + index];
        let face_of_letter = Face::ALL.iter().position(|f| f.letter() == letter);
        match (colour, face_of_letter) {
            (true, Some(f)) => format!("{} {letter} \x1b[0m", FACE_STYLE[f]),
            _ => format!(" {letter} "),
        }
    };
    let row = |face: Face, r: usize| (0..3).map(|c| sticker(face, r * 3 + c)).collect::<String>();
    let pad = " ".repeat(9);
    let mut text = String::new();
    for r in 0..3 {
        text += &format!("{pad}{}\n", row(Face::U, r));
    }
    for r in 0..3 {
        for face in [Face::L, Face::F, Face::R, Face::B] {
            text += &row(face, r);
        }
        text += "\n";
    }
    for r in 0..3 {
        text += &format!("{pad}{}\n", row(Face::D, r));
    }
    text
}

/// `cubedb rubik show`.
pub(super) fn run_show(args: ShowArgs) -> Result<()> {
    let (text, format) = match cube_option(&args.facelets, &args.scramble) {
        Some(given) => given,
        None => {
            let line = super::rubik::stdin_lines()
                .next_line()
                .map_err(cubedb::judge::JudgeError::Read)?
                .map(|(_, text)| text.to_string())
                .unwrap_or_default();
            (line, CubeFormat::Either)
        }
    };
    let cube = parse_cube(&text, format, 1)?;
    let colour = match args.colour {
        ColourChoice::Always => true,
        ColourChoice::Never => false,
        ColourChoice::Auto => {
            std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
        }
    };
    let mut out = cubedb::output::stdout()?;
    out.write_all(render_net(&cube, colour).as_bytes())
        .context(super::WRITING)?;
    out.flush().context(super::WRITING)?;
    Ok(())
}
