//! The depth-first search of one IDA* iteration: one body for both heuristics, generic
//! over the node it carries ([`CubeNode`] for any tables, [`CosetNode`] for coset tables;
//! each monomorphised, so neither pays for the other).

use super::coset::{axis, CosetNode, StageReads};
use super::KorfSolver;
use crate::limits::Stop;
use crate::puzzles::rubik::model::cube::{Cube, Move};
use crate::puzzles::rubik::model::turns::MOVE_CUBES;
use std::sync::atomic::{AtomicBool, Ordering};

/// Outcome of searching one subtree.
pub(super) enum Step {
    Found,
    /// Smallest f above the bound seen (u32::MAX if none).
    Exceeded(u32),
}

/// A position with its inverse: the node of the search over any tables (each table is
/// read on the position and on its inverse, which has the same distance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CubeNode {
    /// The position.
    pub cube: Cube,
    /// Its inverse.
    pub inv: Cube,
}

impl CubeNode {
    /// A placeholder to fill arrays with.
    const EMPTY: CubeNode = CubeNode {
        cube: Cube::SOLVED,
        inv: Cube::SOLVED,
    };

    /// The node of `cube`.
    pub fn of(cube: &Cube) -> Self {
        Self {
            cube: *cube,
            inv: cube.inverse(),
        }
    }

    /// The node after `mv`: the move before the inverse.
    #[inline]
    pub fn after(&self, mv: Move) -> Self {
        Self {
            cube: self.cube.apply(mv),
            inv: MOVE_CUBES[mv.inverse().index()].then(&self.inv),
        }
    }
}

/// What the search needs of a node: whether it is solved, and its canonical children
/// with their lower bounds.
pub(super) trait Node: Copy {
    /// A fill for the arrays the children are written into (each array is reused by
    /// every node at its depth).
    fn seed(&self) -> [Self; 18];

    /// Whether the position is solved.
    fn is_solved(&self) -> bool;

    /// Writes the children allowed after the last two turns `front` into `kids` (their
    /// moves into `moves`) and their lower bounds into `bounds`, with `remaining` moves
    /// left to the iteration's bound. Returns the number of children and the least f
    /// value the moves left out could reach (`u32::MAX` if none was left out).
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &self,
        solver: &KorfSolver<'_>,
        all_moves: &[Move],
        front: [Option<Move>; 2],
        bound: u32,
        remaining: u32,
        kids: &mut [Self; 18],
        moves: &mut [Move; 18],
        bounds: &mut [u32; 18],
    ) -> (usize, u32);
}

impl Node for CubeNode {
    #[inline]
    fn seed(&self) -> [Self; 18] {
        [CubeNode::EMPTY; 18]
    }

    #[inline]
    fn is_solved(&self) -> bool {
        self.cube.is_solved()
    }

    #[inline]
    fn expand(
        &self,
        solver: &KorfSolver<'_>,
        all_moves: &[Move],
        front: [Option<Move>; 2],
        _bound: u32,
        remaining: u32,
        kids: &mut [Self; 18],
        moves: &mut [Move; 18],
        bounds: &mut [u32; 18],
    ) -> (usize, u32) {
        let mut n = 0;
        for &mv in all_moves {
            if solver.may_follow(front[0], front[1], mv) {
                kids[n] = self.after(mv);
                moves[n] = mv;
                n += 1;
            }
        }
        solver.generic_bounds(&kids[..n], remaining - 1, &mut bounds[..n]);
        (n, u32::MAX)
    }
}

impl Node for CosetNode {
    /// Copies of the node, only to fill the arrays: `expand` and the evaluation write
    /// every field a child's search reads.
    #[inline]
    fn seed(&self) -> [Self; 18] {
        [*self; 18]
    }

    #[inline]
    fn is_solved(&self) -> bool {
        CosetNode::is_solved(self)
    }

    #[inline]
    fn expand(
        &self,
        solver: &KorfSolver<'_>,
        all_moves: &[Move],
        front: [Option<Move>; 2],
        bound: u32,
        remaining: u32,
        kids: &mut [Self; 18],
        moves: &mut [Move; 18],
        bounds: &mut [u32; 18],
    ) -> (usize, u32) {
        let Some(coset) = solver.coset else {
            unreachable!("coset nodes are made only for coset tables");
        };
        let (n, least) = self.children(solver, all_moves, front, bound, remaining, moves);
        solver.coset_evaluate(
            coset,
            &mut kids[..n],
            Some((self, &moves[..n])),
            remaining - 1,
            &mut bounds[..n],
        );
        (n, least)
    }
}

