//! Subgroups of the cube with tables of their own: the `<R,U>` group ([`ru`]), every one of
//! its 73,483,200 positions at distance mod 3.

pub mod ru;
