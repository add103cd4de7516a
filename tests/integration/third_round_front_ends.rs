//! The third hardening round (issue 56), first use of the Rubik's cube: each test
//! reproduces one reported defect and fails before its fix.

use crate::common::{cubedb, data_dir_with, stderr, stdout};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const CUBEDB: &str = env!("CARGO_BIN_EXE_cubedb");

/// A random-state scramble (seed 5): 21 face turns to a uniformly random position.
const RANDOM_STATE: &str = "B2 F2 U F2 U2 F2 R2 U2 F2 U2 L' F' R' B D' B L R2 D F2 D";

/// The stderr lines `cubedb rubik solve ARGS` writes within `wait`, each with the time
/// since the process started; the process is then stopped.
fn first_lines(args: &[&str], wait: Duration) -> Vec<(Duration, String)> {
    let started = Instant::now();
    let mut child = Command::new(CUBEDB)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cubedb");
    let pipe = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send((started.elapsed(), line)).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Some(left) = wait.checked_sub(started.elapsed()) {
        match rx.recv_timeout(left) {
            Ok(line) => lines.push(line),
            Err(_) => break,
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let _ = reader.join();
    lines
}

/// F2: an optimal solve with only the small preset says at the start, within a second of
/// its tables opening, what it will cost and which faster preset this machine can build
/// (how big, how long), in a few lines; `-q` says nothing; a cube found at once gets its
/// answer without a forecast.
#[test]
fn a_long_optimal_solve_says_its_cost_at_the_start() {
    data_dir_with("rubik-near");
    let data = data_dir_with("rubik").display().to_string();
    let args = [
        "rubik",
        "solve",
        "--data",
        &data,
        "--tables",
        "small",
        "--scramble",
        RANDOM_STATE,
    ];
    let lines = first_lines(&args, Duration::from_secs(4));
    let said: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    let (at, forecast) = lines
        .iter()
        .find(|(_, l)| l.contains("this optimal solve will take about"))
        .unwrap_or_else(|| panic!("no forecast within 4 s: {said:?}"));
    // The tables are built: opening them and the look take well under a second (a busy
    // machine gets some slack).
    assert!(*at < Duration::from_millis(2500), "{at:?}: {forecast}");
    assert!(
        forecast.contains("small") && forecast.contains("likely 18 face turns"),
        "{forecast}"
    );
    let options = said.join("\n");
    assert!(options.contains("--tables "), "{options}");
    assert!(
        options.contains("GB on disk") || options.contains("(built)"),
        "{options}"
    );
    assert!(options.contains("of memory"), "{options}");
    assert!(options.contains("--max-length 20"), "{options}");
    assert!(lines.len() <= 4, "{said:?}");
    let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
    let lines = first_lines(&quiet, Duration::from_secs(2));
    assert!(lines.is_empty(), "{lines:?}");
    // A cube the look solves is answered, with no forecast.
    let out = cubedb(
        &[
            "rubik",
            "solve",
            "--data",
            &data,
            "--tables",
            "small",
            "--scramble",
            "R U F D L B R2 U2",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let moves = stdout(&out).split_whitespace().count();
    assert!((1..=8).contains(&moves), "{}", stdout(&out));
    assert!(
        !stderr(&out).contains("will take about"),
        "{}",
        stderr(&out)
    );
}

/// F2 on a fresh data folder: before the first use builds anything, it says which preset
/// it builds, how big and how long, what a random position will cost with it, and what
/// is faster, within a second of starting.
#[test]
fn a_first_use_says_its_cost_before_building() {
    let dir = crate::common::fresh_dir("first-use-forecast");
    let data = dir.display().to_string();
    let args = [
        "rubik",
        "solve",
        "--data",
        &data,
        "--scramble",
        RANDOM_STATE,
    ];
    let lines = first_lines(&args, Duration::from_secs(2));
    let said: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    let (at, first) = lines
        .iter()
        .find(|(_, l)| l.contains("preset is not built"))
        .unwrap_or_else(|| panic!("no first-use note within 2 s: {said:?}"));
    assert!(*at < Duration::from_millis(1000), "{at:?}: {first}");
    assert!(
        first.contains("the 200m preset") && first.contains("on disk"),
        "{first}"
    );
    assert!(first.contains("per random position"), "{first}");
    assert!(said.join("\n").contains("--max-length 20"), "{said:?}");
    // Quiet says nothing.
    let quiet: Vec<&str> = args.iter().copied().chain(["-q"]).collect();
    let lines = first_lines(&quiet, Duration::from_millis(500));
    assert!(lines.is_empty(), "{lines:?}");
}

/// F5: front ends open Rubik solvers through faces (`puzzles::rubik::api`) only: none
/// names a table family.
#[test]
fn front_ends_name_no_rubik_table_family() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let families = [
        "NearTable",
        "Pdbs",
        "Pdb",
        "TwoPhaseTables",
        "CompactTables",
        "GoalTable",
        "RuTable",
    ];
    let mut found = Vec::new();
    let mut folders = vec![
        root.join("src/cli"),
        root.join("src/bench"),
        root.join("src/serve"),
        root.join("benches"),
        root.join("python/src"),
        root.join("gen/src"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a front end's folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            for (number, line) in text.lines().enumerate() {
                let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                if let Some(family) = words.into_iter().find(|w| families.contains(w)) {
                    found.push(format!("{}:{}: {family}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "front ends naming table families:\n{}",
        found.join("\n")
    );
}

/// Item 23's sibling on the command line: the values a usage error quotes (an invalid
/// value, an unknown argument) are cut and escaped as every message quotes input; clap
/// quoted them whole.
#[test]
fn usage_errors_quote_values_short() {
    let nines = "9".repeat(3000);
    let long = format!("--{}", "x".repeat(60_000));
    for args in [
        vec![
            "rubik",
            "solve",
            "--max-length",
            nines.as_str(),
            "--scramble",
            "R",
        ],
        vec![
            "rubik",
            "solve",
            "--metric",
            "h\u{200B}tm",
            "--scramble",
            "R",
        ],
        vec!["rubik", long.as_str()],
    ] {
        let out = cubedb(&args, "");
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        let text = stderr(&out);
        assert!(text.len() < 1500, "{} bytes: {}", text.len(), &text[..300]);
        assert!(!text.contains('\u{200B}'), "{text}");
    }
    let out = cubedb(
        &["rubik", "solve", "--max-length", &nines, "--scramble", "R"],
        "",
    );
    assert!(
        stderr(&out).contains("(3000 characters)"),
        "{}",
        stderr(&out)
    );
}
