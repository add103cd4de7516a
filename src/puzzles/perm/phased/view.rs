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

use crate::puzzles::perm::element::{parity, Element, Orbit, SetDef, WILD};
use crate::puzzles::perm::puzzle::{PermPuzzle, PuzzleMove};

/// The map of full states into a phase's pattern puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
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
        })
    }

    /// The view of a full state.
    pub fn apply(&self, state: &Element, sets: &[SetDef]) -> Element {
        let mut orbits = Vec::with_capacity(state.orbits.len() + self.parities.len());
        for (s, orbit) in state.orbits.iter().enumerate() {
            let omod = sets[s].omod.max(1) as u16;
            let map = &self.classes[s];
            let mut perm = Vec::with_capacity(orbit.perm.len());
            let mut ori = Vec::with_capacity(orbit.perm.len());
            for (slot, (&label, &o)) in orbit.perm.iter().zip(&orbit.ori).enumerate() {
                let class = map[label as usize];
                perm.push(class);
                ori.push(if !self.oriented[s][class as usize] || o == WILD {
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
            orbits.push(Orbit { perm, ori });
        }
        for (k, watched) in self.parities.iter().enumerate() {
            let odd = watched
                .iter()
                .map(|&s| parity(&state.orbits[s].perm))
                .fold(self.solved_parity[k], |a, b| a ^ b);
            orbits.push(Orbit {
                perm: if odd == 1 { vec![1, 0] } else { vec![0, 1] },
                ori: vec![0, 0],
            });
        }
        Element { orbits }
    }

    /// A move as the pattern puzzle sees it: twists read in the frame, and each parity
    /// set swapped when the move is odd on the sets it watches.
    pub fn map_move(&self, element: &Element, sets: &[SetDef]) -> Element {
        let mut orbits = Vec::with_capacity(element.orbits.len() + self.parities.len());
        for (s, orbit) in element.orbits.iter().enumerate() {
            let omod = sets[s].omod.max(1) as u16;
            let gauge = &self.gauge[s];
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
        for watched in &self.parities {
            let odd = watched
                .iter()
                .map(|&s| parity(&element.orbits[s].perm))
                .fold(0, |a, b| a ^ b);
            orbits.push(Orbit {
                perm: if odd == 1 { vec![1, 0] } else { vec![0, 1] },
                ori: vec![0, 0],
            });
        }
        Element { orbits }
    }

    /// The sets of the pattern puzzle: the puzzle's, then one two-slot set per parity.
    pub fn sets(&self, sets: &[SetDef]) -> Vec<SetDef> {
        let mut out = sets.to_vec();
        for (k, _) in self.parities.iter().enumerate() {
            out.push(SetDef {
                name: format!("PARITY{}", k + 1),
                size: 2,
                omod: 1,
            });
        }
        out
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
            solved: self.apply(&puzzle.solved, &puzzle.sets),
            // Illegal rules name pieces the view may have merged: the phase search keeps
            // them on full states instead.
            illegal: Vec::new(),
            names: Default::default(),
            ..puzzle.clone()
        };
        pattern.hash =
            xxhash_rust::xxh3::xxh3_64(format!("{}|view|{self:?}", puzzle.hash).as_bytes());
        pattern.with_search_moves(mapped, bases)
    }
}

/// Per set, per slot: the orbit id of the slot under `moves` (slots that exchange
/// pieces share one).
pub fn slot_orbits(sets: &[SetDef], moves: &[&Element]) -> Vec<Vec<usize>> {
    sets.iter()
        .enumerate()
        .map(|(s, def)| {
            let mut parent: Vec<usize> = (0..def.size).collect();
            fn root(parent: &mut [usize], mut x: usize) -> usize {
                while parent[x] != x {
                    parent[x] = parent[parent[x]];
                    x = parent[x];
                }
                x
            }
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
