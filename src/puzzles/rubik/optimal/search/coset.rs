//! The coset heuristic of the flip-slice-twist presets (large, huge, 2g, 5g, 8g): their
//! tables measure the distance to a coset of a group holding U and D turns, so each is
//! read on six views of a position (along each axis, on the position and its inverse),
//! in order of the parent's values, with inherited views, the x,x,x rule and skipped
//! first axes (`docs/rubik-optimal.md`).

use super::KorfSolver;
use crate::puzzles::rubik::coord::flipslice::Tables;
use crate::puzzles::rubik::coord::flipslice::{self, RawCoordinates, Refinement};
use crate::puzzles::rubik::model::cube::{Cube, Move, MOVE_COUNT};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::model::packed::{PackedCube, MOVE_PACKED};
use crate::puzzles::rubik::model::symmetry::AXIS_ROTATIONS;
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

    /// Builds now what the coset search builds on first use (the coordinate tables,
    /// about 40 ms, and the axis turns), so that a solver opened before a batch or a
    /// service's first query does not spend it inside its first solve.
    pub(super) fn prepare(&self) {
        std::sync::LazyLock::force(&AXIS_TURNS);
        let _ = flipslice::coordinate_tables();
    }

    /// How many stages of reads evaluate a node's children ([`Stage`]): the view most
    /// likely to prune each child, the next one, then the rest; with two tables, a fourth
    /// stage reads the second table on every view, only for the children the first table
    /// did not prune (read on every child, the second table cost more in reads than it
    /// saved in nodes).
    #[inline]
    pub(super) fn stages(&self) -> usize {
        if self.len > 1 {
            4
        } else {
            3
        }
    }

    /// What stage `i` reads of a node's children.
    #[inline]
    fn stage(&self, i: usize) -> Stage {
        match i {
            0 | 1 => Stage::Best(i as u8),
            2 => Stage::Rest,
            _ => Stage::Second,
        }
    }

    /// The coset tables (positions in [`Self::tables`]) read in stage `stage`.
    #[inline]
    fn of_stage(&self, stage: Stage) -> std::ops::Range<usize> {
        match stage {
            Stage::Second => 1..self.len,
            _ => 0..1,
        }
    }
}

/// What one stage of evaluating a node's children reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// The `j`-th view of each child (from 0) in the order of its parent's values,
    /// highest first, leaving out the inherited one: a view whose parent value is at the
    /// budget prunes the child three times in four, one lower far less often
    /// (`docs/rubik-optimal.md`, "Reads in order").
    Best(u8),
    /// Every view of each child not yet read, in the first table.
    Rest,
    /// Every view of each child in the second table (children the first left alive).
    Second,
}

/// Table values of the six views of a position: view `2a` is the
/// position seen along axis `a` (U-D, R-L, F-B), view `2a + 1` its inverse.
pub(crate) type ViewValues = [u8; 6];

/// A position in the coset search, kept as its six views, each a packed cube: the
/// position seen along each axis (moved by composing with the turn after it) and its
/// inverse seen along each axis (moved by composing with the inverse turn before it),
/// each a byte shuffle. A view's raw coordinates are computed when it is read, by vector
/// compares and tables of a few KB: faster than moving raw coordinates through the flip
/// and twist move tables (70-80 KB each), as the forward views were until 2026-11-27
/// (`docs/rubik-optimal.md`, "Inherited views, incremental views").
#[derive(Debug, Clone, Copy)]
pub(crate) struct CosetNode {
    /// The position seen along axis `a`.
    forward: [PackedCube; 3],
    /// The inverse of the position, seen along axis `a`.
    inverse: [PackedCube; 3],
    /// Table values of the six views: `2a` the position along axis `a`, `2a + 1` its
    /// inverse.
    pub(super) values: ViewValues,
    /// Whether the raw coordinates follow the U-edge slots ([`CosetTables::up_edges`]).
    up_edges: bool,
}

