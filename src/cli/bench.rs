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
use cubedb::puzzles::rotation::{self, judge::format_board, RotationTable};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
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
    /// (`--metric`), all threads: load time, mean lower bound, time and nodes per cube.
    RubikOptimal,
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

    /// How many queries of each set the (slow) search engine answers, spread evenly
    /// [default: 100 for rolling; for rotation 100 random, 5 hardest].
    #[arg(long, value_name = "N")]
    search_sample: Option<usize>,

    /// rubik-twophase without INPUT: how many random positions.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    count: usize,

    /// rubik-twophase without INPUT: seed of the random positions.
    #[arg(long, value_name = "S", default_value_t = 2026)]
    seed: u64,

    /// rubik-twophase: caps to measure, as METRIC:N (default htm:21,htm:20,qtm:26,qtm:24).
    #[arg(long, value_name = "CAPS", value_delimiter = ',')]
    caps: Vec<String>,

    /// rubik-optimal: the pattern-database preset [default: the largest built].
    #[arg(long, value_enum)]
    tables: Option<cubedb::puzzles::rubik::Preset>,

    /// rubik-optimal: the metric.
    #[arg(long, value_enum, default_value_t = cubedb::puzzles::rubik::Metric::Htm)]
    metric: cubedb::puzzles::rubik::Metric,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// One line of the results table.
struct Row {
    set: String,
    queries: usize,
    table_per_query: Duration,
    searched: usize,
    /// `None` when no query was searched (a search sample of 0).
    search_per_query: Option<Duration>,
    identical: usize,
}

