//! The third hardening round (issue 56): definition files and `cubedb puzzle` under
//! hostile input. Each test reproduces one reported defect (numbered as in the issue) and
//! fails before its fix; the hostile definitions are small files generated here.

use crate::common::{cubedb, fresh_dir, stderr, stdout};
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::{Duration, Instant};

fn definition(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
        .display()
        .to_string()
}

/// Writes `text` into `dir/name` and returns the path as text.
fn write(dir: &Path, name: &str, text: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write test file");
    path.display().to_string()
}

/// A definition of one set per entry of `cycles`, each cycled by the one move `name`
/// (a cycle of `k` pieces); its order is the least common multiple of the lengths.
fn cycles(name: &str, cycles: &[usize]) -> String {
    let mut text = format!("Name {name}\n");
    for (i, &k) in cycles.iter().enumerate() {
        text += &format!("Set S{i} {k} 1\n");
    }
    text += "Solved\n";
    for (i, &k) in cycles.iter().enumerate() {
        let labels: Vec<String> = (1..=k).map(|p| p.to_string()).collect();
        text += &format!("S{i}\n{}\n", labels.join(" "));
    }
    text += "End\nMove M\n";
    for (i, &k) in cycles.iter().enumerate() {
        let perm: Vec<String> = (0..k).map(|p| ((p + 1) % k + 1).to_string()).collect();
        text += &format!("S{i}\n{}\n", perm.join(" "));
    }
    text + "End\n"
}

/// Not a crash: no exit 101, no panic message.
fn assert_no_panic(out: &Output, what: &str) {
    assert!(
        out.status.code() != Some(101) && !stderr(out).contains("panicked"),
        "{what}: {}",
        stderr(out)
    );
}

/// The error line said once: `needle` appears exactly once in stderr.
fn said_once(out: &Output, needle: &str) {
    let text = stderr(out);
    assert_eq!(text.matches(needle).count(), 1, "{needle} in: {text}");
}

/// 1. 32 pieces of 4 orientations, each twisted alone: 4^32 = 2^64 positions. The
///    twist coordinate's size wrapped to 0 (an "exact table of 0 ranks" and a panic in
///    the BFS); sizes are checked, and too big means pattern databases and IDA*.
#[test]
fn d01_sizes_past_64_bits_mean_search_not_a_panic() {
    let dir = fresh_dir("third-twist32");
    let n = 32;
    let mut text = format!("Name twist32\nSet X {n} 4\nSolved\nX\n");
    let labels: Vec<String> = (1..=n).map(|p| p.to_string()).collect();
    text += &format!("{}\n{}\nEnd\n", labels.join(" "), vec!["0"; n].join(" "));
    for i in 0..n {
        let mut ori = vec!["0"; n];
        ori[i] = "1";
        text += &format!(
            "Move T{}\nX\n{}\n{}\nEnd\n",
            i + 1,
            labels.join(" "),
            ori.join(" ")
        );
    }
    let file = write(&dir, "twist32.tws", &text);
    let data = dir.join("data").display().to_string();
    let info = cubedb(&["puzzle", "info", &file], "");
    assert_no_panic(&info, "info");
    assert!(info.status.success(), "{}", stderr(&info));
    assert!(!stdout(&info).contains("0 ranks"), "{}", stdout(&info));
    assert!(
        stdout(&info).contains("1.84e19 values"),
        "{}",
        stdout(&info)
    );
    let gods = cubedb(&["puzzle", "gods", &file, "--data", &data, "-q"], "");
    assert_no_panic(&gods, "gods");
    assert!(!gods.status.success());
    said_once(&gods, "too many for one table");
    let solve = cubedb(
        &[
            "puzzle",
            "solve",
            &file,
            "--data",
            &data,
            "-q",
            "--scramble",
            "T1 T2",
        ],
        "",
    );
    assert_no_panic(&solve, "solve");
    assert!(solve.status.success(), "{}", stderr(&solve));
    assert_eq!(stdout(&solve), "T1' T2'\n");
}

