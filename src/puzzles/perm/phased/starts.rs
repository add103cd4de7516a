//! The states a plan's search starts from besides the state itself, each solved by a
//! sequence the state's own solution is read back from (two-phase searches six: the cube
//! as given and inverted, each along its three axes; one of them is often much nearer
//! the first phase's target than the others):
//!
//! - **turned** (`View FROM>TO ...`): the state conjugated by a symmetry σ of the puzzle,
//!   `σ⁻¹ S σ`, where σ turns each move FROM into TO. A solution `N1 ... Nk` of it gives
//!   `σ N1 σ⁻¹ ... σ Nk σ⁻¹` for the state. σ is not written in the plan: it is found
//!   from the move pairs alone, piece by piece (below), and every plan move must turn
//!   into a plan move.
//! - **inverted** (`Inverse`): `S⁻¹`, whose solution, reversed and each move undone,
//!   solves `S`.
//!
//! Inverting needs a state to be a group element: pieces all told apart, each solved in
//! its own slot. A turn also takes sets of identical pieces without twists, when σ takes
//! the slots of one kind to the slots of one kind: a state then reads `τ(S(σ(i)))` at
//! slot `i`, where τ renames each kind as σ does (the FTO's centres: four colours of
//! three). Neither goes with `Illegal` rules (the paths they check are the state's), and
//! `Inverse` not with `Rotations`; a turn does: each turn of the state is then seen after
//! every rotation too (a turn moves pieces to other slots, a rotation renames them).

use crate::puzzles::perm::element::Element;
use crate::puzzles::perm::puzzle::{PermPuzzle, PuzzleMove};

/// A symmetry of the puzzle and how its view's moves read back.
#[derive(Debug, Clone)]
struct Turn {
    sigma: Element,
    sigma_inverse: Element,
    /// Per set of identical pieces: each kind's new label (empty for a set of pieces
    /// told apart, turned as group elements are).
    renamed: Vec<Vec<u8>>,
    /// Per plan move `N` (as the turned state is solved), the plan move `σ N σ⁻¹`.
    back: Vec<usize>,
}

/// Every start a search makes from a state: per turn (the first is the state as it is),
/// as given and, with `Inverse`, inverted.
#[derive(Debug, Clone)]
pub struct Starts {
    turns: Vec<Turn>,
    /// Per plan move, the plan move undoing it (`Inverse`).
    undo: Option<Vec<usize>>,
}

impl Starts {
    /// The starts for `turns` (per turn, its pairs of moves: what a move of the state is
    /// in the turned state, every power given) and `inverse`; `moves` are the plan's.
    /// An error says which rule fails.
    pub fn new(
        puzzle: &PermPuzzle,
        moves: &[PuzzleMove],
        turns: &[Vec<(Element, Element)>],
        inverse: bool,
        rotations: bool,
    ) -> Result<Self, String> {
        let sets = &puzzle.sets;
        if inverse && !puzzle.solved.is_identity() {
            return Err(
                "needs a definition whose pieces are all told apart, each solved \
                        in its own slot"
                    .into(),
            );
        }
        if (inverse || !turns.is_empty()) && !puzzle.illegal.is_empty() {
            return Err("cannot be used with Illegal rules".into());
        }
        if inverse && rotations {
            return Err("cannot be used with Rotations".into());
        }
        let find = |element: &Element| moves.iter().position(|m| &m.element == element);
        let identity = Element::identity(sets);
        let mut all = vec![Turn {
            sigma: identity.clone(),
            sigma_inverse: identity,
            renamed: vec![Vec::new(); sets.len()],
            back: (0..moves.len()).collect(),
        }];
        for pairs in turns {
            let sigma = symmetry(puzzle, pairs)
                .ok_or("no turn of the puzzle's pieces takes each of these moves to its pair")?;
            let sigma_inverse = sigma.inverse(sets);
            let renamed = renamings(puzzle, &sigma_inverse).ok_or(
                "needs a turn that takes the slots of each kind of identical pieces to the \
                 slots of one kind, and such pieces untwisted",
            )?;
            let back = moves
                .iter()
                .map(|n| {
                    let m = sigma.then(&n.element, sets).then(&sigma_inverse, sets);
                    find(&m).ok_or_else(|| {
                        format!(
                            "turned back, {} is not one of the plan's moves",
                            crate::text::quote(&n.name)
                        )
                    })
                })
                .collect::<Result<Vec<usize>, String>>()?;
            all.push(Turn {
                sigma,
                sigma_inverse,
                renamed,
                back,
            });
        }
        let undo = if inverse {
            Some(
                moves
                    .iter()
                    .map(|m| {
                        find(&m.element.inverse(sets)).ok_or_else(|| {
                            format!(
                                "needs the move undoing {} among the plan's moves",
                                crate::text::quote(&m.name)
                            )
                        })
                    })
                    .collect::<Result<Vec<usize>, String>>()?,
            )
        } else {
            None
        };
        Ok(Self { turns: all, undo })
    }

