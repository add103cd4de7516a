//! Every optimal solution (`--all`), the first N (`--count`) and restricted move sets
//! (`--moves`), checked against brute force.

use crate::common::{cubedb, data_dir_with, stderr, stdout};
use crate::rubik::{brute_force, small_pdbs};
use cubedb::puzzles::rubik::model::group::MoveGroup;
use cubedb::puzzles::rubik::optimal::every::Enumerator;
use cubedb::puzzles::rubik::{parse_moves, Cube, KorfSolver, Metric, Move};
use cubedb::rng::SplitMix64;
use cubedb::table::TableFamily;
use std::collections::BTreeSet;

/// Canonical form, written independently of the library: no face twice in a row (in
/// QTM a half turn is the same quarter turn twice, never three times and never `X' X'`),
/// and of two opposite faces in a row the first in URFDLB order comes first.
fn is_canonical(moves: &[Move], metric: Metric) -> bool {
    let order = |m: &Move| "URFDLB".find(m.face().letter()).unwrap();
    for (i, pair) in moves.windows(2).enumerate() {
        let (a, b) = (pair[0], pair[1]);
        if a.face() == b.face() {
            let qtm_half =
                metric == Metric::Qtm && a == b && a.turns() == 1 && (i == 0 || moves[i - 1] != a);
            if !qtm_half {
                return false;
            }
        } else if a.face().opposite() == b.face() && order(&a) > order(&b) {
            return false;
        }
    }
    true
}

/// Every canonical sequence of exactly `length` moves from `moves` solving `cube` without
/// passing through solved before its end: all sequences tried, no pruning.
fn brute_solutions(
    cube: &Cube,
    length: usize,
    moves: &[Move],
    metric: Metric,
) -> BTreeSet<Vec<Move>> {
    let mut found = BTreeSet::new();
    let mut path = Vec::new();
    fn walk(
        cube: &Cube,
        length: usize,
        moves: &[Move],
        metric: Metric,
        path: &mut Vec<Move>,
        found: &mut BTreeSet<Vec<Move>>,
    ) {
        if path.len() == length {
            if cube.is_solved() && is_canonical(path, metric) {
                found.insert(path.clone());
            }
            return;
        }
        if !path.is_empty() && cube.is_solved() {
            return;
        }
        for &mv in moves {
            path.push(mv);
            if is_canonical(path, metric) {
                walk(&cube.apply(mv), length, moves, metric, path, found);
            }
            path.pop();
        }
    }
    walk(cube, length, moves, metric, &mut path, &mut found);
    found
}

#[test]
fn all_optimal_solutions_equal_brute_force() {
    let mut rng = SplitMix64::new(12);
    for (metric, depth) in [(Metric::Htm, 5), (Metric::Qtm, 6)] {
        let pdbs = small_pdbs(metric);
        let solver = KorfSolver::new(&pdbs, None);
        let moves = metric.moves();
        let enumerator = Enumerator::new(solver, &moves);
        for _ in 0..6 {
            let scramble: Vec<Move> = (0..depth)
                .map(|_| moves[rng.below(moves.len() as u64) as usize])
                .collect();
            let cube = Cube::from_moves(&scramble);
            let optimal = solver.solve(&cube, 26).moves.unwrap().len();
            let listed = enumerator.solutions_of_length(&cube, optimal as u32, usize::MAX);
            let expected = brute_solutions(&cube, optimal, &moves, metric);
            assert_eq!(
                listed.solutions.iter().cloned().collect::<BTreeSet<_>>(),
                expected,
                "{metric:?} {scramble:?}"
            );
            // Sorted, without repeats.
            assert!(listed.solutions.windows(2).all(|w| w[0] < w[1]));
            // And one length longer (HTM) finds exactly the brute-force set too.
            if metric == Metric::Htm {
                let longer = enumerator.solutions_of_length(&cube, optimal as u32 + 1, usize::MAX);
                assert_eq!(
                    longer.solutions.into_iter().collect::<BTreeSet<_>>(),
                    brute_solutions(&cube, optimal + 1, &moves, metric)
                );
            }
        }
    }
}

#[test]
fn restricted_solutions_are_optimal_in_their_subgroup() {
    for (generators, depth) in [("R U", 7), ("R2 U F2", 6), ("U D R2 L2 F2 B2", 5)] {
        let gens = parse_moves(generators).unwrap();
        // Every turn of a quarter-turn generator's face; half turns alone.
        let moves: Vec<Move> = Move::all()
            .filter(|m| {
                gens.iter()
                    .any(|g| g.face() == m.face() && (g.turns() != 2 || m.turns() == 2))
            })
            .collect();
        let ball = brute_force(depth, &moves);
        let pdbs = small_pdbs(Metric::Htm);
        let enumerator = Enumerator::new(KorfSolver::new(&pdbs, None), &moves);
        let group = MoveGroup::generated_by(&moves);
        let mut rng = SplitMix64::new(3);
        let cubes: Vec<(&Cube, &u32)> = ball.iter().collect();
        for _ in 0..40 {
            let (cube, &distance) = cubes[rng.below(cubes.len() as u64) as usize];
            assert!(group.contains(cube));
            let (found, _) = enumerator.shortest(cube, 30, 2);
            let found = found.expect("a member has a solution");
            for solution in &found.solutions {
                assert_eq!(solution.len() as u32, distance, "<{generators}> {cube:?}");
                assert!(solution.iter().all(|m| moves.contains(m)));
                assert!(cube.apply_all(solution).is_solved());
            }
        }
        assert!(!group.contains(&Cube::from_moves(&parse_moves("L").unwrap())));
    }
}

