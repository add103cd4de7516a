//! Optimal solving of any position: pattern databases ([`pdb`]), IDA* over them with the
//! coset tricks ([`search`], method in `docs/rubik-optimal.md`), and every optimal
//! solution or restricted move sets ([`every`]).

pub mod every;
pub mod pdb;
pub mod preset;
pub mod search;
