//! `cubedb`: answers cube-puzzle queries in their judge formats, from tables or by search.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    cli::main()
}
