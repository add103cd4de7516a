//! Property tests of every parser: random and mutated input never panics, every error
//! names its case and a line that exists, messages stay short, and valid input
//! round-trips through its formatter. (`fuzz/` runs the same parsers for longer.)

use cubedb::judge::JudgeError;
use cubedb::puzzles::{rolling, rotation, rubik, soma, walk};
use proptest::prelude::*;

/// The longest message any error may have: quotes are cut to 40 characters, each at most
/// 10 bytes once escaped.
const MESSAGE_LIMIT: usize = 600;

/// Checks one parse result: an input error names case >= 1 and a line that exists (at
/// most one past the last, for an unexpected end), with a short message.
fn check_error(result: &Result<impl Sized, JudgeError>, text: &[u8]) {
    let lines = text.split(|&b| b == b'\n').count().max(1);
    match result {
        Ok(_) => {}
        Err(JudgeError::Input(e)) | Err(JudgeError::Unanswerable(e)) => {
            assert!(e.case >= 1, "{e}");
            assert!(e.line >= 1 && e.line <= lines + 1, "{e} ({lines} lines)");
            assert!(e.to_string().len() < MESSAGE_LIMIT, "{e}");
        }
        Err(JudgeError::Read(e)) => {
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{e}");
            assert!(e.to_string().starts_with("line "), "{e}");
        }
        Err(JudgeError::Output(e)) => panic!("parsing wrote output: {e}"),
    }
}

/// Parses `text` with every judge parser, checking each result.
fn parse_with_all(text: &[u8]) {
    for r in rolling::parse_judge_input(text).take(1000) {
        check_error(&r, text);
    }
    for r in rotation::parse_judge_input(text).take(1000) {
        check_error(&r, text);
    }
    let geometry = soma::geometry();
    for r in soma::parse_judge_input(text, geometry).take(1000) {
        check_error(&r, text);
    }
    let board = walk::Board::open(walk::BoardSize::CHESS);
    for r in walk::parse_judge_input(text, &board).take(1000) {
        check_error(&r, text);
    }
    for r in rubik::parse_judge_input(text).take(1000) {
        check_error(&r, text);
    }
}

/// Text made of the tokens judge inputs use, plus some that trouble parsers.
fn judge_like_text() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        "[0-9]{1,3}",
        "[WRBEwrgyob.a]{1,3}",
        "[a-h][1-8]",
        Just("0 0".to_string()),
        Just("-1".to_string()),
        Just("\u{FEFF}".to_string()),
        Just("\u{00A0}".to_string()),
        Just("\r".to_string()),
        "\\PC{1,4}",
    ];
    let separator = prop_oneof![Just(" "), Just("\n"), Just("  "), Just("\t")];
    prop::collection::vec((token, separator), 0..120)
        .prop_map(|parts| parts.into_iter().map(|(t, s)| format!("{t}{s}")).collect())
}

/// A valid input `text` with random edits: bytes replaced, inserted or deleted.
fn mutate(text: &str, edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut bytes = text.as_bytes().to_vec();
    for &(at, kind, byte) in edits {
        if bytes.is_empty() {
            bytes.push(byte);
            continue;
        }
        let at = at % bytes.len();
        match kind % 3 {
            0 => bytes[at] = byte,
            1 => bytes.insert(at, byte),
            _ => {
                bytes.remove(at);
            }
        }
    }
    bytes
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>(), any::<u8>()), 1..6)
}

