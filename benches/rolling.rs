//! Cubic eight-puzzle: table lookup vs pure search on the same queries, and the time to
//! build the tables from nothing.

mod common;
use criterion::{criterion_group, criterion_main, Criterion};
use cubedb::engine::Solve;
use cubedb::progress::Progress;
use cubedb::puzzles::rolling::ranking::PATTERNS;
use cubedb::puzzles::rolling::tables::RollingTables;
use cubedb::puzzles::rolling::{Options, Query, SearchSolver, TableSolver, JUDGE_LIMIT};
use cubedb::rng::SplitMix64;
use cubedb::table::TableFamily;
use std::hint::black_box;

fn queries(tables: &RollingTables) -> (Vec<Query>, Vec<Query>) {
    let mut rng = SplitMix64::new(2026);
    let random: Vec<Query> = (0..64)
        .map(|_| Query {
            start: rng.below(9) as usize,
            pattern: rng.below(PATTERNS as u64) as u32,
        })
        .collect();
    let hardest: Vec<Query> = (0..9)
        .flat_map(|start| (0..PATTERNS).map(move |pattern| Query { start, pattern }))
        .filter(|q| {
            tables
                .distance(q.start, q.pattern)
                .is_some_and(|d| d > JUDGE_LIMIT)
        })
        .step_by(201)
        .collect();
    (random, hardest)
}

fn engines(c: &mut Criterion) {
    let store = common::bench_store();
    let tables = RollingTables::load_or_build(
        &store,
        cubedb::puzzles::rolling::RollingUse::Answers,
        &Progress::hidden(),
    )
    .expect("tables");
    let options = Options {
        limit: JUDGE_LIMIT,
        with_path: false,
    };
    let table = TableSolver::new(&tables, options);
    let search = SearchSolver::new(options);
    let (random, hardest) = queries(&tables);
    let mut group = c.benchmark_group("rolling");
    group.sample_size(10);
    for (name, set) in [("random", &random), ("hardest", &hardest)] {
        group.bench_function(format!("table/{name}/{}", set.len()), |b| {
            b.iter(|| {
                for q in set {
                    black_box(table.solve(q));
                }
            })
        });
        group.bench_function(format!("search/{name}/{}", set.len()), |b| {
            b.iter(|| {
                for q in set {
                    black_box(search.solve(q));
                }
            })
        });
    }
    group.finish();
}

fn generation(c: &mut Criterion) {
    common::generation(c, "rolling");
}

criterion_group!(benches, engines, generation);
criterion_main!(benches);
