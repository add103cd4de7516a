//! States and moves of a permutation puzzle: per orbit, which piece each slot holds and
//! its orientation. A move is the same data read as a transformation (where each slot's
//! piece comes from and the twist it gains); applying it is one composition.

/// One orbit of pieces: its name, size and number of orientations.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SetDef {
    /// The name (`CORNER`).
    pub name: String,
    /// Pieces (and slots).
    pub size: usize,
    /// Orientations of each piece (1: none).
    pub omod: u8,
}

/// The parity of a sequence (0 even, 1 odd): of its inversions, so that it also serves
/// arrangements of classes, not only permutations.
pub fn parity(p: &[u8]) -> u8 {
    let mut inversions = 0u32;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            inversions += u32::from(p[j] < p[i]);
        }
    }
    (inversions % 2) as u8
}

/// The highest order a move may have: its powers are all named (`R2`, `R3'`, ...), so a
/// move of order `k` makes `k - 1` names.
pub const MAX_ORDER: u64 = 65_536;

/// Orientation "any" (`?` in a state): it stays any as the piece moves.
pub const WILD: u8 = u8::MAX;

/// One orbit of a state or move.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Orbit {
    /// State: the piece label in each slot. Move: the slot each slot's piece comes from.
    pub perm: Vec<u8>,
    /// State: each slot's piece orientation. Move: the twist it gains arriving there.
    pub ori: Vec<u8>,
}

/// Orientation `before` twisted by `twist` modulo `omod` ("any" stays any); a division
/// only when the sum wraps past twice the modulus (never for reduced values).
#[inline(always)]
pub(crate) fn twisted(before: u8, twist: u8, omod: u8) -> u8 {
    if before == WILD {
        return WILD;
    }
    let sum = before as u16 + twist as u16;
    let omod = omod as u16;
    (if sum < omod {
        sum
    } else if sum < 2 * omod {
        sum - omod
    } else {
        sum % omod
    }) as u8
}

/// Whether state `a` is state `b`, orientations "any" (in either) matching anything.
pub fn same_state(a: &Element, b: &Element) -> bool {
    a.orbits.iter().zip(&b.orbits).all(|(s, t)| {
        s.perm == t.perm
            && s.ori
                .iter()
                .zip(&t.ori)
                .all(|(&x, &y)| x == y || x == WILD || y == WILD)
    })
}

/// Moves over one flat array of slots (the sets end to end), for checks that apply many
/// short paths: a move is one loop over the slots, where [`Element::then_into`] loops
/// set by set (the pyraminx's nine sets, eight of one piece, made that a sixth of a
/// scramble's time).
pub struct FlatMoves {
    /// Per slot, the orientations of its set.
    omod: Vec<u8>,
    /// Per move and slot: the slot its piece comes from and the twist it gains.
    moves: Vec<Vec<(u16, u8)>>,
}

/// A state as [`FlatMoves`] reads it: per slot, its piece and orientation.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlatState {
    perm: Vec<u8>,
    ori: Vec<u8>,
}

