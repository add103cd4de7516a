//! [`GoalSolver`]: the shortest sequences solving part of the cube (a named goal or a
//! sticker mask), in the goal's own orientation or in each of the 24.

use crate::progress::Progress;
use crate::puzzles::rubik::goals::goal::{from_frame, orientation, Goal, GoalKind, GoalTable};
use crate::puzzles::rubik::goals::mask::{Mask, MaskSearch};
use crate::puzzles::rubik::model::cube::{Cube, Face, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::symmetry::Symmetry;
use crate::table::{TableError, TableFamily, TableStore};

/// What a goal option names: a goal with its face, or a 54-sticker mask.
#[derive(Debug, Clone)]
pub enum GoalSpec {
    /// A named goal (`cross:U`).
    Named(Goal),
    /// A sticker mask: face letters, `?` for stickers that do not matter.
    Mask(Mask),
}

impl std::str::FromStr for GoalSpec {
    type Err = String;

    /// A goal name with its face, or a 54-character sticker mask.
    fn from_str(text: &str) -> Result<Self, String> {
        let looks_like_mask = text.trim().chars().count() == 54 && !text.contains(':');
        if looks_like_mask {
            return text
                .parse()
                .map(GoalSpec::Mask)
                .map_err(|e: crate::puzzles::rubik::goals::mask::MaskError| e.to_string());
        }
        text.parse()
            .map(GoalSpec::Named)
            .map_err(|e: String| format!("{e}; or give a 54-character sticker mask"))
    }
}

/// What solves a goal: its table, or the mask's search.
enum Target {
    Named(Goal, GoalTable),
    Mask(Mask, MaskSearch),
}

/// The goal solved in one orientation of the whole cube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FrameAnswer {
    /// The orientation as `DOWN/FRONT` (every orientation), or the goal's name.
    pub label: String,
    /// The optimal length in this orientation.
    pub optimal: u32,
    /// The solutions found, in the cube's own moves, each checked on the cube.
    pub solutions: Vec<Vec<Move>>,
}

/// Why a goal got no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoalUnreachable {
    /// No position of the cube shows the goal (a mask no real cube can match).
    #[error("no position shows {0}")]
    NoPosition(String),
    /// A sequence found does not reach the goal: a bug, never shown as an answer.
    #[error("internal error, a sequence found does not reach {0}")]
    WrongSolution(String),
}

/// Partial goals, opened in one call (named goals build their table on first use).
pub struct GoalSolver {
    target: Target,
}

impl std::fmt::Debug for GoalSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GoalSolver")
            .field("goal", &self.name())
            .finish_non_exhaustive()
    }
}

impl GoalSolver {
    /// The solver of `spec` in `metric`: a named goal's table (built if missing), or the
    /// mask's search.
    pub fn open(
        store: &TableStore,
        spec: GoalSpec,
        metric: Metric,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let target = match spec {
            GoalSpec::Named(goal) => Target::Named(
                goal,
                GoalTable::load_or_build(store, (goal.kind, metric), progress)?,
            ),
            GoalSpec::Mask(mask) => {
                let search = MaskSearch::new(&mask, metric);
                Target::Mask(mask, search)
            }
        };
        Ok(Self { target })
    }

    /// The goal in words (`cross on D`, `the mask`).
    pub fn name(&self) -> String {
        match &self.target {
            Target::Named(goal, _) => goal.to_string(),
            Target::Mask(..) => "the mask".into(),
        }
    }

    /// Solutions on `cube`: in the goal's own orientation, or (`every_orientation`) in
    /// each of the 24 (each face down, each neighbour in front, labelled `D/F`). At most
    /// `limit` per orientation, of the optimal length and up to `lengths` moves more. Every
    /// solution is checked to reach the goal on the cube before it is returned.
    pub fn solve(
        &self,
        cube: &Cube,
        every_orientation: bool,
        lengths: u32,
        limit: usize,
    ) -> Result<Vec<FrameAnswer>, GoalUnreachable> {
        let frames = if every_orientation {
            every_frame()
        } else {
            vec![(self.name(), self.frame())]
        };
        let mut answers = Vec::with_capacity(frames.len());
        for (label, frame) in frames {
            let (optimal, solutions) = self.solve_in(cube, &frame, lengths, limit);
            if optimal == u32::MAX {
                return Err(GoalUnreachable::NoPosition(self.name()));
            }
            for solution in &solutions {
                // Checked on the cube itself: the goal holds, seen from the frame.
                if !self.reached(&frame.conjugate(&cube.apply_all(solution))) {
                    return Err(GoalUnreachable::WrongSolution(label));
                }
            }
            answers.push(FrameAnswer {
                label,
                optimal,
                solutions,
            });
        }
        Ok(answers)
    }

    /// Solutions on `cube` seen through `frame`, in the cube's own moves.
    fn solve_in(
        &self,
        cube: &Cube,
        frame: &Symmetry,
        lengths: u32,
        limit: usize,
    ) -> (u32, Vec<Vec<Move>>) {
        match &self.target {
            Target::Named(_, table) => table.solve(cube, frame, lengths, limit),
            Target::Mask(_, search) => {
                let (optimal, found) = search.solve(&frame.conjugate(cube), lengths, limit);
                let mut back: Vec<Vec<Move>> = found.iter().map(|s| from_frame(frame, s)).collect();
                back.sort_by_key(|s| s.iter().map(|m| m.index()).collect::<Vec<_>>());
                back.dedup();
                (optimal, back)
            }
        }
    }

    /// Whether the goal holds on a cube (already seen through the frame).
    fn reached(&self, seen: &Cube) -> bool {
        match &self.target {
            Target::Named(goal, _) => goal.kind.reached(seen),
            Target::Mask(mask, _) => mask.holds(seen),
        }
    }

    /// The frame a single answer is solved in: the goal's face down (for `eo`, in front).
    fn frame(&self) -> Symmetry {
        match &self.target {
            Target::Named(goal, _) => frame_of(*goal),
            Target::Mask(..) => orientation(Face::D, Face::F).expect("the identity"),
        }
    }
}

/// The frame that puts the goal's face where the goal is defined: down, or for `eo` in
/// front.
fn frame_of(goal: Goal) -> Symmetry {
    let neighbour = |face: Face| {
        Face::ALL
            .into_iter()
            .find(|&f| f != face && f != face.opposite())
            .expect("every face has neighbours")
    };
    let found = if goal.kind == GoalKind::Eo {
        orientation(neighbour(goal.face), goal.face)
    } else {
        orientation(goal.face, neighbour(goal.face))
    };
    found.expect("a face and a neighbour fix a rotation")
}

/// All 24 orientations, labelled `down/front` (e.g. `D/F`).
fn every_frame() -> Vec<(String, Symmetry)> {
    let mut frames = Vec::new();
    for down in Face::ALL {
        for front in Face::ALL {
            if front == down || front == down.opposite() {
                continue;
            }
            if let Some(frame) = orientation(down, front) {
                frames.push((format!("{}/{}", down.letter(), front.letter()), frame));
            }
        }
    }
    frames
}
