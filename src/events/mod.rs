//! Scrambles for the WCA's events, in the notation the WCA's scramble program (TNoodle)
//! prints, with its rules: a uniformly random state where it draws one (at least its
//! minimum distance from solved), random moves of its lengths where it draws those, a
//! random orientation after blindfolded scrambles, the `R' U' F` frame of fewest moves.
//!
//! - [`notation`]: the shape of each event's scrambles, for any program's;
//! - [`nxn`]: the N×N×N cube's stickers and its outer-block notation;
//! - [`picture`]: the scrambled cube as SVG; [`stickers`] the pyraminx, skewb, FTO and
//!   megaminx from their sticker maps, [`square1`] the Square-1, [`clock`] the clock;
//! - [`random_moves`]: the random-move scrambles (5x5x5 to 7x7x7, megaminx, clock);
//! - [`written`]: each random-state puzzle's moves rewritten in the WCA's words (Square-1
//!   `(x,y)/`, pyraminx tips last, skewb `R U L B`, 4x4x4 without `Dw Lw Bw`).
//!
//! Every scramble is checked before it is returned: a random-state one reaches the state
//! drawn, a random-move one reads back as the moves drawn.

pub mod clock;
pub mod notation;
pub mod nxn;
pub mod picture;
pub mod random_moves;
pub mod square1;
pub mod stickers;
pub mod written;

use crate::limits::Stop;
use crate::progress::Progress;
use crate::puzzles::perm::served::{ServedError, ServedPuzzle};
use crate::puzzles::perm::{Definition, PermPuzzle, PuzzleMetric};
use crate::puzzles::rubik::api::{SolverSearch, TwoPhaseSolver};
use crate::puzzles::rubik::model::cube::{Cube, Face, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::notation::format_moves;
use crate::puzzles::rubik::twophase::Outcome;
use crate::rng::SplitMix64;
use crate::table::{TableError, TableStore};
use rayon::prelude::*;

/// A WCA event (and the FTO, which the WCA does not hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Event {
    /// 2x2x2 Cube.
    Cube2,
    /// 3x3x3 Cube.
    Cube3,
    /// 4x4x4 Cube.
    Cube4,
    /// 5x5x5 Cube.
    Cube5,
    /// 6x6x6 Cube.
    Cube6,
    /// 7x7x7 Cube.
    Cube7,
    /// 3x3x3 Blindfolded.
    Blind3,
    /// 3x3x3 Fewest Moves.
    FewestMoves,
    /// 3x3x3 One-Handed.
    OneHanded,
    /// 3x3x3 Multi-Blind.
    MultiBlind,
    /// 4x4x4 Blindfolded.
    Blind4,
    /// 5x5x5 Blindfolded.
    Blind5,
    /// Clock.
    Clock,
    /// Megaminx.
    Megaminx,
    /// Pyraminx.
    Pyraminx,
    /// Skewb.
    Skewb,
    /// Square-1.
    Square1,
    /// Face-turning octahedron (not a WCA event).
    Fto,
}

impl Event {
    /// Every event, in the WCA's order, the FTO last.
    pub const ALL: [Event; 18] = [
        Event::Cube3,
        Event::Cube2,
        Event::Cube4,
        Event::Cube5,
        Event::Cube6,
        Event::Cube7,
        Event::Blind3,
        Event::FewestMoves,
        Event::OneHanded,
        Event::Clock,
        Event::Megaminx,
        Event::Pyraminx,
        Event::Skewb,
        Event::Square1,
        Event::Blind4,
        Event::Blind5,
        Event::MultiBlind,
        Event::Fto,
    ];

