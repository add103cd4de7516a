//! What a phase sees of a state: its target as a pattern puzzle, and the map of full
//! states into it.
//!
//! A target forgets what it does not ask for: pieces of one class become identical,
//! orientations it does not follow become "any", and each orientation it follows is read
//! in a frame (a gauge: an offset per slot) in which the next phase's moves twist
//! nothing. Parity constraints are synthetic two-slot sets swapped by every move that is
//! odd on the sets they watch. The map commutes with every move (`view(x·m) =
//! view(x)·m'`), so the distance of a state to the target is the distance of its view to
//! the pattern puzzle's solved state, which is what the phase's tables hold.
//!
//! Two structures go beyond one slot at a time. A target's moves may keep pairs of slots
//! together (a [`Pairing`]: the 4x4x4's wing edges, two to an edge position, under face
//! turns): when the phase's moves split each pair between two orbits, the target asks
//! that every pair hold partners, which a [`Matching`] follows (the permutation taking
//! each A slot's partner to its B slot, in the phase's tables, and the parity of the
//! pairs' permutation, here); when the phase's moves keep the pairs together and the
//! states arrive paired, a [`Collapse`] makes each pair one piece (a reduced 4x4x4's
//! edges become a 3x3x3's).

use crate::puzzles::perm::element::{parity, slot_orbits, Element, Orbit, SetDef, WILD};
use crate::puzzles::perm::puzzle::{PermPuzzle, PuzzleMove};

/// The map of full states into a phase's pattern puzzle.
#[derive(Clone, PartialEq, Eq)]
pub struct View {
    /// Per set: each piece label's class label (pieces not followed share the class
    /// after the others).
    pub classes: Vec<Vec<u8>>,
    /// Per set: per class label, whether its orientation is followed.
    pub oriented: Vec<Vec<bool>>,
    /// Per set: per slot, the orientation offset of the frame (0 when followed as is).
    pub gauge: Vec<Vec<u8>>,
    /// Per set: per piece label, the offset of the slot it is solved in.
    pub home_gauge: Vec<Vec<u8>>,
    /// Sets whose joint permutation parity is a synthetic set of its own.
    pub parities: Vec<Vec<usize>>,
    /// Per set with a parity: the parity of its solved arrangement.
    solved_parity: Vec<u8>,
    /// Pairs the target keeps together, split by the phase's moves: followed as a
    /// matching.
    pub matching: Option<Matching>,
    /// Pairs the phase's moves keep together, in states that arrive paired: each pair one
    /// piece.
    pub collapse: Option<Collapse>,
    /// The matching's parity in the solved state.
    solved_matching_parity: u8,
    /// Matchings of pairs against an anchor piece of another set (the 5x5x5's wings,
    /// each side against the midges), followed beside the pattern by their tables
    /// alone.
    pub anchored: Vec<Sides>,
    /// Reading parities (after the parity sets and the matching): per entry, the set and
    /// each label's place among the counted pieces in the solved state's reading (255:
    /// not counted).
    pub readings: Vec<(usize, Vec<u8>)>,
}

/// Written as a derived `Debug` would, the anchored matchings only when there are some:
/// a pattern puzzle's hash (and so its tables' names) covers the view's text, and
/// views without them keep the names they had.
impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("View");
        out.field("classes", &self.classes)
            .field("oriented", &self.oriented)
            .field("gauge", &self.gauge)
            .field("home_gauge", &self.home_gauge)
            .field("parities", &self.parities)
            .field("solved_parity", &self.solved_parity)
            .field("matching", &self.matching)
            .field("collapse", &self.collapse)
            .field("solved_matching_parity", &self.solved_matching_parity)
            .field("readings", &self.readings);
        if !self.anchored.is_empty() {
            out.field("anchored", &self.anchored);
        }
        out.finish()
    }
}

