//! `cubedb rubik`: the Rubik's cube in the ZOJ 2477 judge format, and `cubedb rubik solve`
//! for optimal solutions of scrambles and facelet strings.

use super::io::open_input;
use super::CommonArgs;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use cubedb::engine::Engine;
use cubedb::judge::{InputError, JudgeError, JudgeInput};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::{
    self, facelet_string, format_moves, merge_quarter_pairs, parse_facelets, parse_moves,
    solver::MAX_SOLUTION, Cube, IterationStart, KorfSolver, Metric, NearTable, Pdbs, Preset,
    SearchSolver, Solver, TableSolver,
};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Arguments of `cubedb rubik`.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct RubikArgs {
    #[command(subcommand)]
    command: Option<RubikCommand>,

    #[command(flatten)]
    common: CommonArgs,

    /// Answer -1 for cubes needing more than N quarter turns (the judge asks 5).
    #[arg(long, value_name = "N", default_value_t = rubik::JUDGE_LIMIT)]
    max_depth: u32,
}

#[derive(Debug, Subcommand)]
enum RubikCommand {
    /// Optimal solutions of scrambles or facelet strings, one line of moves each.
    Solve(SolveArgs),
    /// Uniformly random positions as facelet strings, one per line (input for `solve`).
    Random(RandomArgs),
    /// Random-state scrambles: a uniformly random position as at most 21 face turns.
    Scramble(RandomArgs),
    /// Shows a cube (a scramble or facelets) as a net, in colour on a terminal.
    Show(ShowArgs),
}

/// Arguments of `cubedb rubik show`.
#[derive(Debug, Args)]
pub(super) struct ShowArgs {
    /// A 54-sticker facelet string (faces U R F D L B, any six colours).
    #[arg(long, value_name = "S", conflicts_with = "scramble")]
    pub facelets: Option<String>,

    /// A scramble in Singmaster notation, e.g. "R U R' U2".
    #[arg(long, value_name = "MOVES")]
    pub scramble: Option<String>,

    /// Colours: always, never, or only when stdout is a terminal (and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = super::twophase::ColourChoice::Auto)]
    pub colour: super::twophase::ColourChoice,
}

/// Arguments of `cubedb rubik random` and `cubedb rubik scramble`.
#[derive(Debug, Args)]
pub(super) struct RandomArgs {
    /// How many positions.
    #[arg(long, default_value_t = 1)]
    pub count: usize,

    /// Seed of the random generator (the same seed gives the same positions).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Folder of table files (scramble only) [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// No notes on stderr (scramble only).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which orientations of the whole cube `--goal` tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Orientations {
    /// All 24: each face down, each of its four neighbours in front.
    All,
}

/// Arguments of `cubedb rubik solve`.
#[derive(Debug, Args)]
pub(super) struct SolveArgs {
    /// A 54-sticker facelet string (faces U R F D L B, any six colours). With `?` for
    /// stickers that do not matter (centres named): solve only the named stickers.
    #[arg(long, value_name = "S", conflicts_with = "scramble")]
    pub facelets: Option<String>,

    /// A scramble in Singmaster notation, e.g. "R U R' U2".
    #[arg(long, value_name = "MOVES")]
    pub scramble: Option<String>,

    /// Turn metric the solution is optimal in (or, with --max-length, counted in).
    #[arg(long, value_enum, default_value_t = Metric::Qtm)]
    pub metric: Metric,

    /// Near-optimal instead of optimal: the first solution found of at most N moves in
    /// the metric, by two-phase search (milliseconds per cube; batches on every core).
    #[arg(long, value_name = "N", conflicts_with_all = ["tables", "engine"])]
    pub max_length: Option<u32>,

    /// With --max-length: give up looking for a solution within N after this many
    /// seconds per cube and print the shortest found (stderr says it is longer than N).
    #[arg(long, value_name = "SECONDS", requires = "max_length")]
    pub timeout: Option<f64>,

    /// Every optimal solution, one per line, sorted, in canonical move order (no two
    /// lines are the same sequence up to moves that commute).
    #[arg(long, conflicts_with_all = ["count", "max_length", "engine"])]
    pub all: bool,

    /// The first N solutions in order of length: the optimal ones, then longer ones (up
    /// to 4 moves longer than optimal).
    #[arg(long, value_name = "N", conflicts_with_all = ["max_length", "engine"])]
    pub count: Option<usize>,

    /// Only these moves, e.g. `R,U` or `R,U,F2` (a face letter allows all its turns, `R2`
    /// or `R'` only that turn). A cube they cannot solve is an error (exit 3), decided
    /// exactly by a group membership test.
    #[arg(long, value_name = "MOVES", conflicts_with_all = ["max_length", "engine"])]
    pub moves: Option<String>,

