//! Integration tests: judge samples, table-vs-search cross-checks, bad input, table files.
//! One test binary; one module per puzzle, helpers in `common`.

mod common;
mod events;
mod every;
mod goals;
mod hardening;
mod perm_puzzles;
mod phased;
mod properties;
mod rolling;
mod rotation;
mod rubik;
mod second_round;
#[cfg(feature = "serve")]
mod serve;
mod soma;
mod third_round;
mod third_round_front_ends;
mod twophase;
mod walk;