impl CosetNode {
    /// A placeholder to fill arrays with (not any position's node).
    pub(super) const EMPTY: CosetNode = CosetNode {
        forward: [PackedCube::SOLVED; 3],
        inverse: [PackedCube::SOLVED; 3],
        values: [0; 6],
        up_edges: false,
    };

    /// The node of `cube` (inverse `inv`), values not yet read, following the U-edge
    /// slots if `up_edges`.
    pub(super) fn of(cube: &Cube, inv: &Cube, up_edges: bool) -> Self {
        let mut node = CosetNode {
            forward: [PackedCube::of(cube); 3],
            inverse: [PackedCube::of(inv); 3],
            values: [0; 6],
            up_edges,
        };
        for (j, rotation) in AXIS_ROTATIONS.iter().enumerate() {
            let (turned, turned_inv) = (rotation.conjugate(cube), rotation.conjugate(inv));
            node.forward[j + 1] = PackedCube::of(&turned);
            node.inverse[j + 1] = PackedCube::of(&turned_inv);
        }
        node
    }

    /// Whether the position is solved.
    #[inline]
    pub(super) fn is_solved(&self) -> bool {
        self.inverse[0].is_solved()
    }

    /// Raw coordinates of view `v`.
    #[inline(always)]
    fn raw(&self, t: &Tables, v: usize) -> RawCoordinates {
        let cube = match v % 2 {
            0 => &self.forward[v / 2],
            _ => &self.inverse[v / 2],
        };
        flipslice::raw_coordinates_packed_in(t, cube, self.up_edges)
    }

    /// Views along axis `a` of this node's child by move `m` (by index).
    #[inline(always)]
    fn step_axis(&mut self, turns: &AxisTurns, parent: &CosetNode, a: usize, m: usize) {
        self.forward[a] = parent.forward[a].then(&turns.turn[a][m]);
        self.up_edges = parent.up_edges;
        self.inverse[a] = turns.undo[a][m].then(&parent.inverse[a]);
    }
}

/// The turns of the views, packed: move `m` as seen along axis `a` (the move of the
/// turned view, which the forward view takes last) and the inverse of that move (which
/// the inverse view takes first).
struct AxisTurns {
    turn: [[PackedCube; MOVE_COUNT]; 3],
    undo: [[PackedCube; MOVE_COUNT]; 3],
}

static AXIS_TURNS: std::sync::LazyLock<AxisTurns> = std::sync::LazyLock::new(|| {
    let mut turns = AxisTurns {
        turn: [[PackedCube::SOLVED; MOVE_COUNT]; 3],
        undo: [[PackedCube::SOLVED; MOVE_COUNT]; 3],
    };
    for mv in Move::all() {
        for a in 0..3 {
            let seen = match a {
                0 => mv,
                _ => AXIS_ROTATIONS[a - 1].map_move(mv),
            };
            turns.turn[a][mv.index()] = MOVE_PACKED[seen.index()];
            turns.undo[a][mv.index()] = MOVE_PACKED[seen.inverse().index()];
        }
    }
    turns
});

/// Axis (0 U-D, 1 R-L, 2 F-B) of a move.
#[inline]
pub(super) fn axis(mv: Move) -> usize {
    AXIS_OF_MOVE[mv.index()] as usize
}

/// The axis of each move by index (faces in URFDLB order, three turns each): one load
/// where the search asks for it, several times per child.
const AXIS_OF_MOVE: [u8; MOVE_COUNT] = {
    let mut axes = [0; MOVE_COUNT];
    let mut m = 0;
    while m < MOVE_COUNT {
        axes[m] = (m / 3 % 3) as u8;
        m += 1;
    }
    axes
};

/// Views per batch of coset reads: six for each of 18 children.
const MAX_VIEW_READS: usize = 6 * 18;

