//! Iterative-deepening A* over any [`Puzzle`] with an admissible [`Heuristic`]: the first
//! optimal solution ([`ida_star`]), or every solution of a given length
//! ([`solutions_of_length`], [`par_solutions_of_length`]).
//!
//! Moves are tried in the order the puzzle lists them and only along canonical sequences
//! ([`Puzzle::follow`]), so the first solution found at the optimal bound is the smallest
//! optimal one in that order, and a listing of solutions comes out sorted in it (the
//! heuristic is admissible, so no optimal prefix is ever cut off).

use super::puzzle::{Heuristic, Puzzle};
use crate::limits::Stop;
use rayon::prelude::*;

/// Result of an IDA* run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdaOutcome<M> {
    /// An optimal solution, or `None` if none exists within the depth limit.
    pub solution: Option<Vec<M>>,
    /// Positions generated.
    pub nodes: u64,
}

/// Solutions of one length, and the work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<M> {
    /// The solutions, in move order; at most the limit asked for.
    pub solutions: Vec<Vec<M>>,
    /// Positions generated.
    pub nodes: u64,
    /// True when the stop came before the listing was complete (then it is not an
    /// answer: callers drop it).
    pub stopped: bool,
}

/// Nodes between two looks at a listing's stop.
const STOP_CHECK: u64 = 4096;

/// Finds an optimal solution of at most `max_depth` moves: the first in move order.
pub fn ida_star<P: Puzzle, H: Heuristic<P>>(
    puzzle: &P,
    heuristic: &H,
    start: &P::State,
    max_depth: u32,
) -> IdaOutcome<P::Move> {
    let mut search = FirstSearch {
        puzzle,
        heuristic,
        path: Vec::new(),
        nodes: 0,
    };
    let mut bound = heuristic.bound(start);
    while bound <= max_depth {
        match search.dfs(start, 0, bound, P::History::default()) {
            Step::Found => {
                return IdaOutcome {
                    solution: Some(search.path),
                    nodes: search.nodes,
                }
            }
            Step::Exceeded(next) if next != u32::MAX => bound = next,
            Step::Exceeded(_) => break,
        }
    }
    IdaOutcome {
        solution: None,
        nodes: search.nodes,
    }
}

enum Step {
    Found,
    /// Smallest f-value seen above the bound (`u32::MAX` if none).
    Exceeded(u32),
}

struct FirstSearch<'a, P: Puzzle, H> {
    puzzle: &'a P,
    heuristic: &'a H,
    path: Vec<P::Move>,
    nodes: u64,
}

impl<P: Puzzle, H: Heuristic<P>> FirstSearch<'_, P, H> {
    fn dfs(&mut self, state: &P::State, g: u32, bound: u32, history: P::History) -> Step {
        let f = g + self.heuristic.bound(state);
        if f > bound {
            return Step::Exceeded(f);
        }
        if self.puzzle.is_solved(state) {
            return Step::Found;
        }
        let mut least = u32::MAX;
        for &mv in self.puzzle.moves() {
            let Some(next) = self.puzzle.follow(history, mv) else {
                continue;
            };
            self.nodes += 1;
            let child = self.puzzle.apply(state, mv);
            self.path.push(mv);
            match self.dfs(&child, g + 1, bound, next) {
                Step::Found => return Step::Found,
                Step::Exceeded(f) => least = least.min(f),
            }
            self.path.pop();
        }
        Step::Exceeded(least)
    }
}

/// The first `limit` canonical sequences of exactly `length` moves that end at a goal and
/// pass through none before, in move order.
pub fn solutions_of_length<P: Puzzle, H: Heuristic<P>>(
    puzzle: &P,
    heuristic: &H,
    start: &P::State,
    length: u32,
    limit: usize,
) -> Found<P::Move> {
    solutions_of_length_until(puzzle, heuristic, start, length, limit, &Stop::never())
}

/// [`solutions_of_length`], giving up when `stop` is reached ([`Found::stopped`]).
pub fn solutions_of_length_until<P: Puzzle, H: Heuristic<P>>(
    puzzle: &P,
    heuristic: &H,
    start: &P::State,
    length: u32,
    limit: usize,
    stop: &Stop,
) -> Found<P::Move> {
    let mut lister = Lister::new(puzzle, heuristic, length, limit, stop);
    if heuristic.bound(start) <= length {
        lister.dfs(start, 0, P::History::default());
    }
    Found {
        solutions: lister.out,
        nodes: lister.nodes,
        stopped: lister.stopped,
    }
}

