//! Puzzles from definition files (`cubedb puzzle`): God's algorithm against published
//! distributions, optimal solutions checked against a brute-force search, scrambles, the
//! output contract and bad input.

use super::common::{cubedb, fresh_dir, stderr, stdout};
use cubedb::progress::Progress;
use cubedb::puzzles::perm::{
    Definition, Element, ExactTable, PatternSearch, PermPuzzle, PuzzleEngine, PuzzleMetric,
    PuzzleSolver,
};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn definition(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
}

/// One of our definitions, compiled in `metric`.
fn load(file: &str, metric: PuzzleMetric) -> PermPuzzle {
    let text = std::fs::read_to_string(definition(file)).expect("definition");
    PermPuzzle::new(&Definition::parse(&text).expect("parses"), metric).expect("compiles")
}

/// The solver `cubedb puzzle solve` would open (tables in `store`, `budget_mb`).
fn open_solver(puzzle: &PermPuzzle, store: &TableStore, budget_mb: u64) -> PuzzleSolver {
    PuzzleSolver::open(
        puzzle,
        store,
        "test",
        budget_mb,
        PuzzleEngine::Auto,
        &Progress::hidden(),
    )
    .expect("a solver")
}

fn gods(file: &str, extra: &[&str], dir: &Path) -> Vec<(u64, u64)> {
    let path = definition(file);
    let mut args = vec![
        "puzzle",
        "gods",
        path.to_str().expect("utf-8 path"),
        "--data",
    ];
    args.push(dir.to_str().expect("utf-8 path"));
    args.push("-q");
    args.extend_from_slice(extra);
    let output = cubedb(&args, "");
    assert!(output.status.success(), "{}", stderr(&output));
    let text = stdout(&output);
    let mut lines: Vec<&str> = text.lines().collect();
    let total = lines.pop().expect("a total line");
    let rows: Vec<(u64, u64)> = lines
        .iter()
        .map(|line| {
            let (d, c) = line.split_once(' ').expect("DISTANCE COUNT");
            (d.parse().expect("distance"), c.parse().expect("count"))
        })
        .collect();
    let sum: u64 = rows.iter().map(|r| r.1).sum();
    assert_eq!(total, format!("total {sum}"));
    rows
}

#[test]
fn fixed_corner_2x2x2_has_the_published_distributions() {
    let dir = fresh_dir("perm-2x2x2");
    let htm = gods("2x2x2-fixed.tws", &[], &dir);
    let counts: Vec<u64> = htm.iter().map(|r| r.1).collect();
    assert_eq!(
        counts,
        [1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]
    );
    let qtm = gods("2x2x2-fixed.tws", &["--metric", "qtm"], &dir);
    assert_eq!(qtm.len() - 1, 14, "God's number in QTM");
    assert_eq!(qtm.last(), Some(&(14, 276)));
    assert_eq!(qtm.iter().map(|r| r.1).sum::<u64>(), 3_674_160);
    // The whole 2x2x2 searched with U, F, R only is the same puzzle.
    let restricted = gods("2x2x2.tws", &["--moves", "U,F,R"], &dir);
    assert_eq!(restricted, htm);
}

#[test]
fn loopover_3x3_distribution() {
    let dir = fresh_dir("perm-loopover");
    let counts: Vec<u64> = gods("loopover-3x3.tws", &[], &dir)
        .iter()
        .map(|r| r.1)
        .collect();
    assert_eq!(counts, [1, 12, 96, 736, 5208, 28674, 89497, 54741, 2475]);
}

/// Distances by a plain BFS over states (no ranking, no tables) up to `depth`.
fn brute_force(puzzle: &PermPuzzle, depth: usize) -> HashMap<Element, usize> {
    let mut seen = HashMap::from([(puzzle.solved.clone(), 0)]);
    let mut layer = vec![puzzle.solved.clone()];
    for d in 1..=depth {
        let mut next = Vec::new();
        for state in &layer {
            for m in &puzzle.moves {
                let there = state.then(&m.element, &puzzle.sets);
                if !seen.contains_key(&there) {
                    seen.insert(there.clone(), d);
                    next.push(there);
                }
            }
        }
        layer = next;
    }
    seen
}