/// Pairs of slots of one set that some moves keep together, each holding two partner
/// pieces in the solved state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pairing {
    /// The set.
    pub set: usize,
    /// The pairs of slots, in order of their first slot.
    pub blocks: Vec<(usize, usize)>,
    /// Per piece label, the pair it is solved in.
    pub block_of_label: Vec<u8>,
}

/// A pairing whose pairs the phase's moves split between two orbits of slots: the A
/// slot and the B slot of each pair.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matching {
    /// The pairs.
    pub pairing: Pairing,
    /// Per pair, its slot in orbit A and its slot in orbit B.
    pub a: Vec<usize>,
    /// Per pair, its slot in orbit B.
    pub b: Vec<usize>,
    /// Sets whose permutation parity the target ties to that of the pairs (the 4x4x4's
    /// corners: a reduced cube's edges permute with the corners' parity).
    pub with: Vec<usize>,
}

/// The two sides a matching relates, as its table reads them: per pair an A slot (of
/// set `a_set`) and a B slot (of set `b_set`, the same set for two wings of a 4x4x4
/// edge, another for a 5x5x5 wing against its midge), and which B piece partners each A
/// piece.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sides {
    /// The A slots' set, and per pair its A slot.
    pub a_set: usize,
    pub a: Vec<usize>,
    /// The B slots' set, and per pair its B slot.
    pub b_set: usize,
    pub b: Vec<usize>,
    /// Per label of the A set, the label of its partner in the B set (`u8::MAX`: a piece
    /// that belongs on no A slot, so a state with it there is not followed).
    pub partner: Vec<u8>,
    /// Slots of another set the matching's large table sees beside the pairs, when the
    /// plan names them (`Large`).
    pub beside: Option<Beside>,
}

/// Slots whose kinds a matching's large table follows beside its pairs (the plan's
/// `Large` line: the 4x4x4's U and D centres beside its twelve pairs), so that its bound
/// sees both at once. The phase's moves keep the slots among themselves, which hold two
/// kinds of piece solved, and its target solves them.
#[derive(Clone, PartialEq, Eq)]
pub struct Beside {
    /// The set.
    pub set: usize,
    /// The slots (at most 16).
    pub slots: Vec<usize>,
    /// Slots of other sets seen too (the 5x5x5's U and D T-centres beside its
    /// X-centres), each the same way.
    pub also: Vec<(usize, Vec<usize>)>,
}

/// Written as a derived `Debug` would, `also` only when there are other sets, so that a
/// plan's text (which names tables) stays what it was for one set.
impl std::fmt::Debug for Beside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut out = f.debug_struct("Beside");
        out.field("set", &self.set).field("slots", &self.slots);
        if !self.also.is_empty() {
            out.field("also", &self.also);
        }
        out.finish()
    }
}

impl Sides {
    /// The sides of a matching within one set: each piece's partner is the other piece
    /// solved in its pair.
    pub fn within(puzzle: &PermPuzzle, matching: &Matching) -> Self {
        let set = matching.pairing.set;
        let solved = &puzzle.solved.orbits[set];
        let mut partner = vec![u8::MAX; 256];
        for (&p, &q) in matching.a.iter().zip(&matching.b) {
            partner[solved.perm[p] as usize] = solved.perm[q];
            partner[solved.perm[q] as usize] = solved.perm[p];
        }
        Self {
            a_set: set,
            a: matching.a.clone(),
            b_set: set,
            b: matching.b.clone(),
            partner,
            beside: None,
        }
    }
}

/// Pairs of slots the phase's moves keep together, in states that arrive paired.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collapse {
    /// The set.
    pub set: usize,
    /// The pairs of slots.
    pub blocks: Vec<(usize, usize)>,
    /// The collapsed pieces: per pair of class labels (first slot's, second slot's) in
    /// the solved state, a label; filled by [`View::new`]'s caller through
    /// [`View::with_collapse`].
    pub labels: Vec<((u8, u8), u8)>,
    /// Whether a pair can lie reversed (an orientation of two).
    pub reversible: bool,
}

