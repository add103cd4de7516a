//! The coset heuristic of the flip-slice-twist presets (large, huge, 2g, 5g, 8g): their
//! tables measure the distance to a coset of a group holding U and D turns, so each is
//! read on six views of a position (along each axis, on the position and its inverse),
//! with inherited views, the x,x,x rule and skipped first axes (`docs/rubik-optimal.md`).

use super::KorfSolver;
use crate::puzzles::rubik::coord::flipslice::{self, RawCoordinates, Refinement};
use crate::puzzles::rubik::model::cube::{Cube, Move};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::symmetry::AXIS_ROTATIONS;
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use crate::puzzles::rubik::optimal::pdb::Pdb;

/// Most coset tables a preset combines.
const MAX_COSET_TABLES: usize = 2;

/// The coset tables of a preset (indices into [`Pdbs`]) and their refinements.
#[derive(Debug, Clone, Copy)]
pub(super) struct CosetTables {
    tables: [(usize, Refinement); MAX_COSET_TABLES],
    len: usize,
    /// Whether a table reads the U-edge slots (the search follows them only then).
    pub(super) up_edges: bool,
}

impl CosetTables {
    pub(super) fn of(tables: &[Pdb]) -> Option<Self> {
        let mut coset = CosetTables {
            tables: [(0, Refinement::SliceOrder); MAX_COSET_TABLES],
            len: 0,
            up_edges: false,
        };
        for (t, table) in tables.iter().enumerate() {
            let refinement = table.pattern().refinement()?;
            if coset.len == MAX_COSET_TABLES {
                return None;
            }
            coset.tables[coset.len] = (t, refinement);
            coset.len += 1;
            coset.up_edges |= refinement == Refinement::EdgeLayers;
        }
        (coset.len > 0).then_some(coset)
    }

    /// How many stages of reads evaluate a node's children: with one table, its U-D
    /// views, then the other four; with two, a third stage reads the second table on
    /// every view, only for the children the first table did not prune (read on every
    /// child, the second table cost more in reads than it saved in nodes).
    #[inline]
    pub(super) fn stages(&self) -> usize {
        if self.len > 1 {
            3
        } else {
            2
        }
    }

    /// The coset tables (positions in [`Self::tables`]) read in stage `stage`.
    #[inline]
    fn of_stage(&self, stage: usize) -> std::ops::Range<usize> {
        match (self.len, stage) {
            (1, _) | (_, 0 | 1) => 0..1,
            _ => 1..self.len,
        }
    }
}

/// Table values of the six views of a position: view `2a` is the
/// position seen along axis `a` (U-D, R-L, F-B), view `2a + 1` its inverse.
pub(crate) type ViewValues = [u8; 6];

/// A position in the coset search, kept as its six views: the position seen along each
/// axis as raw coordinates (moved by move tables), its inverse seen along each axis as a
/// cube (moved by composing with the inverse turn before it).
#[derive(Debug, Clone, Copy)]
pub(crate) struct CosetNode {
    /// [`flipslice::raw_coordinates`] of the position seen along axis `a`.
    forward: [RawCoordinates; 3],
    /// The inverse of the position, seen along axis `a`.
    inverse: [Cube; 3],
    /// Table values of the six views: `2a` the position along axis `a`, `2a + 1` its
    /// inverse.
    pub(super) values: ViewValues,
    /// Whether the raw coordinates follow the U-edge slots ([`CosetTables::up_edges`]).
    up_edges: bool,
}

impl CosetNode {
    /// A placeholder to fill arrays with (not any position's node).
    pub(super) const EMPTY: CosetNode = CosetNode {
        forward: [[0; 4]; 3],
        inverse: [Cube::SOLVED; 3],
        values: [0; 6],
        up_edges: false,
    };

    /// The node of `cube` (inverse `inv`), values not yet read, following the U-edge
    /// slots if `up_edges`.
    pub(super) fn of(cube: &Cube, inv: &Cube, up_edges: bool) -> Self {
        let mut node = CosetNode {
            forward: [flipslice::raw_coordinates_with_inverse(cube, inv, up_edges); 3],
            inverse: [*inv; 3],
            values: [0; 6],
            up_edges,
        };
        for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
            let (turned, turned_inv) = (rotation.conjugate(cube), rotation.conjugate(inv));
            node.forward[j + 1] =
                flipslice::raw_coordinates_with_inverse(&turned, &turned_inv, up_edges);
            node.inverse[j + 1] = turned_inv;
        }
        node
    }

    /// Whether the position is solved.
    #[inline]
    pub(super) fn is_solved(&self) -> bool {
        self.inverse[0].is_solved()
    }

    /// Raw coordinates of view `v`.
    #[inline]
    fn raw(&self, v: usize) -> RawCoordinates {
        match v % 2 {
            0 => self.forward[v / 2],
            _ => flipslice::raw_coordinates_for(&self.inverse[v / 2], self.up_edges),
        }
    }

    /// Views along axis `a` of this node's child by `mv`.
    #[inline]
    pub(super) fn step_axis(&mut self, parent: &CosetNode, a: usize, mv: Move) {
        let seen = AXIS_MOVES[a][mv.index()];
        self.forward[a] = flipslice::move_raw(parent.forward[a], seen.index(), parent.up_edges);
        self.up_edges = parent.up_edges;
        self.inverse[a] = MOVE_CUBES[seen.inverse().index()].then(&parent.inverse[a]);
    }
}

