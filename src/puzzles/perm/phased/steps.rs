//! Steps of free moves then a paid move, listed per state of a small exact table.
//!
//! When some of a phase's moves cost nothing (Square-1's layer turns in the twist metric),
//! its search spends most of its nodes on them: every legal pair of turns before each
//! slash is a node, and most of the slashes they lead to are cut at once by the table.
//! Over a table small enough to list (the Square-1's 7,356 shapes), every such step from
//! every state is worked out once: each canonical word of free moves that the rules allow,
//! then each paid move, with the state it reaches and that state's table value. The
//! search then walks a state's list and reads each step's value, in the order the plain
//! search would have met those steps (so its solutions come in the same order), and makes
//! nodes only where the table lets it go on.
//!
//! Some free words are spelt twice across a paid move. On the Square-1,
//! `S U^c D^d S = R · S U^d D^c S · R` with `R = U6 D6`, a free element every free move
//! commutes with: a word's step after a slash may swap its two turns if its neighbours
//! take an `R` each (the last one's lands after the phase, where the next phase's free
//! turns absorb it), so a word of k such steps has up to 2^k spellings of one element.
//! Such a pairing `T` (with its `z`) is found from the moves themselves
//! ([`redundant_after`]), and the steps after the paid move keep one of each pair,
//! chosen so that a neighbour's shift by `z` keeps it chosen: on one random Square-1
//! state the shape phase met 132 solutions for its 100 classes instead of 1,204, in 4,150
//! nodes instead of 22,316, and 1,000 states took 0.75 s instead of 1.75.

use super::tables::PhaseTables;
use crate::puzzles::perm::coord::Reachable;
use crate::puzzles::perm::element::{Element, SetDef};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};

/// Most states a phase's table may have for its steps to be listed.
const MOST_STATES: u64 = 1 << 16;
/// Most free moves in one step's word.
const LONGEST_WORD: usize = 6;
/// Most steps listed in all.
const MOST_STEPS: usize = 1 << 22;

/// One step: free moves, then one paid move.
#[derive(Debug, Clone, Copy)]
pub struct Step {
    /// The phase moves, free ones then the paid one (`len` of them).
    moves: [u8; LONGEST_WORD + 1],
    len: u8,
    /// The table value (distance modulo 3) of the state reached.
    pub value: u8,
    /// The exact table's rank of the state reached.
    pub rank: u32,
}

impl Step {
    /// The step's phase moves.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        self.moves[..self.len as usize].iter().map(|&m| m as usize)
    }

    /// Its last (paid) move.
    pub fn last(&self) -> usize {
        self.moves[self.len as usize - 1] as usize
    }

    /// How many moves it makes.
    pub fn move_count(&self) -> usize {
        self.len as usize
    }
}

/// A phase's steps, per kind of move before them and per state.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct FreeSteps {
    /// Per phase move (and the start, at the end), which list of steps follows it;
    /// `u8::MAX` after a free move (the search goes on move by move there).
    row_of_last: Vec<u8>,
    /// The table's number of states.
    states: u64,
    /// Per row and state, where its steps start in `steps` (one more entry at the end).
    #[serde(with = "crate::table::derived::words")]
    starts: Vec<u32>,
    #[serde(with = "step_bytes")]
    steps: Vec<Step>,
}