impl View {
    /// A view following classes `classes` (per set, per label; `None`: not followed),
    /// orientations `oriented` (per set, per label), in frames `gauge` (per set, per
    /// slot), with parity sets `parities`.
    pub fn new(
        puzzle: &PermPuzzle,
        classes: &[Vec<Option<u16>>],
        oriented: &[Vec<bool>],
        gauge: Vec<Vec<u8>>,
        parities: Vec<Vec<usize>>,
    ) -> Result<Self, String> {
        let mut class_maps = Vec::new();
        let mut oriented_by_class = Vec::new();
        let mut home_gauge = Vec::new();
        for (s, def) in puzzle.sets.iter().enumerate() {
            let solved = &puzzle.solved.orbits[s];
            // Dense class labels, in order of first appearance in the solved state.
            let mut dense: Vec<(u16, u8)> = Vec::new();
            let mut map = vec![WILD; 256];
            let mut has_blank = false;
            for &label in &solved.perm {
                match classes[s][label as usize] {
                    Some(c) => {
                        let id = match dense.iter().find(|(k, _)| *k == c) {
                            Some(&(_, id)) => id,
                            None => {
                                let id = dense.len() as u8;
                                dense.push((c, id));
                                id
                            }
                        };
                        map[label as usize] = id;
                    }
                    None => has_blank = true,
                }
            }
            if dense.len() + usize::from(has_blank) >= WILD as usize {
                return Err(format!("set {}: too many classes", def.name));
            }
            let blank = dense.len() as u8;
            for &label in &solved.perm {
                if map[label as usize] == WILD {
                    map[label as usize] = blank;
                }
            }
            // A class's orientation is followed when every piece of it is followed.
            let mut by_class = vec![true; blank as usize + 1];
            for &label in &solved.perm {
                let class = map[label as usize] as usize;
                by_class[class] &= oriented[s][label as usize] && def.omod > 1;
            }
            if has_blank {
                by_class[blank as usize] = false;
            }
            let mut homes = vec![0u8; 256];
            for (slot, &label) in solved.perm.iter().enumerate() {
                homes[label as usize] = gauge[s][slot];
            }
            class_maps.push(map);
            oriented_by_class.push(by_class);
            home_gauge.push(homes);
        }
        let solved_parity = parities
            .iter()
            .map(|sets| {
                sets.iter()
                    .map(|&s| parity(&puzzle.solved.orbits[s].perm))
                    .fold(0, |a, b| a ^ b)
            })
            .collect();
        Ok(Self {
            classes: class_maps,
            oriented: oriented_by_class,
            gauge,
            home_gauge,
            parities,
            solved_parity,
            matching: None,
            collapse: None,
            readings: Vec::new(),
            solved_matching_parity: 0,
            anchored: Vec::new(),
        })
    }

    /// This view following `matching` (its parity a synthetic set after the others).
    pub fn with_matching(mut self, puzzle: &PermPuzzle, matching: Matching) -> Self {
        self.matching = Some(matching);
        self.solved_matching_parity = self.matching_parity(&puzzle.solved).unwrap_or(0);
        self
    }

    /// This view with the set of `blocks` collapsed (each pair of slots one piece): the
    /// pieces are the pairs of class labels the solved state holds in them.
    /// Each pair's slots are ordered so that `moves` (the phase's) never reverse a pair
    /// when some order allows it: the pairs then have no orientation to follow.
    pub fn with_collapse(
        mut self,
        puzzle: &PermPuzzle,
        set: usize,
        blocks: Vec<(usize, usize)>,
        moves: &[&Element],
    ) -> Self {
        let blocks = ordered_blocks(set, blocks, moves);
        let solved = &puzzle.solved.orbits[set];
        // A collapsed piece is an unordered pair of classes; it lies straight (0) when its
        // pair's slots hold the classes in increasing order, reversed (1) otherwise.
        let mut labels: Vec<((u8, u8), u8)> = Vec::new();
        for &(p, q) in &blocks {
            let (x, y) = (
                self.classes[set][solved.perm[p] as usize],
                self.classes[set][solved.perm[q] as usize],
            );
            let key = (x.min(y), x.max(y));
            if !labels.iter().any(|(k, _)| *k == key) {
                let id = labels.len() as u8;
                labels.push((key, id));
            }
        }
        let reversible = labels.iter().any(|((x, y), _)| x != y);
        self.collapse = Some(Collapse {
            set,
            blocks,
            labels,
            reversible,
        });
        self
    }

