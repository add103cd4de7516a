//! `cubedb-gen verify` and `info` against odd data folders and broken output: every
//! fault is an error (exit 1) naming the file, never a hang, a panic or "missing".

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const GEN: &str = env!("CARGO_BIN_EXE_cubedb-gen");

/// A fresh empty folder for one test.
fn fresh_dir(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("gen-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `cubedb-gen args` with `stdout`, failing the test if it runs longer than 60 s.
fn run(args: &[&str], data: &Path, stdout: Stdio) -> Output {
    let mut child = Command::new(GEN)
        .args(args)
        .arg("--data")
        .arg(data)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("cubedb-gen {args:?} hangs");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The table files (`.cdb`) of a folder.
fn table_files(dir: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "cdb"))
        .collect()
}

/// A folder with the rolling tables built.
fn with_rolling(tag: &str) -> PathBuf {
    let dir = fresh_dir(tag);
    let built = run(&["-q", "rolling"], &dir, Stdio::null());
    assert!(built.status.success(), "{}", text(&built.stderr));
    dir
}

/// Item 4 and 10: a FIFO at a table's path is reported bad at once by `verify` and `info`.
#[test]
fn fifo_tables_are_refused_without_hanging() {
    let dir = with_rolling("fifo");
    let table = dir.join("rolling-answers.cdb");
    std::fs::remove_file(&table).unwrap();
    assert!(Command::new("mkfifo")
        .arg(&table)
        .status()
        .unwrap()
        .success());
    for command in ["verify", "info"] {
        let output = run(&[command], &dir, Stdio::piped());
        assert_eq!(output.status.code(), Some(1), "{command}");
        let all = text(&output.stdout) + &text(&output.stderr);
        assert!(
            all.contains("is a FIFO, not a regular file"),
            "{command}: {all}"
        );
        assert!(!all.contains("panicked"), "{all}");
    }
    // A build refuses to replace it: it is not a table cubedb wrote.
    let built = run(&["-q", "--force", "rolling"], &dir, Stdio::null());
    assert_eq!(built.status.code(), Some(1));
    assert!(
        text(&built.stderr).contains("is a FIFO"),
        "{}",
        text(&built.stderr)
    );
}

/// Item 10 and 13: `--data` naming a file is an error, not "missing" and not `File exists`.
#[test]
fn a_data_directory_that_is_a_file_is_an_error() {
    let dir = fresh_dir("data-file");
    let file = dir.join("plain-file");
    std::fs::write(&file, b"x").unwrap();
    for args in [&["verify"][..], &["info"], &["-q", "rolling"]] {
        let output = run(args, &file, Stdio::piped());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        let err = text(&output.stderr);
        assert!(err.contains("is not a folder"), "{args:?}: {err}");
        assert!(!text(&output.stdout).contains("missing"), "{args:?}");
        assert!(!err.contains("File exists"), "{err}");
    }
}

/// Item 11: a flipped histogram byte fails `verify` and `info` prints no histogram from it.
#[test]
fn a_flipped_histogram_byte_is_caught() {
    let dir = with_rolling("histogram");
    let table = dir.join("rolling-depths.cdb");
    let mut bytes = std::fs::read(&table).unwrap();
    let header_len = u32::from_le_bytes(bytes[8..12].try_into().unwrap()) as usize;
    // The histogram is the last field of the encoded header.
    bytes[12 + header_len - 2] ^= 0x01;
    std::fs::write(&table, &bytes).unwrap();
    let verify = run(&["verify"], &dir, Stdio::piped());
    assert_eq!(verify.status.code(), Some(1));
    assert!(
        text(&verify.stdout).contains("corrupted header"),
        "{}",
        text(&verify.stdout)
    );
    let info = run(&["info"], &dir, Stdio::piped());
    assert_eq!(info.status.code(), Some(1));
    let shown = text(&info.stdout);
    let section = shown.split("rolling-depths.cdb").nth(1).unwrap_or("");
    let next_table = section.split(".cdb").next().unwrap_or("");
    assert!(!next_table.contains("by depth"), "{shown}");
}

/// Items 5 and 7: output that cannot be written is an error, never a panic or exit 0.
#[test]
fn output_errors_exit_1() {
    let dir = with_rolling("output");
    let full = || {
        Stdio::from(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .unwrap(),
        )
    };
    for args in [&["verify"][..], &["info"], &["--help"]] {
        let output = run(args, &dir, full());
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(text(&output.stderr).contains("No space left"), "{args:?}");
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let output = run(args, &dir, Stdio::from(writer));
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(!text(&output.stderr).contains("panicked"));
    }
    let closed = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" verify --data \"$1\" >&-")
        .arg(GEN)
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(closed.status.code(), Some(1));
    assert!(text(&closed.stderr).contains("standard output is closed"));
    // /dev/null opened read-write (Python's `subprocess.DEVNULL`, Node's `stdio:
    // "ignore"`): an open stdout, not a closed one.
    let null = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open("/dev/null")
        .unwrap();
    let output = run(&["verify"], &dir, Stdio::from(null));
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
}