impl FreeSteps {
    /// The steps of a phase over `tables` with move costs `costs`, or `None` when they
    /// would not pay or do not apply: no free or no paid move, a table other than one
    /// small exact table, a matching, straddle or kinds table beside it, states the search
    /// would have to follow in full (`follows_full_states`), or too many steps. `guard`
    /// is the coordinate that tells the moves the rules forbid, when the search asks it.
    pub fn new(
        tables: &PhaseTables,
        costs: &[u8],
        guard: Option<(usize, &Reachable)>,
        follows_full_states: bool,
        (elements, sets): (&[&Element], &[SetDef]),
    ) -> Option<Self> {
        let moves = tables.ranked.moves.len();
        let free = costs.iter().filter(|&&c| c == 0).count();
        let states = tables.whole_exact_size()?;
        if free == 0
            || free == moves
            || moves > u8::MAX as usize
            || states > MOST_STATES
            || follows_full_states
            || !tables.matchings.is_empty()
            || tables.straddle.is_some()
            || !tables.kinds.is_empty()
        {
            return None;
        }
        let follows = &tables.ranked.follows;
        // One list per distinct row of `follows` after a paid move or at the start.
        let mut rows: Vec<u128> = Vec::new();
        let row_of_last = (0..=moves)
            .map(|last| {
                if last < moves && costs[last] == 0 {
                    return Some(u8::MAX);
                }
                let row = follows[last];
                let at = rows.iter().position(|&r| r == row).unwrap_or_else(|| {
                    rows.push(row);
                    rows.len() - 1
                });
                u8::try_from(at).ok()
            })
            .collect::<Option<Vec<u8>>>()?;
        let width = tables.width;
        // The free elements a lone paid move makes redundant after it, when its row of
        // steps is its own (not the start's).
        let paid: Vec<usize> = (0..moves).filter(|&m| costs[m] > 0).collect();
        let skip_row = match paid[..] {
            [only] if follows[only] != follows[moves] => {
                redundant_after(elements, sets, costs, only).map(|skip| (follows[only], skip))
            }
            _ => None,
        };
        // Each state's steps listed on every core (a block of states at a time, each
        // block with its own verdicts on free words), then joined in order.
        const BLOCK: u64 = 256;
        let mut starts = Vec::with_capacity(rows.len() * states as usize + 1);
        let mut steps = Vec::new();
        for &row in &rows {
            let skip = skip_row
                .as_ref()
                .filter(|(r, _)| *r == row)
                .map(|(_, skip)| skip);
            let blocks: Vec<Option<Vec<Vec<Step>>>> = (0..states.div_ceil(BLOCK))
                .into_par_iter()
                .map(|block| {
                    let first = block * BLOCK;
                    let mut values = vec![0u64; width];
                    let mut kept_words: HashMap<Vec<u8>, bool> = HashMap::new();
                    (first..(first + BLOCK).min(states))
                        .map(|rank| {
                            let mut listed = Vec::new();
                            tables.exact_values(rank, &mut values);
                            let mut lister = Lister {
                                tables,
                                costs,
                                guard,
                                steps: &mut listed,
                                word: Vec::new(),
                                skip: skip.map(|skip| (skip, elements, sets, &mut kept_words)),
                            };
                            lister.from(&values, row)?;
                            Some(listed)
                        })
                        .collect()
                })
                .collect();
            for listed in blocks {
                for listed in listed? {
                    starts.push(u32::try_from(steps.len()).ok()?);
                    steps.extend_from_slice(&listed);
                    if steps.len() > MOST_STEPS {
                        return None;
                    }
                }
            }
        }
        starts.push(u32::try_from(steps.len()).ok()?);
        Some(Self {
            row_of_last,
            states,
            starts,
            steps,
        })
    }

    /// Whether these steps fit a phase of `moves` moves over an exact table of `states`
    /// states (steps read back from a file): every index they hold in range.
    pub fn fit(&self, moves: usize, states: u64) -> bool {
        let rows = self
            .row_of_last
            .iter()
            .filter(|&&r| r != u8::MAX)
            .map(|&r| r as usize + 1)
            .max()
            .unwrap_or(0);
        self.states == states
            && self.row_of_last.len() == moves + 1
            && self.starts.len() == rows * states as usize + 1
            && self.starts.first() == Some(&0)
            && self.starts.last().map(|&s| s as usize) == Some(self.steps.len())
            && self.starts.windows(2).all(|w| w[0] <= w[1])
            && self.steps.iter().all(|step| {
                (1..=LONGEST_WORD + 1).contains(&(step.len as usize))
                    && step.moves().all(|m| m < moves)
                    && u64::from(step.rank) < states
                    && step.value < 4
            })
    }

