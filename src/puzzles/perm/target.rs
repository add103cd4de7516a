//! Solving to a target pattern instead of the solved state.
//!
//! A target names, slot by slot, the piece wanted there, or `?` for any piece not named
//! elsewhere in its set, and an orientation or `?` for any. Forgetting what the target
//! does not ask for is a projection that commutes with every move: pieces not named
//! become identical, orientations asked "any" are dropped. So the distance of a state
//! to the nearest position matching the target is the distance of its projection to the
//! target in the projected puzzle, which is a puzzle like any other (its solved state is
//! the target) with its own tables under its own definition hash. A full position as
//! target (nothing `?`) is just another start: solving from A to B.

use super::coord::set_facts;
use super::element::{parity, Element, WILD};
use super::puzzle::{InputError, PermPuzzle};

/// How states of the puzzle map into the puzzle whose solved state is the target.
#[derive(Debug, Clone)]
pub struct Retarget {
    /// Per set: each original label's label in the target puzzle.
    labels: Vec<Vec<u8>>,
    /// Per set: for each target-puzzle label, whether its orientation is "any".
    any_orientation: Vec<Vec<bool>>,
}

impl Retarget {
    /// The state as the target puzzle sees it.
    pub fn apply(&self, state: &Element) -> Element {
        let mut out = state.clone();
        for (s, orbit) in out.orbits.iter_mut().enumerate() {
            for (label, ori) in orbit.perm.iter_mut().zip(orbit.ori.iter_mut()) {
                *label = self.labels[s][*label as usize];
                if self.any_orientation[s][*label as usize] {
                    *ori = WILD;
                }
            }
        }
        out
    }
}

/// The puzzle whose solved state is `target` (pieces `?` made identical, orientations
/// `?` dropped), and the map of states into it. Errors say which set and rule a target
/// breaks.
pub fn retarget(
    puzzle: &PermPuzzle,
    target: &Element,
) -> Result<(PermPuzzle, Retarget), InputError> {
    let bad = |problem: String| InputError::BadState(format!("target: {problem}"));
    if !puzzle.illegal.is_empty() {
        return Err(bad(
            "the definition has Illegal rules, which targets do not support".into(),
        ));
    }
    let mut labels = Vec::new();
    let mut any_orientation = Vec::new();
    let mut solved = puzzle.solved.clone();
    for (s, def) in puzzle.sets.iter().enumerate() {
        let home = &puzzle.solved.orbits[s];
        let wanted = &target.orbits[s];
        let count = |perm: &[u8], label: u8| perm.iter().filter(|&&l| l == label).count();
        for &label in wanted.perm.iter().filter(|&&l| l != WILD) {
            let (named, has) = (count(&wanted.perm, label), count(&home.perm, label));
            if named != has {
                return Err(bad(format!(
                    "set {}: piece {} is named {named} times, the puzzle has {has}",
                    def.name,
                    label as usize + 1
                )));
            }
        }
        // Pieces not named share one new label.
        let blank = home
            .perm
            .iter()
            .copied()
            .max()
            .unwrap_or(0)
            .saturating_add(1);
        if blank == WILD {
            return Err(bad(format!("set {}: too many kinds of piece", def.name)));
        }
        let mut map: Vec<u8> = (0..=255u8).collect();
        for &label in &home.perm {
            if !wanted.perm.contains(&label) {
                map[label as usize] = blank;
            }
        }
        // Orientation "any" must hold for a whole kind of piece, and wherever the
        // definition itself says any.
        let mut any: Vec<Option<bool>> = vec![None; 256];
        for (slot, (&label, &ori)) in wanted.perm.iter().zip(&wanted.ori).enumerate() {
            let kind = if label == WILD { blank } else { label };
            let wild = ori == WILD;
            if *any[kind as usize].get_or_insert(wild) != wild {
                return Err(bad(format!(
                    "set {} slot {}: `?` orientation must stand for every piece of a kind or none",
                    def.name,
                    slot + 1
                )));
            }
        }
        for (&label, &ori) in home.perm.iter().zip(&home.ori) {
            if ori == WILD && any[map[label as usize] as usize] == Some(false) {
                return Err(bad(format!(
                    "set {}: piece {} has any orientation in the definition, so the target cannot fix it",
                    def.name,
                    label as usize + 1
                )));
            }
        }
        let any: Vec<bool> = any.iter().map(|a| a.unwrap_or(false)).collect();
        let orbit = &mut solved.orbits[s];
        for (slot, (&label, &ori)) in wanted.perm.iter().zip(&wanted.ori).enumerate() {
            let kind = if label == WILD { blank } else { label };
            orbit.perm[slot] = kind;
            orbit.ori[slot] = if def.omod == 1 {
                0
            } else if any[kind as usize] {
                WILD
            } else {
                ori
            };
        }
        labels.push(map);
        any_orientation.push(any.iter().map(|&a| a && def.omod > 1).collect());
    }
    let mut projected = puzzle.clone();
    projected.hash = xxhash_rust::xxh3::xxh3_64(format!("{}|{:?}", puzzle.hash, solved).as_bytes());
    projected.solved = solved;
    Ok((
        projected,
        Retarget {
            labels,
            any_orientation,
        },
    ))
}

/// Checks, by the invariants every move keeps, that some position the moves reach
/// matches the target: a set whose orientations the target fixes must keep the solved
/// state's orientation sum when every move does, and a set of distinct pieces the target
/// places must keep its parity when every move is even. An error names the set and the
/// invariant. (The exact check, a walk from solved, is made where a table exists.)
pub fn check_invariants(puzzle: &PermPuzzle, target: &Element) -> Result<(), InputError> {
    let facts = set_facts(puzzle);
    for (s, def) in puzzle.sets.iter().enumerate() {
        let (home, wanted) = (&puzzle.solved.orbits[s], &target.orbits[s]);
        let omod = u64::from(def.omod.max(1));
        let fixed = wanted.ori.iter().all(|&o| o != WILD) && home.ori.iter().all(|&o| o != WILD);
        if facts[s].keeps_sum && fixed && def.omod > 1 {
            let sum = |o: &[u8]| o.iter().map(|&x| u64::from(x)).sum::<u64>() % omod;
            if sum(&wanted.ori) != sum(&home.ori) {
                return Err(InputError::BadState(format!(
                    "target: no position the moves reach matches it: the orientations of set {} \
                     sum to {} (mod {omod}), and every move keeps the sum at {}",
                    def.name,
                    sum(&wanted.ori),
                    sum(&home.ori)
                )));
            }
        }
        let distinct = |p: &[u8]| {
            let mut sorted = p.to_vec();
            sorted.sort_unstable();
            sorted.windows(2).all(|w| w[0] != w[1])
        };
        if facts[s].keeps_parity
            && !wanted.perm.contains(&WILD)
            && distinct(&home.perm)
            && distinct(&wanted.perm)
            && parity(&wanted.perm) != parity(&home.perm)
        {
            return Err(InputError::BadState(format!(
                "target: no position the moves reach matches it: its pieces of set {} are an \
                 odd permutation of the solved ones, and every move is even",
                def.name
            )));
        }
    }
    Ok(())
}
