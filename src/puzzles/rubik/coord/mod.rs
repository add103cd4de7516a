//! Coordinates shared by the Rubik table families: numbers for parts of a position.
//! Permutation ranks and the position key ([`perm`]), the symmetry-reduced flip-slice-twist
//! coordinates ([`flipslice`]), and projections numbered by BFS ([`projection`]).

pub mod flipslice;
pub mod perm;
pub mod projection;