    /// The collapsed orbit of set `set` (class labels `perm`), or `None` when a pair holds
    /// no pair of pieces the solved state has (the state is not paired).
    fn collapse_orbit(&self, perm: &[u8], out: &mut Orbit) -> Option<()> {
        let c = self.collapse.as_ref()?;
        out.perm.clear();
        out.ori.clear();
        for &(p, q) in &c.blocks {
            let (x, y) = (perm[p], perm[q]);
            let key = (x.min(y), x.max(y));
            let (_, id) = c.labels.iter().find(|(k, _)| *k == key)?;
            out.perm.push(*id);
            out.ori.push(u8::from(c.reversible && x > y));
        }
        Some(())
    }

    /// The parity tying the pairs to the sets `with` (a matching), from a full state:
    /// the permutation of the A slots by their pieces' pairs; `None` when some pair has
    /// both pieces in A slots (the phase cannot follow such a state).
    fn matching_parity(&self, state: &Element) -> Option<u8> {
        let m = self.matching.as_ref()?;
        let orbit = &state.orbits[m.pairing.set];
        let n = m.a.len();
        // Fewer than 256 slots in a set: the pairs' permutation fits on the stack.
        let mut seen = [false; 256];
        let mut perm = [0u8; 256];
        for (i, &slot) in m.a.iter().enumerate() {
            let block = m.pairing.block_of_label[orbit.perm[slot] as usize] as usize;
            if block >= n || std::mem::replace(&mut seen[block], true) {
                return None;
            }
            perm[i] = block as u8;
        }
        Some(
            m.with
                .iter()
                .map(|&s| parity(&state.orbits[s].perm))
                .fold(parity(&perm[..n]), |a, b| a ^ b),
        )
    }

    /// The view of a full state; `None` when the phase cannot follow it (a pair that
    /// must be whole is not, a matching's pair with both pieces on one side).
    pub fn apply(&self, state: &Element, sets: &[SetDef]) -> Option<Element> {
        let mut out = Element { orbits: Vec::new() };
        self.apply_into(state, sets, &mut out)?;
        Some(out)
    }

    /// [`View::apply`] into `out`, whose orbits' storage is reused (a phase scores
    /// thousands of its solutions by the next phase's view); `None` as there, `out` then
    /// unspecified.
    pub fn apply_into(&self, state: &Element, sets: &[SetDef], out: &mut Element) -> Option<()> {
        let orbits = state.orbits.len()
            + self.parities.len()
            + usize::from(self.matching.is_some())
            + self.readings.len();
        out.orbits.resize_with(orbits, Orbit::default);
        let (mine, extra) = out.orbits.split_at_mut(state.orbits.len());
        for (s, (orbit, into)) in state.orbits.iter().zip(mine).enumerate() {
            let omod = sets[s].omod.max(1) as u16;
            let map = &self.classes[s];
            into.perm.clear();
            into.ori.clear();
            for (slot, (&label, &o)) in orbit.perm.iter().zip(&orbit.ori).enumerate() {
                let class = map[label as usize];
                into.perm.push(class);
                into.ori
                    .push(if !self.oriented[s][class as usize] || o == WILD {
                        if sets[s].omod > 1 {
                            WILD
                        } else {
                            0
                        }
                    } else {
                        ((o as u16 + omod - self.gauge[s][slot] as u16 % omod
                            + self.home_gauge[s][label as usize] as u16)
                            % omod) as u8
                    });
            }
            if self.collapse.as_ref().is_some_and(|c| c.set == s) {
                let classes = std::mem::take(&mut into.perm);
                self.collapse_orbit(&classes, into)?;
            }
        }
        let mut extra = extra.iter_mut();
        let mut write_parity = |odd: u8| {
            let into = extra.next().expect("an orbit for each parity");
            into.perm.clear();
            into.perm
                .extend_from_slice(if odd == 1 { &[1, 0] } else { &[0, 1] });
            into.ori.clear();
            into.ori.extend_from_slice(&[0, 0]);
        };
        for (k, watched) in self.parities.iter().enumerate() {
            let odd = watched
                .iter()
                .map(|&s| parity(&state.orbits[s].perm))
                .fold(self.solved_parity[k], |a, b| a ^ b);
            write_parity(odd);
        }
        if self.matching.is_some() {
            write_parity(self.matching_parity(state)? ^ self.solved_matching_parity);
        }
        for (s, place) in &self.readings {
            let mut order = [0u8; 256];
            let mut n = 0;
            for &l in &state.orbits[*s].perm {
                let p = place[l as usize];
                if p != u8::MAX {
                    order[n] = p;
                    n += 1;
                }
            }
            write_parity(parity(&order[..n]));
        }
        Some(())
    }

