//! Any definition solved from any state, however big: the stabilizer chain of its moves'
//! group (Schreier–Sims), each coset representative carried as a move sequence kept
//! short by Minkwitz's method. A state's answer is the representatives of its cosets,
//! level after level, adjacent moves merged: far longer than an exact table's or a
//! plan's, but found in microseconds for a definition that has neither
//! (docs/puzzles.md, "Any definition, any state").

use super::element::{Element, Orbit, WILD};
use super::exact::{phase_table_spec, table_prefix};
use super::group::{self, compose, follow_in_place, invert, is_identity, ChainLevel, Count, Perm};
use super::puzzle::PermPuzzle;
use crate::progress::Progress;
use crate::rng::SplitMix64;
use crate::table::{TableError, TableStore};

/// Why a definition gets no chain solver.
#[derive(Debug, thiserror::Error)]
pub enum ChainError {
    /// Sequences of the chain pass through any state, legal or not.
    #[error(
        "the definition has Illegal rules, which the stabilizer chain's sequences do not keep"
    )]
    Illegal,
    /// The chain follows every orientation.
    #[error(
        "the solved state has orientations marked \"any\", which the stabilizer chain does not \
         follow"
    )]
    WildOrientation,
    /// Schreier–Sims gave up.
    #[error("Schreier-Sims gave up on this definition's group")]
    GaveUp,
    /// The representatives would not fit in memory.
    #[error("its stabilizer chain needs {needed_mb} MB, over the {MOST_MB} MB allowed")]
    TooBig {
        /// What it would need.
        needed_mb: u64,
    },
    /// Some coset had no sequence after every try.
    #[error("no move sequence found for {missing} coset(s) of the chain in {tried} tries")]
    Unfilled {
        /// Cosets without a sequence.
        missing: usize,
        /// Sequences tried.
        tried: usize,
    },
    /// The file of sequences cannot be read or written.
    #[error(transparent)]
    Table(#[from] TableError),
    /// The file of sequences is a table, but not of this chain.
    #[error("table {path}: {why}; delete it and it is made again")]
    Damaged {
        /// The file.
        path: String,
        /// What is wrong.
        why: String,
    },
}

/// Why a state has no chain answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChainUnsolved {
    /// No sequence of the moves reaches it.
    #[error("not reachable with the moves")]
    Unreachable,
    /// Its identical pieces could not be told apart in a way the moves reach, where the
    /// group has more rules than parities and orientation sums.
    #[error(
        "its identical pieces could not be told apart in an arrangement the moves reach (this \
         group has rules beyond parities and orientation sums)"
    )]
    Untold,
}

/// What two moves in a row make, when it is at most one move.
const KEEP: u16 = u16::MAX;
const CANCEL: u16 = u16::MAX - 1;

/// Moves as the chain writes them: what adjacent moves merge into, which commute, and
/// each move's inverse.
struct Words {
    moves: usize,
    /// `merged[a * moves + b]`: the one move `a` then `b` make, `CANCEL` (nothing) or
    /// `KEEP` (two moves).
    merged: Vec<u16>,
    /// `commute[a * moves + b]`: `a` then `b` is `b` then `a`.
    commute: Vec<bool>,
    /// Each move undone, as moves (itself repeated when the definition lacks it).
    inverse: Vec<Vec<u16>>,
}

impl Words {
    fn new(perms: &[Perm]) -> Self {
        let moves = perms.len();
        let index: std::collections::HashMap<&Perm, usize> =
            perms.iter().enumerate().map(|(i, p)| (p, i)).collect();
        let mut merged = vec![KEEP; moves * moves];
        let mut commute = vec![false; moves * moves];
        for a in 0..moves {
            for b in 0..moves {
                let ab = compose(&perms[a], &perms[b]);
                merged[a * moves + b] = if is_identity(&ab) {
                    CANCEL
                } else {
                    index.get(&ab).map_or(KEEP, |&c| c as u16)
                };
                commute[a * moves + b] = ab == compose(&perms[b], &perms[a]);
            }
        }
        let inverse = perms
            .iter()
            .enumerate()
            .map(|(m, p)| {
                let undo = invert(p);
                match index.get(&undo) {
                    Some(&i) => vec![i as u16],
                    None => {
                        // m^(order - 1).
                        let mut power = p.clone();
                        let mut word = Vec::new();
                        while power != undo {
                            word.push(m as u16);
                            power = compose(&power, p);
                        }
                        word.push(m as u16);
                        word
                    }
                }
            })
            .collect();
        Self {
            moves,
            merged,
            commute,
            inverse,
        }
    }

    /// Appends move `m` to `word`, merged with the last move it meets past moves it
    /// commutes with (`U D U'` becomes `D`).
    fn push(&self, word: &mut Vec<u16>, m: u16) {
        let mut j = word.len();
        while j > 0 {
            let x = word[j - 1] as usize;
            match self.merged[x * self.moves + m as usize] {
                KEEP => {}
                CANCEL => {
                    word.remove(j - 1);
                    return;
                }
                y => {
                    word[j - 1] = y;
                    return;
                }
            }
            if !self.commute[x * self.moves + m as usize] {
                break;
            }
            j -= 1;
        }
        word.push(m);
    }

    /// `word` then `more`, merged.
    fn extend(&self, word: &mut Vec<u16>, more: &[u16]) {
        for &m in more {
            self.push(word, m);
        }
    }

    /// How long [`Words::inverse`] of `word` is at most.
    fn inverse_length(&self, word: &[u16]) -> usize {
        word.iter().map(|&m| self.inverse[m as usize].len()).sum()
    }

    /// The sequence undoing `word`.
    fn inverse(&self, word: &[u16]) -> Vec<u16> {
        let mut out = Vec::with_capacity(word.len());
        for &m in word.iter().rev() {
            for &i in &self.inverse[m as usize] {
                self.push(&mut out, i);
            }
        }
        out
    }
}

