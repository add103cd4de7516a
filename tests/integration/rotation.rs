//! Rotation game: judge sample, the 13-move example, table vs IDA* on random inputs, the
//! published count of 13-move inputs, bad input.

use crate::common::{cubedb, data_dir_with, sample, stderr, stdout};
use cubedb::engine::{Solve, Solver};
use cubedb::progress::Progress;
use cubedb::puzzles::rotation::judge::format_board;
use cubedb::puzzles::rotation::{Board, RotationTable, SearchSolver, TableSolver};
use cubedb::rng::SplitMix64;
use cubedb::table::{TableFamily, TableStore};
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::OnceLock;

const THIRTEEN: &str = "3 3 1 2 2 1 3 3 2 1 3 1 2 3 2 1 2 3 1 2 3 2 1 1\n0\n";

fn data_dir() -> PathBuf {
    data_dir_with("rotation")
}

fn table() -> &'static RotationTable {
    static TABLE: OnceLock<RotationTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        RotationTable::load_or_build(&TableStore::new(data_dir()), (), &Progress::hidden())
            .expect("rotation table opens")
    })
}

fn random_board(rng: &mut SplitMix64) -> Board {
    let mut cells: [u8; 24] = std::array::from_fn(|i| (i / 8) as u8 + 1);
    for i in (1..24).rev() {
        cells.swap(i, rng.below(i as u64 + 1) as usize);
    }
    Board { cells }
}

#[test]
fn judge_sample_and_thirteen_move_example_by_both_engines() {
    let data = data_dir();
    let data = data.to_str().unwrap();
    for engine in ["table", "search"] {
        let out = cubedb(
            &["rotation", "--data", data, "--engine", engine],
            &sample("rotation.in"),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), "AC\n2\nDDHH\n2\n", "{engine}");
        let out = cubedb(&["rotation", "--data", data, "--engine", engine], THIRTEEN);
        assert_eq!(stdout(&out), "ABBDHFFDBBDHF\n3\n", "{engine}");
    }
}

#[test]
fn table_and_search_agree_on_thousands_of_random_inputs() {
    let table: Solver<_, SearchSolver> = Solver::Table(TableSolver::new(table()));
    let search: Solver<TableSolver<'_>, _> = Solver::Search(SearchSolver);
    let mut rng = SplitMix64::new(11);
    let boards: Vec<Board> = (0..2000).map(|_| random_board(&mut rng)).collect();
    let mut input: String = boards.iter().map(format_board).collect();
    input.push_str("0\n");
    let mut by_table = Vec::new();
    cubedb::puzzles::rotation::answer_judge_input(input.as_bytes(), &table, &mut by_table).unwrap();
    // The search engine is slow: answer the same input in two halves on both cores.
    let halves: Vec<String> = boards
        .chunks(1000)
        .map(|chunk| chunk.iter().map(format_board).collect::<String>() + "0\n")
        .collect();
    let by_search: Vec<u8> = halves
        .par_iter()
        .map(|half| {
            let mut out = Vec::new();
            cubedb::puzzles::rotation::answer_judge_input(half.as_bytes(), &search, &mut out)
                .unwrap();
            out
        })
        .collect::<Vec<_>>()
        .concat();
    assert_eq!(
        String::from_utf8(by_table).unwrap(),
        String::from_utf8(by_search).unwrap()
    );
    for board in &boards {
        let solution = table.solve(board);
        let end = solution.moves.iter().fold(*board, |b, &m| b.apply(m));
        assert_eq!(end.centre_digit(), Some(solution.digit));
    }
}

#[test]
fn exactly_192_inputs_need_13_moves_and_none_more() {
    let table = table();
    let hardest = table.inputs_needing_at_least(13);
    assert_eq!(hardest.len(), 192);
    let solver = TableSolver::new(table);
    for board in &hardest {
        let solution = solver.solve(board);
        assert_eq!(solution.moves.len(), 13);
        let end = solution.moves.iter().fold(*board, |b, &m| b.apply(m));
        assert_eq!(end.centre_digit(), Some(solution.digit));
    }
    let header = TableStore::new(data_dir())
        .open(&cubedb::puzzles::rotation::tables::distances_spec())
        .unwrap()
        .header()
        .histogram
        .clone();
    assert_eq!(
        header.len(),
        15,
        "every pattern reaches the centre in at most 14 moves"
    );
    assert_eq!(header.iter().sum::<u64>(), 735_471);
}

#[test]
fn bad_input_names_the_case_and_exits_2() {
    let data = data_dir();
    let good = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n";
    let cases = [
        (
            format!("{good}1 1 1\n0\n"),
            "case 2 (line 2)",
            "found 3 tokens",
        ),
        (
            format!("{good}{}0\n", good.replace('2', "7")),
            "case 2 (line 2)",
            "`7`",
        ),
        (
            format!("{good}{}0\n", good.replacen('3', "1", 1)),
            "case 2",
            "8 times",
        ),
        (good.to_string(), "case 2", "terminating line `0`"),
    ];
    for (input, place, problem) in cases {
        let out = cubedb(&["rotation", "--data", data.to_str().unwrap()], &input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = stderr(&out);
        assert!(err.contains(place) && err.contains(problem), "{err}");
        assert_eq!(stdout(&out), "AC\n2\n", "the first case is answered");
    }
}
