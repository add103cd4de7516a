//! Soma cube: the judge sample byte for byte, all 144 valid inputs checked assembly by
//! assembly against an independent tiling check, catalogue vs search, statistics, bad
//! input, and a damaged catalogue.

use super::common::{cubedb, data_dir_with, fresh_dir, sample, stderr, stdout};
use cubedb::catalog;
use cubedb::progress::Progress;
use cubedb::puzzles::soma::{tables, SomaTables};
use cubedb::table::{TableFamily, TableStore};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

/// The shared data folder, with a valid soma catalogue in it.
fn data_dir() -> String {
    data_dir_with("soma").display().to_string()
}

type Cell = [i32; 3];

/// The pieces' cells as in the problem statement, `a` to `g`.
const PIECES: [&[Cell]; 7] = [
    &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [0, 2, 0]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 1, 1]],
    &[[0, 0, 0], [0, 1, 0], [0, 1, 1], [0, 2, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]],
    &[[0, 0, 0], [0, 0, 1], [1, 0, 1], [1, 1, 1]],
    &[[0, 0, 0], [0, 0, 1], [0, 1, 1], [1, 1, 1]],
];

/// A shape moved to the corner, as a sorted list of cells.
fn normalized(cells: &[Cell]) -> Vec<Cell> {
    let least: Cell = std::array::from_fn(|k| cells.iter().map(|c| c[k]).min().unwrap());
    let mut out: Vec<Cell> = cells
        .iter()
        .map(|c| std::array::from_fn(|k| c[k] - least[k]))
        .collect();
    out.sort();
    out
}

/// Every orientation of every piece, found independently of the library: the closure of
/// two quarter turns applied to the statement's cells.
fn orientations() -> Vec<HashSet<Vec<Cell>>> {
    let turn_x = |c: Cell| [c[0], c[2], -c[1]];
    let turn_y = |c: Cell| [-c[2], c[1], c[0]];
    PIECES
        .iter()
        .map(|cells| {
            let mut seen = HashSet::new();
            let mut todo = vec![normalized(cells)];
            while let Some(shape) = todo.pop() {
                if seen.insert(shape.clone()) {
                    let by_x: Vec<Cell> = shape.iter().map(|&c| turn_x(c)).collect();
                    let by_y: Vec<Cell> = shape.iter().map(|&c| turn_y(c)).collect();
                    todo.push(normalized(&by_x));
                    todo.push(normalized(&by_y));
                }
            }
            seen
        })
        .collect()
}

/// The cells of a 27-character line holding `letter`.
fn cells_of(line: &str, letter: u8) -> Vec<Cell> {
    line.bytes()
        .enumerate()
        .filter(|&(_, b)| b == letter)
        .map(|(i, _)| [i as i32 / 9, i as i32 / 3 % 3, i as i32 % 3])
        .collect()
}

/// Every valid judge input: piece `a` in each orientation at each position.
fn all_valid_inputs() -> Vec<String> {
    let mut inputs = Vec::new();
    for shape in &orientations()[0] {
        for p in 0..3 {
            for r in 0..3 {
                for c in 0..3 {
                    let moved: Vec<Cell> = shape
                        .iter()
                        .map(|s| [s[0] + p, s[1] + r, s[2] + c])
                        .collect();
                    if moved.iter().flatten().all(|&x| x < 3) {
                        let mut line = [b'.'; 27];
                        for m in &moved {
                            line[(m[0] * 9 + m[1] * 3 + m[2]) as usize] = b'a';
                        }
                        inputs.push(String::from_utf8(line.to_vec()).unwrap());
                    }
                }
            }
        }
    }
    inputs.sort();
    inputs
}

/// Splits judge output into cases (each ended by an empty line).
fn cases(output: &str) -> Vec<Vec<&str>> {
    assert!(
        output.ends_with("\n\n") || output.is_empty(),
        "output ends badly"
    );
    let mut cases = vec![];
    let mut current = vec![];
    for line in output.lines() {
        if line.is_empty() {
            cases.push(std::mem::take(&mut current));
        } else {
            current.push(line);
        }
    }
    assert!(current.is_empty(), "a case is not closed by an empty line");
    cases
}

/// Checks that `line` is a tiling of the cube by the seven pieces with piece `a` in the
/// orientation of `input`.
fn check_assembly(line: &str, input: &str, orientations: &[HashSet<Vec<Cell>>]) {
    assert_eq!(line.len(), 27, "{line}");
    assert!(line.bytes().all(|b| (b'a'..=b'g').contains(&b)), "{line}");
    for (piece, shapes) in orientations.iter().enumerate() {
        let cells = cells_of(line, b'a' + piece as u8);
        assert!(
            shapes.contains(&normalized(&cells)),
            "{line}: piece {} is not a rotated piece",
            (b'a' + piece as u8) as char
        );
    }
    assert_eq!(
        normalized(&cells_of(line, b'a')),
        normalized(&cells_of(input, b'a')),
        "{line}: a is not oriented as in {input}"
    );
}

#[test]
fn judge_sample_is_reproduced_exactly_by_both_engines() {
    let data = data_dir();
    for engine in ["table", "search"] {
        let out = cubedb(
            &["soma", "--data", &data, "--engine", engine],
            &sample("soma.in"),
        );
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), sample("soma.out"), "engine {engine}");
    }
}

