//! A definition made ready to search: every move with its powers and their names, the
//! metric's costs, which moves may follow which (canonical sequences), input parsing
//! (move sequences and position blocks) and the legality rule.

use super::definition::{power_names, Definition, DefinitionError, Illegal};
use super::element::{Element, SetDef, WILD};
use std::collections::HashMap;
use thiserror::Error;

/// Most search moves a puzzle has (each a bit of a `u128` in canonical-sequence masks).
pub const MAX_MOVES: usize = 127;

/// Which move powers count as one move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PuzzleMetric {
    /// Every power of a move is one move (face-turn metric; twsearch's default).
    #[default]
    Htm,
    /// Only the shortest turns (`R`, `R'`) are moves; others are made of them (twsearch
    /// `-q`; quarter turns on cubes).
    Qtm,
}

impl PuzzleMetric {
    /// `htm` or `qtm`.
    pub fn name(self) -> &'static str {
        match self {
            PuzzleMetric::Htm => "htm",
            PuzzleMetric::Qtm => "qtm",
        }
    }
}

/// One search move: a power of a base move.
#[derive(Debug, Clone)]
pub struct PuzzleMove {
    /// Its name (`R2'`).
    pub name: String,
    /// What it does.
    pub element: Element,
    /// Index of its base move among [`PermPuzzle::bases`].
    pub base: usize,
}

/// Bad input for a puzzle: a move sequence or a state.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum InputError {
    /// A move name the definition does not have.
    #[error("unknown move {move_name} (the moves are {known})")]
    UnknownMove {
        /// The token.
        move_name: String,
        /// Some of the names it has.
        known: String,
    },
    /// A state that is not a valid position of the puzzle.
    #[error("{0}")]
    BadState(String),
}

/// The parity of the order in which a set's counted pieces lie, read slot by slot, kept
/// as a two-slot set of its own (`[0, 1]`: even, `[1, 0]`: odd). Unlike a permutation's
/// parity, a move changes it by an amount that depends on where the pieces are (Square-1:
/// its 16 pieces, each corner counted once though it fills two slots), so the moves of
/// the puzzle only stand in for it (they swap its slots); coordinates that follow it work
/// the change out from the set ([`Reachable`](super::coord::Reachable)).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reading {
    /// The set read.
    pub set: usize,
    /// The two-slot set holding the parity.
    pub bit: usize,
    /// Per label of the set: whether its pieces are counted.
    pub counted: Vec<bool>,
}

/// A puzzle from a definition, ready to search.
#[derive(Debug, Clone)]
pub struct PermPuzzle {
    /// The definition's name.
    pub name: String,
    /// The orbits.
    pub sets: Vec<SetDef>,
    /// The solved state.
    pub solved: Element,
    /// Base search moves (names), each with its order.
    pub bases: Vec<(String, u32)>,
    /// The search moves of the metric, in definition order (powers of a base together).
    pub moves: Vec<PuzzleMove>,
    /// Every name input may use (moves of both metrics, rotations, aliases) and what it
    /// does.
    pub names: HashMap<String, Element>,
    /// `follows[a]`: bit `b` set when move `b` may follow move `a` in a canonical
    /// sequence (index `moves.len()`: at the start).
    pub follows: Vec<u128>,
    /// States not allowed.
    pub illegal: Vec<Illegal>,
    /// Reading parities a phase's pattern follows (see [`Reading`]); none in a puzzle
    /// read from a definition.
    pub readings: Vec<Reading>,
    /// The metric.
    pub metric: PuzzleMetric,
    /// A hash of everything that defines the puzzle and the metric (for table names).
    pub hash: u64,
}

impl PermPuzzle {
    /// The puzzle of `definition` in `metric`.
    pub fn new(definition: &Definition, metric: PuzzleMetric) -> Result<Self, DefinitionError> {
        Self::with_moves(definition, metric, None)
    }

