//! Positions near the solved cube: the near table (every position within a few quarter
//! turns, [`table`]) and IDA* on whole cubes with that table or cubie counts as heuristic
//! ([`solver`]: the judge's table and search engines).

pub mod solver;
pub mod table;