/// Issue 24, item 19: `--metric` builds one metric of a group (not both, and not both
/// again when one file is missing); the help lists every group.
#[test]
fn one_metric_is_built_and_the_groups_are_listed() {
    let help = Command::new(GEN).arg("--help").output().unwrap();
    let help = text(&help.stdout);
    for group in ["rubik-ru", "rubik-twophase", "rubik-huge", "rolling"] {
        assert!(help.contains(group), "{help}");
    }
    let dir = fresh_dir("one-metric");
    let out = run(&["rubik-ru", "--metric", "htm", "-q"], &dir, Stdio::piped());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.join("rubik-ru-htm.cdb").exists());
    assert!(!dir.join("rubik-ru-qtm.cdb").exists());
    // The other metric now: the first is not rebuilt (same inode, same time).
    let before = std::fs::metadata(dir.join("rubik-ru-htm.cdb"))
        .unwrap()
        .modified()
        .unwrap();
    let out = run(&["rubik-ru", "-q"], &dir, Stdio::piped());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(dir.join("rubik-ru-qtm.cdb").exists());
    let after = std::fs::metadata(dir.join("rubik-ru-htm.cdb"))
        .unwrap()
        .modified()
        .unwrap();
    assert_eq!(before, after, "the present metric was rebuilt");
}

/// Issue 26: a set with only some tables missing builds just those, leaving the others
/// as they are (a big preset's present table must not be rebuilt when only another of
/// its set is missing).
#[test]
fn only_the_missing_tables_of_a_set_are_built() {
    let dir = fresh_dir("only-missing");
    let out = run(&["rubik-twophase", "--metric", "htm"], &dir, Stdio::piped());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tables = || -> Vec<(String, std::time::SystemTime)> {
        let mut found: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap())
            .filter(|e| e.file_name().to_string_lossy().ends_with(".cdb"))
            .map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                (name, e.metadata().unwrap().modified().unwrap())
            })
            .collect();
        found.sort();
        found
    };
    let before = tables();
    assert!(before.len() >= 3, "{before:?}");
    // Remove the phase-1 table alone.
    let (removed, _) = before
        .iter()
        .find(|(name, _)| name.contains("phase1"))
        .expect("a phase-1 table")
        .clone();
    std::fs::remove_file(dir.join(&removed)).unwrap();
    let out = run(&["rubik-twophase", "--metric", "htm"], &dir, Stdio::piped());
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(err.contains("building 1 table(s)"), "{err}");
    let after = tables();
    assert_eq!(after.len(), before.len(), "{after:?}");
    for ((name, was), (_, is)) in before.iter().zip(&after) {
        if *name == removed {
            continue;
        }
        assert_eq!(was, is, "{name} was rebuilt");
    }
}