#[test]
fn every_valid_input_gets_480_distinct_real_assemblies_from_both_engines() {
    let data = data_dir();
    let inputs = all_valid_inputs();
    assert_eq!(inputs.len(), 144);
    let text: String = inputs.iter().map(|i| format!("{i}\n")).collect();
    let table = cubedb(&["soma", "--data", &data], &text);
    assert!(table.status.success(), "{}", stderr(&table));
    let table = stdout(&table);
    let search = cubedb(&["soma", "--engine", "search"], &text);
    assert!(search.status.success(), "{}", stderr(&search));
    assert!(table == stdout(&search), "the engines disagree");

    let orientations = orientations();
    let answers = cases(&table);
    assert_eq!(answers.len(), inputs.len());
    let mut everything = HashSet::new();
    for (input, answer) in inputs.iter().zip(&answers) {
        assert_eq!(answer.len(), 480, "{input}");
        assert!(
            answer.windows(2).all(|w| w[0] < w[1]),
            "{input}: not ascending"
        );
        for line in answer {
            check_assembly(line, input, &orientations);
            everything.insert(*line);
        }
    }
    // Each orientation's answer is shared by its 6 positions; 24 x 480 in all.
    assert_eq!(everything.len(), 11_520);
}

#[test]
fn stats_show_the_counts_with_both_engines() {
    let data = data_dir();
    let table = cubedb(&["soma", "--stats", "--data", &data], "");
    assert!(table.status.success(), "{}", stderr(&table));
    let search = cubedb(&["soma", "--stats", "--engine", "search"], "");
    assert_eq!(stdout(&table), stdout(&search));
    let text = stdout(&table);
    assert!(text.contains("assemblies: 11520\n"), "{text}");
    assert!(text.contains("classes up to rotation: 480\n"), "{text}");
    assert!(
        text.contains("classes up to rotation and mirroring: 240\n"),
        "{text}"
    );
    let per_orientation: Vec<&str> = text.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(per_orientation.len(), 24, "{text}");
    let orientations = &orientations()[0];
    let mut shown = HashSet::new();
    for line in per_orientation {
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[2], "480", "{line}");
        shown.insert(normalized(&cells_of(fields[1], b'a')));
    }
    assert_eq!(&shown, orientations);
}

#[test]
fn bad_input_is_rejected_naming_the_line_with_exit_code_2() {
    let data = data_dir();
    let good = "aa.a..a....................";
    let cases = [
        (
            format!("{good}\n\naa.a..a\n"),
            "test case 2 (line 3)",
            "7 characters",
        ),
        (
            format!("{good}\n{good}a\n"),
            "test case 2 (line 2)",
            "28 characters",
        ),
        (
            format!("{good}\n{}\n", good.replace('.', "x")),
            "test case 2 (line 2)",
            "`x`",
        ),
        (
            format!("{good}\naa.a..a..a.................\n"),
            "test case 2 (line 2)",
            "5 cells",
        ),
        (
            format!("{good}\naa.a.......................\n"),
            "test case 2 (line 2)",
            "3 cells",
        ),
        (
            format!("{good}\naaa.a......................\n"),
            "test case 2 (line 2)",
            "L tetracube",
        ),
        (
            format!("{good}\n.aaa..a....................\n"),
            "test case 2 (line 2)",
            "L tetracube",
        ),
    ];
    for (input, place, problem) in cases {
        for engine in ["table", "search"] {
            let out = cubedb(&["soma", "--data", &data, "--engine", engine], &input);
            assert_eq!(out.status.code(), Some(2), "{input}");
            let err = stderr(&out);
            assert!(
                err.contains(place) && err.contains(problem),
                "{input}: {err}"
            );
            // The first case is answered in full, the bad one not at all.
            assert_eq!(cases_of(&stdout(&out)), 1, "{input}");
        }
    }
}

fn cases_of(output: &str) -> usize {
    let answers = cases(output);
    assert!(answers.iter().all(|a| a.len() == 480));
    answers.len()
}

#[test]
fn damaged_catalogue_is_an_error_naming_the_file_never_trusted() {
    let dir = fresh_dir("soma-damaged");
    let data = dir.display().to_string();
    let input = "aa.a..a....................\n";
    let built = cubedb(&["soma", "--data", &data, "--quiet"], input);
    assert!(built.status.success(), "{}", stderr(&built));
    let path_of = |name: &str| -> PathBuf { Path::new(&dir).join(name) };
    for (name, damage) in [
        ("soma-assemblies.cdb", "flip"),
        ("soma-assemblies.cdb", "truncate"),
        ("soma-index.cdb", "flip"),
        ("soma-index.cdb", "truncate"),
    ] {
        let path = path_of(name);
        let good = std::fs::read(&path).unwrap();
        let mut bad = good.clone();
        match damage {
            "flip" => *bad.last_mut().unwrap() ^= 0x01,
            _ => bad.truncate(bad.len() - 27),
        }
        std::fs::write(&path, &bad).unwrap();
        let out = cubedb(&["soma", "--data", &data], input);
        assert_eq!(out.status.code(), Some(1), "{name} {damage}");
        assert!(stdout(&out).is_empty(), "{name} {damage}: answered anyway");
        let err = stderr(&out);
        assert!(
            err.contains(name) && err.contains("cubedb-gen soma"),
            "{err}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bad, "rebuilt silently");
        std::fs::write(&path, &good).unwrap();
    }
    let out = cubedb(&["soma", "--data", &data], input);
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn catalog_group_builds_tables_that_match_its_specs() {
    let dir = fresh_dir("soma-catalog");
    let store = TableStore::new(&dir);
    let group = catalog::group(tables::GROUP).expect("soma is in the catalog");
    group.build(&store, &Progress::hidden()).unwrap();
    for spec in group.specs() {
        store.open(&spec).unwrap();
    }
    let loaded = SomaTables::load_or_build(&store, (), &Progress::hidden()).unwrap();
    assert_eq!(loaded.len(), 11_520);
    assert_eq!(loaded.orientations(), 24);
}
