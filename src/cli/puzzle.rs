//! `cubedb puzzle`: any permutation puzzle from a `.tws` definition file: `info` (orbits,
//! state count, moves, tables that fit), `gods` (God's algorithm), `solve` (optimal
//! solutions of scrambles or states), `scramble` (random-state scrambles).

use crate::cube_input::stdin_lines;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::perm::chain::ChainSolver;
use cubedb::puzzles::perm::phased::{Limits, PhasedError, Plan};
use cubedb::puzzles::perm::solver::{
    accept_plan_names, plan_for, read_text_file, STATES_FILE_LIMIT,
};
use cubedb::puzzles::perm::target::{check_invariants, retarget, Retarget};
use cubedb::puzzles::perm::{
    load_puzzle, parse_states, parse_target, DefinitionFileError, Element, ExactTable, PermPuzzle,
    PuzzleEngine, PuzzleMetric, PuzzleSolver, TableSite, DEFAULT_BUDGET_MB,
};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Arguments of `cubedb puzzle`.
#[derive(Debug, Args)]
pub struct PuzzleArgs {
    #[command(subcommand)]
    command: PuzzleCommand,
}

#[derive(Debug, Subcommand)]
enum PuzzleCommand {
    /// Orbits, state count (Schreier–Sims and invariants), moves, and which tables fit.
    Info(FileArgs),
    /// God's algorithm: `DISTANCE COUNT` per distance, then `total N` (builds the exact
    /// table the solver uses, if missing).
    Gods(GodsArgs),
    /// Optimal solutions of scrambles (`--scramble`, or one per stdin line), one line
    /// each in the definition's move names (an empty line for a solved state).
    Solve(SolveArgs),
    /// Random-state scrambles (uniform over every position), shortest, one per line.
    Scramble(ScrambleArgs),
}

/// Where tables live, how much memory a build may take, and quiet.
#[derive(Debug, Args)]
struct TableArgs {
    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// Memory a table build may use, in MB.
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_BUDGET_MB, value_parser = crate::ranges::memory_mb)]
    memory: u64,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, Args)]
struct GodsArgs {
    #[command(flatten)]
    file: FileArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// After the total, print this many antipodes as `antipode MOVES` (a shortest
    /// scramble reaching each).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = crate::ranges::sample)]
    antipodes: usize,
}

#[derive(Debug, Args)]
struct SolveArgs {
    #[command(flatten)]
    file: FileArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// One scramble in the definition's move names [default: one per stdin line].
    #[arg(long, value_name = "MOVES", conflicts_with = "states")]
    scramble: Option<String>,
    /// A file of positions in twsearch's scramble format (`ScrambleState NAME` blocks,
    /// 0-based; or `Scramble NAME`, 1-based), solved in order, one line each.
    #[arg(long, value_name = "FILE")]
    states: Option<PathBuf>,
    /// Up to N optimal solutions per scramble, each on its own line after a line
    /// `case K: M solutions of length L`.
    #[arg(long, value_name = "N", conflicts_with = "all", value_parser = crate::ranges::solutions)]
    count: Option<u64>,
    /// Every optimal solution (as with --count, unbounded).
    #[arg(long)]
    all: bool,
    /// `table`: an exact table (error if none fits); `search`: IDA* over pattern
    /// databases (optimal); `phased`: the plan's phases; `chain`: the stabilizer chain
    /// (any definition, any state, long solutions); `auto`: the table when one fits,
    /// else the plan when there is one, else IDA*.
    #[arg(long, value_parser = clap::builder::PossibleValuesParser::new(PuzzleEngine::NAMES.map(|(name, _)| name)), default_value = "auto")]
    engine: String,
    /// Phased solving: stop at the first solution of at most N moves (searching wider
    /// until one is found, or --timeout passes).
    #[arg(long, value_name = "N", value_parser = crate::ranges::max_length)]
    max_length: Option<u32>,
    /// Phased solving: give up after this many seconds per position, answering the best
    /// solution found (an error if none).
    #[arg(long, value_name = "SECONDS", value_parser = crate::ranges::seconds)]
    timeout: Option<f64>,
    /// Longest solution IDA* looks for.
    #[arg(long, value_name = "N", default_value_t = 30, value_parser = crate::ranges::search_depth)]
    max_depth: usize,
    /// Solve to this pattern instead of the solved state: a file with one position
    /// block (as in --states), where `?` may stand for a piece (any piece not named
    /// elsewhere in its set) or an orientation (any).
    #[arg(long, value_name = "FILE")]
    target: Option<PathBuf>,
}