/// `warm` reads every table of the named groups back whole, unchanged, and lists each; a
/// missing or damaged table is an error naming it before anything is read, and so is an
/// unknown group.
#[test]
fn warm_reads_the_named_tables_back_and_refuses_bad_ones() {
    let dir = with_rolling("warm");
    let tables = table_files(&dir);
    assert!(!tables.is_empty());
    let before: Vec<Vec<u8>> = tables.iter().map(|p| std::fs::read(p).unwrap()).collect();
    let warm = run(&["warm", "rolling"], &dir, Stdio::piped());
    assert!(warm.status.success(), "{}", text(&warm.stderr));
    let listed = text(&warm.stdout);
    for (path, bytes) in tables.iter().zip(&before) {
        let line = listed
            .lines()
            .find(|l| l.contains(&*path.to_string_lossy()))
            .unwrap_or_else(|| panic!("{} not listed in {listed}", path.display()));
        let mb = format!("{:.1} MB", bytes.len() as f64 / 1e6);
        assert!(line.starts_with("warm ") && line.contains(&mb), "{line}");
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
    }
    assert_eq!(listed.lines().count(), tables.len(), "{listed}");

    let unknown = run(&["warm", "no-such-group"], &dir, Stdio::piped());
    assert_eq!(unknown.status.code(), Some(1));
    assert!(text(&unknown.stderr).contains("unknown table group `no-such-group`"));

    // A truncated table: named, nothing listed as warmed.
    let damaged = &tables[0];
    let bytes = std::fs::read(damaged).unwrap();
    std::fs::write(damaged, &bytes[..bytes.len() - 1]).unwrap();
    let bad = run(&["warm", "rolling"], &dir, Stdio::piped());
    assert_eq!(bad.status.code(), Some(1));
    let name = damaged.file_name().unwrap().to_string_lossy().into_owned();
    assert!(text(&bad.stderr).contains(&name), "{}", text(&bad.stderr));
    assert_eq!(text(&bad.stdout), "");

    // A missing table: named, with the command that builds it.
    std::fs::remove_file(damaged).unwrap();
    let missing = run(&["warm", "rolling"], &dir, Stdio::piped());
    assert_eq!(missing.status.code(), Some(1));
    let err = text(&missing.stderr);
    assert!(
        err.contains(&name) && err.contains("cubedb-gen rolling"),
        "{err}"
    );
}

fn definition(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../puzzles")
        .join(name)
        .display()
        .to_string()
}

/// A fresh folder with the tables of the definition `name` built: the folder, the
/// definition's path and what the build printed.
fn with_puzzle(tag: &str, name: &str) -> (PathBuf, String, Output) {
    let dir = fresh_dir(tag);
    let file = definition(name);
    let built = run(&["puzzle", &file, "-q"], &dir, Stdio::piped());
    assert!(built.status.success(), "{}", text(&built.stderr));
    (dir, file, built)
}

/// `puzzle --warm` reads back every table a solve of the puzzle opens, unchanged, one
/// `warm` line each, and nothing when the flag is not given.
#[test]
fn puzzle_warm_reads_back_the_tables_a_solve_opens() {
    let (dir, file, built) = with_puzzle("puzzle-warm", "2x2x2-fixed.tws");
    assert!(
        !text(&built.stdout).contains("warm "),
        "{}",
        text(&built.stdout)
    );
    let tables: Vec<(PathBuf, Vec<u8>)> = table_files(&dir)
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    let biggest = tables
        .iter()
        .max_by_key(|(_, b)| b.len())
        .unwrap()
        .0
        .clone();
    let warm = run(&["puzzle", &file, "-q", "--warm"], &dir, Stdio::piped());
    assert!(warm.status.success(), "{}", text(&warm.stderr));
    let listed: Vec<String> = text(&warm.stdout)
        .lines()
        .filter(|l| l.starts_with("warm "))
        .map(String::from)
        .collect();
    assert!(!listed.is_empty(), "{}", text(&warm.stdout));
    for line in &listed {
        let (path, bytes) = tables
            .iter()
            .find(|(p, _)| line.contains(&*p.to_string_lossy()))
            .unwrap_or_else(|| panic!("{line}: not a table of the folder"));
        let mb = format!("{:.1} MB", bytes.len() as f64 / 1e6);
        assert!(line.contains(&mb), "{line}");
        assert_eq!(&std::fs::read(path).unwrap(), bytes, "{}", path.display());
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        assert_eq!(
            listed.iter().filter(|l| l.contains(&name)).count(),
            1,
            "{name}"
        );
    }
    assert!(
        listed
            .iter()
            .any(|l| l.contains(&*biggest.to_string_lossy())),
        "the exact table {} is not read back: {listed:?}",
        biggest.display()
    );
}