/// [`solutions_of_length_until`] on every core: the subtrees below each two-move prefix
/// are searched in parallel and joined in move order, so the answer is the same.
pub fn par_solutions_of_length<P, H>(
    puzzle: &P,
    heuristic: &H,
    start: &P::State,
    length: u32,
    limit: usize,
    stop: &Stop,
) -> Found<P::Move>
where
    P: Puzzle + Sync,
    P::State: Send + Sync,
    P::Move: Send + Sync,
    P::History: Send + Sync,
    H: Heuristic<P> + Sync,
{
    if length < 4 || limit == 0 {
        return solutions_of_length_until(puzzle, heuristic, start, length, limit, stop);
    }
    let mut nodes = 0u64;
    let mut prefixes = Vec::new();
    for &a in puzzle.moves() {
        let Some(h1) = puzzle.follow(P::History::default(), a) else {
            continue;
        };
        let s1 = puzzle.apply(start, a);
        nodes += 1;
        if puzzle.is_solved(&s1) {
            continue;
        }
        for &b in puzzle.moves() {
            let Some(h2) = puzzle.follow(h1, b) else {
                continue;
            };
            nodes += 1;
            let s2 = puzzle.apply(&s1, b);
            if !puzzle.is_solved(&s2) {
                prefixes.push((a, b, h2, s2));
            }
        }
    }
    let parts: Vec<Found<P::Move>> = prefixes
        .par_iter()
        .map(|(a, b, history, state)| {
            let mut lister = Lister::new(puzzle, heuristic, length, limit, stop);
            lister.path = vec![*a, *b];
            lister.dfs(state, 2, *history);
            Found {
                solutions: lister.out,
                nodes: lister.nodes,
                stopped: lister.stopped,
            }
        })
        .collect();
    let mut solutions = Vec::new();
    let mut stopped = false;
    for part in parts {
        nodes += part.nodes;
        stopped |= part.stopped;
        let room = limit - solutions.len().min(limit);
        solutions.extend(part.solutions.into_iter().take(room));
    }
    Found {
        solutions,
        nodes,
        stopped,
    }
}

/// The depth-first listing of [`solutions_of_length`]. Children of a node are made
/// first and bounded together ([`Heuristic::bounds`]), then searched in move order.
struct Lister<'a, P: Puzzle, H> {
    puzzle: &'a P,
    heuristic: &'a H,
    length: u32,
    limit: usize,
    path: Vec<P::Move>,
    out: Vec<Vec<P::Move>>,
    nodes: u64,
    /// Per depth: the children being searched there, kept to spare allocations.
    scratch: Vec<Children<P>>,
    stop: &'a Stop,
    /// Node count at which the stop is looked at next.
    next_check: u64,
    stopped: bool,
}

/// The children of one node: moves, histories, states and their bounds.
struct Children<P: Puzzle> {
    moves: Vec<(P::Move, P::History)>,
    states: Vec<P::State>,
    bounds: Vec<u32>,
}

impl<'a, P: Puzzle, H: Heuristic<P>> Lister<'a, P, H> {
    fn new(puzzle: &'a P, heuristic: &'a H, length: u32, limit: usize, stop: &'a Stop) -> Self {
        Self {
            puzzle,
            heuristic,
            length,
            limit,
            path: Vec::new(),
            out: Vec::new(),
            nodes: 0,
            scratch: Vec::new(),
            stop,
            // Checked at once too: a lister below a short prefix may make fewer nodes than
            // one check's worth, and a stop must not wait for the end of every part.
            next_check: 0,
            stopped: false,
        }
    }

