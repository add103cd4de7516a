//! Partial goals: the shortest sequence that solves part of the cube (the cross, a first
//! F2L pair, a Roux first block, edge orientation), on any face, by exact tables.
//!
//! A goal depends only on where some pieces are (and how they are turned), so its
//! distance is the distance of that projection of the cube. Each goal is defined once,
//! with D down and F in front; other faces are reached by turning the whole cube (a
//! rotation, applied by conjugation) and turning the solution back. The projection is a
//! product of small parts (a few edges, a few corners, or all edge flips), each numbered
//! in the order a breadth-first search from solved meets it, with a move table; the
//! shared BFS then fills a table of exact distances over the product (unreachable
//! combinations, such as two pieces in one slot, stay unreached). Solutions are read by
//! walking down the table; every optimal one by a search the exact distances prune to the
//! optimal paths alone.

use crate::progress::Progress;
use crate::puzzles::rubik::coord::projection::{
    sequences_of_length, BoundedSpace, Numbered, Pieces,
};
use crate::puzzles::rubik::model::cube::{Cube, Face, Move, EDGES};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::symmetry::{Symmetry, ROTATIONS, UD_ROTATIONS};
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::search::bfs::{layered_bfs, RankedSpace, UNREACHED};
use crate::table::family::{GroupMember, Rebuild, TableFamily, TableGroup};
use crate::table::packed::{pack, Nibbles};
use crate::table::{Table, TableError, TableSpec, TableStore};
use std::collections::HashMap;
use std::fmt;

/// The `cubedb-gen` target of the goal tables.
pub const GROUP: &str = "rubik-goals";

/// Value of an unreachable projection in a goal table.
const NO_STATE: u8 = 15;

/// What a goal asks for (on a face: the face that ends up down).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoalKind {
    /// The four edges around the down face.
    Cross,
    /// The cross and one F2L pair (the best of the four).
    Xcross,
    /// One F2L pair: a down corner and the middle-layer edge beside it (best of four).
    F2lPair,
    /// A Roux first block: the 1x2x3 block of the left face's bottom two layers (best of
    /// the four sides).
    FirstBlock,
    /// Every edge oriented for the front-back axis (no F or B quarter turn needed).
    Eo,
}

impl GoalKind {
    /// Every goal, in the order of `--goal` help.
    pub const ALL: [GoalKind; 5] = [
        GoalKind::Cross,
        GoalKind::Xcross,
        GoalKind::F2lPair,
        GoalKind::FirstBlock,
        GoalKind::Eo,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            GoalKind::Cross => "cross",
            GoalKind::Xcross => "xcross",
            GoalKind::F2lPair => "f2l-pair",
            GoalKind::FirstBlock => "first-block",
            GoalKind::Eo => "eo",
        }
    }

    /// The projection with D down and F in front.
    fn parts(self) -> Vec<Part> {
        // Edges: UR UF UL UB DR DF DL DB FR FL BL BR; corners: URF UFL ULB UBR DFR DLF DBL DRB.
        const CROSS: &[u8] = &[4, 5, 6, 7];
        let edges = |list: &[u8]| Part::Pieces(Pieces::Edges(list.to_vec()));
        let corners = |list: &[u8]| Part::Pieces(Pieces::Corners(list.to_vec()));
        match self {
            GoalKind::Cross => vec![edges(CROSS)],
            GoalKind::Xcross => vec![edges(CROSS), edges(&[8]), corners(&[4])],
            GoalKind::F2lPair => vec![edges(&[8]), corners(&[4])],
            GoalKind::FirstBlock => vec![edges(&[6, 9, 10]), corners(&[5, 6])],
            GoalKind::Eo => vec![Part::Flips],
        }
    }

    /// Whether the goal holds (the reference for tests and for checking answers).
    pub fn holds(self, cube: &Cube) -> bool {
        self.parts()
            .iter()
            .all(|part| part.key(cube) == part.key(&Cube::SOLVED))
    }

    /// Whether the goal is reached with D down and F in front, in any of its variants
    /// (any pair, any side's block): what a solution must achieve.
    pub fn reached(self, cube: &Cube) -> bool {
        UD_ROTATIONS[..self.variants()]
            .iter()
            .any(|turn| self.holds(&turn.conjugate(cube)))
    }

    /// Rotations about the down axis tried for the best variant: the four pairs or
    /// blocks; one for goals that look the same from every side.
    fn variants(self) -> usize {
        match self {
            GoalKind::Cross | GoalKind::Eo => 1,
            _ => 4,
        }
    }
}