/// A coset representative: a move sequence and what it does to the sticker points,
/// taking its point to the level's base point and fixing every earlier base point.
#[derive(Clone)]
struct Entry {
    word: Vec<u16>,
    perm: Perm,
}

/// One level of the chain: a base point and a representative for each point of its
/// orbit (indexed by point; `None` outside the orbit, or not yet found).
struct Level {
    base: usize,
    entries: Vec<Option<Entry>>,
}

/// Random sequences tried to fill the chain are 1 to this many moves long.
const RANDOM_LENGTH: u64 = 12;
/// Commutators tried are of two sequences of 1 to this many moves.
const COMMUTATOR_LENGTH: u64 = 5;
/// Tries in a row without a new representative before the length limit grows.
const STALL: usize = 2_000;
/// The length kept never grows past this.
const MOST_LENGTH: usize = 1 << 15;
/// Sequences tried before giving up on filling the chain.
const MOST_TRIES: usize = 2_000_000;
/// Products of two representatives tried, per coset, to shorten them once all exist.
const IMPROVE_PER_COSET: usize = 200;
/// Work (points and moves handled, about half a nanosecond each here) filling the chain
/// in one order of the sets may take before it gives up: about a minute (the shipped
/// definitions' fills take 1.4 G at most).
const FILL_WORK: u64 = 100_000_000_000;
/// Work shortening the representatives may take before it stops: about 10 s (the
/// megaminx's took 5.3 G, the 5x5x5's about 12 G).
const IMPROVE_WORK: u64 = 20_000_000_000;
/// Random states the candidate orders of the sets are scored on.
const SCORED: usize = 20;
/// Megabytes the representatives' permutations may take.
const MOST_MB: u64 = 1024;
/// Orbits of identical pieces whose parities a state's solve tries (2^this at most).
const MOST_TOGGLES: usize = 10;

/// A solver for any definition: see the module's doc.
pub struct ChainSolver {
    puzzle: PermPuzzle,
    /// The order in which the base takes the sets.
    sets: Vec<usize>,
    levels: Vec<Level>,
    words: Words,
    /// Per set: the orbit of each slot under the moves (identical pieces are told apart
    /// within an orbit).
    slot_orbits: Vec<Vec<usize>>,
    /// Whether parities and orientation sums are all that tell a reachable arrangement
    /// of the pieces told apart (then a state's identical pieces can be told apart by
    /// trying each parity).
    invariants_tell: bool,
    /// What each sticker point shows in the solved state (set, piece label and
    /// orientation digit), where some pieces are identical and identical pieces are
    /// solved alike: a state's answer may then bring any of them.
    point_labels: Option<Vec<u32>>,
}

impl ChainSolver {
    /// The chain of `puzzle`'s moves with the sequences found for it before, kept in
    /// `store` (made and written there the first time; `source` names the definition in
    /// messages). A file that does not hold this chain's sequences is named, not used.
    pub fn open(
        puzzle: &PermPuzzle,
        store: &TableStore,
        source: &str,
        progress: &Progress,
    ) -> Result<Self, ChainError> {
        let spec = |bytes: u64| {
            phase_table_spec(
                format!("{}-chain-{:08x}", table_prefix(puzzle), method_tag()),
                source,
                "stabilizer chain sequences",
                vec![
                    ("definition".into(), puzzle.hash),
                    ("format".into(), FORMAT),
                ],
                bytes,
                8,
            )
        };
        let path = store.dir().join(spec(0).file_name());
        if path.is_file() {
            let (header, _) = crate::table::read_header(&path, spec(0).group)?;
            let table = store.open(&spec(header.entries))?;
            let damaged = |why: String| ChainError::Damaged {
                path: path.display().to_string(),
                why,
            };
            // Checked against the group's order from the chain random states come
            // from (made once), not a chain made again in the file's order.
            Self::takes(puzzle)?;
            let (order, invariants_tell) =
                group::told_apart_order(puzzle).ok_or(ChainError::GaveUp)?;
            let payload = table.payload();
            let sets = read_sets(puzzle, payload).map_err(damaged)?;
            let levels =
                read_levels(puzzle, &order, &payload[2 * (sets.len() + 1)..]).map_err(damaged)?;
            return Ok(Self::with_levels(puzzle, sets, levels, invariants_tell));
        }
        progress.note(format!(
            "making the stabilizer chain's sequences of {} in {} ...",
            puzzle.name,
            store.dir().display()
        ));
        let solver = Self::new(puzzle)?;
        let bytes = solver.to_bytes();
        store.check_writable()?;
        store.write(&spec(bytes.len() as u64), &bytes, Vec::new())?;
        Ok(solver)
    }

    /// How many levels the chain of `puzzle` has, and how many cosets (representatives
    /// to find): what `cubedb puzzle info` shows.
    pub fn size(puzzle: &PermPuzzle) -> Result<(usize, usize), ChainError> {
        let sets: Vec<usize> = (0..puzzle.sets.len()).collect();
        let (chain, _) = Self::chain_of(puzzle, &sets)?;
        let cosets = chain.iter().map(|(_, orbit)| orbit.len() - 1).sum();
        Ok((chain.len(), cosets))
    }

    /// Whether the chain can take the definition at all.
    fn takes(puzzle: &PermPuzzle) -> Result<(), ChainError> {
        if !puzzle.illegal.is_empty() {
            return Err(ChainError::Illegal);
        }
        if puzzle.solved.orbits.iter().any(|o| o.ori.contains(&WILD)) {
            return Err(ChainError::WildOrientation);
        }
        Ok(())
    }

