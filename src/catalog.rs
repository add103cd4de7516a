//! The catalogue: every table group `cubedb-gen` can build, one registration line per
//! table family (each family declares its groups next to its tables).

use crate::puzzles::{rolling, rotation, rubik, soma};
use crate::table::family::TableGroup;

/// All table groups, in build order.
pub fn groups() -> Vec<TableGroup> {
    [
        rolling::tables::groups(),
        rotation::tables::groups(),
        soma::tables::groups(),
        rubik::near::table::groups(),
        rubik::optimal::preset::groups(),
        rubik::subgroup::ru::groups(),
        rubik::goals::goal::groups(),
        rubik::twophase::tables::groups(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The group called `name`.
pub fn group(name: &str) -> Option<TableGroup> {
    groups().into_iter().find(|g| g.name == name)
}
