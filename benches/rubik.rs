//! Rubik's cube benchmarks.
//!
//! 1. Criterion: near-table lookup vs IDA* (cubie heuristic) on the same depth-5 positions.
//! 2. A table printed first: optimal QTM solves of random scrambles of 10, 12, ..., 18
//!    quarter turns (median time and nodes) for each pattern-database preset whose tables
//!    are present, and for IDA* with the plain cubie-count heuristic (misplaced corners and
//!    edges) where it finishes. `RUBIK_BENCH_SAMPLES` sets scrambles per depth (default 5),
//!    `RUBIK_BENCH_MAX_DEPTH` the deepest row (default 16); a preset's rows stop after one
//!    whose median passes 10 s. `RUBIK_BENCH_RANDOM=N` adds a
//!    row of N uniformly random positions (seed 2026) solved with the largest preset
//!    present (minutes each with the large preset).
//!
//! Tables come from `$CUBEDB_DATA` (else `./data`); the near table is built if missing,
//! pattern databases never (build them with `cubedb-gen rubik` / `rubik-medium` /
//! `rubik-large`).

use criterion::{criterion_group, Criterion};
use cubedb::engine::Solve;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{NearSolver, OptimalSolver};
use cubedb::puzzles::rubik::{Cube, Metric, Move, Options, Preset};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::collections::HashMap;
use std::hint::black_box;
use std::time::Duration;

/// A random scramble of `n` quarter turns with no `X X'` and no `X X X`.
fn scramble(rng: &mut SplitMix64, n: usize) -> Vec<Move> {
    let quarter: Vec<Move> = Move::quarter_turns().collect();
    let mut moves: Vec<Move> = Vec::new();
    while moves.len() < n {
        let mv = quarter[rng.below(12) as usize];
        let k = moves.len();
        if k >= 1 && moves[k - 1] == mv.inverse() {
            continue;
        }
        if k >= 2 && moves[k - 1] == mv && moves[k - 2] == mv {
            continue;
        }
        moves.push(mv);
    }
    moves
}

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Solves `cube` optimally, recording time and nodes; the solution must solve it.
fn timed_solve(
    solver: &OptimalSolver,
    cube: &Cube,
    times: &mut Vec<f64>,
    nodes: &mut Vec<f64>,
) -> Vec<Move> {
    let solution = solver.solve(cube).expect("pattern databases");
    times.push(solution.elapsed.as_secs_f64());
    nodes.push(solution.nodes as f64);
    assert!(cube.apply_all(&solution.moves).is_solved());
    solution.moves
}

fn deep_report(store: &TableStore) {
    let samples = env("RUBIK_BENCH_SAMPLES", 5);
    let max_depth = env("RUBIK_BENCH_MAX_DEPTH", 16);
    println!("| heuristic | QTM scramble | median time | median nodes | samples |");
    println!("|---|---|---|---|---|");
    // Optimal length of each (depth, sample) scramble, from the first preset solving it:
    // every other preset, with its own tables, must find the same length.
    let mut lengths: HashMap<(usize, usize), usize> = HashMap::new();
    for preset in [Preset::Small, Preset::Medium, Preset::Large] {
        if !OptimalSolver::present(store, Metric::Qtm, preset) {
            continue;
        }
        let solver = OptimalSolver::open_all(store, Metric::Qtm, Some(preset), &Progress::hidden())
            .expect("pattern databases");
        for depth in (10..=max_depth).step_by(2) {
            let mut rng = SplitMix64::new(depth as u64);
            let (mut times, mut nodes) = (Vec::new(), Vec::new());
            for sample in 0..samples {
                let cube = Cube::from_moves(&scramble(&mut rng, depth));
                let moves = timed_solve(&solver, &cube, &mut times, &mut nodes);
                let first = *lengths.entry((depth, sample)).or_insert(moves.len());
                assert_eq!(
                    moves.len(),
                    first,
                    "{preset:?}: depth {depth} sample {sample}"
                );
            }
            let median_time = median(times);
            println!(
                "| {preset:?} pattern databases | {depth} | {median_time:.3} s | {:.0} | {samples} |",
                median(nodes)
            );
            // Two quarter turns deeper costs tens of times more: stop while it is cheap.
            if median_time > 10.0 {
                break;
            }
        }
    }
    let random = env("RUBIK_BENCH_RANDOM", 0);
    let largest = Preset::fastest_present(store, Metric::Qtm);
    if random > 0 {
        let solver =
            OptimalSolver::open_all(store, Metric::Qtm, Some(largest), &Progress::hidden())
                .expect("pattern databases");
        let mut rng = SplitMix64::new(2026);
        let (mut times, mut nodes) = (Vec::new(), Vec::new());
        for _ in 0..random {
            let cube = Cube::random(&mut rng);
            let moves = timed_solve(&solver, &cube, &mut times, &mut nodes);
            eprintln!(
                "random state: {} quarter turns, {:.1} s, {} nodes",
                moves.len(),
                times[times.len() - 1],
                nodes[nodes.len() - 1]
            );
        }
        println!(
            "| {largest:?} pattern databases | random | {:.1} s | {:.0} | {random} |",
            median(times),
            median(nodes)
        );
    }
    // The plain heuristic only where it finishes in reasonable time.
    let plain = OptimalSolver::without_tables(Metric::Qtm);
    for depth in [8usize, 10] {
        let mut rng = SplitMix64::new(depth as u64);
        let (mut times, mut nodes) = (Vec::new(), Vec::new());
        for _ in 0..samples.min(3) {
            let cube = Cube::from_moves(&scramble(&mut rng, depth));
            timed_solve(&plain, &cube, &mut times, &mut nodes);
        }
        println!(
            "| cubie count (no tables) | {depth} | {:.3} s | {:.0} | {} |",
            median(times),
            median(nodes),
            samples.min(3)
        );
    }
}

fn rubik(c: &mut Criterion) {
    let store = TableStore::locate(None);
    let options = Options {
        metric: Metric::Qtm,
        max_depth: 5,
    };
    let table = NearSolver::open(&store, options, &Progress::stderr(false)).expect("near table");
    deep_report(&store);
    let cubes = table
        .random_positions_at(5, 64, 42)
        .expect("the near table holds depth 5");
    let search = NearSolver::without_tables(options);
    let mut group = c.benchmark_group("rubik depth 5 (64 positions)");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(3));
    group.bench_function("near table lookup", |b| {
        b.iter(|| {
            for cube in &cubes {
                black_box(table.solve(cube));
            }
        })
    });
    group.bench_function("IDA* cubie heuristic", |b| {
        b.iter(|| {
            for cube in &cubes {
                black_box(search.solve(cube));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, rubik);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
}
