//! Cubic eight-puzzle: judge sample, every judge input against the published facts, table
//! engine vs search engine vs an independent brute force, bad input, damaged tables.

use crate::common::{cubedb, data_dir_with, fresh_dir, sample, stderr, stdout};
use cubedb::engine::{Solve, Solver};
use cubedb::progress::Progress;
use cubedb::puzzles::rolling::goal::{goal_of_pattern, GoalCell};
use cubedb::puzzles::rolling::judge::format_query;
use cubedb::puzzles::rolling::ranking::{PATTERNS, PATTERNS_PER_EMPTY};
use cubedb::puzzles::rolling::solver::replay;
use cubedb::puzzles::rolling::tables::{self, RollingTables, STARTS};
use cubedb::puzzles::rolling::{Board, Options, Query, SearchSolver, TableSolver, JUDGE_LIMIT};
use cubedb::rng::SplitMix64;
use cubedb::table::{TableFamily, TableStore};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::OnceLock;

fn data_dir() -> PathBuf {
    data_dir_with("rolling")
}

fn tables() -> &'static RollingTables {
    static TABLES: OnceLock<RollingTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        RollingTables::load_or_build(
            &TableStore::new(data_dir()),
            cubedb::puzzles::rolling::RollingUse::Paths,
            &Progress::hidden(),
        )
        .expect("rolling tables open")
    })
}

fn shows_pattern(board: &Board, pattern: u32) -> bool {
    goal_of_pattern(pattern)
        .iter()
        .zip(board.cells)
        .all(|(goal, cell)| match goal {
            GoalCell::Empty => cell == cubedb::puzzles::rolling::state::EMPTY,
            GoalCell::Top(colour) => {
                cell != cubedb::puzzles::rolling::state::EMPTY
                    && cubedb::puzzles::rolling::Orientation(cell).top() == *colour
            }
        })
}

#[test]
fn judge_sample_is_answered_exactly_by_both_engines() {
    let data = data_dir();
    let data = data.to_str().expect("utf-8 path");
    let input = sample("rolling.in");
    let expected = "0\n3\n13\n23\n29\n30\n-1\n-1\n";
    for engine in ["table", "search"] {
        let out = cubedb(&["rolling", "--data", data, "--engine", engine], &input);
        assert!(out.status.success(), "{engine}: {}", stderr(&out));
        assert_eq!(stdout(&out), expected, "{engine}");
    }
}

#[test]
fn every_judge_input_matches_the_published_facts() {
    let tables = tables();
    let mut histogram = vec![0u64; 64];
    for start in 0..STARTS as usize {
        for pattern in 0..PATTERNS {
            let d = tables
                .distance(start, pattern)
                .expect("every pattern is reachable from every start");
            histogram[d as usize] += 1;
        }
    }
    assert_eq!(histogram.iter().sum::<u64>(), 531_441);
    assert_eq!(
        histogram[31..].iter().sum::<u64>(),
        2_010,
        "answers above 30"
    );
    assert_eq!(histogram.iter().rposition(|&n| n > 0), Some(37));
    assert_eq!(histogram[0], 9);
}

#[test]
fn reachable_states_and_radius_per_start_match_the_published_facts() {
    let store = TableStore::new(data_dir());
    let table = store.open(&tables::depths_spec()).expect("depth table");
    let header = table.header();
    // The depth table's histogram sums the BFS runs from a corner, an edge and the
    // centre: corners and the centre reach 4,133,430 states, edges 3,306,744.
    assert_eq!(tables::REPRESENTATIVES, [0, 1, 4]);
    let reached: u64 = header.histogram.iter().sum();
    assert_eq!(reached, 2 * 4_133_430 + 3_306_744);
    assert_eq!(
        header.histogram.len(),
        43,
        "farthest state is 42 moves away"
    );
    // Per representative, count entries that are not "unreachable" (value 3).
    let states = cubedb::puzzles::rolling::ranking::STATES as usize;
    let payload = table.payload();
    for (index, expected) in [4_133_430, 3_306_744, 4_133_430].into_iter().enumerate() {
        let slice = &payload[index * states / 4..(index + 1) * states / 4];
        let unreachable: usize = slice
            .iter()
            .map(|&b| (0..4).filter(|i| (b >> (2 * i)) & 3 == 3).count())
            .sum();
        assert_eq!(states - unreachable, expected, "representative {index}");
    }
    // Radius per start: 41 from a corner, 42 from an edge or the centre.
    for (start, reached, radius) in [(0, 4_133_430, 41), (1, 3_306_744, 42), (4, 4_133_430, 42)] {
        let source = cubedb::puzzles::rolling::ranking::rank(&Board::start(start)) as u64;
        let bfs = cubedb::search::layered_bfs(
            &cubedb::puzzles::rolling::ranking::RollingSpace,
            &[source],
            &Progress::hidden(),
            "test",
        );
        assert_eq!(
            (bfs.reached(), bfs.max_depth()),
            (reached, radius),
            "start {start}"
        );
    }
}