#[test]
fn table_solutions_are_optimal_and_verified() {
    let dir = fresh_dir("perm-solve");
    let store = TableStore::new(&dir);
    for (file, metric) in [
        ("2x2x2-fixed.tws", PuzzleMetric::Htm),
        ("2x2x2-fixed.tws", PuzzleMetric::Qtm),
        ("loopover-3x3.tws", PuzzleMetric::Htm),
    ] {
        let text = std::fs::read_to_string(definition(file)).expect("definition");
        let def = Definition::parse(&text).expect("parses");
        let puzzle = PermPuzzle::new(&def, metric).expect("compiles");
        let table = ExactTable::load_or_build(&puzzle, &store, file, 1024, &Progress::hidden())
            .expect("table");
        let known = brute_force(&puzzle, 6);
        let mut rng = SplitMix64::new(25);
        let mut checked = 0;
        let solve = |state: &Element| -> Vec<usize> {
            let mut found = None;
            table
                .each_solution_of(state, |p| {
                    found = Some(p.to_vec());
                    false
                })
                .expect("a position");
            found.expect("a solution")
        };
        for (state, &distance) in known.iter().take(3000) {
            let path = solve(state);
            assert_eq!(path.len(), distance, "{file}: optimal length");
            assert!(puzzle.is_solved(&puzzle.apply_path(state, &path)));
            checked += 1;
        }
        assert!(checked >= 1000);
        // Random positions: a scramble is as long as the solution of where it leads.
        for _ in 0..200 {
            let scramble = table.random_scramble(&mut rng).expect("scramble");
            let state = puzzle.apply_path(&puzzle.solved, &scramble);
            let path = solve(&state);
            assert_eq!(path.len(), scramble.len());
            assert!(puzzle.is_solved(&puzzle.apply_path(&state, &path)));
            // Every listed optimal solution solves, and they are distinct.
            let mut all = Vec::new();
            table.each_solution_of(&state, |p| {
                all.push(p.to_vec());
                all.len() < 50
            });
            assert!(all
                .iter()
                .all(|p| p.len() == path.len() && puzzle.is_solved(&puzzle.apply_path(&state, p))));
            let count = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), count);
        }
    }
}

