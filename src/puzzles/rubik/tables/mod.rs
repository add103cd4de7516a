//! Coordinates and tables: cubie coordinates ([`coord`]), the symmetry-reduced
//! flip-slice-twist coset coordinates ([`phase1`]), pattern databases ([`pdb`]), the
//! table of every position near the solved cube ([`near`]), the `<R,U>` group table
//! ([`ru`]), partial-goal tables ([`goal`]) and the BFS numbering they share
//! (`projection`).

pub mod coord;
pub mod goal;
pub mod near;
pub mod pdb;
pub mod phase1;
pub(crate) mod projection;
pub mod ru;
