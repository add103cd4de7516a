//! `cubedb bench PUZZLE [INPUT]`: the same queries through the table engine and the search
//! engine, with time per query, speedup, and whether the answers are identical.

use super::io::read_input;
use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use cubedb::progress::Progress;
use cubedb::puzzles::rolling::{
    self, judge::format_query, ranking::PATTERNS, tables::STARTS, Query, RollingTables,
    SearchSolver, Solver, TableSolver, JUDGE_LIMIT,
};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Puzzles `cubedb bench` knows.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum BenchPuzzle {
    /// Cubic eight-puzzle.
    Rolling,
    /// Rubik's cube: near-table lookup vs IDA* on depth-5 positions.
    Rubik,
}

/// Arguments of `cubedb bench`.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Which puzzle to benchmark.
    puzzle: BenchPuzzle,

    /// Judge input with the queries [default: built-in random and hardest sets].
    #[arg(value_name = "INPUT")]
    input: Option<PathBuf>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// How many queries of each set the (slow) search engine answers; spread evenly.
    #[arg(long, default_value_t = 100, value_name = "N")]
    search_sample: usize,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// One line of the results table.
pub(super) struct Row {
    pub(super) set: String,
    pub(super) queries: usize,
    pub(super) table_per_query: Duration,
    pub(super) searched: usize,
    pub(super) search_per_query: Duration,
    pub(super) identical: usize,
}

pub(super) fn print_rows(title: &str, rows: &[Row]) {
    println!("{title}");
    println!(
        "{:<22} {:>8} {:>13} {:>14} {:>12}  identical",
        "set", "queries", "table/query", "search/query", "speedup"
    );
    for row in rows {
        let speedup = row.search_per_query.as_secs_f64() / row.table_per_query.as_secs_f64();
        println!(
            "{:<22} {:>8} {:>13} {:>14} {:>11.0}x  {} ({}/{} searched)",
            row.set,
            row.queries,
            human(row.table_per_query),
            human(row.search_per_query),
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
}

/// A duration with a unit that suits it.
pub(super) fn human(d: Duration) -> String {
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
pub(super) fn time_per_item<T>(items: &[T], min_time: Duration, mut f: impl FnMut(&T)) -> Duration {
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
pub(super) fn sample<T: Clone>(items: &[T], n: usize) -> Vec<T> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

/// Runs the benchmark.
pub fn run(args: BenchArgs) -> Result<()> {
    match args.puzzle {
        BenchPuzzle::Rolling => bench_rolling(&args),
        BenchPuzzle::Rubik => super::rubik::bench(
            args.input.as_deref(),
            args.data.clone(),
            args.search_sample,
            args.quiet,
        ),
    }
}

fn bench_rolling(args: &BenchArgs) -> Result<()> {
    let store = TableStore::locate(args.data.clone());
    let tables = RollingTables::load_or_build(&store, &Progress::stderr(args.quiet))?;
    let table = Solver::Table(TableSolver::new(&tables));
    let search = Solver::Search(SearchSolver);
    let sets: Vec<(String, Vec<Query>)> = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let queries = rolling::parse_judge_input(&text)
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("in {}", path.display()))?;
            vec![(path.display().to_string(), queries)]
        }
        None => {
            let all = all_queries();
            let mut rng = SplitMix64::new(2026);
            let random = (0..1000)
                .map(|_| all[rng.below(all.len() as u64) as usize])
                .collect();
            let hardest = all
                .iter()
                .copied()
                .filter(|q| {
                    tables
                        .distance(q.start, q.pattern)
                        .is_none_or(|d| d > JUDGE_LIMIT)
                })
                .collect();
            vec![
                ("random".to_string(), random),
                ("hardest (answer -1)".to_string(), hardest),
            ]
        }
    };
    let mut rows = Vec::new();
    for (name, queries) in sets {
        let table_per_query = time_per_item(&queries, Duration::from_millis(300), |q| {
            std::hint::black_box(table.solve(q, JUDGE_LIMIT, false));
        });
        let searched = sample(&queries, args.search_sample);
        let search_per_query = time_per_item(&searched, Duration::ZERO, |q| {
            std::hint::black_box(search.solve(q, JUDGE_LIMIT, false));
        });
        let identical = searched
            .iter()
            .filter(|q| table.solve(q, JUDGE_LIMIT, false) == search.solve(q, JUDGE_LIMIT, false))
            .count();
        rows.push(Row {
            set: name,
            queries: queries.len(),
            table_per_query,
            searched: searched.len(),
            search_per_query,
            identical,
        });
    }
    print_rows("rolling: table engine vs search engine", &rows);
    if args.input.is_none() {
        let text: String = all_queries().iter().map(format_query).collect::<String>() + "0 0\n";
        let started = Instant::now();
        let answered = rolling::answer_judge_input(&text, &table, false, std::io::sink())?;
        let elapsed = started.elapsed();
        println!(
            "end to end (parse, lookup, print) on all {answered} judge inputs: {}, {:.2} M queries/s",
            human(elapsed),
            answered as f64 / elapsed.as_secs_f64() / 1e6
        );
    }
    Ok(())
}

/// Every judge input: 9 starts x 59,049 goal patterns.
fn all_queries() -> Vec<Query> {
    (0..STARTS as usize)
        .flat_map(|start| (0..PATTERNS).map(move |pattern| Query { start, pattern }))
        .collect()
}