    /// The puzzle of `definition` in `metric`, searching only the base moves named in
    /// `only` (all when `None`; other moves stay usable in input).
    pub fn with_moves(
        definition: &Definition,
        metric: PuzzleMetric,
        only: Option<&[String]>,
    ) -> Result<Self, DefinitionError> {
        if let Some(only) = only {
            if let Some(unknown) = only
                .iter()
                .find(|name| !definition.moves.iter().any(|m| &m.name == *name))
            {
                return Err(DefinitionError {
                    line: 0,
                    problem: format!(
                        "--moves: the definition has no move {}",
                        crate::text::quote(unknown)
                    ),
                });
            }
        }
        let sets = definition.sets.clone();
        let mut names = HashMap::new();
        let mut bases = Vec::new();
        let mut moves = Vec::new();
        for base in &definition.moves {
            let order = base.order;
            let searched = !base.rotation
                && !base.alias
                && order > 1
                && only.is_none_or(|only| only.contains(&base.name));
            let index = bases.len();
            let powers = base.element.powers(order, &sets);
            for ((power, name), element) in power_names(&base.name, order).into_iter().zip(powers) {
                let turn = power.min(order - power);
                if searched && (metric == PuzzleMetric::Htm || turn == 1) {
                    if moves.len() == MAX_MOVES {
                        return Err(DefinitionError {
                            line: base.line,
                            problem: format!(
                                "more than {MAX_MOVES} search moves (move {} alone makes {} in \
                                 {}): fewer base moves, or --metric qtm",
                                crate::text::quote(&base.name),
                                if metric == PuzzleMetric::Htm {
                                    order - 1
                                } else {
                                    2
                                },
                                metric.name()
                            ),
                        });
                    }
                    moves.push(PuzzleMove {
                        name: name.clone(),
                        element: element.clone(),
                        base: index,
                    });
                }
                names.insert(name, element);
            }
            if searched {
                bases.push((base.name.clone(), order));
            }
        }
        if moves.is_empty() {
            return Err(DefinitionError {
                line: 0,
                problem: "no move to search (every move is a rotation, an alias or the identity)"
                    .into(),
            });
        }
        let follows = canonical_follows(&sets, &moves, &bases, metric);
        let mut hash = definition_hash(definition, metric);
        if let Some(only) = only {
            hash ^= xxhash_rust::xxh3::xxh3_64(only.join(",").as_bytes());
        }
        Ok(Self {
            name: definition.name.clone(),
            sets,
            solved: definition.solved.clone(),
            bases,
            moves,
            names,
            follows,
            illegal: definition.illegal.clone(),
            readings: Vec::new(),
            metric,
            hash,
        })
    }

    /// This puzzle searching `moves` instead (powers of `bases`, each move's `base` an
    /// index into them): the canonical sequences and the hash follow the moves, so tables
    /// of different move sets never share a file.
    pub fn with_search_moves(&self, moves: Vec<PuzzleMove>, bases: Vec<(String, u32)>) -> Self {
        let follows = canonical_follows(&self.sets, &moves, &bases, self.metric);
        let names: Vec<&str> = moves.iter().map(|m| m.name.as_str()).collect();
        let hash = xxhash_rust::xxh3::xxh3_64(
            format!(
                "{}|moves|{}|{:?}",
                self.hash,
                names.join(","),
                moves.iter().map(|m| &m.element).collect::<Vec<_>>()
            )
            .as_bytes(),
        );
        Self {
            moves,
            bases,
            follows,
            hash,
            ..self.clone()
        }
    }

    /// Whether `state` is the solved state (orientations "any" match anything there).
    pub fn is_solved(&self, state: &Element) -> bool {
        super::element::same_state(state, &self.solved)
    }

    /// Whether `state` breaks no `Illegal` rule.
    pub fn is_legal(&self, state: &Element) -> bool {
        self.illegal.iter().all(|rule| {
            !rule
                .labels
                .contains(&state.orbits[rule.set].perm[rule.slot])
        })
    }

    /// The moves of a sequence (names separated by spaces or commas), as elements.
    pub fn parse_sequence(&self, text: &str) -> Result<Vec<(String, Element)>, InputError> {
        text.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(|token| {
                self.names
                    .get(token)
                    .map(|e| (token.to_string(), e.clone()))
                    .ok_or_else(|| InputError::UnknownMove {
                        move_name: crate::text::quote(token).to_string(),
                        known: self.some_names(),
                    })
            })
            .collect()
    }

