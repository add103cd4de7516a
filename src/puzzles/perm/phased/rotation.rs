//! Whole-puzzle rotations (`Rotations` in a plan): a cube with no fixed centres is solved
//! when every face is one colour, however it is held. A plan that names the moves turning
//! the whole puzzle is solved up to them: the search starts from the state as seen after
//! each rotation (a relabelling of its pieces), and a solution may leave the puzzle turned.
//!
//! A state is `solved · h` (the solved labels moved by an element `h`); seen after the
//! rotation `g` it is `solved · g · h`. The map from one to the other depends on the
//! labels only when `g` takes identical pieces to identical pieces (a face's centres to
//! another face's), which [`Rotations::generate`] checks. If `solved · g · h · m` is
//! solved, then `solved · h · m` is `solved · g⁻¹`: the puzzle solved, turned by `g⁻¹`.

use std::collections::{HashMap, HashSet};

use super::super::element::{same_state, twisted, Element, SetDef, WILD};

/// Most rotations a plan's generators may make (the cube's are 24).
pub const MAX_ROTATIONS: usize = 1_000;

/// How one rotation renames pieces: per set, per label, the new label and the twist the
/// piece gains.
#[derive(Debug, Clone)]
struct Relabel {
    sets: Vec<HashMap<u8, (u8, u8)>>,
}

/// The group of rotations a plan names, as relabellings of states and as the turned
/// solved states a solution may end in.
#[derive(Debug, Clone)]
pub struct Rotations {
    /// One per rotation, the identity first.
    relabels: Vec<Relabel>,
    /// `solved · g` for every rotation `g`.
    turned: Vec<Element>,
}

fn sub(a: u8, b: u8, omod: u8) -> u8 {
    if a == WILD || b == WILD {
        return 0;
    }
    let omod = omod.max(1) as u16;
    ((a as u16 + omod - b as u16 % omod) % omod) as u8
}

impl Rotations {
    /// Every product of `generators` (named moves of the puzzle), each checked to take
    /// identical pieces to identical pieces. Errors say which generator breaks what.
    pub fn generate(
        solved: &Element,
        sets: &[SetDef],
        generators: &[(String, Element)],
    ) -> Result<Self, String> {
        let identity = Element::identity(sets);
        let mut elements = vec![identity.clone()];
        let mut seen: HashSet<Element> = HashSet::from([identity]);
        let mut next = 0;
        while next < elements.len() {
            for (_, g) in generators {
                let product = elements[next].then(g, sets);
                if seen.insert(product.clone()) {
                    if elements.len() == MAX_ROTATIONS {
                        return Err(format!(
                            "the rotations make more than {MAX_ROTATIONS} different turns"
                        ));
                    }
                    elements.push(product);
                }
            }
            next += 1;
        }
        for (name, g) in generators {
            relabel(solved, sets, g).map_err(|set| {
                format!(
                    "{} does not turn the whole puzzle: it takes identical pieces of set {} \
                     to different ones",
                    crate::text::quote(name),
                    sets[set].name
                )
            })?;
        }
        let relabels = elements
            .iter()
            .map(|g| relabel(solved, sets, g))
            .collect::<Result<Vec<_>, usize>>()
            .map_err(|set| {
                format!(
                    "the rotations take identical pieces of set {} to different ones",
                    sets[set].name
                )
            })?;
        let turned = elements.iter().map(|g| solved.then(g, sets)).collect();
        Ok(Self { relabels, turned })
    }

    /// How many rotations there are (the identity counted).
    pub fn len(&self) -> usize {
        self.relabels.len()
    }

    /// Whether there are none (never: the identity is one).
    pub fn is_empty(&self) -> bool {
        self.relabels.is_empty()
    }

