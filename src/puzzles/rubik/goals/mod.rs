//! Solving part of the cube: named goals with exact tables ([`goal`]: cross, xcross, F2L
//! pair, first block, EO), sticker masks ([`mask`]) and cubes known in part ([`partial`]).

pub mod goal;
pub mod mask;
pub mod partial;