    /// A few move names, for messages.
    fn some_names(&self) -> String {
        let mut shown: Vec<&str> = self
            .moves
            .iter()
            .take(12)
            .map(|m| m.name.as_str())
            .collect();
        if self.moves.len() > 12 {
            shown.push("...");
        }
        shown.join(" ")
    }

    /// The solved state after a move sequence.
    pub fn scrambled(&self, text: &str) -> Result<Element, InputError> {
        let mut moves = Vec::new();
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
        {
            let element = self
                .names
                .get(token)
                .ok_or_else(|| InputError::UnknownMove {
                    move_name: crate::text::quote(token).to_string(),
                    known: self.some_names(),
                })?;
            moves.push((token, element));
        }
        // Two states, swapped a move: no allocation a move.
        let mut state = self.solved.clone();
        let mut next = self.solved.clone();
        for (i, (name, element)) in moves.into_iter().enumerate() {
            state.then_into(element, &self.sets, &mut next);
            std::mem::swap(&mut state, &mut next);
            if !self.is_legal(&state) {
                return Err(InputError::BadState(format!(
                    "move {} ({name}) leads to a state the definition's Illegal rules forbid",
                    i + 1
                )));
            }
        }
        Ok(state)
    }

    /// `state` after the search moves `path` (indices into [`PermPuzzle::moves`]), two
    /// states swapped a move (no allocation a move).
    pub fn apply_path(&self, state: &Element, path: &[usize]) -> Element {
        let mut here = state.clone();
        let mut next = state.clone();
        for &m in path {
            here.then_into(&self.moves[m].element, &self.sets, &mut next);
            std::mem::swap(&mut here, &mut next);
        }
        here
    }

