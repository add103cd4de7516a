//! Iterative-deepening A* over any puzzle with an admissible heuristic.
//!
//! Moves are tried in the order the space lists them, so the first solution found at the
//! optimal bound is the lexicographically smallest optimal one in that order (the
//! heuristic is admissible, so no optimal prefix is ever cut off).

/// A puzzle seen as a search problem.
pub trait SearchSpace {
    /// A position.
    type State: Clone;
    /// A move; `Copy` and small.
    type Move: Copy;

    /// All moves, in the order they are tried.
    fn moves(&self) -> &[Self::Move];
    /// The position after `mv`.
    fn apply(&self, state: &Self::State, mv: Self::Move) -> Self::State;
    /// Whether `state` is solved.
    fn is_goal(&self, state: &Self::State) -> bool;
    /// A lower bound on the moves still needed (must never overestimate).
    fn heuristic(&self, state: &Self::State) -> u32;
    /// Move pruning: whether `mv` may follow `previous` (e.g. never undo the last move).
    fn may_follow(&self, _previous: Option<Self::Move>, _mv: Self::Move) -> bool {
        true
    }
}

/// Result of an IDA* run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdaOutcome<M> {
    /// An optimal solution, or `None` if none exists within the depth limit.
    pub solution: Option<Vec<M>>,
    /// Positions generated.
    pub nodes: u64,
}

/// Finds an optimal solution of at most `max_depth` moves.
pub fn ida_star<S: SearchSpace>(
    space: &S,
    start: &S::State,
    max_depth: u32,
) -> IdaOutcome<S::Move> {
    let mut path = Vec::new();
    let mut nodes = 0u64;
    let mut bound = space.heuristic(start);
    while bound <= max_depth {
        match dfs(space, start, 0, bound, None, &mut path, &mut nodes) {
            Step::Found => {
                return IdaOutcome {
                    solution: Some(path),
                    nodes,
                }
            }
            Step::Exceeded(next) if next != u32::MAX => bound = next,
            Step::Exceeded(_) => break,
        }
    }
    IdaOutcome {
        solution: None,
        nodes,
    }
}

enum Step {
    Found,
    /// Smallest f-value seen above the bound (`u32::MAX` if none).
    Exceeded(u32),
}

fn dfs<S: SearchSpace>(
    space: &S,
    state: &S::State,
    g: u32,
    bound: u32,
    previous: Option<S::Move>,
    path: &mut Vec<S::Move>,
    nodes: &mut u64,
) -> Step {
    let f = g + space.heuristic(state);
    if f > bound {
        return Step::Exceeded(f);
    }
    if space.is_goal(state) {
        return Step::Found;
    }
    let mut least = u32::MAX;
    for &mv in space.moves() {
        if !space.may_follow(previous, mv) {
            continue;
        }
        *nodes += 1;
        let child = space.apply(state, mv);
        path.push(mv);
        match dfs(space, &child, g + 1, bound, Some(mv), path, nodes) {
            Step::Found => return Step::Found,
            Step::Exceeded(f) => least = least.min(f),
        }
        path.pop();
    }
    Step::Exceeded(least)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reach a target integer from 0 with moves +1, +5, *2: small enough to brute-force.
    struct Arithmetic {
        target: i64,
    }

    impl SearchSpace for Arithmetic {
        type State = i64;
        type Move = u8;
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
        fn is_goal(&self, s: &i64) -> bool {
            *s == self.target
        }
        fn heuristic(&self, s: &i64) -> u32 {
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

    #[test]
    fn finds_optimal_lexicographically_first_solutions() {
        for target in 0..60 {
            let space = Arithmetic { target };
            let outcome = ida_star(&space, &0, 20);
            let solution = outcome.solution.expect("reachable");
            assert_eq!(
                solution.len() as u32,
                brute_force(target),
                "target {target}"
            );
            assert_eq!(solution.iter().fold(0, |s, &m| space.apply(&s, m)), target);
        }
        assert_eq!(
            ida_star(&Arithmetic { target: 3 }, &0, 20).solution,
            Some(vec![0, 0, 0])
        );
        assert_eq!(ida_star(&Arithmetic { target: 59 }, &0, 3).solution, None);
    }
}
