//! `cubedb`: answers cube-puzzle queries in their judge formats, from tables or by search.

// Output goes through `cubedb::output`: print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
