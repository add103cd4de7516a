//! `cubedb scramble EVENT`: every event's scrambles have the shape of the WCA's notation,
//! read back into a model of the puzzle, reach the state drawn (the same draws as
//! `cubedb puzzle scramble` for the built-in definitions, the 3x3x3 cube drawn from the
//! seed), keep the WCA's minimum distances, and bad input is refused once, exit 2.

use crate::common::{build_lock, cubedb, shared_data_dir, stderr, stdout};
use cubedb::events::notation::check;
use cubedb::events::nxn::{parse_turns, without_back_wide_turns, CubeN};
use cubedb::events::random_moves::format_turns;
use cubedb::events::written::{in_event_words, square1_moves, square1_words, tips_last};
use cubedb::events::{Event, EventScrambler};
use cubedb::puzzles::perm::{Definition, PermPuzzle, PuzzleMetric};
use cubedb::puzzles::rubik::model::cube::Cube;
use cubedb::puzzles::rubik::model::facelets::facelet_string;
use cubedb::puzzles::rubik::model::notation::parse_moves;
use cubedb::rng::SplitMix64;
use std::collections::HashSet;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

fn definition(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("puzzles")
        .join(name)
        .display()
        .to_string()
}

/// The shared data folder, once the tables the `cubedb` command `command` (without its
/// count, seed and folder) builds are there: the first such command of a run is made
/// under the build lock, so tests side by side never build one puzzle's tables in two
/// processes at once (the Square-1 plan's take 45 s of CPU, the 4x4x4's 18 s).
fn data_with_tables_of(command: &[&str]) -> String {
    static BUILT: OnceLock<Mutex<HashSet<String>>> = OnceLock::new();
    let data = shared_data_dir().display().to_string();
    let _guard = build_lock();
    let mut built = BUILT
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    if built.insert(command.join(" ")) {
        let mut args = command.to_vec();
        args.extend_from_slice(&["--count", "1", "--seed", "1", "--data", &data, "-q"]);
        let out = cubedb(&args, "");
        assert!(out.status.success(), "{command:?}: {}", stderr(&out));
    }
    data
}

/// `count` scrambles of `event` (seed 11) from the command line, one string each.
fn scrambles(event: &str, count: usize, extra: &[&str]) -> Vec<String> {
    let data = data_with_tables_of(&["scramble", event]);
    let count_text = count.to_string();
    let mut args = vec![
        "scramble",
        event,
        "--count",
        &count_text,
        "--seed",
        "11",
        "--data",
        &data,
        "-q",
    ];
    args.extend_from_slice(extra);
    let out = cubedb(&args, "");
    assert!(out.status.success(), "{event}: {}", stderr(&out));
    let text = stdout(&out);
    let lines: Vec<String> = text.lines().map(String::from).collect();
    if event == "minx" {
        return lines.chunks(7).map(|c| c.join("\n")).collect();
    }
    lines
}

/// The same draws from `cubedb puzzle scramble` on the definition.
fn puzzle_scrambles(file: &str, count: usize) -> Vec<String> {
    let data = data_with_tables_of(&["puzzle", "scramble", &definition(file)]);
    let count_text = count.to_string();
    let out = cubedb(
        &[
            "puzzle",
            "scramble",
            &definition(file),
            "--count",
            &count_text,
            "--seed",
            "11",
            "--data",
            &data,
            "-q",
        ],
        "",
    );
    assert!(out.status.success(), "{file}: {}", stderr(&out));
    stdout(&out).lines().map(String::from).collect()
}

/// Optimal solution lengths of `scrambles` on a definition (exact table).
fn optimal_lengths(file: &str, scrambles: &[String]) -> Vec<usize> {
    let data = data_with_tables_of(&["puzzle", "scramble", &definition(file)]);
    let out = cubedb(
        &["puzzle", "solve", &definition(file), "--data", &data, "-q"],
        &scrambles.join("\n"),
    );
    assert!(out.status.success(), "{file}: {}", stderr(&out));
    stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().count())
        .collect()
}