/// Valid inputs of all five judges, from seeds.
fn valid_inputs(seed: u64) -> Vec<String> {
    let mut rng = cubedb::rng::SplitMix64::new(seed);
    let rolling_query = rolling::Query {
        start: rng.below(9) as usize,
        pattern: rng.below(9 * 6561) as u32,
    };
    let mut cells = [0u8; 24];
    for (i, c) in cells.iter_mut().enumerate() {
        *c = (i % 3) as u8 + 1;
    }
    let rotation_board = rotation::Board { cells };
    let geometry = soma::geometry();
    let soma_queries = soma::judge::every_valid_query(geometry);
    let soma_query = &soma_queries[rng.below(soma_queries.len() as u64) as usize];
    let mut walk_text = String::new();
    walk::judge::format_case(
        &mut walk_text,
        &walk::Case::random(&mut rng, walk::BoardSize::CHESS),
        8,
    );
    let cube = rubik::Cube::random(&mut rng);
    let net = rubik::model::facelets::zoj_net(&cube, &['w', 'r', 'g', 'y', 'o', 'b']);
    vec![
        rolling::judge::format_query(&rolling_query) + "0 0\n",
        rotation::judge::format_board(&rotation_board) + "0\n",
        soma::judge::format_query(soma_query.cells),
        walk_text,
        format!("1\n{net}\n"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Random text: no parser panics; errors name a real line, briefly.
    #[test]
    fn judge_parsers_survive_random_text(text in judge_like_text()) {
        parse_with_all(text.as_bytes());
    }

    /// Random bytes, including invalid UTF-8.
    #[test]
    fn judge_parsers_survive_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        parse_with_all(&bytes);
    }

    /// Valid inputs with a few bytes changed, inserted or deleted.
    #[test]
    fn judge_parsers_survive_mutated_valid_input(seed in any::<u64>(), edits in edits()) {
        for text in valid_inputs(seed) {
            parse_with_all(&mutate(&text, &edits));
        }
    }

    /// Valid judge inputs parse back to what was formatted.
    #[test]
    fn judge_inputs_round_trip(start in 0usize..9, pattern in 0u32..9 * 6561, seed in any::<u64>()) {
        let query = rolling::Query { start, pattern };
        let text = rolling::judge::format_query(&query) + "0 0\n";
        let parsed: Vec<_> = rolling::parse_judge_input(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(parsed, vec![query]);

        let mut rng = cubedb::rng::SplitMix64::new(seed);
        let mut cells: [u8; 24] = std::array::from_fn(|i| (i / 8) as u8 + 1);
        for i in (1..24).rev() {
            cells.swap(i, rng.below(i as u64 + 1) as usize);
        }
        let board = rotation::Board { cells };
        let text = rotation::judge::format_board(&board) + "0\n";
        let parsed: Vec<_> = rotation::parse_judge_input(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(parsed, vec![board]);

        let case = walk::Case::random(&mut rng, walk::BoardSize::CHESS);
        let mut text = String::new();
        walk::judge::format_case(&mut text, &case, 8);
        let chess = walk::Board::open(walk::BoardSize::CHESS);
        let parsed: Vec<_> = walk::parse_judge_input(text.as_bytes(), &chess)
            .map(|r| r.map(|l| l.case))
            .collect::<Result<_, _>>()
            .unwrap();
        prop_assert_eq!(parsed, vec![case]);

        let cube = rubik::Cube::random(&mut rng);
        let net = rubik::model::facelets::zoj_net(&cube, &['w', 'r', 'g', 'y', 'o', 'b']);
        let text = format!("1\n{net}\n");
        let parsed: Vec<_> = rubik::parse_judge_input(text.as_bytes()).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(parsed.len(), 1);
        prop_assert_eq!(parsed[0].cube.as_ref().ok(), Some(&cube));
    }

    /// Every Soma query round-trips (sampled).
    #[test]
    fn soma_queries_round_trip(index in any::<prop::sample::Index>()) {
        let geometry = soma::geometry();
        let all = soma::judge::every_valid_query(geometry);
        let query = &all[index.index(all.len())];
        let text = soma::judge::format_query(query.cells);
        let parsed: Vec<_> = soma::parse_judge_input(text.as_bytes(), geometry).collect::<Result<_, _>>().unwrap();
        prop_assert_eq!(parsed.len(), 1);
        prop_assert_eq!(parsed[0].cells, query.cells);
        prop_assert_eq!(parsed[0].orientation, query.orientation);
    }

    /// Scrambles and facelet strings: random text never panics; errors stay short; valid
    /// ones round-trip.
    #[test]
    fn cube_notations_survive_and_round_trip(text in "\\PC{0,80}", seed in any::<u64>(), length in 0usize..40) {
        if let Err(e) = rubik::parse_moves(&text) {
            prop_assert!(e.to_string().len() < MESSAGE_LIMIT);
        }
        if let Err(e) = rubik::parse_facelets(&text) {
            prop_assert!(e.to_string().len() < MESSAGE_LIMIT);
        }
        let mut rng = cubedb::rng::SplitMix64::new(seed);
        let moves: Vec<rubik::Move> = (0..length)
            .map(|_| rubik::Move::from_index(rng.below(18) as usize))
            .collect();
        prop_assert_eq!(rubik::parse_moves(&rubik::format_moves(&moves)).unwrap(), moves);
        let cube = rubik::Cube::random(&mut rng);
        prop_assert_eq!(rubik::parse_facelets(&rubik::facelet_string(&cube)).unwrap(), cube);
    }

    /// Walk boards and blocked-squares files: no panic, errors name a line, valid ones
    /// round-trip.
    #[test]
    fn walk_boards_and_blocked_files(
        size_text in "\\PC{0,12}",
        width in 2u32..200,
        height in 2u32..200,
        text in judge_like_text(),
        squares in prop::collection::vec(any::<u32>(), 0..20),
    ) {
        let _ = size_text.parse::<walk::BoardSize>();
        let size: walk::BoardSize = format!("{width}x{height}").parse().unwrap();
        prop_assert_eq!((size.width, size.height), (width, height));
        let lines = text.lines().count().max(1);
        if let Err(e) = walk::board::parse_blocked(&text, size) {
            prop_assert!(e.line >= 1 && e.line <= lines, "{}", e);
            prop_assert!(e.to_string().len() < MESSAGE_LIMIT);
        }
        let squares: Vec<u32> = squares.iter().map(|s| s % size.squares() as u32).collect();
        let file: String = squares.iter().map(|&s| format!("{} # note\n", size.name(s))).collect();
        prop_assert_eq!(walk::board::parse_blocked(&file, size).unwrap(), squares);
    }
}

/// A small valid table file, written once, and its spec.
fn sample_table() -> &'static (std::path::PathBuf, cubedb::table::TableSpec, Vec<u8>) {
    static TABLE: std::sync::OnceLock<(std::path::PathBuf, cubedb::table::TableSpec, Vec<u8>)> =
        std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let spec = cubedb::table::TableSpec {
            name: "property-table",
            group: "test",
            puzzle: "test",
            kind: "bytes",
            params: vec![("n".into(), 3000)],
            entries: 3000,
            bits_per_entry: 8,
        };
        let dir = crate::common::fresh_dir("property-table");
        let path = dir.join(spec.file_name());
        let payload: Vec<u8> = (0..3000u32).map(|i| (i * 7 % 256) as u8).collect();
        cubedb::table::TableStore::new(&dir)
            .write(&spec, &payload, vec![5, 6, 7])
            .unwrap();
        let bytes = std::fs::read(&path).unwrap();
        (path, spec, bytes)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    /// Table files with random edits: opening never panics; a table that opens has the
    /// original header and payload (only padding bytes may differ).
    #[test]
    fn mutated_table_files_are_refused_or_unchanged(edits in edits(), tag in any::<u32>()) {
        let (path, spec, good) = sample_table();
        let bad = mutate_bytes(good, &edits);
        let trial = path.with_extension(format!("trial-{tag}"));
        std::fs::write(&trial, &bad).unwrap();
        let opened = cubedb::table::Table::open(&trial, spec);
        let header = cubedb::table::read_header(&trial, "test");
        std::fs::remove_file(&trial).unwrap();
        if let Ok(table) = opened {
            let original = cubedb::table::Table::open(path, spec).unwrap();
            prop_assert_eq!(table.payload(), original.payload());
            prop_assert_eq!(table.header(), original.header());
        }
        if let Ok((header, _)) = header {
            let original = cubedb::table::Table::open(path, spec).unwrap();
            prop_assert_eq!(&header, original.header());
        }
    }
}

/// `bytes` with the edits of [`mutate`].
fn mutate_bytes(bytes: &[u8], edits: &[(usize, u8, u8)]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for &(at, kind, byte) in edits {
        let at = at % out.len().max(1);
        match kind % 4 {
            0 | 3 if !out.is_empty() => out[at] ^= byte | 1,
            1 => out.insert(at.min(out.len()), byte),
            _ if !out.is_empty() => {
                out.truncate(at);
            }
            _ => {}
        }
    }
    out
}