/// Issue 56, 13: two `cubedb-gen puzzle --force` at once removed each other's files
/// ("No such file") and readers found tables missing. Rebuilds replace each file by a
/// rename, so builders and readers running together all succeed.
#[test]
fn concurrent_rebuilds_leave_no_gap() {
    use cubedb::puzzles::perm::{load_puzzle, PuzzleEngine, PuzzleMetric, PuzzleSolver};
    let (dir, file, _) = with_puzzle("puzzle-force", "2x2x2-fixed.tws");
    let puzzle = load_puzzle(Path::new(&file), PuzzleMetric::Htm, None).unwrap();
    let store = cubedb::table::TableStore::new(&dir);
    let state = puzzle.scrambled("R U").unwrap();
    for _ in 0..3 {
        let builders: Vec<_> = (0..2)
            .map(|_| {
                let (file, dir) = (file.clone(), dir.clone());
                std::thread::spawn(move || {
                    run(&["puzzle", &file, "-q", "--force"], &dir, Stdio::piped())
                })
            })
            .collect();
        for _ in 0..10 {
            let solver = PuzzleSolver::open(
                &puzzle,
                &store,
                &file,
                1024,
                PuzzleEngine::Table,
                &cubedb::progress::Progress::hidden(),
            )
            .unwrap_or_else(|e| panic!("reader: {e}"));
            assert_eq!(solver.solve(&state, 20).unwrap().len(), 2);
        }
        for builder in builders {
            let out = builder.join().unwrap();
            assert!(out.status.success(), "builder: {}", text(&out.stderr));
        }
    }
}

/// Issue 56, 5, 6 and 8: a device as the definition is refused at once (exit 2), and
/// `--memory` has a range named in its words.
#[test]
fn puzzle_definitions_and_memory_are_checked() {
    let dir = fresh_dir("puzzle-input");
    let out = run(&["puzzle", "/dev/zero"], &dir, Stdio::piped());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("not a regular file"));
    let file = definition("2x2x2-fixed.tws");
    let out = run(
        &["puzzle", &file, "--memory", "17592186044416"],
        &dir,
        Stdio::piped(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("from 1 to 16777216"));
}

/// Issue 53: `cubedb-gen puzzle` builds a plan's phase tables (the plan beside the
/// definition, or `--plan`), lists each phase, and `--force` builds them again; a
/// solver opened afterwards finds every table and builds nothing.
#[test]
fn a_plans_phase_tables_are_built_and_rebuilt() {
    use cubedb::puzzles::perm::solver::{accept_plan_names, load_plan};
    use cubedb::puzzles::perm::{load_puzzle, PuzzleEngine, PuzzleMetric, PuzzleSolver};
    let dir = fresh_dir("puzzle-plan");
    let file = definition("3x3x3.tws");
    // Within 256 MB: the first phase's exact table (554 MB, a minute) is left out, its
    // pattern databases built.
    let built = run(&["puzzle", &file, "--memory", "256"], &dir, Stdio::piped());
    assert!(built.status.success(), "{}", text(&built.stderr));
    let listed = text(&built.stdout);
    assert!(listed.contains("plan kociemba with 2 phases"), "{listed}");
    assert!(listed.contains("phase orient:") && listed.contains("phase finish:"));
    assert!(text(&built.stderr).contains("building phase orient's"));
    let files = |dir: &Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = files(&dir);
    let rebuilt = run(
        &["puzzle", &file, "--force", "--memory", "256"],
        &dir,
        Stdio::piped(),
    );
    assert!(rebuilt.status.success(), "{}", text(&rebuilt.stderr));
    assert!(text(&rebuilt.stderr).contains("building phase finish's"));
    assert_eq!(files(&dir), before, "a rebuild leaves the same files");

    // Tables present: opening the plan builds nothing, and its answer is checked.
    let mut puzzle = load_puzzle(Path::new(&file), PuzzleMetric::Htm, None).unwrap();
    let plan = load_plan(Path::new(&definition("3x3x3.plan")), &puzzle).unwrap();
    accept_plan_names(&mut puzzle, &plan);
    let store = cubedb::table::TableStore::new(&dir);
    store.check_writable().unwrap();
    let hidden = cubedb::progress::Progress::hidden();
    let solver = PuzzleSolver::open_with_plan(
        &puzzle,
        Some(plan),
        &cubedb::puzzles::perm::TableSite::new(&store, &file, 1024, &hidden),
        PuzzleEngine::Phased,
    )
    .unwrap();
    assert_eq!(files(&dir), before, "nothing built on open");
    let scramble = "R U F' D2 L B'";
    let moves = solver
        .solve(&puzzle.scrambled(scramble).unwrap(), 30)
        .unwrap();
    let solution = solver.format(&puzzle, &moves);
    let walked = puzzle.scrambled(&format!("{scramble} {solution}")).unwrap();
    assert!(puzzle.is_solved(&walked), "{solution}");

    // The phased engine without a plan is refused by name.
    let out = run(
        &["puzzle", &definition("2x2x2.tws"), "--engine", "phased"],
        &dir,
        Stdio::piped(),
    );
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--engine phased needs a plan"));
}
