//! Symmetries of a puzzle: relabelings of its slots (each slot sent to a slot of the same
//! set, with an orientation shift) that carry every search move to a search move and the
//! solved pattern to itself. Conjugating a state by one, `h⁻¹·x·h`, keeps its distance
//! from solved: a solution of `x` conjugated move by move solves the conjugate. Exact
//! tables use them to store one entry per class of conjugates (see `reduced.rs`).
//!
//! They are found by a backtracking search over "stickers" (slot, orientation): a symmetry
//! `σ` with `σ·m = m'·σ` for moves `m, m'` is fixed on the whole orbit of a slot once it is
//! known on that slot and the image `m'` of each move is chosen, so the search branches on
//! a few slot images and move images and propagates the rest.

use super::element::{Element, Orbit, SetDef, WILD};
use super::puzzle::PermPuzzle;
use std::collections::HashMap;

/// Most symmetries kept (the cube's 48 and the megaminx's 60 fit).
const MAX_SYMMETRIES: usize = 240;

/// Search nodes after which the search gives up (puzzles with hundreds of slots).
const MAX_NODES: usize = 20_000;

/// `h⁻¹ · x · h`: the state `x` seen through the symmetry `h` (states of puzzles whose
/// solved state is the identity, as [`Symmetries::for_tables`] ensures).
pub fn conjugate(x: &Element, h: &Element, h_inverse: &Element, sets: &[SetDef]) -> Element {
    h_inverse.then(x, sets).then(h, sets)
}

/// [`conjugate`] written into `out` (shaped like `x`), with no allocation: the walks of
/// a reduced table conjugate every neighbour by every symmetry.
pub fn conjugate_into(
    x: &Element,
    h: &Element,
    h_inverse: &Element,
    sets: &[SetDef],
    out: &mut Element,
) {
    for (s, def) in sets.iter().enumerate() {
        let (xo, ho, hio) = (&x.orbits[s], &h.orbits[s], &h_inverse.orbits[s]);
        let o = &mut out.orbits[s];
        let omod = def.omod.max(1) as u16;
        for i in 0..xo.perm.len() {
            let from = ho.perm[i] as usize;
            let piece = xo.perm[from] as usize;
            o.perm[i] = hio.perm[piece];
            o.ori[i] =
                ((hio.ori[piece] as u16 + xo.ori[from] as u16 + ho.ori[i] as u16) % omod) as u8;
        }
    }
}

/// Each search move's index, by the move.
fn move_index(puzzle: &PermPuzzle) -> HashMap<&Element, usize> {
    puzzle
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| (&m.element, i))
        .collect()
}

/// Each search move's conjugate by `h` as a move index (`usize::MAX`: not a move).
fn action(
    puzzle: &PermPuzzle,
    index: &HashMap<&Element, usize>,
    h: &Element,
    h_inverse: &Element,
) -> Vec<usize> {
    puzzle
        .moves
        .iter()
        .map(|m| {
            index
                .get(&conjugate(&m.element, h, h_inverse, &puzzle.sets))
                .copied()
                .unwrap_or(usize::MAX)
        })
        .collect()
}

/// A move as stickers travel: the piece in slot `j` goes to `dest[j]` gaining `twist[j]`.
struct Travel {
    /// Per set.
    dest: Vec<Vec<u8>>,
    twist: Vec<Vec<u8>>,
    /// Its order and how many slots it moves per set: a move's image has the same.
    signature: (u32, Vec<usize>),
}

impl Travel {
    fn of(element: &Element, sets: &[SetDef]) -> Self {
        let mut dest = Vec::new();
        let mut twist = Vec::new();
        let mut moved = Vec::new();
        for o in &element.orbits {
            let mut d = vec![0u8; o.perm.len()];
            let mut t = vec![0u8; o.perm.len()];
            for (i, &from) in o.perm.iter().enumerate() {
                d[from as usize] = i as u8;
                t[from as usize] = o.ori[i];
            }
            moved.push(
                o.perm
                    .iter()
                    .enumerate()
                    .filter(|&(i, &p)| p as usize != i)
                    .count(),
            );
            dest.push(d);
            twist.push(t);
        }
        Self {
            dest,
            twist,
            signature: (
                element
                    .order(sets)
                    .unwrap_or(u64::MAX)
                    .min(u64::from(u32::MAX)) as u32,
                moved,
            ),
        }
    }
}