fn print_rows(title: &str, rows: &[Row]) -> Result<()> {
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
fn some_queries<T>(queries: Vec<T>, input: &std::path::Path) -> Result<Vec<T>> {
    anyhow::ensure!(
        !queries.is_empty(),
        "{} holds no queries: nothing to measure",
        input.display()
    );
    Ok(queries)
}

/// A duration with a unit that suits it.
fn human(d: Duration) -> String {
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
fn time_per_item<T>(items: &[T], min_time: Duration, mut f: impl FnMut(&T)) -> Duration {
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
fn compare<Q: Clone, A: PartialEq>(
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

/// Runs the benchmark.
pub fn run(args: BenchArgs) -> Result<()> {
    match args.puzzle {
        BenchPuzzle::Rolling => bench_rolling(&args),
        BenchPuzzle::Rotation => bench_rotation(&args),
        BenchPuzzle::Walk => bench_walk(&args),
        BenchPuzzle::Soma => bench_soma(&args),
        BenchPuzzle::Rubik => bench_rubik(&args),
        BenchPuzzle::RubikTwophase => bench_twophase(&args),
        BenchPuzzle::RubikRu => bench_ru(&args),
        BenchPuzzle::RubikGoals => bench_goals(&args),
        BenchPuzzle::RubikOptimal => bench_optimal(&args),
    }
}

fn bench_optimal(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::{solver::MAX_SOLUTION, Cube, KorfSolver, NearTable, Pdbs, Preset};
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let metric = args.metric;
    let preset = args
        .tables
        .unwrap_or_else(|| Preset::largest_present(&store, metric));
    let started = Instant::now();
    let near = NearTable::load_or_build(&store, &progress)?;
    let pdbs = Pdbs::load_or_build(&store, preset, metric, &progress)?;
    let loaded = started.elapsed();
    let solver = KorfSolver::new(&pdbs, Some(&near));
    say!(
        "rubik-optimal: {} preset ({:.2} GB), {}, loaded in {}",
        preset.name(),
        pdbs.payload_bytes() as f64 / 1e9,
        metric.unit(),
        human(loaded)
    );
    let mut rng = SplitMix64::new(0x5eed);
    let sample: Vec<Cube> = (0..10_000).map(|_| Cube::random(&mut rng)).collect();
    let started = Instant::now();
    let bounds: Vec<u32> = sample.iter().map(|c| solver.lower_bound(c)).collect();
    let per_bound = started.elapsed() / sample.len() as u32;
    say!(
        "lower bound on {} random positions: mean {:.3} (table entries alone: mean {:.3}), {} each",
        sample.len(),
        bounds.iter().sum::<u32>() as f64 / bounds.len() as f64,
        pdbs.mean_entry(),
        human(per_bound)
    );
    let mut rng = SplitMix64::new(args.seed);
    let cubes: Vec<Cube> = (0..args.count).map(|_| Cube::random(&mut rng)).collect();
    say!(
        "{:>5} {:>6} {:>15} {:>10} {:>8}",
        "cube",
        "length",
        "nodes",
        "seconds",
        "ns/node"
    );
    let mut times = Vec::new();
    let mut all_nodes = 0u64;
    for (i, cube) in cubes.iter().enumerate() {
        let started = Instant::now();
        let solved = solver.solve(cube, MAX_SOLUTION);
        let elapsed = started.elapsed();
        let moves = solved.moves.context("every cube has a solution")?;
        anyhow::ensure!(
            cube.apply_all(&moves).is_solved(),
            "cube {}: wrong solution",
            i + 1
        );
        say!(
            "{:>5} {:>6} {:>15} {:>10.3} {:>8.1}",
            i + 1,
            metric.length(&moves),
            solved.nodes,
            elapsed.as_secs_f64(),
            elapsed.as_secs_f64() * 1e9 / solved.nodes.max(1) as f64
        );
        times.push(elapsed.as_secs_f64());
        all_nodes += solved.nodes;
    }
    if !times.is_empty() {
        let total: f64 = times.iter().sum();
        let mut sorted = times.clone();
        sorted.sort_by(f64::total_cmp);
        let median = if sorted.len() % 2 == 1 {
            sorted[sorted.len() / 2]
        } else {
            (sorted[sorted.len() / 2 - 1] + sorted[sorted.len() / 2]) / 2.0
        };
        say!(
            "median {median:.3} s, mean {:.3} s, {:.1} ns per node on {} threads ({:.1} M nodes/s)",
            total / times.len() as f64,
            total * 1e9 / all_nodes.max(1) as f64,
            rayon::current_num_threads(),
            all_nodes as f64 / total / 1e6
        );
    }
    Ok(())
}

fn bench_rolling(args: &BenchArgs) -> Result<()> {
    let store = TableStore::locate(args.data.clone());
    let tables = RollingTables::load_or_build(&store, &Progress::stderr(args.quiet))?;
    let table = Solver::Table(TableSolver::new(&tables));
    let search = Solver::Search(SearchSolver);
    let sets: Vec<(String, Vec<Query>)> = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let queries = rolling::parse_judge_input(text.as_bytes())
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("in {}", path.display()))?;
            vec![(path.display().to_string(), some_queries(queries, path)?)]
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
    let rows: Vec<Row> = sets
        .into_iter()
        .map(|(name, queries)| {
            compare(
                name,
                &queries,
                args.search_sample.unwrap_or(100),
                |q| table.solve(q, JUDGE_LIMIT, false),
                |q| search.solve(q, JUDGE_LIMIT, false),
            )
        })
        .collect();
    print_rows("rolling: table engine vs search engine", &rows)?;
    if args.input.is_none() {
        let text: String = all_queries().iter().map(format_query).collect::<String>() + "0 0\n";
        let started = Instant::now();
        let answered =
            rolling::answer_judge_input(text.as_bytes(), &table, false, std::io::sink())?;
        let elapsed = started.elapsed();
        say!(
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

fn bench_rotation(args: &BenchArgs) -> Result<()> {
    let store = TableStore::locate(args.data.clone());
    let table = RotationTable::load_or_build(&store, &Progress::stderr(args.quiet))?;
    let by_table = rotation::Solver::Table(rotation::TableSolver::new(&table));
    let by_search = rotation::Solver::Search(rotation::SearchSolver);
    let mut rng = SplitMix64::new(2026);
    let random_boards: Vec<rotation::Board> = (0..1000)
        .map(|_| {
            let mut cells: [u8; 24] = std::array::from_fn(|i| (i / 8) as u8 + 1);
            for i in (1..24).rev() {
                cells.swap(i, rng.below(i as u64 + 1) as usize);
            }
            rotation::Board { cells }
        })
        .collect();
    let sets: Vec<(String, Vec<rotation::Board>, usize)> = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let boards = rotation::parse_judge_input(text.as_bytes())
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("in {}", path.display()))?;
            vec![(
                path.display().to_string(),
                some_queries(boards, path)?,
                args.search_sample.unwrap_or(100),
            )]
        }
        None => vec![
            (
                "random".to_string(),
                random_boards.clone(),
                args.search_sample.unwrap_or(100),
            ),
            (
                "hardest (13 moves)".to_string(),
                table.inputs_needing_at_least(13),
                args.search_sample.unwrap_or(5),
            ),
        ],
    };
    let rows: Vec<Row> = sets
        .into_iter()
        .map(|(name, boards, search_count)| {
            compare(
                name,
                &boards,
                search_count,
                |b| by_table.solve(b),
                |b| by_search.solve(b),
            )
        })
        .collect();
    print_rows("rotation: table engine vs search engine", &rows)?;
    if args.input.is_none() {
        let text: String = random_boards
            .iter()
            .cycle()
            .take(200_000)
            .map(format_board)
            .collect::<String>()
            + "0\n";
        let started = Instant::now();
        let answered = rotation::answer_judge_input(text.as_bytes(), &by_table, std::io::sink())?;
        let elapsed = started.elapsed();
        say!(
            "end to end (parse, lookup, print) on {answered} random judge inputs: {}, {:.2} M queries/s",
            human(elapsed),
            answered as f64 / elapsed.as_secs_f64() / 1e6
        );
    }
    Ok(())
}

fn bench_soma(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::soma::{
        self,
        assembly::{enumerate_all, enumerate_all_plain},
        judge::format_query,
        Geometry, SearchSolver, Solver, SomaTables, TableSolver,
    };
    let store = TableStore::locate(args.data.clone());
    let tables = SomaTables::load_or_build(&store, &Progress::stderr(args.quiet))?;
    let geometry = soma::geometry();
    let (set, text) = match &args.input {
        Some(path) => (path.display().to_string(), read_input(Some(path))?),
        None => {
            let text: String = soma::judge::every_valid_query(geometry)
                .iter()
                .map(|q| format_query(q.cells))
                .collect();
            ("every valid input".to_string(), text)
        }
    };
    let queries = soma::parse_judge_input(text.as_bytes(), geometry)
        .collect::<Result<Vec<_>, _>>()
        .with_context(|| format!("in {set}"))?;
    let queries = match &args.input {
        Some(path) => some_queries(queries, path)?,
        None => queries,
    };
    let table = Solver::Table(TableSolver::new(&tables));
    let search = Solver::Search(SearchSolver::new());
    let row = compare(
        set,
        &queries,
        args.search_sample.unwrap_or(144),
        |q| table.solve(q),
        |q| search.solve(q),
    );
    print_rows(
        "soma: catalogue lookup vs exact-cover search, per query",
        &[row],
    )?;

    // Every assembly from nothing: placements computed, then the exact cover, with and
    // without the cube's rotations.
    let runs = 20;
    let single = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    let threads = rayon::current_num_threads();
    type Enumerate = fn(
        &Geometry,
    ) -> (
        Vec<soma::Assembly>,
        cubedb::search::exact_cover::SearchStats,
    );
    let methods: [(&str, Enumerate); 2] = [
        ("a fixed, x24 rotations", enumerate_all),
        ("plain exact cover", enumerate_all_plain),
    ];
    say!("enumerate every assembly from nothing (best and mean of {runs} runs):");
    for (method, enumerate) in methods {
        let timed = || {
            let started = Instant::now();
            let (all, stats) = enumerate(&Geometry::new());
            (started.elapsed(), all.len(), stats.nodes)
        };
        let many: Vec<_> = (0..runs).map(|_| timed()).collect();
        let one: Vec<_> = single.install(|| (0..runs).map(|_| timed()).collect());
        for (label, times) in [
            (format!("{threads} threads"), many),
            ("1 thread".into(), one),
        ] {
            let best = times.iter().map(|t| t.0).min().unwrap_or_default();
            let mean = times.iter().map(|t| t.0).sum::<Duration>() / runs;
            say!(
                "  {method:<24} {label:<10} {} assemblies, {} nodes: best {}, mean {}",
                times[0].1,
                times[0].2,
                human(best),
                human(mean)
            );
        }
    }

    // The judge path: open and verify the catalogue, parse, look up, format.
    let started = Instant::now();
    let tables = SomaTables::load_or_build(&store, &Progress::hidden())?;
    let loaded = started.elapsed();
    let table = Solver::Table(TableSolver::new(&tables));
    let answered = soma::answer_judge_input(text.as_bytes(), &table, std::io::sink())?;
    say!(
        "end to end with the catalogue (open + verify {}, then parse, look up, print) on \
         {answered} inputs: {}",
        human(loaded),
        human(started.elapsed())
    );
    Ok(())
}

/// `bench walk [INPUT]`: end-to-end and solver-only throughput on random 8x8 cases
/// (or on INPUT), and the time of random cases on a 1000x1000 board.
fn bench_walk(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::walk::{self, judge::format_case, Board, BoardSize, Case, Walker};
    let input = args.input.as_deref();
    let chess = Board::open(BoardSize::CHESS);
    let mut rng = SplitMix64::new(1016);
    say!("walk: Dijkstra (A* potential) over (square, orientation), no tables");
    say!(
        "{:<34} {:>9} {:>12} {:>14}",
        "set",
        "cases",
        "time/case",
        "cases/s"
    );
    let text = match input {
        Some(path) => read_input(Some(path))?,
        None => {
            let mut text = String::new();
            for _ in 0..100_000 {
                format_case(&mut text, &Case::random(&mut rng, BoardSize::CHESS), 8);
            }
            text
        }
    };
    let name = input.map_or("random 8x8".to_string(), |p| p.display().to_string());
    let cases: Vec<Case> = walk::parse_judge_input(text.as_bytes(), &chess)
        .map(|r| r.map(|l| l.case))
        .collect::<Result<_, _>>()
        .with_context(|| format!("in {name}"))?;
    let cases = match input {
        Some(path) => some_queries(cases, path)?,
        None => cases,
    };
    let mut walker = Walker::new(&chess);
    let mut squares = Vec::new();
    let solve_only = time_per_item(&cases, Duration::from_millis(500), |case| {
        std::hint::black_box(walker.solve_into(case, &mut squares));
    });
    print_walk_row(&format!("{name}: solve only"), cases.len(), solve_only)?;
    let started = Instant::now();
    let mut passes = 0u32;
    while passes == 0 || started.elapsed() < Duration::from_millis(500) {
        walk::answer_judge_input(text.as_bytes(), &chess, std::io::sink())?;
        passes += 1;
    }
    let end_to_end = started.elapsed() / (passes * cases.len().max(1) as u32);
    print_walk_row(
        &format!("{name}: parse+solve+print"),
        cases.len(),
        end_to_end,
    )?;

    let size = BoardSize {
        width: 1000,
        height: 1000,
    };
    let big = Board::open(size);
    let mut walker = Walker::new(&big);
    let mut corner = Case::random(&mut rng, size);
    (corner.start, corner.end) = (0, size.squares() as u32 - 1);
    let mut big_cases = vec![corner];
    big_cases.extend((0..4).map(|_| Case::random(&mut rng, size)));
    for (i, case) in big_cases.iter().enumerate() {
        let started = Instant::now();
        let cost = walker.solve_into(case, &mut squares);
        let elapsed = started.elapsed();
        let label = if i == 0 {
            "1000x1000 corner to corner".to_string()
        } else {
            format!("1000x1000 random #{i}")
        };
        print_walk_row(&label, 1, elapsed)?;
        say!(
            "    {} -> {}: sum {}, {} squares",
            size.name(case.start),
            size.name(case.end),
            cost.map_or("unreachable".to_string(), |c| c.to_string()),
            squares.len()
        );
    }
    Ok(())
}

fn print_walk_row(set: &str, cases: usize, per_case: Duration) -> Result<()> {
    say!(
        "{set:<34} {cases:>9} {:>12} {:>14.0}",
        human(per_case),
        1.0 / per_case.as_secs_f64()
    );
    Ok(())
}

/// Near-table lookups vs IDA* (cubie heuristic) on the same depth-5 positions, then the
/// judge end to end on 100,000 depth-5 nets.
fn bench_rubik(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::{
        self, facelets::zoj_net, Cube, Metric, NearTable, SearchSolver, Solver, TableSolver,
    };
    let store = TableStore::locate(args.data.clone());
    let near = NearTable::load_or_build(&store, &Progress::stderr(args.quiet))?;
    let table = Solver::Table(TableSolver::new(&near));
    let search = Solver::Search(SearchSolver);
    let limit = rubik::JUDGE_LIMIT;
    let (name, cubes) = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let cubes = rubik::parse_judge_input(text.as_bytes())
                .filter_map(|q| q.map(|q| q.cube.ok()).transpose())
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("in {}", path.display()))?;
            (path.display().to_string(), some_queries(cubes, path)?)
        }
        None => (
            "depth 5 (random)".to_string(),
            near.random_positions_at(5, 2000, 2477),
        ),
    };
    // Optimal solutions may differ; compare their lengths and check that both solve.
    let outcome = |solver: &Solver<'_>, cube: &Cube| {
        solver
            .solve(cube, Metric::Qtm, limit)
            .moves
            .map(|moves| (moves.len(), cube.apply_all(&moves).is_solved()))
    };
    let row = compare(
        name,
        &cubes,
        args.search_sample.unwrap_or(100),
        |c| outcome(&table, c),
        |c| outcome(&search, c),
    );
    print_rows(
        "rubik: near-table lookup vs IDA* (cubie heuristic); identical = same optimal length, both solve",
        &[row],
    )?;
    if args.input.is_none() {
        let cubes = near.random_positions_at(5, 100_000, 5);
        let colours = ['w', 'r', 'g', 'y', 'o', 'b'];
        let mut text = format!("{}\n", cubes.len());
        for cube in &cubes {
            text.push('\n');
            text.push_str(&zoj_net(cube, &colours));
        }
        let started = Instant::now();
        let answered = rubik::answer_judge_input(
            text.as_bytes(),
            &table,
            limit,
            std::io::sink(),
            std::io::sink(),
        )?;
        let elapsed = started.elapsed();
        say!(
            "judge end to end (parse, validate, lookup, print) on {answered} depth-5 nets: {}, {:.0} cubes/s",
            human(elapsed),
            answered as f64 / elapsed.as_secs_f64()
        );
    }
    Ok(())
}

