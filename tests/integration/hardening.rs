//! Adversarial use of the `cubedb` binary: input that trickles in, output that cannot be
//! written, odd files where tables belong, hostile lines. Each test names the fault it
//! guards against; none may end in a panic, a hang or a lost answer.

use crate::common::{data_dir_with, fresh_dir, sample, stderr, stdout};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CUBEDB: &str = env!("CARGO_BIN_EXE_cubedb");

/// Waits for `child` at most `limit`; a child still running then is killed and the test
/// fails (a hang).
fn wait_or_fail(mut child: Child, limit: Duration, what: &str) -> Output {
    let started = Instant::now();
    loop {
        if child.try_wait().expect("poll child").is_some() {
            return child.wait_with_output().expect("collect output");
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("{what}: still running after {limit:?} (a hang)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// No panic message, no exit code 101.
fn assert_no_panic(output: &Output, what: &str) {
    let err = stderr(output);
    assert!(
        !err.contains("panicked") && output.status.code() != Some(101),
        "{what}: panicked: {err}"
    );
}

/// Starts `cubedb args` reading piped stdin, and returns the child with a channel of its
/// stdout lines.
fn start_interactive(args: &[&str], data: Option<&Path>) -> (Child, mpsc::Receiver<String>) {
    let data_args = data.map(|d| vec!["--data".into(), d.as_os_str().to_owned()]);
    let mut child = Command::new(CUBEDB)
        .args(args)
        .args(data_args.unwrap_or_default())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cubedb");
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    (child, rx)
}

/// Item 3: the answer to a case is written before the next case is read, for every judge
/// that answers as input arrives, whatever comes of the next case's first bytes.
#[test]
fn each_answer_is_flushed_before_waiting_for_more_input() {
    let rolling = data_dir_with("rolling");
    let rotation = data_dir_with("rotation");
    let near = data_dir_with("rubik-near");
    let net = cubedb::puzzles::rubik::model::facelets::zoj_net(
        &cubedb::puzzles::rubik::Cube::from_moves(
            &cubedb::puzzles::rubik::parse_moves("R U").unwrap(),
        ),
        &['w', 'r', 'g', 'y', 'o', 'b'],
    );
    let cases: [(&[&str], Option<&Path>, String, String); 4] = [
        (&["walk"], None, "e2 e3 0 8 1 2 1 1\n".into(), "e2 ".into()),
        (
            &["rolling"],
            Some(&rolling),
            "1 2\nW W W\nE W W\nW W W\n".into(),
            "1 2\nW W W\n".into(),
        ),
        (
            &["rotation"],
            Some(&rotation),
            "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3\n".into(),
            "1 1 1 1".into(),
        ),
        (
            &["rubik"],
            Some(&near),
            format!("2\n{net}\n"),
            "w w w".into(),
        ),
    ];
    for (args, data, first, partial_second) in cases {
        let (mut child, lines) = start_interactive(args, data);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(first.as_bytes()).unwrap();
        // Half of the next case arrives too: the answer must not wait for the rest.
        stdin.write_all(partial_second.as_bytes()).unwrap();
        stdin.flush().unwrap();
        let answer = lines.recv_timeout(Duration::from_secs(30));
        drop(stdin);
        let _ = child.kill();
        let _ = child.wait();
        let answer = answer.unwrap_or_else(|_| panic!("{args:?}: first answer never came"));
        assert!(!answer.is_empty() || args == ["rotation"], "{args:?}");
    }
}

/// Item 4: a FIFO, a folder or a device under a table's name is refused at once, never
/// opened (opening a FIFO for reading waits for a writer forever).
#[test]
fn odd_files_at_table_paths_are_refused_without_hanging() {
    let dir = fresh_dir("fifo-table");
    let fifo = dir.join("rolling-answers.cdb");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    std::fs::create_dir(dir.join("rolling-depths.cdb")).unwrap();
    let child = Command::new(CUBEDB)
        .args(["rolling", "--data"])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let output = wait_or_fail(child, Duration::from_secs(30), "rolling with a FIFO table");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    let err = stderr(&output);
    assert!(err.contains("is a FIFO, not a regular file"), "{err}");
    assert!(err.contains("rolling-answers.cdb"), "{err}");
    std::fs::remove_file(&fifo).unwrap();
    let output = crate::common::cubedb(
        &["rolling", "--data", dir.to_str().unwrap()],
        "1 1\nE W W\nW W W\nW W W\n0 0\n",
    );
    let err = stderr(&output);
    assert!(err.contains("is a folder, not a regular file"), "{err}");
    assert!(!err.contains("No such device"), "{err}");
}

fn dev_full() -> std::fs::File {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("open /dev/full")
}

/// Runs `cubedb args` with stdout and stderr as given, stdin from `input`; a run longer
/// than a minute fails the test.
fn run_with(args: &[&str], input: impl AsRef<[u8]>, out: Stdio, err: Stdio) -> Output {
    let mut child = Command::new(CUBEDB)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(out)
        .stderr(err)
        .spawn()
        .expect("start cubedb");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.as_ref().to_vec();
    let feeder = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let output = wait_or_fail(child, Duration::from_secs(60), &format!("{args:?}"));
    feeder.join().unwrap();
    output
}

/// Items 5 and 7: a full disk or a closed pipe on stdout is an error (exit 1, message on
/// stderr), never a panic and never exit 0 with the output lost.
#[test]
fn stdout_write_errors_exit_1_with_a_message() {
    let data = data_dir_with("soma");
    let data = data.to_str().unwrap();
    let rolling_in = sample("rolling.in");
    let runs: [(&[&str], &str); 4] = [
        (&["soma", "--stats", "--data", data], ""),
        (&["--help"], ""),
        (&["rolling", "--data", data], &rolling_in),
        (&["rubik", "random", "--count", "3"], ""),
    ];
    for (args, input) in runs {
        let full = run_with(args, input, Stdio::from(dev_full()), Stdio::piped());
        assert_no_panic(&full, &format!("{args:?} >/dev/full"));
        assert_eq!(full.status.code(), Some(1), "{args:?}: {}", stderr(&full));
        assert!(
            stderr(&full).contains("writing output"),
            "{}",
            stderr(&full)
        );

        let (reader, writer) = std::io::pipe().expect("pipe");
        drop(reader);
        let broken = run_with(args, input, Stdio::from(writer), Stdio::piped());
        assert_no_panic(&broken, &format!("{args:?} | closed pipe"));
        assert_eq!(
            broken.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&broken)
        );
        assert!(
            stderr(&broken).contains("Broken pipe"),
            "{}",
            stderr(&broken)
        );
    }
    // `>&-`: the runtime reopens a closed stdout on /dev/null; cubedb still notices (its
    // hook looks before the runtime starts).
    for args in [
        vec!["rolling".to_string(), "--data".into(), data.into()],
        vec!["--version".to_string()],
    ] {
        let output = Command::new("sh")
            .arg("-c")
            .arg("exec \"$0\" \"$@\" >&-")
            .arg(CUBEDB)
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(stderr(&output).contains("standard output is closed"));
        // Stdout on /dev/null opened read-write, as Python's `subprocess.DEVNULL` and
        // Node's `stdio: "ignore"` open it (what the runtime puts in place of a closed
        // one): an open stdout, the run as usual.
        let null = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .unwrap();
        let input = if args[0] == "rolling" {
            sample("rolling.in")
        } else {
            String::new()
        };
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = run_with(&args, input, Stdio::from(null), Stdio::piped());
        assert_eq!(
            output.status.code(),
            Some(0),
            "{args:?}: {}",
            stderr(&output)
        );
    }
}

/// Item 6: a stderr that cannot be written costs neither answers nor the exit code.
#[test]
fn unwritable_stderr_loses_no_answers() {
    let data = data_dir_with("rubik-near");
    let rolling_data = data_dir_with("rolling");
    // Bad input: the right exit code, no panic.
    let bad = run_with(
        &["rolling", "--data", rolling_data.to_str().unwrap()],
        "x\n",
        Stdio::piped(),
        Stdio::from(dev_full()),
    );
    assert_eq!(bad.status.code(), Some(2));
    // A Rubik batch with a warning case (an unsolvable net): every answer still printed.
    let solved = cubedb::puzzles::rubik::model::facelets::zoj_net(
        &cubedb::puzzles::rubik::Cube::SOLVED,
        &['w', 'r', 'g', 'y', 'o', 'b'],
    );
    let twisted = unsolvable_net(&solved);
    let input = format!("3\n{solved}\n{twisted}\n{solved}\n");
    let output = run_with(
        &["rubik", "--data", data.to_str().unwrap()],
        &input,
        Stdio::piped(),
        Stdio::from(dev_full()),
    );
    assert_no_panic(&output, "rubik with stderr on /dev/full");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout(&output), "0\n-1\n0\n");
}

/// A net from `net` by swapping two stickers, that parses but is no solvable cube.
fn unsolvable_net(net: &str) -> String {
    let chars: Vec<char> = net.chars().collect();
    let stickers: Vec<usize> = (0..chars.len())
        .filter(|&i| !chars[i].is_whitespace())
        .collect();
    for &j in &stickers[1..] {
        let mut swapped = chars.clone();
        swapped.swap(stickers[0], j);
        let text: String = swapped.into_iter().collect();
        let parsed = cubedb::puzzles::rubik::parse_judge_input(format!("1\n{text}\n").as_bytes())
            .next()
            .and_then(Result::ok);
        if parsed.is_some_and(|query| query.cube.is_err()) {
            return text;
        }
    }
    panic!("no sticker swap makes an unsolvable net");
}

/// Item 8: a message quotes at most a short piece of a huge token, and shows invisible
/// characters escaped.
#[test]
fn messages_quote_input_short_and_visible() {
    let data = data_dir_with("rolling");
    let data = data.to_str().unwrap();
    data_dir_with("rotation");
    let long = format!("1 1\n{} W W\nW W W\nW W W\n0 0\n", "W".repeat(200_000));
    let output = crate::common::cubedb(&["rolling", "--data", data], &long);
    assert_eq!(output.status.code(), Some(2));
    let err = stderr(&output);
    assert!(err.len() < 400, "{} bytes of message", err.len());
    assert!(err.contains("...` (200000 characters)"), "{err}");

    let board = "1 1 1 1 3 2 3 2 3 1 3 2 2 3 1 2 2 2 3 1 2 1 3 3";
    for (hidden, shown) in [
        ("\u{FEFF}", "\\u{FEFF}"),
        ("\u{200B}", "\\u{200B}"),
        ("\0", "\\0"),
    ] {
        let input = format!("{hidden}{board}\n0\n");
        let output = crate::common::cubedb(&["rotation", "--data", data], &input);
        assert_eq!(output.status.code(), Some(2));
        let err = stderr(&output);
        assert!(err.contains(&format!("`{shown}1`")), "{err}");
    }
}

/// Item 9: a line longer than the limit is refused with its number, not held in memory.
#[test]
fn overlong_lines_are_refused_with_their_number() {
    let data = data_dir_with("rotation");
    let data = data.to_str().unwrap();
    let huge = "1 ".repeat(1_500_000);
    for (args, input) in [
        (vec!["rotation", "--data", data], format!("{huge}\n0\n")),
        (
            vec!["rubik", "solve", "--engine", "search", "-q"],
            format!("R U\n{}\n", "R".repeat(3_000_000)),
        ),
    ] {
        let output = crate::common::cubedb(&args, &input);
        assert_no_panic(&output, &format!("{args:?}"));
        assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
        let err = stderr(&output);
        let line = if args[0] == "rotation" { 1 } else { 2 };
        assert!(
            err.contains(&format!("line {line} is longer than 1048576 bytes")),
            "{err}"
        );
    }
}

/// Item 12: text that is not UTF-8 is bad input (exit 2) naming its line, in `rubik solve`
/// and in a blocked-squares file as everywhere else.
#[test]
fn non_utf8_input_names_its_line() {
    let solve = run_bytes(
        &["rubik", "solve", "--engine", "search", "-q"],
        b"R U\n\xff\n",
    );
    assert_eq!(solve.status.code(), Some(2), "{}", stderr(&solve));
    assert!(stderr(&solve).contains("line 2"), "{}", stderr(&solve));
    assert_eq!(
        stdout(&solve),
        "U' R'\n",
        "the first cube is still answered"
    );

    let dir = fresh_dir("blocked-utf8");
    let blocked = dir.join("blocked.txt");
    std::fs::write(&blocked, b"a1\n# fine\nb2 \xfe\n").unwrap();
    let walk = run_bytes(
        &["walk", "--blocked", blocked.to_str().unwrap()],
        b"e2 e3 0 8 1 2 1 1\n",
    );
    assert_eq!(walk.status.code(), Some(2), "{}", stderr(&walk));
    assert!(stderr(&walk).contains("line 3"), "{}", stderr(&walk));
}

/// Runs `cubedb args` with raw bytes on stdin.
fn run_bytes(args: &[&str], input: &[u8]) -> Output {
    run_with(args, input, Stdio::piped(), Stdio::piped())
}

/// Item 13: a data directory that is a file is named as such, not as `File exists`.
#[test]
fn data_directory_that_is_a_file_is_named() {
    let dir = fresh_dir("data-is-file");
    let file = dir.join("not-a-folder");
    std::fs::write(&file, b"x").unwrap();
    let output = crate::common::cubedb(
        &["rolling", "--data", file.to_str().unwrap()],
        "1 1\nE W W\nW W W\nW W W\n0 0\n",
    );
    assert_eq!(output.status.code(), Some(1));
    let err = stderr(&output);
    assert!(err.contains("is not a folder"), "{err}");
    assert!(!err.contains("File exists"), "{err}");
}

/// Item 14: a benchmark with nothing to measure says so instead of printing figures.
#[test]
fn benchmarks_without_queries_print_no_figures() {
    let data = data_dir_with("rolling");
    let data = data.to_str().unwrap();
    let dir = fresh_dir("bench-empty");
    let empty = dir.join("e.in");
    std::fs::write(&empty, "0 0\n").unwrap();
    let output = crate::common::cubedb(
        &[
            "bench",
            "rolling",
            empty.to_str().unwrap(),
            "--search-sample",
            "0",
            "--data",
            data,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stdout(&output).lines().all(|l| !l.contains(" ns ")));
    assert!(stderr(&output).contains("nothing to measure"));

    let one = dir.join("one.in");
    std::fs::write(&one, "1 1\nE W W\nW W W\nW W W\n0 0\n").unwrap();
    let output = crate::common::cubedb(
        &[
            "bench",
            "rolling",
            one.to_str().unwrap(),
            "--search-sample",
            "0",
            "--data",
            data,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    assert!(text.contains("not compared"), "{text}");
    assert!(!text.contains("(0/0 searched)"), "{text}");
}
