//! Walk board sizes and blocked-squares files: no panic; errors name a line that exists.
#![no_main]

use cubedb::puzzles::walk::board::{blocked_file_text, parse_blocked};
use cubedb::puzzles::walk::BoardSize;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (size_bytes, file) = data.split_at(data.len().min(8));
    let size = std::str::from_utf8(size_bytes)
        .ok()
        .and_then(|text| text.parse::<BoardSize>().ok())
        .unwrap_or(BoardSize::CHESS);
    let lines = file.split(|&b| b == b'\n').count();
    match blocked_file_text(file).and_then(|text| parse_blocked(text, size)) {
        Ok(squares) => assert!(squares.iter().all(|&s| (s as usize) < size.squares())),
        Err(e) => assert!(e.line >= 1 && e.line <= lines, "{e}"),
    }
});
