//! Rotation game: table walk vs IDA* on the same inputs (random and 13-move ones), and the
//! time to build the table.

mod common;
use criterion::{criterion_group, criterion_main, Criterion};
use cubedb::engine::Solve;
use cubedb::progress::Progress;
use cubedb::puzzles::rotation::{Board, RotationTable, SearchSolver, TableSolver};
use cubedb::rng::SplitMix64;
use cubedb::table::TableFamily;
use std::hint::black_box;

fn engines(c: &mut Criterion) {
    let table = RotationTable::load_or_build(&common::bench_store(), (), &Progress::hidden())
        .expect("table");
    let by_table = TableSolver::new(&table);
    let by_search = SearchSolver;
    let mut rng = SplitMix64::new(9);
    let random: Vec<Board> = (0..32)
        .map(|_| {
            let mut cells: [u8; 24] = std::array::from_fn(|i| (i / 8) as u8 + 1);
            for i in (1..24).rev() {
                cells.swap(i, rng.below(i as u64 + 1) as usize);
            }
            Board { cells }
        })
        .collect();
    let hardest: Vec<Board> = table
        .inputs_needing_at_least(13)
        .into_iter()
        .take(1)
        .collect();
    let mut group = c.benchmark_group("rotation");
    group.sample_size(10);
    for (name, set) in [("random", &random), ("13-move", &hardest)] {
        group.bench_function(format!("table/{name}/{}", set.len()), |b| {
            b.iter(|| set.iter().for_each(|q| drop(black_box(by_table.solve(q)))))
        });
        group.bench_function(format!("search/{name}/{}", set.len()), |b| {
            b.iter(|| set.iter().for_each(|q| drop(black_box(by_search.solve(q)))))
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    common::generation(c, "rotation");
}

criterion_group!(benches, engines, generation);
criterion_main!(benches);