#[test]
fn solve_contract_and_bad_input() {
    let dir = fresh_dir("perm-contract");
    let file = definition("2x2x2-fixed.tws");
    let file = file.to_str().expect("utf-8 path");
    let data = dir.to_str().expect("utf-8 path");
    // One line per scramble, in input order; an empty line for a solved state.
    let output = cubedb(
        &["puzzle", "solve", file, "--data", data, "-q"],
        "R U\n\nU U'\nF2 R' U2\n",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "U' R'\n\n\nU2 R F2\n");
    let output = cubedb(
        &[
            "puzzle",
            "solve",
            file,
            "--data",
            data,
            "-q",
            "--scramble",
            "R U",
        ],
        "",
    );
    assert_eq!(stdout(&output), "U' R'\n");
    // Scrambles from `puzzle scramble` come back solved by as many moves.
    let output = cubedb(
        &[
            "puzzle", "scramble", file, "--data", data, "--count", "20", "--seed", "7",
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let scrambles = stdout(&output);
    let output = cubedb(&["puzzle", "solve", file, "--data", data, "-q"], &scrambles);
    let solutions = stdout(&output);
    for (scramble, solution) in scrambles.lines().zip(solutions.lines()) {
        assert_eq!(scramble.split(' ').count(), solution.split(' ').count());
    }
    // An unknown move: exit 2, naming the line and the move.
    let output = cubedb(
        &["puzzle", "solve", file, "--data", data, "-q"],
        "R U\nR Q\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("line 2") && message.contains("`Q`"),
        "{message}"
    );
    // A malformed definition: exit 2, naming the file and the line.
    let bad = dir.join("bad.tws");
    std::fs::write(
        &bad,
        "Name x\nSet A 3 1\nSolved\nA\n1 2 3\nEnd\nMove M\nA\n1 2 4\nEnd\n",
    )
    .expect("write");
    let output = cubedb(&["puzzle", "info", bad.to_str().expect("utf-8")], "");
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("bad.tws") && message.contains("line"),
        "{message}"
    );
}

#[test]
fn an_edited_definition_gets_its_own_table() {
    let dir = fresh_dir("perm-hash");
    let store = TableStore::new(&dir);
    let text = std::fs::read_to_string(definition("loopover-3x3.tws")).expect("definition");
    let original = load("loopover-3x3.tws", PuzzleMetric::Htm);
    // Drop the last column move: a different puzzle.
    let cut = text.rfind("Move C3").expect("a C3 move");
    let edited_def = Definition::parse(&text[..cut]).expect("parses");
    let edited = PermPuzzle::new(&edited_def, PuzzleMetric::Htm).expect("compiles");
    assert_ne!(original.hash, edited.hash);
    let a = ExactTable::load_or_build(&original, &store, "a", 64, &Progress::hidden()).expect("a");
    let b = ExactTable::load_or_build(&edited, &store, "b", 64, &Progress::hidden()).expect("b");
    assert_ne!(a.path(), b.path());
    assert_eq!(a.states(), 181_440);
    assert!(b.histogram.len() > a.histogram.len(), "fewer moves, deeper");
}

#[test]
fn pattern_database_search_matches_the_exact_table() {
    let dir = fresh_dir("perm-pdb");
    let store = TableStore::new(&dir);
    for metric in [PuzzleMetric::Htm, PuzzleMetric::Qtm] {
        let text = std::fs::read_to_string(definition("2x2x2-fixed.tws")).expect("definition");
        let puzzle =
            PermPuzzle::new(&Definition::parse(&text).expect("parses"), metric).expect("compiles");
        let exact = ExactTable::load_or_build(&puzzle, &store, "x", 64, &Progress::hidden())
            .expect("exact table");
        // A 1 MB budget splits the corners into groups of four and three: real IDA*.
        let search = PatternSearch::load_or_build(&puzzle, &store, "x", 1, &Progress::hidden())
            .expect("pattern databases");
        assert_eq!(search.sizes().len(), 2, "{:?}", search.sizes());
        let mut rng = SplitMix64::new(26);
        for _ in 0..150 {
            let scramble = exact.random_scramble(&mut rng).expect("scramble");
            let state = puzzle.apply_path(&puzzle.solved, &scramble);
            let mut found = Vec::new();
            search
                .each_solution(&state, 20, |p| {
                    found.push(p.to_vec());
                    found.len() < 3
                })
                .expect("a position");
            assert!(!found.is_empty());
            for path in &found {
                assert_eq!(path.len(), scramble.len(), "optimal length");
                assert!(puzzle.is_solved(&puzzle.apply_path(&state, path)));
            }
        }
    }
}

#[test]
fn definition_driven_3x3x3_is_optimal_on_short_scrambles() {
    let dir = fresh_dir("perm-3x3x3");
    let store = TableStore::new(&dir);
    let puzzle = load("3x3x3.tws", PuzzleMetric::Htm);
    let search = PatternSearch::load_or_build(&puzzle, &store, "x", 1024, &Progress::hidden())
        .expect("pattern databases");
    let known = brute_force(&puzzle, 5);
    assert_eq!(known.len(), 1 + 18 + 243 + 3240 + 43239 + 574908);
    let mut rng = SplitMix64::new(27);
    let states: Vec<(&Element, &usize)> = known.iter().collect();
    for _ in 0..300 {
        let (state, &distance) = states[rng.below(states.len() as u64) as usize];
        let mut solution = None;
        search.each_solution(state, 20, |p| {
            solution = Some(p.to_vec());
            false
        });
        let path = solution.expect("solved");
        assert_eq!(path.len(), distance);
        assert!(puzzle.is_solved(&puzzle.apply_path(state, &path)));
    }
}

#[test]
fn damaged_or_missing_files_are_named_or_rebuilt() {
    let dir = fresh_dir("perm-damage");
    let file = definition("loopover-3x3.tws");
    let file = file.to_str().expect("utf-8 path");
    let data = dir.to_str().expect("utf-8 path");
    let solve = || cubedb(&["puzzle", "solve", file, "--data", data, "-q"], "R1 C2\n");
    let output = solve();
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "C2' R1'\n");
    let coords = std::fs::read_dir(&dir)
        .expect("data folder")
        .map(|e| e.expect("entry").path())
        .find(|p| p.to_string_lossy().ends_with("-coords.cdb"))
        .expect("a coordinate file");
    // A coordinate file deleted: written again, same answers.
    std::fs::remove_file(&coords).expect("remove");
    let _ = std::fs::remove_file(cubedb::table::seal::seal_path(&coords));
    assert_eq!(stdout(&solve()), "C2' R1'\n");
    assert!(coords.exists());
    // A coordinate file damaged: refused, naming it.
    let mut bytes = std::fs::read(&coords).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    std::fs::write(&coords, &bytes).expect("write");
    let output = solve();
    assert!(!output.status.success());
    let message = stderr(&output);
    assert!(
        message.contains("-coords.cdb") && message.contains("corrupted"),
        "{message}"
    );
}

