//! The cube model and its notations: cubies and moves ([`cube`]), stickers and facelet
//! strings ([`facelets`]), move notation ([`notation`]), the cube's symmetries
//! ([`symmetry`]) and group membership for restricted move sets ([`group`]).

pub mod cube;
pub mod facelets;
pub mod group;
pub mod notation;
pub mod symmetry;