#[test]
fn every_event_has_its_shape_and_reads_back_into_its_model() {
    for event in Event::ALL {
        let count = match event {
            Event::Cube4 | Event::Blind4 | Event::Square1 => 4,
            // Its tables take a minute to build: checked by the scramble benchmark.
            Event::Fto => continue,
            _ => 300,
        };
        let lines = scrambles(event.id(), count, &[]);
        assert_eq!(lines.len(), count, "{}", event.id());
        let distinct: HashSet<&String> = lines.iter().collect();
        assert_eq!(distinct.len(), count, "{}: repeated scrambles", event.id());
        for line in &lines {
            check(event, line).unwrap_or_else(|e| panic!("{}: {line}: {e}", event.id()));
            let Some(n) = event.cube_size() else {
                continue;
            };
            let mut cube = CubeN::solved(n);
            cube.apply_text(line)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert!(
                !cube.is_solved(),
                "{}: {line} leaves the cube solved",
                event.id()
            );
            if n == 3 && !matches!(event, Event::Blind3 | Event::MultiBlind) {
                // The sticker model and the cubie model agree on every scramble.
                let moves = parse_moves(line).expect("face turns");
                assert_eq!(
                    cube.facelets(),
                    facelet_string(&Cube::from_moves(&moves)),
                    "{line}"
                );
            }
        }
    }
}

#[test]
fn random_state_3x3x3_scrambles_reach_the_cube_drawn_from_the_seed() {
    let _guard = crate::common::build_lock();
    let store = cubedb::table::TableStore::new(shared_data_dir());
    let progress = cubedb::progress::Progress::hidden();
    for event in [Event::Cube3, Event::Blind3, Event::FewestMoves] {
        let scrambler = EventScrambler::open(event, false, &store, &progress).expect("open");
        for (index, text) in scrambler
            .scrambles(5, 0, 100, &cubedb::limits::Stop::never())
            .into_iter()
            .enumerate()
        {
            let text = text.expect("scramble");
            // The first draw (a draw within one move of solved would be drawn again).
            let drawn = Cube::random(&mut SplitMix64::stream(5, index as u64));
            // A blindfolded scramble's orientation (wide turns) comes after the state.
            let words: Vec<&str> = text.split(' ').filter(|w| !w.contains('w')).collect();
            let mut cube = CubeN::solved(3);
            cube.apply_text(&words.join(" ")).expect("moves");
            let want = CubeN::from_facelets(3, &facelet_string(&drawn)).expect("facelets");
            assert_eq!(cube, want, "{text}");
            // The picture of the scramble is the picture of the cube drawn.
            if event != Event::Blind3 {
                let picture = cubedb::events::picture(event, &text).expect("picture");
                assert_eq!(picture, cubedb::events::picture::cube_net(&want));
            }
        }
    }
}

#[test]
fn built_in_puzzle_events_write_the_puzzle_commands_draws() {
    // 2x2x2, pyraminx, skewb: the puzzle command's optimal scrambles, rewritten, where
    // they keep the WCA's minimum distance; each is optimal (its length the distance).
    for (event, file, minimum) in [
        ("222", "2x2x2-fixed.tws", 4),
        ("pyram", "pyraminx.tws", 6),
        ("skewb", "skewb-fixed.tws", 7),
    ] {
        let ours = scrambles(event, 200, &[]);
        let theirs = puzzle_scrambles(file, 200);
        let mut same = 0;
        for (a, b) in ours.iter().zip(&theirs) {
            let b = if event == "pyram" {
                tips_last(b)
            } else {
                b.clone()
            };
            if b.split_whitespace().count() >= minimum {
                assert_eq!(*a, b);
                same += 1;
            }
        }
        assert!(same > 150, "{event}: {same} of 200 first draws kept");
        for (length, line) in optimal_lengths(file, &ours).iter().zip(&ours) {
            assert!(
                *length >= minimum,
                "{event}: {line} is {length} from solved"
            );
            assert_eq!(*length, line.split_whitespace().count(), "{event}: {line}");
        }
    }
    // Square-1 and the 4x4x4: the plan's scrambles, rewritten.
    let ours = scrambles("sq1", 3, &[]);
    for (a, b) in ours.iter().zip(puzzle_scrambles("square-1.tws", 3)) {
        assert_eq!(*a, square1_words(&b).expect("moves"));
        assert_eq!(
            square1_words(&square1_moves(a).expect("words")).expect("moves"),
            *a
        );
    }
    let ours = scrambles("444", 3, &[]);
    for (a, b) in ours.iter().zip(puzzle_scrambles("4x4x4.tws", 3)) {
        let turns = parse_turns(&b, 4).expect("turns");
        assert_eq!(*a, format_turns(&without_back_wide_turns(&turns, 4)));
    }
}