    /// The chain whose base takes the sets in the order `sets` (each set's points in
    /// turn), after the checks that the chain can take the definition.
    fn chain_of(
        puzzle: &PermPuzzle,
        sets: &[usize],
    ) -> Result<(Vec<ChainLevel>, bool), ChainError> {
        Self::takes(puzzle)?;
        let (offsets, total) = group::point_offsets(puzzle);
        let order: Vec<usize> = sets
            .iter()
            .flat_map(|&s| {
                offsets[s]..offsets[s] + puzzle.sets[s].size * puzzle.sets[s].omod as usize
            })
            .collect();
        let (chain, invariants_tell) =
            group::chain_levels_in_order(puzzle, &order).ok_or(ChainError::GaveUp)?;
        // Each representative holds a permutation of every point: 2 bytes a point.
        let points: u64 = chain.iter().map(|(_, orbit)| orbit.len() as u64).sum();
        let needed_mb = (points * total as u64 * 2) >> 20;
        if needed_mb > MOST_MB {
            return Err(ChainError::TooBig { needed_mb });
        }
        Ok((chain, invariants_tell))
    }

    /// The solver over levels already filled.
    fn with_levels(
        puzzle: &PermPuzzle,
        sets: Vec<usize>,
        levels: Vec<Level>,
        invariants_tell: bool,
    ) -> Self {
        Self {
            puzzle: puzzle.clone(),
            sets,
            levels,
            words: Words::new(&move_perms(puzzle).0),
            slot_orbits: slot_orbits(puzzle),
            invariants_tell,
            point_labels: point_labels(puzzle),
        }
    }

    /// The chain as bytes: the sets' order (its length, then the sets), then per level
    /// its base, its representatives' count, and each one's point, length and moves
    /// (16-bit little-endian numbers).
    fn to_bytes(&self) -> Vec<u8> {
        let mut out: Vec<u16> = vec![self.sets.len() as u16];
        out.extend(self.sets.iter().map(|&s| s as u16));
        out.push(self.levels.len() as u16);
        for level in &self.levels {
            let entries: Vec<(usize, &Entry)> = level
                .entries
                .iter()
                .enumerate()
                .filter_map(|(p, e)| e.as_ref().map(|e| (p, e)))
                .filter(|&(p, _)| p != level.base)
                .collect();
            out.extend([level.base as u16, entries.len() as u16]);
            for (point, entry) in entries {
                out.extend([point as u16, entry.word.len() as u16]);
                out.extend(&entry.word);
            }
        }
        out.iter().flat_map(|n| n.to_le_bytes()).collect()
    }

    /// The chain of `puzzle`'s moves, its representatives found and shortened (a
    /// fixed seed: the same sequences every time). The order in which the base takes
    /// the sets decides how long the deepest representatives are (they may move only
    /// the last set's pieces): each set is tried last, the chain filled, and the order
    /// whose answers to [`SCORED`] random states are shortest is kept and shortened.
    pub fn new(puzzle: &PermPuzzle) -> Result<Self, ChainError> {
        let (perms, degree) = move_perms(puzzle);
        let words = Words::new(&perms);
        let mut best: Option<(usize, Self)> = None;
        let mut failed = None;
        for sets in set_orders(puzzle) {
            let (chain, invariants_tell) = Self::chain_of(puzzle, &sets)?;
            let mut rng = SplitMix64::new(SEED);
            let levels = match fill(&words, &perms, degree, &chain, &mut rng) {
                Ok(levels) => levels,
                Err(e) => {
                    failed = Some(e);
                    continue;
                }
            };
            let solver = Self::with_levels(puzzle, sets, levels, invariants_tell);
            let mut draws = SplitMix64::new(SEED);
            let mut score = 0;
            for _ in 0..SCORED {
                let element = group::random_move(puzzle, &mut draws).ok_or(ChainError::GaveUp)?;
                let answer = solver
                    .answer(group::sticker_perm(puzzle, &element))
                    .ok_or(ChainError::GaveUp)?;
                score += answer.len();
            }
            if best.as_ref().is_none_or(|(least, _)| score < *least) {
                best = Some((score, solver));
            }
        }
        let Some((_, mut solver)) = best else {
            return Err(failed.unwrap_or(ChainError::GaveUp));
        };
        improve(&words, &perms, degree, &mut solver.levels);
        Ok(solver)
    }

    /// A sequence solving `state` (indices into the puzzle's moves).
    pub fn solve(&self, state: &Element) -> Result<Vec<usize>, ChainUnsolved> {
        let assigned = self.told_apart(state)?;
        // Identical pieces taken as they come (any told-apart arrangement will do), and
        // the arrangement in the group sifted as it is: the shorter answer.
        let by_labels = self
            .point_labels
            .as_ref()
            .and_then(|labels| {
                self.sift_by_labels(labels, group::sticker_perm(&self.puzzle, &assigned))
            })
            .filter(|word| self.solves(state, word));
        let told = self.sift_told_apart(state, &assigned);
        let best = match (told, by_labels) {
            (Ok(word), Some(other)) if other.len() < word.len() => other,
            (Ok(word), _) => word,
            (Err(_), Some(other)) => other,
            (Err(e), None) => return Err(e),
        };
        Ok(best.into_iter().map(usize::from).collect())
    }

    /// Whether `word` takes `state` to solved.
    fn solves(&self, state: &Element, word: &[u16]) -> bool {
        let puzzle = &self.puzzle;
        let end = word.iter().fold(state.clone(), |s, &m| {
            s.then(&puzzle.moves[m as usize].element, &puzzle.sets)
        });
        puzzle.is_solved(&end)
    }