/// A partial symmetry: per set, slot -> (slot, shift); per move, its image.
#[derive(Clone)]
struct Partial {
    image: Vec<Vec<Option<(u8, u8)>>>,
    taken: Vec<Vec<bool>>,
    move_image: Vec<Option<usize>>,
    move_taken: Vec<bool>,
}

struct Finder<'a> {
    puzzle: &'a PermPuzzle,
    travels: Vec<Travel>,
    found: Vec<Element>,
    nodes: usize,
}

impl Finder<'_> {
    /// Extends the partial symmetry by `σ(m(j)) = m'(σ(j))`; false on a contradiction.
    fn propagate(&self, p: &mut Partial) -> bool {
        loop {
            let mut changed = false;
            for (m, travel) in self.travels.iter().enumerate() {
                let Some(m2) = p.move_image[m] else { continue };
                let image = &self.travels[m2];
                for s in 0..self.puzzle.sets.len() {
                    let omod = self.puzzle.sets[s].omod.max(1);
                    for j in 0..p.image[s].len() {
                        let Some((dj, tj)) = p.image[s][j] else {
                            continue;
                        };
                        let j2 = travel.dest[s][j] as usize;
                        let want = (
                            image.dest[s][dj as usize],
                            ((tj as u16 + image.twist[s][dj as usize] as u16 + omod as u16
                                - travel.twist[s][j] as u16 % omod as u16)
                                % omod as u16) as u8,
                        );
                        match p.image[s][j2] {
                            Some(have) if have != want => return false,
                            Some(_) => {}
                            None => {
                                if p.taken[s][want.0 as usize] {
                                    return false;
                                }
                                p.taken[s][want.0 as usize] = true;
                                p.image[s][j2] = Some(want);
                                changed = true;
                            }
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    fn search(&mut self, mut p: Partial) {
        self.nodes += 1;
        if self.nodes > MAX_NODES || self.found.len() >= MAX_SYMMETRIES || !self.propagate(&mut p) {
            return;
        }
        // A move acting on a slot already placed, with its image still open.
        let open_move = (0..self.travels.len()).find(|&m| {
            p.move_image[m].is_none()
                && p.image.iter().enumerate().any(|(s, slots)| {
                    slots.iter().enumerate().any(|(j, img)| {
                        img.is_some()
                            && (self.travels[m].dest[s][j] as usize != j
                                || self.travels[m].twist[s][j] != 0)
                    })
                })
        });
        if let Some(m) = open_move {
            for m2 in 0..self.travels.len() {
                if p.move_taken[m2] || self.travels[m2].signature != self.travels[m].signature {
                    continue;
                }
                let mut next = p.clone();
                next.move_image[m] = Some(m2);
                next.move_taken[m2] = true;
                self.search(next);
            }
            return;
        }
        let open_slot = p
            .image
            .iter()
            .enumerate()
            .find_map(|(s, slots)| slots.iter().position(Option::is_none).map(|j| (s, j)));
        let Some((s, j)) = open_slot else {
            if let Some(element) = self.complete(&p) {
                self.found.push(element);
            }
            return;
        };
        for d in 0..p.image[s].len() {
            if p.taken[s][d] {
                continue;
            }
            for shift in 0..self.puzzle.sets[s].omod.max(1) {
                let mut next = p.clone();
                next.image[s][j] = Some((d as u8, shift));
                next.taken[s][d] = true;
                self.search(next);
            }
        }
    }

    /// The symmetry as an element, if it carries every move to a move and keeps the
    /// solved pattern.
    fn complete(&self, p: &Partial) -> Option<Element> {
        let sets = &self.puzzle.sets;
        let mut orbits = Vec::new();
        for slots in &p.image {
            let mut perm = vec![0u8; slots.len()];
            let mut ori = vec![0u8; slots.len()];
            for (j, img) in slots.iter().enumerate() {
                let (d, t) = (*img)?;
                perm[d as usize] = j as u8;
                ori[d as usize] = t;
            }
            orbits.push(Orbit { perm, ori });
        }
        let h = Element { orbits };
        let h_inverse = h.inverse(sets);
        let index = move_index(self.puzzle);
        let carries_moves = !action(self.puzzle, &index, &h, &h_inverse).contains(&usize::MAX);
        (carries_moves && keeps_pattern(&self.puzzle.solved, &h)).then_some(h)
    }
}

/// Whether `h` maps the solved pattern to itself up to renaming labels: slots holding
/// equal labels go to slots holding equal labels, and orientations "any" to "any".
fn keeps_pattern(solved: &Element, h: &Element) -> bool {
    solved.orbits.iter().zip(&h.orbits).all(|(o, ho)| {
        let mut rename: HashMap<u8, u8> = HashMap::new();
        let mut used: HashMap<u8, u8> = HashMap::new();
        ho.perm.iter().enumerate().all(|(d, &j)| {
            let (from, to) = (o.perm[j as usize], o.perm[d]);
            let wild_kept = (o.ori[j as usize] == WILD) == (o.ori[d] == WILD);
            wild_kept
                && *rename.entry(from).or_insert(to) == to
                && *used.entry(to).or_insert(from) == from
        })
    })
}

/// The symmetries of a puzzle's search moves, as elements, the identity first.
#[derive(Debug, Clone)]
pub struct Symmetries {
    /// The symmetries (a group: closed under composition).
    pub elements: Vec<Element>,
    /// Their inverses, in the same order.
    pub inverses: Vec<Element>,
    /// Whether the search stopped before it had looked everywhere (a big puzzle).
    pub partial: bool,
}

impl Symmetries {
    /// Finds the symmetries of `puzzle`.
    pub fn find(puzzle: &PermPuzzle) -> Self {
        let travels: Vec<Travel> = puzzle
            .moves
            .iter()
            .map(|m| Travel::of(&m.element, &puzzle.sets))
            .collect();
        let start = Partial {
            image: puzzle.sets.iter().map(|s| vec![None; s.size]).collect(),
            taken: puzzle.sets.iter().map(|s| vec![false; s.size]).collect(),
            move_image: vec![None; travels.len()],
            move_taken: vec![false; travels.len()],
        };
        let mut finder = Finder {
            puzzle,
            travels,
            found: Vec::new(),
            nodes: 0,
        };
        finder.search(start);
        let partial = finder.nodes > MAX_NODES || finder.found.len() >= MAX_SYMMETRIES;
        Self::group_of(finder.found, puzzle, partial)
    }

    /// The group of conjugations the symmetries `found` generate (the identity first),
    /// one element per distinct action on the moves: twisting every piece of a set alike
    /// changes no conjugate, so such elements count once.
    fn group_of(found: Vec<Element>, puzzle: &PermPuzzle, partial: bool) -> Self {
        let sets = &puzzle.sets;
        let index = move_index(puzzle);
        let action = |h: &Element| action(puzzle, &index, h, &h.inverse(sets));
        let identity = Element::identity(sets);
        let mut seen: std::collections::HashSet<Vec<usize>> =
            [action(&identity)].into_iter().collect();
        let mut elements = vec![identity];
        let mut at = 0;
        while at < elements.len() && elements.len() < MAX_SYMMETRIES {
            for g in &found {
                let product = elements[at].then(g, sets);
                if seen.insert(action(&product)) {
                    elements.push(product);
                }
            }
            at += 1;
        }
        elements.truncate(MAX_SYMMETRIES);
        let inverses = elements.iter().map(|e| e.inverse(sets)).collect();
        Self {
            elements,
            inverses,
            partial,
        }
    }

    /// The symmetries as bytes (a table's class file keeps them, so that opening it
    /// needs no search): the count, then per symmetry each orbit's slots and shifts.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = (self.elements.len() as u32).to_le_bytes().to_vec();
        for e in &self.elements {
            for o in &e.orbits {
                out.extend_from_slice(&o.perm);
                out.extend_from_slice(&o.ori);
            }
        }
        out
    }

    /// [`Symmetries::to_bytes`] read back for `puzzle`, with the bytes after them; `None`
    /// when they are not symmetries of its moves (a damaged or foreign file).
    pub fn from_bytes<'b>(bytes: &'b [u8], puzzle: &PermPuzzle) -> Option<(Self, &'b [u8])> {
        let (count, mut rest) = bytes.split_at_checked(4)?;
        let count = u32::from_le_bytes(count.try_into().ok()?) as usize;
        if count == 0 || count > MAX_SYMMETRIES {
            return None;
        }
        let sets = &puzzle.sets;
        let index = move_index(puzzle);
        let mut elements = Vec::with_capacity(count);
        for _ in 0..count {
            let mut orbits = Vec::with_capacity(sets.len());
            for def in sets {
                let (perm, after) = rest.split_at_checked(def.size)?;
                let (ori, after) = after.split_at_checked(def.size)?;
                let mut seen = vec![false; def.size];
                for &p in perm {
                    if std::mem::replace(seen.get_mut(p as usize)?, true) {
                        return None;
                    }
                }
                if ori.iter().any(|&t| t >= def.omod.max(1)) {
                    return None;
                }
                orbits.push(Orbit {
                    perm: perm.to_vec(),
                    ori: ori.to_vec(),
                });
                rest = after;
            }
            elements.push(Element { orbits });
        }
        let inverses: Vec<Element> = elements.iter().map(|e| e.inverse(sets)).collect();
        let carry_moves = elements
            .iter()
            .zip(&inverses)
            .all(|(h, hi)| !action(puzzle, &index, h, hi).contains(&usize::MAX));
        (carry_moves && elements[0].is_identity()).then_some((
            Self {
                elements,
                inverses,
                partial: false,
            },
            rest,
        ))
    }

    /// Number of symmetries.
    pub fn len(&self) -> usize {
        self.elements.len()
    }

    /// Whether there are none (never: the identity is one).
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }

    /// The symmetries whose orientation shift is the same on every slot of each set in
    /// `twisted` (so they conjugate a set's orientations whatever its permutation), when
    /// `puzzle`'s solved state is the identity (distinct pieces, untwisted, no "any") and
    /// the search was complete; `None` when fewer than two remain.
    pub fn for_tables(&self, puzzle: &PermPuzzle, twisted: &[usize]) -> Option<Self> {
        let identity = Element::identity(&puzzle.sets);
        if self.partial || puzzle.solved != identity {
            return None;
        }
        let keep: Vec<usize> = (0..self.len())
            .filter(|&i| {
                twisted.iter().all(|&s| {
                    let ori = &self.elements[i].orbits[s].ori;
                    ori.iter().all(|&t| t == ori[0])
                })
            })
            .collect();
        (keep.len() > 1).then(|| Self {
            elements: keep.iter().map(|&i| self.elements[i].clone()).collect(),
            inverses: keep.iter().map(|&i| self.inverses[i].clone()).collect(),
            partial: false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::PuzzleMetric;

    use crate::puzzles::perm::shipped_puzzle as puzzle;

    /// The cube's 24 rotations carry face turns to face turns; a fixed corner leaves the
    /// 3 rotations about it. Each symmetry keeps distances: a state and its conjugate
    /// need the same moves, conjugated.
    #[test]
    fn rotations_of_the_cubes() {
        for (file, want) in [("2x2x2.tws", 24), ("2x2x2-fixed.tws", 3), ("3x3x3.tws", 24)] {
            let p = puzzle(file, PuzzleMetric::Htm);
            let syms = Symmetries::find(&p);
            assert_eq!(syms.len(), want, "{file}");
            assert!(!syms.partial);
            let mut rng = crate::rng::SplitMix64::new(3);
            for (h, hi) in syms.elements.iter().zip(&syms.inverses) {
                let path: Vec<usize> = (0..8)
                    .map(|_| rng.below(p.moves.len() as u64) as usize)
                    .collect();
                let state = p.apply_path(&p.solved, &path);
                let seen = conjugate(&state, h, hi, &p.sets);
                let mut into = state.clone();
                conjugate_into(&state, h, hi, &p.sets, &mut into);
                assert_eq!(into, seen, "{file}");
                let mut undone = seen.clone();
                for &m in path.iter().rev() {
                    let back = conjugate(&p.moves[m].element.inverse(&p.sets), h, hi, &p.sets);
                    undone = undone.then(&back, &p.sets);
                }
                assert!(p.is_solved(&undone), "{file}");
            }
        }
    }
}
