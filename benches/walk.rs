//! Cube on the walk: throughput on random 8x8 cases (solve only, and parse + solve + print),
//! and one solve on a 1000x1000 board.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use cubedb::puzzles::walk::judge::format_case;
use cubedb::puzzles::walk::{self, Board, BoardSize, Case, Walker};
use cubedb::rng::SplitMix64;
use std::hint::black_box;

fn chessboard(c: &mut Criterion) {
    let board = Board::open(BoardSize::CHESS);
    let mut rng = SplitMix64::new(1016);
    let cases: Vec<Case> = (0..1000)
        .map(|_| Case::random(&mut rng, BoardSize::CHESS))
        .collect();
    let mut text = String::new();
    for case in &cases {
        format_case(&mut text, case, 8);
    }
    let mut group = c.benchmark_group("walk-8x8");
    group.throughput(Throughput::Elements(cases.len() as u64));
    group.bench_function("solve/1000 cases", |b| {
        let mut walker = Walker::new(&board);
        let mut squares = Vec::new();
        b.iter(|| {
            for case in &cases {
                black_box(walker.solve_into(case, &mut squares));
            }
        })
    });
    group.bench_function("parse+solve+print/1000 cases", |b| {
        b.iter(|| {
            walk::answer_judge_input(text.as_bytes(), &board, std::io::sink()).expect("valid input")
        })
    });
    group.finish();
}

fn thousand(c: &mut Criterion) {
    let size = BoardSize {
        width: 1000,
        height: 1000,
    };
    let board = Board::open(size);
    let mut rng = SplitMix64::new(7);
    let mut case = Case::random(&mut rng, size);
    (case.start, case.end) = (0, size.squares() as u32 - 1);
    let mut walker = Walker::new(&board);
    let mut squares = Vec::new();
    let mut group = c.benchmark_group("walk-1000x1000");
    group.sample_size(10);
    group.bench_function("corner to corner", |b| {
        b.iter(|| black_box(walker.solve_into(&case, &mut squares)))
    });
    group.finish();
}

criterion_group!(benches, chessboard, thousand);
criterion_main!(benches);