    /// Whether to stop listing: the limit is reached, or the stop (looked at every
    /// [`STOP_CHECK`] nodes).
    fn done(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + STOP_CHECK;
            self.stopped |= self.stop.reached();
        }
        self.stopped || self.out.len() >= self.limit
    }

    fn dfs(&mut self, state: &P::State, g: u32, history: P::History) {
        let solved = self.puzzle.is_solved(state);
        if g == self.length {
            if solved {
                self.out.push(self.path.clone());
            }
            return;
        }
        if (g > 0 && solved) || self.done() {
            return;
        }
        let level = g as usize;
        while self.scratch.len() <= level {
            self.scratch.push(Children {
                moves: Vec::new(),
                states: Vec::new(),
                bounds: Vec::new(),
            });
        }
        let mut kids = std::mem::replace(
            &mut self.scratch[level],
            Children {
                moves: Vec::new(),
                states: Vec::new(),
                bounds: Vec::new(),
            },
        );
        kids.moves.clear();
        kids.states.clear();
        for &mv in self.puzzle.moves() {
            if let Some(next) = self.puzzle.follow(history, mv) {
                kids.moves.push((mv, next));
                kids.states.push(self.puzzle.apply(state, mv));
            }
        }
        self.nodes += kids.moves.len() as u64;
        let budget = self.length - g - 1;
        kids.bounds.clear();
        kids.bounds.resize(kids.states.len(), 0);
        self.heuristic
            .bounds(&kids.states, budget, &mut kids.bounds);
        for k in 0..kids.moves.len() {
            if kids.bounds[k] > budget {
                continue;
            }
            let (mv, next) = kids.moves[k];
            self.path.push(mv);
            self.dfs(&kids.states[k], g + 1, next);
            self.path.pop();
            if self.done() {
                break;
            }
        }
        self.scratch[level] = kids;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach a target integer from 0 with moves +1, +5, *2: small enough to brute-force.
    struct Arithmetic {
        target: i64,
    }

    impl Puzzle for Arithmetic {
        type State = i64;
        type Move = u8;
        type History = ();
        fn moves(&self) -> &[u8] {
            &[0, 1, 2]
        }
        fn apply(&self, s: &i64, m: u8) -> i64 {
            match m {
                0 => s + 1,
                1 => s + 5,
                _ => s * 2,
            }
        }
        fn is_solved(&self, s: &i64) -> bool {
            *s == self.target
        }
    }

    impl Heuristic<Arithmetic> for Arithmetic {
        fn bound(&self, s: &i64) -> u32 {
            u32::from(*s != self.target)
        }
    }

    fn brute_force(target: i64) -> u32 {
        let mut layer = vec![0i64];
        for depth in 0.. {
            if layer.contains(&target) {
                return depth;
            }
            layer = layer
                .iter()
                .flat_map(|&s| [s + 1, s + 5, s * 2])
                .filter(|&s| s <= target)
                .collect();
            layer.sort_unstable();
            layer.dedup();
        }
        unreachable!()
    }

    /// Every sequence of `length` moves from 0 ending at `target`, none passing it before.
    fn all_sequences(target: i64, length: u32) -> Vec<Vec<u8>> {
        let space = Arithmetic { target };
        let mut out = Vec::new();
        for code in 0..3u32.pow(length) {
            let moves: Vec<u8> = (0..length)
                .map(|i| (code / 3u32.pow(length - 1 - i) % 3) as u8)
                .collect();
            let mut state = 0;
            let mut early = false;
            for (i, &m) in moves.iter().enumerate() {
                state = space.apply(&state, m);
                early |= state == target && i + 1 < moves.len();
            }
            if state == target && !early {
                out.push(moves);
            }
        }
        out
    }

    #[test]
    fn finds_optimal_lexicographically_first_solutions() {
        for target in 0..60 {
            let space = Arithmetic { target };
            let outcome = ida_star(&space, &space, &0, 20);
            let solution = outcome.solution.expect("reachable");
            assert_eq!(
                solution.len() as u32,
                brute_force(target),
                "target {target}"
            );
            assert_eq!(solution.iter().fold(0, |s, &m| space.apply(&s, m)), target);
        }
        let three = Arithmetic { target: 3 };
        assert_eq!(
            ida_star(&three, &three, &0, 20).solution,
            Some(vec![0, 0, 0])
        );
        let far = Arithmetic { target: 59 };
        assert_eq!(ida_star(&far, &far, &0, 3).solution, None);
    }

    #[test]
    fn listings_are_every_sequence_in_order_on_one_core_and_on_all() {
        let never = Stop::never();
        for target in [6, 11, 20] {
            let space = Arithmetic { target };
            for length in 0..7 {
                let expected = all_sequences(target, length);
                let one = solutions_of_length(&space, &space, &0, length, usize::MAX);
                assert_eq!(one.solutions, expected, "target {target}, length {length}");
                let all = par_solutions_of_length(&space, &space, &0, length, usize::MAX, &never);
                assert_eq!(all.solutions, expected, "target {target}, length {length}");
                let first = par_solutions_of_length(&space, &space, &0, length, 2, &never);
                assert_eq!(first.solutions, expected[..expected.len().min(2)]);
            }
        }
    }

    #[test]
    fn a_reached_stop_ends_a_listing_marked_incomplete() {
        let space = Arithmetic { target: 20 };
        let cancel = crate::limits::Cancel::new();
        cancel.cancel();
        let stop = Stop::never().or_cancel(Some(cancel));
        let found = par_solutions_of_length(&space, &space, &0, 12, usize::MAX, &stop);
        assert!(found.stopped);
        assert!(found.solutions.len() < all_sequences(20, 12).len());
        let whole = par_solutions_of_length(&space, &space, &0, 12, usize::MAX, &Stop::never());
        assert!(!whole.stopped);
    }
}
