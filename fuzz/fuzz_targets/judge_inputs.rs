//! Every judge format's parser on arbitrary bytes: no panic, and every input error names
//! a case and a line that exists.
#![no_main]

use cubedb::judge::JudgeError;
use cubedb::puzzles::{rolling, rotation, rubik, soma, walk};
use libfuzzer_sys::fuzz_target;

fn check<T>(results: impl Iterator<Item = Result<T, JudgeError>>, data: &[u8]) {
    let lines = data.split(|&b| b == b'\n').count();
    for result in results.take(10_000) {
        if let Err(JudgeError::Input(e) | JudgeError::Unanswerable(e)) = result {
            assert!(e.case >= 1 && e.line >= 1 && e.line <= lines + 1, "{e}");
            assert!(e.to_string().len() < 600, "{e}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    check(rolling::parse_judge_input(data), data);
    check(rotation::parse_judge_input(data), data);
    check(soma::parse_judge_input(data, soma::geometry()), data);
    let board = walk::Board::open(walk::BoardSize::CHESS);
    check(walk::parse_judge_input(data, &board), data);
    check(rubik::parse_judge_input(data), data);
});