/// `AXIS_MOVES[a][m]`: move `m` as seen along axis `a` (the move of the turned view).
static AXIS_MOVES: std::sync::LazyLock<[[Move; 18]; 3]> = std::sync::LazyLock::new(|| {
    let mut moves = [[Move::from_index(0); 18]; 3];
    for mv in Move::all() {
        moves[0][mv.index()] = mv;
        for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
            moves[j + 1][mv.index()] = rotation.map_move(mv);
        }
    }
    moves
});

/// Axis (0 U-D, 1 R-L, 2 F-B) of a move.
#[inline]
pub(super) fn axis(mv: Move) -> usize {
    mv.face().index() % 3
}

/// Views per batch of coset reads: six for each of 18 children.
const MAX_VIEW_READS: usize = 6 * 18;

/// The table reads of one stage of evaluating a node's children: which view of which
/// child, its raw coordinates, their class entry, and its index in each coset table.
/// Filled in three steps, each asking for the memory the next one reads
/// ([`KorfSolver::coset_locate`], [`KorfSolver::coset_index`],
/// [`KorfSolver::coset_finish`]), so that a caller can do other work between them.
#[derive(Clone, Copy)]
pub(super) struct StageReads {
    at: [(u8, u8); MAX_VIEW_READS],
    raw: [RawCoordinates; MAX_VIEW_READS],
    index: [[usize; MAX_VIEW_READS]; MAX_COSET_TABLES],
    len: usize,
    /// The stage these reads belong to.
    stage: usize,
}

impl StageReads {
    /// No reads.
    pub(super) const EMPTY: StageReads = StageReads {
        at: [(0, 0); MAX_VIEW_READS],
        raw: [[0; 4]; MAX_VIEW_READS],
        index: [[0; MAX_VIEW_READS]; MAX_COSET_TABLES],
        len: 0,
        stage: 0,
    };
}