#[derive(Debug, Args)]
struct ScrambleArgs {
    #[command(flatten)]
    file: FileArgs,
    #[command(flatten)]
    tables: TableArgs,
    /// How many scrambles.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::count)]
    count: u64,
    /// Seed for the random positions (the same seed gives the same scrambles).
    #[arg(long, value_parser = crate::ranges::seed)]
    seed: Option<u64>,
}

/// The definition file and the metric.
#[derive(Debug, Args)]
struct FileArgs {
    /// The definition (`.tws`, twsearch's format).
    file: PathBuf,

    /// Every power of a move counts one (htm), or only the shortest turns (qtm).
    #[arg(long, value_parser = ["htm", "qtm"], default_value = "htm")]
    metric: String,

    /// The phase plan for puzzles too big for one table [default: FILE with the
    /// extension `.plan`, when there is one].
    #[arg(long, value_name = "PLAN")]
    plan: Option<PathBuf>,

    /// Search only these base moves (comma-separated; e.g. `U,F,R` fixes a corner of
    /// the 2x2x2).
    #[arg(long, value_name = "MOVES", value_delimiter = ',')]
    moves: Option<Vec<String>>,
}

impl FileArgs {
    fn metric(&self) -> PuzzleMetric {
        if self.metric == "qtm" {
            PuzzleMetric::Qtm
        } else {
            PuzzleMetric::Htm
        }
    }
}

/// Reads and compiles a definition; errors name the file and the line (exit 2).
pub fn load(path: &Path, metric: PuzzleMetric, moves: Option<&[String]>) -> Result<PermPuzzle> {
    Ok(load_puzzle(path, metric, moves)?)
}

/// Runs `cubedb puzzle`.
pub fn run(args: PuzzleArgs) -> Result<()> {
    match args.command {
        PuzzleCommand::Info(args) => info(&args),
        PuzzleCommand::Gods(args) => gods(&args),
        PuzzleCommand::Solve(args) => solve(&args),
        PuzzleCommand::Scramble(args) => scramble(&args),
    }
}

impl FileArgs {
    fn puzzle(&self) -> Result<PermPuzzle> {
        load(&self.file, self.metric(), self.moves.as_deref())
    }

    /// The plan file [`FileArgs::puzzle_and_plan`] reads, when it reads one.
    fn plan_path(&self) -> Option<PathBuf> {
        cubedb::puzzles::perm::solver::plan_path(
            &self.file,
            self.plan.as_deref(),
            self.moves.is_some(),
        )
    }

    /// The puzzle and its plan (`--plan`, else the one beside the definition, unless
    /// `--moves` searches a subset), the plan's compound move names accepted in input.
    fn puzzle_and_plan(&self) -> Result<(PermPuzzle, Option<Plan>)> {
        let mut puzzle = self.puzzle()?;
        let plan = plan_for(
            &self.file,
            self.plan.as_deref(),
            self.moves.is_some(),
            &puzzle,
        )?;
        if let Some(plan) = &plan {
            accept_plan_names(&mut puzzle, plan);
        }
        Ok((puzzle, plan))
    }
}

/// Opens (building if missing) the exact table of the puzzle.
fn exact_table(file: &FileArgs, puzzle: &PermPuzzle, tables: &TableArgs) -> Result<ExactTable> {
    let store = TableStore::locate(tables.data.clone());
    let progress = Progress::stderr(tables.quiet);
    Ok(ExactTable::load_or_build(
        puzzle,
        &store,
        &source(file),
        tables.memory,
        &progress,
    )?)
}

