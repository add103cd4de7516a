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

/// The most a benchmark reads from its input file: it holds every query in memory, and
/// no sample worth timing comes near this.
pub const BENCH_INPUT_LIMIT: u64 = 64 << 20;

/// The whole input as text (for the benchmark, which needs the queries up front), at
/// most [`BENCH_INPUT_LIMIT`] bytes: a bigger input is refused, never held in memory.
pub fn read_input(path: Option<&Path>) -> Result<String> {
    let mut text = String::new();
    open_input(path)?
        .take(BENCH_INPUT_LIMIT + 1)
        .read_to_string(&mut text)
        .context("reading input")?;
    if text.len() as u64 > BENCH_INPUT_LIMIT {
        anyhow::bail!(
            "the input is larger than {} MiB, the most a benchmark reads (it holds every \
             query in memory): give a smaller sample",
            BENCH_INPUT_LIMIT >> 20
        );
    }
    Ok(text)
}