    /// [`ChainSolver::sift`] of `state` told apart as `assigned` is, or with the parity
    /// of some orbits' identical pieces changed (two of them swapped), the first of those
    /// arrangements that is in the group.
    fn sift_told_apart(
        &self,
        state: &Element,
        assigned: &Element,
    ) -> Result<Vec<u16>, ChainUnsolved> {
        let puzzle = &self.puzzle;
        let toggles = toggles(puzzle, assigned, &self.slot_orbits);
        for mask in 0u32..1 << toggles.len().min(MOST_TOGGLES) {
            let mut element = assigned.clone();
            for (k, &(set, a, b)) in toggles.iter().enumerate() {
                if mask >> k & 1 == 1 {
                    let omod = puzzle.sets[set].omod;
                    let (here, home) = (&state.orbits[set], &puzzle.solved.orbits[set]);
                    let orbit = &mut element.orbits[set];
                    orbit.perm.swap(a, b);
                    for i in [a, b] {
                        let h = orbit.perm[i] as usize;
                        orbit.ori[i] = (here.ori[i] % omod + omod - home.ori[h] % omod) % omod;
                    }
                }
            }
            let g = group::sticker_perm(puzzle, &element);
            if let Some(word) = self.sift(g).filter(|word| self.solves(state, word)) {
                return Ok(word);
            }
        }
        if !toggles.is_empty() && !self.invariants_tell {
            Err(ChainUnsolved::Untold)
        } else {
            Err(ChainUnsolved::Unreachable)
        }
    }

    /// A uniformly random state (the same for the same seed and index as every other
    /// random state of cubedb: `SplitMix64::stream(seed, index)`) and a sequence that
    /// reaches it from solved; `None` when Schreier–Sims gives up.
    pub fn random_scramble(&self, seed: u64, index: u64) -> Option<(Element, Vec<usize>)> {
        let puzzle = &self.puzzle;
        let mut rng = SplitMix64::stream(seed, index);
        let element = group::random_move(puzzle, &mut rng)?;
        let state = puzzle.solved.then(&element, &puzzle.sets);
        let solution = self.answer(group::sticker_perm(puzzle, &element))?;
        let scramble = self.words.inverse(&solution);
        Some((state, scramble.into_iter().map(usize::from).collect()))
    }

    /// The answer to the group element `g` (pieces told apart): [`ChainSolver::sift`],
    /// or [`ChainSolver::sift_by_labels`] where that is shorter; `None` when `g` is not
    /// in the group.
    fn answer(&self, g: Perm) -> Option<Vec<u16>> {
        let by_labels = self
            .point_labels
            .as_ref()
            .and_then(|labels| self.sift_by_labels(labels, g.clone()));
        match (self.sift(g)?, by_labels) {
            (told, Some(other)) if other.len() < told.len() => Some(other),
            (told, _) => Some(told),
        }
    }

    /// [`ChainSolver::random_scramble`] written in the puzzle's move names and checked
    /// to reach its state (`None`: it does not, which must not happen).
    pub fn random_scramble_text(&self, seed: u64, index: u64) -> Option<String> {
        let (state, moves) = self.random_scramble(seed, index)?;
        let text = self.puzzle.format_path(&moves);
        (self.puzzle.scrambled(&text).ok()? == state).then_some(text)
    }

    /// The representatives of `g`'s cosets, level after level, merged; `None` when `g`
    /// is not in the group.
    fn sift(&self, mut g: Perm) -> Option<Vec<u16>> {
        let mut word = Vec::new();
        for level in &self.levels {
            let at = g[level.base] as usize;
            if at == level.base {
                continue;
            }
            let entry = level.entries[at].as_ref()?;
            self.words.extend(&mut word, &entry.word);
            follow_in_place(&mut g, &entry.perm);
        }
        is_identity(&g).then_some(word)
    }

    /// [`ChainSolver::sift`] where identical pieces are one: at each level, of the
    /// points holding a sticker of the base point's label, the one with the shortest
    /// representative (none when the base point holds one already). `None` when some
    /// level has no such point in its orbit, or the end is not solved (the arrangement of
    /// identical pieces met is one no sequence of the deeper levels reaches).
    fn sift_by_labels(&self, labels: &[u32], mut g: Perm) -> Option<Vec<u16>> {
        let mut word = Vec::new();
        let mut back = invert(&g);
        for level in &self.levels {
            let want = labels[level.base];
            if labels[back[level.base] as usize] == want {
                continue;
            }
            let entry = level
                .entries
                .iter()
                .enumerate()
                .filter_map(|(q, e)| e.as_ref().filter(|_| labels[back[q] as usize] == want))
                .min_by_key(|e| e.word.len())?;
            self.words.extend(&mut word, &entry.word);
            follow_in_place(&mut g, &entry.perm);
            back = invert(&g);
        }
        back.iter()
            .enumerate()
            .all(|(p, &x)| labels[x as usize] == labels[p])
            .then_some(word)
    }

    /// `state` as a move from solved with every piece told apart: each slot's piece
    /// from the first home slot of its label in the slot's orbit not taken yet.
    fn told_apart(&self, state: &Element) -> Result<Element, ChainUnsolved> {
        let puzzle = &self.puzzle;
        let mut orbits = Vec::with_capacity(state.orbits.len());
        for (s, (here, home)) in state.orbits.iter().zip(&puzzle.solved.orbits).enumerate() {
            let omod = puzzle.sets[s].omod;
            let slots = &self.slot_orbits[s];
            let mut taken = vec![false; home.perm.len()];
            let mut perm = Vec::with_capacity(here.perm.len());
            let mut ori = Vec::with_capacity(here.perm.len());
            for (i, (&label, &o)) in here.perm.iter().zip(&here.ori).enumerate() {
                let h = (0..home.perm.len())
                    .find(|&h| !taken[h] && home.perm[h] == label && slots[h] == slots[i])
                    .ok_or(ChainUnsolved::Unreachable)?;
                if o == WILD {
                    return Err(ChainUnsolved::Unreachable);
                }
                taken[h] = true;
                perm.push(h as u8);
                ori.push((o % omod + omod - home.ori[h] % omod) % omod);
            }
            orbits.push(Orbit { perm, ori });
        }
        Ok(Element { orbits })
    }
}