/// 2. Sets of 5, 7, 8 and 9 pieces each cycled by one move: 2,520 positions, God's
///    number 1,260 in quarter turns. The BFS stopped with "deeper than 254"; a mod-3
///    table holds any depth.
#[test]
fn d02_deep_puzzles_get_exact_tables() {
    let dir = fresh_dir("third-deep");
    let file = write(&dir, "cycles.tws", &cycles("cycles", &[5, 7, 8, 9]));
    let data = dir.join("data").display().to_string();
    let base = ["--metric", "qtm", "--data", &data, "-q"];
    let gods = cubedb(&[&["puzzle", "gods", &file][..], &base].concat(), "");
    assert_no_panic(&gods, "gods");
    assert!(gods.status.success(), "{}", stderr(&gods));
    let lines: Vec<String> = stdout(&gods).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 1262, "depths 0 to 1260 and the total");
    assert_eq!(lines[1260], "1260 1");
    assert_eq!(lines[1261], "total 2520");
    let solve = cubedb(
        &[&["puzzle", "solve", &file, "--scramble", "M10"][..], &base].concat(),
        "",
    );
    assert!(solve.status.success(), "{}", stderr(&solve));
    assert_eq!(stdout(&solve).trim(), ["M'"; 10].join(" "));
    let scramble = cubedb(
        &[
            &["puzzle", "scramble", &file, "--seed", "3", "--count", "2"][..],
            &base,
        ]
        .concat(),
        "",
    );
    assert_no_panic(&scramble, "scramble");
    assert!(scramble.status.success(), "{}", stderr(&scramble));
    assert_eq!(stdout(&scramble).lines().count(), 2);
}

/// 3. One move of order 360,360: its powers were made by O(order^2) compositions (over
///    40 s). The order now comes from the cycles, and a move whose powers are too many
///    to name is refused at its line at once.
#[test]
fn d03_a_move_of_huge_order_is_refused_at_once() {
    let dir = fresh_dir("third-order");
    let file = write(&dir, "order.tws", &cycles("order", &[5, 7, 8, 9, 11, 13]));
    let started = Instant::now();
    let out = cubedb(&["puzzle", "info", &file], "");
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("order 360,360") && stderr(&out).contains("line 22"),
        "{}",
        stderr(&out)
    );
}

/// 4. 2,000 sequences each naming the next (40 KB): resolving them was O(n^3). They
///    resolve once each, depth first.
#[test]
fn d04_chains_of_sequences_resolve_in_linear_time() {
    let dir = fresh_dir("third-chain");
    let mut text = "Name chain\nSet P 3 1\nSolved\nP\n1 2 3\nEnd\n".to_string();
    for i in 0..2000 {
        text += &format!("MoveAlias S{i} S{}\n", i + 1);
    }
    text += "Move S2000\nP\n2 3 1\nEnd\n";
    let file = write(&dir, "chain.tws", &text);
    let data = dir.join("data").display().to_string();
    let started = Instant::now();
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &file,
            "--data",
            &data,
            "-q",
            "--scramble",
            "S0 S0",
        ],
        "",
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "S2000\n");
    // A loop of sequences is named, not a hang.
    let looped = write(
        &dir,
        "loop.tws",
        "Set P 3 1\nSolved\nP\n1 2 3\nEnd\nMoveSequence A B\nMoveSequence B A\nMove C\nP\n2 3 1\nEnd\n",
    );
    let out = cubedb(&["puzzle", "info", &looped], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("loop"), "{}", stderr(&out));
}

