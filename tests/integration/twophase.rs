//! Rubik's cube, two-phase solving: every solution solves its cube within the cap (thousands
//! of random states), short positions get optimal solutions (brute force), the search is
//! complete (it finds a solution of length L exactly when the optimal solver says one
//! exists), deadlines, scrambles, the net display, batches through the binary, bad input
//! and damaged tables.

use crate::common::{cubedb, data_dir_with, fresh_dir, stderr, stdout};
use crate::rubik::{brute_distance, brute_force, quarter_turns, random_scramble, small_pdbs};
use cubedb::limits::Stop;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::model::cube::permutation_parity;
use cubedb::puzzles::rubik::twophase::{
    solve_by_deadline, solve_by_restarts, Best, Outcome, TwoPhaseSearch, TwoPhaseTables,
    AS_GIVEN_VIEWS, GROUP, INVERTED_VIEWS,
};
use cubedb::puzzles::rubik::{facelet_string, parse_moves, Cube, KorfSolver, Metric, Move};
use cubedb::rng::SplitMix64;
use cubedb::table::{TableFamily, TableStore};
use std::time::{Duration, Instant};

fn tables(metric: Metric) -> TwoPhaseTables {
    TwoPhaseTables::load_or_build(
        &TableStore::new(data_dir_with(GROUP)),
        metric,
        &Progress::hidden(),
    )
    .expect("two-phase tables")
}

fn data_arg() -> String {
    data_dir_with(GROUP).display().to_string()
}

/// True when no two moves in a row turn the same face.
fn no_redundant_moves(moves: &[Move]) -> bool {
    moves.windows(2).all(|w| w[0].face() != w[1].face())
}

/// Asserts that the command's stderr contains `text` (showing stderr if not).
fn assert_stderr_has(output: &std::process::Output, text: &str) {
    assert!(stderr(output).contains(text), "{}", stderr(output));
}

fn found(outcome: Outcome) -> Vec<Move> {
    match outcome {
        Outcome::Found(moves) => moves,
        other => panic!("expected a solution, got {other:?}"),
    }
}

#[test]
fn random_states_are_solved_within_the_cap() {
    let htm = tables(Metric::Htm);
    let mut search = TwoPhaseSearch::new(&htm);
    let mut rng = SplitMix64::new(1601);
    for (count, cap) in [(3000, 21), (300, 20)] {
        for i in 0..count {
            let cube = Cube::random(&mut rng);
            let moves = found(search.solve(&cube, cap, None));
            assert!(cube.apply_all(&moves).is_solved(), "cube {i}");
            assert!(moves.len() as u32 <= cap, "cube {i}: {} moves", moves.len());
            assert!(no_redundant_moves(&moves), "cube {i}");
        }
    }
    let qtm = tables(Metric::Qtm);
    let mut search = TwoPhaseSearch::new(&qtm);
    for i in 0..200 {
        let cube = Cube::random(&mut rng);
        let moves = found(search.solve(&cube, 28, None));
        assert!(cube.apply_all(&moves).is_solved(), "cube {i}");
        assert!(Metric::Qtm.length(&moves) <= 28, "cube {i}");
        // A quarter-turn length has the parity of the corner permutation.
        assert_eq!(
            Metric::Qtm.length(&moves) % 2,
            permutation_parity(&cube.cp),
            "cube {i}"
        );
    }
}

#[test]
fn short_positions_get_optimal_solutions() {
    let all: Vec<Move> = Move::all().collect();
    let ball = brute_force(4, &all);
    let htm = tables(Metric::Htm);
    let mut search = TwoPhaseSearch::new(&htm);
    let mut rng = SplitMix64::new(1602);
    for i in 0..400 {
        let scramble: Vec<Move> = (0..i % 7).map(|_| all[rng.below(18) as usize]).collect();
        let cube = Cube::from_moves(&scramble);
        // Exact within 5 (a solution of m <= 5 moves is within 4 after one move), else 6.
        let mut exact = ball.get(&cube).copied();
        for &a in &all {
            if let Some(&d) = ball.get(&cube.apply(a)) {
                exact = Some(exact.map_or(d + 1, |e| e.min(d + 1)));
            }
        }
        let moves = found(search.solve(&cube, 21, None));
        assert!(cube.apply_all(&moves).is_solved());
        assert_eq!(moves.len() as u32, exact.unwrap_or(6), "{i}: {scramble:?}");
    }
    let quarter_ball = brute_force(5, &quarter_turns());
    let qtm = tables(Metric::Qtm);
    let mut search = TwoPhaseSearch::new(&qtm);
    for i in 0..300 {
        let cube = Cube::from_moves(&random_scramble(&mut rng, i % 9));
        let moves = found(search.solve(&cube, 26, None));
        assert!(cube.apply_all(&moves).is_solved());
        let exact = brute_distance(&quarter_ball, &cube);
        assert_eq!(Metric::Qtm.length(&moves), exact, "{i}");
    }
}