/// Opens the solver `engine` names (the exact table when one fits, by default, else the
/// plan's phases when there is a plan, else IDA*).
fn solver(
    file: &FileArgs,
    puzzle: &PermPuzzle,
    plan: Option<Plan>,
    tables: &TableArgs,
    engine: &str,
) -> Result<PuzzleSolver> {
    // Clap has checked the name against the same list.
    let engine = PuzzleEngine::NAMES
        .iter()
        .find(|(name, _)| *name == engine)
        .map_or(PuzzleEngine::Auto, |&(_, engine)| engine);
    let store = TableStore::locate(tables.data.clone());
    let progress = Progress::stderr(tables.quiet);
    let source = source(file);
    let solver = PuzzleSolver::open_with_plan(
        puzzle,
        plan,
        &TableSite::new(&store, &source, tables.memory, &progress),
        engine,
    )
    .map_err(|e| {
        // A table the plan asks for, over the budget: named with the plan's file (the
        // error names the line).
        let path = matches!(e, cubedb::puzzles::perm::ExactError::BuildTooBig(_))
            .then(|| file.plan_path())
            .flatten();
        let e = anyhow::Error::new(e);
        match path {
            Some(path) => e.context(format!("plan {}", path.display())),
            None => e,
        }
    })?;
    match (&solver, tables.quiet) {
        (PuzzleSolver::Search(search), false) => note!(
            "solving by IDA* over pattern databases of {:?} entries (optimal; for states \
             far from solved, --engine chain answers at once, with long solutions)",
            search.sizes()
        ),
        (PuzzleSolver::Chain(_), false) => {
            note!("solving by the stabilizer chain (long solutions: a plan gives short ones)")
        }
        (PuzzleSolver::Phased(phased), false) => note!(
            "solving by the phases of plan {} ({})",
            phased.plan().name,
            phased
                .plan()
                .phases
                .iter()
                .map(|p| p.name.as_str())
                .chain(
                    phased
                        .plan()
                        .finish
                        .as_ref()
                        .map(|_| "the 3x3x3 by two-phase")
                )
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => {}
    }
    // A plan's large table not built: said once, with how to build it.
    if let (PuzzleSolver::Phased(phased), false) = (&solver, tables.quiet) {
        for phase in phased.phases_without_their_large_table() {
            let plan = file
                .plan
                .as_ref()
                .map_or(String::new(), |p| format!(" --plan {}", p.display()));
            note!(
                "phase {}: the plan's large table is not built; `cubedb-gen puzzle {}{plan} \
                 --large` builds it (gigabytes), and solves then read it",
                phase.name,
                file.file.display()
            );
        }
    }
    Ok(solver)
}

/// The definition file (and move subset) as the table rebuild hint names it.
fn source(file: &FileArgs) -> String {
    let mut source = file.file.display().to_string();
    if let Some(moves) = &file.moves {
        source.push_str(&format!(" --moves {}", moves.join(",")));
    }
    source
}

fn gods(args: &GodsArgs) -> Result<()> {
    let puzzle = args.file.puzzle()?;
    let table = exact_table(&args.file, &puzzle, &args.tables)?;
    let mut out = cubedb::output::stdout()?;
    for (distance, count) in table.histogram.iter().enumerate() {
        writeln!(out, "{distance} {count}")?;
    }
    writeln!(out, "total {}", table.states())?;
    if args.antipodes > 0 {
        for scramble in table.antipodes(args.antipodes)? {
            writeln!(out, "antipode {}", puzzle.format_path(&scramble))?;
        }
    }
    out.flush()?;
    if !args.tables.quiet {
        note!(
            "{}: {} positions, God's number {} ({} metric), {} antipodes; table {}",
            puzzle.name,
            table.states(),
            table.histogram.len().saturating_sub(1),
            puzzle.metric.name(),
            table.histogram.last().copied().unwrap_or(0),
            table.path().display()
        );
    }
    Ok(())
}

/// One position to solve, with what its messages name: the kind of input, its number,
/// its line, and a prefix (the states file and the block's name).
struct Case {
    what: &'static str,
    number: usize,
    line: usize,
    prefix: String,
    state: Element,
}

impl Case {
    fn error(&self, problem: impl std::fmt::Display) -> InputError {
        InputError {
            what: self.what,
            case: self.number,
            line: self.line,
            problem: format!("{}{problem}", self.prefix),
        }
    }
}

/// The text of an input file, and how to name a problem at one of its lines (exit 2, as
/// `FILE: line N: problem`). Only a regular file of at most [`STATES_FILE_LIMIT`] bytes
/// of UTF-8 is read.
fn input_file(path: &Path) -> Result<(String, impl Fn(usize, String) -> DefinitionFileError + '_)> {
    let bad = move |line: usize, problem: String| DefinitionFileError::Invalid {
        path: path.display().to_string(),
        line,
        problem,
    };
    let text = read_text_file(path, STATES_FILE_LIMIT)?;
    Ok((text, bad))
}

/// The positions of `--states FILE`, checked against the definition; errors name the
/// file, the block's line and the rule.
fn states_file(puzzle: &PermPuzzle, path: &Path) -> Result<Vec<Case>> {
    let (text, bad) = input_file(path)?;
    let states =
        parse_states(&text, &puzzle.sets, &puzzle.solved).map_err(|e| bad(e.line, e.problem))?;
    let mut cases = Vec::with_capacity(states.len());
    for (i, named) in states.into_iter().enumerate() {
        let mut case = Case {
            what: "state",
            number: i + 1,
            line: named.line,
            prefix: format!("{}: {}: ", path.display(), named.name),
            state: named.state,
        };
        if let Some(alg) = &named.alg {
            case.state = puzzle.scrambled(alg).map_err(|e| case.error(e))?;
        }
        puzzle.check_state(&case.state).map_err(|e| case.error(e))?;
        cases.push(case);
    }
    Ok(cases)
}

/// A scramble read as a case numbered by its line.
fn scramble_case(puzzle: &PermPuzzle, number: usize, text: &str) -> Result<Case, InputError> {
    let mut case = Case {
        what: "scramble",
        number,
        line: number,
        prefix: String::new(),
        state: puzzle.solved.clone(),
    };
    case.state = puzzle.scrambled(text).map_err(|e| case.error(e))?;
    Ok(case)
}

/// Cases solved per parallel batch.
const BATCH: usize = 1 << 14;

/// The puzzle whose solved state is the target of `--target FILE`, and the map of
/// states into it; errors name the file, line and rule (exit 2).
fn target(puzzle: &PermPuzzle, path: &Path) -> Result<(PermPuzzle, Retarget)> {
    let (text, bad) = input_file(path)?;
    let pattern =
        parse_target(&text, &puzzle.sets, &puzzle.solved).map_err(|e| bad(e.line, e.problem))?;
    check_invariants(puzzle, &pattern).map_err(|e| bad(0, e.to_string()))?;
    Ok(retarget(puzzle, &pattern).map_err(|e| bad(0, e.to_string()))?)
}

fn solve(args: &SolveArgs) -> Result<()> {
    let (puzzle, plan) = args.file.puzzle_and_plan()?;
    // A plan solves the puzzle itself: a target pattern is solved by the other engines.
    let plan = plan.filter(|_| args.target.is_none());
    let retargeted = args
        .target
        .as_deref()
        .map(|path| target(&puzzle, path))
        .transpose()?;
    let searched = retargeted
        .as_ref()
        .map_or(&puzzle, |(projected, _)| projected);
    let solver = solver(&args.file, searched, plan, &args.tables, &args.engine)?;
    if solver.phased().is_some() && (args.count.is_some() || args.all) {
        anyhow::bail!(
            "--count and --all list optimal solutions, which the plan's phases do not give: \
             add --engine search"
        );
    }
    let timeout = args
        .timeout
        .map(|t| cubedb::limits::timeout("--timeout", t))
        .transpose()?;
    let max_length = args.max_length.map(|n| n as usize);
    // With an exact table, whether the target can be reached at all is one walk from
    // solved: an unreachable target is the target's fault, not the first scramble's.
    if let (Some((_, map)), Some(table), Some(path)) =
        (&retargeted, solver.exact(), args.target.as_deref())
    {
        if table
            .each_solution_of(&map.apply(&puzzle.solved), |_| false)
            .is_none()
        {
            return Err(DefinitionFileError::Invalid {
                path: path.display().to_string(),
                line: 0,
                problem: "no position the moves reach matches this target".into(),
            }
            .into());
        }
    }
    let limit = if args.all {
        Some(usize::MAX)
    } else {
        args.count.map(|n| n as usize)
    };
    // Cases are read in batches (stdin lines as they come), each batch solved on every
    // core and printed in input order: bounded memory, and no per-line hand-off cost.
    /// A scramble line (read here, parsed on the cores) or a case already checked.
    enum Job {
        Line(usize, String),
        Case(Case),
    }
    // Reading stdin may fail (a line too long, not UTF-8): that ends the command.
    type Read = std::io::Result<Job>;
    let mut source: Box<dyn Iterator<Item = Read>> = match (&args.states, &args.scramble) {
        (Some(path), _) => Box::new(
            states_file(&puzzle, path)?
                .into_iter()
                .map(|c| Ok(Job::Case(c))),
        ),
        (None, Some(text)) => Box::new(std::iter::once(Ok(Job::Line(1, text.clone())))),
        (None, None) => {
            let mut input = stdin_lines();
            Box::new(std::iter::from_fn(move || {
                input
                    .next_line()
                    .map(|line| line.map(|(number, text)| Job::Line(number, text.to_string())))
                    .transpose()
            }))
        }
    };
    let work = |job: Job| -> Result<String, InputError> {
        let case = match job {
            Job::Line(number, text) => scramble_case(&puzzle, number, &text)?,
            Job::Case(case) => case,
        };
        let mut lines = Vec::new();
        let mut length = 0;
        let wanted = limit.unwrap_or(1);
        let visit = |path: &[usize]| {
            length = path.len();
            lines.push(puzzle.format_path(path));
            lines.len() < wanted
        };
        let state = match &retargeted {
            Some((_, map)) => std::borrow::Cow::Owned(map.apply(&case.state)),
            None => std::borrow::Cow::Borrowed(&case.state),
        };
        if let Some(phased) = solver.phased() {
            let limits = Limits {
                max_length,
                stop: cubedb::limits::Stop::at(cubedb::limits::deadline(
                    std::time::Instant::now(),
                    timeout,
                )),
                until_stop: timeout.is_some(),
            };
            return match phased.solve(&state, &limits) {
                Ok(solution) => {
                    if let Some(limit) = max_length.filter(|&l| solution.cost > l) {
                        if !args.tables.quiet {
                            note!(
                                "cubedb: warning: {} {}: {} moves, above --max-length {limit} \
                                 (none that short found)",
                                case.what,
                                case.number,
                                solution.cost
                            );
                        }
                    }
                    Ok(phased.format(&solution.moves))
                }
                Err(PhasedError::Unreachable) => Err(case.error(PhasedError::Unreachable)),
                Err(e) => Err(case.error(e)),
            };
        }
        solver
            .each_solution(&state, args.max_depth, visit)
            .map_err(|e| case.error(e))?;
        if limit.is_none() {
            return Ok(lines.swap_remove(0));
        }
        let mut text = format!(
            "case {}: {} solutions of length {length}",
            case.number,
            lines.len()
        );
        for line in lines {
            text.push('\n');
            text.push_str(&line);
        }
        Ok(text)
    };
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    loop {
        let mut batch: Vec<Job> = Vec::with_capacity(BATCH);
        for read in source.by_ref() {
            batch.push(read.map_err(JudgeError::Read)?);
            if batch.len() == BATCH {
                break;
            }
        }
        if batch.is_empty() {
            break;
        }
        let answers: Vec<Result<String, InputError>> = cubedb::jobs::map_each(batch, work);
        for answer in answers {
            match answer {
                Ok(text) => writeln!(out, "{text}").context(crate::WRITING)?,
                Err(e) => {
                    out.flush().context(crate::WRITING)?;
                    return Err(JudgeError::Input(e).into());
                }
            }
        }
    }
    out.flush().context(crate::WRITING)
}

fn scramble(args: &ScrambleArgs) -> Result<()> {
    let (puzzle, plan) = args.file.puzzle_and_plan()?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    // An exact table when one fits (shortest scrambles); else the plan's phases; else
    // the stabilizer chain (long scrambles).
    let exact = match exact_table(&args.file, &puzzle, &args.tables) {
        Ok(table) => Ok(table),
        Err(e)
            if e.downcast_ref::<cubedb::puzzles::perm::ExactError>()
                .is_some_and(|e| {
                    matches!(
                        e,
                        cubedb::puzzles::perm::ExactError::Unsupported(_)
                            | cubedb::puzzles::perm::ExactError::TooBig { .. }
                    )
                }) =>
        {
            Err(e)
        }
        Err(e) => return Err(e),
    };
    // Scramble `index` of the seed, from its own generator: made in batches on every
    // core, printed in order.
    let (opened, chain);
    let one: Box<dyn Fn(u64) -> Result<String> + Sync + '_> = match exact {
        Ok(ref table) => Box::new(|index: u64| {
            // Checked by the table: the scramble reaches the position it was made for.
            let moves = table
                .random_scramble(&mut SplitMix64::stream(seed, index))
                .context("internal error: no scramble reaching a random position")?;
            Ok(puzzle.format_path(&moves))
        }),
        Err(_) if plan.is_some() => {
            opened = cubedb::puzzles::perm::group::while_preparing_random_states(&puzzle, || {
                solver(&args.file, &puzzle, plan, &args.tables, "phased")
            })?;
            let phased = opened
                .phased()
                .context("internal error: no phased solver")?;
            Box::new(move |index: u64| {
                // Checked: the scramble reaches the state drawn.
                phased
                    .checked_random_scramble(seed, index, cubedb::limits::Stop::default(), |t| {
                        puzzle.scrambled(t).ok()
                    })
                    .map_err(|e| anyhow::anyhow!("internal error: random state {}: {e}", index + 1))
            })
        }
        Err(no_table) => {
            let store = TableStore::locate(args.tables.data.clone());
            let progress = Progress::stderr(args.tables.quiet);
            chain = ChainSolver::open(&puzzle, &store, &source(&args.file), &progress)
                .map_err(|e| anyhow::anyhow!("{no_table}; no plan beside it either, and {e}"))?;
            if !args.tables.quiet {
                note!(
                    "no exact table fits and no plan: random states solved by the stabilizer \
                     chain (long scrambles; a plan beside the definition gives short ones)"
                );
            }
            let chain = &chain;
            Box::new(move |index: u64| {
                // Checked: the scramble reaches the state drawn.
                chain
                    .random_scramble_text(seed, index)
                    .context("internal error: the scramble does not reach the state drawn")
            })
        }
    };
    let mut next = 0u64;
    while next < args.count {
        let end = (next + 1024).min(args.count);
        let batch: Vec<Result<String>> = cubedb::jobs::map_each((next..end).collect(), &one);
        for line in batch {
            writeln!(out, "{}", line?).context(crate::WRITING)?;
        }
        next = end;
    }
    out.flush().context(crate::WRITING)
}

