//! [`SolutionFinder`]: every optimal solution, the first N by length, and the shortest
//! solutions with only some moves.

use super::optimal::OptimalSolver;
use super::COUNT_EXTRA_LENGTH;
use crate::limits::Stop;
use crate::progress::Progress;
use crate::puzzles::rubik::model::cube::{Cube, Move};
use crate::puzzles::rubik::model::group::MoveGroup;
use crate::puzzles::rubik::model::metric::{Metric, MAX_SOLUTION};
use crate::puzzles::rubik::optimal::every::Enumerator;
use crate::puzzles::rubik::optimal::preset::Preset;
use crate::puzzles::rubik::subgroup::ru::{self, RuTable};
use crate::table::{TableError, TableFamily, TableStore};
use std::time::{Duration, Instant};

/// Deepest restricted search: far beyond the diameter of any face-generated subgroup
/// reachable here; a cube outside the group is refused before searching.
const RESTRICTED_MAX: u32 = 80;

/// What answers each cube.
enum Engine {
    /// A walk down the `<R,U>` table.
    Ru(Box<RuTable>),
    /// Search under the pattern databases.
    Search(Box<OptimalSolver>),
}

/// What a listing search found: the solutions, the optimal length, the nodes.
type Searched = (Vec<Vec<Move>>, u32, u64);

/// Why a cube got no listing.
#[derive(Debug, thiserror::Error)]
pub enum NotInGroup {
    /// A table the search needs cannot be used.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The allowed moves cannot solve the cube.
    #[error("cannot be solved with {0}: it is not in the group these moves generate")]
    Outside(String),
    /// A solution found is wrong: a bug, never shown as an answer.
    #[error("internal error, a solution found is wrong")]
    WrongSolution,
}

/// Solutions of one cube, and how hard they were to find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The solutions: by length, each length sorted (U before U2 before U' ...).
    pub solutions: Vec<Vec<Move>>,
    /// The optimal length (with the allowed moves).
    pub optimal: u32,
    /// Positions generated.
    pub nodes: u64,
    /// Wall-clock time.
    pub elapsed: Duration,
}

/// Lists solutions in canonical move order (no face twice in a row, opposite faces in
/// URFDLB order), checked on the cube.
pub struct SolutionFinder {
    metric: Metric,
    /// The allowed moves, when restricted.
    restricted: Option<(Vec<Move>, MoveGroup)>,
    engine: Engine,
}

impl SolutionFinder {
    /// The finder for `metric`, over `moves` if given (each a turn of the metric), with the
    /// pattern databases of `preset` (or the largest built). `one_each`: callers ask one
    /// solution per cube, so `<R,U>` with every turn of the metric walks its table.
    pub fn open(
        store: &TableStore,
        metric: Metric,
        moves: Option<Vec<Move>>,
        preset: Option<Preset>,
        one_each: bool,
        progress: &Progress,
    ) -> Result<Self, TableError> {
        let ru_only = one_each && moves.as_ref() == Some(&ru::metric_turns(metric));
        let engine = if ru_only {
            Engine::Ru(Box::new(RuTable::load_or_build(store, metric, progress)?))
        } else {
            Engine::Search(Box::new(OptimalSolver::open(
                store, metric, preset, progress,
            )?))
        };
        let restricted = moves.map(|moves| {
            let group = MoveGroup::generated_by(&moves);
            (moves, group)
        });
        Ok(Self {
            metric,
            restricted,
            engine,
        })
    }

    /// The allowed moves, comma-separated (`R,U,R2`), or `None` if all are.
    pub fn restriction(&self) -> Option<String> {
        self.restricted.as_ref().map(|(moves, _)| {
            crate::puzzles::rubik::model::notation::format_moves(moves).replace(' ', ",")
        })
    }

    /// The optimal solutions of `cube` (all of them with `all`, else the first `limit`),
    /// then, while fewer than `limit`, solutions up to [`COUNT_EXTRA_LENGTH`] moves longer;
    /// each checked to solve the cube with the allowed moves.
    pub fn find(&self, cube: &Cube, limit: usize, all: bool) -> Result<Listing, NotInGroup> {
        let listing = self.find_until(cube, limit, all, &Stop::never())?;
        Ok(listing.expect("without a stop every listing completes"))
    }

    /// [`SolutionFinder::find`], giving up when `stop` is reached (`Ok(None)`: a listing
    /// cut short is not an answer).
    pub fn find_until(
        &self,
        cube: &Cube,
        limit: usize,
        all: bool,
        stop: &Stop,
    ) -> Result<Option<Listing>, NotInGroup> {
        if let Some((_, group)) = &self.restricted {
            if !group.contains(cube) {
                return Err(NotInGroup::Outside(self.restriction().unwrap_or_default()));
            }
        }
        let started = Instant::now();
        let (solutions, optimal, nodes) = match &self.engine {
            Engine::Ru(table) => {
                let solution = table
                    .solve(cube)
                    .expect("a member of <R,U> is in its table");
                (vec![solution.clone()], self.metric.length(&solution), 0)
            }
            Engine::Search(solver) => match self.search(solver, cube, limit, all, stop)? {
                Some(found) => found,
                None => return Ok(None),
            },
        };
        let allowed = |m: &Move| match &self.restricted {
            Some((moves, _)) => moves.contains(m),
            None => true,
        };
        if !solutions
            .iter()
            .all(|s| cube.apply_all(s).is_solved() && s.iter().all(allowed))
        {
            return Err(NotInGroup::WrongSolution);
        }
        Ok(Some(Listing {
            solutions,
            optimal,
            nodes,
            elapsed: started.elapsed(),
        }))
    }

    fn search(
        &self,
        solver: &OptimalSolver,
        cube: &Cube,
        limit: usize,
        all: bool,
        stop: &Stop,
    ) -> Result<Option<Searched>, TableError> {
        let engine = solver
            .engine()?
            .expect("the finder opens its solver with tables");
        let moves = match &self.restricted {
            Some((moves, _)) => moves.clone(),
            None => self.metric.moves(),
        };
        let enumerator = Enumerator::new(engine, &moves).until(stop.clone());
        let (optimal, mut solutions, mut nodes) = if self.restricted.is_some() {
            let (found, nodes) = enumerator.shortest(cube, RESTRICTED_MAX, limit);
            let Some(found) = found else {
                // A cube in the group has a solution: only the stop ends without one.
                return Ok(None);
            };
            let optimal = self.metric.length(&found.solutions[0]);
            (optimal, found.solutions, nodes)
        } else {
            // The fast solver finds the optimal length; the enumeration lists that length.
            let Some(solved) = engine.solve_until(cube, MAX_SOLUTION, stop) else {
                return Ok(None);
            };
            let first = solved
                .moves
                .expect("every solvable cube is solved within God's number");
            let optimal = self.metric.length(&first);
            let found = enumerator.solutions_of_length(cube, optimal, limit);
            if found.stopped {
                return Ok(None);
            }
            (optimal, found.solutions, solved.nodes + found.nodes)
        };
        let mut length = optimal + enumerator.step();
        while !all && solutions.len() < limit && length <= optimal + COUNT_EXTRA_LENGTH {
            let found = enumerator.solutions_of_length(cube, length, limit - solutions.len());
            if found.stopped {
                return Ok(None);
            }
            nodes += found.nodes;
            solutions.extend(found.solutions);
            length += enumerator.step();
        }
        Ok(Some((solutions, optimal, nodes)))
    }
}