impl KorfSolver<'_> {
    /// Lower bounds from coset tables (every table measures the distance to a coset of a
    /// group holding U and D turns, `docs/rubik-optimal.md`) for `nodes`, in QTM raised to
    /// the parity of `budget`, filling in their view values. With `from = (parent,
    /// moves)`, node `k` is the parent's child by `moves[k]` and holds only its U-D views
    /// (the rest is derived here for the children that need it):
    ///
    /// - a child reached by a turn on axis `a` inherits its parent's inverse view `a`
    ///   (the turn comes before the inverse, and turns on the view's U-D axis are in the
    ///   group), so at most five reads per child;
    /// - reads in stages ([`CosetTables::stages`]): the U-D views for every child, the
    ///   other four only for the children the first two did not prune, and with two
    ///   tables the second on every view for the children still alive;
    /// - a table value `x` on view `2a` also says no solution of length `x >= 1` ends
    ///   with a turn on axis `a`, on view `2a + 1` that none starts with one: if the
    ///   three forward (or inverse) views all reach a bound of at least 1, the bound goes
    ///   up one step.
    pub(super) fn coset_evaluate(
        &self,
        coset: CosetTables,
        nodes: &mut [CosetNode],
        from: Option<(&CosetNode, &[Move])>,
        budget: u32,
        out: &mut [u32],
    ) {
        let mut alive = [true; 18];
        let mut reads = StageReads::EMPTY;
        for stage in 0..coset.stages() {
            Self::coset_locate(nodes, from, stage, &alive, &mut reads);
            self.coset_index(coset, &mut reads);
            self.coset_finish(coset, nodes, stage, budget, &mut alive, &reads, out);
        }
    }

    /// The first step of stage `stage` (0: the U-D views, 1: the other four, 2: all six
    /// in the second table) of [`Self::coset_evaluate`], for the nodes still `alive`: in
    /// stage 1, moves their other views; copies inherited values; computes the raw
    /// coordinates of every other view of the stage and asks for their class entries.
    pub(super) fn coset_locate(
        nodes: &mut [CosetNode],
        from: Option<(&CosetNode, &[Move])>,
        stage: usize,
        alive: &[bool; 18],
        reads: &mut StageReads,
    ) {
        // The view node `k` inherits from its parent, if any.
        let inherited = |k: usize| from.map(|(_, moves)| 2 * axis(moves[k]) + 1);
        let mut w = 0;
        for k in (0..nodes.len()).filter(|&k| alive[k]) {
            let node = &mut nodes[k];
            if stage == 1 {
                if let Some((parent, moves)) = from {
                    for a in 1..3 {
                        node.step_axis(parent, a, moves[k]);
                    }
                }
            }
            let views = match stage {
                0 => 0..2,
                1 => 2..6,
                _ => 0..6,
            };
            for v in views {
                match from {
                    Some((parent, _)) if inherited(k) == Some(v) => {
                        node.values[v] = parent.values[v]
                    }
                    _ => {
                        reads.raw[w] = node.raw(v);
                        reads.at[w] = (k as u8, v as u8);
                        w += 1;
                    }
                }
            }
        }
        reads.len = w;
        reads.stage = stage;
        let mut pairs = [0u32; MAX_VIEW_READS];
        for (pair, raw) in pairs.iter_mut().zip(&reads.raw[..w]) {
            *pair = raw[0];
        }
        flipslice::prefetch_class_entries(&pairs[..w]);
    }

    /// The second step: reads the class entries, computes each view's index in every
    /// coset table of the stage and asks for its table line.
    pub(super) fn coset_index(&self, coset: CosetTables, reads: &mut StageReads) {
        let w = reads.len;
        let mut pairs = [0u32; MAX_VIEW_READS];
        for (pair, raw) in pairs.iter_mut().zip(&reads.raw[..w]) {
            *pair = raw[0];
        }
        let mut entries = [0u32; MAX_VIEW_READS];
        flipslice::class_entries(&pairs[..w], &mut entries[..w]);
        let tables = &self.pdbs.tables;
        for t in coset.of_stage(reads.stage) {
            let (table, refinement) = coset.tables[t];
            let index = &mut reads.index[t][..w];
            flipslice::finish_indices(refinement, &reads.raw[..w], &entries[..w], index);
            let table = tables[table].entries();
            for &i in index.iter() {
                table.prefetch(i);
            }
        }
    }

    /// The last step of stage `stage`: reads the entries [`Self::coset_index`] asked
    /// for (the largest over the coset tables and, in stage 2, the view's value so far),
    /// stores them as view values, and for every
    /// node still `alive` writes its bound to `out` and whether it stays within `budget`
    /// to `alive`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn coset_finish(
        &self,
        coset: CosetTables,
        nodes: &mut [CosetNode],
        stage: usize,
        budget: u32,
        alive: &mut [bool; 18],
        reads: &StageReads,
        out: &mut [u32],
    ) {
        let qtm = self.pdbs.metric() == Metric::Qtm;
        let step = if qtm { 2 } else { 1 };
        let raise = |h: u32| {
            if qtm && (h ^ budget) & 1 == 1 {
                h + 1
            } else {
                h
            }
        };
        let w = reads.len;
        let mut read = [0u8; MAX_VIEW_READS];
        if stage == 2 {
            for (r, &(k, v)) in read.iter_mut().zip(&reads.at[..w]) {
                *r = nodes[k as usize].values[v as usize];
            }
        }
        let tables = &self.pdbs.tables;
        for t in coset.of_stage(stage) {
            let table = tables[coset.tables[t].0].entries();
            table.raise_to(&reads.index[t][..w], &mut read[..w]);
        }
        for (&(k, v), &value) in reads.at[..w].iter().zip(&read[..w]) {
            nodes[k as usize].values[v as usize] = value;
        }
        for k in 0..nodes.len() {
            if !alive[k] {
                continue;
            }
            let v = nodes[k].values.map(u32::from);
            out[k] = if stage == 0 {
                raise(v[0].max(v[1]))
            } else {
                let h = raise(v.iter().copied().max().unwrap_or(0));
                let forward = v[0].min(v[2]).min(v[4]);
                let inverse = v[1].min(v[3]).min(v[5]);
                // (A solution of length 0 has no last turn: the rule needs h >= 1.)
                if h > 0 && (forward >= h || inverse >= h) {
                    h + step
                } else {
                    h
                }
            };
            alive[k] = out[k] <= budget;
        }
    }
}