/// The `q`-quantile of sorted `values`.
fn quantile(sorted: &[Duration], q: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn bench_twophase(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::twophase::{Outcome, TwoPhaseSearch, TwoPhaseTables};
    use cubedb::puzzles::rubik::{parse_facelets, Cube, Metric};
    let store = TableStore::locate(args.data.clone());
    let (name, cubes) = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let cubes = text
                .lines()
                .enumerate()
                .filter(|(_, line)| !line.trim().is_empty())
                .map(|(i, line)| {
                    parse_facelets(line.trim())
                        .with_context(|| format!("{} line {}", path.display(), i + 1))
                })
                .collect::<Result<Vec<Cube>>>()?;
            (path.display().to_string(), some_queries(cubes, path)?)
        }
        None => {
            let mut rng = SplitMix64::new(args.seed);
            let cubes = (0..args.count).map(|_| Cube::random(&mut rng)).collect();
            (format!("random, seed {}", args.seed), cubes)
        }
    };
    anyhow::ensure!(!cubes.is_empty(), "no cubes to measure");
    let caps: Vec<(Metric, u32)> = if args.caps.is_empty() {
        vec![
            (Metric::Htm, 21),
            (Metric::Htm, 20),
            (Metric::Qtm, 26),
            (Metric::Qtm, 24),
        ]
    } else {
        args.caps
            .iter()
            .map(|cap| {
                let (metric, n) = cap.split_once(':').unwrap_or(("htm", cap));
                let metric = Metric::from_str(metric, true)
                    .map_err(|e| anyhow::anyhow!("--caps {cap}: {e}"))?;
                let n = n
                    .parse()
                    .with_context(|| format!("--caps {cap}: not a length"))?;
                Ok((metric, n))
            })
            .collect::<Result<_>>()?
    };
    say!("rubik-twophase: {} cubes ({name}), one thread", cubes.len());
    say!(
        "{:<7} {:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8} {:>11} {:>9}",
        "metric",
        "cap",
        "median",
        "mean",
        "p90",
        "p99",
        "max",
        "length",
        "nodes/cube",
        "open"
    );
    for (metric, cap) in caps {
        TwoPhaseTables::load_or_build(&store, metric, &Progress::stderr(args.quiet))?;
        let started = Instant::now();
        let tables = TwoPhaseTables::open(&store, metric)?;
        let opened = started.elapsed();
        let mut search = TwoPhaseSearch::new(&tables);
        // Warm-up: caches, page tables and the CPU's clock settle before timing.
        for cube in cubes.iter().take(50) {
            search.solve(cube, cap, None);
        }
        let nodes_before = search.nodes();
        let mut times = Vec::with_capacity(cubes.len());
        let mut total_length = 0u64;
        for (i, cube) in cubes.iter().enumerate() {
            let t = Instant::now();
            let outcome = search.solve(cube, cap, None);
            times.push(t.elapsed());
            let Outcome::Found(moves) = outcome else {
                anyhow::bail!("cube {}: no solution within {cap}", i + 1);
            };
            anyhow::ensure!(
                cube.apply_all(&moves).is_solved() && metric.length(&moves) <= cap,
                "cube {}: wrong solution",
                i + 1
            );
            total_length += metric.length(&moves) as u64;
        }
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        times.sort();
        let metric_name = format!("{metric:?}").to_lowercase();
        say!(
            "{:<7} {:>4} {:>10} {:>10} {:>10} {:>10} {:>10} {:>8.2} {:>11.0} {:>9}",
            metric_name,
            cap,
            human(quantile(&times, 0.5)),
            human(mean),
            human(quantile(&times, 0.9)),
            human(quantile(&times, 0.99)),
            human(quantile(&times, 1.0)),
            total_length as f64 / cubes.len() as f64,
            (search.nodes() - nodes_before) as f64 / cubes.len() as f64,
            human(opened)
        );
    }
    Ok(())
}

