//! Scrambles and facelet strings: no panic; whatever parses as moves round-trips through
//! the formatter to the same cube.
#![no_main]

use cubedb::puzzles::rubik::{format_moves, parse_facelets, parse_moves, Cube};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    if let Ok(moves) = parse_moves(text) {
        let again = parse_moves(&format_moves(&moves)).expect("formatted moves parse");
        assert_eq!(Cube::from_moves(&again), Cube::from_moves(&moves));
    }
    if let Err(e) = parse_facelets(text) {
        assert!(e.to_string().len() < 600, "{e}");
    }
});