/// The file format's version (a table parameter: another version is another file).
const FORMAT: u64 = 2;
/// The seed of the sequences tried.
const SEED: u64 = 0xC4A1_5EED;

/// A tag of everything the sequences found depend on besides the definition (in the
/// file's name: sequences made another way are another file).
fn method_tag() -> u32 {
    let method = format!(
        "{FORMAT} {SEED} {RANDOM_LENGTH} {COMMUTATOR_LENGTH} {STALL} {MOST_LENGTH} {MOST_TRIES} \
         {IMPROVE_PER_COSET} {FILL_WORK} {IMPROVE_WORK}"
    );
    xxhash_rust::xxh3::xxh3_64(method.as_bytes()) as u32
}

/// The order of the sets [`ChainSolver::to_bytes`] wrote first: each set once.
fn read_sets(puzzle: &PermPuzzle, bytes: &[u8]) -> Result<Vec<usize>, String> {
    let number = |i: usize| {
        bytes
            .get(2 * i..2 * i + 2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as usize)
            .ok_or("it ends too soon")
    };
    let n = puzzle.sets.len();
    if number(0)? != n {
        return Err(format!("not an order of {n} sets"));
    }
    let sets = (1..=n).map(number).collect::<Result<Vec<_>, _>>()?;
    let mut sorted = sets.clone();
    sorted.sort_unstable();
    if sorted != (0..n).collect::<Vec<_>>() {
        return Err(format!("not an order of {n} sets"));
    }
    Ok(sets)
}

/// The levels [`ChainSolver::to_bytes`] wrote, each representative's permutation made
/// from its moves and checked: it takes its point to the level's base and fixes every
/// earlier base. Each level's points then lie in its base's orbit under the stabilizer
/// of the earlier bases, so the product of their counts is at most the group's `order`,
/// and equal to it exactly when every level holds its whole orbit and the bases leave
/// nothing unfixed: the chain is complete.
fn read_levels(puzzle: &PermPuzzle, order: &Count, bytes: &[u8]) -> Result<Vec<Level>, String> {
    let numbers: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    if !bytes.len().is_multiple_of(2) {
        return Err("an odd number of bytes".into());
    }
    let (perms, degree) = move_perms(puzzle);
    let mut at = 0usize;
    let mut next = || -> Result<usize, String> {
        let n = *numbers.get(at).ok_or("it ends too soon")?;
        at += 1;
        Ok(n as usize)
    };
    let count = next()?;
    let mut levels: Vec<Level> = Vec::with_capacity(count.min(degree));
    let mut product = Count::from_u64(1);
    for i in 0..count {
        let (base, others) = (next()?, next()?);
        if base >= degree || others >= degree || levels.iter().any(|l| l.base == base) {
            return Err(format!("level {} is not a level of a chain", i + 1));
        }
        let mut entries = vec![None; degree];
        entries[base] = Some(Entry {
            word: Vec::new(),
            perm: (0..degree as u16).collect(),
        });
        for _ in 0..others {
            let point = next()?;
            let length = next()?;
            let mut word = Vec::with_capacity(length);
            let mut perm: Perm = (0..degree as u16).collect();
            for _ in 0..length {
                let m = next()?;
                let p = perms.get(m).ok_or("a move the definition lacks")?;
                follow_in_place(&mut perm, p);
                word.push(m as u16);
            }
            let fits = point < degree
                && entries[point].is_none()
                && perm[point] as usize == base
                && levels.iter().all(|l| perm[l.base] as usize == l.base);
            if !fits {
                return Err(format!(
                    "a sequence of level {} does not do what it says",
                    i + 1
                ));
            }
            entries[point] = Some(Entry { word, perm });
        }
        product = product.times(others as u64 + 1);
        levels.push(Level { base, entries });
    }
    if at != numbers.len() {
        return Err("bytes past its end".into());
    }
    if product != *order {
        return Err(format!(
            "its levels make a group of {product} elements, not the {order} the moves make"
        ));
    }
    Ok(levels)
}

/// Levels over `chain` with a representative for every coset: random sequences, each
/// and its inverse sifted, until every coset has one; the length kept grows when
/// nothing new turns up.
fn fill(
    words: &Words,
    perms: &[Perm],
    degree: usize,
    chain: &[ChainLevel],
    rng: &mut SplitMix64,
) -> Result<Vec<Level>, ChainError> {
    let mut levels: Vec<Level> = chain
        .iter()
        .map(|(base, _)| {
            let mut entries = vec![None; degree];
            entries[*base] = Some(Entry {
                word: Vec::new(),
                perm: (0..degree as u16).collect(),
            });
            Level {
                base: *base,
                entries,
            }
        })
        .collect();
    let cosets: usize = chain.iter().map(|(_, orbit)| orbit.len() - 1).sum();
    let mut filler = Filler {
        words,
        levels: &mut levels,
        found: 0,
        work: 0,
    };
    let mut limit = 2 * RANDOM_LENGTH as usize;
    let (mut tried, mut since) = (0usize, 0usize);
    while filler.found < cosets {
        if tried == MOST_TRIES || filler.work > FILL_WORK || perms.is_empty() {
            return Err(ChainError::Unfilled {
                missing: cosets - filler.found,
                tried,
            });
        }
        let (word, perm) = random_word(words, perms, degree, rng);
        let before = filler.found;
        filler.absorb_both(word, perm, limit);
        tried += 1;
        since = if filler.found > before { 0 } else { since + 1 };
        if since == STALL {
            limit = (limit + limit / 4 + 1).min(MOST_LENGTH);
            since = 0;
        }
    }
    Ok(levels)
}

