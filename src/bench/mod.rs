//! `cubedb bench`: the benchmarks, a front end of their own. Each measures the library
//! through the same faces and engines the other front ends use: table engine against
//! search engine on the same queries for the judge puzzles ([`judges`]), and the Rubik
//! solvers on random positions ([`rubik`]).

mod judges;
mod reads;
mod rubik;
#[cfg(feature = "serve")]
mod serve;

use anyhow::Result;
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Puzzles `cubedb bench` knows.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BenchPuzzle {
    /// Cubic eight-puzzle.
    Rolling,
    /// Rotation game.
    Rotation,
    /// Cube on the walk.
    Walk,
    /// Soma cube.
    Soma,
    /// Rubik's cube: near-table lookup vs IDA* on depth-5 positions.
    Rubik,
    /// Rubik's cube, two-phase solving of random positions, one thread: time per cube
    /// at several length caps (INPUT: facelet strings, one per line).
    RubikTwophase,
    /// Rubik's cube, the `<R,U>` table: optimal R,U solutions of random group positions
    /// (`--count`, `--seed`), one thread, both metrics.
    RubikRu,
    /// Rubik's cube, partial goals: optimal cross on all six faces, and the other goals
    /// on D, for random positions (`--count`, `--seed`), one thread.
    RubikGoals,
    /// Rubik's cube, optimal solving of random positions (`--count`, `--seed`, the same
    /// positions as `cubedb rubik random`) with one preset (`--tables`) in one metric
    /// (`--metric`), all threads: load time, mean lower bound, time and nodes per cube
    /// (INPUT: the first `--count` positions of a file instead, facelet strings or
    /// scrambles, one per line as `rubik solve` reads them, `#` lines skipped).
    RubikOptimal,
    /// Random reads in the first table of a preset (`--tables`, `--metric`): nanoseconds
    /// per cache line with one and with many in flight, and for a second line beside each
    /// (at random, in the same 4 KiB page, 1 MiB away): what a table read costs here.
    TableReads,
    /// `cubedb serve` under load on loopback (one started here, or `--url`): single
    /// two-phase requests from `--clients` concurrent clients (`--count` of them), batches,
    /// and a flood of optimal requests with health probes; every answer checked.
    #[cfg(feature = "serve")]
    Serve,
}

/// Arguments of `cubedb bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which puzzle to benchmark.
    pub puzzle: BenchPuzzle,

    /// Judge input with the queries [default: built-in random and hardest sets].
    #[arg(value_name = "INPUT")]
    pub input: Option<PathBuf>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// How many queries of each set the (slow) search engine answers, spread evenly
    /// [default: 100 for rolling; for rotation 100 random, 5 hardest].
    #[arg(long, value_name = "N", value_parser = crate::ranges::sample, allow_negative_numbers = true)]
    pub search_sample: Option<usize>,

    /// rubik-twophase without INPUT: how many random positions.
    #[arg(long, value_name = "N", default_value_t = 1000, value_parser = crate::ranges::bench_count, allow_negative_numbers = true)]
    pub count: u64,

    /// rubik-twophase without INPUT: seed of the random positions.
    #[arg(long, value_name = "S", default_value_t = 2026, value_parser = crate::ranges::seed, allow_negative_numbers = true)]
    pub seed: u64,

    /// rubik-twophase: caps to measure, as METRIC:N (default htm:21,htm:20,qtm:26,qtm:24).
    #[arg(long, value_name = "CAPS", value_delimiter = ',')]
    pub caps: Vec<String>,

    /// rubik-twophase: search with the compact tables built in memory (what answers a
    /// first call before the full tables exist; face turns only). "open" is their build.
    #[arg(long)]
    pub compact: bool,

    /// rubik-optimal: the pattern-database preset [default: the largest built].
    #[arg(long, value_enum)]
    pub tables: Option<cubedb::puzzles::rubik::Preset>,

    /// rubik-optimal: the metric.
    #[arg(long, value_enum, default_value_t = cubedb::puzzles::rubik::Metric::Htm)]
    pub metric: cubedb::puzzles::rubik::Metric,

    /// serve: concurrent clients sending single requests.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub clients: u32,

    /// serve: the service to load [default: start `cubedb serve` on a free loopback port].
    #[arg(long, value_name = "URL")]
    pub url: Option<String>,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Runs the benchmark.