impl FlatMoves {
    /// `moves` (of sets `sets`) made flat; `None` past 65,536 slots.
    pub fn new<'a>(sets: &[SetDef], moves: impl IntoIterator<Item = &'a Element>) -> Option<Self> {
        let starts: Vec<usize> = sets
            .iter()
            .scan(0, |at, set| {
                let start = *at;
                *at += set.size;
                Some(start)
            })
            .collect();
        let slots: usize = sets.iter().map(|set| set.size).sum();
        if slots > 1 << 16 {
            return None;
        }
        let omod = sets
            .iter()
            .flat_map(|set| std::iter::repeat_n(set.omod, set.size))
            .collect();
        let moves = moves
            .into_iter()
            .map(|m| {
                m.orbits
                    .iter()
                    .zip(&starts)
                    .flat_map(|(orbit, &start)| {
                        orbit
                            .perm
                            .iter()
                            .zip(&orbit.ori)
                            .map(move |(&from, &twist)| ((start + from as usize) as u16, twist))
                    })
                    .collect()
            })
            .collect();
        Some(Self { omod, moves })
    }

    /// `state` written flat into `out` (its memory reused).
    pub fn flatten(&self, state: &Element, out: &mut FlatState) {
        out.perm.clear();
        out.ori.clear();
        for orbit in &state.orbits {
            out.perm.extend_from_slice(&orbit.perm);
            out.ori.extend_from_slice(&orbit.ori);
        }
    }

    /// `state` after the moves `path` (indices into the moves given to
    /// [`FlatMoves::new`]), as [`Element::then_into`] applies them, with `spare` as the
    /// other state of each move; `false` (and `state` left partly moved) for a state of
    /// another shape or a move not given.
    #[must_use]
    pub fn apply_path(&self, state: &mut FlatState, path: &[usize], spare: &mut FlatState) -> bool {
        if state.perm.len() != self.omod.len() || state.ori.len() != self.omod.len() {
            return false;
        }
        spare.clone_from(state);
        for &m in path {
            let Some(moved) = self.moves.get(m) else {
                return false;
            };
            for (slot, (&(from, twist), &omod)) in moved.iter().zip(&self.omod).enumerate() {
                let from = from as usize;
                spare.perm[slot] = state.perm[from];
                let before = state.ori[from];
                spare.ori[slot] = if omod == 1 {
                    if before == WILD {
                        WILD
                    } else {
                        0
                    }
                } else {
                    twisted(before, twist, omod)
                };
            }
            std::mem::swap(state, spare);
        }
        true
    }
}

/// A state or a move: one [`Orbit`] per set.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Element {
    /// Per set, in definition order.
    pub orbits: Vec<Orbit>,
}

impl Element {
    /// Nothing moved: every slot holds its own piece, untwisted.
    pub fn identity(sets: &[SetDef]) -> Self {
        Self {
            orbits: sets
                .iter()
                .map(|s| Orbit {
                    perm: (0..s.size as u8).collect(),
                    ori: vec![0; s.size],
                })
                .collect(),
        }
    }

    /// This state (or move) followed by the move `m`: slot `i` gets what was in slot
    /// `m.perm[i]`, twisted by `m.ori[i]` (an orientation "any" stays any).
    pub fn then(&self, m: &Element, sets: &[SetDef]) -> Element {
        Element {
            orbits: self
                .orbits
                .iter()
                .zip(&m.orbits)
                .zip(sets)
                .map(|((s, m), def)| {
                    let perm = m.perm.iter().map(|&from| s.perm[from as usize]).collect();
                    let ori = m
                        .perm
                        .iter()
                        .zip(&m.ori)
                        .map(|(&from, &twist)| twisted(s.ori[from as usize], twist, def.omod))
                        .collect();
                    Orbit { perm, ori }
                })
                .collect(),
        }
    }

    /// Makes `self` equal to `from`, reusing its memory where the shapes allow (a derived
    /// `clone_from` would allocate every orbit again).
    pub fn assign(&mut self, from: &Element) {
        self.orbits.truncate(from.orbits.len());
        for (mine, theirs) in self.orbits.iter_mut().zip(&from.orbits) {
            mine.perm.clone_from(&theirs.perm);
            mine.ori.clone_from(&theirs.ori);
        }
        let have = self.orbits.len();
        self.orbits.extend(from.orbits[have..].iter().cloned());
    }

    /// [`Element::then`] written into `out` (same shape as `self`), reusing its memory:
    /// for searches that follow full states node by node.
    pub fn then_into(&self, m: &Element, sets: &[SetDef], out: &mut Element) {
        for (((s, m), def), o) in self
            .orbits
            .iter()
            .zip(&m.orbits)
            .zip(sets)
            .zip(&mut out.orbits)
        {
            let (perm, ori) = (&mut o.perm[..m.perm.len()], &mut o.ori[..m.perm.len()]);
            if def.omod == 1 {
                // One orientation only: 0, or a pattern's wildcard carried as it is.
                for ((p, o), &from) in perm.iter_mut().zip(ori.iter_mut()).zip(&m.perm) {
                    *p = s.perm[from as usize];
                    *o = if s.ori[from as usize] == WILD {
                        WILD
                    } else {
                        0
                    };
                }
                continue;
            }
            for (slot, &from) in m.perm.iter().enumerate() {
                perm[slot] = s.perm[from as usize];
                ori[slot] = twisted(s.ori[from as usize], m.ori[slot], def.omod);
            }
        }
    }