#[test]
fn the_search_is_complete_against_the_optimal_solver() {
    // A two-phase search with a total limit is complete: it finds a solution of at most L
    // moves exactly when one exists. The optimal solver (pattern databases) says when.
    let all: Vec<Move> = Move::all().collect();
    let pdbs = small_pdbs(Metric::Htm);
    let korf = KorfSolver::new(&pdbs, None);
    let htm = tables(Metric::Htm);
    let mut search = TwoPhaseSearch::new(&htm);
    let mut rng = SplitMix64::new(1603);
    for i in 0..24 {
        let scramble: Vec<Move> = (0..8 + i % 4)
            .map(|_| all[rng.below(18) as usize])
            .collect();
        let cube = Cube::from_moves(&scramble);
        let optimal = korf.solve(&cube, 20).moves.expect("optimal solution").len() as u32;
        let moves = found(search.solve(&cube, optimal, None));
        assert!(cube.apply_all(&moves).is_solved());
        assert_eq!(moves.len() as u32, optimal, "{i}");
        assert_eq!(
            search.solve(&cube, optimal - 1, None),
            Outcome::NoneWithin,
            "{i}"
        );
    }
}

#[test]
fn a_deadline_gives_the_best_solution_found_in_time() {
    let htm = tables(Metric::Htm);
    let mut search = TwoPhaseSearch::new(&htm);
    let mut rng = SplitMix64::new(1604);
    for _ in 0..3 {
        let cube = Cube::random(&mut rng);
        let started = Instant::now();
        // No random state is within 12 moves in practice (fewer than 1 in 10^6 are).
        let best = solve_by_deadline(&mut search, &cube, 12, started + Duration::from_millis(200));
        assert!(started.elapsed() < Duration::from_secs(5));
        let Best::Above { moves, optimal } = best else {
            panic!("expected a solution above the limit, got {best:?}");
        };
        assert!(!optimal);
        assert!(cube.apply_all(&moves).is_solved() && moves.len() > 12);
        assert!(
            moves.len() <= 21,
            "improved while time was left: {}",
            moves.len()
        );
    }
    // Within the limit: found directly.
    let cube = Cube::from_moves(&parse_moves("R U F").unwrap());
    let best = solve_by_deadline(
        &mut search,
        &cube,
        20,
        Instant::now() + Duration::from_secs(5),
    );
    assert_eq!(best, Best::Within(parse_moves("F' U' R'").unwrap()));
    // Below the optimum: the search proves no shorter one exists.
    let best = solve_by_deadline(
        &mut search,
        &cube,
        2,
        Instant::now() + Duration::from_secs(5),
    );
    assert!(matches!(best, Best::Above { optimal: true, ref moves } if moves.len() == 3));
}