#[test]
fn seeds_reproduce_and_formats_agree() {
    let five = scrambles("333", 5, &[]);
    let three = scrambles("333", 3, &[]);
    assert_eq!(five[..3], three[..]);
    let data = shared_data_dir().display().to_string();
    let out = cubedb(
        &[
            "scramble", "minx", "--count", "2", "--seed", "11", "--format", "json", "--data", &data,
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = scrambles("minx", 2, &[]);
    for (i, line) in stdout(&out).lines().enumerate() {
        let value: serde_json::Value = serde_json::from_str(line).expect("json");
        assert_eq!(value["event"], "minx");
        assert_eq!(value["seed"], 11);
        assert_eq!(value["index"], i);
        assert_eq!(value["scramble"].as_str(), Some(text[i].as_str()));
    }
}

#[test]
fn pictures_are_the_nets_of_the_scrambled_cubes() {
    for event in ["222", "444bf", "777"] {
        let data = data_with_tables_of(&["scramble", event]);
        let out = cubedb(
            &[
                "scramble", event, "--count", "3", "--seed", "11", "--format", "svg", "--data",
                &data, "-q",
            ],
            "",
        );
        assert!(out.status.success(), "{}", stderr(&out));
        let lines = scrambles(event, 3, &[]);
        let n: usize = event[..1].parse().expect("size");
        for (svg, line) in stdout(&out).lines().zip(&lines) {
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
            let mut cube = CubeN::solved(n);
            cube.apply_text(line).expect("moves");
            let colours = cubedb::events::picture::net_colours(svg);
            assert_eq!(colours.len(), 6 * n * n);
            for (sticker, colour) in cube.stickers().iter().zip(colours) {
                assert_eq!(
                    cubedb::events::picture::CUBE_COLOURS[*sticker as usize],
                    colour
                );
            }
        }
    }
    // Every event draws each scramble as one SVG document a line.
    for event in Event::ALL {
        let count = if matches!(event, Event::Cube4 | Event::Blind4 | Event::Fto) {
            "1"
        } else {
            "2"
        };
        let data = data_with_tables_of(&["scramble", event.id()]);
        let out = cubedb(
            &[
                "scramble",
                event.id(),
                "--count",
                count,
                "--seed",
                "3",
                "--format",
                "svg",
                "--data",
                &data,
                "-q",
            ],
            "",
        );
        assert!(out.status.success(), "{}: {}", event.id(), stderr(&out));
        let text = stdout(&out);
        assert_eq!(text.lines().count().to_string(), count, "{}", event.id());
        for svg in text.lines() {
            assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"), "{svg}");
            let shapes = ["<polygon", "<rect", "<path", "<circle"]
                .iter()
                .map(|shape| svg.matches(shape).count())
                .sum::<usize>();
            assert!(shapes > 20, "{}: {svg}", event.id());
        }
    }
}

#[test]
fn pictures_of_scrambles_are_pictures_of_the_states_drawn() {
    // Each event scramble, in the WCA's words and drawn move by move, against the state
    // the puzzle command's draw reaches, drawn from the definition's pieces.
    for (event, file, count) in [
        ("pyram", "pyraminx.tws", 40),
        ("skewb", "skewb-fixed.tws", 40),
        ("sq1", "square-1.tws", 4),
        ("fto", "fto.tws", 2),
    ] {
        let ours = scrambles(event, count, &[]);
        let theirs = puzzle_scrambles(file, count);
        let text = std::fs::read_to_string(definition(file)).expect("definition");
        let puzzle = PermPuzzle::new(&Definition::parse(&text).expect("parse"), PuzzleMetric::Htm)
            .expect("puzzle");
        let ev = Event::parse(event).expect("event");
        let mut compared = 0;
        for (a, b) in ours.iter().zip(&theirs) {
            let written = match event {
                "pyram" => tips_last(b),
                "sq1" => square1_words(b).expect("words"),
                // cubing.js's face names for the definition's.
                "fto" => in_event_words(ev, &puzzle, b).expect("words"),
                _ => b.clone(),
            };
            if written != *a {
                // A draw closer to solved than the WCA allows: drawn again.
                continue;
            }
            compared += 1;
            let state = puzzle.scrambled(b).expect("state");
            let want = if event == "sq1" {
                cubedb::events::square1::picture(&puzzle, &state).expect("square-1")
            } else {
                let map = cubedb::events::sticker_map(ev).expect("map");
                map.svg(&map.of_state(&puzzle, &state).expect("state picture"))
            };
            assert_eq!(
                cubedb::events::picture(ev, a).expect("picture"),
                want,
                "{event}: {a}"
            );
        }
        assert!(compared * 2 > count, "{event}: {compared} of {count}");
    }
}

#[test]
fn bad_events_and_flags_are_refused_once() {
    let out = cubedb(&["scramble", "444fast"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("444fast") && err.contains("333mbf") && err.contains("sq1"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let out = cubedb(&["scramble", "666", "--random-state"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--random-state"), "{}", stderr(&out));
    for bad in [["--count", "-1"], ["--seed", "x"], ["--format", "svgz"]] {
        let out = cubedb(&["scramble", "333", bad[0], bad[1]], "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
    }
}