fn bench_ru(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::ru::{metric_turns, RuTable};
    use cubedb::puzzles::rubik::{Cube, Metric};
    let store = TableStore::locate(args.data.clone());
    say!(
        "rubik-ru: {} random <R,U> positions (seed {}), one thread",
        args.count,
        args.seed
    );
    for metric in [Metric::Htm, Metric::Qtm] {
        let table = RuTable::load_or_build(&store, metric, &Progress::stderr(args.quiet))?;
        let turns = metric_turns(metric);
        let mut rng = SplitMix64::new(args.seed);
        // A long random walk reaches every position of the group about equally often.
        let cubes: Vec<Cube> = (0..args.count)
            .map(|_| {
                let walk: Vec<_> = (0..200)
                    .map(|_| turns[rng.below(turns.len() as u64) as usize])
                    .collect();
                Cube::from_moves(&walk)
            })
            .collect();
        let mut lengths = 0u64;
        let started = Instant::now();
        for cube in &cubes {
            let solution = table
                .solve(cube)
                .context("a member of <R,U> missing from its table")?;
            lengths += metric.length(&solution) as u64;
            std::hint::black_box(&solution);
        }
        let elapsed = started.elapsed();
        for cube in &cubes {
            let solution = table.solve(cube).context("member missing")?;
            anyhow::ensure!(cube.apply_all(&solution).is_solved(), "a wrong solution");
        }
        say!(
            "{:?}: {} per position, mean length {:.2} {}",
            metric,
            human(elapsed / cubes.len().max(1) as u32),
            lengths as f64 / cubes.len().max(1) as f64,
            metric.unit()
        );
    }
    Ok(())
}