    /// The names of a path of search moves, separated by spaces.
    pub fn format_path(&self, path: &[usize]) -> String {
        path.iter()
            .map(|&m| self.moves[m].name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Checks that `state` has the solved state's pieces in every set (the same labels,
    /// as often), orientations below the set's count, "any" exactly where the solved
    /// state has it.
    pub fn check_state(&self, state: &Element) -> Result<(), InputError> {
        for ((s, t), def) in state.orbits.iter().zip(&self.solved.orbits).zip(&self.sets) {
            let mut mine = s.perm.clone();
            let mut theirs = t.perm.clone();
            mine.sort_unstable();
            theirs.sort_unstable();
            if mine != theirs {
                return Err(InputError::BadState(format!(
                    "set {}: the pieces are not those of the solved state",
                    def.name
                )));
            }
            for (slot, (&o, &piece)) in s.ori.iter().zip(&s.perm).enumerate() {
                if o != WILD && o >= def.omod {
                    return Err(InputError::BadState(format!(
                        "set {} slot {}: orientation {o} is not below {}",
                        def.name,
                        slot + 1,
                        def.omod
                    )));
                }
                let wild_in_solved = t
                    .perm
                    .iter()
                    .position(|&p| p == piece)
                    .is_some_and(|i| t.ori[i] == WILD);
                if (o == WILD) != wild_in_solved {
                    return Err(InputError::BadState(format!(
                        "set {} slot {}: `?` must stand exactly where the solved state has it",
                        def.name,
                        slot + 1
                    )));
                }
            }
        }
        if !self.is_legal(state) {
            return Err(InputError::BadState(
                "the state breaks an Illegal rule of the definition".into(),
            ));
        }
        Ok(())
    }
}

/// Which moves may follow which: never two powers of one base move in a row (in QTM, the
/// same quarter turn again, making a half turn, is allowed), and of two commuting base
/// moves only in definition order (the other order is the same position).
fn canonical_follows(
    sets: &[SetDef],
    moves: &[PuzzleMove],
    bases: &[(String, u32)],
    metric: PuzzleMetric,
) -> Vec<u128> {
    let base_elements: Vec<&Element> = (0..bases.len())
        .map(|b| {
            &moves
                .iter()
                .find(|m| m.base == b)
                .expect("every base has a move")
                .element
        })
        .collect();
    // Per pair of bases, whether their turns commute: worked out once a pair, not once a
    // pair of moves (each a power of its base).
    let commutes: Vec<Vec<bool>> = base_elements
        .iter()
        .map(|x| {
            base_elements
                .iter()
                .map(|y| x.then(y, sets) == y.then(x, sets))
                .collect()
        })
        .collect();
    let all: u128 = if moves.len() == 128 {
        u128::MAX
    } else {
        (1u128 << moves.len()) - 1
    };
    let mut follows: Vec<u128> = moves
        .iter()
        .enumerate()
        .map(|(f, first)| {
            moves
                .iter()
                .enumerate()
                .filter(|&(n, next)| {
                    let again = n == f && metric == PuzzleMetric::Qtm && bases[first.base].1 > 2;
                    again
                        || (next.base != first.base
                            && !(next.base < first.base && commutes[next.base][first.base]))
                })
                .fold(0u128, |mask, (i, _)| mask | 1 << i)
        })
        .collect();
    follows.push(all);
    follows
}

/// A hash of the definition's content (not its comments or layout) and the metric.
fn definition_hash(definition: &Definition, metric: PuzzleMetric) -> u64 {
    let mut text = format!("{}|{}|", definition.name, metric.name());
    for s in &definition.sets {
        text.push_str(&format!("{}:{}:{};", s.name, s.size, s.omod));
    }
    text.push_str(&format!("{:?}|", definition.solved));
    for m in &definition.moves {
        text.push_str(&format!(
            "{}:{}:{}:{:?};",
            m.name, m.rotation, m.alias, m.element
        ));
    }
    text.push_str(&format!("{:?}", definition.illegal));
    xxhash_rust::xxh3::xxh3_64(text.as_bytes())
}

/// The slots of each set that no search move touches hold their solved piece forever:
/// a [`Restriction`] drops them, so tables count only what moves (a 2x2x2 searched with
/// `U,F,R` keeps 7 corners, the <U,R> subgroup of the 3x3x3 6 corners and 7 edges).
#[derive(Debug, Clone)]
pub struct Restriction {
    /// Per set, the slots kept, in order; `None` when nothing is dropped.
    keep: Option<Vec<Vec<usize>>>,
    /// Per set, the new label of each old label (dense, in order of the old ones).
    relabel: Vec<Vec<u8>>,
    /// The given puzzle's solved state (what dropped slots must hold).
    solved: Element,
}

impl Restriction {
    /// `state` in the restricted puzzle, or `None` when a dropped slot does not hold its
    /// solved piece as solved (such a state is not reachable by the search moves).
    pub fn apply(&self, state: &Element) -> Option<Element> {
        self.apply_cow(state).map(std::borrow::Cow::into_owned)
    }

    /// [`Restriction::apply`], borrowing `state` when every slot is kept (nothing to
    /// copy).
    pub fn apply_cow<'s>(&self, state: &'s Element) -> Option<std::borrow::Cow<'s, Element>> {
        let Some(keep) = &self.keep else {
            return Some(std::borrow::Cow::Borrowed(state));
        };
        let mut orbits = Vec::with_capacity(state.orbits.len());
        for (s, orbit) in state.orbits.iter().enumerate() {
            let solved = &self.solved.orbits[s];
            let keep = &keep[s];
            let mut kept = keep.iter().peekable();
            for slot in 0..orbit.perm.len() {
                if kept.peek() == Some(&&slot) {
                    kept.next();
                } else if orbit.perm[slot] != solved.perm[slot]
                    || (orbit.ori[slot] != solved.ori[slot] && solved.ori[slot] != WILD)
                {
                    return None;
                }
            }
            orbits.push(super::element::Orbit {
                perm: keep
                    .iter()
                    .map(|&i| self.relabel[s][orbit.perm[i] as usize])
                    .collect(),
                ori: keep.iter().map(|&i| orbit.ori[i]).collect(),
            });
        }
        Some(std::borrow::Cow::Owned(Element { orbits }))
    }
}

impl PermPuzzle {
    /// The puzzle as tables search it, without the slots no search move touches, and
    /// how to map states into it (the puzzle itself, as is, when every slot is touched).
    pub fn searched(&self) -> (PermPuzzle, Restriction) {
        let identity = || Restriction {
            keep: None,
            relabel: Vec::new(),
            solved: self.solved.clone(),
        };
        self.restricted()
            .unwrap_or_else(|| (self.clone(), identity()))
    }