impl CosetNode {
    /// Writes the moves of the children allowed after the last two turns `front` into
    /// `moves` (their views are moved when first read, [`KorfSolver::coset_locate`]),
    /// with `remaining` moves left to the iteration's `bound`. Returns their number and
    /// the least f value of the children left out (`u32::MAX` if none): a solution of
    /// exactly the remaining length cannot start with a turn on an axis whose inverse
    /// view already needs that many, so those children may only have solutions one
    /// longer.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn children(
        &self,
        solver: &KorfSolver<'_>,
        all_moves: &[Move],
        front: [Option<Move>; 2],
        bound: u32,
        remaining: u32,
        moves: &mut [Move; 18],
    ) -> (usize, u32) {
        let mut skipped_axes = 0u32;
        for a in 0..3 {
            skipped_axes |= u32::from(u32::from(self.values[2 * a + 1]) >= remaining) << a;
        }
        let mut n = 0;
        for &mv in all_moves {
            if skipped_axes >> axis(mv) & 1 == 0 && solver.may_follow(front[0], front[1], mv) {
                moves[n] = mv;
                n += 1;
            }
        }
        let least = if skipped_axes != 0 {
            bound + 1
        } else {
            u32::MAX
        };
        (n, least)
    }
}

/// How close the search of a subtree came to a solution: the sum, over the nodes it
/// expanded, of `CLOSENESS_BASE` to the power of minus the moves left to the iteration's
/// bound. A node expanded with few moves left has a bound low for its depth; the next
/// iteration, one move longer, finds a solution below such nodes far more often than
/// elsewhere, so it searches first the subtrees that came closest (measured:
/// `docs/rubik-optimal.md`, "The last iteration"). The steep base makes the fewest moves
/// left decide, and the number of nodes that close break near ties.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct Closeness(pub(super) f64);

/// How much more a node with one move less left weighs in a [`Closeness`] (4, 13 and 30
/// did worse, 1000 the same: `docs/rubik-optimal.md`).
const CLOSENESS_BASE: f64 = 100.0;

/// `CLOSENESS_BASE` to the power of minus `i`, for `i` moves left (nodes with more left
/// than the table holds weigh nothing: they are at the top of an iteration's tree).
const CLOSENESS_WEIGHTS: [f64; 48] = {
    let mut weights = [0.0; 48];
    let (mut i, mut weight) = (0, 1.0);
    while i < weights.len() {
        weights[i] = weight;
        weight /= CLOSENESS_BASE;
        i += 1;
    }
    weights
};

impl Closeness {
    /// Counts a node expanded with `left` moves left.
    #[inline]
    pub(super) fn note(&mut self, left: u32) {
        self.0 += CLOSENESS_WEIGHTS.get(left as usize).copied().unwrap_or(0.0);
    }

    /// A key that orders closenesses as their values (a non-negative float orders as its
    /// bits).
    pub(super) fn key(self) -> u64 {
        self.0.max(0.0).to_bits()
    }
}

/// One thread's share of an iteration.
pub(super) struct Search<'a> {
    solver: KorfSolver<'a>,
    moves: Vec<Move>,
    stop: &'a AtomicBool,
    /// Positions generated so far.
    pub(super) nodes: u64,
    /// How close the recursive search ([`Search::dfs`]) came to a solution so far.
    pub(super) closeness: Closeness,
    /// When to give up (checked at the first call and every 4096; reaching it sets
    /// `stop`).
    limit: &'a Stop,
    calls: u32,
}

impl<'a> Search<'a> {
    /// A search by `solver` over `moves`, stopping when `stop` is set (another task found
    /// a solution) or `limit` is reached.
    pub(super) fn new(
        solver: KorfSolver<'a>,
        moves: &[Move],
        stop: &'a AtomicBool,
        limit: &'a Stop,
    ) -> Self {
        Self {
            solver,
            moves: moves.to_vec(),
            stop,
            nodes: 0,
            closeness: Closeness::default(),
            limit,
            calls: 0,
        }
    }