/// 5 and 6. A FIFO blocked forever, and `/dev/zero` was read until memory ran out:
///    definition, state and target files must be regular files of bounded size.
#[test]
fn d05_d06_fifos_and_devices_are_refused() {
    let dir = fresh_dir("third-fifo");
    let fifo = dir.join("fifo.tws");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    let fixed = definition("2x2x2-fixed.tws");
    let data = dir.join("data").display().to_string();
    let mut cases: Vec<Vec<String>> = vec![
        vec!["puzzle".into(), "info".into(), "/dev/zero".into()],
        vec!["puzzle".into(), "info".into(), "/dev/urandom".into()],
        [
            "puzzle",
            "solve",
            &fixed,
            "--data",
            &data,
            "--states",
            "/dev/zero",
        ]
        .map(String::from)
        .to_vec(),
        [
            "puzzle",
            "solve",
            &fixed,
            "--data",
            &data,
            "--target",
            "/dev/zero",
            "--scramble",
            "R",
        ]
        .map(String::from)
        .to_vec(),
    ];
    if made {
        cases.push(vec![
            "puzzle".into(),
            "info".into(),
            fifo.display().to_string(),
        ]);
    }
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let started = Instant::now();
        let out = cubedb(&args, "");
        assert!(started.elapsed() < Duration::from_secs(5), "{args:?}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("not a regular file"),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

/// 7. A big file whose first line is wrong was tokenized whole before line 1 was
///    checked (2 GB for 200 MB). Lines are read one at a time; files past the limit are
///    refused unread.
#[test]
fn d07_a_bad_first_line_stops_the_reading() {
    let dir = fresh_dir("third-big");
    let mut text = String::from("Bogus line\n");
    text.push_str(&"a ".repeat(4 << 20));
    let file = write(&dir, "bad-first-line.tws", &text);
    let started = Instant::now();
    let out = cubedb(&["puzzle", "info", &file], "");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("line 1:"), "{}", stderr(&out));
    let huge = dir.join("huge.tws");
    let handle = std::fs::File::create(&huge).expect("create");
    handle.set_len(17 << 20).expect("grow");
    let out = cubedb(&["puzzle", "info", &huge.display().to_string()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("larger than 16 MiB"),
        "{}",
        stderr(&out)
    );
}

/// 8 and 16. `--memory` past 2^44 MB wrapped to a budget of 0, and `--memory 0` was
///    blamed on the puzzle, twice: the option has a range, named in its words.
#[test]
fn d08_d16_memory_has_a_range() {
    let fixed = definition("2x2x2-fixed.tws");
    for value in ["17592186044416", "0"] {
        let out = cubedb(&["puzzle", "gods", &fixed, "--memory", value], "");
        assert_eq!(out.status.code(), Some(2), "{value}: {}", stderr(&out));
        assert!(
            stderr(&out).contains("--memory") && stderr(&out).contains("from 1 to 16777216"),
            "{}",
            stderr(&out)
        );
    }
}

/// 9. IDA* stopped at 64 moves whatever `--max-depth` said, and reported "no solution".
#[test]
fn d09_search_goes_as_deep_as_asked() {
    let dir = fresh_dir("third-search-depth");
    let file = write(&dir, "o792.tws", &cycles("o792", &[8, 9, 11]));
    let data = dir.join("data").display().to_string();
    let scramble = ["M"; 100].join(" ");
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &file,
            "--metric",
            "qtm",
            "--engine",
            "search",
            "--max-depth",
            "120",
            "--data",
            &data,
            "-q",
            "--scramble",
            &scramble,
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).split_whitespace().count(), 100);
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &file,
            "--max-depth",
            "1001",
            "--scramble",
            "M",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// 10. `--antipodes 3000` printed 1,144 of the 2,644 antipodes its histogram counts
///     (only those whose every neighbour is closer), saying nothing.
#[test]
fn d10_every_antipode_is_listed() {
    let dir = fresh_dir("third-antipodes");
    let data = dir.display().to_string();
    let out = cubedb(
        &[
            "puzzle",
            "gods",
            &definition("2x2x2-fixed.tws"),
            "--antipodes",
            "3000",
            "--data",
            &data,
            "-q",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let antipodes: std::collections::HashSet<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("antipode "))
        .collect();
    assert_eq!(antipodes.len(), 2644, "all of them, each once");
    assert!(antipodes.iter().all(|a| a.split_whitespace().count() == 11));
}

/// 11. `--count 0` printed "1 solutions" and a solution.
#[test]
fn d11_zero_solutions_is_refused() {
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &definition("2x2x2-fixed.tws"),
            "--count",
            "0",
            "--scramble",
            "R U",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("from 1 to"), "{}", stderr(&out));
}

/// 12. Piece 255 read as `?` in 0-based blocks (targets and `StartState`).
#[test]
fn d12_piece_255_is_not_a_wildcard() {
    let dir = fresh_dir("third-255");
    let target = write(
        &dir,
        "t255.txt",
        "ScrambleState t\nCORNERS\n255 255 2 3 4 5 6\n? ? ? ? ? ? ?\nEnd\n",
    );
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &definition("2x2x2-fixed.tws"),
            "--target",
            &target,
            "--scramble",
            "R U",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("piece 255"), "{}", stderr(&out));
    let start = write(
        &dir,
        "s255.tws",
        "Name x\nSet A 3 1\nStartState\nA\n255 0 1\nEnd\nMove M\nA\n2 3 1\nEnd\n",
    );
    let out = cubedb(&["puzzle", "info", &start], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("piece 255") && !stderr(&out).contains("target patterns"),
        "{}",
        stderr(&out)
    );
}