#[test]
fn one_pass_improving_finds_what_searching_again_finds_with_fewer_nodes() {
    for (metric, aim) in [(Metric::Htm, 20), (Metric::Qtm, 25)] {
        let tables = tables(metric);
        let mut once = TwoPhaseSearch::new(&tables);
        let mut again = TwoPhaseSearch::new(&tables);
        let mut rng = SplitMix64::new(2026);
        let (mut once_nodes, mut again_nodes) = (0, 0);
        let mut cubes: Vec<Cube> = (0..12).map(|_| Cube::random(&mut rng)).collect();
        // Short ones, asked for less than their optimum: both prove it.
        cubes.push(Cube::from_moves(&parse_moves("R U F").unwrap()));
        cubes.push(Cube::from_moves(&parse_moves("R U2 F' L D").unwrap()));
        for (i, cube) in cubes.iter().enumerate() {
            let aim = if i < 12 { aim } else { 2 };
            let before = (once.nodes(), again.nodes());
            let one_pass = once.solve_improving(cube, aim, Stop::never());
            let restarted = solve_by_restarts(&mut again, cube, aim, &Stop::never());
            assert_eq!(one_pass, restarted, "{metric:?} cube {i}");
            let moves = match &one_pass {
                Best::Within(moves) => moves,
                Best::Above { moves, optimal } => {
                    assert!(*optimal && i >= 12, "{metric:?} cube {i}: {one_pass:?}");
                    moves
                }
                Best::Nothing => panic!("{metric:?} cube {i}: nothing"),
            };
            assert!(cube.apply_all(moves).is_solved());
            once_nodes += once.nodes() - before.0;
            again_nodes += again.nodes() - before.1;
        }
        assert!(
            once_nodes < again_nodes,
            "{metric:?}: one pass {once_nodes} nodes, searching again {again_nodes}"
        );
    }
}

/// Two searches over complementary halves of the six views (as a 4x4x4 finish runs on
/// two cores) are each complete: improving without a node limit, each half proves the
/// optimum the whole search proves, and within a cap each finds a solution that solves
/// the cube.
#[test]
fn searches_over_halves_of_the_views_stay_complete() {
    let tables = tables(Metric::Htm);
    let mut whole = TwoPhaseSearch::new(&tables);
    let mut halves = [TwoPhaseSearch::new(&tables), TwoPhaseSearch::new(&tables)];
    halves[0].take_views(AS_GIVEN_VIEWS);
    halves[1].take_views(INVERTED_VIEWS);
    let mut rng = SplitMix64::new(4044);
    let solution = |best: &Best| match best {
        Best::Within(moves) | Best::Above { moves, .. } => moves.clone(),
        Best::Nothing => panic!("nothing found"),
    };
    // Short cubes (one within the short search of view 0 alone) and 9-move scrambles,
    // asked for no moves at all: every search improves down to the proven optimum.
    let mut short: Vec<Cube> = vec![
        Cube::from_moves(&parse_moves("R U F").unwrap()),
        Cube::from_moves(&parse_moves("R U2 F' L D").unwrap()),
    ];
    short.extend((0..4).map(|_| Cube::from_moves(&random_scramble(&mut rng, 9))));
    for (i, cube) in short.iter().enumerate() {
        let proven = whole.solve_improving(cube, 0, Stop::never());
        let Best::Above {
            moves,
            optimal: true,
        } = &proven
        else {
            panic!("cube {i}: {proven:?}");
        };
        for (h, half) in halves.iter_mut().enumerate() {
            let found = half.solve_improving(cube, 0, Stop::never());
            assert_eq!(
                found,
                Best::Above {
                    moves: solution(&found),
                    optimal: true
                },
                "cube {i}, half {h}"
            );
            assert_eq!(solution(&found).len(), moves.len(), "cube {i}, half {h}");
            assert!(cube.apply_all(&solution(&found)).is_solved());
        }
    }
    for i in 0..8 {
        let cube = Cube::random(&mut rng);
        for (h, half) in halves.iter_mut().enumerate() {
            let found = half.solve_improving(&cube, 20, Stop::never());
            assert!(
                matches!(found, Best::Within(_)),
                "random cube {i}, half {h}: {found:?}"
            );
            let moves = solution(&found);
            assert!(moves.len() <= 20 && cube.apply_all(&moves).is_solved());
        }
    }
}

