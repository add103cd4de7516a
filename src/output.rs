//! Writing answers and messages without panics or silent losses.
//!
//! `println!` panics when stdout is a closed pipe or a full disk, and Rust's stdout quietly
//! drops writes to a closed descriptor (`>&-`). cubedb's binaries write stdout through
//! [`stdout`], which refuses a closed descriptor up front and returns every write error
//! to the caller (exit 1 with a message), and write warnings and notes through [`note`],
//! which never fails: a message that cannot be shown must not cost an answer.

use std::io::{self, Write};
use std::sync::atomic::{AtomicU8, Ordering};
use thiserror::Error;

/// Why output could not be written.
#[derive(Debug, Error)]
pub enum OutputError {
    /// Standard output is not open.
    #[error("standard output is closed ({0})")]
    Closed(io::Error),
    /// A write to standard output failed.
    #[error("writing output: {0}")]
    Write(io::Error),
}

/// What [`see_stdout_before_main`] saw of descriptor 1: nothing yet (no hook ran, or
/// `/proc` was not there to tell), open, or closed.
static STDOUT_BEFORE_MAIN: AtomicU8 = AtomicU8::new(UNSEEN);
const UNSEEN: u8 = 0;
const OPEN: u8 = 1;
const CLOSED: u8 = 2;

/// Notes whether descriptor 1 is open, for a binary's hook that runs before the Rust
/// runtime starts ([`see_stdout_before_main!`](crate::see_stdout_before_main)): the
/// runtime then reopens a closed one on /dev/null, read-write, and after it a closed
/// stdout (`>&-`) looks like /dev/null opened read-write, as Python's
/// `subprocess.DEVNULL` and Node's `stdio: "ignore"` open it.
pub fn see_stdout_before_main() {
    // `/proc/self/fd/1` is there exactly while descriptor 1 is open.
    let seen = if std::fs::symlink_metadata("/proc/self/fd").is_err() {
        UNSEEN
    } else if std::fs::symlink_metadata("/proc/self/fd/1").is_ok() {
        OPEN
    } else {
        CLOSED
    };
    STDOUT_BEFORE_MAIN.store(seen, Ordering::Relaxed);
}

/// Declares, in a binary, the hook that runs [`see_stdout_before_main`] before `main`
/// (Linux: an `.init_array` entry, run by the loader before the Rust runtime starts), so
/// that [`stdout`] tells a closed stdout from one on /dev/null.
#[macro_export]
macro_rules! see_stdout_before_main {
    () => {
        #[cfg(target_os = "linux")]
        #[used]
        #[link_section = ".init_array"]
        static SEE_STDOUT_BEFORE_MAIN: extern "C" fn() = {
            extern "C" fn see() {
                $crate::output::see_stdout_before_main();
            }
            see
        };
    };
}

/// Standard output, locked, after checking that it is open.
pub fn stdout() -> Result<io::StdoutLock<'static>, OutputError> {
    static CLOSED_AT_START: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    if *CLOSED_AT_START.get_or_init(closed_at_start) {
        return Err(OutputError::Closed(io::Error::from_raw_os_error(9)));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        // Duplicating the descriptor fails exactly when it is not open.
        io::stdout()
            .as_fd()
            .try_clone_to_owned()
            .map_err(OutputError::Closed)?;
    }
    Ok(io::stdout().lock())
}

/// Whether the process started with stdout closed (`>&-`): as the binary's hook saw it
/// before `main` ([`see_stdout_before_main`]). Without the hook: Rust's runtime reopens a
/// closed standard descriptor on /dev/null, read-write, before `main`, and every write to
/// it then succeeds; a shell's `>/dev/null` opens it write-only. So stdout on /dev/null
/// opened read-write is then taken for a closed one (Linux, where /proc tells).
fn closed_at_start() -> bool {
    match STDOUT_BEFORE_MAIN.load(Ordering::Relaxed) {
        OPEN => return false,
        CLOSED => return true,
        _ => {}
    }
    if !cfg!(target_os = "linux") {
        return false;
    }
    let on_null = std::fs::read_link("/proc/self/fd/1")
        .is_ok_and(|target| target == std::path::Path::new("/dev/null"));
    on_null
        && std::fs::read_to_string("/proc/self/fdinfo/1").is_ok_and(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("flags:"))
                .and_then(|flags| u32::from_str_radix(flags.trim(), 8).ok())
                .is_some_and(|flags| flags & 0o3 == 0o2)
        })
}

/// Writes one line to stderr, ignoring failure (warnings, notes, statistics).
pub fn note(line: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}