    /// Whether this move does nothing.
    pub fn is_identity(&self) -> bool {
        self.orbits.iter().all(|o| {
            o.perm.iter().enumerate().all(|(i, &p)| p as usize == i)
                && o.ori.iter().all(|&x| x == 0)
        })
    }

    /// The order of this move: how many times it is applied before nothing has changed.
    /// Computed from its cycles (each cycle's length times the order of the twist it adds
    /// going round), so a move of any order costs one pass over its slots. `None` when
    /// the order does not fit in 64 bits.
    pub fn order(&self, sets: &[SetDef]) -> Option<u64> {
        let mut order = 1u64;
        for (orbit, def) in self.orbits.iter().zip(sets) {
            let omod = u64::from(def.omod.max(1));
            let mut seen = vec![false; orbit.perm.len()];
            for start in 0..orbit.perm.len() {
                if seen[start] {
                    continue;
                }
                let (mut slot, mut length, mut twist) = (start, 0u64, 0u64);
                while !seen[slot] {
                    seen[slot] = true;
                    twist += u64::from(orbit.ori[slot]);
                    slot = orbit.perm[slot] as usize;
                    length += 1;
                }
                let twist_order = omod / gcd(twist % omod, omod);
                order = lcm(order, length.checked_mul(twist_order)?)?;
            }
        }
        Some(order)
    }

    /// Every power of this move of order `order`, from the first to the `order - 1`-th,
    /// one composition each.
    pub fn powers(&self, order: u32, sets: &[SetDef]) -> Vec<Element> {
        let mut out: Vec<Element> = Vec::with_capacity(order.saturating_sub(1) as usize);
        for _ in 1..order {
            let next = match out.last() {
                Some(last) => last.then(self, sets),
                None => self.clone(),
            };
            out.push(next);
        }
        out
    }

    /// This move applied `k` times (by squaring: a few compositions for any `k`).
    pub fn power(&self, mut k: u64, sets: &[SetDef]) -> Element {
        let mut out = Element::identity(sets);
        let mut square = self.clone();
        while k > 0 {
            if k & 1 == 1 {
                out = out.then(&square, sets);
            }
            k >>= 1;
            if k > 0 {
                square = square.then(&square, sets);
            }
        }
        out
    }

    /// The move undoing this one.
    pub fn inverse(&self, sets: &[SetDef]) -> Element {
        Element {
            orbits: self
                .orbits
                .iter()
                .zip(sets)
                .map(|(o, def)| {
                    let mut perm = vec![0u8; o.perm.len()];
                    let mut ori = vec![0u8; o.perm.len()];
                    for (i, &from) in o.perm.iter().enumerate() {
                        perm[from as usize] = i as u8;
                        ori[from as usize] = (def.omod - o.ori[i] % def.omod) % def.omod;
                    }
                    Orbit { perm, ori }
                })
                .collect(),
        }
    }
}

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Least common multiple, `None` past 64 bits.
fn lcm(a: u64, b: u64) -> Option<u64> {
    (a / gcd(a, b).max(1)).checked_mul(b)
}

