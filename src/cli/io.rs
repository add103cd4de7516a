//! Reading judge input from a file or stdin.

use anyhow::{Context, Result};
use std::io::Read;
use std::path::Path;

/// The whole input: the file at `path`, or stdin.
pub fn read_input(path: Option<&Path>) -> Result<String> {
    match path {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("reading input file {}", path.display())),
        None => {
            let mut text = String::new();
            std::io::stdin()
                .read_to_string(&mut text)
                .context("reading stdin")?;
            Ok(text)
        }
    }
}
