//! The Rubik wing's faces: one type per capability, each opened from a data folder in one
//! call and answering a cube (or a batch) with the moves, their length and the work done.
//! Every front end (CLI, Python, benchmarks, a service) goes through these and nothing
//! below them: none assembles tables or picks search internals itself.
//!
//! - [`OptimalSolver`]: optimal solutions (near table, then IDA* over a preset);
//! - [`NearSolver`]: optimal solutions up to a length limit (the ZOJ judge);
//! - [`TwoPhaseSolver`]: near-optimal solutions within a length cap, and scrambles;
//! - [`SolutionFinder`]: every optimal solution, the first N by length, restricted moves;
//! - [`GoalSolver`]: partial goals and sticker masks, in one or every orientation;
//! - [`PartialSolver`]: cubes known in part (facelets with `?`).

mod goals;
mod near;
mod optimal;
mod partial;
mod solutions;
mod twophase;

pub use goals::{FrameAnswer, GoalSolver, GoalSpec, GoalUnreachable};
pub use near::NearSolver;
pub use optimal::{Advice, OptimalSolver, Outlook, PresetOffer};
pub use partial::{PartialSolver, PartialUnreachable};
pub use solutions::{Listing, NotInGroup, SolutionFinder};
pub use twophase::{SolverSearch, TwoPhaseAnswer, TwoPhaseSolver};

/// How much longer than optimal a request for the first N solutions looks.
pub const COUNT_EXTRA_LENGTH: u32 = 4;