    /// How many starts a state makes.
    pub fn len(&self) -> usize {
        self.turns.len() * if self.undo.is_some() { 2 } else { 1 }
    }

    /// Whether the state itself is the only start.
    pub fn is_empty(&self) -> bool {
        self.len() == 1
    }

    /// What the starts are, in words (`cubedb puzzle info`).
    pub fn describe(&self) -> String {
        let turns = match self.turns.len() {
            1 => "the state".to_string(),
            n => format!("the state and {} turns of it", n - 1),
        };
        match self.undo {
            Some(_) => format!("{turns}, each as given and inverted"),
            None => turns,
        }
    }

    /// Start `k` of `state` (0: the state itself).
    pub fn start(&self, state: &Element, k: usize, puzzle: &PermPuzzle) -> Element {
        if k == 0 {
            return state.clone();
        }
        let sets = &puzzle.sets;
        let turn = &self.turns[k % self.turns.len()];
        let given = if k >= self.turns.len() {
            state.inverse(sets)
        } else {
            state.clone()
        };
        let mut turned = turn
            .sigma_inverse
            .then(&given, sets)
            .then(&turn.sigma, sets);
        // Sets of identical pieces: the state's labels carried by σ and renamed.
        for (s, renamed) in turn.renamed.iter().enumerate() {
            if renamed.is_empty() {
                continue;
            }
            let from = &turn.sigma.orbits[s].perm;
            let labels = &given.orbits[s].perm;
            let orbit = &mut turned.orbits[s];
            for (slot, &f) in from.iter().enumerate() {
                orbit.perm[slot] = renamed[labels[f as usize] as usize];
            }
            orbit.ori.clone_from(&given.orbits[s].ori);
        }
        turned
    }

    /// The state's solution from a solution `moves` (plan moves) of start `k`; whether
    /// it was reversed (its phases' parts then in the other order).
    pub fn read_back(&self, k: usize, moves: &[usize]) -> (Vec<usize>, bool) {
        let turn = &self.turns[k % self.turns.len()];
        let turned = moves.iter().map(|&m| turn.back[m]);
        match &self.undo {
            Some(undo) if k >= self.turns.len() => {
                let mut read: Vec<usize> = turned.map(|m| undo[m]).collect();
                read.reverse();
                (read, true)
            }
            _ => (turned.collect(), false),
        }
    }
}

/// Per set: empty when its pieces are told apart, each in its own slot; else (identical
/// pieces, untwisted) the label each kind takes when the state is turned by σ (given as
/// `sigma_inverse`): the kind of the piece σ⁻¹ puts in a slot of that kind, which must be
/// one kind for all of them. `None` when it is not.
fn renamings(puzzle: &PermPuzzle, sigma_inverse: &Element) -> Option<Vec<Vec<u8>>> {
    let mut all = Vec::with_capacity(puzzle.sets.len());
    for (s, def) in puzzle.sets.iter().enumerate() {
        let solved = &puzzle.solved.orbits[s];
        if solved
            .perm
            .iter()
            .enumerate()
            .all(|(i, &l)| l as usize == i)
        {
            all.push(Vec::new());
            continue;
        }
        let twisted = def.omod > 1 || solved.ori.iter().any(|&o| o != 0);
        if twisted {
            return None;
        }
        let mut renamed: Vec<Option<u8>> = vec![None; 256];
        for (piece, &label) in solved.perm.iter().enumerate() {
            let to = solved.perm[sigma_inverse.orbits[s].perm[piece] as usize];
            match renamed[label as usize] {
                None => renamed[label as usize] = Some(to),
                Some(known) if known == to => {}
                Some(_) => return None,
            }
        }
        all.push(renamed.into_iter().map(|r| r.unwrap_or(0)).collect());
    }
    Some(all)
}

