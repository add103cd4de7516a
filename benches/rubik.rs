//! Rubik's cube: near-table lookup vs IDA* (cubie heuristic) on the same depth-5 positions.
//!
//! Tables come from `$CUBEDB_DATA` (else `./data`) and are built there if missing.

use criterion::{criterion_group, criterion_main, Criterion};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::{Cube, Metric, Move, NearTable, SearchSolver, Solver, TableSolver};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::hint::black_box;

fn depth_five(near: &NearTable, count: usize) -> Vec<Cube> {
    let quarter: Vec<Move> = Move::quarter_turns().collect();
    let mut rng = SplitMix64::new(42);
    let mut cubes = Vec::new();
    while cubes.len() < count {
        let cube = (0..5).fold(Cube::SOLVED, |c, _| {
            c.apply(quarter[rng.below(12) as usize])
        });
        if near.distance(&cube) == Some(5) {
            cubes.push(cube);
        }
    }
    cubes
}

fn rubik(c: &mut Criterion) {
    let store = TableStore::locate(None);
    let near = NearTable::load_or_build(&store, &Progress::stderr(false)).expect("near table");
    let cubes = depth_five(&near, 64);
    let table = Solver::Table(TableSolver::new(&near));
    let search = Solver::Search(SearchSolver);
    let mut group = c.benchmark_group("rubik depth 5 (64 positions)");
    group.sample_size(10);
    group.bench_function("near table lookup", |b| {
        b.iter(|| {
            for cube in &cubes {
                black_box(table.solve(cube, Metric::Qtm, 5));
            }
        })
    });
    group.bench_function("IDA* cubie heuristic", |b| {
        b.iter(|| {
            for cube in &cubes {
                black_box(search.solve(cube, Metric::Qtm, 5));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, rubik);
criterion_main!(benches);
