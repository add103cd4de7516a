//! The judge puzzles' benchmarks: the same queries through the table engine and the search
//! engine (time per query, speedup, identical answers), then the judge end to end.

use super::{compare, human, print_rows, some_queries, time_per_item, BenchArgs, Row};
use crate::input::read_input;
use anyhow::{Context, Result};
use cubedb::engine::Solve;
use cubedb::progress::Progress;
use cubedb::rng::SplitMix64;
use cubedb::table::{TableFamily, TableStore};
use std::time::{Duration, Instant};

pub fn rolling(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rolling::{
        self, judge::format_query, Options, Query, RollingTables, SearchSolver, TableSolver,
        JUDGE_LIMIT,
    };
    let store = TableStore::locate(args.data.clone());
    let tables = RollingTables::load_or_build(
        &store,
        cubedb::puzzles::rolling::RollingUse::Answers,
        &Progress::stderr(args.quiet),
    )?;
    let options = Options {
        limit: JUDGE_LIMIT,
        with_path: false,
    };
    let table = TableSolver::new(&tables, options);
    let search = SearchSolver::new(options);
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
                |q| table.solve(q),
                |q| search.solve(q),
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
fn all_queries() -> Vec<cubedb::puzzles::rolling::Query> {
    use cubedb::puzzles::rolling::{ranking::PATTERNS, tables::STARTS, Query};
    (0..STARTS as usize)
        .flat_map(|start| (0..PATTERNS).map(move |pattern| Query { start, pattern }))
        .collect()
}

pub fn rotation(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rotation::{self, judge::format_board, RotationTable};
    let store = TableStore::locate(args.data.clone());
    let table = RotationTable::load_or_build(&store, (), &Progress::stderr(args.quiet))?;
    let by_table = rotation::TableSolver::new(&table);
    let by_search = rotation::SearchSolver;
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

pub fn soma(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::soma::{
        self,
        assembly::{enumerate_all, enumerate_all_plain},
        judge::format_query,
        Geometry, SearchSolver, SomaTables, TableSolver,
    };
    let store = TableStore::locate(args.data.clone());
    let tables = SomaTables::load_or_build(&store, (), &Progress::stderr(args.quiet))?;
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
    let table = TableSolver::new(&tables);
    let search = SearchSolver::new();
    let row = compare(
        set,
        &queries,
        args.search_sample.unwrap_or(144),
        |q| table.solve(&q.orientation),
        |q| search.solve(&q.orientation),
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
    let tables = SomaTables::load_or_build(&store, (), &Progress::hidden())?;
    let loaded = started.elapsed();
    let table = TableSolver::new(&tables);
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
pub fn walk(args: &BenchArgs) -> Result<()> {
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
pub fn rubik(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::NearSolver;
    use cubedb::puzzles::rubik::{self, model::facelets::zoj_net, Cube, Metric, Options, Solved};
    let store = TableStore::locate(args.data.clone());
    let options = Options {
        metric: Metric::Qtm,
        max_depth: rubik::JUDGE_LIMIT,
    };
    let table = NearSolver::open(&store, options, &Progress::stderr(args.quiet))?;
    let search = NearSolver::without_tables(options);
    let at_depth = |count, seed| {
        table
            .random_positions_at(5, count, seed)
            .context("internal error: the near table holds depth 5")
    };
    let (name, cubes) = match &args.input {
        Some(path) => {
            let text = read_input(Some(path))?;
            let cubes = rubik::parse_judge_input(text.as_bytes())
                .filter_map(|q| q.map(|q| q.cube.ok()).transpose())
                .collect::<Result<Vec<_>, _>>()
                .with_context(|| format!("in {}", path.display()))?;
            (path.display().to_string(), some_queries(cubes, path)?)
        }
        None => ("depth 5 (random)".to_string(), at_depth(2000, 2477)?),
    };
    // Optimal solutions may differ; compare their lengths and check that both solve.
    fn outcome(
        solver: &impl Solve<Query = Cube, Answer = Solved>,
        cube: &Cube,
    ) -> Option<(usize, bool)> {
        solver
            .solve(cube)
            .moves
            .map(|moves| (moves.len(), cube.apply_all(&moves).is_solved()))
    }
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
        let cubes = at_depth(100_000, 5)?;
        let colours = ['w', 'r', 'g', 'y', 'o', 'b'];
        let mut text = format!("{}\n", cubes.len());
        for cube in &cubes {
            text.push('\n');
            text.push_str(&zoj_net(cube, &colours));
        }
        let started = Instant::now();
        let answered =
            rubik::answer_judge_input(text.as_bytes(), &table, std::io::sink(), std::io::sink())?;
        let elapsed = started.elapsed();
        say!(
            "judge end to end (parse, validate, lookup, print) on {answered} depth-5 nets: {}, {:.0} cubes/s",
            human(elapsed),
            answered as f64 / elapsed.as_secs_f64()
        );
    }
    Ok(())
}