/// 15. Tokens from definition and state files were echoed whole (a megabyte on stderr,
///     U+202E unescaped): at most 40 characters, escaped.
#[test]
fn d15_long_and_invisible_tokens_are_quoted() {
    let dir = fresh_dir("third-tokens");
    let long = "\u{202E}".to_string() + &"W".repeat(100_000);
    let bad_set = write(
        &dir,
        "set.tws",
        &format!("Set A 3 1\nSolved\n{long}\n1 2 3\nEnd\nMove M\nA\n2 3 1\nEnd\n"),
    );
    let bad_name = write(&dir, "name.tws", &format!("Name {long}\nSet A 3 1\n"));
    let fixed = definition("2x2x2-fixed.tws");
    let states = write(
        &dir,
        "states.txt",
        &format!("ScrambleState {long}\nCORNERS\n0 1 2 3 4 5 7\nEnd\n"),
    );
    for args in [
        vec!["puzzle", "info", &bad_set],
        vec!["puzzle", "info", &bad_name],
        vec!["puzzle", "solve", &fixed, "--states", &states],
        vec!["puzzle", "solve", &fixed, "--scramble", &long],
    ] {
        let out = cubedb(&args, "");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let text = stderr(&out);
        assert!(text.len() < 600, "{} bytes: {}", text.len(), &text[..600]);
        assert!(
            !text.contains('\u{202E}') && text.contains("\\u{202E}"),
            "{text}"
        );
    }
}

/// 17 (and first use, 3). "18446744073709551615 values, too many for one table",
///     printed twice: a saturated number and the message doubled by its error chain.
#[test]
fn d17_numbers_are_real_and_said_once() {
    let dir = fresh_dir("third-numbers");
    let out = cubedb(
        &[
            "puzzle",
            "gods",
            &definition("4x4x4.tws"),
            "--data",
            &dir.display().to_string(),
        ],
        "",
    );
    assert!(!out.status.success());
    let text = stderr(&out);
    assert!(!text.contains("18446744073709551615"), "{text}");
    said_once(&out, "too many for one table");
    assert!(text.contains("6.20e23 values"), "{text}");
}

/// 18. A definition that is not UTF-8 was reported at "(line 0)".
#[test]
fn d18_bad_utf8_names_its_line() {
    let dir = fresh_dir("third-utf8");
    let path: PathBuf = dir.join("latin1.tws");
    std::fs::write(&path, b"Name x\nSet A 3 1\n\xe9\n").expect("write");
    let out = cubedb(&["puzzle", "info", &path.display().to_string()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("line 3: not UTF-8"),
        "{}",
        stderr(&out)
    );
}

/// 19. An unreachable `--target` was reported as "scramble 1: not reachable".
#[test]
fn d19_an_unreachable_target_is_the_targets_fault() {
    let dir = fresh_dir("third-target");
    let twisted = write(
        &dir,
        "twisted.txt",
        "ScrambleState t\nCORNERS\n0 1 2 3 4 5 6\n1 0 0 0 0 0 0\nEnd\n",
    );
    let out = cubedb(
        &[
            "puzzle",
            "solve",
            &definition("2x2x2-fixed.tws"),
            "--target",
            &twisted,
            "--scramble",
            "R U",
            "--data",
            &dir.display().to_string(),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    let text = stderr(&out);
    assert!(
        text.contains("twisted.txt") && text.contains("target") && !text.contains("scramble 1"),
        "{text}"
    );
}

/// 20. Another puzzle's table copied over an exact table was blamed on the intact
///     `-coords.cdb` file: the table's header carries its definition's hash.
#[test]
fn d20_a_table_of_another_puzzle_is_named() {
    let dir = fresh_dir("third-copied");
    let data = dir.display().to_string();
    for file in ["2x2x2-fixed.tws", "pyraminx-no-tips.tws"] {
        let out = cubedb(
            &["puzzle", "gods", &definition(file), "--data", &data, "-q"],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
    }
    let table = |prefix: &str| -> PathBuf {
        std::fs::read_dir(&dir)
            .expect("list")
            .flatten()
            .map(|e| e.path())
            .find(|p| {
                let name = p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .to_string();
                name.starts_with(prefix) && !name.contains("-coords") && name.ends_with(".cdb")
            })
            .expect("table file")
    };
    let fixed = table("puzzle-2x2x2-fixed-");
    std::fs::copy(table("puzzle-pyraminx-no-tips-"), &fixed).expect("copy");
    let out = cubedb(
        &[
            "puzzle",
            "gods",
            &definition("2x2x2-fixed.tws"),
            "--data",
            &data,
            "-q",
        ],
        "",
    );
    assert!(!out.status.success());
    let text = stderr(&out);
    let name = fixed
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .to_string();
    assert!(text.contains(&name) && !text.contains("-coords"), "{text}");
}