    /// The steps after move `last` (the start: the number of moves) from the state of
    /// exact rank `rank`, or `None` after a free move.
    #[inline]
    pub fn after(&self, last: usize, rank: u64) -> Option<&[Step]> {
        let row = *self.row_of_last.get(last)?;
        if row == u8::MAX {
            return None;
        }
        let at = row as usize * self.states as usize + rank as usize;
        let (from, to) = (self.starts[at] as usize, self.starts[at + 1] as usize);
        Some(&self.steps[from..to])
    }
}

/// Serde for the steps as one run of bytes, 13 a step (moves, count, value, rank): read
/// back in one pass rather than field by field.
mod step_bytes {
    use super::{Step, LONGEST_WORD};
    use serde::{de, Deserializer, Serializer};

    const SIZE: usize = LONGEST_WORD + 1 + 2 + 4;

    pub fn serialize<S: Serializer>(steps: &[Step], s: S) -> Result<S::Ok, S::Error> {
        let mut bytes = Vec::with_capacity(steps.len() * SIZE);
        for step in steps {
            bytes.extend_from_slice(&step.moves);
            bytes.extend_from_slice(&[step.len, step.value]);
            bytes.extend_from_slice(&step.rank.to_le_bytes());
        }
        s.serialize_bytes(&bytes)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Step>, D::Error> {
        struct StepsVisitor;
        impl de::Visitor<'_> for StepsVisitor {
            type Value = Vec<Step>;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "steps of {SIZE} bytes")
            }

            fn visit_bytes<E: de::Error>(self, bytes: &[u8]) -> Result<Vec<Step>, E> {
                if !bytes.len().is_multiple_of(SIZE) {
                    return Err(E::invalid_length(bytes.len(), &self));
                }
                Ok(bytes
                    .chunks_exact(SIZE)
                    .map(|c| {
                        let mut moves = [0u8; LONGEST_WORD + 1];
                        moves.copy_from_slice(&c[..LONGEST_WORD + 1]);
                        let at = LONGEST_WORD + 1;
                        Step {
                            moves,
                            len: c[at],
                            value: c[at + 1],
                            rank: u32::from_le_bytes([c[at + 2], c[at + 3], c[at + 4], c[at + 5]]),
                        }
                    })
                    .collect())
            }
        }
        d.deserialize_bytes(StepsVisitor)
    }
}

/// Lists the steps from one state, depth first in move order (the plain search's order).
struct Lister<'a> {
    tables: &'a PhaseTables,
    costs: &'a [u8],
    guard: Option<(usize, &'a Reachable)>,
    steps: &'a mut Vec<Step>,
    word: Vec<u8>,
    /// After the paid move whose redundant free elements these are: the set, the
    /// phase's moves, and each free word's verdict so far (kept or not).
    #[allow(clippy::type_complexity)]
    skip: Option<(
        &'a HashSet<Element>,
        &'a [&'a Element],
        &'a [SetDef],
        &'a mut HashMap<Vec<u8>, bool>,
    )>,
}

impl Lister<'_> {
    /// The steps from coordinate values `values`, the moves `allowed` next; `None` when a
    /// word grows too long (free moves that never stop following one another).
    fn from(&mut self, values: &[u64], allowed: u128) -> Option<()> {
        let moves = self.tables.ranked.moves.len();
        let mut allowed = allowed;
        if let Some((at, coord)) = self.guard {
            allowed &= !coord.forbidden_moves(values[at], moves);
        }
        let mut next = vec![0u64; values.len()];
        for m in (0..moves).filter(|&m| allowed >> m & 1 == 1) {
            self.tables.child(values, m, &mut next);
            let value = self.tables.exact_value(&next);
            if value == super::tables::UNREACHABLE {
                continue;
            }
            if self.costs[m] == 0 {
                if self.word.len() == LONGEST_WORD {
                    return None;
                }
                self.word.push(m as u8);
                self.from(&next, self.tables.ranked.follows[m])?;
                self.word.pop();
            } else {
                if let Some((skip, elements, sets, kept)) = &mut self.skip {
                    // Looked up without a copy of the word: a few words, many steps.
                    let keep = match kept.get(self.word.as_slice()) {
                        Some(&keep) => keep,
                        None => {
                            let element =
                                self.word.iter().fold(Element::identity(sets), |e, &f| {
                                    e.then(elements[f as usize], sets)
                                });
                            let keep = !skip.contains(&element);
                            kept.insert(self.word.clone(), keep);
                            keep
                        }
                    };
                    if !keep {
                        continue;
                    }
                }
                let mut moves = [0u8; LONGEST_WORD + 1];
                moves[..self.word.len()].copy_from_slice(&self.word);
                moves[self.word.len()] = m as u8;
                self.steps.push(Step {
                    moves,
                    len: self.word.len() as u8 + 1,
                    value,
                    rank: u32::try_from(self.tables.exact_rank(&next)).ok()?,
                });
            }
        }
        Some(())
    }
}

