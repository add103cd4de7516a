//! Partial goals (`--goal`): optimal lengths and every optimal sequence against brute
//! force, each answer checked on the stickers the goal names.

use crate::common::{cubedb, shared_data_dir, stderr, stdout};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::goals::goal::{orientation, Goal, GoalKind, GoalTable};
use cubedb::puzzles::rubik::model::facelets::faces_of_cube;
use cubedb::puzzles::rubik::{parse_moves, Cube, Face, Metric, Move};
use cubedb::rng::SplitMix64;
use cubedb::table::{TableFamily, TableStore};
use std::collections::BTreeSet;

/// The cross on face `face` read off the stickers: the four edge stickers of the face show
/// its centre colour, and each edge's other sticker the centre of its side.
fn cross_on_stickers(cube: &Cube, face: Face) -> bool {
    let stickers = faces_of_cube(cube);
    let f = face.index();
    let centre = |g: usize| stickers[9 * g + 4];
    // Edge stickers of a face are its indices 1, 3, 5, 7; the neighbour sticker of each
    // is found by geometry: the solved cube pairs them up.
    let solved = faces_of_cube(&Cube::SOLVED);
    [1, 3, 5, 7].iter().all(|&k| {
        let own = 9 * f + k;
        if stickers[own] != centre(f) {
            return false;
        }
        // The sticker sharing that edge: the one whose cubie is the same edge, found by
        // turning the face once (an edge sticker of the face moves with its partner).
        let partner = partner_of(own);
        stickers[partner] == solved[partner]
    })
}

/// The other sticker of the edge cubie at sticker `own`: the unique non-centre sticker
/// that a quarter turn of the two faces it lies on both move (found on the solved cube,
/// with cubie labels from the cubie model, so independent of any goal code).
fn partner_of(own: usize) -> usize {
    // Label each edge sticker by the (slot) of the edge showing it on the solved cube:
    // scramble each edge alone and see which two stickers change.
    for e in 0..12 {
        let mut cube = Cube::SOLVED;
        cube.eo[e] = 1;
        cube.eo[(e + 1) % 12] = 1;
        let flipped = faces_of_cube(&cube);
        let solved = faces_of_cube(&Cube::SOLVED);
        let mut cube2 = Cube::SOLVED;
        cube2.eo[(e + 1) % 12] = 1;
        cube2.eo[(e + 2) % 12] = 1;
        let other = faces_of_cube(&cube2);
        let changed: Vec<usize> = (0..54)
            .filter(|&i| flipped[i] != solved[i] && other[i] == solved[i])
            .collect();
        if changed.contains(&own) {
            return changed.into_iter().find(|&i| i != own).unwrap();
        }
    }
    panic!("sticker {own} is not on an edge");
}