impl std::str::FromStr for GoalKind {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        GoalKind::ALL
            .into_iter()
            .find(|g| g.name() == text)
            .ok_or_else(|| {
                let names: Vec<_> = GoalKind::ALL.iter().map(|g| g.name()).collect();
                format!(
                    "{} is not a goal ({})",
                    crate::text::quote(text),
                    names.join(", ")
                )
            })
    }
}

/// A goal on a face: `cross:D` is the cross on the D face (with D down).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Goal {
    /// What is asked.
    pub kind: GoalKind,
    /// The face it is on (the face that is down); for `eo`, one face of the axis.
    pub face: Face,
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind.name(), self.face.letter())
    }
}

impl std::str::FromStr for Goal {
    type Err = String;
    /// `KIND` or `KIND:FACE` (FACE one of U R F D L B; default D, and F for `eo`).
    fn from_str(text: &str) -> Result<Self, String> {
        let (kind, face) = match text.split_once(':') {
            Some((kind, face)) => (kind, Some(face)),
            None => (text, None),
        };
        let kind: GoalKind = kind.parse()?;
        let face = match face {
            None if kind == GoalKind::Eo => Face::F,
            None => Face::D,
            Some(face) => Face::ALL
                .into_iter()
                .find(|f| f.letter().to_string() == face)
                .ok_or_else(|| {
                    format!(
                        "{} is not a face (U, R, F, D, L or B)",
                        crate::text::quote(face)
                    )
                })?,
        };
        Ok(Goal { kind, face })
    }
}

/// A part of a projection: which pieces are followed.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    /// Some cubies: slot and orientation of each.
    Pieces(Pieces),
    /// The flip of every edge slot.
    Flips,
}

impl Part {
    fn key(&self, cube: &Cube) -> Vec<u8> {
        match self {
            Part::Pieces(pieces) => pieces.key(cube),
            Part::Flips => cube.eo.to_vec(),
        }
    }

    /// Number of values of the key: placements of the cubies, or 2^11 flips.
    fn size(&self) -> u64 {
        match self {
            Part::Pieces(pieces) => pieces.size(),
            Part::Flips => 1 << (EDGES - 1),
        }
    }
}

/// A part numbered by BFS, with its move table (all 18 moves).
struct NumberedPart {
    part: Part,
    index: HashMap<Vec<u8>, u32>,
    moves: Vec<[u32; 18]>,
}

impl NumberedPart {
    fn new(part: Part) -> Self {
        let numbered = Numbered::<Cube, Vec<u8>, 18>::new(
            Cube::SOLVED,
            |cube, m| cube.then(&MOVE_CUBES[m]),
            |cube| part.key(cube),
        );
        Self {
            part,
            index: numbered.index,
            moves: numbered.moves,
        }
    }

    fn size(&self) -> u64 {
        self.moves.len() as u64
    }
}

/// A goal's projection: the product of its parts.
struct Projection {
    parts: Vec<NumberedPart>,
}

impl Projection {
    fn new(kind: GoalKind) -> Self {
        Self {
            parts: kind.parts().into_iter().map(NumberedPart::new).collect(),
        }
    }

    fn size(&self) -> u64 {
        self.parts.iter().map(NumberedPart::size).product()
    }

    fn rank_of(&self, cube: &Cube) -> u64 {
        self.parts.iter().fold(0, |rank, p| {
            rank * p.size() + p.index[&p.part.key(cube)] as u64
        })
    }

    /// The rank after move index `m`.
    fn after(&self, mut rank: u64, m: usize) -> u64 {
        let mut out = 0;
        let mut scale = 1;
        for p in self.parts.iter().rev() {
            let digit = rank % p.size();
            rank /= p.size();
            out += p.moves[digit as usize][m] as u64 * scale;
            scale *= p.size();
        }
        out
    }
}

/// The projection with one metric's moves, for the shared BFS.
struct GoalSpace<'a> {
    projection: &'a Projection,
    moves: Vec<usize>,
}

impl RankedSpace for GoalSpace<'_> {
    fn size(&self) -> u64 {
        self.projection.size()
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        for &m in &self.moves {
            visit(self.projection.after(rank, m));
        }
    }
}