    /// The WCA's event id (`333`, `minx`, ...).
    pub fn id(self) -> &'static str {
        match self {
            Event::Cube2 => "222",
            Event::Cube3 => "333",
            Event::Cube4 => "444",
            Event::Cube5 => "555",
            Event::Cube6 => "666",
            Event::Cube7 => "777",
            Event::Blind3 => "333bf",
            Event::FewestMoves => "333fm",
            Event::OneHanded => "333oh",
            Event::MultiBlind => "333mbf",
            Event::Blind4 => "444bf",
            Event::Blind5 => "555bf",
            Event::Clock => "clock",
            Event::Megaminx => "minx",
            Event::Pyraminx => "pyram",
            Event::Skewb => "skewb",
            Event::Square1 => "sq1",
            Event::Fto => "fto",
        }
    }

    /// The event with id `id`; an unknown id is an error listing the known ones.
    pub fn parse(id: &str) -> Result<Event, EventError> {
        Event::ALL
            .into_iter()
            .find(|e| e.id() == id)
            .ok_or_else(|| EventError::Unknown {
                given: id.to_string(),
            })
    }

    /// The number of layers of the cube the event is held on (`None`: not a cube).
    pub fn cube_size(self) -> Option<usize> {
        match self {
            Event::Cube2 => Some(2),
            Event::Cube3
            | Event::OneHanded
            | Event::Blind3
            | Event::MultiBlind
            | Event::FewestMoves => Some(3),
            Event::Cube4 | Event::Blind4 => Some(4),
            Event::Cube5 | Event::Blind5 => Some(5),
            Event::Cube6 => Some(6),
            Event::Cube7 => Some(7),
            _ => None,
        }
    }

    /// The ids of every event, space-separated.
    pub fn known() -> String {
        let ids: Vec<&str> = Event::ALL.iter().map(|e| e.id()).collect();
        ids.join(" ")
    }
}