fn bench_goals(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::goal::{orientation, GoalKind, GoalTable};
    use cubedb::puzzles::rubik::{Cube, Face, Metric};
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let mut rng = SplitMix64::new(args.seed);
    let cubes: Vec<Cube> = (0..args.count).map(|_| Cube::random(&mut rng)).collect();
    say!(
        "rubik-goals: {} random positions (seed {}), one optimal solution each, one thread",
        cubes.len(),
        args.seed
    );
    let frame_for = |down: Face| {
        let front = Face::ALL
            .into_iter()
            .find(|&f| f != down && f != down.opposite())
            .expect("a neighbour");
        orientation(down, front).expect("adjacent faces")
    };
    for metric in [Metric::Htm, Metric::Qtm] {
        let cross = GoalTable::load_or_build(&store, GoalKind::Cross, metric, &progress)?;
        let frames: Vec<_> = Face::ALL.into_iter().map(frame_for).collect();
        let mut total = 0u64;
        let started = Instant::now();
        for cube in &cubes {
            for frame in &frames {
                total += cross.solve(cube, frame, 0, 1).0 as u64;
            }
        }
        let per = started.elapsed() / cubes.len().max(1) as u32;
        say!(
            "{metric:?} cross, all 6 faces: {} per position, mean {:.2} {}",
            human(per),
            total as f64 / (6 * cubes.len().max(1)) as f64,
            metric.unit()
        );
        for kind in [
            GoalKind::Xcross,
            GoalKind::F2lPair,
            GoalKind::FirstBlock,
            GoalKind::Eo,
        ] {
            let table = GoalTable::load_or_build(&store, kind, metric, &progress)?;
            let frame = frame_for(Face::D);
            let mut total = 0u64;
            let started = Instant::now();
            for cube in &cubes {
                total += table.solve(cube, &frame, 0, 1).0 as u64;
            }
            let per = started.elapsed() / cubes.len().max(1) as u32;
            say!(
                "{metric:?} {}: {} per position, mean {:.2} {}",
                kind.name(),
                human(per),
                total as f64 / cubes.len().max(1) as f64,
                metric.unit()
            );
        }
    }
    Ok(())
}