/// The table of a goal kind in a metric.
pub fn spec(kind: GoalKind, metric: Metric) -> TableSpec {
    // Sizes by formula: a spec is asked for by every listing, and numbering the parts
    // takes a BFS each.
    let size: u64 = kind.parts().iter().map(Part::size).product();
    let metric_name = match metric {
        Metric::Qtm => "qtm",
        Metric::Htm => "htm",
    };
    let name = NAMES
        .iter()
        .find(|(k, m, _)| *k == kind && *m == metric)
        .map(|(_, _, n)| *n)
        .expect("every goal and metric has a table name");
    TableSpec {
        name,
        group: GROUP,
        puzzle: "rubik",
        kind: name,
        params: vec![
            ("projection".into(), size),
            (format!("metric-{metric_name}"), 1),
        ],
        entries: size,
        bits_per_entry: 4,
    }
}

/// File stems of the goal tables.
const NAMES: [(GoalKind, Metric, &str); 10] = [
    (GoalKind::Cross, Metric::Htm, "rubik-goal-cross-htm"),
    (GoalKind::Cross, Metric::Qtm, "rubik-goal-cross-qtm"),
    (GoalKind::Xcross, Metric::Htm, "rubik-goal-xcross-htm"),
    (GoalKind::Xcross, Metric::Qtm, "rubik-goal-xcross-qtm"),
    (GoalKind::F2lPair, Metric::Htm, "rubik-goal-f2l-pair-htm"),
    (GoalKind::F2lPair, Metric::Qtm, "rubik-goal-f2l-pair-qtm"),
    (
        GoalKind::FirstBlock,
        Metric::Htm,
        "rubik-goal-first-block-htm",
    ),
    (
        GoalKind::FirstBlock,
        Metric::Qtm,
        "rubik-goal-first-block-qtm",
    ),
    (GoalKind::Eo, Metric::Htm, "rubik-goal-eo-htm"),
    (GoalKind::Eo, Metric::Qtm, "rubik-goal-eo-qtm"),
];

/// The `cubedb-gen` target of the goal tables.
pub fn groups() -> Vec<TableGroup> {
    vec![TableGroup::new(
        GROUP,
        "Rubik's cube, partial goals: exact distances for cross, xcross, F2L pair, first block and EO, both metrics",
        NAMES
            .iter()
            .map(|&(kind, metric, _)| GroupMember::of::<GoalTable>((kind, metric), Some(metric.name())))
            .collect(),
    )]
}

impl TableFamily for GoalTable {
    type Params = (GoalKind, Metric);

    fn title((kind, metric): (GoalKind, Metric)) -> String {
        format!("the {} table ({metric:?})", kind.name())
    }

    fn specs((kind, metric): (GoalKind, Metric)) -> Vec<TableSpec> {
        vec![spec(kind, metric)]
    }

    fn build(
        store: &TableStore,
        (kind, metric): (GoalKind, Metric),
        _: Rebuild,
        progress: &Progress,
    ) -> Result<(), TableError> {
        build_one(store, kind, metric, progress)
    }

    fn open(store: &TableStore, (kind, metric): (GoalKind, Metric)) -> Result<Self, TableError> {
        Ok(Self {
            table: store.open(&spec(kind, metric))?,
            projection: Projection::new(kind),
            kind,
            metric,
        })
    }
}

fn build_one(
    store: &TableStore,
    kind: GoalKind,
    metric: Metric,
    progress: &Progress,
) -> Result<(), TableError> {
    let projection = Projection::new(kind);
    let space = GoalSpace {
        projection: &projection,
        moves: metric.moves().iter().map(|m| m.index()).collect(),
    };
    let label = format!("goal {} ({metric:?})", kind.name());
    let result = layered_bfs(&space, &[0], progress, &label);
    let values: Vec<u8> = result
        .depths
        .iter()
        .map(|&d| if d == UNREACHED { NO_STATE } else { d })
        .collect();
    assert!(
        result.max_depth() < NO_STATE as usize,
        "goal distances fit in 4 bits"
    );
    store.write(&spec(kind, metric), &pack(&values, 4), result.histogram)
}

/// The whole-cube rotation that brings face `down` down and `front` to the front, as a
/// symmetry (`None` if the two faces are not adjacent).
pub fn orientation(down: Face, front: Face) -> Option<Symmetry> {
    ROTATIONS.iter().copied().find(|s| {
        s.map_move(Move::new(down, 1)).face() == Face::D
            && s.map_move(Move::new(front, 1)).face() == Face::F
    })
}

/// The opened table of one goal kind in one metric.
pub struct GoalTable {
    table: Table,
    projection: Projection,
    kind: GoalKind,
    metric: Metric,
}

