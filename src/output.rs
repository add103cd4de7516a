//! Writing answers and messages without panics or silent losses.
//!
//! `println!` panics when stdout is a closed pipe or a full disk, and Rust's stdout quietly
//! drops writes to a closed descriptor (`>&-`). cubedb's binaries write stdout through
//! [`stdout`], which refuses a closed descriptor up front and returns every write error
//! to the caller (exit 1 with a message), and write warnings and notes through [`note`],
//! which never fails: a message that cannot be shown must not cost an answer.

use std::io::{self, Write};
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

/// Whether the process started with stdout closed (`>&-`). Rust's runtime reopens a
/// closed standard descriptor on /dev/null, read-write, before `main`, and every write to
/// it then succeeds; a shell's `>/dev/null` opens it write-only. So stdout on /dev/null
/// opened read-write is taken for a closed one (Linux, where /proc tells).
fn closed_at_start() -> bool {
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