#[test]
fn our_definitions_have_the_published_counts() {
    let dir = fresh_dir("perm-counts");
    let cases: [(&str, &[&str], u64, usize, u64); 5] = [
        // file, options, positions, God's number, antipodes
        (
            "skewb.tws",
            &["--moves", "DFR,UBR,DBR,DBL"],
            3_149_280,
            11,
            90,
        ),
        ("pyraminx-no-tips.tws", &[], 933_120, 11, 32),
        ("pyraminx.tws", &[], 75_582_720, 15, 512),
        ("3x3x3.tws", &["--moves", "U,R"], 73_483_200, 20, 54),
        ("2x2x2.tws", &[], 88_179_840, 11, 64_736),
    ];
    for (file, options, positions, gods_number, antipodes) in cases {
        let rows = gods(file, options, &dir);
        assert_eq!(rows.iter().map(|r| r.1).sum::<u64>(), positions, "{file}");
        assert_eq!(
            rows.last(),
            Some(&(gods_number as u64, antipodes)),
            "{file}"
        );
    }
    let rows = gods("3x3x3.tws", &["--moves", "U,R", "--metric", "qtm"], &dir);
    assert_eq!(rows.last(), Some(&(25, 87)), "<U,R> in QTM");
}

#[test]
fn states_from_a_scramble_file() {
    let dir = fresh_dir("perm-states");
    let file = definition("2x2x2-fixed.tws");
    let file = file.to_str().expect("utf-8 path");
    let data = dir.to_str().expect("utf-8 path");
    let states = dir.join("states.scr");
    // Writes a states file and solves it.
    let solve_file = |text: &str| {
        std::fs::write(&states, text).expect("write");
        cubedb(
            &[
                "puzzle",
                "solve",
                file,
                "--data",
                data,
                "-q",
                "--states",
                states.to_str().expect("utf-8"),
            ],
            "",
        )
    };
    // R U as a position (0-based, per slot), as an alg, and the solved state.
    let output = solve_file("ScrambleAlg a\nR U\nEnd\nScrambleAlg b\nEnd\nScrambleState c\nCORNERS\n0 1 2 3 4 5 6\n0 0 0 0 0 0 0\nEnd\n");
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "U' R'\n\n\n");
    // A position breaking the definition's rules: exit 2, naming the file, line and rule.
    let output = solve_file(
        "ScrambleAlg a\nR U\nEnd\nScrambleState bad\nCORNERS\n0 1 2 3 4 5 5\n0 0 0 0 0 0 0\nEnd\n",
    );
    assert_eq!(output.status.code(), Some(2));
    let message = stderr(&output);
    assert!(
        message.contains("states.scr")
            && message.contains("line 4")
            && message.contains("not those of the solved state"),
        "{message}"
    );
    // A twist the moves cannot make: no answer, said so.
    let output = solve_file("ScrambleState twisted\nCORNERS\n0 1 2 3 4 5 6\n1 0 0 0 0 0 0\nEnd\n");
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not reachable"),
        "{}",
        stderr(&output)
    );
}

/// The shortest way from `state` to a position matching `pattern` (pieces and
/// orientations, `?` matching anything), by trying every move sequence up to `limit`.
fn brute_force_to_pattern(
    puzzle: &PermPuzzle,
    state: &Element,
    pattern: &Element,
    limit: usize,
) -> Option<usize> {
    const ANY: u8 = u8::MAX;
    let matches = |s: &Element| {
        s.orbits.iter().zip(&pattern.orbits).all(|(o, p)| {
            o.perm
                .iter()
                .zip(&o.ori)
                .zip(p.perm.iter().zip(&p.ori))
                .all(|((&l, &r), (&pl, &pr))| (pl == ANY || pl == l) && (pr == ANY || pr == r))
        })
    };
    fn search(
        puzzle: &PermPuzzle,
        s: &Element,
        left: usize,
        matches: &dyn Fn(&Element) -> bool,
    ) -> bool {
        matches(s)
            || (left > 0
                && puzzle
                    .moves
                    .iter()
                    .any(|m| search(puzzle, &s.then(&m.element, &puzzle.sets), left - 1, matches)))
    }
    (0..=limit).find(|&depth| search(puzzle, state, depth, &matches))
}