    /// A move as the pattern puzzle sees it: twists read in the frame, a collapsed set's
    /// pairs moved as pieces (reversed pairs twisted), and each parity set swapped when
    /// the move is odd on what it watches.
    pub fn map_move(&self, element: &Element, sets: &[SetDef]) -> Element {
        let mut orbits = Vec::with_capacity(element.orbits.len() + self.parities.len() + 1);
        for (s, orbit) in element.orbits.iter().enumerate() {
            let omod = sets[s].omod.max(1) as u16;
            let gauge = &self.gauge[s];
            if let Some(c) = self.collapse.as_ref().filter(|c| c.set == s) {
                // Pair j receives the pair its first slot's piece comes from.
                let mut perm = Vec::with_capacity(c.blocks.len());
                let mut ori = Vec::with_capacity(c.blocks.len());
                for &(p, q) in &c.blocks {
                    let (from_p, from_q) = (orbit.perm[p] as usize, orbit.perm[q] as usize);
                    let (j, reversed) = c
                        .blocks
                        .iter()
                        .enumerate()
                        .find_map(|(j, &(a, b))| {
                            if (a, b) == (from_p, from_q) {
                                Some((j, false))
                            } else if (b, a) == (from_p, from_q) {
                                Some((j, true))
                            } else {
                                None
                            }
                        })
                        .unwrap_or((0, false));
                    perm.push(j as u8);
                    ori.push(u8::from(reversed && c.reversible));
                }
                orbits.push(Orbit { perm, ori });
                continue;
            }
            let ori = orbit
                .perm
                .iter()
                .zip(&orbit.ori)
                .enumerate()
                .map(|(i, (&from, &t))| {
                    ((t as u16 + gauge[from as usize] as u16 + omod - gauge[i] as u16 % omod)
                        % omod) as u8
                })
                .collect();
            orbits.push(Orbit {
                perm: orbit.perm.clone(),
                ori,
            });
        }
        let swap = |odd: u8| Orbit {
            perm: if odd == 1 { vec![1, 0] } else { vec![0, 1] },
            ori: vec![0, 0],
        };
        for watched in &self.parities {
            let odd = watched
                .iter()
                .map(|&s| parity(&element.orbits[s].perm))
                .fold(0, |a, b| a ^ b);
            orbits.push(swap(odd));
        }
        if let Some(m) = &self.matching {
            // The A slots' permutation by the move, as pair indices, and the tied sets.
            let o = &element.orbits[m.pairing.set];
            let a_perm: Vec<u8> =
                m.a.iter()
                    .map(|&slot| {
                        m.a.iter()
                            .position(|&x| x == o.perm[slot] as usize)
                            .unwrap_or(0) as u8
                    })
                    .collect();
            let odd = m
                .with
                .iter()
                .map(|&s| parity(&element.orbits[s].perm))
                .fold(parity(&a_perm), |a, b| a ^ b);
            orbits.push(swap(odd));
        }
        // A reading parity's change depends on the state: the moves only stand in for it.
        for _ in &self.readings {
            orbits.push(swap(1));
        }
        Element { orbits }
    }