/// Why an event's scrambles cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum EventError {
    /// An id that names no event.
    #[error("unknown event {given:?}: the events are {}", Event::known())]
    Unknown {
        /// The id given.
        given: String,
    },
    /// `--random-state` for an event without a random-state solver.
    #[error("{0}")]
    NoRandomState(String),
    /// A table of the 3x3x3 solver could not be opened or built.
    #[error(transparent)]
    Table(#[from] TableError),
    /// A scramble given to draw that is not in the event's notation.
    #[error("{0}")]
    Scramble(String),
    /// A built-in puzzle could not be opened or could not answer.
    #[error(transparent)]
    Served(#[from] ServedError),
    /// A scramble that cannot be drawn.
    #[error(transparent)]
    Picture(#[from] stickers::PictureError),
    /// A scramble failed its own check (a bug).
    #[error("internal error: {0}")]
    Internal(String),
}

/// The puzzles built into the binary, for the random-state events.
mod builtin {
    pub const CUBE2: &str = include_str!("../../puzzles/2x2x2-fixed.tws");
    pub const CUBE4: &str = include_str!("../../puzzles/4x4x4.tws");
    pub const CUBE4_PLAN: &str = include_str!("../../puzzles/4x4x4.plan");
    pub const CUBE5: &str = include_str!("../../puzzles/5x5x5.tws");
    pub const CUBE5_PLAN: &str = include_str!("../../puzzles/5x5x5.plan");
    pub const PYRAMINX: &str = include_str!("../../puzzles/pyraminx.tws");
    pub const SKEWB: &str = include_str!("../../puzzles/skewb-fixed.tws");
    pub const SQUARE1: &str = include_str!("../../puzzles/square-1.tws");
    pub const SQUARE1_PLAN: &str = include_str!("../../puzzles/square-1.plan");
    pub const MEGAMINX: &str = include_str!("../../puzzles/megaminx.tws");
    pub const MEGAMINX_PLAN: &str = include_str!("../../puzzles/megaminx.plan");
    pub const FTO: &str = include_str!("../../puzzles/fto.tws");
    pub const FTO_PLAN: &str = include_str!("../../puzzles/fto.plan");
    pub const PYRAMINX_PICTURE: &str = include_str!("../../puzzles/pyraminx.picture");
    pub const SKEWB_PICTURE: &str = include_str!("../../puzzles/skewb-fixed.picture");
    pub const FTO_PICTURE: &str = include_str!("../../puzzles/fto.picture");
    pub const MEGAMINX_PICTURE: &str = include_str!("../../puzzles/megaminx.picture");
}

/// Memory a built-in puzzle's tables may take, in MB (the command line's default).
const BUDGET_MB: u64 = crate::puzzles::perm::DEFAULT_BUDGET_MB;

/// What an event's scrambles come from.
enum Source {
    /// The 3x3x3's two-phase solver.
    Cube3(Box<TwoPhaseSolver>),
    /// A built-in definition: an exact table or its plan.
    Served(Box<ServedPuzzle>),
    /// Random moves (or dial turns): nothing to open.
    Moves,
}

/// Makes an event's scrambles: open once, then ask for any scramble of any seed.
pub struct EventScrambler {
    event: Event,
    random_state: bool,
    source: Source,
    /// The pyraminx's writer of scrambles with the tips last (made once at open).
    tips_last: Option<written::TipsLast>,
}

/// The i-th attempt's seed: the seed itself first, then seeds drawn from it (a state
/// closer to solved than the event allows is drawn again).
fn attempt_seed(seed: u64, attempt: u64) -> u64 {
    if attempt == 0 {
        seed
    } else {
        SplitMix64::stream(seed, u64::MAX - attempt).next_u64()
    }
}

impl EventScrambler {
    /// Opens what `event` needs (tables are built into `store` on first use, with
    /// `progress`); `random_state` asks random-state megaminx and 5x5x5 scrambles (the WCA uses
    /// random moves) and is refused where no random-state solver exists.
    pub fn open(
        event: Event,
        random_state: bool,
        store: &TableStore,
        progress: &Progress,
    ) -> Result<Self, EventError> {
        let served = |name: &str, definition: &str, plan: Option<&str>| {
            ServedPuzzle::from_text(name, definition, plan, store, BUDGET_MB, progress)
                .map(|served| Source::Served(Box::new(served)))
        };
        let source = match event {
            Event::Cube3
            | Event::OneHanded
            | Event::Blind3
            | Event::MultiBlind
            | Event::FewestMoves => Source::Cube3(Box::new(TwoPhaseSolver::open(
                store,
                Metric::Htm,
                progress,
            )?)),
            Event::Cube2 => served("2x2x2-fixed", builtin::CUBE2, None)?,
            Event::Cube4 | Event::Blind4 => {
                served("4x4x4", builtin::CUBE4, Some(builtin::CUBE4_PLAN))?
            }
            Event::Pyraminx => served("pyraminx", builtin::PYRAMINX, None)?,
            Event::Skewb => served("skewb-fixed", builtin::SKEWB, None)?,
            Event::Square1 => served("square-1", builtin::SQUARE1, Some(builtin::SQUARE1_PLAN))?,
            Event::Fto => served("fto", builtin::FTO, Some(builtin::FTO_PLAN))?,
            Event::Megaminx if random_state => {
                served("megaminx", builtin::MEGAMINX, Some(builtin::MEGAMINX_PLAN))?
            }
            Event::Cube5 | Event::Blind5 if random_state => {
                served("5x5x5", builtin::CUBE5, Some(builtin::CUBE5_PLAN))?
            }
            Event::Cube6 | Event::Cube7 if random_state => {
                return Err(EventError::NoRandomState(format!(
                    "--random-state: no random-state solver for {} yet (no phase plan for \
                     it); its scrambles are random moves, as the WCA's",
                    event.id()
                )))
            }
            _ => Source::Moves,
        };
        let tips_last = match (&source, event) {
            (Source::Served(served), Event::Pyraminx) => {
                Some(written::TipsLast::of(served.puzzle()))
            }
            _ => None,
        };
        Ok(EventScrambler {
            event,
            random_state,
            source,
            tips_last,
        })
    }

    /// The event.
    pub fn event(&self) -> Event {
        self.event
    }

    /// Scrambles `first..first + count` of `seed`, made on every core, in order. The same
    /// seed and index always give the same scramble. `stop` bounds the phased solves
    /// (4x4x4, Square-1, FTO, random-state megaminx): a scramble it stops is an error.
    pub fn scrambles(
        &self,
        seed: u64,
        first: u64,
        count: u64,
        stop: &Stop,
    ) -> Vec<Result<String, EventError>> {
        match &self.source {
            Source::Cube3(solver) => (first..first + count)
                .into_par_iter()
                .map_init(|| solver.search(), |search, i| self.cube3(search, seed, i))
                .collect(),
            _ => crate::jobs::map_each((first..first + count).collect(), |i| {
                self.scramble(seed, i, stop)
            }),
        }
    }

    /// Scramble `index` of `seed` (see [`EventScrambler::scrambles`]).
    pub fn scramble(&self, seed: u64, index: u64, stop: &Stop) -> Result<String, EventError> {
        match &self.source {
            Source::Cube3(solver) => self.cube3(&mut solver.search(), seed, index),
            Source::Served(served) => self.served(served, seed, index, stop),
            Source::Moves => self.shaped(self.moves(seed, index)),
        }
    }

    /// `text` if it has the event's shape (an error naming the fault if not: a bug).
    fn shaped(&self, text: String) -> Result<String, EventError> {
        // Random-state megaminx scrambles are face turns, not Pochmann lines.
        if self.event == Event::Megaminx && self.random_state {
            return Ok(text);
        }
        let check = if self.random_state {
            notation::check_random_state
        } else {
            notation::check
        };
        check(self.event, &text).map_err(|e| {
            EventError::Internal(format!("{} scramble {text:?}: {e}", self.event.id()))
        })?;
        Ok(text)
    }

    /// A random-move scramble (or the clock's dial turns).
    fn moves(&self, seed: u64, index: u64) -> String {
        let mut rng = SplitMix64::stream(seed, index);
        match self.event {
            Event::Cube5 => {
                random_moves::format_turns(&random_moves::cube_scramble(5, 60, &mut rng))
            }
            Event::Cube6 => {
                random_moves::format_turns(&random_moves::cube_scramble(6, 80, &mut rng))
            }
            Event::Cube7 => {
                random_moves::format_turns(&random_moves::cube_scramble(7, 100, &mut rng))
            }
            Event::Blind5 => {
                random_moves::format_turns(&random_moves::cube_blind_scramble(5, 60, &mut rng))
            }
            Event::Clock => random_moves::clock_scramble(&mut rng),
            _ => random_moves::megaminx_scramble(&mut rng),
        }
    }

    /// A random-state 3x3x3 scramble of the event's kind.
    fn cube3(
        &self,
        search: &mut SolverSearch<'_>,
        seed: u64,
        index: u64,
    ) -> Result<String, EventError> {
        for attempt in 0.. {
            let mut rng = SplitMix64::stream(attempt_seed(seed, attempt), index);
            let cube = Cube::random(&mut rng);
            let text = match self.event {
                Event::FewestMoves => {
                    // R' U' F, the scramble, R' U' F: its first move is not on the F-B
                    // axis and its last not on the R-L axis, so neither end cancels.
                    let frame = [
                        Move::new(Face::R, 3),
                        Move::new(Face::U, 3),
                        Move::new(Face::F, 1),
                    ];
                    let frame_cube = Cube::from_moves(&frame);
                    // The inner scramble reaches frame⁻¹ · cube · frame⁻¹.
                    let undo = frame_cube.inverse();
                    let inner = undo.then(&cube).then(&undo);
                    let moves = scramble_with_ends(search, &inner, AXIS_FB, AXIS_RL)?;
                    let whole = Cube::from_moves(&[frame.as_slice(), &moves, &frame].concat());
                    if whole != cube {
                        return Err(EventError::Internal(
                            "a fewest-moves scramble that does not reach its state".into(),
                        ));
                    }
                    if within_one_move(&cube) {
                        continue;
                    }
                    format!("R' U' F {} R' U' F", format_moves(&moves))
                }
                Event::Blind3 | Event::MultiBlind => {
                    if within_one_move(&cube) {
                        continue;
                    }
                    let orientation = random_moves::random_orientation(3, 2, &mut rng);
                    // The scramble's last move may not be on the axis of the first
                    // orientation turn.
                    let banned = orientation
                        .first()
                        .map_or(0, |t| 1u8 << random_moves::axis(t.face));
                    let moves = scramble_with_ends(search, &cube, 0, banned)?;
                    let mut words = vec![format_moves(&moves)];
                    words.extend(orientation.iter().map(|t| t.to_string()));
                    words.retain(|w| !w.is_empty());
                    words.join(" ")
                }
                _ => {
                    if within_one_move(&cube) {
                        continue;
                    }
                    format_moves(&scramble_with_ends(search, &cube, 0, 0)?)
                }
            };
            return self.shaped(text);
        }
        unreachable!("the attempts never end")
    }

    /// A random-state scramble of a built-in puzzle, in the event's words.
    fn served(
        &self,
        served: &ServedPuzzle,
        seed: u64,
        index: u64,
        stop: &Stop,
    ) -> Result<String, EventError> {
        let minimum = match self.event {
            Event::Cube2 => 4,
            Event::Pyraminx => 6,
            Event::Skewb => 7,
            Event::Square1 => 11,
            _ => 2,
        };
        for attempt in 0.. {
            let written = if let Some(tips_last) = &self.tips_last {
                // Rewritten from the move numbers: no text read back.
                let moves = served.table_scramble(attempt_seed(seed, attempt), index)?;
                tips_last.words(served.puzzle(), &moves)?
            } else {
                let text = served.scramble(attempt_seed(seed, attempt), index, stop.clone())?;
                written::in_event_words(self.event, served.puzzle(), &text)?
            };
            if written::length(&written) < minimum {
                continue;
            }
            let mut rng = SplitMix64::stream(attempt_seed(seed, attempt), u64::MAX - index);
            return self.shaped(match self.event {
                Event::Blind4 | Event::Blind5 => {
                    // 444bf turns the cube (`x y2`), 555bf its three outer layers
                    // (`3Rw 3Uw2`), as their random-move scrambles do.
                    let (n, layers) = if self.event == Event::Blind4 {
                        (4, 4)
                    } else {
                        (5, 3)
                    };
                    let orientation = random_moves::random_orientation(n, layers, &mut rng);
                    let mut words = vec![written];
                    words.extend(orientation.iter().map(|t| t.to_string()));
                    words.retain(|w| !w.is_empty());
                    words.join(" ")
                }
                _ => written,
            });
        }
        unreachable!("the attempts never end")
    }

    /// Whether scrambles are random-state megaminx ones (face-turn notation).
    pub fn random_state(&self) -> bool {
        self.random_state
    }
}

/// The picture of the state `scramble` (an `event` scramble) reaches, as one line of SVG:
/// the cube's net for the cube events, the WCA program's drawings of the others.
pub fn picture(event: Event, scramble: &str) -> Result<String, EventError> {
    if let Some(n) = event.cube_size() {
        let mut cube = nxn::CubeN::solved(n);
        cube.apply_text(scramble)
            .map_err(|e| EventError::Scramble(e.to_string()))?;
        return Ok(picture::cube_net(&cube));
    }
    match event {
        Event::Square1 => {
            let puzzle = square1_puzzle()?;
            let moves = written::square1_moves(scramble).map_err(EventError::Scramble)?;
            let state = puzzle
                .scrambled(&moves)
                .map_err(|e| EventError::Scramble(e.to_string()))?;
            Ok(square1::picture(puzzle, &state)?)
        }
        Event::Clock => {
            let mut clock = clock::Clock::solved();
            clock
                .apply_text(scramble)
                .map_err(|e| EventError::Scramble(e.to_string()))?;
            Ok(clock.picture())
        }
        _ => {
            let map = sticker_map(event)?;
            Ok(map.svg(&map.after(scramble)?))
        }
    }
}

/// The sticker map of a puzzle drawn from one (pyraminx, skewb, FTO, megaminx), read once.
pub fn sticker_map(event: Event) -> Result<&'static stickers::StickerPicture, EventError> {
    use std::sync::OnceLock;
    type Map = OnceLock<Result<stickers::StickerPicture, String>>;
    static PYRAMINX: Map = OnceLock::new();
    static SKEWB: Map = OnceLock::new();
    static FTO: Map = OnceLock::new();
    static MEGAMINX: Map = OnceLock::new();
    let (cell, name, text) = match event {
        Event::Pyraminx => (&PYRAMINX, "pyraminx", builtin::PYRAMINX_PICTURE),
        Event::Skewb => (&SKEWB, "skewb-fixed", builtin::SKEWB_PICTURE),
        Event::Fto => (&FTO, "fto", builtin::FTO_PICTURE),
        Event::Megaminx => (&MEGAMINX, "megaminx", builtin::MEGAMINX_PICTURE),
        _ => {
            return Err(EventError::Internal(format!(
                "no sticker map for {}",
                event.id()
            )))
        }
    };
    cell.get_or_init(|| stickers::StickerPicture::parse(name, text).map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| EventError::Internal(e.clone()))
}

/// The built-in Square-1 definition, read once (for its pictures).
fn square1_puzzle() -> Result<&'static PermPuzzle, EventError> {
    use std::sync::OnceLock;
    static PUZZLE: OnceLock<Result<PermPuzzle, String>> = OnceLock::new();
    PUZZLE
        .get_or_init(|| {
            let definition = Definition::parse(builtin::SQUARE1).map_err(|e| e.to_string())?;
            PermPuzzle::new(&definition, PuzzleMetric::Htm).map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| EventError::Internal(format!("the built-in Square-1: {e}")))
}

/// Axis bits for [`scramble_with_ends`] (bit `face % 3`).
const AXIS_RL: u8 = 1 << 1;
const AXIS_FB: u8 = 1 << 2;

/// A scramble of at most 21 face turns reaching `cube` whose first move is on none of the
/// axes `first` and whose last move is on none of `last` (checked by applying it).
fn scramble_with_ends(
    search: &mut SolverSearch<'_>,
    cube: &Cube,
    first: u8,
    last: u8,
) -> Result<Vec<Move>, EventError> {
    let SolverSearch::Full(search) = search else {
        return Err(EventError::Internal(
            "the 3x3x3 scrambles need the full tables".into(),
        ));
    };
    // A scramble is a solution backwards: its first move undoes the solution's last.
    search.ban_end_axes(last, first);
    let mut found = None;
    // 21 face turns almost always; a restricted search may need one or two more.
    for limit in [21, 24] {
        if let Outcome::Found(moves) = search.solve_until(cube, limit, Stop::never()) {
            found = Some(moves);
            break;
        }
    }
    search.ban_end_axes(0, 0);
    let solution =
        found.ok_or_else(|| EventError::Internal("no 3x3x3 scramble within 24 moves".into()))?;
    let scramble: Vec<Move> = solution.iter().rev().map(|m| m.inverse()).collect();
    if Cube::from_moves(&scramble) != *cube {
        return Err(EventError::Internal(
            "a 3x3x3 scramble that does not reach its state".into(),
        ));
    }
    Ok(scramble)
}

/// Whether `cube` is solved or one face turn from it (the WCA draws again).
fn within_one_move(cube: &Cube) -> bool {
    cube.is_solved() || Move::all().any(|m| cube.apply_all(&[m]).is_solved())
}