/// Most elements of the free moves' group [`redundant_after`] looks through.
const MOST_FREE_ELEMENTS: usize = 4096;

/// The free elements that need not follow the paid move `paid`, or `None` when the
/// moves have no such pairing. Looks for a free element `z`, not the identity, that
/// every free move commutes with, and a pairing `T` of free elements with
/// `P f P = z · P T(f) P · z⁻¹` for every free `f` (`P` the paid move, its own inverse),
/// `T` an involution that commutes with the shift by `z`. A step `f` between two paid
/// moves may then become `T(f)`, its neighbours shifted by `z`; of each set
/// `{f, f z, T f, T f z}` the pair `{g, g z}` holding the first found is kept, and where
/// `T f` is `f` or `f z` all four are. So a word keeps at least one spelling, whatever
/// the shifts its other steps' choices put on it.
fn redundant_after(
    elements: &[&Element],
    sets: &[SetDef],
    costs: &[u8],
    paid: usize,
) -> Option<HashSet<Element>> {
    let p = elements[paid];
    let identity = Element::identity(sets);
    if p.then(p, sets) != identity {
        return None;
    }
    let free: Vec<&Element> = (0..costs.len())
        .filter(|&m| costs[m] == 0)
        .map(|m| elements[m])
        .collect();
    // The free moves' group, in the order a breadth-first search meets it.
    let mut group = vec![identity.clone()];
    let mut index: HashMap<Element, usize> = HashMap::from([(identity.clone(), 0)]);
    let mut at = 0;
    while at < group.len() {
        for f in &free {
            let next = group[at].then(f, sets);
            if !index.contains_key(&next) {
                if group.len() == MOST_FREE_ELEMENTS {
                    return None;
                }
                index.insert(next.clone(), group.len());
                group.push(next);
            }
        }
        at += 1;
    }
    let central = |z: &Element| free.iter().all(|f| z.then(f, sets) == f.then(z, sets));
    for z in group.iter().skip(1).filter(|z| central(z)) {
        let z_inverse = z.inverse(sets);
        let before = p.then(&z_inverse, sets).then(p, sets);
        let after = p.then(z, sets).then(p, sets);
        // T(f) = P z⁻¹ P · f · P z P, which must be free.
        let pairing: Option<Vec<usize>> = group
            .iter()
            .map(|f| index.get(&before.then(f, sets).then(&after, sets)).copied())
            .collect();
        let Some(pairing) = pairing else { continue };
        let shift: Vec<usize> = group.iter().map(|f| index[&f.then(z, sets)]).collect();
        let fits = (0..group.len())
            .all(|f| pairing[pairing[f]] == f && pairing[shift[f]] == shift[pairing[f]]);
        if !fits {
            continue;
        }
        let mut redundant = HashSet::new();
        let mut decided = vec![false; group.len()];
        for f in 0..group.len() {
            if decided[f] {
                continue;
            }
            let (fz, t, tz) = (shift[f], pairing[f], shift[pairing[f]]);
            for g in [f, fz, t, tz] {
                decided[g] = true;
            }
            if t == f || t == fz {
                continue;
            }
            // f is the first of the four met: its pair stays, the other goes.
            redundant.insert(group[t].clone());
            redundant.insert(group[tz].clone());
        }
        return (!redundant.is_empty()).then_some(redundant);
    }
    None
}
