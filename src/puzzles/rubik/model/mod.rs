//! The cube model and its notations, below every Rubik table and solver.
//! Cubies and moves ([`cube`]), the turns acting on them ([`turns`]), metrics
//! ([`metric`]), the sticker geometry ([`stickers`]) and facelet strings ([`facelets`]),
//! move notation ([`notation`]), the cube in vector registers for the optimal search
//! ([`packed`]), the cube's symmetries ([`symmetry`]), group membership
//! for restricted move sets ([`group`]), solver results ([`solution`]) and the cube as a
//! search puzzle ([`canonical`]); whether some cube shows given stickers ([`consistency`]).

pub mod canonical;
pub mod consistency;
pub mod cube;
pub mod facelets;
pub mod group;
pub mod metric;
pub mod notation;
pub mod packed;
pub mod solution;
pub mod stickers;
pub mod symmetry;
pub mod turns;