/// Brute force: the fewest moves after which `reached` holds, by BFS over positions.
fn brute_distance(cube: &Cube, moves: &[Move], reached: impl Fn(&Cube) -> bool, max: u32) -> u32 {
    let mut seen = std::collections::HashSet::from([*cube]);
    let mut layer = vec![*cube];
    for d in 0..=max {
        if layer.iter().any(&reached) {
            return d;
        }
        let mut next = Vec::new();
        for c in &layer {
            for &m in moves {
                let child = c.apply(m);
                if seen.insert(child) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    panic!("goal not reached within {max}");
}

fn table(kind: GoalKind, metric: Metric) -> GoalTable {
    let store = TableStore::new(shared_data_dir());
    GoalTable::load_or_build(&store, (kind, metric), &Progress::hidden()).unwrap()
}

#[test]
fn cross_lengths_and_sequences_match_brute_force_on_the_stickers() {
    let mut rng = SplitMix64::new(31);
    for metric in [Metric::Htm, Metric::Qtm] {
        let table = table(GoalKind::Cross, metric);
        let moves = metric.moves();
        for _ in 0..12 {
            let scramble: Vec<Move> = (0..4)
                .map(|_| moves[rng.below(moves.len() as u64) as usize])
                .collect();
            let cube = Cube::from_moves(&scramble);
            for face in Face::ALL {
                let goal: Goal = format!("cross:{}", face.letter()).parse().unwrap();
                let frame = orientation(
                    face,
                    Face::ALL
                        .into_iter()
                        .find(|&f| f != face && f != face.opposite())
                        .unwrap(),
                )
                .unwrap();
                let (optimal, all) = table.solve(&cube, &frame, 0, usize::MAX);
                let expected = brute_distance(&cube, &moves, |c| cross_on_stickers(c, face), 6);
                assert_eq!(optimal, expected, "{goal} {metric:?} {scramble:?}");
                for s in &all {
                    assert_eq!(s.len() as u32, optimal);
                    assert!(cross_on_stickers(&cube.apply_all(s), face), "{goal}");
                }
                // Every optimal canonical sequence, by brute force on the stickers.
                if optimal <= 3 {
                    let brute = every_sequence(&cube, optimal as usize, &moves, metric, |c| {
                        cross_on_stickers(c, face)
                    });
                    assert_eq!(
                        all.iter().cloned().collect::<BTreeSet<_>>(),
                        brute,
                        "{goal}"
                    );
                }
            }
        }
    }
}

/// Canonical sequences of exactly `length` moves reaching `reached`, not before the end.
fn every_sequence(
    cube: &Cube,
    length: usize,
    moves: &[Move],
    metric: Metric,
    reached: impl Fn(&Cube) -> bool + Copy,
) -> BTreeSet<Vec<Move>> {
    let mut out = BTreeSet::new();
    let mut stack = vec![(*cube, Vec::<Move>::new())];
    while let Some((c, path)) = stack.pop() {
        if path.len() == length {
            if reached(&c) {
                out.insert(path);
            }
            continue;
        }
        if !path.is_empty() && reached(&c) {
            continue;
        }
        for &m in moves {
            let mut next = path.clone();
            next.push(m);
            if canonical(&next, metric) {
                stack.push((c.apply(m), next));
            }
        }
    }
    out
}

fn canonical(moves: &[Move], metric: Metric) -> bool {
    let order = |m: &Move| "URFDLB".find(m.face().letter()).unwrap();
    moves.windows(2).enumerate().all(|(i, w)| {
        let (a, b) = (w[0], w[1]);
        if a.face() == b.face() {
            metric == Metric::Qtm && a == b && a.turns() == 1 && (i == 0 || moves[i - 1] != a)
        } else {
            !(a.face().opposite() == b.face() && order(&a) > order(&b))
        }
    })
}

#[test]
fn other_goals_are_optimal_against_brute_force() {
    let mut rng = SplitMix64::new(8);
    for kind in [GoalKind::Eo, GoalKind::F2lPair, GoalKind::FirstBlock] {
        let table = table(kind, Metric::Htm);
        let moves = Metric::Htm.moves();
        let frame = orientation(Face::D, Face::F).unwrap();
        for _ in 0..10 {
            let scramble: Vec<Move> = (0..4).map(|_| moves[rng.below(18) as usize]).collect();
            let cube = Cube::from_moves(&scramble);
            let (optimal, solutions) = table.solve(&cube, &frame, 0, 3);
            let expected = brute_distance(&cube, &moves, |c| kind.reached(c), 6);
            assert_eq!(optimal, expected, "{kind:?} {scramble:?}");
            for s in &solutions {
                assert!(kind.reached(&cube.apply_all(s)));
            }
        }
    }
    // EO by its definition: no edge flipped for the F-B axis.
    assert!(GoalKind::Eo.holds(&Cube::from_moves(&parse_moves("R U L D F2 B2").unwrap())));
    assert!(!GoalKind::Eo.holds(&Cube::from_moves(&parse_moves("F").unwrap())));
}

#[test]
fn cli_goal_on_every_orientation() {
    let data = shared_data_dir();
    let data = data.to_str().unwrap();
    let scramble = "R U2 F' L D2 B R' U F2";
    let output = cubedb(
        &[
            "rubik",
            "solve",
            "--goal",
            "cross",
            "--orientations",
            "all",
            "--metric",
            "htm",
            "--scramble",
            scramble,
            "--data",
            data,
        ],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let cube = Cube::from_moves(&parse_moves(scramble).unwrap());
    let lines: Vec<String> = stdout(&output).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 24);
    for line in &lines {
        let (label, moves) = line
            .split_once(": ")
            .unwrap_or((line.trim_end_matches(':'), ""));
        let down = Face::ALL
            .into_iter()
            .find(|f| label.starts_with(f.letter()))
            .unwrap();
        let after = cube.apply_all(&parse_moves(moves).unwrap());
        assert!(cross_on_stickers(&after, down), "{line}");
    }
    let bad = cubedb(
        &[
            "rubik",
            "solve",
            "--goal",
            "cross:Q",
            "--scramble",
            "R",
            "--data",
            data,
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}

/// A mask naming `stickers` with their solved colours.
fn solved_mask(stickers: &[usize]) -> String {
    let faces = faces_of_cube(&Cube::SOLVED);
    (0..54)
        .map(|i| {
            if stickers.contains(&i) {
                Face::ALL[faces[i] as usize].letter()
            } else {
                '?'
            }
        })
        .collect()
}

#[test]
fn masks_are_optimal_against_brute_force_on_the_stickers() {
    use cubedb::puzzles::rubik::goals::mask::{Mask, MaskSearch};
    let mut rng = SplitMix64::new(77);
    // A corner and two edges' stickers; the whole D face (any pieces showing D); one
    // sticker alone.
    let masks = [
        solved_mask(&[29, 26, 15, 28, 25, 12]),
        solved_mask(&[27, 28, 29, 30, 31, 32, 33, 34, 35]),
        solved_mask(&[0]),
    ];
    for text in &masks {
        let mask: Mask = text.parse().unwrap();
        let search = MaskSearch::new(&mask, Metric::Htm);
        let moves = Metric::Htm.moves();
        for _ in 0..5 {
            let scramble: Vec<Move> = (0..4).map(|_| moves[rng.below(18) as usize]).collect();
            let cube = Cube::from_moves(&scramble);
            let (optimal, found) = search.solve(&cube, 0, 4);
            let expected = brute_distance(&cube, &moves, |c| mask.holds(c), 6);
            assert_eq!(optimal, expected, "{text} {scramble:?}");
            assert!(!found.is_empty());
            for s in &found {
                assert!(mask.holds(&cube.apply_all(s)));
                assert_eq!(s.len() as u32, optimal);
            }
        }
    }
    // Bad masks are refused with the reason.
    assert!("?".repeat(53).parse::<Mask>().is_err());
    let centre = format!("{}U{}", "?".repeat(31), "?".repeat(22));
    assert!(centre
        .parse::<Mask>()
        .unwrap_err()
        .to_string()
        .contains("centre"));
}

#[test]
fn partial_facelets_solve_the_named_stickers_as_the_mask_does() {
    use cubedb::puzzles::rubik::facelet_string;
    use cubedb::puzzles::rubik::goals::mask::{Mask, MaskSearch};
    use cubedb::puzzles::rubik::goals::partial::{PartialCube, PartialSearch};
    let mut rng = SplitMix64::new(5);
    let d_face: Mask = solved_mask(&(27..36).collect::<Vec<_>>()).parse().unwrap();
    let mask_search = MaskSearch::new(&d_face, Metric::Htm);
    let moves = Metric::Htm.moves();
    for _ in 0..4 {
        let scramble: Vec<Move> = (0..5).map(|_| moves[rng.below(18) as usize]).collect();
        let cube = Cube::from_moves(&scramble);
        let full = facelet_string(&cube);
        let d = full.chars().nth(31).unwrap();
        // Only the D-coloured stickers (and the centres) named.
        let text: String = full
            .chars()
            .enumerate()
            .map(|(i, c)| if c == d || i % 9 == 4 { c } else { '?' })
            .collect();
        let partial: PartialCube = text.parse().unwrap();
        let (optimal, found) = PartialSearch::new(&partial, Metric::Htm).solve(0, 5);
        let (mask_optimal, _) = mask_search.solve(&cube, 0, 1);
        assert_eq!(optimal, mask_optimal, "{scramble:?}");
        assert_eq!(
            optimal,
            brute_distance(&cube, &moves, |c| d_face.holds(c), 7)
        );
        for s in &found {
            assert!(d_face.holds(&cube.apply_all(s)));
        }
    }
    // Through the binary: `?` in --facelets selects this mode.
    let cube = Cube::from_moves(&parse_moves("R U F'").unwrap());
    let full = facelet_string(&cube);
    let text: String = full
        .chars()
        .enumerate()
        .map(|(i, c)| {
            if i % 9 == 4 || (27..36).contains(&i) || c == 'D' {
                c
            } else {
                '?'
            }
        })
        .collect();
    let output = cubedb(
        &["rubik", "solve", "--metric", "htm", "--facelets", &text],
        "",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let line = stdout(&output);
    let solution = parse_moves(line.trim()).unwrap();
    assert!(d_face.holds(&cube.apply_all(&solution)), "{line}");
    let bad = cubedb(&["rubik", "solve", "--facelets", &"?".repeat(54)], "");
    assert_eq!(bad.status.code(), Some(2), "{}", stderr(&bad));
}