    /// The restricted puzzle, `None` when every slot is touched.
    fn restricted(&self) -> Option<(PermPuzzle, Restriction)> {
        let keep: Vec<Vec<usize>> = self
            .sets
            .iter()
            .enumerate()
            .map(|(s, def)| {
                (0..def.size)
                    .filter(|&slot| {
                        self.moves.iter().any(|m| {
                            let o = &m.element.orbits[s];
                            o.perm[slot] as usize != slot || o.ori[slot] != 0
                        })
                    })
                    .collect()
            })
            .collect();
        if keep
            .iter()
            .zip(&self.sets)
            .all(|(k, def)| k.len() == def.size)
        {
            return None;
        }
        let relabel: Vec<Vec<u8>> = keep
            .iter()
            .enumerate()
            .map(|(s, slots)| {
                let mut labels: Vec<u8> = slots
                    .iter()
                    .map(|&i| self.solved.orbits[s].perm[i])
                    .collect();
                labels.sort_unstable();
                labels.dedup();
                let mut map = vec![u8::MAX; 256];
                for (new, &old) in labels.iter().enumerate() {
                    map[old as usize] = new as u8;
                }
                map
            })
            .collect();
        let restriction = Restriction {
            keep: Some(keep.clone()),
            relabel,
            solved: self.solved.clone(),
        };
        let sets: Vec<SetDef> = self
            .sets
            .iter()
            .zip(&keep)
            .map(|(def, k)| SetDef {
                size: k.len(),
                ..def.clone()
            })
            .collect();
        let solved = restriction.apply(&self.solved)?;
        // A move keeps the slots it touches among the kept ones: re-index its sources.
        let restrict_move = |e: &Element| Element {
            orbits: e
                .orbits
                .iter()
                .zip(&keep)
                .map(|(o, k)| {
                    let mut position = vec![0u8; o.perm.len()];
                    for (new, &old) in k.iter().enumerate() {
                        position[old] = new as u8;
                    }
                    super::element::Orbit {
                        perm: k.iter().map(|&i| position[o.perm[i] as usize]).collect(),
                        ori: k.iter().map(|&i| o.ori[i]).collect(),
                    }
                })
                .collect(),
        };
        let moves: Vec<PuzzleMove> = self
            .moves
            .iter()
            .map(|m| PuzzleMove {
                element: restrict_move(&m.element),
                ..m.clone()
            })
            .collect();
        let puzzle = PermPuzzle {
            sets,
            solved,
            moves,
            names: HashMap::new(),
            illegal: Vec::new(),
            readings: Vec::new(),
            ..self.clone()
        };
        Some((puzzle, restriction))
    }
}

/// How states map into a puzzle whose sets are split by the orbits of its moves' slots
/// ([`PermPuzzle::split_orbits`]): pieces never leave their orbit, so each orbit is a set
/// of its own (the 3x3x3's edges under `<U, D, F2, B2, L2, R2>`: eight U/D-layer edges
/// and four E-slice edges), and coordinates and tables stay small.
#[derive(Debug, Clone)]
pub struct OrbitSplit {
    /// Per new set: the old set, its slots in order, and each old label's new label
    /// (`u8::MAX`: a label not of this orbit).
    parts: Vec<(usize, Vec<usize>, Vec<u8>)>,
    /// Whether anything is split (else states map as they are).
    split: bool,
}

impl OrbitSplit {
    /// `state` in the split puzzle, or `None` when a piece lies outside the orbit it is
    /// solved in (no move sequence reaches such a state).
    pub fn apply(&self, state: &Element) -> Option<Element> {
        if !self.split {
            return Some(state.clone());
        }
        let mut out = Element { orbits: Vec::new() };
        self.apply_into(state, &mut out)?;
        Some(out)
    }