/// Shortens the representatives of filled `levels`: products of two of them, their
/// commutators (in the group of both levels and moving few points, so they go deep
/// before they grow) and random sequences, each sifted: a shorter one replaces a longer,
/// and its leftover goes on down the chain.
fn improve(words: &Words, perms: &[Perm], degree: usize, levels: &mut [Level]) {
    let entries: Vec<(usize, usize)> = levels
        .iter()
        .enumerate()
        .flat_map(|(i, l)| {
            l.entries
                .iter()
                .enumerate()
                .filter(|(p, e)| e.is_some() && *p != l.base)
                .map(move |(p, _)| (i, p))
        })
        .collect();
    if entries.is_empty() {
        return;
    }
    let mut rng = SplitMix64::new(SEED ^ 1);
    let mut filler = Filler {
        words,
        levels,
        found: entries.len(),
        work: 0,
    };
    for round in 0..IMPROVE_PER_COSET * entries.len() {
        if filler.work > IMPROVE_WORK {
            break;
        }
        if round % 2 == 0 {
            let (word, perm) = random_word(words, perms, degree, &mut rng);
            filler.absorb_both(word, perm, MOST_LENGTH);
            continue;
        }
        let (i, p) = entries[rng.below(entries.len() as u64) as usize];
        let (j, q) = entries[rng.below(entries.len() as u64) as usize];
        let (Some(a), Some(b)) = (
            filler.levels[i].entries[p].as_ref(),
            filler.levels[j].entries[q].as_ref(),
        ) else {
            continue;
        };
        let mut word = a.word.clone();
        words.extend(&mut word, &b.word);
        let mut perm = compose(&a.perm, &b.perm);
        let limit = if round % 4 == 3 {
            words.extend(&mut word, &words.inverse(&a.word));
            words.extend(&mut word, &words.inverse(&b.word));
            perm = compose(&perm, &compose(&invert(&a.perm), &invert(&b.perm)));
            MOST_LENGTH
        } else {
            a.word.len().max(b.word.len())
        };
        filler.absorb_both(word, perm, limit);
    }
}

/// The orders of the sets the base is tried with: each set last, the others in the
/// definition's order (the definition's own order first).
fn set_orders(puzzle: &PermPuzzle) -> Vec<Vec<usize>> {
    let n = puzzle.sets.len();
    (0..n)
        .rev()
        .map(|last| (0..n).filter(|&s| s != last).chain([last]).collect())
        .collect()
}

/// Sifts sequences into the chain's levels.
struct Filler<'a> {
    words: &'a Words,
    levels: &'a mut [Level],
    found: usize,
    /// Points and moves handled so far: what bounds the time a definition takes.
    work: u64,
}

impl Filler<'_> {
    /// Sifts `word` (doing `perm`) and its inverse.
    fn absorb_both(&mut self, word: Vec<u16>, perm: Perm, limit: usize) {
        let back = self.words.inverse(&word);
        let undo = invert(&perm);
        self.absorb(word, perm, limit);
        self.absorb(back, undo, limit);
    }

    /// Minkwitz's step: at each level, the sequence's inverse becomes the representative
    /// of the point the base goes to when there is none or it is shorter; the sequence
    /// then goes on down the chain times the representative it met (the one it replaced),
    /// while at most `limit` moves long.
    fn absorb(&mut self, mut word: Vec<u16>, mut perm: Perm, limit: usize) {
        for level in self.levels.iter_mut() {
            if word.is_empty() || word.len() > limit {
                return;
            }
            self.work += (perm.len() + word.len()) as u64;
            let at = perm[level.base] as usize;
            if at == level.base {
                continue;
            }
            let met = match &mut level.entries[at] {
                None => {
                    level.entries[at] = Some(Entry {
                        word: self.words.inverse(&word),
                        perm: invert(&perm),
                    });
                    self.found += 1;
                    return;
                }
                Some(entry) if self.words.inverse_length(&word) < entry.word.len() => {
                    std::mem::replace(
                        entry,
                        Entry {
                            word: self.words.inverse(&word),
                            perm: invert(&perm),
                        },
                    )
                }
                Some(entry) => entry.clone(),
            };
            self.words.extend(&mut word, &met.word);
            follow_in_place(&mut perm, &met.perm);
        }
    }
}

/// Each move's permutation of the sticker points, and how many points there are.
fn move_perms(puzzle: &PermPuzzle) -> (Vec<Perm>, usize) {
    let perms = puzzle
        .moves
        .iter()
        .map(|m| group::sticker_perm(puzzle, &m.element))
        .collect();
    (perms, group::point_offsets(puzzle).1)
}

/// A random sequence and what it does: one of 1 to [`RANDOM_LENGTH`] moves, or (one
/// time in two) a commutator `a b a' b'` of two of 1 to [`COMMUTATOR_LENGTH`], which
/// moves few pieces, so it reaches the deep levels of the chain short, sometimes
/// conjugated by a third.
fn random_word(
    words: &Words,
    perms: &[Perm],
    degree: usize,
    rng: &mut SplitMix64,
) -> (Vec<u16>, Perm) {
    let plain = |length: u64, rng: &mut SplitMix64| {
        let mut word = Vec::new();
        for _ in 0..length {
            words.push(&mut word, rng.below(perms.len() as u64) as u16);
        }
        word
    };
    let word = match rng.below(4) {
        0 | 1 => plain(1 + rng.below(RANDOM_LENGTH), rng),
        kind => {
            let a = plain(1 + rng.below(COMMUTATOR_LENGTH), rng);
            let b = plain(1 + rng.below(COMMUTATOR_LENGTH), rng);
            let mut word = a.clone();
            words.extend(&mut word, &b);
            words.extend(&mut word, &words.inverse(&a));
            words.extend(&mut word, &words.inverse(&b));
            if kind == 3 {
                let c = plain(1 + rng.below(COMMUTATOR_LENGTH), rng);
                let mut outer = c.clone();
                words.extend(&mut outer, &word);
                words.extend(&mut outer, &words.inverse(&c));
                outer
            } else {
                word
            }
        }
    };
    let mut perm: Perm = (0..degree as u16).collect();
    for &m in &word {
        follow_in_place(&mut perm, &perms[m as usize]);
    }
    (word, perm)
}