#[test]
fn table_agrees_with_search_on_random_inputs_and_paths_replay() {
    let options = Options {
        limit: JUDGE_LIMIT,
        with_path: true,
    };
    let table: Solver<_, SearchSolver> = Solver::Table(TableSolver::new(tables(), options));
    let search: Solver<TableSolver<'_>, _> = Solver::Search(SearchSolver::new(options));
    let mut rng = SplitMix64::new(31);
    let mut hard_seen = 0;
    for i in 0..300 {
        let query = Query {
            start: rng.below(9) as usize,
            pattern: rng.below(PATTERNS as u64) as u32,
        };
        let by_table = table.solve(&query);
        let by_search = search.solve(&query);
        assert_eq!(by_table.moves, by_search.moves, "query {i}: {query:?}");
        if by_table.moves.is_none() {
            hard_seen += 1;
            continue;
        }
        for solution in [&by_table, &by_search] {
            let path = solution.path.as_ref().expect("path requested");
            assert_eq!(Some(path.len() as u32), solution.moves);
            let end = replay(query.start, path).expect("every roll is legal");
            assert!(shows_pattern(&end, query.pattern), "query {i}: {query:?}");
        }
    }
    assert!(hard_seen < 300);
}

#[test]
fn table_agrees_with_search_on_hardest_inputs() {
    let tables = tables();
    let options = Options {
        limit: JUDGE_LIMIT,
        with_path: false,
    };
    let search: Solver<TableSolver<'_>, _> = Solver::Search(SearchSolver::new(options));
    let table: Solver<_, SearchSolver> = Solver::Table(TableSolver::new(tables, options));
    // Inputs just above and at the judge's limit: search must prove "more than 30".
    let hard: Vec<Query> = (0..PATTERNS)
        .map(|pattern| Query { start: 0, pattern })
        .filter(|q| tables.distance(q.start, q.pattern).is_some_and(|d| d >= 30))
        .step_by(20)
        .take(12)
        .collect();
    assert!(hard.len() >= 6);
    for query in hard {
        assert_eq!(table.solve(&query), search.solve(&query), "{query:?}");
    }
}

/// Plain BFS over boards (no ranks, no tables) from the centre start: the least depth of
/// each goal pattern must equal the table's answer, for all 59,049 patterns.
#[test]
fn table_agrees_with_brute_force_bfs_over_boards() {
    let start = 4;
    let mut seen: HashMap<Board, u8> = HashMap::new();
    let mut frontier = vec![Board::start(start)];
    seen.insert(frontier[0], 0);
    let mut best = vec![u8::MAX; PATTERNS_PER_EMPTY as usize * 9];
    let pattern_of = |board: &Board| {
        let goal: [GoalCell; 9] = std::array::from_fn(|i| match board.cells[i] {
            cubedb::puzzles::rolling::state::EMPTY => GoalCell::Empty,
            c => GoalCell::Top(cubedb::puzzles::rolling::Orientation(c).top()),
        });
        cubedb::puzzles::rolling::goal::pattern_index(&goal) as usize
    };
    best[pattern_of(&frontier[0])] = 0;
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for board in &frontier {
            for roll in cubedb::puzzles::rolling::Roll::ALL {
                if let Some(b) = board.roll(roll) {
                    if let std::collections::hash_map::Entry::Vacant(e) = seen.entry(b) {
                        e.insert(depth);
                        let p = pattern_of(&b);
                        best[p] = best[p].min(depth);
                        next.push(b);
                    }
                }
            }
        }
        frontier = next;
    }
    assert_eq!(seen.len(), 4_133_430);
    assert_eq!(depth - 1, 42, "farthest state from the centre start");
    let tables = tables();
    for pattern in 0..PATTERNS {
        assert_eq!(
            tables.distance(start, pattern),
            Some(best[pattern as usize] as u32),
            "pattern {pattern}"
        );
    }
}