impl GoalTable {
    fn distance(&self, rank: u64) -> u8 {
        Nibbles::new(self.table.payload()).get(rank as usize)
    }

    /// Solutions of the goal on `cube` seen through `frame` (a rotation putting the goal's
    /// face down), moves in the cube's own frame: at most `limit`, of the optimal length
    /// and up to `lengths` moves more, by length, each length sorted (when `limit` cuts
    /// a length short, the ones kept are optimal but not the first in that order). Also
    /// the optimal length.
    pub fn solve(
        &self,
        cube: &Cube,
        frame: &Symmetry,
        lengths: u32,
        limit: usize,
    ) -> (u32, Vec<Vec<Move>>) {
        // The goal's variants: the cube turned about the down axis.
        let seen = frame.conjugate(cube);
        let variants: Vec<(Symmetry, u64, u32)> = UD_ROTATIONS[..self.kind.variants()]
            .iter()
            .map(|turn| {
                let rank = self.projection.rank_of(&turn.conjugate(&seen));
                (*turn, rank, self.distance(rank) as u32)
            })
            .collect();
        let optimal = variants
            .iter()
            .map(|v| v.2)
            .min()
            .expect("one variant at least");
        let mut solutions: Vec<Vec<Move>> = Vec::new();
        for length in (optimal..=optimal + lengths).step_by(self.step()) {
            let mut found = Vec::new();
            for &(turn, rank, distance) in &variants {
                if distance > length {
                    continue;
                }
                let mut out = Vec::new();
                let room = limit - (solutions.len() + found.len()).min(limit);
                sequences_of_length(&GoalWalk(self), &rank, length, room, &mut out);
                // Back to the cube's frame: undo the turn, then the frame; then opposite
                // faces, which may have swapped order, back into URFDLB order.
                found.extend(out.into_iter().map(|s| {
                    let turned_back: Vec<Move> = s.into_iter().map(|m| unmap(&turn, m)).collect();
                    from_frame(frame, &turned_back)
                }));
            }
            found.sort_by_key(|s| s.iter().map(|m| m.index()).collect::<Vec<_>>());
            found.dedup();
            solutions.extend(found);
            if solutions.len() >= limit {
                break;
            }
        }
        solutions.truncate(limit);
        (optimal, solutions)
    }

    fn step(&self) -> usize {
        1
    }
}

/// A goal table as a space to search: a projection's rank, bounded by its exact distance.
struct GoalWalk<'a>(&'a GoalTable);

impl BoundedSpace for GoalWalk<'_> {
    type State = u64;
    fn metric(&self) -> Metric {
        self.0.metric
    }
    fn bound(&self, rank: &u64) -> u32 {
        self.0.distance(*rank) as u32
    }
    fn reached(&self, _: &u64) -> bool {
        // The distance is exact: 0 is the goal.
        true
    }
    fn apply(&self, rank: &u64, mv: Move) -> u64 {
        self.0.projection.after(*rank, mv.index())
    }
}

/// A sequence found on the cube seen through `frame`, as moves of the cube itself, in
/// canonical order.
pub fn from_frame(frame: &Symmetry, moves: &[Move]) -> Vec<Move> {
    let mut out: Vec<Move> = moves.iter().map(|&m| unmap(frame, m)).collect();
    canonical_order(&mut out);
    out
}

/// Puts each run of moves on one axis (which commute) in URFDLB face order, keeping the
/// order of turns of the same face: the canonical form of the sequence.
pub fn canonical_order(moves: &mut [Move]) {
    let axis = |m: &Move| m.face().index() % 3;
    let mut start = 0;
    while start < moves.len() {
        let mut end = start + 1;
        while end < moves.len() && axis(&moves[end]) == axis(&moves[start]) {
            end += 1;
        }
        moves[start..end].sort_by_key(|m| m.face().index());
        start = end;
    }
}

/// The move `m` seen through `symmetry` turned back into the cube's own frame.
fn unmap(symmetry: &Symmetry, m: Move) -> Move {
    Move::all()
        .find(|&x| symmetry.map_move(x) == m)
        .expect("a rotation maps moves one to one")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn part_sizes_by_formula_match_the_bfs() {
        for kind in GoalKind::ALL {
            for part in kind.parts() {
                assert_eq!(
                    part.size(),
                    NumberedPart::new(part.clone()).size(),
                    "{part:?}"
                );
            }
        }
    }
}
