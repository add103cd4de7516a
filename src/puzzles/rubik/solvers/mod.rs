//! Solvers: the judge-format solver and the metrics ([`solver`]), optimal IDA* over
//! pattern databases ([`korf`], method in `docs/rubik-optimal.md`), every optimal
//! solution ([`every`]), sticker masks and partial cubes ([`mask`], [`partial`]), and
//! near-optimal two-phase search ([`twophase`], `docs/rubik-twophase.md`).

pub mod every;
pub mod korf;
pub mod mask;
pub mod partial;
pub mod solver;
pub mod twophase;