/// Targets: a partial pattern (first layer, any top), orientations only, and a full
/// position. The target solver's lengths equal a brute-force search for the nearest
/// matching position, every solution reaches one, and bad targets are named (exit 2).
#[test]
fn solving_to_target_patterns() {
    use cubedb::puzzles::perm::parse_target;
    use cubedb::puzzles::perm::target::retarget;
    let dir = fresh_dir("perm-target");
    let store = TableStore::new(&dir);
    let puzzle = load("2x2x2-fixed.tws", PuzzleMetric::Htm);
    let targets = [
        "Scramble layer\nCORNERS\n? ? ? ? 5 6 7\n? ? ? ? 0 0 0\nEnd\n",
        "ScrambleState twist\nCORNERS\n? ? ? ? ? ? ?\n0 0 0 0 0 0 0\nEnd\n",
        "Scramble swap\nCORNERS\n2 1 3 4 5 6 7\n0 0 0 0 0 0 0\nEnd\n",
    ];
    let mut rng = SplitMix64::new(77);
    for text in targets {
        let pattern = parse_target(text, &puzzle.sets, &puzzle.solved).expect("a target");
        let (projected, map) = retarget(&puzzle, &pattern).expect("a valid target");
        let solver = open_solver(&projected, &store, 64);
        for _ in 0..40 {
            let walk: Vec<usize> = (0..rng.below(5))
                .map(|_| rng.below(puzzle.moves.len() as u64) as usize)
                .collect();
            // Start from the target's neighbourhood when it is a full position.
            let start = if text.contains("swap") {
                pattern.clone()
            } else {
                puzzle.solved.clone()
            };
            let state = puzzle.apply_path(&start, &walk);
            let path = solver.solve(&map.apply(&state), 30).expect("solvable");
            let reached = puzzle.apply_path(&state, &path);
            assert_eq!(
                brute_force_to_pattern(&puzzle, &reached, &pattern, 0),
                Some(0),
                "the solution reaches the target"
            );
            assert_eq!(
                Some(path.len()),
                brute_force_to_pattern(&puzzle, &state, &pattern, 5),
                "optimal to the nearest matching position"
            );
        }
    }
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "Scramble x\nCORNERS\n? ? ? 4 5 6 6\n? ? ? ? 0 0 0\nEnd\n",
    )
    .expect("write");
    let file = definition("2x2x2-fixed.tws");
    let output = cubedb(
        &[
            "puzzle",
            "solve",
            file.to_str().expect("utf-8"),
            "--target",
            bad.to_str().expect("utf-8"),
            "--scramble",
            "R",
            "--data",
            dir.to_str().expect("utf-8"),
        ],
        "",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("piece 6 is named 2 times"),
        "{}",
        stderr(&output)
    );
}

/// Square-1 (shape rules as `Illegal` placements): IDA* over databases of the pieces
/// told apart finds solutions as short as a brute-force search over legal moves, every
/// state on the way is legal, and a scramble through a forbidden state is refused.
#[test]
fn square_one_respects_its_shape_rules() {
    let dir = fresh_dir("perm-square-one");
    let store = TableStore::new(&dir);
    let puzzle = load("square-1.tws", PuzzleMetric::Htm);
    let solver = open_solver(&puzzle, &store, 32);
    assert!(solver.exact().is_none());
    // Shortest legal distance, by trying every legal sequence.
    fn legal_distance(puzzle: &PermPuzzle, state: &Element, limit: usize) -> Option<usize> {
        fn reach(puzzle: &PermPuzzle, s: &Element, left: usize) -> bool {
            puzzle.is_solved(s)
                || (left > 0
                    && puzzle.moves.iter().any(|m| {
                        let next = s.then(&m.element, &puzzle.sets);
                        puzzle.is_legal(&next) && reach(puzzle, &next, left - 1)
                    }))
        }
        (0..=limit).find(|&d| reach(puzzle, state, d))
    }
    let mut rng = SplitMix64::new(88);
    for _ in 0..25 {
        let mut state = puzzle.solved.clone();
        let mut steps = 0;
        while steps < 4 {
            let m = rng.below(puzzle.moves.len() as u64) as usize;
            let next = state.then(&puzzle.moves[m].element, &puzzle.sets);
            if puzzle.is_legal(&next) {
                state = next;
                steps += 1;
            }
        }
        let path = solver.solve(&state, 20).expect("solvable");
        let mut walk = state.clone();
        for &m in &path {
            walk = walk.then(&puzzle.moves[m].element, &puzzle.sets);
            assert!(
                puzzle.is_legal(&walk),
                "the solution passes a forbidden state"
            );
        }
        assert!(puzzle.is_solved(&walk));
        assert_eq!(Some(path.len()), legal_distance(&puzzle, &state, 4));
    }
    let error = puzzle
        .scrambled("U2 S")
        .expect_err("a corner across the slash line");
    assert!(error.to_string().contains("Illegal"), "{error}");
}