    /// The sets of the pattern puzzle: the puzzle's (a collapsed one with a slot per
    /// pair), then one two-slot set per parity and for the matching.
    pub fn sets(&self, sets: &[SetDef]) -> Vec<SetDef> {
        let mut out = sets.to_vec();
        if let Some(c) = &self.collapse {
            out[c.set] = SetDef {
                name: format!("{}-PAIRS", sets[c.set].name),
                size: c.blocks.len(),
                omod: if c.reversible { 2 } else { 1 },
            };
        }
        let extra = self.parities.len() + usize::from(self.matching.is_some());
        for k in 0..extra {
            out.push(SetDef {
                name: format!("PARITY{}", k + 1),
                size: 2,
                omod: 1,
            });
        }
        for k in 0..self.readings.len() {
            out.push(SetDef {
                name: format!("READING{}", k + 1),
                size: 2,
                omod: 1,
            });
        }
        out
    }

    /// The reading parities as the pattern puzzle holds them: each counted class (its
    /// pieces all counted in `puzzle`), and the two-slot set after the others.
    fn pattern_readings(&self, puzzle: &PermPuzzle) -> Vec<crate::puzzles::perm::puzzle::Reading> {
        let first = puzzle.sets.len() + self.parities.len() + usize::from(self.matching.is_some());
        self.readings
            .iter()
            .enumerate()
            .map(|(k, (s, place))| {
                let mut counted = vec![false; 256];
                for &label in &puzzle.solved.orbits[*s].perm {
                    if place[label as usize] != u8::MAX {
                        counted[self.classes[*s][label as usize] as usize] = true;
                    }
                }
                crate::puzzles::perm::puzzle::Reading {
                    set: *s,
                    bit: first + k,
                    counted,
                }
            })
            .collect()
    }

    /// The `Illegal` rules of `puzzle` the view can still tell: a rule on a set the view
    /// keeps as is, whose pieces fill whole classes (Square-1's corner halves, one class
    /// in a shape pattern). The others are dropped: the phase search keeps every rule on
    /// full states, and a table that ignores a rule still bounds the distance from below.
    fn illegal_rules(&self, puzzle: &PermPuzzle) -> Vec<crate::puzzles::perm::definition::Illegal> {
        puzzle
            .illegal
            .iter()
            .filter_map(|rule| {
                let map = &self.classes[rule.set];
                if self.collapse.as_ref().is_some_and(|c| c.set == rule.set) {
                    return None;
                }
                let solved = &puzzle.solved.orbits[rule.set].perm;
                let mut labels: Vec<u8> = rule.labels.iter().map(|&l| map[l as usize]).collect();
                labels.sort_unstable();
                labels.dedup();
                // Every piece of those classes must be one the rule forbids.
                let whole = solved
                    .iter()
                    .all(|&l| !labels.contains(&map[l as usize]) || rule.labels.contains(&l));
                whole.then_some(crate::puzzles::perm::definition::Illegal {
                    set: rule.set,
                    slot: rule.slot,
                    labels,
                })
            })
            .collect()
    }