/// The root of `x` in a union-find forest `parent` (each entry its parent, a root its
/// own), halving the path on the way.
pub(crate) fn root(parent: &mut [usize], mut x: usize) -> usize {
    while parent[x] != x {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    x
}

/// Per set, per slot: the orbit id of the slot under `moves` (slots that exchange
/// pieces share one).
pub fn slot_orbits(sets: &[SetDef], moves: &[&Element]) -> Vec<Vec<usize>> {
    sets.iter()
        .enumerate()
        .map(|(s, def)| {
            let mut parent: Vec<usize> = (0..def.size).collect();
            for m in moves {
                for (i, &from) in m.orbits[s].perm.iter().enumerate() {
                    let (a, b) = (root(&mut parent, i), root(&mut parent, from as usize));
                    parent[a] = b;
                }
            }
            (0..def.size).map(|i| root(&mut parent, i)).collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sets() -> Vec<SetDef> {
        vec![SetDef {
            name: "X".into(),
            size: 3,
            omod: 3,
        }]
    }

    /// Paths applied flat give the states [`Element::then_into`] gives, on puzzles with
    /// sets of one piece, identical pieces and orientations "any"; another path gives
    /// another state, and a state of another shape or an unknown move is refused.
    #[test]
    fn flat_moves_apply_as_elements_do() {
        use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
        let mut rng = crate::rng::SplitMix64::new(12);
        for file in ["pyraminx.tws", "fto.tws", "2x2x2.tws", "skewb.tws"] {
            let puzzle = shipped_puzzle(file, PuzzleMetric::Htm);
            let flat = FlatMoves::new(&puzzle.sets, puzzle.moves.iter().map(|m| &m.element))
                .expect("few slots");
            // A start with some orientations "any".
            let mut start = puzzle.solved.clone();
            for orbit in &mut start.orbits {
                if let Some(first) = orbit.ori.first_mut() {
                    *first = WILD;
                }
            }
            let moves = puzzle.moves.len() as u64;
            let (mut state, mut spare, mut want) = Default::default();
            for _ in 0..200 {
                let path: Vec<usize> = (0..rng.below(30))
                    .map(|_| rng.below(moves) as usize)
                    .collect();
                flat.flatten(&start, &mut state);
                assert!(flat.apply_path(&mut state, &path, &mut spare));
                flat.flatten(&puzzle.apply_path(&start, &path), &mut want);
                assert_eq!(state, want, "{file}: {path:?}");
                // From solved, one move more reaches another state (no move is the
                // identity).
                flat.flatten(&puzzle.solved, &mut state);
                let longer = [path.as_slice(), &[path.len() % moves as usize]].concat();
                assert!(flat.apply_path(&mut state, &longer, &mut spare));
                flat.flatten(&puzzle.apply_path(&puzzle.solved, &path), &mut want);
                assert_ne!(state, want, "{file}");
            }
            assert!(!flat.apply_path(&mut state, &[moves as usize], &mut spare));
            let mut short = FlatState::default();
            flat.flatten(&puzzle.solved, &mut short);
            short.perm.pop();
            assert!(!flat.apply_path(&mut short, &[0], &mut spare));
        }
    }

    #[test]
    fn composition_inverse_and_wildcards() {
        let sets = sets();
        let a = Element {
            orbits: vec![Orbit {
                perm: vec![1, 2, 0],
                ori: vec![0, 0, 1],
            }],
        };
        let solved = Element::identity(&sets);
        let once = solved.then(&a, &sets);
        assert_eq!(once.orbits[0].perm, vec![1, 2, 0]);
        assert_eq!(once.orbits[0].ori, vec![0, 0, 1]);
        let twice = once.then(&a, &sets);
        assert_eq!(twice.orbits[0].perm, vec![2, 0, 1]);
        assert_eq!(twice.orbits[0].ori, vec![0, 1, 1]);
        assert!(a.then(&a.inverse(&sets), &sets).is_identity());
        assert_eq!(a.order(&sets), Some(9));
        assert_eq!(a.power(9, &sets), Element::identity(&sets));
        assert_eq!(
            a.power(4, &sets),
            a.then(&a, &sets).then(&a, &sets).then(&a, &sets)
        );
        let mut wild = solved.clone();
        wild.orbits[0].ori[1] = WILD;
        let moved = wild.then(&a, &sets);
        assert_eq!(moved.orbits[0].ori, vec![WILD, 0, 1]);
    }
}