/// The 4x4x4 (identical centres): IDA* over databases of one colour's centres, groups of
/// wing edges and the corners solves short scrambles at the brute-force distance.
#[test]
fn four_by_four_short_scrambles_are_optimal() {
    let dir = fresh_dir("perm-444");
    let store = TableStore::new(&dir);
    let puzzle = load("4x4x4.tws", PuzzleMetric::Htm);
    let solver = open_solver(&puzzle, &store, 64);
    let mut rng = SplitMix64::new(44);
    for _ in 0..20 {
        let walk: Vec<usize> = (0..3)
            .map(|_| rng.below(puzzle.moves.len() as u64) as usize)
            .collect();
        let state = puzzle.apply_path(&puzzle.solved, &walk);
        let path = solver.solve(&state, 10).expect("solvable");
        assert!(puzzle.is_solved(&puzzle.apply_path(&state, &path)));
        let shortest = brute_force_to_pattern(&puzzle, &state, &puzzle.solved, 3);
        assert_eq!(Some(path.len()), shortest);
    }
}

/// A state's distance, from its table (the length of an optimal solution).
fn distance(table: &ExactTable, state: &Element) -> usize {
    let mut length = None;
    table
        .each_solution_of(state, |path| {
            length = Some(path.len());
            false
        })
        .expect("reachable");
    length.expect("a solution")
}

/// The 0.999 quantile of the chi-square distribution with `df` degrees of freedom
/// (Wilson–Hilferty: within a few percent from 3 degrees on).
fn chi_square_999(df: usize) -> f64 {
    let k = df as f64;
    let z = 3.090_232;
    k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3)
}

/// Pearson's statistic of `observed` counts per distance against God's algorithm's
/// `histogram` (states per distance), distances whose expected count is below 20 merged
/// into their neighbours; with its degrees of freedom.
fn chi_square(observed: &[u64], histogram: &[u64]) -> (f64, usize) {
    let draws: u64 = observed.iter().sum();
    let states: u64 = histogram.iter().sum();
    let mut bins: Vec<(f64, f64)> = Vec::new();
    let (mut seen, mut expected) = (0f64, 0f64);
    for (d, &count) in histogram.iter().enumerate() {
        seen += observed.get(d).copied().unwrap_or(0) as f64;
        expected += count as f64 * draws as f64 / states as f64;
        if expected >= 20.0 {
            bins.push((seen, expected));
            (seen, expected) = (0.0, 0.0);
        }
    }
    if let Some(last) = bins.last_mut() {
        last.0 += seen;
        last.1 += expected;
    }
    let statistic = bins.iter().map(|(o, e)| (o - e) * (o - e) / e).sum();
    (statistic, bins.len() - 1)
}

