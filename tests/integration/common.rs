//! Helpers shared by the integration tests.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{Mutex, OnceLock};

/// A data folder shared by all tests of this run, so each table group is built once.
pub fn shared_data_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("tables");
    std::fs::create_dir_all(&dir).expect("create test data folder");
    dir
}

/// Serialises table builds across tests in this binary.
pub fn build_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: OnceLock<Mutex<()>> = OnceLock::new();
    LOCK.get_or_init(|| Mutex::new(()))
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// A fresh empty folder for one test.
pub fn fresh_dir(tag: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fresh-{tag}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create fresh folder");
    dir
}

/// The sample files of the problem statements.
pub fn sample(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Runs the `cubedb` binary with `args`, feeding `stdin`.
pub fn cubedb(args: &[&str], stdin: &str) -> Output {
    run_binary(env!("CARGO_BIN_EXE_cubedb"), args, stdin)
}

/// Runs a binary with `args`, feeding `stdin`, and collects its output.
pub fn run_binary(binary: &str, args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(binary)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start binary");
    // Feed stdin from another thread: the binary answers while it reads, so its output
    // must be drained at the same time. It may also stop before reading all of its input
    // (bad input, a damaged table).
    let mut pipe = child.stdin.take().expect("stdin");
    let input = stdin.to_string();
    let feeder = std::thread::spawn(move || {
        if let Err(e) = pipe.write_all(input.as_bytes()) {
            assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
        }
    });
    let output = child.wait_with_output().expect("wait for binary");
    feeder.join().expect("stdin feeder");
    output
}

/// Stdout as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The shared data folder with the tables of one group present and valid: built once per
/// run (rebuilt if a cached copy from an earlier run fails verification).
pub fn data_dir_with(group: &str) -> PathBuf {
    static READY: OnceLock<Mutex<Vec<String>>> = OnceLock::new();
    let dir = shared_data_dir();
    let _guard = build_lock();
    let ready = READY.get_or_init(|| Mutex::new(Vec::new()));
    let mut ready = ready.lock().unwrap_or_else(|p| p.into_inner());
    if !ready.iter().any(|g| g == group) {
        let group_def = cubedb::catalog::group(group).expect("known table group");
        let store = cubedb::table::TableStore::new(&dir);
        let valid = group_def
            .specs()
            .iter()
            .all(|spec| store.open(spec).is_ok());
        if !valid {
            group_def
                .build(&store, &cubedb::progress::Progress::hidden())
                .expect("tables build");
        }
        ready.push(group.to_string());
    }
    dir
}
