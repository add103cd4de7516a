//! Opening input: a file or stdin, read lazily (shared by the commands and the benchmarks).

use anyhow::{Context, Result};
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// A buffered reader over the file at `path`, or over stdin.
pub fn open_input(path: Option<&Path>) -> Result<Box<dyn BufRead>> {
    Ok(match path {
        Some(path) => Box::new(BufReader::with_capacity(
            1 << 16,
            File::open(path).with_context(|| format!("opening input file {}", path.display()))?,
        )),
        None => Box::new(BufReader::with_capacity(1 << 16, std::io::stdin())),
    })
}

/// The whole input as text (for the benchmark, which needs the queries up front).
pub fn read_input(path: Option<&Path>) -> Result<String> {
    let mut text = String::new();
    open_input(path)?
        .read_to_string(&mut text)
        .context("reading input")?;
    Ok(text)
}