    /// [`Search::dfs`] below the position `cube` (inverse `inv`): as its coset node when
    /// the solver has coset tables (`node`), else as a cube and its inverse.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn below(
        &mut self,
        node: Option<CosetNode>,
        cube: &Cube,
        inv: &Cube,
        g: u32,
        bound: u32,
        front: [Option<Move>; 2],
        path: &mut Vec<Move>,
    ) -> Step {
        // One array of children per depth below, reused by every node at that depth.
        let depths = bound.saturating_sub(g) as usize;
        match node {
            Some(node) => {
                let mut kids = vec![node.seed(); depths];
                self.dfs(&node, g, bound, front, path, &mut kids)
            }
            None => {
                let node = CubeNode {
                    cube: *cube,
                    inv: *inv,
                };
                let mut kids = vec![node.seed(); depths];
                self.dfs(&node, g, bound, front, path, &mut kids)
            }
        }
    }

    /// Time to stop: the limit was reached (checked at the first call, then every 4096)
    /// or another task found a solution. The first call checks too because a search
    /// below one prefix often makes fewer calls than that: otherwise a deadline or a
    /// cancel would wait for the end of a whole iteration of such searches.
    #[inline]
    fn should_stop(&mut self) -> bool {
        let check = self.calls.is_multiple_of(4096);
        self.calls = self.calls.wrapping_add(1);
        if check && self.limit.reached() {
            self.stop.store(true, Ordering::Relaxed);
        }
        self.stop.load(Ordering::Relaxed)
    }

    /// Searches below `node` at depth `g` for a solution of exactly `bound` moves; `front`
    /// holds the last two turns made. All children first, then all their table entries
    /// (independent memory reads that overlap), then the search below the promising ones.
    fn dfs<N: Node>(
        &mut self,
        node: &N,
        g: u32,
        bound: u32,
        front: [Option<Move>; 2],
        path: &mut Vec<Move>,
        kids_below: &mut [[N; 18]],
    ) -> Step {
        if node.is_solved() {
            return Step::Found;
        }
        if g >= bound {
            return Step::Exceeded(g + 1);
        }
        if self.should_stop() {
            return Step::Exceeded(u32::MAX);
        }
        let Some((kids, kids_below)) = kids_below.split_first_mut() else {
            unreachable!("one array of children per depth below the bound");
        };
        let mut kid_moves = [Move::from_index(0); 18];
        let mut bounds = [0u32; 18];
        let (n, mut least) = node.expand(
            &self.solver,
            &self.moves,
            front,
            bound,
            bound - g,
            kids,
            &mut kid_moves,
            &mut bounds,
        );
        self.nodes += n as u64;
        self.closeness.note(bound - g);
        let budget = bound - g - 1;
        for ((kid, &mv), &h) in kids[..n].iter().zip(&kid_moves[..n]).zip(&bounds[..n]) {
            if h > budget {
                least = least.min(g + 1 + h);
                continue;
            }
            path.push(mv);
            match self.dfs(kid, g + 1, bound, [front[1], Some(mv)], path, kids_below) {
                Step::Found => return Step::Found,
                Step::Exceeded(f) => least = least.min(f),
            }
            path.pop();
        }
        Step::Exceeded(least)
    }
}

/// One level of a [`Lane`]'s stack: a node, its children with their bounds, and how far
/// the search through them has got.
#[derive(Clone, Copy)]
struct Frame {
    /// The node whose children these are.
    node: CosetNode,
    /// Its depth.
    g: u32,
    /// The last two turns made to reach it.
    front: [Option<Move>; 2],
    kids: [CosetNode; 18],
    moves: [Move; 18],
    bounds: [u32; 18],
    /// Children not yet pruned by the stages read so far.
    alive: [bool; 18],
    n: usize,
    /// The next child to consider.
    next: usize,
    /// Least f above the bound seen below the node so far.
    least: u32,
    /// The reads of the stage under way.
    reads: StageReads,
}

impl Frame {
    fn empty() -> Frame {
        Frame {
            node: CosetNode::EMPTY,
            g: 0,
            front: [None; 2],
            kids: [CosetNode::EMPTY; 18],
            moves: [Move::from_index(0); 18],
            bounds: [0; 18],
            alive: [false; 18],
            n: 0,
            next: 0,
            least: u32::MAX,
            reads: StageReads::EMPTY,
        }
    }
}

/// Where a lane stopped.
pub(super) enum Poll {
    /// It asked for table lines and waits for them: run another lane meanwhile.
    Waiting,
    /// Its subtree is searched.
    Done(Step),
}

/// Which part of an expansion a lane does next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Read the class entries of stage `0` (the U-D views of the top frame's children)
    /// or `1` (their other views), and ask for the table lines.
    Index(usize),
    /// Read the table entries of the stage.
    Values(usize),
    /// Go on to the next child worth searching, or back up.
    Next,
}

/// The depth-first search of one subtree as a resumable machine over coset nodes: it
/// stops each time it has asked for table lines, so that a thread can run several lanes
/// in turn and each one's memory waits overlap the others' work (cube48opt searches the
/// same way). It visits the same nodes in the same order as [`Search::dfs`].
pub(super) struct Lane {
    frames: Vec<Frame>,
    /// Frames in use.
    depth: usize,
    phase: Phase,
    /// The moves from the iteration's root to the node being expanded.
    pub(super) path: Vec<Move>,
    /// How close the search of the current subtree came to a solution so far.
    pub(super) closeness: Closeness,
}

