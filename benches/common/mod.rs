//! Helpers shared by the criterion benches.

use criterion::{BatchSize, Criterion};
use cubedb::catalog;
use cubedb::progress::Progress;
use cubedb::table::TableStore;

/// A folder of tables kept between bench runs (built on first use).
pub fn bench_store() -> TableStore {
    let dir = std::env::temp_dir().join("cubedb-bench-tables");
    std::fs::create_dir_all(&dir).expect("bench folder");
    TableStore::new(dir)
}

/// Benchmarks building every table of `group` into an empty folder.
pub fn generation(c: &mut Criterion, group: &str) {
    let tables = catalog::group(group).expect("known table group");
    let mut bench = c.benchmark_group(format!("{group}-generation"));
    bench.sample_size(10);
    bench.bench_function("all tables from nothing", |b| {
        b.iter_batched(
            || {
                let dir = std::env::temp_dir().join(format!("cubedb-bench-{group}-fresh"));
                let _ = std::fs::remove_dir_all(&dir);
                TableStore::new(dir)
            },
            |store| tables.build(&store, &Progress::hidden()).expect("build"),
            BatchSize::PerIteration,
        )
    });
    bench.finish();
}
