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
//! - [`exact`]: exact distance tables (God's algorithm, optimal solutions by table walks);
//! - [`pdb`]: pattern databases and IDA*, for puzzles too big for an exact table;
//! - [`solver`]: the face front ends call: load a file, open the right solver.

pub mod coord;
pub mod definition;
pub mod element;
pub mod exact;
pub mod group;
pub mod pdb;
pub mod puzzle;
pub mod solver;

pub use definition::{parse_states, Definition, DefinitionError, NamedState};
pub use element::Element;
pub use exact::{ExactError, ExactTable};
pub use pdb::PatternSearch;
pub use puzzle::{InputError, PermPuzzle, PuzzleMetric};
pub use solver::{load_puzzle, DefinitionFileError, PuzzleEngine, PuzzleSolver, UnsolvedError};