impl Lane {
    /// A lane for subtrees of at most `depths` levels of children.
    pub(super) fn new(depths: usize) -> Self {
        Lane {
            frames: vec![Frame::empty(); depths.max(1)],
            depth: 0,
            phase: Phase::Next,
            path: Vec::new(),
            closeness: Closeness::default(),
        }
    }

    /// Starts on the subtree below `node` at depth `g` (reached by `path`, the last two
    /// turns `front`) for a solution of exactly `bound` moves.
    pub(super) fn start(
        &mut self,
        search: &mut Search<'_>,
        node: &CosetNode,
        g: u32,
        bound: u32,
        front: [Option<Move>; 2],
        path: &[Move],
    ) -> Poll {
        self.depth = 0;
        self.closeness = Closeness::default();
        self.path.clear();
        self.path.extend_from_slice(path);
        match self.push(search, node, g, bound, front) {
            Some(step) => Poll::Done(step),
            None => Poll::Waiting,
        }
    }

    /// Enters `node` at depth `g`: a leaf result at once, or its children generated,
    /// their U-D lines asked for and the lane waiting (`None`).
    fn push(
        &mut self,
        search: &mut Search<'_>,
        node: &CosetNode,
        g: u32,
        bound: u32,
        front: [Option<Move>; 2],
    ) -> Option<Step> {
        if node.is_solved() {
            return Some(Step::Found);
        }
        if g >= bound {
            return Some(Step::Exceeded(g + 1));
        }
        if search.should_stop() {
            return Some(Step::Exceeded(u32::MAX));
        }
        let frame = &mut self.frames[self.depth];
        self.depth += 1;
        frame.node = *node;
        frame.g = g;
        frame.front = front;
        frame.next = 0;
        let (n, least) = node.children(
            &search.solver,
            &search.moves,
            front,
            bound,
            bound - g,
            &mut frame.moves,
        );
        frame.n = n;
        frame.least = least;
        frame.alive = [true; 18];
        search.nodes += n as u64;
        self.closeness.note(bound - g);
        let Some(coset) = search.solver.coset else {
            unreachable!("lanes run only over coset tables");
        };
        search.solver.coset_locate(
            coset,
            &mut frame.kids[..n],
            Some((node, &frame.moves[..n])),
            0,
            &frame.alive,
            &mut frame.reads,
        );
        self.phase = Phase::Index(0);
        None
    }

    /// Runs until the lane next waits for table lines, or its subtree is done.
    pub(super) fn resume(&mut self, search: &mut Search<'_>, bound: u32) -> Poll {
        let Some(coset) = search.solver.coset else {
            unreachable!("lanes run only over coset tables");
        };
        loop {
            let frame = &mut self.frames[self.depth - 1];
            let budget = bound - frame.g - 1;
            let n = frame.n;
            match self.phase {
                Phase::Index(stage) => {
                    search.solver.coset_index(coset, &mut frame.reads);
                    self.phase = Phase::Values(stage);
                    return Poll::Waiting;
                }
                Phase::Values(stage) => {
                    search.solver.coset_finish(
                        coset,
                        &mut frame.kids[..n],
                        budget,
                        &mut frame.alive,
                        &frame.reads,
                        &mut frame.bounds[..n],
                    );
                    if stage + 1 < coset.stages() && frame.alive[..n].iter().any(|&a| a) {
                        search.solver.coset_locate(
                            coset,
                            &mut frame.kids[..n],
                            Some((&frame.node, &frame.moves[..n])),
                            stage + 1,
                            &frame.alive,
                            &mut frame.reads,
                        );
                        self.phase = Phase::Index(stage + 1);
                        return Poll::Waiting;
                    }
                    self.phase = Phase::Next;
                }
                Phase::Next => {
                    if frame.next < n {
                        let k = frame.next;
                        frame.next += 1;
                        let h = frame.bounds[k];
                        if h > budget {
                            frame.least = frame.least.min(frame.g + 1 + h);
                            continue;
                        }
                        let (kid, mv, g) = (frame.kids[k], frame.moves[k], frame.g + 1);
                        let front = [frame.front[1], Some(mv)];
                        self.path.push(mv);
                        match self.push(search, &kid, g, bound, front) {
                            None => return Poll::Waiting,
                            Some(Step::Found) => return Poll::Done(Step::Found),
                            Some(Step::Exceeded(f)) => {
                                let frame = &mut self.frames[self.depth - 1];
                                frame.least = frame.least.min(f);
                                self.path.pop();
                            }
                        }
                    } else {
                        // Every child done: back up to the parent's next child.
                        let least = frame.least;
                        self.depth -= 1;
                        if self.depth == 0 {
                            return Poll::Done(Step::Exceeded(least));
                        }
                        let parent = &mut self.frames[self.depth - 1];
                        parent.least = parent.least.min(least);
                        self.path.pop();
                    }
                }
            }
        }
    }
}
