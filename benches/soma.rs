//! Soma cube: catalogue lookup vs exact-cover search per query, and enumerating every
//! assembly from nothing (with and without the cube's rotations).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use cubedb::engine::Solve;
use cubedb::progress::Progress;
use cubedb::puzzles::soma::assembly::{enumerate_all, enumerate_all_plain};
use cubedb::puzzles::soma::judge::every_valid_query;
use cubedb::puzzles::soma::{geometry, Geometry, SearchSolver, SomaTables, TableSolver};
use cubedb::table::{TableFamily, TableStore};
use std::hint::black_box;
use std::path::Path;

fn per_query(c: &mut Criterion) {
    let store = TableStore::new(Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-tables"));
    let tables = SomaTables::load_or_build(&store, (), &Progress::hidden()).expect("catalogue");
    let table = TableSolver::new(&tables);
    let search = SearchSolver::new();
    let queries = every_valid_query(geometry());
    let mut group = c.benchmark_group("soma/query");
    for (name, query) in [("first", queries[0]), ("last", queries[queries.len() - 1])] {
        group.bench_with_input(BenchmarkId::new("catalogue", name), &query, |b, q| {
            b.iter(|| black_box(table.solve(&q.orientation)))
        });
        group.bench_with_input(BenchmarkId::new("exact-cover", name), &query, |b, q| {
            b.iter(|| black_box(search.solve(&q.orientation)))
        });
    }
    group.finish();
}

fn enumerate(c: &mut Criterion) {
    let mut group = c.benchmark_group("soma/enumerate-all");
    group.sample_size(20);
    group.bench_function("a fixed, x24 rotations", |b| {
        b.iter(|| black_box(enumerate_all(&Geometry::new()).0.len()))
    });
    group.bench_function("plain exact cover", |b| {
        b.iter(|| black_box(enumerate_all_plain(&Geometry::new()).0.len()))
    });
    group.finish();
}

criterion_group!(benches, per_query, enumerate);
criterion_main!(benches);