    /// Solve part of the cube instead: cross, xcross, f2l-pair, first-block or eo, on a
    /// face (`cross:U`; default D, and F for eo's axis), by exact tables built on first
    /// use; or a sticker mask: 54 face letters in facelet order, `?` for stickers that
    /// do not matter.
    #[arg(long, value_name = "GOAL", conflicts_with_all = ["max_length", "engine", "moves"])]
    pub goal: Option<String>,

    /// With --goal: `all` solves the goal in each of the 24 orientations of the whole cube
    /// (each face down, each neighbour in front) and prints the best per orientation.
    #[arg(long, value_enum, requires = "goal")]
    pub orientations: Option<Orientations>,

    /// Which engine answers: tables (near table, then IDA* over pattern databases), or
    /// IDA* alone with the cubie-count heuristic.
    #[arg(long, value_enum, default_value_t = Engine::Table)]
    pub engine: Engine,

    /// Pattern-database preset: bigger ones make deep solves faster (small 173 MB,
    /// medium 1.1 GB, large 3.4 GB, huge 9.9 GB for both metrics; only the metric asked
    /// for is loaded, and built if missing) [default: the largest preset already built,
    /// else small].
    #[arg(long, value_enum)]
    pub tables: Option<Preset>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// No progress, notes or statistics on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs `cubedb rubik` or its subcommand.
pub fn run(args: RubikArgs) -> Result<()> {
    match args.command {
        Some(RubikCommand::Solve(solve)) if solve.max_length.is_some() => {
            return super::twophase::run_solve(solve)
        }
        Some(RubikCommand::Solve(solve))
            if solve.facelets.as_deref().is_some_and(|f| f.contains('?')) =>
        {
            return super::goals::run_partial(solve)
        }
        Some(RubikCommand::Solve(solve)) if solve.goal.is_some() => {
            return super::goals::run(solve)
        }
        Some(RubikCommand::Solve(solve))
            if solve.all || solve.count.is_some() || solve.moves.is_some() =>
        {
            return super::solutions::run(solve)
        }
        Some(RubikCommand::Solve(solve)) => return run_solve(solve),
        Some(RubikCommand::Scramble(args)) => return super::twophase::run_scramble(args),
        Some(RubikCommand::Show(args)) => return super::twophase::run_show(args),
        Some(RubikCommand::Random(random)) => {
            let mut rng = SplitMix64::new(random.seed);
            let mut out = cubedb::output::stdout()?;
            for _ in 0..random.count {
                writeln!(out, "{}", facelet_string(&Cube::random(&mut rng)))
                    .context(super::WRITING)?;
            }
            return Ok(());
        }
        None => {}
    }
    let input = open_input(args.common.input.as_deref())?;
    let stdout = cubedb::output::stdout()?;
    let stderr = std::io::stderr();
    match args.common.engine {
        Engine::Table => {
            let store = TableStore::locate(args.common.data.clone());
            let near = NearTable::load_or_build(&store, &Progress::stderr(args.common.quiet))?;
            let solver = Solver::Table(TableSolver::new(&near));
            rubik::answer_judge_input(input, &solver, args.max_depth, stdout, stderr)?;
        }
        Engine::Search => {
            let solver = Solver::Search(SearchSolver);
            rubik::answer_judge_input(input, &solver, args.max_depth, stdout, stderr)?;
        }
    }
    Ok(())
}

/// Standard input as lines for `solve` and `show`: each with its number, at most
/// [`cubedb::judge::MAX_LINE`] bytes, UTF-8 (errors name the line).
pub(super) fn stdin_lines() -> JudgeInput<std::io::BufReader<std::io::Stdin>> {
    JudgeInput::new(std::io::BufReader::new(std::io::stdin()))
}

/// Calls `solve_one` with the cube of `--facelets` / `--scramble` (number 1), else with
/// every line of stdin (numbered by line), stopping at the first error.
pub(super) fn for_each_cube(
    args: &SolveArgs,
    mut solve_one: impl FnMut(&str, CubeFormat, usize) -> Result<()>,
) -> Result<()> {
    match cube_option(&args.facelets, &args.scramble) {
        Some((text, format)) => solve_one(&text, format, 1),
        None => {
            let mut input = stdin_lines();
            while let Some((number, line)) = input.next_line().map_err(JudgeError::Read)? {
                solve_one(line, CubeFormat::Either, number)?;
            }
            Ok(())
        }
    }
}

/// How a cube's text is to be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CubeFormat {
    /// `--facelets`: a 54-sticker facelet string, nothing else.
    Facelets,
    /// `--scramble`: moves, nothing else.
    Scramble,
    /// A line of input: facelets if it looks like them ([`looks_like_facelets`]), else
    /// moves.
    Either,
}