/// See [`ChainSolver::point_labels`]: `None` without identical pieces, or when two
/// identical pieces are solved in different orientations.
fn point_labels(puzzle: &PermPuzzle) -> Option<Vec<u32>> {
    if !group::has_identical_pieces(puzzle) {
        return None;
    }
    let mut labels = Vec::new();
    for (s, (def, home)) in puzzle.sets.iter().zip(&puzzle.solved.orbits).enumerate() {
        for (slot, &label) in home.perm.iter().enumerate() {
            let twin_twisted = home
                .perm
                .iter()
                .zip(&home.ori)
                .any(|(&l, &o)| l == label && o != home.ori[slot]);
            if twin_twisted {
                return None;
            }
            for o in 0..def.omod as u32 {
                labels.push((s as u32) << 24 | (label as u32) << 8 | o);
            }
        }
    }
    Some(labels)
}

/// Per set, each slot's orbit under the moves (the smallest slot in it).
fn slot_orbits(puzzle: &PermPuzzle) -> Vec<Vec<usize>> {
    puzzle
        .sets
        .iter()
        .enumerate()
        .map(|(s, def)| {
            let mut root: Vec<usize> = (0..def.size).collect();
            fn find(root: &mut [usize], mut x: usize) -> usize {
                while root[x] != x {
                    root[x] = root[root[x]];
                    x = root[x];
                }
                x
            }
            for m in &puzzle.moves {
                for (i, &from) in m.element.orbits[s].perm.iter().enumerate() {
                    let (a, b) = (find(&mut root, i), find(&mut root, from as usize));
                    root[a.max(b)] = a.min(b);
                }
            }
            (0..def.size).map(|i| find(&mut root, i)).collect()
        })
        .collect()
}

