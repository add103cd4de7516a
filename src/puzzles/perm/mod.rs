//! Any permutation puzzle from a definition file (twsearch's `.tws` format): the puzzle
//! as orbits of pieces with orientations and moves as transformations of them; its state
//! count; exact distance tables or pattern databases over coordinates of its pieces, built
//! by the shared BFS; God's algorithm; optimal solving by table walks or IDA*.
//!
//! - [`definition`]: reading `.tws` files, with errors naming line and rule;
//! - [`element`]: states and moves, and composing them;
//! - [`puzzle`]: the search moves with their powers, canonical sequences, input;
//! - [`group`]: state counts by Schreier–Sims and by invariants;
//! - [`coord`]: numbers for parts of a state, with move tables, and projections of them;
//! - [`symmetry`]: relabelings of slots that carry moves to moves (conjugation keeps
//!   distances);
//! - [`exact`]: exact distance tables (God's algorithm, optimal solutions by table walks);
//! - [`reduced`]: exact tables with one entry per class of symmetric states;
//! - [`pdb`]: pattern databases and IDA*, for puzzles too big for an exact table;
//! - [`target`]: solving to a target pattern (with `?` wildcards) instead of solved;
//! - [`solver`]: the face front ends call: load a file, open the right solver;
//! - [`served`]: a definition and its plan answering within deadlines (the service).

pub mod chain;
pub mod coord;
pub mod definition;
pub mod element;
pub mod exact;
pub mod group;
pub mod pdb;
pub mod phased;
pub mod plan;
pub mod puzzle;
pub mod reduced;
pub mod served;
pub mod site;
pub mod solver;
pub mod symmetry;
pub mod target;

pub use definition::{parse_states, parse_target, Definition, DefinitionError, NamedState};
pub use element::Element;
pub use exact::{ExactError, ExactTable};
pub use pdb::PatternSearch;
pub use puzzle::{InputError, PermPuzzle, PuzzleMetric};
pub use site::{TableSite, DEFAULT_BUDGET_MB};
pub use solver::{load_puzzle, DefinitionFileError, PuzzleEngine, PuzzleSolver, UnsolvedError};

/// A definition shipped in `puzzles/`, compiled (for tests).
#[cfg(test)]
pub(crate) fn shipped_puzzle(file: &str, metric: PuzzleMetric) -> PermPuzzle {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(file);
    let text = std::fs::read_to_string(path).expect("definition");
    PermPuzzle::new(&Definition::parse(&text).expect("parses"), metric).expect("compiles")
}

/// The moves of `puzzle` whose base is one of `bases` (for tests).
#[cfg(test)]
pub(crate) fn moves_of<'p>(puzzle: &'p PermPuzzle, bases: &[&str]) -> Vec<&'p element::Element> {
    puzzle
        .moves
        .iter()
        .filter(|m| bases.contains(&puzzle.bases[m.base].0.as_str()))
        .map(|m| &m.element)
        .collect()
}

/// The number of the set named `name` (for tests).
#[cfg(test)]
pub(crate) fn set_named(puzzle: &PermPuzzle, name: &str) -> usize {
    puzzle
        .sets
        .iter()
        .position(|d| d.name == name)
        .expect("set")
}

/// A plan shipped in `puzzles/`, compiled against `puzzle` (for tests).
#[cfg(test)]
pub(crate) fn shipped_plan(puzzle: &PermPuzzle, file: &str) -> phased::Plan {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(file);
    let text = std::fs::read_to_string(path).expect("shipped plan");
    phased::Plan::compile(puzzle, &plan::PlanSpec::parse(&text).expect("parses")).expect("plan")
}
