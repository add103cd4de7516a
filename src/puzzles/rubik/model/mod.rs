//! The cube model and its notations, below every Rubik table and solver.
//! Cubies and moves ([`cube`]), metrics ([`metric`]), stickers and facelet strings
//! ([`facelets`]), move notation ([`notation`]), the cube's symmetries ([`symmetry`]),
//! group membership for restricted move sets ([`group`]) and solver results ([`solution`]).

pub mod cube;
pub mod facelets;
pub mod group;
pub mod metric;
pub mod notation;
pub mod solution;
pub mod symmetry;