#[test]
fn cli_lists_every_solution_and_refuses_what_the_moves_cannot_solve() {
    let data = data_dir_with("rubik");
    let data = data.to_str().unwrap();
    let all = cubedb(
        &[
            "rubik",
            "solve",
            "--scramble",
            "R U F",
            "--metric",
            "htm",
            "--all",
            "--data",
            data,
        ],
        "",
    );
    assert!(all.status.success(), "{}", stderr(&all));
    let lines: Vec<String> = stdout(&all).lines().map(str::to_string).collect();
    assert!(!lines.is_empty());
    let cube = Cube::from_moves(&parse_moves("R U F").unwrap());
    for line in &lines {
        let moves = parse_moves(line).unwrap();
        assert_eq!(moves.len(), 3);
        assert!(cube.apply_all(&moves).is_solved(), "{line}");
    }
    let mut sorted = lines.clone();
    sorted.dedup();
    assert_eq!(sorted.len(), lines.len());
    assert!(stderr(&all).contains(&format!("{} solution(s) of 3 face turns", lines.len())));

    let count = cubedb(
        &[
            "rubik",
            "solve",
            "--scramble",
            "R U",
            "--metric",
            "htm",
            "--count",
            "4",
            "--data",
            data,
        ],
        "",
    );
    let counted: Vec<usize> = stdout(&count)
        .lines()
        .map(|l| parse_moves(l).unwrap().len())
        .collect();
    // Canonical sequences of 3 to 6 moves that solve `R U` are few: at most 4 lines,
    // the optimal one first, lengths never decreasing.
    assert!((1..=4).contains(&counted.len()), "{}", stdout(&count));
    assert!(counted.windows(2).all(|w| w[0] <= w[1]));
    assert_eq!(counted[0], 2);

    let refused = cubedb(
        &[
            "rubik",
            "solve",
            "--scramble",
            "R U F",
            "--moves",
            "R,U",
            "--data",
            data,
        ],
        "",
    );
    assert_eq!(refused.status.code(), Some(3));
    assert!(
        stderr(&refused).contains("not in the group"),
        "{}",
        stderr(&refused)
    );
    let bad = cubedb(
        &[
            "rubik",
            "solve",
            "--scramble",
            "R U",
            "--moves",
            "R,Q",
            "--data",
            data,
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
    let restricted = cubedb(
        &[
            "rubik",
            "solve",
            "--scramble",
            "R U R' U'",
            "--moves",
            "R,U",
            "--count",
            "3",
            "--data",
            data,
        ],
        "",
    );
    assert!(restricted.status.success(), "{}", stderr(&restricted));
    for line in stdout(&restricted).lines() {
        assert!(line.chars().all(|c| "RU2' ".contains(c)), "{line}");
    }
}

#[test]
fn ru_table_answers_are_optimal_against_brute_force() {
    use cubedb::puzzles::rubik::subgroup::ru::{metric_turns, RuTable};
    let store = cubedb::table::TableStore::new(data_dir_with("rubik-ru"));
    for (metric, depth) in [(Metric::Htm, 8), (Metric::Qtm, 10)] {
        let table =
            RuTable::load_or_build(&store, metric, &cubedb::progress::Progress::hidden()).unwrap();
        let turns = metric_turns(metric);
        let ball = brute_force(depth, &turns);
        for (cube, &distance) in ball.iter().take(3000) {
            let solution = table.solve(cube).expect("a member of <R,U>");
            assert_eq!(metric.length(&solution), distance, "{metric:?}");
            assert!(cube.apply_all(&solution).is_solved());
        }
        // Deep positions: solved with R and U only, within the group's diameter.
        let mut rng = SplitMix64::new(21);
        for _ in 0..200 {
            let walk: Vec<Move> = (0..200)
                .map(|_| turns[rng.below(turns.len() as u64) as usize])
                .collect();
            let cube = Cube::from_moves(&walk);
            let solution = table.solve(&cube).unwrap();
            assert!(cube.apply_all(&solution).is_solved());
            assert!(solution.iter().all(|m| turns.contains(m)));
            assert!(solution.len() <= 25);
        }
        assert_eq!(
            table.solve(&Cube::from_moves(&parse_moves("F").unwrap())),
            None
        );
    }
}