/// The cube given by `--facelets` or `--scramble` (with its format), if any.
pub(super) fn cube_option(
    facelets: &Option<String>,
    scramble: &Option<String>,
) -> Option<(String, CubeFormat)> {
    match (facelets, scramble) {
        (Some(text), _) => Some((text.clone(), CubeFormat::Facelets)),
        (None, Some(text)) => Some((text.clone(), CubeFormat::Scramble)),
        (None, None) => None,
    }
}

/// The rule for a line that may be either: facelets are 54 characters without spaces in
/// exactly six distinct colours; anything else is moves. (A line fitting both, such as the
/// solved cube's facelets `UUUUUUUUURRR...`, is read as facelets.)
fn looks_like_facelets(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let mut colours: Vec<char> = chars.clone();
    colours.sort_unstable();
    colours.dedup();
    chars.len() == 54 && !chars.iter().any(|c| c.is_whitespace()) && colours.len() == 6
}

/// Reads one cube in `format`; errors name cube `number`.
pub(super) fn parse_cube(
    text: &str,
    format: CubeFormat,
    number: usize,
) -> Result<Cube, InputError> {
    let error = |problem: String| InputError {
        what: "cube",
        case: number,
        line: number,
        problem,
    };
    let trimmed = text.trim();
    let facelets = match format {
        CubeFormat::Facelets => true,
        CubeFormat::Scramble => false,
        CubeFormat::Either => looks_like_facelets(trimmed),
    };
    if facelets {
        parse_facelets(trimmed).map_err(|e| error(format!("facelets: {e}")))
    } else {
        let moves = parse_moves(trimmed).map_err(|e| error(e.to_string()))?;
        Ok(Cube::from_moves(&moves))
    }
}

/// The near table and the pattern databases `solve` uses (built on first use).
pub(super) fn korf_tables(args: &SolveArgs, progress: &Progress) -> Result<(NearTable, Pdbs)> {
    let store = TableStore::locate(args.data.clone());
    let near = NearTable::load_or_build(&store, progress)?;
    let preset = args
        .tables
        .unwrap_or_else(|| Preset::largest_present(&store, args.metric));
    let pdbs = Pdbs::load_or_build(&store, preset, args.metric, progress)?;
    Ok((near, pdbs))
}

/// How long a solve runs before a slow preset is pointed out.
const SLOW_SOLVE: std::time::Duration = std::time::Duration::from_secs(5);

fn run_solve(args: SolveArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let tables = match args.engine {
        Engine::Table => Some(korf_tables(&args, &progress)?),
        Engine::Search => None,
    };
    let slow_noted = AtomicBool::new(false);
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        let started = Instant::now();
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
            if let Some((_, pdbs)) = &tables {
                if start.elapsed >= SLOW_SOLVE && !slow_noted.swap(true, Ordering::Relaxed) {
                    if let Some(hint) = pdbs.preset().and_then(Preset::faster_options) {
                        progress.note(format!("note: {hint}"));
                    }
                }
            }
        };
        let solved = match &tables {
            Some((near, pdbs)) => KorfSolver::new(pdbs, Some(near))
                .with_observer(&observe)
                .solve(&cube, MAX_SOLUTION),
            None => SearchSolver.solve(&cube, args.metric, MAX_SOLUTION),
        };
        status.finish_and_clear();
        let elapsed = started.elapsed();
        let moves = solved
            .moves
            .expect("every solvable cube is solved within 26 quarter turns");
        // A last check before anything is printed: the solution must solve the cube.
        anyhow::ensure!(
            cube.apply_all(&moves).is_solved(),
            "cube {number}: internal error, the solution found does not solve the cube"
        );
        writeln!(out, "{}", format_moves(&merge_quarter_pairs(&moves))).context(super::WRITING)?;
        out.flush().context(super::WRITING)?;
        if !args.quiet {
            let secs = elapsed.as_secs_f64();
            progress.note(format!(
                "cube {number}: {} {} ({} nodes, {:.3} s, {:.2} M nodes/s)",
                args.metric.length(&moves),
                args.metric.unit(),
                solved.nodes,
                secs,
                solved.nodes as f64 / secs.max(1e-9) / 1e6
            ));
        }
        Ok(())
    };
    for_each_cube(&args, solve_one)
}