fn info(args: &FileArgs) -> Result<()> {
    use cubedb::puzzles::perm::group::{group_order, has_identical_pieces, invariant_count};
    let (puzzle, plan) = args.puzzle_and_plan()?;
    say!("{} ({})", puzzle.name, args.file.display());
    for (s, def) in puzzle.sets.iter().enumerate() {
        let solved = &puzzle.solved.orbits[s];
        let mut labels = solved.perm.clone();
        labels.sort_unstable();
        labels.dedup();
        let identical = if labels.len() < def.size {
            format!(", {} kinds of piece", labels.len())
        } else {
            String::new()
        };
        say!(
            "set {}: {} pieces, {} orientations{identical}",
            def.name,
            def.size,
            def.omod
        );
    }
    let bases: Vec<String> = puzzle
        .bases
        .iter()
        .map(|(name, order)| format!("{name} (order {order})"))
        .collect();
    say!(
        "moves ({}): {} base moves, {} moves: {}",
        args.metric,
        puzzle.bases.len(),
        puzzle.moves.len(),
        bases.join(", ")
    );
    let (ranked, _) = puzzle.searched();
    let symmetries = cubedb::puzzles::perm::symmetry::Symmetries::find(&ranked);
    say!(
        "symmetries: {}{} (relabelings of the slots that carry moves to moves and keep the solved pattern)",
        symmetries.len(),
        if symmetries.partial { " or more (search cut short)" } else { "" }
    );
    let invariants = invariant_count(&puzzle);
    match group_order(&puzzle, 20_000_000) {
        Some(order) if !has_identical_pieces(&puzzle) => {
            say!("states: {order} (Schreier-Sims)");
            if order != invariants {
                say!("  (parities and orientation sums alone allow {invariants})");
            }
        }
        Some(order) => {
            say!("states: {invariants} (by invariants: identical pieces)");
            say!("  group of the moves with every piece told apart: {order}");
        }
        None => say!("states: {invariants} (by invariants; Schreier-Sims gave up)"),
    }
    match cubedb::puzzles::perm::exact::exact_projection(&ranked, false) {
        Ok(projection) => {
            let sizes: Vec<String> = projection.radix.iter().map(u64::to_string).collect();
            let used = cubedb::puzzles::perm::reduced::plan(&ranked, &projection, &symmetries)
                .map_or(1, |(s, _)| s.len() as u64);
            let entries = projection.size / used;
            let needed = cubedb::puzzles::perm::exact::build_bytes(entries);
            let reduced = if used > 1 {
                format!(", reduced by {used} symmetries to about {entries} entries")
            } else {
                String::new()
            };
            say!(
                "exact table: {} ranks ({}){reduced}, file {:.1} MB, build needs {:.0} MB{}",
                projection.size,
                sizes.join(" x "),
                entries as f64 / 4e6,
                needed as f64 / (1 << 20) as f64,
                if needed > DEFAULT_BUDGET_MB << 20 {
                    " (over the default --memory)"
                } else {
                    ""
                }
            );
        }
        Err(e) => {
            say!("exact table: none ({e})");
            if plan.is_none() {
                match ChainSolver::size(&puzzle) {
                    Ok((levels, cosets)) => say!(
                        "stabilizer chain: {levels} levels, {cosets} cosets (random-state \
                         scrambles and --engine chain, hundreds of moves; a plan gives tens)"
                    ),
                    Err(e) => say!("stabilizer chain: none ({e})"),
                }
            }
        }
    }
    if !puzzle.illegal.is_empty() {
        say!(
            "illegal placements: {} rules (the counts above ignore them)",
            puzzle.illegal.len()
        );
    }
    if let Some(plan) = &plan {
        say!(
            "plan {}: {} phases, {} moves",
            plan.name,
            plan.phases.len(),
            plan.moves.len()
        );
        if !plan.starts.is_empty() {
            say!(
                "  starts: {} ({})",
                plan.starts.len(),
                plan.starts.describe()
            );
        }
        if let Some(rotations) = &plan.rotations {
            say!(
                "  rotations: {} (each start also seen after each of them; a solution may \
                 leave the puzzle turned)",
                rotations.len()
            );
        }
        for (k, phase) in plan.phases.iter().enumerate() {
            let moves: Vec<&str> = phase
                .moves
                .iter()
                .map(|&m| plan.moves[m].name.as_str())
                .collect();
            say!(
                "  phase {} {}: {} moves ({}); {}",
                k + 1,
                phase.name,
                moves.len(),
                moves.join(" "),
                cubedb::puzzles::perm::phased::tables::describe(
                    &phase.pattern,
                    &phase.splittable,
                    &phase.costs,
                    phase.join,
                    DEFAULT_BUDGET_MB
                )
            );
            let mut extra = Vec::new();
            if let Some(m) = &phase.view.matching {
                extra.push(format!(
                    "pairs of set {} matched ({} pairs)",
                    puzzle.sets[m.pairing.set].name,
                    m.a.len()
                ));
            }
            if let Some(side) = phase.view.anchored.first() {
                extra.push(format!(
                    "each side of set {} matched against set {} ({} pairs)",
                    puzzle.sets[side.a_set].name,
                    puzzle.sets[side.b_set].name,
                    side.a.len()
                ));
            }
            if let Some(large) = &phase.large {
                let slots: Vec<String> = std::iter::once((large.set, &large.slots))
                    .chain(large.also.iter().map(|(set, slots)| (*set, slots)))
                    .map(|(set, slots)| {
                        format!("{} slots of set {}", slots.len(), puzzle.sets[set].name)
                    })
                    .collect();
                extra.push(format!(
                    "the pairs with {} beside them in one table (built on first use when \
                     small, else by `cubedb-gen puzzle --large`)",
                    slots.join(" and ")
                ));
            }
            if let Some(goal) = &phase.whole {
                let elements = plan.phase_elements(k);
                if let Ok(table) =
                    cubedb::puzzles::perm::phased::whole::WholeTable::new(&puzzle, goal, &elements)
                {
                    extra.push(format!(
                        "{}: a table of {} entries ({:.1} MB)",
                        table.describe(&puzzle.sets),
                        cubedb::text::count(u128::from(table.size())),
                        table.bytes() as f64 / 1e6
                    ));
                }
            }
            if let Some(c) = &phase.view.collapse {
                extra.push(format!(
                    "set {} collapsed into {} pairs",
                    puzzle.sets[c.set].name,
                    c.blocks.len()
                ));
            }
            if !phase.upto.is_empty() {
                extra.push(format!("target up to {} moves", phase.upto.len()));
            }
            if let Some(m) = plan.straddled_by(k) {
                let elements = plan.phase_elements(k);
                let straddle = cubedb::puzzles::perm::phased::straddle::StraddleTable::entries_for(
                    &puzzle, m, &elements,
                );
                if let Some(entries) = straddle {
                    extra.push(format!(
                        "straddle table for the next phase's {} pairs: {} entries ({:.1} MB)",
                        m.a.len(),
                        cubedb::text::count(entries as u128),
                        entries.div_ceil(2) as f64 / 1e6
                    ));
                }
            }
            let ties = plan.last_phase_tables(&puzzle, k, None)?;
            if !ties.is_empty() {
                let entries: usize = ties.iter().map(|t| t.size()).sum();
                let bytes: usize = ties.iter().map(|t| t.bytes()).sum();
                let what: Vec<String> = ties.iter().map(|t| t.describe(&puzzle.sets)).collect();
                extra.push(format!(
                    "tables for the last phase ({}): {} entries ({:.1} MB)",
                    what.join(", "),
                    cubedb::text::count(entries as u128),
                    bytes as f64 / 1e6
                ));
            }
            if !extra.is_empty() {
                say!("    {}", extra.join("; "));
            }
        }
        if let Some(finish) = &plan.finish {
            say!("  {}", finish.describe(&puzzle));
        }
    }
    Ok(())
}
