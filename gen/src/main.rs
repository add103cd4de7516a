//! `cubedb-gen`: builds, verifies and lists cubedb's table files.

// Output goes through `cubedb::output`: print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use cubedb::catalog;
use cubedb::progress::Progress;
use cubedb::table::{self, TableStore};
use cubedb::table::{GroupMember, Rebuild, TableError, TableGroup, TableSpec};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

// A closed stdout (`>&-`) told from /dev/null before the runtime reopens it.
cubedb::see_stdout_before_main!();

/// Context of every failed write to stdout.
const WRITING: &str = "writing output";

/// Builds cubedb's tables by parallel breadth-first search.
///
/// With no subcommand, builds the named table groups (all but the big Rubik presets `rubik-1g`, `rubik-large`, `rubik-huge`, `rubik-2g`, `rubik-5g` and `rubik-8g` if none is named),
/// skipping those already present and valid unless --force is given.
#[derive(Debug, Parser)]
#[command(name = "cubedb-gen", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,

    /// Table groups to build (default: all but the big Rubik presets; the groups
    /// are listed below).
    tables: Vec<String>,

    /// Rebuild even if the tables are present and valid.
    #[arg(long)]
    force: bool,

    /// Only the tables of this metric (and those every metric shares).
    #[arg(long, value_name = "METRIC", value_parser = ["htm", "qtm"])]
    metric: Option<String>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, global = true, value_name = "DIR")]
    data: Option<PathBuf>,

    /// No progress bars or notes on stderr.
    #[arg(long, short, global = true)]
    quiet: bool,

    /// Threads to build with [default: one per core].
    #[arg(long, global = true, value_name = "N", value_parser = threads)]
    threads: Option<std::num::NonZeroUsize>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Recheck every present table: header, length and checksum.
    Verify,
    /// List every table: file, size, entries and depth histogram.
    Info,
    /// Drop the named groups' tables from the page cache and read them back whole, so a
    /// batch or a benchmark that follows finds them cached in large folios (mapped with
    /// 2 MiB entries) instead of in pieces a host paged out or a build left in small ones.
    Warm(WarmArgs),
    /// The tables of a puzzle from a `.tws` definition (`cubedb puzzle` builds them on
    /// first use too): its exact table when one fits, else its pattern databases.
    Puzzle(PuzzleArgs),
}

/// `cubedb-gen warm GROUP...`.
#[derive(Debug, clap::Args)]
struct WarmArgs {
    /// Table groups to warm (as for building; each must be built already).
    #[arg(required = true)]
    tables: Vec<String>,
    /// Only the tables of this metric (and those every metric shares).
    #[arg(long, value_name = "METRIC", value_parser = ["htm", "qtm"])]
    metric: Option<String>,
}

/// `cubedb-gen puzzle FILE`.
#[derive(Debug, clap::Args)]
struct PuzzleArgs {
    /// The definition (`.tws`, twsearch's format).
    file: PathBuf,
    /// Every power of a move counts one (htm), or only the shortest turns (qtm).
    #[arg(long, value_parser = ["htm", "qtm"], default_value = "htm")]
    metric: String,
    /// Search only these base moves (comma-separated).
    #[arg(long, value_name = "MOVES", value_delimiter = ',')]
    moves: Option<Vec<String>>,
    /// Memory the tables may use, in MB.
    #[arg(long, value_name = "MB", default_value_t = 8192, value_parser = memory_mb)]
    memory: u64,
    /// The phase plan whose tables to build [default: FILE with the extension `.plan`,
    /// when there is one and `--moves` is not given].
    #[arg(long, value_name = "PLAN")]
    plan: Option<PathBuf>,
    /// Which tables: the exact table when one fits, else the plan's, else pattern
    /// databases (auto); the exact table only (table); the pattern databases of the
    /// optimal search (search); the plan's phases (phased).
    #[arg(long, value_parser = ["auto", "table", "search", "phased"], default_value = "auto")]
    engine: String,
    /// Build the puzzle's tables again (each replaces the old one atomically).
    #[arg(long)]
    force: bool,
    /// Also build the large tables the plan names (`Large`: the 4x4x4's pairs with its U
    /// and D centres, 4.2 GB), which solves then read in place of the smaller ones.
    #[arg(long)]
    large: bool,
    /// Then drop every table a solve reads from the page cache and read it back whole,
    /// listing each as `warm` does: a folder copied in (or paged out) is cached in small
    /// pieces, and a fresh process maps the tables faster, and searches them with fewer
    /// TLB misses, from 2 MiB folios.
    #[arg(long)]
    warm: bool,
}