/// A symmetry σ with `σ⁻¹ M σ = N` for every pair `(M, N)`, found slot by slot: once
/// σ is known at slot `i` (the piece and twist it takes there), `M σ = σ N` fixes it at
/// `N(i)` for every pair; so per set, each group of slots the moves connect follows
/// from its first slot, whose image is tried every way. `None` when no choice fits.
fn symmetry(puzzle: &PermPuzzle, pairs: &[(Element, Element)]) -> Option<Element> {
    let sets = &puzzle.sets;
    let mut sigma = Element::identity(sets);
    for (s, def) in sets.iter().enumerate() {
        let (n, omod) = (def.size, def.omod.max(1));
        let mut image: Vec<Option<(u8, u8)>> = vec![None; n];
        for first in 0..n {
            if image[first].is_some() {
                continue;
            }
            let taken: Vec<bool> = (0..n)
                .map(|p| image.iter().flatten().any(|&(q, _)| q as usize == p))
                .collect();
            let fitted = (0..n)
                .filter(|&p| !taken[p])
                .flat_map(|p| (0..omod).map(move |o| (p as u8, o)))
                .find_map(|choice| follow(pairs, s, omod, &image, first, choice));
            image = fitted?;
        }
        let orbit = &mut sigma.orbits[s];
        for (slot, fixed) in image.into_iter().enumerate() {
            let (p, o) = fixed?;
            orbit.perm[slot] = p;
            orbit.ori[slot] = o;
        }
    }
    // Every pair checked whole (twists included), and σ a permutation.
    let sigma_inverse = sigma.inverse(sets);
    let fits = pairs
        .iter()
        .all(|(m, n)| sigma_inverse.then(m, sets).then(&sigma, sets) == *n)
        && sigma.then(&sigma_inverse, sets).is_identity();
    fits.then_some(sigma)
}

/// `image` with slot `first` of set `s` taken to `choice` and everything that fixes
/// through the pairs; `None` on a contradiction.
fn follow(
    pairs: &[(Element, Element)],
    s: usize,
    omod: u8,
    image: &[Option<(u8, u8)>],
    first: usize,
    choice: (u8, u8),
) -> Option<Vec<Option<(u8, u8)>>> {
    let mut image = image.to_vec();
    image[first] = Some(choice);
    let mut queue = vec![first];
    while let Some(i) = queue.pop() {
        let (p, o) = image[i]?;
        for (m, n) in pairs {
            let (m, n) = (&m.orbits[s], &n.orbits[s]);
            // σ(N(i)) = M(σ(i)), its twist M's at σ(i) plus σ's at i less N's at i.
            let j = n.perm[i] as usize;
            let want_piece = m.perm[p as usize];
            let want_twist = (m.ori[p as usize] % omod + o + omod - n.ori[i] % omod) % omod;
            match image[j] {
                None => {
                    image[j] = Some((want_piece, want_twist));
                    queue.push(j);
                }
                Some(fixed) if fixed == (want_piece, want_twist) => {}
                Some(_) => return None,
            }
        }
    }
    Some(image)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;

    /// The FTO (centres of four colours, three of each) turned half way round the axis
    /// through U and D: a state some moves reach, turned, is the state the turned moves
    /// reach, centres renamed with their faces; and a turn that is not a symmetry of the
    /// pieces is refused.
    #[test]
    fn a_turn_carries_identical_pieces_by_their_kinds() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let sets = &puzzle.sets;
        let base = |name: &str| {
            puzzle
                .moves
                .iter()
                .find(|m| m.name == name)
                .map(|m| m.element.clone())
                .expect("move")
        };
        let pairs: Vec<(Element, Element)> = [
            ("UFL", "UBR"),
            ("UBR", "UFL"),
            ("UFR", "UBL"),
            ("UBL", "UFR"),
            ("DFR", "DBL"),
            ("DBL", "DFR"),
            ("DFL", "DBR"),
            ("DBR", "DFL"),
        ]
        .iter()
        .map(|(a, b)| (base(a), base(b)))
        .collect();
        let starts =
            Starts::new(&puzzle, &puzzle.moves, &[pairs], false, false).expect("a symmetry");
        assert_eq!(starts.len(), 2);
        let back = &starts.turns[1].back;
        let mut rng = SplitMix64::new(3);
        for _ in 0..50 {
            let mut state = puzzle.solved.clone();
            let mut turned = puzzle.solved.clone();
            for _ in 0..30 {
                let m = rng.below(puzzle.moves.len() as u64) as usize;
                state = state.then(&puzzle.moves[m].element, sets);
                // The plan move whose turn back is m.
                let n = back.iter().position(|&b| b == m).expect("a pair");
                turned = turned.then(&puzzle.moves[n].element, sets);
            }
            assert_eq!(starts.start(&state, 1, &puzzle), turned);
        }
        // UFL to UFR is a quarter turn: it takes the centres of one class to the other's
        // set, which no turn of the pieces does.
        let quarter: Vec<(Element, Element)> = [
            ("UFL", "UFR"),
            ("UFR", "UBR"),
            ("UBR", "UBL"),
            ("UBL", "UFL"),
            ("DFL", "DFR"),
            ("DFR", "DBR"),
            ("DBR", "DBL"),
            ("DBL", "DFL"),
        ]
        .iter()
        .map(|(a, b)| (base(a), base(b)))
        .collect();
        assert!(Starts::new(&puzzle, &puzzle.moves, &[quarter], false, false).is_err());
    }
}
