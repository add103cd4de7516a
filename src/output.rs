//! Writing answers and messages without panics or silent losses.
//!
//! `println!` panics when stdout is a closed pipe or a full disk, and Rust's stdout quietly
//! drops writes to a closed descriptor (`>&-`). cubedb's binaries write stdout through
//! [`stdout`], which refuses a closed descriptor up front and returns every write error
//! to the caller (exit 1 with a message), and write warnings and notes through [`note`],
//! which never fails: a message that cannot be shown must not cost an answer.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};
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

/// Whether [`see_stdout_before_main`] found descriptor 1 closed.
static CLOSED_BEFORE_MAIN: AtomicBool = AtomicBool::new(false);

/// Notes whether descriptor 1 is closed, for a binary's hook that runs before the Rust
/// runtime starts ([`see_stdout_before_main!`](crate::see_stdout_before_main)): the
/// runtime then reopens a closed one on /dev/null, read-write, and after it a closed
/// stdout (`>&-`) looks like /dev/null opened read-write, as Python's
/// `subprocess.DEVNULL` and Node's `stdio: "ignore"` open it. Without `/proc` to tell,
/// nothing is noted.
pub fn see_stdout_before_main() {
    // `/proc/self/fd/1` is there exactly while descriptor 1 is open.
    let closed = std::fs::symlink_metadata("/proc/self/fd").is_ok()
        && std::fs::symlink_metadata("/proc/self/fd/1").is_err();
    CLOSED_BEFORE_MAIN.store(closed, Ordering::Relaxed);
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
    if CLOSED_BEFORE_MAIN.load(Ordering::Relaxed) {
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

/// Writes one line to stderr, ignoring failure (warnings, notes, statistics).
pub fn note(line: std::fmt::Arguments<'_>) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(line).and_then(|()| err.write_all(b"\n"));
}