    /// The pattern puzzle of this view searching `moves` (with their bases): its solved
    /// state is the view of solved; its hash covers the view and the moves.
    pub fn pattern_puzzle(
        &self,
        puzzle: &PermPuzzle,
        moves: &[PuzzleMove],
        bases: Vec<(String, u32)>,
    ) -> PermPuzzle {
        let sets = self.sets(&puzzle.sets);
        let mapped: Vec<PuzzleMove> = moves
            .iter()
            .map(|m| PuzzleMove {
                name: m.name.clone(),
                element: self.map_move(&m.element, &puzzle.sets),
                base: m.base,
            })
            .collect();
        let mut pattern = PermPuzzle {
            sets,
            solved: self
                .apply(&puzzle.solved, &puzzle.sets)
                .expect("the solved state is seen by every view"),
            illegal: self.illegal_rules(puzzle),
            readings: self.pattern_readings(puzzle),
            names: Default::default(),
            ..puzzle.clone()
        };
        pattern.hash =
            xxhash_rust::xxh3::xxh3_64(format!("{}|view|{self:?}", puzzle.hash).as_bytes());
        pattern.with_search_moves(mapped, bases)
    }
}

/// The frame in which `moves` twist nothing, per set and slot, where one exists on an
/// orbit (`None` for slots of orbits the moves twist whatever the frame).
pub fn twist_free_gauge(sets: &[SetDef], moves: &[&Element]) -> Vec<Vec<Option<u8>>> {
    let orbits = slot_orbits(sets, moves);
    sets.iter()
        .enumerate()
        .map(|(s, def)| {
            let omod = def.omod.max(1) as u16;
            let mut gauge: Vec<Option<u8>> = vec![None; def.size];
            let mut broken = vec![false; def.size];
            for start in 0..def.size {
                if gauge[start].is_some()
                    || orbits[s][start] != start && gauge[orbits[s][start]].is_some()
                {
                    continue;
                }
                // Spread c[i] = c[from] + t(i) over the orbit from its root.
                let root = orbits[s][start];
                if gauge[root].is_some() {
                    continue;
                }
                gauge[root] = Some(0);
                let mut changed = true;
                while changed {
                    changed = false;
                    for m in moves {
                        let o = &m.orbits[s];
                        for (i, (&from, &t)) in o.perm.iter().zip(&o.ori).enumerate() {
                            let from = from as usize;
                            let (Some(cf), ci) = (gauge[from], gauge[i]) else {
                                continue;
                            };
                            let want = ((cf as u16 + t as u16) % omod) as u8;
                            match ci {
                                None => {
                                    gauge[i] = Some(want);
                                    changed = true;
                                }
                                Some(c) if c != want => broken[orbits[s][i]] = true,
                                Some(_) => {}
                            }
                        }
                    }
                }
            }
            (0..def.size)
                .map(|i| if broken[orbits[s][i]] { None } else { gauge[i] })
                .collect()
        })
        .collect()
}

/// Per move, where the piece in each slot of set `set` goes (`to[m][slot]`: the slot
/// it lands in).
fn destinations(set: usize, moves: &[&Element]) -> Vec<Vec<usize>> {
    moves
        .iter()
        .map(|m| {
            let perm = &m.orbits[set].perm;
            let mut to = vec![0usize; perm.len()];
            for (i, &from) in perm.iter().enumerate() {
                to[from as usize] = i;
            }
            to
        })
        .collect()
}

