//! Why a table file cannot be used: every message names the file and how to rebuild it.

use std::io;
use std::path::PathBuf;
use thiserror::Error;
/// Why a table file cannot be used. Every message names the file and how to rebuild it.
#[derive(Debug, Error)]
pub enum TableError {
    /// The file does not exist.
    #[error("table {path} is missing; build it with `cubedb-gen {group}`")]
    Missing { path: PathBuf, group: &'static str },
    /// Reading or writing failed.
    #[error("table {path}: {action}: {error}")]
    Io {
        path: PathBuf,
        /// What was being done, e.g. "cannot open".
        action: &'static str,
        error: io::Error,
    },
    /// Something other than a regular file (a folder, a FIFO, a device) has the table's
    /// name; it is never opened, since reading a FIFO or device could wait forever.
    #[error("table {path} is {kind}, not a regular file; remove it, then build the table with `cubedb-gen {group}`")]
    NotAFile {
        path: PathBuf,
        group: &'static str,
        /// What it is instead, e.g. "a folder".
        kind: &'static str,
    },
    /// The data directory is not a folder.
    #[error("data directory {dir} is not a folder")]
    DataDirNotAFolder { dir: PathBuf },
    /// A table must be built, and the data directory cannot be written to.
    #[error("data directory {dir} cannot be written to ({error}), so no table can be built there; choose a writable folder with --data or CUBEDB_DATA")]
    NotWritable { dir: PathBuf, error: io::Error },
    /// The file does not start with the cubedb magic bytes.
    #[error(
        "{path} is not a cubedb table (bad magic); rebuild it with `cubedb-gen {group} --force`"
    )]
    NotATable { path: PathBuf, group: &'static str },
    /// The header could not be decoded.
    #[error("table {path} has an unreadable header ({reason}); rebuild it with `cubedb-gen {group} --force`")]
    BadHeader {
        path: PathBuf,
        group: &'static str,
        reason: String,
    },
    /// The file was written by another version of the format.
    #[error("table {path} has format version {found}, this cubedb reads version {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongVersion {
        path: PathBuf,
        group: &'static str,
        found: u32,
        expected: u32,
    },
    /// The header describes a different table than the one asked for.
    #[error("table {path} holds {found}, expected {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongTable {
        path: PathBuf,
        group: &'static str,
        found: String,
        expected: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("table {path} is truncated or padded: {actual} bytes, expected {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongLength {
        path: PathBuf,
        group: &'static str,
        actual: u64,
        expected: u64,
    },
    /// The payload does not match its checksum (or its contents break the table's rules).
    #[error("table {path} is corrupted (checksum mismatch); rebuild it with `cubedb-gen {group} --force`")]
    Corrupted { path: PathBuf, group: &'static str },
    /// The header does not match its own checksum.
    #[error("table {path} has a corrupted header (header checksum mismatch); rebuild it with `cubedb-gen {group} --force`")]
    HeaderCorrupted { path: PathBuf, group: &'static str },
}