/// The swaps that change one orbit's parity without changing the state: per set and
/// orbit, two slots of `assigned` whose pieces are identical in the solved state.
fn toggles(
    puzzle: &PermPuzzle,
    assigned: &Element,
    slot_orbits: &[Vec<usize>],
) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    for (s, orbit) in assigned.orbits.iter().enumerate() {
        let home = &puzzle.solved.orbits[s].perm;
        let slots = &slot_orbits[s];
        let mut seen: Vec<usize> = Vec::new();
        'slots: for a in 0..orbit.perm.len() {
            if seen.contains(&slots[a]) {
                continue;
            }
            for b in a + 1..orbit.perm.len() {
                if slots[b] == slots[a]
                    && home[orbit.perm[a] as usize] == home[orbit.perm[b] as usize]
                {
                    out.push((s, a, b));
                    seen.push(slots[a]);
                    continue 'slots;
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::puzzle::PuzzleMetric;
    use crate::puzzles::perm::solver::load_puzzle;

    fn puzzle(name: &str) -> PermPuzzle {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("puzzles")
            .join(format!("{name}.tws"));
        load_puzzle(&path, PuzzleMetric::Htm, None).unwrap()
    }

    /// The chain of a definition, made once for all the tests (the 5x5x5's takes
    /// seconds).
    fn chain(name: &str) -> std::sync::Arc<ChainSolver> {
        use std::collections::HashMap;
        use std::sync::{Arc, LazyLock, Mutex};
        static MADE: LazyLock<Mutex<HashMap<String, Arc<ChainSolver>>>> =
            LazyLock::new(Default::default);
        let mut made = MADE.lock().unwrap();
        made.entry(name.to_string())
            .or_insert_with(|| Arc::new(ChainSolver::new(&puzzle(name)).unwrap()))
            .clone()
    }

    /// What `word` does to the sticker points.
    fn perm_of(p: &PermPuzzle, word: &[u16]) -> Perm {
        let (perms, degree) = move_perms(p);
        let mut perm: Perm = (0..degree as u16).collect();
        for &m in word {
            follow_in_place(&mut perm, &perms[m as usize]);
        }
        perm
    }

    #[test]
    fn each_representative_is_a_sequence_taking_its_point_to_the_base_and_fixing_the_earlier_ones()
    {
        for name in ["3x3x3", "topspin", "fto"] {
            let p = puzzle(name);
            let chain = chain(name);
            let mut earlier = Vec::new();
            for level in &chain.levels {
                let mut count = 0;
                for (point, entry) in level.entries.iter().enumerate() {
                    let Some(entry) = entry else { continue };
                    count += 1;
                    assert_eq!(perm_of(&p, &entry.word), entry.perm, "{name}");
                    assert_eq!(entry.perm[point] as usize, level.base, "{name}");
                    for &b in &earlier {
                        assert_eq!(entry.perm[b], b as u16, "{name}");
                    }
                }
                assert!(count >= 2, "{name}: a level with nothing to move");
                earlier.push(level.base);
            }
        }
    }

    #[test]
    fn random_states_of_definitions_too_big_for_a_table_are_solved() {
        // Each answer applied to its state ends solved; identical pieces (the 5x5x5's
        // and the FTO's centres) taken as they come.
        for (name, most) in [
            ("3x3x3", 200),
            ("topspin", 300),
            ("5x5x5", 1500),
            ("fto", 500),
        ] {
            let p = puzzle(name);
            let chain = chain(name);
            let mut rng = SplitMix64::new(7);
            for _ in 0..20 {
                let state = group::random_state(&p, &mut rng).unwrap();
                let answer = chain.solve(&state).unwrap();
                assert!(answer.len() <= most, "{name}: {} moves", answer.len());
                let end = answer
                    .iter()
                    .fold(state.clone(), |s, &m| s.then(&p.moves[m].element, &p.sets));
                assert!(p.is_solved(&end), "{name}");
            }
        }
    }

    #[test]
    fn scrambles_reach_their_state_and_repeat_for_a_seed() {
        let p = puzzle("fto");
        let (a, b) = (chain("fto"), ChainSolver::new(&p).unwrap());
        for index in 0..5 {
            let (state, moves) = a.random_scramble(3, index).unwrap();
            let reached = p.scrambled(&p.format_path(&moves)).unwrap();
            assert_eq!(reached, state);
            assert_eq!(
                a.random_scramble_text(3, index),
                b.random_scramble_text(3, index)
            );
        }
        assert_ne!(a.random_scramble_text(3, 0), a.random_scramble_text(3, 1));
    }

    #[test]
    fn identical_pieces_are_told_apart_in_an_arrangement_the_moves_reach() {
        // Two wings of the 5x5x5 swapped: an odd permutation of the wings, reachable only
        // with an odd one of the centres, which look the same: the solve must find that
        // arrangement of the identical centres (or take them as they come).
        let p = puzzle("5x5x5");
        let chain = chain("5x5x5");
        let wing = p.sets.iter().position(|s| s.name == "WING").unwrap();
        let mut state = p.solved.clone();
        state.orbits[wing].perm.swap(0, 5);
        let assigned = chain.told_apart(&state).unwrap();
        assert!(chain.sift(group::sticker_perm(&p, &assigned)).is_none());
        let told = chain.sift_told_apart(&state, &assigned).unwrap();
        assert!(chain.solves(&state, &told));
        let answer = chain.solve(&state).unwrap();
        let end = answer
            .iter()
            .fold(state, |s, &m| s.then(&p.moves[m].element, &p.sets));
        assert!(p.is_solved(&end));
        // A midge flipped alone is reached by no sequence.
        let midge = p.sets.iter().position(|s| s.name == "MIDGE").unwrap();
        let mut flipped = p.solved.clone();
        flipped.orbits[midge].ori[0] = 1;
        assert_eq!(chain.solve(&flipped), Err(ChainUnsolved::Unreachable));
        // Nor a corner twisted alone on the 3x3x3, all of whose pieces differ.
        let cube = puzzle("3x3x3");
        let corner = cube.sets.iter().position(|s| s.name == "CORNERS").unwrap();
        let mut twisted = cube.solved.clone();
        twisted.orbits[corner].ori[0] = 1;
        let chain = self::chain("3x3x3");
        assert_eq!(chain.solve(&twisted), Err(ChainUnsolved::Unreachable));
    }

    #[test]
    fn definitions_with_illegal_states_are_refused() {
        assert!(matches!(
            ChainSolver::new(&puzzle("square-1")),
            Err(ChainError::Illegal)
        ));
    }

    #[test]
    fn the_sequences_are_kept_and_read_back_and_a_damaged_file_is_named() {
        let dir = std::env::temp_dir().join(format!("cubedb-chain-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = TableStore::new(dir.clone());
        let p = puzzle("fto");
        let made = ChainSolver::open(&p, &store, "fto", &Progress::hidden()).unwrap();
        let read = ChainSolver::open(&p, &store, "fto", &Progress::hidden()).unwrap();
        assert_eq!(made.to_bytes(), read.to_bytes());
        for index in 0..3 {
            assert_eq!(
                made.random_scramble_text(1, index),
                read.random_scramble_text(1, index)
            );
        }
        // A sequence changed under a valid checksum: its level is named.
        let file = std::fs::read_dir(&dir)
            .unwrap()
            .flatten()
            .map(|e| e.path())
            .find(|f| f.to_string_lossy().contains("-chain-"))
            .unwrap();
        let mut bytes = read.to_bytes();
        let last = bytes.len() - 2;
        bytes[last] ^= 1;
        let spec_entries = bytes.len() as u64;
        let (header, _) = crate::table::read_header(&file, "puzzle fto").unwrap();
        assert_eq!(header.entries, spec_entries);
        std::fs::remove_file(&file).unwrap();
        let spec = phase_table_spec(
            file.file_stem().unwrap().to_string_lossy().into_owned(),
            "fto",
            "stabilizer chain sequences",
            vec![("definition".into(), p.hash), ("format".into(), FORMAT)],
            spec_entries,
            8,
        );
        store.write(&spec, &bytes, Vec::new()).unwrap();
        let err = ChainSolver::open(&p, &store, "fto", &Progress::hidden())
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("-chain-") && err.contains("does not do what it says"),
            "{err}"
        );
        // A representative left out (every other one right): the levels no longer make
        // the group, which is named.
        let mut short = ChainSolver::new(&p).unwrap();
        let last = short.levels.last_mut().unwrap();
        let base = last.base;
        let dropped = last
            .entries
            .iter()
            .position(|e| e.is_some())
            .filter(|&q| q != base);
        let dropped =
            dropped.unwrap_or_else(|| last.entries.iter().rposition(|e| e.is_some()).unwrap());
        last.entries[dropped] = None;
        std::fs::remove_file(&file).unwrap();
        let bytes = short.to_bytes();
        let spec = phase_table_spec(
            file.file_stem().unwrap().to_string_lossy().into_owned(),
            "fto",
            "stabilizer chain sequences",
            vec![("definition".into(), p.hash), ("format".into(), FORMAT)],
            bytes.len() as u64,
            8,
        );
        store.write(&spec, &bytes, Vec::new()).unwrap();
        let err = ChainSolver::open(&p, &store, "fto", &Progress::hidden())
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains("not the"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