    /// `state` seen after each rotation: different states only, `state` itself first.
    pub fn starts(&self, state: &Element, sets: &[SetDef]) -> Vec<Element> {
        let mut seen = HashSet::new();
        self.relabels
            .iter()
            .map(|r| r.apply(state, sets))
            .filter(|s| seen.insert(s.clone()))
            .collect()
    }

    /// Whether `state` is the solved state turned by some rotation (orientations "any"
    /// match anything).
    pub fn solves(&self, state: &Element) -> bool {
        self.turned.iter().any(|t| same_state(state, t))
    }
}

/// The relabelling `solved · h -> solved · g · h`, or the set where `g` takes two
/// identical pieces to different ones.
fn relabel(solved: &Element, sets: &[SetDef], g: &Element) -> Result<Relabel, usize> {
    let mut maps = Vec::with_capacity(sets.len());
    for (s, def) in sets.iter().enumerate() {
        let here = &solved.orbits[s];
        let turn = &g.orbits[s];
        let mut map: HashMap<u8, (u8, u8)> = HashMap::new();
        for j in 0..def.size {
            let from = turn.perm[j] as usize;
            let label = here.perm[j];
            let twist = twisted(
                sub(here.ori[from], here.ori[j], def.omod),
                turn.ori[j],
                def.omod,
            );
            let image = (here.perm[from], twist);
            if *map.entry(label).or_insert(image) != image {
                return Err(s);
            }
        }
        maps.push(map);
    }
    Ok(Relabel { sets: maps })
}

impl Relabel {
    fn apply(&self, state: &Element, sets: &[SetDef]) -> Element {
        Element {
            orbits: state
                .orbits
                .iter()
                .zip(&self.sets)
                .zip(sets)
                .map(|((o, map), def)| {
                    let mut out = o.clone();
                    for (slot, &label) in o.perm.iter().enumerate() {
                        // Labels outside the solved state's do not occur in valid states.
                        if let Some(&(to, twist)) = map.get(&label) {
                            out.perm[slot] = to;
                            out.ori[slot] = twisted(o.ori[slot], twist, def.omod);
                        }
                    }
                    out
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};

    /// Seen after a rotation `g`, the state `solved · h` is `solved · g · h`: checked on
    /// random elements of the 4x4x4 (identical centres) and the 2x2x2 (twisted pieces).
    #[test]
    fn a_relabelled_state_is_the_state_after_the_rotation() {
        for (file, rotations) in [
            ("4x4x4.tws", ["R 2R 2L' L'", "U 2U 2D' D'"]),
            ("2x2x2.tws", ["R L'", "U D'"]),
        ] {
            let puzzle = shipped_puzzle(file, PuzzleMetric::Htm);
            let sets = &puzzle.sets;
            let generators: Vec<(String, Element)> = rotations
                .iter()
                .map(|text| {
                    let steps = puzzle.parse_sequence(text).expect("rotation moves");
                    let e = steps
                        .iter()
                        .fold(Element::identity(sets), |acc, (_, m)| acc.then(m, sets));
                    (text.to_string(), e)
                })
                .collect();
            let rotations =
                Rotations::generate(&puzzle.solved, sets, &generators).expect("rotations");
            assert_eq!(rotations.relabels.len(), 24, "{file}");
            let mut rng = crate::rng::SplitMix64::new(7);
            for _ in 0..20 {
                let h = (0..30).fold(Element::identity(sets), |acc, _| {
                    let m = &puzzle.moves[rng.below(puzzle.moves.len() as u64) as usize];
                    acc.then(&m.element, sets)
                });
                let state = puzzle.solved.then(&h, sets);
                for (r, g) in rotations.relabels.iter().zip(&rotations.turned) {
                    // `turned` is solved · g: then · h gives solved · g · h.
                    assert_eq!(r.apply(&state, sets), g.then(&h, sets), "{file}");
                }
                assert!(rotations.solves(&rotations.turned[5]));
                assert_eq!(rotations.solves(&state), puzzle.is_solved(&state));
            }
        }
    }
}