pub fn run(args: BenchArgs) -> Result<()> {
    match args.puzzle {
        BenchPuzzle::Rolling => judges::rolling(&args),
        BenchPuzzle::Rotation => judges::rotation(&args),
        BenchPuzzle::Walk => judges::walk(&args),
        BenchPuzzle::Soma => judges::soma(&args),
        BenchPuzzle::Rubik => judges::rubik(&args),
        BenchPuzzle::RubikTwophase => rubik::twophase(&args),
        BenchPuzzle::RubikRu => rubik::ru(&args),
        BenchPuzzle::RubikGoals => rubik::goals(&args),
        BenchPuzzle::RubikOptimal => rubik::optimal(&args),
        BenchPuzzle::TableReads => reads::table_reads(&args),
        #[cfg(feature = "serve")]
        BenchPuzzle::Serve => serve::run(&args),
    }
}

/// One line of the results table.
pub(crate) struct Row {
    set: String,
    queries: usize,
    table_per_query: Duration,
    searched: usize,
    /// `None` when no query was searched (a search sample of 0).
    search_per_query: Option<Duration>,
    identical: usize,
}

pub(crate) fn print_rows(title: &str, rows: &[Row]) -> Result<()> {
    say!("{title}");
    say!(
        "{:<22} {:>8} {:>13} {:>14} {:>12}  identical",
        "set",
        "queries",
        "table/query",
        "search/query",
        "speedup"
    );
    for row in rows {
        let Some(search_per_query) = row.search_per_query else {
            say!(
                "{:<22} {:>8} {:>13} {:>14} {:>12}  not compared (search sample of 0)",
                row.set,
                row.queries,
                human(row.table_per_query),
                "-",
                "-"
            );
            continue;
        };
        let speedup = search_per_query.as_secs_f64() / row.table_per_query.as_secs_f64();
        say!(
            "{:<22} {:>8} {:>13} {:>14} {:>11.0}x  {} ({}/{} searched)",
            row.set,
            row.queries,
            human(row.table_per_query),
            human(search_per_query),
            speedup,
            if row.identical == row.searched {
                "yes"
            } else {
                "NO"
            },
            row.identical,
            row.searched
        );
    }
    Ok(())
}

/// Refuses an input with nothing in it: no figure is printed for queries that do not
/// exist.
pub(crate) fn some_queries<T>(queries: Vec<T>, input: &std::path::Path) -> Result<Vec<T>> {
    anyhow::ensure!(
        !queries.is_empty(),
        "{} holds no queries: nothing to measure",
        input.display()
    );
    Ok(queries)
}

/// A duration with a unit that suits it.
pub(crate) fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 1.0 {
        format!("{s:.2} s")
    } else if s >= 1e-3 {
        format!("{:.2} ms", s * 1e3)
    } else if s >= 1e-6 {
        format!("{:.2} us", s * 1e6)
    } else {
        format!("{:.1} ns", s * 1e9)
    }
}

/// Mean time of `f` over `items`, repeating the whole pass until at least `min_time`.
pub(crate) fn time_per_item<T>(items: &[T], min_time: Duration, mut f: impl FnMut(&T)) -> Duration {
    let started = Instant::now();
    let mut passes = 0u32;
    loop {
        items.iter().for_each(&mut f);
        passes += 1;
        if started.elapsed() >= min_time {
            break;
        }
    }
    started.elapsed() / (passes * items.len().max(1) as u32)
}

/// Evenly spread sample of at most `n` items.
fn sample<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

/// Times both engines on `queries` (search on an evenly spread sample of `search_count`)
/// and checks that they give identical answers on the sample.
pub(crate) fn compare<Q: Clone, A: PartialEq>(
    set: String,
    queries: &[Q],
    search_count: usize,
    by_table: impl Fn(&Q) -> A,
    by_search: impl Fn(&Q) -> A,
) -> Row {
    let table_per_query = time_per_item(queries, Duration::from_millis(300), |q| {
        std::hint::black_box(by_table(q));
    });
    let searched = sample(queries, search_count);
    let search_per_query = (!searched.is_empty()).then(|| {
        time_per_item(&searched, Duration::ZERO, |q| {
            std::hint::black_box(by_search(q));
        })
    });
    let identical = searched
        .iter()
        .filter(|q| by_table(q) == by_search(q))
        .count();
    Row {
        set,
        queries: queries.len(),
        table_per_query,
        searched: searched.len(),
        search_per_query,
        identical,
    }
}

/// The `q`-quantile of sorted `values`.
pub(crate) fn quantile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}