/// For each slot of set `s`, its partner when `moves` keep the set's slots in pairs (each
/// pair's ordered images under every move sequence as many as its first slot's): `None`
/// when they do not.
pub fn pairs_kept(sets: &[SetDef], s: usize, moves: &[&Element]) -> Option<Vec<(usize, usize)>> {
    let n = sets[s].size;
    if n < 2 || n % 2 == 1 {
        return None;
    }
    // Where each slot's piece goes, per move.
    let to = destinations(s, moves);
    // The images of one slot or an ordered pair of slots under every move sequence,
    // counted over a flag per value (`a` or `a * n + b`), up to one more than `most`:
    // only whether a pair's count equals its first slot's is asked, and a pair that is
    // not kept passes that at once (checking every slot against every other took a
    // millisecond of each 4x4x4 process).
    let mut seen = vec![false; n * n];
    let mut stack: Vec<usize> = Vec::new();
    let mut orbit_size = |start: &[usize], most: usize| -> usize {
        let key = |slots: &[usize]| slots.iter().fold(0, |k, &x| k * n + x);
        let unkey = |k: usize| {
            if start.len() == 1 {
                (k, 0)
            } else {
                (k / n, k % n)
            }
        };
        seen.fill(false);
        seen[key(start)] = true;
        stack.clear();
        stack.push(key(start));
        let mut count = 1;
        while let Some(here) = stack.pop() {
            let (x, y) = unkey(here);
            for t in &to {
                let next = if start.len() == 1 {
                    t[x]
                } else {
                    t[x] * n + t[y]
                };
                if !seen[next] {
                    seen[next] = true;
                    count += 1;
                    if count > most {
                        return count;
                    }
                    stack.push(next);
                }
            }
        }
        count
    };
    let mut partner = vec![usize::MAX; n];
    for a in 0..n {
        if partner[a] != usize::MAX {
            continue;
        }
        let alone = orbit_size(&[a], n);
        let b = (0..n)
            .find(|&b| b != a && partner[b] == usize::MAX && orbit_size(&[a, b], alone) == alone)?;
        // Moves that keep pairs keep them both ways.
        let alone = orbit_size(&[b], n);
        if orbit_size(&[b, a], alone) != alone {
            return None;
        }
        partner[a] = b;
        partner[b] = a;
    }
    // Every move takes pairs to pairs.
    for t in &to {
        if (0..n).any(|a| partner[t[a]] != t[partner[a]]) {
            return None;
        }
    }
    Some(
        (0..n)
            .filter(|&a| a < partner[a])
            .map(|a| (a, partner[a]))
            .collect(),
    )
}

/// The slot of set `other` that `moves` keep with slot `slot.1` of set `slot.0`: the one
/// slot whose piece goes wherever that slot's piece goes, under every move sequence (a
/// 5x5x5 wing's midge under face turns); `None` when there is none.
pub fn kept_with(
    sets: &[SetDef],
    slot: (usize, usize),
    other: usize,
    moves: &[&Element],
) -> Option<usize> {
    let (s, start) = slot;
    let (to_s, to_o) = (destinations(s, moves), destinations(other, moves));
    'candidate: for first in 0..sets[other].size {
        let mut with = vec![usize::MAX; sets[s].size];
        with[start] = first;
        let mut stack = vec![start];
        while let Some(x) = stack.pop() {
            for (ts, to) in to_s.iter().zip(&to_o) {
                let (y, w) = (ts[x], to[with[x]]);
                if with[y] == usize::MAX {
                    with[y] = w;
                    stack.push(y);
                } else if with[y] != w {
                    continue 'candidate;
                }
            }
        }
        return Some(first);
    }
    None
}

/// The pairs with their slots ordered so that no move reverses a pair (a pair's image
/// under a move gets the order of the moved slots), when that is consistent; else as
/// given.
fn ordered_blocks(
    set: usize,
    blocks: Vec<(usize, usize)>,
    moves: &[&Element],
) -> Vec<(usize, usize)> {
    let n = blocks.len();
    let to = destinations(set, moves);
    let index_of = |slot: usize| blocks.iter().position(|&(p, q)| p == slot || q == slot);
    let mut order: Vec<Option<(usize, usize)>> = vec![None; n];
    for start in 0..n {
        if order[start].is_some() {
            continue;
        }
        order[start] = Some(blocks[start]);
        let mut stack = vec![start];
        while let Some(j) = stack.pop() {
            let Some((p, q)) = order[j] else { continue };
            for t in &to {
                let (pp, qq) = (t[p], t[q]);
                let Some(k) = index_of(pp) else {
                    return blocks;
                };
                match order[k] {
                    None => {
                        order[k] = Some((pp, qq));
                        stack.push(k);
                    }
                    Some(existing) if existing != (pp, qq) => return blocks,
                    Some(_) => {}
                }
            }
        }
    }
    order.into_iter().map(|o| o.unwrap_or((0, 0))).collect()
}
