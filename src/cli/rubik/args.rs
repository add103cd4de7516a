//! The arguments of `cubedb rubik` subcommands, shared by the modules that run them.

use crate::ranges;
use clap::Args;
use cubedb::engine::Engine;
use cubedb::puzzles::rubik::{Metric, Preset};
use std::path::PathBuf;

/// When `show` uses colours.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColourChoice {
    /// On a terminal, unless NO_COLOR is set.
    Auto,
    /// Always (ANSI escape codes).
    Always,
    /// Never: face letters only.
    Never,
}

/// Arguments of `cubedb rubik show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// A 54-sticker facelet string (faces U R F D L B, any six colours).
    #[arg(long, value_name = "S", conflicts_with = "scramble")]
    pub facelets: Option<String>,

    /// A scramble in Singmaster notation, e.g. "R U R' U2".
    #[arg(long, value_name = "MOVES")]
    pub scramble: Option<String>,

    /// Colours: always, never, or only when stdout is a terminal (and NO_COLOR is unset).
    #[arg(long, value_enum, default_value_t = ColourChoice::Auto)]
    pub colour: ColourChoice,
}

/// Arguments of `cubedb rubik random` and `cubedb rubik scramble`.
#[derive(Debug, Args)]
pub struct RandomArgs {
    /// How many positions.
    #[arg(long, default_value_t = 1, value_parser = ranges::count, allow_negative_numbers = true)]
    pub count: u64,

    /// Seed of the random generator (the same seed gives the same positions).
    #[arg(long, default_value_t = 1, value_parser = ranges::seed, allow_negative_numbers = true)]
    pub seed: u64,

    /// Folder of table files (scramble only) [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// No notes on stderr (scramble only).
    #[arg(long, short)]
    pub quiet: bool,
}

/// Which orientations of the whole cube `--goal` tries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Orientations {
    /// All 24: each face down, each of its four neighbours in front.
    All,
}

/// Arguments of `cubedb rubik solve`.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// A 54-sticker facelet string (faces U R F D L B, any six colours). With `?` for
    /// stickers that do not matter (centres named): solve only the named stickers.
    #[arg(long, value_name = "S", conflicts_with = "scramble")]
    pub facelets: Option<String>,

    /// A scramble in Singmaster notation, e.g. "R U R' U2".
    #[arg(long, value_name = "MOVES")]
    pub scramble: Option<String>,

    /// Turn metric the solution is optimal in (or, with --max-length, counted in).
    #[arg(long, value_enum, default_value_t = Metric::Htm)]
    pub metric: Metric,

    /// Near-optimal instead of optimal: the first solution found of at most N moves in
    /// the metric, by two-phase search (milliseconds per cube; batches on every core).
    #[arg(long, value_name = "N", conflicts_with_all = ["tables", "engine"], value_parser = ranges::max_length, allow_negative_numbers = true)]
    pub max_length: Option<u32>,

    /// With --max-length: give up looking for a solution within N after this many
    /// seconds per cube and print the shortest found (stderr says it is longer than N).
    #[arg(long, value_name = "SECONDS", requires = "max_length", value_parser = ranges::seconds, allow_negative_numbers = true)]
    pub timeout: Option<f64>,

    /// Every optimal solution, one per line, sorted, in canonical move order (no two
    /// lines are the same sequence up to moves that commute).
    #[arg(long, conflicts_with_all = ["count", "max_length", "engine"])]
    pub all: bool,

    /// The first N solutions in order of length: the optimal ones, then longer ones (up
    /// to 4 moves longer than optimal).
    #[arg(long, value_name = "N", conflicts_with_all = ["max_length", "engine"], value_parser = ranges::solutions, allow_negative_numbers = true)]
    pub count: Option<u64>,

    /// Only these moves, e.g. `R,U` or `R,U,F2` (a face letter allows all its turns, `R2`
    /// or `R'` only that turn). A cube they cannot solve is an error (exit 3), decided
    /// exactly by a group membership test.
    #[arg(long, value_name = "MOVES", conflicts_with_all = ["max_length", "engine"])]
    pub moves: Option<String>,

    /// Solve part of the cube instead: cross, xcross, f2l-pair, first-block or eo, on a
    /// face (`cross:U`; default D, and F for eo's axis), by exact tables built on first
    /// use; or a sticker mask: 54 face letters in facelet order, `?` for stickers that
    /// do not matter.
    #[arg(long, value_name = "GOAL", conflicts_with_all = ["max_length", "engine", "moves"])]
    pub goal: Option<String>,

    /// With --goal: `all` solves the goal in each of the 24 orientations of the whole cube
    /// (each face down, each neighbour in front) and prints the best per orientation.
    #[arg(long, value_enum, requires = "goal")]
    pub orientations: Option<Orientations>,

    /// Which engine answers: tables (near table, then IDA* over pattern databases), or
    /// IDA* alone with the cubie-count heuristic.
    #[arg(long, value_enum, default_value_t = Engine::Table)]
    pub engine: Engine,

    /// Pattern-database preset: bigger ones make deep solves faster (200m 430 MB, 1g
    /// 2.5 GB, 2g 5.0 GB, 8g 15 GB for both metrics; only the metric asked for is loaded, and
    /// built if missing) [default: the fastest preset already built, else 200m, built
    /// in about 30 s].
    #[arg(long, value_enum)]
    pub tables: Option<Preset>,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    pub data: Option<PathBuf>,

    /// No progress, notes or statistics on stderr.
    #[arg(long, short)]
    pub quiet: bool,
}