    /// [`OrbitSplit::apply`] into `out`, whose orbits' storage is reused (a phase scoring
    /// thousands of solutions allocates nothing per solution); `None` as there, `out`
    /// then unspecified.
    pub fn apply_into(&self, state: &Element, out: &mut Element) -> Option<()> {
        if !self.split {
            out.assign(state);
            return Some(());
        }
        out.orbits
            .resize_with(self.parts.len(), super::element::Orbit::default);
        for ((set, slots, relabel), into) in self.parts.iter().zip(&mut out.orbits) {
            let orbit = &state.orbits[*set];
            into.perm.clear();
            into.ori.clear();
            for &slot in slots {
                let label = relabel[orbit.perm[slot] as usize];
                if label == u8::MAX {
                    return None;
                }
                into.perm.push(label);
                into.ori.push(orbit.ori[slot]);
            }
        }
        Some(())
    }
}

impl PermPuzzle {
    /// The puzzle with each set `allowed` says split into the orbits of its slots under
    /// the search moves, and the map of states into it (the puzzle as is when no set
    /// splits). A label solved in two orbits keeps them together. Only for states whose
    /// pieces lie in the orbits they are solved in (others have no image).
    pub fn split_orbits(&self, allowed: &[bool]) -> (PermPuzzle, OrbitSplit) {
        let elements: Vec<&Element> = self.moves.iter().map(|m| &m.element).collect();
        let orbits = super::element::slot_orbits(&self.sets, &elements);
        let mut parts: Vec<(usize, Vec<usize>, Vec<u8>)> = Vec::new();
        let mut sets = Vec::new();
        let mut split = false;
        for (s, def) in self.sets.iter().enumerate() {
            let solved = &self.solved.orbits[s];
            // Orbits sharing a label are merged (identical pieces solved in both).
            let mut group: Vec<usize> = orbits[s].clone();
            let mut changed = true;
            while changed {
                changed = false;
                for i in 0..def.size {
                    for j in i + 1..def.size {
                        if solved.perm[i] == solved.perm[j] && group[i] != group[j] {
                            let (keep, drop) = (group[i].min(group[j]), group[i].max(group[j]));
                            for g in group.iter_mut() {
                                if *g == drop {
                                    *g = keep;
                                }
                            }
                            changed = true;
                        }
                    }
                }
            }
            if !allowed.get(s).copied().unwrap_or(false) {
                group = vec![0; def.size];
            }
            let mut roots: Vec<usize> = group.clone();
            roots.sort_unstable();
            roots.dedup();
            split |= roots.len() > 1;
            for (k, &root) in roots.iter().enumerate() {
                let slots: Vec<usize> = (0..def.size).filter(|&i| group[i] == root).collect();
                let mut labels: Vec<u8> = slots.iter().map(|&i| solved.perm[i]).collect();
                labels.sort_unstable();
                labels.dedup();
                let mut relabel = vec![u8::MAX; 256];
                for (new, &old) in labels.iter().enumerate() {
                    relabel[old as usize] = new as u8;
                }
                sets.push(SetDef {
                    name: if roots.len() > 1 {
                        format!("{}.{}", def.name, k + 1)
                    } else {
                        def.name.clone()
                    },
                    size: slots.len(),
                    omod: def.omod,
                });
                parts.push((s, slots, relabel));
            }
        }
        let splitter = OrbitSplit { parts, split };
        if !split {
            return (self.clone(), splitter);
        }
        let solved = splitter
            .apply(&self.solved)
            .expect("the solved state lies in its own orbits");
        // A move keeps each orbit: re-index its sources within the orbit.
        let split_move = |e: &Element| Element {
            orbits: splitter
                .parts
                .iter()
                .map(|(set, slots, _)| {
                    let o = &e.orbits[*set];
                    let mut position = vec![0u8; o.perm.len()];
                    for (new, &old) in slots.iter().enumerate() {
                        position[old] = new as u8;
                    }
                    super::element::Orbit {
                        perm: slots
                            .iter()
                            .map(|&i| position[o.perm[i] as usize])
                            .collect(),
                        ori: slots.iter().map(|&i| o.ori[i]).collect(),
                    }
                })
                .collect(),
        };
        let moves: Vec<PuzzleMove> = self
            .moves
            .iter()
            .map(|m| PuzzleMove {
                element: split_move(&m.element),
                ..m.clone()
            })
            .collect();
        let puzzle = PermPuzzle {
            sets,
            solved,
            moves,
            names: HashMap::new(),
            illegal: Vec::new(),
            readings: Vec::new(),
            ..self.clone()
        };
        (puzzle, splitter)
    }
}