#[test]
fn batches_through_the_binary_come_back_in_input_order() {
    let data = data_arg();
    let mut rng = SplitMix64::new(1605);
    let cubes: Vec<Cube> = (0..300).map(|_| Cube::random(&mut rng)).collect();
    let mut input: String = cubes.iter().map(|c| facelet_string(c) + "\n").collect();
    input.push_str("R U R' U'\n\n");
    let output = cubedb(
        &[
            "rubik",
            "solve",
            "--max-length",
            "21",
            "--metric",
            "htm",
            "--data",
            &data,
        ],
        &input,
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let lines: Vec<String> = stdout(&output).lines().map(String::from).collect();
    assert_eq!(lines.len(), cubes.len() + 2);
    for (i, (cube, line)) in cubes.iter().zip(&lines).enumerate() {
        let moves = parse_moves(line).unwrap();
        assert!(cube.apply_all(&moves).is_solved(), "line {}", i + 1);
        assert!(moves.len() <= 21);
    }
    assert_eq!(lines[300], "U R U' R'");
    assert_eq!(lines[301], "");
    // A 54-character scramble without spaces is moves, not facelets: RUR'U' six times is
    // solved, nine times is RUR'U' three times.
    let spaceless = cubedb(
        &[
            "rubik",
            "solve",
            "--max-length",
            "21",
            "--metric",
            "htm",
            "--data",
            &data,
        ],
        &format!(
            "{}
{}
",
            "RUR'U'".repeat(9),
            "RUR'U'".repeat(6)
        ),
    );
    assert!(spaceless.status.success(), "{}", stderr(&spaceless));
    let text = stdout(&spaceless);
    let lines: Vec<&str> = text.lines().collect();
    let sexy = Cube::from_moves(&parse_moves("R U R' U' R U R' U' R U R' U'").unwrap());
    assert!(sexy.apply_all(&parse_moves(lines[0]).unwrap()).is_solved());
    assert_eq!(lines[1], "");
    assert_stderr_has(&output, "solved 302 cubes");
    // Quarter turns, one cube on the command line.
    let output = cubedb(
        &[
            "rubik",
            "solve",
            "--max-length",
            "26",
            "--metric",
            "qtm",
            "--scramble",
            "R U2 F'",
            "--data",
            &data,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "F U2 R'\n");
    assert_stderr_has(&output, "4 quarter turns");
}

#[test]
fn limits_below_the_optimum_are_reported_not_answered_wrongly() {
    let data = data_arg();
    let args = |extra: &[&'static str]| {
        let mut a = vec!["rubik", "solve", "--metric", "htm", "--scramble", "R U F D"];
        a.extend_from_slice(extra);
        a
    };
    let mut no_answer = args(&["--max-length", "3", "--data"]);
    no_answer.push(&data);
    let output = cubedb(&no_answer, "");
    assert_eq!(output.status.code(), Some(3), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert_stderr_has(&output, "cube 1");
    assert!(stderr(&output).contains("no solution of at most 3 face turns"));
    let mut timed = args(&["--max-length", "3", "--timeout", "2", "--data"]);
    timed.push(&data);
    let output = cubedb(&timed, "");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "D' F' U' R'\n");
    assert!(stderr(&output).contains("above --max-length 3 (none exists; this one is optimal)"));
    for bad in [
        vec![
            "rubik",
            "solve",
            "--max-length",
            "21",
            "--timeout",
            "-1",
            "--scramble",
            "R",
        ],
        vec!["rubik", "solve", "--timeout", "1", "--scramble", "R"],
        vec![
            "rubik",
            "solve",
            "--max-length",
            "21",
            "--tables",
            "small",
            "--scramble",
            "R",
        ],
    ] {
        let output = cubedb(&bad, "");
        assert_eq!(
            output.status.code(),
            Some(2),
            "{bad:?}: {}",
            stderr(&output)
        );
    }
    let mut bad_line = vec!["rubik", "solve", "--max-length", "21", "--data"];
    bad_line.push(&data);
    let output = cubedb(&bad_line, "R U\nR X\nU\n");
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert_eq!(stdout(&output), "U' R'\n");
    assert_stderr_has(&output, "cube 2 (line 2)");
}

#[test]
fn scrambles_give_uniform_random_states_in_at_most_21_moves() {
    let data = data_arg();
    let scrambles = cubedb(
        &[
            "rubik", "scramble", "--count", "200", "--seed", "77", "--data", &data,
        ],
        "",
    );
    assert!(scrambles.status.success(), "{}", stderr(&scrambles));
    let positions = cubedb(&["rubik", "random", "--count", "200", "--seed", "77"], "");
    let again = cubedb(
        &[
            "rubik", "scramble", "--count", "200", "--seed", "77", "--data", &data,
        ],
        "",
    );
    assert_eq!(stdout(&scrambles), stdout(&again), "reproducible by seed");
    let lines: Vec<String> = stdout(&scrambles).lines().map(String::from).collect();
    assert_eq!(lines.len(), 200);
    // Scramble i produces position i of `rubik random` with the same seed.
    for (line, facelets) in lines.iter().zip(stdout(&positions).lines()) {
        let moves = parse_moves(line).unwrap();
        assert!(moves.len() <= 21 && no_redundant_moves(&moves), "{line}");
        assert_eq!(facelet_string(&Cube::from_moves(&moves)), facelets);
    }
    // Cheap invariants of many scrambled positions look uniform.
    let htm = tables(Metric::Htm);
    let mut search = TwoPhaseSearch::new(&htm);
    let mut rng = SplitMix64::new(1606);
    let n = 3000;
    let (mut odd, mut twisted, mut flipped, mut home) = (0, [0; 3], 0, 0);
    for _ in 0..n {
        let target = Cube::random(&mut rng);
        let solution = found(search.solve(&target, 21, None));
        let scramble: Vec<Move> = solution.iter().rev().map(|m| m.inverse()).collect();
        let cube = Cube::from_moves(&scramble);
        assert_eq!(cube, target);
        odd += permutation_parity(&cube.cp);
        twisted[cube.co[0] as usize] += 1;
        flipped += cube.eo[0] as u32;
        home += u32::from(cube.cp[0] == 0);
    }
    assert!(
        (1350..1650).contains(&odd),
        "odd corner permutations: {odd}"
    );
    assert!(
        twisted.iter().all(|&t| (880..1120).contains(&t)),
        "{twisted:?}"
    );
    assert!((1350..1650).contains(&flipped), "flipped: {flipped}");
    assert!(
        (280..470).contains(&home),
        "corner at home: {home} (expected 375)"
    );
}

#[test]
fn show_draws_the_net() {
    let output = cubedb(
        &["rubik", "show", "--scramble", "R", "--colour", "never"],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 9);
    assert_eq!(rows[0], "          U  U  F ");
    assert_eq!(rows[3], " L  L  L  F  F  D  R  R  R  U  B  B ");
    let coloured = cubedb(&["rubik", "show", "--colour", "always"], "R U\n");
    assert!(stdout(&coloured).contains("\x1b["));
    let bad = cubedb(&["rubik", "show", "--facelets", "UUU"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert_stderr_has(&bad, "cube 1");
}

#[test]
fn a_damaged_two_phase_table_is_named_not_used() {
    let data = data_dir_with(GROUP);
    let dir = fresh_dir("twophase-damaged");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("rubik-twophase") {
            std::fs::hard_link(&path, dir.join(&name)).unwrap();
        }
    }
    let victim = dir.join("rubik-twophase-corner-slice.cdb");
    let mut bytes = std::fs::read(&victim).unwrap();
    std::fs::remove_file(&victim).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&victim, &bytes).unwrap();
    let dir_arg = dir.display().to_string();
    let output = cubedb(
        &[
            "rubik",
            "solve",
            "--max-length",
            "21",
            "--metric",
            "htm",
            "--scramble",
            "R",
            "--data",
            &dir_arg,
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert_stderr_has(&output, "rubik-twophase-corner-slice.cdb is corrupted");
}

#[test]
fn tables_hold_the_published_diameters() {
    // Kociemba: any position reaches H within 12 face turns, and H is solved within 18.
    let htm = tables(Metric::Htm);
    let [phase1, corner_edges, corner_slice] = htm.histograms();
    assert_eq!(phase1.len() - 1, 12);
    assert_eq!(corner_edges.len() - 1, 18);
    let sum = |h: &[u64]| h.iter().sum::<u64>();
    assert_eq!(sum(phase1), 64_430 * 2_187);
    assert_eq!(sum(corner_edges), 2_768 * 40_320);
    assert_eq!(sum(corner_slice), 40_320 * 24);
    // In quarter turns phase 1 takes longer (never shorter).
    let qtm = tables(Metric::Qtm);
    assert!(qtm.histograms()[0].len() > phase1.len());
}