/// The table reads of one stage of evaluating a node's children: which view of which
/// child, its raw coordinates, their class entry, and its index in each coset table.
/// Filled in three steps, each asking for the memory the next one reads
/// ([`KorfSolver::coset_locate`], [`KorfSolver::coset_index`],
/// [`KorfSolver::coset_finish`]), so that a caller can do other work between them.
/// It also keeps, across the stages of one expansion, which views of each child are
/// known and which axes are moved, and the parent's views in the order they are read.
#[derive(Clone, Copy)]
pub(super) struct StageReads {
    at: [(u8, u8); MAX_VIEW_READS],
    raw: [RawCoordinates; MAX_VIEW_READS],
    index: [[usize; MAX_VIEW_READS]; MAX_COSET_TABLES],
    len: usize,
    /// The stage these reads belong to.
    stage: Stage,
    /// Per child, bit `v` set when view `v` holds a value read (or inherited), not a
    /// bound from the parent's.
    known: [u8; 18],
    /// Per child, bit `a` set when its views along axis `a` are moved.
    moved: [u8; 18],
    /// For a child by a turn on axis `a`, `best[a]` lists its views in the order of the
    /// parent's values, highest first, its inherited view left out.
    best: [[u8; 5]; 3],
    /// The class entries of the reads.
    entries: [u32; MAX_VIEW_READS],
    /// Per child, the face it turns (an index in URFDLB), when the children share a
    /// parent ([`Self::siblings`]).
    face: [u8; 18],
    /// Whether the children are one parent's, so that a child's bound also bounds its
    /// siblings by turns of the same face (the sibling cut, [`KorfSolver::coset_finish`]).
    siblings: bool,
}

impl StageReads {
    /// Ranks the parent's views by value, highest first (ties in view order), into
    /// [`Self::best`] for each axis a child may be reached on.
    #[inline]
    fn rank_views(&mut self, parent: &CosetNode) {
        let mut order = [0u8, 1, 2, 3, 4, 5];
        for i in 1..6 {
            let mut j = i;
            while j > 0 && parent.values[order[j] as usize] > parent.values[order[j - 1] as usize] {
                order.swap(j, j - 1);
                j -= 1;
            }
        }
        for (a, best) in self.best.iter_mut().enumerate() {
            let mut at = 0;
            for &v in &order {
                if v as usize != 2 * a + 1 {
                    best[at] = v;
                    at += 1;
                }
            }
        }
    }

    /// Adds a read of view `v` of child `k` (`node`), asking for its class entry.
    #[inline(always)]
    fn push(&mut self, t: &Tables, class_bytes: &[u8], node: &CosetNode, k: usize, v: usize) {
        let raw = node.raw(t, v);
        crate::table::prefetch(class_bytes, raw[0] as usize * 4);
        let w = self.len;
        self.raw[w] = raw;
        self.at[w] = (k as u8, v as u8);
        self.len = w + 1;
    }

    /// No reads.
    pub(super) const EMPTY: StageReads = StageReads {
        at: [(0, 0); MAX_VIEW_READS],
        raw: [[0; 4]; MAX_VIEW_READS],
        index: [[0; MAX_VIEW_READS]; MAX_COSET_TABLES],
        len: 0,
        stage: Stage::Rest,
        known: [0; 18],
        moved: [0; 18],
        best: [[0; 5]; 3],
        entries: [0; MAX_VIEW_READS],
        face: [0; 18],
        siblings: false,
    };
}