/// `--memory`: the library's range, in its words.
fn memory_mb(text: &str) -> Result<u64, String> {
    cubedb::limits::WholeRange::MEMORY_MB.parse(text)
}

/// `--threads`: the library's range, in its words.
fn threads(text: &str) -> Result<std::num::NonZeroUsize, String> {
    cubedb::limits::WholeRange::THREADS
        .parse(text)
        .map(|n| std::num::NonZeroUsize::new(n as usize).expect("the range starts at 1"))
}

/// The groups, one line each, for `--help`.
fn groups_help() -> String {
    let mut text = String::from("Table groups:\n");
    for group in catalog::groups() {
        let default = if group.by_default {
            ""
        } else {
            " [only when named]"
        };
        text.push_str(&format!("  {:<16} {}{default}\n", group.name, group.about));
    }
    text
}

fn main() -> ExitCode {
    use clap::{CommandFactory, FromArgMatches};
    let parsed = Cli::command()
        .after_help(groups_help())
        .try_get_matches()
        .and_then(|matches| Cli::from_arg_matches(&matches))
        .map_err(cubedb::text::cut_quoted_values);
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => return clap_exit(&err),
    };
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            // If even stderr is gone, the exit code is all that is left to say it.
            let _ = writeln!(std::io::stderr(), "cubedb-gen: error: {err:#}");
            // A definition file that breaks a rule is bad input (2), as in `cubedb`.
            let bad_input = err.chain().any(|cause| {
                matches!(
                    cause.downcast_ref::<cubedb::puzzles::perm::DefinitionFileError>(),
                    Some(cubedb::puzzles::perm::DefinitionFileError::Invalid { .. })
                )
            });
            if bad_input {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

/// Prints clap's help, version or usage error; a help text that cannot be written is an
/// error too.
fn clap_exit(err: &clap::Error) -> ExitCode {
    let to_stdout = !err.use_stderr();
    let open = if to_stdout {
        cubedb::output::stdout().map(drop)
    } else {
        Ok(())
    };
    match open.and_then(|()| err.print().map_err(cubedb::output::OutputError::Write)) {
        Ok(()) => ExitCode::from(err.exit_code().clamp(0, 255) as u8),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "cubedb-gen: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    cubedb::set_threads(cli.threads);
    let store = TableStore::locate(cli.data.clone()).for_explicit_builds();
    match cli.command {
        Some(Command::Verify) => verify(&store),
        Some(Command::Info) => info(&store),
        Some(Command::Warm(args)) => warm(&store, &args),
        Some(Command::Puzzle(args)) => puzzle(&store, &args, cli.quiet),
        None => {
            build(
                &store,
                &cli.tables,
                cli.metric.as_deref(),
                cli.force,
                cli.quiet,
            )?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// Builds (with `--force`: rebuilds) the tables of a definition-driven puzzle.
fn puzzle(store: &TableStore, args: &PuzzleArgs, quiet: bool) -> Result<ExitCode> {
    use cubedb::puzzles::perm::{
        load_puzzle, solver::plan_for, PuzzleEngine, PuzzleMetric, PuzzleSolver, TableSite,
    };
    let metric = if args.metric == "qtm" {
        PuzzleMetric::Qtm
    } else {
        PuzzleMetric::Htm
    };
    let puzzle = load_puzzle(&args.file, metric, args.moves.as_deref())?;
    let plan = plan_for(
        &args.file,
        args.plan.as_deref(),
        args.moves.is_some(),
        &puzzle,
    )?;
    let engine = match args.engine.as_str() {
        "table" => PuzzleEngine::Table,
        "search" => PuzzleEngine::Search,
        "phased" => PuzzleEngine::Phased,
        _ => PuzzleEngine::Auto,
    };
    store.check_dir()?;
    // With --warm: the tables the solver opens, to read back once it is closed.
    let noted;
    let store = if args.warm {
        noted = store.clone().noting_opens();
        &noted
    } else {
        store
    };
    let mut source = args.file.display().to_string();
    if let Some(moves) = &args.moves {
        source.push_str(&format!(" --moves {}", moves.join(",")));
    }
    let progress = Progress::stderr(quiet);
    // --force builds every table again; each replaces the old one by a rename, so
    // readers and other builders never find a table missing.
    let site = TableSite::new(store, &source, args.memory, &progress)
        .rebuilding(args.force)
        .building_large(args.large);
    let solver = PuzzleSolver::open_with_plan(&puzzle, plan, &site, engine)?;
    let mut out = cubedb::output::stdout()?;
    match &solver {
        PuzzleSolver::Exact(table) => writeln!(
            out,
            "{}: exact table {} ({} positions, God's number {})",
            puzzle.name,
            table.path().display(),
            table.states(),
            table.histogram.len().saturating_sub(1)
        ),
        PuzzleSolver::Chain(_) => writeln!(
            out,
            "{}: the stabilizer chain, which needs no tables",
            puzzle.name
        ),
        PuzzleSolver::Search(search) => writeln!(
            out,
            "{}: {} pattern databases of {:?} entries",
            puzzle.name,
            search.sizes().len(),
            search.sizes()
        ),
        PuzzleSolver::Phased(phased) => {
            writeln!(
                out,
                "{}: plan {} with {} phases, tables built",
                puzzle.name,
                phased.plan().name,
                phased.tables().len()
            )
            .context(WRITING)?;
            for (phase, tables) in phased.plan().phases.iter().zip(phased.tables()) {
                // Tables of what later phases need placed (kinds, ties, cosets).
                let placing: usize = tables.kinds.iter().map(|k| k.bytes()).sum();
                let matchings: String = tables
                    .matchings
                    .iter()
                    .map(|m| {
                        format!(
                            "; {} table, {:.1} MB",
                            if m.is_large() { "large" } else { "matching" },
                            m.bytes() as f64 / 1e6
                        )
                    })
                    .collect();
                writeln!(
                    out,
                    "  phase {}: {}, {:.1} MB{matchings}{}",
                    phase.name,
                    if tables.is_exact() {
                        "exact table"
                    } else {
                        "pattern databases"
                    },
                    tables.bytes() as f64 / 1e6,
                    if placing > 0 {
                        format!(
                            "; tables for the later phases, {:.1} MB",
                            placing as f64 / 1e6
                        )
                    } else {
                        String::new()
                    }
                )
                .context(WRITING)?;
            }
            Ok(())
        }
    }
    .context(WRITING)?;
    if args.warm {
        // Closed first: a page that a mapping holds stays as it is cached.
        drop(solver);
        read_back(&mut out, &store.opened())?;
    }
    out.flush().context(WRITING)?;
    Ok(ExitCode::SUCCESS)
}

fn selected_groups(names: &[String]) -> Result<Vec<TableGroup>> {
    if names.is_empty() {
        return Ok(catalog::groups()
            .into_iter()
            .filter(|g| g.by_default)
            .collect());
    }
    names
        .iter()
        .map(|name| {
            catalog::group(name).with_context(|| {
                let known: Vec<_> = catalog::groups().iter().map(|g| g.name).collect();
                format!("unknown table group `{name}`; known: {}", known.join(", "))
            })
        })
        .collect()
}

fn build(
    store: &TableStore,
    names: &[String],
    metric: Option<&str>,
    force: bool,
    quiet: bool,
) -> Result<()> {
    store.check_dir()?;
    let progress = Progress::stderr(quiet);
    for group in selected_groups(names)? {
        // The sets to build: every one with --force, else those with a missing or bad table.
        // A set with only missing tables builds just those, leaving its present tables as
        // they are; a damaged table rebuilds its whole set.
        let mut members: Vec<(&GroupMember, Rebuild)> = Vec::new();
        let mut specs = 0;
        let mut bytes = 0u64;
        for member in members_of(&group, metric) {
            let problems: Vec<(&TableSpec, TableError)> = if force {
                Vec::new()
            } else {
                member
                    .specs
                    .iter()
                    .filter_map(|spec| store.open(spec).err().map(|e| (spec, e)))
                    .collect()
            };
            let damaged = |e: &TableError| !matches!(e, TableError::Missing { .. });
            for (_, problem) in problems.iter().filter(|(_, e)| damaged(e)) {
                progress.note(format!("{}: replacing: {problem}", group.name));
            }
            let (rebuild, to_build): (_, Vec<&TableSpec>) =
                if force || problems.iter().any(|(_, e)| damaged(e)) {
                    (Rebuild::All, member.specs.iter().collect())
                } else {
                    (
                        Rebuild::Missing,
                        problems.iter().map(|(spec, _)| *spec).collect(),
                    )
                };
            if to_build.is_empty() {
                continue;
            }
            specs += to_build.len();
            bytes += to_build.iter().map(|s| s.payload_len()).sum::<u64>();
            members.push((member, rebuild));
        }
        if members.is_empty() {
            progress.note(format!("{}: up to date", group.name));
            continue;
        }
        store.check_writable()?;
        let estimate = group.measured_cost.map_or(String::new(), |cost| {
            format!(
                "; about {:.0} min on {} threads and {:.1} GB of memory (measured on 2 cores)",
                cost.seconds_on(cubedb::threads()) / 60.0,
                cubedb::threads(),
                cost.peak_bytes as f64 / 1e9
            )
        });
        progress.note(format!(
            "{}: building {specs} table(s), {:.1} MB, in {}{estimate}",
            group.name,
            bytes as f64 / 1e6,
            store.dir().display()
        ));
        let started = Instant::now();
        for (member, rebuild) in members {
            member
                .build(store, rebuild, &progress)
                .with_context(|| format!("building table group `{}`", group.name))?;
        }
        progress.note(format!(
            "{}: built in {:.2} s",
            group.name,
            started.elapsed().as_secs_f64()
        ));
    }
    Ok(())
}

/// The members of `group` of `metric` (every member without one).
fn members_of<'g>(
    group: &'g TableGroup,
    metric: Option<&'g str>,
) -> impl Iterator<Item = &'g GroupMember> {
    group
        .members
        .iter()
        .filter(move |m| metric.is_none() || m.variant.is_none() || m.variant == metric)
}

/// Checks every table of the named groups (a missing or damaged one is an error naming
/// it, before any is read), then drops each from the page cache and reads it back.
fn warm(store: &TableStore, args: &WarmArgs) -> Result<ExitCode> {
    store.check_dir()?;
    let mut paths = Vec::new();
    for group in selected_groups(&args.tables)? {
        for member in members_of(&group, args.metric.as_deref()) {
            for spec in &member.specs {
                // A missing table's error says how to build it.
                store.open(spec)?;
                paths.push(store.path_of(spec));
            }
        }
    }
    let mut out = cubedb::output::stdout()?;
    read_back(&mut out, &paths)?;
    out.flush().context(WRITING)?;
    Ok(ExitCode::SUCCESS)
}

/// Drops each table of `paths` from the page cache and reads it back whole, a line each.
fn read_back(out: &mut impl Write, paths: &[PathBuf]) -> Result<()> {
    for path in paths {
        let started = Instant::now();
        let bytes = table::reload_into_page_cache(path)
            .with_context(|| format!("reading {} back into the page cache", path.display()))?;
        writeln!(
            out,
            "warm     {}  {:.1} MB in {:.2} s",
            path.display(),
            bytes as f64 / 1e6,
            started.elapsed().as_secs_f64()
        )
        .context(WRITING)?;
    }
    Ok(())
}

fn verify(store: &TableStore) -> Result<ExitCode> {
    let mut out = cubedb::output::stdout()?;
    store.check_dir()?;
    let mut bad = 0;
    let mut present = 0;
    for group in catalog::groups() {
        for spec in group.specs() {
            let path = store.path_of(&spec);
            // Unreadable, or not a file: as bad as a corrupted table.
            let verdict = match store.status(&spec) {
                Ok(false) => {
                    writeln!(out, "missing  {}", path.display()).context(WRITING)?;
                    continue;
                }
                Ok(true) => store.open_fully(&spec).map(drop),
                Err(e) => Err(e),
            };
            present += 1;
            match verdict {
                Ok(()) => writeln!(out, "ok       {}", path.display()).context(WRITING)?,
                Err(e) => {
                    bad += 1;
                    writeln!(out, "BAD      {e}").context(WRITING)?;
                }
            }
        }
    }
    out.flush().context(WRITING)?;
    if bad > 0 {
        bail!("{bad} of {present} table(s) failed verification");
    }
    Ok(ExitCode::SUCCESS)
}

fn info(store: &TableStore) -> Result<ExitCode> {
    let mut out = cubedb::output::stdout()?;
    store.check_dir()?;
    writeln!(out, "data directory: {}", store.dir().display()).context(WRITING)?;
    let mut unreadable = 0;
    for group in catalog::groups() {
        writeln!(out, "\n[{}] {}", group.name, group.about).context(WRITING)?;
        for spec in group.specs() {
            let path = store.path_of(&spec);
            if !store.status(&spec).unwrap_or(true) {
                writeln!(
                    out,
                    "  {:<32} missing ({:.1} MB when built)",
                    spec.file_name(),
                    spec.payload_len() as f64 / 1e6
                )
                .context(WRITING)?;
                continue;
            }
            match table::read_header(&path, group.name) {
                Ok((header, len)) => {
                    writeln!(
                        out,
                        "  {:<32} {:>10.1} MB  {} entries x {} bits  ({}/{})",
                        spec.file_name(),
                        len as f64 / 1e6,
                        header.entries,
                        header.bits_per_entry,
                        header.puzzle,
                        header.kind
                    )
                    .context(WRITING)?;
                    // A 2-bit table's last bucket counts every depth from it on.
                    let open_ended = header.kind.ends_with(table::base_lines::KIND_SUFFIX);
                    let last = header.histogram.len().saturating_sub(1);
                    let histogram: Vec<String> = header
                        .histogram
                        .iter()
                        .enumerate()
                        .filter(|(_, &n)| n > 0)
                        .map(|(d, n)| match open_ended && d == last {
                            true => format!("{d}+:{n}"),
                            false => format!("{d}:{n}"),
                        })
                        .collect();
                    if !histogram.is_empty() {
                        writeln!(out, "    by depth: {}", histogram.join(" ")).context(WRITING)?;
                    }
                    if open_ended {
                        if let Some(base) = table::base_lines::base_of_histogram(&header.histogram)
                        {
                            writeln!(out, "    2-bit codes around base {base}: depths up to {base} read as their line's minimum").context(WRITING)?;
                        }
                    }
                }
                Err(e) => {
                    unreadable += 1;
                    writeln!(out, "  {e}").context(WRITING)?;
                }
            }
        }
    }
    out.flush().context(WRITING)?;
    if unreadable > 0 {
        bail!("{unreadable} table(s) could not be read");
    }
    Ok(ExitCode::SUCCESS)
}