/// Issue 53: `cubedb puzzle scramble` draws uniformly random states. The lengths of
/// 100,000 scrambles of the 2x2x2 and of the pyraminx (each optimal: checked on a sample
/// against the table's distance of the state it reaches) follow God's algorithm's
/// distribution (chi-square, p = 0.001); scrambles of random moves instead fail the same
/// test, so the test can fail.
#[test]
fn scramble_lengths_follow_gods_algorithm() {
    let data = fresh_dir("scramble-chi-square");
    let data_arg = data.display().to_string();
    for file in ["2x2x2.tws", "pyraminx.tws"] {
        let path = definition(file).display().to_string();
        let out = cubedb(
            &[
                "puzzle", "scramble", &path, "--count", "100000", "--seed", "53", "--data",
                &data_arg, "-q",
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 100_000);
        let puzzle = load(file, PuzzleMetric::Htm);
        let store = TableStore::new(&data);
        let table =
            ExactTable::load_or_build(&puzzle, &store, "test", 1024, &Progress::hidden()).unwrap();
        let mut observed = vec![0u64; table.histogram.len() + 1];
        for (i, line) in lines.iter().enumerate() {
            let length = line.split_whitespace().count();
            observed[length.min(table.histogram.len())] += 1;
            if i % 97 == 0 {
                let state = puzzle
                    .scrambled(line)
                    .expect("a scramble in the puzzle's moves");
                let distance = distance(&table, &state);
                assert_eq!(distance, length, "{file}: {line} is not optimal");
            }
        }
        assert_eq!(
            *observed.last().unwrap(),
            0,
            "{file}: longer than God's number"
        );
        let (statistic, df) = chi_square(&observed, &table.histogram);
        assert!(
            statistic < chi_square_999(df),
            "{file}: chi-square {statistic:.1} with {df} degrees of freedom"
        );

        // The control: states from 8 random moves are not uniform, and the test says so.
        let mut rng = SplitMix64::new(7);
        let mut biased = vec![0u64; table.histogram.len() + 1];
        for _ in 0..20_000 {
            let mut state = puzzle.solved.clone();
            for _ in 0..8 {
                let m = (rng.next_u64() % puzzle.moves.len() as u64) as usize;
                state = puzzle.apply_path(&state, &[m]);
            }
            biased[distance(&table, &state)] += 1;
        }
        let (statistic, df) = chi_square(&biased, &table.histogram);
        assert!(
            statistic > chi_square_999(df),
            "{file}: random moves passed, chi-square {statistic:.1}"
        );
    }
}

/// Issue 54: the small puzzles' event scrambles (`cubedb scramble 222 | pyram | skewb`)
/// are uniformly random states at least the WCA's minimum from solved: the lengths of
/// 100,000 of each (each optimal: checked on a sample) follow God's algorithm's
/// distribution over the distances from that minimum on (chi-square, p = 0.001; the test
/// above shows the statistic fails biased draws).
#[test]
fn event_scramble_lengths_follow_gods_algorithm_from_the_minimum() {
    let data = fresh_dir("event-chi-square");
    let data_arg = data.display().to_string();
    for (event, file, minimum) in [
        ("222", "2x2x2-fixed.tws", 4),
        ("pyram", "pyraminx.tws", 6),
        ("skewb", "skewb-fixed.tws", 7),
    ] {
        let out = cubedb(
            &[
                "scramble", event, "--count", "100000", "--seed", "54", "--data", &data_arg, "-q",
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 100_000);
        let puzzle = load(file, PuzzleMetric::Htm);
        let store = TableStore::new(&data);
        let table =
            ExactTable::load_or_build(&puzzle, &store, "test", 1024, &Progress::hidden()).unwrap();
        let mut observed = vec![0u64; table.histogram.len() + 1];
        for (i, line) in lines.iter().enumerate() {
            let length = line.split_whitespace().count();
            observed[length.min(table.histogram.len())] += 1;
            if i % 197 == 0 {
                let state = puzzle
                    .scrambled(line)
                    .expect("a scramble in the puzzle's moves");
                assert_eq!(
                    distance(&table, &state),
                    length,
                    "{event}: {line} is not optimal"
                );
            }
        }
        assert!(
            observed[..minimum].iter().all(|&c| c == 0),
            "{event}: {observed:?}"
        );
        let mut from_minimum = table.histogram.clone();
        from_minimum[..minimum].iter_mut().for_each(|c| *c = 0);
        let (statistic, df) = chi_square(&observed, &from_minimum);
        assert!(
            statistic < chi_square_999(df),
            "{event}: chi-square {statistic:.1} with {df} degrees of freedom"
        );
    }
}

/// Square-1's random states (`Illegal` rules: drawn as a random loop at the solved shape
/// times a random shape's path) are legal and uniform over the legal shapes, which hold
/// equally many states each: the shapes (where the corners' second halves lie) of 10 draws
/// per shape follow the uniform distribution (chi-square, p = 0.001) over the shapes a
/// breadth-first search by legal moves finds here, and no draw lies outside them.
#[test]
fn square_one_random_states_are_uniform_over_its_shapes() {
    let puzzle = load("square-1.tws", PuzzleMetric::Htm);
    let slice = puzzle
        .sets
        .iter()
        .position(|s| s.name == "SLICE")
        .expect("set SLICE");
    let halves: Vec<u8> = puzzle
        .illegal
        .iter()
        .flat_map(|r| r.labels.clone())
        .collect();
    let shape = |state: &Element| -> Vec<bool> {
        state.orbits[slice]
            .perm
            .iter()
            .map(|l| halves.contains(l))
            .collect()
    };
    // The legal shapes, by legal moves from the solved one.
    let mut index: HashMap<Vec<bool>, usize> = HashMap::new();
    let mut queue = vec![puzzle.solved.clone()];
    index.insert(shape(&puzzle.solved), 0);
    while let Some(here) = queue.pop() {
        for m in &puzzle.moves {
            let next = here.then(&m.element, &puzzle.sets);
            if puzzle.is_legal(&next) && !index.contains_key(&shape(&next)) {
                index.insert(shape(&next), index.len());
                queue.push(next);
            }
        }
    }
    let shapes = index.len();
    let mut observed = vec![0u64; shapes];
    let mut rng = SplitMix64::new(1);
    for _ in 0..10 * shapes {
        let state = cubedb::puzzles::perm::group::random_state(&puzzle, &mut rng)
            .expect("a random legal state");
        assert!(puzzle.is_legal(&state));
        let at = index
            .get(&shape(&state))
            .expect("a shape legal moves reach");
        observed[*at] += 1;
    }
    let expected = 10.0;
    let statistic: f64 = observed
        .iter()
        .map(|&o| (o as f64 - expected).powi(2) / expected)
        .sum();
    assert!(
        statistic < chi_square_999(shapes - 1),
        "chi-square {statistic:.0} over {shapes} shapes"
    );
}

/// A definition with neither an exact table nor a plan (TopSpin) is scrambled from
/// random states by the stabilizer chain, the same for a seed; `--engine chain` solves
/// any state, each answer taking its scramble to solved (a solved state's answer is
/// empty); a definition the chain cannot take is refused with its reason.
#[test]
fn the_stabilizer_chain_scrambles_and_solves_any_definition() {
    let dir = fresh_dir("perm-chain");
    let data = dir.to_str().expect("utf-8 path");
    let file = definition("topspin.tws");
    let file = file.to_str().expect("utf-8 path");
    let scramble = |seed: &str| {
        let output = cubedb(
            &[
                "puzzle", "scramble", file, "--data", data, "--count", "4", "--seed", seed,
            ],
            "",
        );
        assert!(output.status.success(), "{}", stderr(&output));
        assert!(
            stderr(&output).contains("stabilizer chain"),
            "{}",
            stderr(&output)
        );
        stdout(&output)
    };
    let scrambles = scramble("5");
    assert_eq!(scrambles.lines().count(), 4);
    assert_eq!(scrambles, scramble("5"));
    assert_ne!(scrambles, scramble("6"));
    let puzzle = load("topspin.tws", PuzzleMetric::Htm);
    for line in scrambles.lines() {
        assert!(!puzzle.is_solved(&puzzle.scrambled(line).expect("parses")));
    }
    let chain = [
        "puzzle", "solve", file, "--data", data, "-q", "--engine", "chain",
    ];
    let output = cubedb(&chain, &scrambles);
    assert!(output.status.success(), "{}", stderr(&output));
    let solutions = stdout(&output);
    let mut again = String::new();
    for (scramble, solution) in scrambles.lines().zip(solutions.lines()) {
        assert!(!solution.is_empty());
        again.push_str(&format!("{scramble} {solution}\n"));
    }
    let output = cubedb(&chain, &again);
    assert!(output.status.success(), "{}", stderr(&output));
    assert_eq!(stdout(&output), "\n\n\n\n");
    // Square-1's shape rules: no chain.
    let sq1 = definition("square-1.tws");
    let output = cubedb(
        &[
            "puzzle",
            "solve",
            sq1.to_str().expect("utf-8 path"),
            "--data",
            data,
            "--engine",
            "chain",
            "--scramble",
            "U",
        ],
        "",
    );
    assert!(!output.status.success());
    assert!(stderr(&output).contains("Illegal"), "{}", stderr(&output));
}
