//! `cubedb rubik solve --all`, `--count N` and `--moves M`: every optimal solution, the
//! first N by length, and shortest solutions with only some moves.

use super::rubik::{cube_option, for_each_cube, korf_tables, parse_cube, CubeFormat, SolveArgs};
use anyhow::{Context, Result};
use cubedb::judge::{InputError, JudgeError};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::every::Enumerator;
use cubedb::puzzles::rubik::group::MoveGroup;
use cubedb::puzzles::rubik::pdb::metric_moves;
use cubedb::puzzles::rubik::ru::{self, RuTable};
use cubedb::puzzles::rubik::solver::MAX_SOLUTION;
use cubedb::puzzles::rubik::{
    format_moves, merge_quarter_pairs, parse_move_set, Cube, KorfSolver, Metric, Move, NearTable,
    Pdbs,
};
use cubedb::table::TableStore;
use std::io::Write;
use std::time::Instant;

/// How much longer than optimal `--count` looks.
pub const COUNT_EXTRA_LENGTH: u32 = 4;

/// Deepest restricted search: far beyond the diameter of any face-generated subgroup
/// reachable here; a cube outside the group is refused before searching.
const RESTRICTED_MAX: u32 = 80;

/// Tables loaded for the run.
enum Loaded {
    /// The `<R,U>` table of the metric.
    Ru(Box<RuTable>),
    /// The near table and the pattern databases.
    Korf(Box<(NearTable, Pdbs)>),
}

/// What answers each cube.
enum Answerer<'a> {
    /// A walk down the `<R,U>` table.
    Ru(&'a RuTable),
    /// Search under the pattern databases.
    Search(Box<(KorfSolver<'a>, Enumerator<'a>)>),
}

/// Solutions of one cube: what was found, and how hard it was.
struct Answer {
    solutions: Vec<Vec<Move>>,
    optimal: u32,
    nodes: u64,
}

/// Runs `solve` with `--all`, `--count` or `--moves`.
pub(super) fn run(args: SolveArgs) -> Result<()> {
    let progress = Progress::stderr(args.quiet);
    let metric = args.metric;
    let restricted = args.moves.is_some();
    let moves = match &args.moves {
        Some(text) => parse_move_set(text, metric == Metric::Qtm).map_err(|e| InputError {
            what: "option --moves",
            case: 1,
            line: 1,
            problem: e.to_string(),
        })?,
        None => metric_moves(metric),
    };
    let names = format_moves(&moves).replace(' ', ",");
    let group = restricted.then(|| MoveGroup::generated_by(&moves));
    // <R,U> with every turn of the metric, one solution each: a table walk; anything
    // else searches under the pattern databases.
    let ru_only =
        restricted && !args.all && args.count.is_none() && moves == ru::metric_turns(metric);
    let loaded = if ru_only {
        let store = TableStore::locate(args.data.clone());
        Loaded::Ru(Box::new(RuTable::load_or_build(&store, metric, &progress)?))
    } else {
        Loaded::Korf(Box::new(korf_tables(&args, &progress)?))
    };
    let answerer = match &loaded {
        Loaded::Ru(table) => Answerer::Ru(table),
        Loaded::Korf(tables) => {
            let (near, pdbs) = &**tables;
            let solver = KorfSolver::new(pdbs, Some(near));
            Answerer::Search(Box::new((solver, Enumerator::new(solver, &moves))))
        }
    };
    let limit = if args.all {
        usize::MAX
    } else {
        args.count.unwrap_or(1)
    };
    let batch = cube_option(&args.facelets, &args.scramble).is_none();
    let mut out = cubedb::output::stdout()?;
    let solve_one = |text: &str, format: CubeFormat, number: usize| -> Result<()> {
        let cube = parse_cube(text, format, number)?;
        if group.as_ref().is_some_and(|g| !g.contains(&cube)) {
            return Err(JudgeError::Unanswerable(InputError {
                what: "cube",
                case: number,
                line: number,
                problem: format!(
                    "cannot be solved with {names}: it is not in the group these moves generate"
                ),
            })
            .into());
        }
        let started = Instant::now();
        let answer = match &answerer {
            Answerer::Ru(table) => {
                let solution = table
                    .solve(&cube)
                    .context("internal error: a member of <R,U> is not in its table")?;
                Answer {
                    optimal: metric.length(&solution),
                    solutions: vec![solution],
                    nodes: 0,
                }
            }
            Answerer::Search(search) => {
                let (solver, enumerator) = &**search;
                find(&cube, solver, enumerator, restricted, limit, args.all)
            }
        };
        let elapsed = started.elapsed();
        for solution in &answer.solutions {
            anyhow::ensure!(
                cube.apply_all(solution).is_solved() && solution.iter().all(|m| moves.contains(m)),
                "cube {number}: internal error, a solution found is wrong"
            );
        }
        if batch {
            writeln!(out, "# cube {number}").context(super::WRITING)?;
        }
        for solution in &answer.solutions {
            writeln!(out, "{}", format_moves(&merge_quarter_pairs(solution)))
                .context(super::WRITING)?;
        }
        out.flush().context(super::WRITING)?;
        if !args.quiet {
            let longest = answer
                .solutions
                .iter()
                .map(|s| metric.length(s))
                .max()
                .unwrap_or(answer.optimal);
            let lengths = if longest == answer.optimal {
                format!("{}", answer.optimal)
            } else {
                format!("{} to {longest}", answer.optimal)
            };
            note!(
                "cube {number}: {} solution(s) of {lengths} {}{} (optimal {}; {} nodes, {:.3} s)",
                answer.solutions.len(),
                metric.unit(),
                if restricted {
                    format!(" with {names}")
                } else {
                    String::new()
                },
                answer.optimal,
                answer.nodes,
                elapsed.as_secs_f64()
            );
        }
        Ok(())
    };
    for_each_cube(&args, solve_one)
}

/// The optimal solutions (all of them with `all`, else the first `limit`), then, while
/// fewer than `limit`, solutions up to [`COUNT_EXTRA_LENGTH`] moves longer.
fn find(
    cube: &Cube,
    solver: &KorfSolver<'_>,
    enumerator: &Enumerator<'_>,
    restricted: bool,
    limit: usize,
    all: bool,
) -> Answer {
    let (optimal, mut solutions, mut nodes) = if restricted {
        let (found, nodes) = enumerator.shortest(cube, RESTRICTED_MAX, limit);
        let found = found.expect("a cube in the group has a solution");
        let optimal = solver.metric().length(&found.solutions[0]);
        (optimal, found.solutions, nodes)
    } else {
        // The fast solver finds the optimal length; the enumeration lists that length.
        let solved = solver.solve(cube, MAX_SOLUTION);
        let first = solved
            .moves
            .expect("every solvable cube is solved within God's number");
        let optimal = solver.metric().length(&first);
        let found = enumerator.solutions_of_length(cube, optimal, limit);
        (optimal, found.solutions, solved.nodes + found.nodes)
    };
    let mut length = optimal + enumerator.step();
    while !all && solutions.len() < limit && length <= optimal + COUNT_EXTRA_LENGTH {
        let found = enumerator.solutions_of_length(cube, length, limit - solutions.len());
        nodes += found.nodes;
        solutions.extend(found.solutions);
        length += enumerator.step();
    }
    Answer {
        solutions,
        optimal,
        nodes,
    }
}
