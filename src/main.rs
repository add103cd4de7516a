//! `cubedb`: answers cube-puzzle queries in their judge formats, from tables or by search.
//!
//! Three front ends over the library: the command line ([`cli`]), the benchmarks
//! ([`bench`]) and the HTTP service with its web page ([`serve`], `cubedb serve`), the
//! first two sharing the input helpers of [`input`] and the cube reader of
//! [`cube_input`], all three the option ranges of [`ranges`].

// Output goes through `cubedb::output`: print macros panic on a closed pipe or full disk.
#![deny(clippy::print_stdout, clippy::print_stderr)]

/// Context of every failed write to stdout.
const WRITING: &str = "writing output";

/// `println!` that returns write errors (`?` in a function returning `anyhow::Result`)
/// instead of panicking, and refuses a closed stdout.
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        use anyhow::Context as _;
        writeln!(cubedb::output::stdout()?, $($arg)*).context($crate::WRITING)?
    }};
}

/// `eprintln!` that never fails: for notes and warnings, which must not cost answers.
macro_rules! note {
    ($($arg:tt)*) => {
        cubedb::output::note(format_args!($($arg)*))
    };
}

mod bench;
mod cli;
mod cube_input;
mod input;
mod ranges;
#[cfg(feature = "serve")]
mod serve;

use std::process::ExitCode;

// A closed stdout (`>&-`) told from /dev/null before the runtime reopens it.
cubedb::see_stdout_before_main!();

fn main() -> ExitCode {
    cli::main()
}