#[test]
fn path_flag_prints_replayable_rolls() {
    let data = data_dir();
    let input = sample("rolling.in");
    let out = cubedb(
        &["rolling", "--path", "--data", data.to_str().unwrap()],
        &input,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 16);
    let queries: Vec<Query> = cubedb::puzzles::rolling::parse_judge_input(input.as_bytes())
        .collect::<Result<_, _>>()
        .unwrap();
    for (query, pair) in queries.iter().zip(lines.chunks(2)) {
        let rolls: Vec<_> = pair[1]
            .chars()
            .map(|c| match c {
                'L' => cubedb::puzzles::rolling::Roll::Left,
                'R' => cubedb::puzzles::rolling::Roll::Right,
                'U' => cubedb::puzzles::rolling::Roll::Up,
                'D' => cubedb::puzzles::rolling::Roll::Down,
                other => panic!("unexpected roll letter {other}"),
            })
            .collect();
        if pair[0] == "-1" {
            assert!(rolls.is_empty());
            continue;
        }
        assert_eq!(rolls.len().to_string(), pair[0]);
        let end = replay(query.start, &rolls).expect("legal rolls");
        assert!(shows_pattern(&end, query.pattern));
    }
}

#[test]
fn bad_input_names_the_data_set_exits_2_and_keeps_earlier_answers() {
    let data = data_dir();
    let data = data.to_str().unwrap();
    let good = format_query(&Query {
        start: 0,
        pattern: 0,
    });
    let cases = [
        (
            format!("{good}1 1\nW W W\nW Q W\nW W E\n0 0\n"),
            "data set 2 (line 7)",
            "`Q`",
        ),
        (
            format!("{good}1 1\nW W W\nW W W\nW W W\n0 0\n"),
            "data set 2",
            "found 0",
        ),
        (
            format!("{good}1 1\nW W W\nW E W\nW W E\n0 0\n"),
            "data set 2",
            "found 2",
        ),
        (
            format!("{good}5 1\nW W W\nW E W\nW W W\n0 0\n"),
            "data set 2",
            "column `5`",
        ),
        (good.clone(), "data set 2", "terminator"),
    ];
    for (input, place, problem) in cases {
        let out = cubedb(&["rolling", "--data", data], &input);
        assert_eq!(out.status.code(), Some(2), "{input}");
        let err = stderr(&out);
        assert!(err.contains(place) && err.contains(problem), "{err}");
        assert_eq!(stdout(&out), "0\n", "only the first data set is answered");
    }
}

#[test]
fn damaged_tables_are_named_and_never_used() {
    let data = data_dir();
    let input = sample("rolling.in");
    for (tag, damage) in [("flip", 0usize), ("cut", 1), ("version", 2)] {
        let dir = fresh_dir(&format!("rolling-{tag}"));
        for spec in RollingTables::specs(cubedb::puzzles::rolling::RollingUse::Paths) {
            std::fs::copy(data.join(spec.file_name()), dir.join(spec.file_name())).unwrap();
        }
        let victim = dir.join(tables::answers_spec().file_name());
        let mut bytes = std::fs::read(&victim).unwrap();
        match damage {
            0 => {
                let last = bytes.len() - 1000;
                bytes[last] ^= 1;
            }
            1 => bytes.truncate(bytes.len() - 4096),
            _ => bytes[12] ^= 0x7f, // first byte of the header: the format version
        }
        std::fs::write(&victim, &bytes).unwrap();
        let out = cubedb(&["rolling", "--data", dir.to_str().unwrap()], &input);
        assert_eq!(out.status.code(), Some(1), "{tag}");
        assert_eq!(stdout(&out), "", "{tag}: no answer from a damaged table");
        let err = stderr(&out);
        assert!(err.contains("rolling-answers.cdb"), "{tag}: {err}");
        assert!(err.contains("cubedb-gen rolling --force"), "{tag}: {err}");
    }
}

#[test]
fn missing_tables_are_built_on_first_use() {
    let dir = fresh_dir("rolling-first-use");
    let out = cubedb(
        &["rolling", "--quiet", "--data", dir.to_str().unwrap()],
        &sample("rolling.in"),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "0\n3\n13\n23\n29\n30\n-1\n-1\n");
    for spec in RollingTables::specs(cubedb::puzzles::rolling::RollingUse::Paths) {
        assert!(dir.join(spec.file_name()).exists());
    }
}

#[test]
fn killing_the_build_leaves_no_table_under_its_name() {
    use std::process::{Command, Stdio};
    for delay_ms in [20, 100, 250, 500] {
        let dir = fresh_dir(&format!("rolling-kill-{delay_ms}"));
        let mut child = Command::new(env!("CARGO_BIN_EXE_cubedb"))
            .args(["rolling", "--quiet", "--data", dir.to_str().unwrap()])
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        for spec in RollingTables::specs(cubedb::puzzles::rolling::RollingUse::Paths) {
            let path = dir.join(spec.file_name());
            if path.exists() {
                // Only a complete, valid table may stand under the real name.
                TableStore::new(&dir)
                    .open(&spec)
                    .unwrap_or_else(|e| panic!("after {delay_ms} ms: {e}"));
            }
        }
    }
}