impl KorfSolver<'_> {
    /// Lower bounds from coset tables (every table measures the distance to a coset of a
    /// group holding U and D turns, `docs/rubik-optimal.md`) for `nodes`, in QTM raised to
    /// the parity of `budget`, filling in their view values. With `from = (parent,
    /// moves)`, node `k` is the parent's child by `moves[k]` and holds none of its views
    /// yet (each is moved here when a stage first reads it):
    ///
    /// - a child reached by a turn on axis `a` inherits its parent's inverse view `a`
    ///   (the turn comes before the inverse, and turns on the view's U-D axis are in the
    ///   group), so at most five reads per child;
    /// - a view not read yet is bounded by its parent's value less one: one move changes
    ///   a forward view's coset distance by at most one; an inverse view's value bounds
    ///   the distance, which one move changes by at most one, but nothing else (the move
    ///   comes before the inverse), so the x,x,x rule below reads the inverse views only
    ///   once all are read or inherited;
    /// - reads in stages ([`CosetTables::stages`], [`Stage`]), each only for the children
    ///   the stages before did not prune;
    /// - a table value `x` on view `2a` also says no solution of length `x >= 1` ends
    ///   with a turn on axis `a`, on view `2a + 1` that none starts with one: if the
    ///   three forward (or inverse) views all reach a bound of at least 1, the bound goes
    ///   up one step;
    /// - children by turns of one face are one move apart (two in quarter turns): a
    ///   child's bound above the budget by more than that prunes its siblings on that
    ///   face, unread (the sibling cut, [`Self::coset_finish`]).
    ///
    /// Without a parent, every view is read at once.
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
        let first = if from.is_some() { 0 } else { 2 };
        for stage in first..coset.stages() {
            self.coset_locate(coset, nodes, from, stage, &alive, &mut reads);
            self.coset_index(coset, &mut reads);
            self.coset_finish(coset, nodes, budget, &mut alive, &reads, out);
        }
    }

    /// The first step of stage `stage` ([`CosetTables::stage`]) of
    /// [`Self::coset_evaluate`], for the nodes still `alive`: moves the views it reads
    /// (the first stage also sets the inherited view and the parent's bounds on the
    /// others), computes their raw coordinates and asks for their class entries.
    pub(super) fn coset_locate(
        &self,
        coset: CosetTables,
        nodes: &mut [CosetNode],
        from: Option<(&CosetNode, &[Move])>,
        stage: usize,
        alive: &[bool; 18],
        reads: &mut StageReads,
    ) {
        let (t, turns) = (flipslice::coordinate_tables(), &*AXIS_TURNS);
        let class_bytes = flipslice::class_bytes(t);
        let stage = coset.stage(stage);
        reads.stage = stage;
        reads.len = 0;
        reads.siblings = from.is_some();
        let alive_children = (0..nodes.len()).filter(|&k| alive[k]);
        match (stage, from) {
            (Stage::Best(j), Some((parent, moves))) => {
                if j == 0 {
                    reads.rank_views(parent);
                }
                for k in alive_children {
                    let (node, m) = (&mut nodes[k], moves[k].index());
                    let a = axis(moves[k]);
                    if j == 0 {
                        let inherited = 2 * a + 1;
                        node.values = parent.values.map(|v| v.saturating_sub(1));
                        node.values[inherited] = parent.values[inherited];
                        reads.known[k] = 1 << inherited;
                        reads.moved[k] = 0;
                        reads.face[k] = (m / 3) as u8;
                    }
                    let v = reads.best[a][j as usize] as usize;
                    if reads.moved[k] >> (v / 2) & 1 == 0 {
                        node.step_axis(turns, parent, v / 2, m);
                        reads.moved[k] |= 1 << (v / 2);
                    }
                    reads.known[k] |= 1 << v;
                    reads.push(t, class_bytes, node, k, v);
                }
            }
            (Stage::Rest, Some((parent, moves))) => {
                for k in alive_children {
                    let (node, m) = (&mut nodes[k], moves[k].index());
                    let mut unmoved = !reads.moved[k] & 0b111;
                    while unmoved != 0 {
                        let a = unmoved.trailing_zeros() as usize;
                        unmoved &= unmoved - 1;
                        node.step_axis(turns, parent, a, m);
                    }
                    reads.moved[k] = 0b111;
                    let mut views = !reads.known[k] & 0x3F;
                    reads.known[k] = 0x3F;
                    while views != 0 {
                        let v = views.trailing_zeros() as usize;
                        views &= views - 1;
                        reads.push(t, class_bytes, node, k, v);
                    }
                }
            }
            // Without a parent there is no order to read in: every view at once.
            (Stage::Best(_), None) => {}
            // A node without a parent, or the second table: every view, all moved.
            (Stage::Rest, None) | (Stage::Second, _) => {
                for k in alive_children {
                    reads.known[k] = 0x3F;
                    reads.moved[k] = 0b111;
                    for v in 0..6 {
                        reads.push(t, class_bytes, &nodes[k], k, v);
                    }
                }
            }
        }
    }

    /// The second step: reads the class entries, computes each view's index in every
    /// coset table of the stage and asks for its table line.
    pub(super) fn coset_index(&self, coset: CosetTables, reads: &mut StageReads) {
        let w = reads.len;
        let class_bytes = flipslice::class_bytes(flipslice::coordinate_tables());
        flipslice::class_entries_of(class_bytes, &reads.raw[..w], &mut reads.entries[..w]);
        let tables = &self.pdbs.tables;
        for t in coset.of_stage(reads.stage) {
            let (table, refinement) = coset.tables[t];
            let index = &mut reads.index[t][..w];
            flipslice::finish_indices(refinement, &reads.raw[..w], &reads.entries[..w], index);
            let table = tables[table].entries();
            for &i in index.iter() {
                table.prefetch(i);
            }
        }
    }

    /// The last step of a stage: reads the entries [`Self::coset_index`] asked for
    /// (the largest over the coset tables and, in the second table's stage, the view's
    /// value so far), stores them as view values, and for every node still `alive`
    /// writes its bound to `out` and whether it stays within `budget` to `alive`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn coset_finish(
        &self,
        coset: CosetTables,
        nodes: &mut [CosetNode],
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
        if reads.stage == Stage::Second {
            for (r, &(k, v)) in read.iter_mut().zip(&reads.at[..w]) {
                *r = nodes[k as usize].values[v as usize];
            }
        }
        let tables = &self.pdbs.tables;
        for t in coset.of_stage(reads.stage) {
            let table = tables[coset.tables[t].0].entries();
            table.raise_to(&reads.index[t][..w], &mut read[..w]);
        }
        for (&(k, v), &value) in reads.at[..w].iter().zip(&read[..w]) {
            nodes[k as usize].values[v as usize] = value;
        }
        // The bounds of the children read in this stage (the reads come child by child).
        // The sibling cut: the children by turns of one face are one move apart in half
        // turns (`X F2 = (X F) F`, `X F' = (X F) F2`), two in quarter turns, so a child
        // whose bound (a lower bound on its distance) exceeds the budget by more than
        // that step bounds its siblings on that face above the budget: they are pruned
        // without reading their other views. Per face, the largest such bound.
        let (mut cut_faces, mut face_bound) = (0u8, [0u32; 6]);
        let mut r = 0;
        while r < w {
            let k = reads.at[r].0 as usize;
            while r < w && reads.at[r].0 as usize == k {
                r += 1;
            }
            let v = nodes[k].values.map(u32::from);
            let h = raise(v.iter().copied().max().unwrap_or(0));
            let forward = v[0].min(v[2]).min(v[4]);
            // An inverse view's bound from its parent bounds the distance, not the view's
            // own coset distance (the move comes before the inverse): the rule reads only
            // inverse views read or inherited.
            let inverse = if reads.known[k] & 0b10_1010 == 0b10_1010 {
                v[1].min(v[3]).min(v[5])
            } else {
                0
            };
            // (A solution of length 0 has no last turn: the rule needs h >= 1.)
            out[k] = if h > 0 && (forward >= h || inverse >= h) {
                h + step
            } else {
                h
            };
            alive[k] = out[k] <= budget;
            if reads.siblings && out[k] > budget + step {
                let f = reads.face[k] as usize;
                face_bound[f] = face_bound[f].max(out[k] - step);
                cut_faces |= 1 << f;
            }
        }
        if cut_faces != 0 {
            for k in 0..nodes.len() {
                let f = reads.face[k] as usize;
                if alive[k] && cut_faces >> f & 1 == 1 {
                    alive[k] = false;
                    out[k] = out[k].max(face_bound[f]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::axis;
    use crate::puzzles::rubik::model::cube::Move;

    #[test]
    fn the_axis_table_agrees_with_the_faces() {
        for mv in Move::all() {
            assert_eq!(axis(mv), mv.face().index() % 3, "{mv:?}");
            assert_eq!(axis(mv), mv.face().opposite().index() % 3, "{mv:?}");
        }
    }
}
