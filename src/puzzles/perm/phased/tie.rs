//! Ties: a set of identical pieces whose arrangement, over every state a phase's moves
//! reach from its target, is told by another set's.
//!
//! The FTO's four faces of one colour class (`UFL UBR DFR DBL`) never bring a centre of
//! the other class's faces away from the corner it sits against: each of those twelve
//! centres turns with its corner. Over the states these moves reach from solved, the
//! second centre set's arrangement is then a function of the corners', and the phase's
//! coordinates need not count it: its 369,600 arrangements times the corners' and the
//! edges' (a projection far past an exact table) become the corners' and edges' alone, an
//! exact table of under two million entries.
//!
//! A tie is found by a breadth-first search over the pairs (arrangement of the telling
//! set, arrangement of the told one) the moves reach from the target; it holds when no
//! arrangement of the first meets two of the second. The phase's tables then see the told
//! set as one kind (nothing to count), and a start is taken only where the told set holds
//! what its tie says: such a start and a state the moves reach from the target agree on
//! every set the tables count (the exact table says so) and so on the told one too, so
//! that a path the tables find to the target also solves the told set. A start where the
//! tie does not hold is not reachable, and is refused as the tables refuse any other.

use crate::progress::Progress;
use crate::puzzles::perm::element::{twisted, Element, SetDef, WILD};
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::search::bfs::{mod3_bfs_bytes, mod3_bfs_observed, DepthNibbles, RankedSpace};
use crate::table::packed;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by numbers (packed arrangements, sets of places), hashed by
/// [`PackedHasher`].
pub(super) type NumberMap<K, V> = HashMap<K, V, BuildHasherDefault<PackedHasher>>;

/// A set of numbers (states, coordinate values), hashed by [`PackedHasher`].
pub(super) type NumberSet<K> = std::collections::HashSet<K, BuildHasherDefault<PackedHasher>>;

/// A map keyed by packed arrangements.
pub(super) type PackedMap<V> = NumberMap<u128, V>;

/// A hasher for packed arrangements (numbers, not text from outside): a multiply and a
/// fold per word, several times faster than the default one on the FTO's 544,320 edge
/// arrangements.
#[derive(Default)]
pub(super) struct PackedHasher(u64);

impl Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0 ^ self.0 >> 29
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }

    fn write_u64(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(23) ^ word).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }

    fn write_u128(&mut self, word: u128) {
        self.write_u64(word as u64);
        self.write_u64((word >> 64) as u64);
    }
}

/// Numbers, breadth first, every key `step` (one per move, `moves` of them) reaches from
/// `starts` (numbered first, in order); with each key's number, the number after each
/// move (`number * moves + m`). `None` past `most` keys.
pub(super) fn numbered<K: Copy + Eq + std::hash::Hash>(
    starts: impl IntoIterator<Item = K>,
    moves: usize,
    step: impl Fn(K, usize) -> K,
    most: usize,
) -> Option<(NumberMap<K, u32>, Vec<u32>)> {
    let mut numbers: NumberMap<K, u32> = NumberMap::default();
    let mut order: Vec<K> = Vec::new();
    for key in starts {
        if let std::collections::hash_map::Entry::Vacant(e) = numbers.entry(key) {
            e.insert(order.len() as u32);
            order.push(key);
        }
    }
    let mut steps = Vec::new();
    let mut i = 0;
    while i < order.len() {
        for m in 0..moves {
            let next = step(order[i], m);
            let number = match numbers.get(&next) {
                Some(&n) => n,
                None => {
                    if order.len() >= most {
                        return None;
                    }
                    let n = order.len() as u32;
                    numbers.insert(next, n);
                    order.push(next);
                    n
                }
            };
            steps.push(number);
        }
        i += 1;
    }
    Some((numbers, steps))
}

/// The slots of `labels` holding `label`, a bit each.
fn places_of(labels: &[u8], label: u8) -> u64 {
    labels
        .iter()
        .enumerate()
        .filter(|&(_, &l)| l == label)
        .fold(0u64, |mask, (slot, _)| mask | 1 << slot)
}

/// The slots of each of `group`'s labels, `labels.len()` bits a label.
fn group_places(labels: &[u8], group: &[u8]) -> u64 {
    group.iter().enumerate().fold(0u64, |mask, (g, &l)| {
        mask | places_of(labels, l) << (g * labels.len())
    })
}

/// The distinct labels of set `s` in `state`, in order.
fn labels_of(state: &Element, s: usize) -> Vec<u8> {
    let mut labels = state.orbits[s].perm.clone();
    labels.sort_unstable();
    labels.dedup();
    labels
}

/// Most pieces a telling set may have (its arrangements are searched whole).
const MOST_TELLING_PIECES: usize = 8;

/// Most pairs of arrangements a search for one tie visits before it gives up.
const MOST_PAIRS: usize = 1 << 19;

/// One set told by another over the states a phase's moves reach from its target.
#[derive(Debug)]
pub struct Tie {
    /// The set told (counted as one kind by the phase's tables).
    pub set: usize,
    /// The set that tells it.
    pub by: usize,
    /// Per arrangement of `by` (packed, see [`pack`]): the arrangement of `set` (labels,
    /// then orientations).
    map: PackedMap<Vec<u8>>,
    /// The label every piece of `set` gets in the tables' pattern.
    merged: u8,
    /// The telling set's definition (how its arrangements pack).
    by_def: SetDef,
}

impl Tie {
    /// The ties of `pattern` (its moves from its solved state): see [`Tie::find_in`].
    pub fn find(pattern: &PermPuzzle) -> Vec<Tie> {
        let moves: Vec<&Element> = pattern.moves.iter().map(|m| &m.element).collect();
        Self::find_in(&pattern.sets, &pattern.solved, &moves)
    }

    /// The ties over the states `moves` reach from `solved`: per set of identical pieces
    /// that some move changes, the first set of distinct pieces (at most
    /// [`MOST_TELLING_PIECES`]) that tells it, if any.
    pub fn find_in(sets: &[SetDef], solved: &Element, moves: &[&Element]) -> Vec<Tie> {
        let moved = |s: usize| {
            moves.iter().any(|m| {
                let o = &m.orbits[s];
                o.perm.iter().enumerate().any(|(i, &p)| p as usize != i)
                    || o.ori.iter().any(|&t| t != 0)
            })
        };
        let distinct = |s: usize| {
            let o = &solved.orbits[s];
            labels_of(solved, s).len() == o.perm.len() && !o.ori.contains(&WILD)
        };
        // Each telling set searched once for every set it may tell that no earlier one
        // told: the same ties as one search per pair, its arrangements stepped once.
        let told: Vec<usize> = (0..sets.len())
            .filter(|&set| labels_of(solved, set).len() >= 2 && !distinct(set) && moved(set))
            .collect();
        let mut found: Vec<Option<Tie>> = told.iter().map(|_| None).collect();
        let tellers = (0..sets.len()).filter(|&by| {
            sets[by].size <= MOST_TELLING_PIECES && packs(&sets[by]) && distinct(by) && moved(by)
        });
        for by in tellers {
            let open: Vec<usize> = (0..told.len())
                .filter(|&i| found[i].is_none() && told[i] != by)
                .collect();
            if open.is_empty() {
                break;
            }
            let asked: Vec<usize> = open.iter().map(|&i| told[i]).collect();
            for (i, tie) in open
                .into_iter()
                .zip(Self::search(sets, solved, moves, &asked, by))
            {
                found[i] = tie;
            }
        }
        found.into_iter().flatten().collect()
    }

    /// The ties of each of `told` to `by`: a set is told when every arrangement of `by`
    /// the moves reach meets one of its arrangements only.
    fn search(
        sets: &[SetDef],
        solved: &Element,
        moves: &[&Element],
        told: &[usize],
        by: usize,
    ) -> Vec<Option<Tie>> {
        // While a tie holds, each arrangement of `by` meets one of the told set: the pairs
        // seen are the map's entries, and a pair is new exactly when its `by` is. Each told
        // set's arrangements sit in one buffer, in the order of `by`'s.
        let none = || told.iter().map(|_| None).collect();
        let start = pack(solved, by, &sets[by]);
        let mut number: PackedMap<u32> = PackedMap::default();
        number.insert(start, 0);
        let mut order: Vec<u128> = vec![start];
        let mut seen: Vec<Vec<u8>> = told.iter().map(|&set| arrangement(solved, set)).collect();
        let widths: Vec<usize> = seen.iter().map(Vec::len).collect();
        let mut holding = vec![true; told.len()];
        let mut next_set = Vec::new();
        let mut here = 0;
        while here < order.len() {
            for m in moves {
                let next_by = step_packed(order[here], m, by, &sets[by]);
                let known = number.get(&next_by).map(|&n| n as usize);
                if known.is_none() {
                    if order.len() >= MOST_PAIRS {
                        return none();
                    }
                    number.insert(next_by, order.len() as u32);
                    order.push(next_by);
                }
                for (t, &set) in told.iter().enumerate() {
                    if !holding[t] {
                        continue;
                    }
                    let width = widths[t];
                    step_into(
                        &seen[t][here * width..][..width],
                        m,
                        set,
                        sets[set].omod,
                        &mut next_set,
                    );
                    match known {
                        Some(n) => holding[t] = seen[t][n * width..][..width] == next_set[..],
                        None => seen[t].extend_from_slice(&next_set),
                    }
                }
                if !holding.contains(&true) {
                    return none();
                }
            }
            here += 1;
        }
        told.iter()
            .zip(seen)
            .zip(widths)
            .zip(holding)
            .map(|(((&set, seen), width), holds)| {
                if !holds {
                    return None;
                }
                let merged = solved.orbits[set].perm.iter().copied().min()?;
                let map = order
                    .iter()
                    .zip(seen.chunks(width))
                    .map(|(&key, value)| (key, value.to_vec()))
                    .collect();
                Some(Tie {
                    set,
                    by,
                    map,
                    merged,
                    by_def: sets[by].clone(),
                })
            })
            .collect()
    }

    /// Whether the told set has one arrangement over every state the moves reach.
    pub fn is_constant(&self) -> bool {
        let mut values = self.map.values();
        let first = values.next();
        values.all(|v| Some(v) == first)
    }

    /// How many arrangements of the telling set the moves reach.
    pub fn arrangements(&self) -> usize {
        self.map.len()
    }

    /// Whether `state` (in the pattern's labels) holds in the told set what the telling
    /// set's arrangement says.
    pub fn holds(&self, state: &Element) -> bool {
        self.map.get(&pack(state, self.by, &self.by_def)) == Some(&arrangement(state, self.set))
    }

    /// `state` with the told set's pieces given the one label the tables count.
    pub fn merge(&self, state: &mut Element) {
        state.orbits[self.set].perm.fill(self.merged);
    }
}

/// The arrangement of set `s` in `state`: its labels, then its orientations.
fn arrangement(state: &Element, s: usize) -> Vec<u8> {
    let o = &state.orbits[s];
    o.perm.iter().chain(&o.ori).copied().collect()
}

/// Whether a set's arrangements pack in a [`u128`]: its labels, and its orientations
/// when it has more than one, at most 16 bytes.
pub(super) fn packs(def: &SetDef) -> bool {
    def.size * if def.omod > 1 { 2 } else { 1 } <= 16
}

/// The arrangement of set `s` (defined by `def`, which [`packs`]) in `state`, packed: a
/// byte per label, then per orientation when it has more than one.
pub(super) fn pack(state: &Element, s: usize, def: &SetDef) -> u128 {
    let o = &state.orbits[s];
    let ori: &[u8] = if def.omod > 1 { &o.ori } else { &[] };
    o.perm
        .iter()
        .chain(ori)
        .fold(0u128, |key, &b| key << 8 | b as u128)
}

/// A packed arrangement of set `s` after the move `m`.
pub(super) fn step_packed(key: u128, m: &Element, s: usize, def: &SetDef) -> u128 {
    let n = def.size;
    let twisted_too = def.omod > 1;
    let bytes = if twisted_too { 2 * n } else { n };
    let byte = |i: usize| (key >> (8 * (bytes - 1 - i))) as u8;
    let o = &m.orbits[s];
    let mut out = 0u128;
    for &from in &o.perm {
        out = out << 8 | byte(from as usize) as u128;
    }
    if twisted_too {
        for (slot, &from) in o.perm.iter().enumerate() {
            let t = twisted(byte(n + from as usize), o.ori[slot], def.omod);
            out = out << 8 | t as u128;
        }
    }
    out
}

/// An arrangement of set `s` (labels, then orientations, `omod` of them) after the move
/// `m`, into `out` (its memory reused).
fn step_into(arrangement: &[u8], m: &Element, s: usize, omod: u8, out: &mut Vec<u8>) {
    let o = &m.orbits[s];
    let n = o.perm.len();
    let (perm, ori) = arrangement.split_at(n);
    out.clear();
    out.resize(2 * n, 0);
    for (slot, &from) in o.perm.iter().enumerate() {
        out[slot] = perm[from as usize];
        out[n + slot] = if omod == 1 {
            if ori[from as usize] == WILD {
                WILD
            } else {
                0
            }
        } else {
            twisted(ori[from as usize], o.ori[slot], omod)
        };
    }
}

/// The ties of `pattern` and the pattern its tables count: each told set's pieces one
/// kind, under its own name (`pattern` itself when nothing is told).
pub fn tied(pattern: &PermPuzzle) -> (Vec<Tie>, std::borrow::Cow<'_, PermPuzzle>) {
    let ties = Tie::find(pattern);
    if ties.is_empty() {
        return (ties, std::borrow::Cow::Borrowed(pattern));
    }
    let mut merged = pattern.clone();
    for tie in &ties {
        tie.merge(&mut merged.solved);
        let key = format!("tie {} by {}", tie.set, tie.by);
        merged.hash ^= xxhash_rust::xxh3::xxh3_64(key.as_bytes());
    }
    (ties, std::borrow::Cow::Owned(merged))
}

/// The tie tables of a phase (its moves `moves`) whose next phase is the last (its moves
/// `last`, from `solved`): one per set `last` ties to another without fixing it (a set
/// the tie holds in one arrangement is the target's to ask for), each kind's part made
/// on every core.
pub fn tables_before(
    sets: &[SetDef],
    solved: &Element,
    last: &[&Element],
    moves: &[&Element],
    limits: PartLimits,
) -> Vec<TieTable> {
    Tie::find_in(sets, solved, last)
        .into_iter()
        .filter(|t| !t.is_constant())
        .filter_map(|found| {
            let labels = labels_of(solved, found.set);
            joined(&labels)
                .iter()
                .find_map(|parts| TieTable::new(sets, &found, parts, moves, limits))
        })
        .collect()
}

/// Most entries of a tie table's parts: a way of joining the kinds (see [`joined`])
/// with a bigger part is passed over for the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PartLimits {
    /// Of a part of two kinds (4 bits an entry, built breadth first modulo 3).
    pub joint: usize,
    /// Of a part of one kind (a byte an entry, built breadth first a layer list at a
    /// time).
    pub single: usize,
}

impl PartLimits {
    /// The largest parts whose builds fit `budget_mb` (`--memory`), no more than
    /// [`MOST_JOINT_ENTRIES`] and [`MOST_TIE_ENTRIES`]: with the default budget those,
    /// with a small one fewer kinds joined (the FTO's pairs, 212.9 M entries each, need
    /// 173 MB: below that its colours apart).
    pub fn within(budget_mb: u64) -> Self {
        let budget = budget_mb.saturating_mul(1 << 20);
        let most = |bytes_per_entry: f64, cap: usize| -> usize {
            ((budget as f64 / bytes_per_entry) as u64).min(cap as u64) as usize
        };
        // A joint part: the search's bytes (see `mod3_bfs_bytes`) and its 4-bit depths;
        // one kind: a byte an entry and, at worst, every entry in one layer's list of
        // pairs of numbers.
        let joint_per_entry = mod3_bfs_bytes(1 << 20) as f64 / (1 << 20) as f64 + 0.5;
        Self {
            joint: most(joint_per_entry, MOST_JOINT_ENTRIES),
            single: most(9.0, MOST_TIE_ENTRIES),
        }
    }

    /// Whether these are the limits of the default budget (and of any budget above it).
    pub fn are_widest(&self) -> bool {
        *self == Self::within(u64::MAX)
    }
}

/// The ways a tie table may follow the told set's labels `labels` (in order), best
/// first: pairs of kinds together, then each kind alone. The pairs: the first label with
/// the last, the second with the one before the last, and so on (so that every kind is
/// in one), then the first with the second; as many as a node's value holds (with the
/// FTO's four colours, three pairs), fewer where those do not fit, a label no pair takes
/// alone. A part of two kinds bounds where each alone reads short: on the FTO's middle
/// phase one pair made the search 2.3 times faster, the two that take every colour 2.6
/// times, the third 3.0 times (docs/phases.md).
fn joined(labels: &[u8]) -> Vec<Vec<Vec<u8>>> {
    let n = labels.len();
    let apart: Vec<Vec<u8>> = labels.iter().map(|&l| vec![l]).collect();
    let pairs: Vec<Vec<u8>> = (0..n / 2)
        .map(|i| vec![labels[i], labels[n - 1 - i]])
        .collect();
    // The first `k` pairs, each label they leave alone.
    let first = |k: usize| -> Vec<Vec<u8>> {
        let paired: Vec<u8> = pairs[..k].concat();
        pairs[..k]
            .iter()
            .cloned()
            .chain(apart.iter().filter(|l| !paired.contains(&l[0])).cloned())
            .collect()
    };
    let mut ways = Vec::new();
    if n >= 4 {
        let mut more = first(pairs.len());
        more.push(vec![labels[0], labels[1]]);
        ways.push(more);
    }
    if n >= 3 {
        ways.extend((1..=pairs.len()).rev().map(first));
    }
    ways.push(apart);
    ways
}

/// Most entries of a part following two kinds together (4 bits each: 128 MB); a bigger
/// one follows them apart.
const MOST_JOINT_ENTRIES: usize = 1 << 28;

/// Most arrangements of a telling set a tie table numbers.
const MOST_TELLING_ARRANGEMENTS: usize = 1 << 20;

/// Most entries of one kind's part of a tie table (a byte each).
const MOST_TIE_ENTRIES: usize = 1 << 26;

/// Whether every move's inverse is among `moves` (then a breadth-first search forwards
/// finds the distances backwards too, as [`pair_distances`] needs).
pub(super) fn inverses_present(sets: &[SetDef], moves: &[&Element]) -> bool {
    let identity = Element::identity(sets);
    moves.iter().all(|m| {
        let once = identity.then(m, sets);
        moves.iter().any(|n| once.then(n, sets).is_identity())
    })
}

/// Distance of an entry from which the target cannot be reached.
pub(super) const NEVER: u8 = u8::MAX;

/// Distances, breadth first from `sources`, over pairs of numbers each stepped by its
/// own move rows (`first_steps`, `second_steps`: `number * moves + m`), entry
/// `first * width + second`, a byte each ([`NEVER`] where none reaches); the moves are
/// taken as their own inverses' (every move's inverse is a move), so forwards is the
/// same as backwards.
pub(super) fn pair_distances(
    sources: impl IntoIterator<Item = (u32, u32)>,
    first_steps: &[u32],
    second_steps: &[u32],
    width: usize,
    moves: usize,
) -> Vec<u8> {
    let entries = first_steps.len() / moves.max(1) * width;
    let mut distance = vec![NEVER; entries];
    // The frontier as pairs: no division a step.
    let mut frontier: Vec<(u32, u32)> = Vec::new();
    for (a, b) in sources {
        let entry = a as usize * width + b as usize;
        if distance[entry] == NEVER {
            distance[entry] = 0;
            frontier.push((a, b));
        }
    }
    let mut depth = 0u8;
    while !frontier.is_empty() && depth < NEVER - 1 {
        depth += 1;
        let mut next_frontier = Vec::new();
        for &(a, b) in &frontier {
            let rows = first_steps[a as usize * moves..][..moves]
                .iter()
                .zip(&second_steps[b as usize * moves..][..moves]);
            for (&a2, &b2) in rows {
                let next = a2 as usize * width + b2 as usize;
                if distance[next] == NEVER {
                    distance[next] = depth;
                    next_frontier.push((a2, b2));
                }
            }
        }
        frontier = next_frontier;
    }
    distance
}

/// For the phase before one with a tie: per kind of the told set, how many of its moves
/// a state needs before that kind's pieces sit where the telling set's arrangement puts
/// them.
///
/// A kind's state is the telling set's arrangement with the places of that kind's
/// pieces, numbered apart, each with its own move table; its distance comes from a
/// breadth-first search from every pair the tie allows. The phase cannot hand on a state
/// from which the next phase could not reach its target (that state breaks the tie), so
/// each kind's distance bounds its search: the FTO's phase into the four faces of one
/// colour class saw all but one in 10^5 to 10^7 of its solutions refused by the next
/// phase before. The kinds share the telling set's numbering: a node carries one value,
/// the telling arrangement's number above every kind's places (a few bits each), so that
/// a move steps the telling set once for all kinds.
#[derive(serde::Serialize, serde::Deserialize)]
pub struct TieTable {
    set: usize,
    by: usize,
    /// Every reachable arrangement of the telling set (packed).
    telling: PackedMap<u32>,
    /// The telling set's definition.
    by_def: SetDef,
    /// Per telling arrangement and move: the arrangement after it.
    #[serde(with = "crate::table::derived::words")]
    telling_steps: Vec<u32>,
    /// Per kind followed: its places and distances.
    kinds: Vec<KindPart>,
    /// Bits of a node's value per kind's places (the telling number is above them all).
    place_bits: u32,
    moves: usize,
}

/// One part of a [`TieTable`]: one kind, or two followed together.
#[derive(serde::Serialize, serde::Deserialize)]
struct KindPart {
    /// The labels whose pieces are followed.
    labels: Vec<u8>,
    /// Every reachable set of places of the followed pieces (a bit per slot, the slots
    /// of each label after the previous label's).
    places: NumberMap<u64, u32>,
    /// Per set of places and move: the places after it.
    #[serde(with = "crate::table::derived::words")]
    place_steps: Vec<u32>,
    /// One kind: per entry (`telling * places + place`), the moves to a pair the tie
    /// allows. Two kinds: empty, their distances are [`KindPart::joint`].
    #[serde(with = "crate::table::derived::bytes")]
    distance: Vec<u8>,
    /// Two kinds: the entries the tie allows, where their breadth-first search starts.
    sources: Vec<u64>,
    /// Two kinds: per entry, the moves needed, 4 bits (15: 15 or more, or never), in a
    /// table file of their own (hundreds of megabytes, mapped rather than read into
    /// the file of the rest), attached after the rest is made or read back.
    #[serde(skip)]
    joint: Option<crate::table::Table>,
}

/// The states of a part of two kinds (`telling * width + place`), for the breadth-first
/// search of its distances.
struct JointSpace<'a> {
    telling_steps: &'a [u32],
    place_steps: &'a [u32],
    width: u64,
    moves: usize,
}

impl RankedSpace for JointSpace<'_> {
    fn size(&self) -> u64 {
        (self.telling_steps.len() / self.moves) as u64 * self.width
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        let (t, p) = ((rank / self.width) as usize, (rank % self.width) as usize);
        let tellings = &self.telling_steps[t * self.moves..][..self.moves];
        let places = &self.place_steps[p * self.moves..][..self.moves];
        for (&t2, &p2) in tellings.iter().zip(places) {
            visit(t2 as u64 * self.width + p2 as u64);
        }
    }
}

impl TieTable {
    /// The table of `tie`'s pieces of the labels `labels` for the moves `moves`
    /// (full-puzzle elements, each with its inverse among them); `None` when its
    /// arrangements are too many, the told set has more than 64 slots, a node's value
    /// would not fit 64 bits, or some move's inverse is missing.
    pub fn new(
        sets: &[SetDef],
        tie: &Tie,
        labels: &[Vec<u8>],
        moves: &[&Element],
        limits: PartLimits,
    ) -> Option<Self> {
        use rayon::prelude::*;
        let (set, by) = (tie.set, tie.by);
        if sets[set].size > 64 {
            return None;
        }
        // Distances are found forwards from the pairs the tie allows: the same as
        // backwards when every move's inverse is a move.
        if !inverses_present(sets, moves) {
            return None;
        }
        let count = moves.len();
        // The telling set's arrangements: from those the tie knows, under the moves.
        let (telling, telling_steps) = numbered(
            tie.map.keys().copied(),
            count,
            |key, m| step_packed(key, moves[m], by, &sets[by]),
            MOST_TELLING_ARRANGEMENTS,
        )?;
        let kinds: Vec<KindPart> = labels
            .par_iter()
            .map(|label| KindPart::new(sets, tie, label, moves, &telling, &telling_steps, limits))
            .collect::<Option<Vec<KindPart>>>()?;
        let most_places = kinds.iter().map(|k| k.places.len()).max().unwrap_or(1);
        let place_bits = usize::BITS - (most_places.max(2) - 1).leading_zeros();
        let telling_bits = usize::BITS - telling.len().leading_zeros();
        if place_bits as usize * kinds.len() + telling_bits as usize > 64 {
            return None;
        }
        Some(Self {
            set,
            by,
            telling,
            by_def: sets[by].clone(),
            telling_steps,
            kinds,
            place_bits,
            moves: count,
        })
    }

    /// The telling arrangement's number in a node's value.
    #[inline]
    fn telling_of(&self, value: u64) -> usize {
        (value >> (self.place_bits as usize * self.kinds.len())) as usize
    }

    /// Kind `k`'s places number in a node's value.
    #[inline]
    fn place_of(&self, value: u64, k: usize) -> usize {
        (value >> (self.place_bits as usize * k) & ((1 << self.place_bits) - 1)) as usize
    }

    /// The entry of a full state (`None`: an arrangement the moves never bring to one the
    /// tie allows).
    pub fn encode(&self, state: &Element) -> Option<u64> {
        let t = *self.telling.get(&pack(state, self.by, &self.by_def))?;
        let mut value = t as u64;
        for part in self.kinds.iter().rev() {
            let p = *part
                .places
                .get(&group_places(&state.orbits[self.set].perm, &part.labels))?;
            value = value << self.place_bits | p as u64;
        }
        Some(value)
    }

    /// The entry after move `m`.
    #[inline(always)]
    pub fn child(&self, value: u64, m: usize) -> u64 {
        let t = self.telling_of(value);
        let mut next = self.telling_steps[t * self.moves + m] as u64;
        for (k, part) in self.kinds.iter().enumerate().rev() {
            let p = self.place_of(value, k);
            next = next << self.place_bits | part.place_steps[p * self.moves + m] as u64;
        }
        next
    }

    /// The moves kind `k` needs before the tie holds for its pieces (`usize::MAX`:
    /// never).
    #[inline]
    pub fn kind_bound(&self, k: usize, value: u64) -> usize {
        let part = &self.kinds[k];
        let entry = self.telling_of(value) * part.places.len() + self.place_of(value, k);
        match (&part.joint, part.distance.get(entry)) {
            // 15 stands for 15 or more, and for never: a bound either way.
            (Some(joint), _) => packed::Nibbles::new(joint.payload()).get(entry) as usize,
            (None, Some(&NEVER)) => usize::MAX,
            (None, Some(&d)) => d as usize,
            // Two kinds whose distances are not attached bound nothing.
            (None, None) => 0,
        }
    }

    /// Whether some kind needs more than `rest` moves.
    #[inline]
    pub fn exceeds(&self, value: u64, rest: usize) -> bool {
        (0..self.kinds.len()).any(|k| self.kind_bound(k, value) > rest)
    }

    /// The moves the farthest kind needs (`usize::MAX`: never).
    #[inline]
    pub fn bound(&self, value: u64) -> usize {
        (0..self.kinds.len())
            .map(|k| self.kind_bound(k, value))
            .max()
            .unwrap_or(0)
    }

    /// Asks the memory for every kind's entry of value `value`.
    #[inline]
    pub fn prefetch(&self, value: u64) {
        let t = self.telling_of(value);
        for (k, part) in self.kinds.iter().enumerate() {
            let entry = t * part.places.len() + self.place_of(value, k);
            match &part.joint {
                Some(joint) => crate::table::prefetch(joint.payload(), entry / 2),
                None => crate::table::prefetch(&part.distance, entry),
            }
        }
    }

    /// What it follows, for `puzzle info`: `CENTER2 by CORNER (4 kinds, two of them
    /// together)`.
    pub fn describe(&self, sets: &[SetDef]) -> String {
        let mut labels: Vec<u8> = self.kinds.iter().flat_map(|k| k.labels.clone()).collect();
        labels.sort_unstable();
        labels.dedup();
        let kinds = labels.len();
        let together = match self.joint_parts().len() {
            0 => String::new(),
            1 => ", two of them together".to_string(),
            n => format!(", in {n} pairs"),
        };
        format!(
            "{} by {} ({kinds} kinds{together})",
            sets[self.set].name, sets[self.by].name,
        )
    }

    /// Entries, over every part.
    pub fn size(&self) -> usize {
        (0..self.kinds.len()).map(|k| self.kind_size(k)).sum()
    }

    /// Bytes its entries take: a byte each, 4 bits in a part of two kinds.
    pub fn bytes(&self) -> usize {
        (0..self.kinds.len())
            .map(|k| match self.kinds[k].labels.len() {
                1 => self.kind_size(k),
                _ => self.kind_size(k).div_ceil(2),
            })
            .sum()
    }

    /// The parts following two kinds together, whose distances are a table file of
    /// their own ([`TieTable::attach`]).
    pub fn joint_parts(&self) -> Vec<usize> {
        (0..self.kinds.len())
            .filter(|&k| self.kinds[k].labels.len() > 1)
            .collect()
    }

    /// What part `k`'s distances depend on (the telling set's and the part's numbering
    /// and steps, and where the search starts): their table file names it, so that a
    /// file made for another numbering is never read for this one.
    pub fn joint_key(&self, k: usize) -> u64 {
        let part = &self.kinds[k];
        let mut hasher = xxhash_rust::xxh3::Xxh3::new();
        hasher.update(&(self.moves as u64).to_le_bytes());
        for words in [&self.telling_steps, &part.place_steps] {
            hasher.update(&(words.len() as u64).to_le_bytes());
            for w in words.iter() {
                hasher.update(&w.to_le_bytes());
            }
        }
        for r in &part.sources {
            hasher.update(&r.to_le_bytes());
        }
        hasher.digest()
    }

    /// Part `k`'s distances (two kinds), breadth first from the entries the tie allows
    /// on every core, 4 bits each; with the search's layer sizes.
    pub fn joint_distances(&self, k: usize, progress: &Progress) -> (Vec<u8>, Vec<u64>) {
        let part = &self.kinds[k];
        let space = JointSpace {
            telling_steps: &self.telling_steps,
            place_steps: &part.place_steps,
            width: part.places.len() as u64,
            moves: self.moves,
        };
        let mut depths = DepthNibbles::new(space.size());
        let result = mod3_bfs_observed(&space, &part.sources, progress, "tie BFS", &mut depths);
        (depths.into_bytes(), result.histogram)
    }

    /// Gives part `k` (two kinds) its distances: the table file of
    /// [`TieTable::joint_distances`].
    pub fn attach(&mut self, k: usize, distances: crate::table::Table) {
        self.kinds[k].joint = Some(distances);
    }

    /// How many parts it follows (a kind, or two kinds together).
    pub fn kinds(&self) -> usize {
        self.kinds.len()
    }

    /// Whether a table read back from a file fits a phase of `moves` moves: every step
    /// and entry where the numbers say, every node value within 64 bits.
    pub fn sound(&self, moves: usize) -> bool {
        let telling = self.telling.len();
        let telling_bits = usize::BITS - telling.leading_zeros();
        self.moves == moves
            && self.place_bits < 32
            && self.place_bits as usize * self.kinds.len() + telling_bits as usize <= 64
            && self.telling_steps.len() == telling * moves
            && self.telling_steps.iter().all(|&t| (t as usize) < telling)
            && self.telling.values().all(|&t| (t as usize) < telling)
            && self.kinds.iter().all(|k| {
                let places = k.places.len();
                places <= 1 << self.place_bits
                    && k.place_steps.len() == places * moves
                    && k.place_steps.iter().all(|&p| (p as usize) < places)
                    && k.places.values().all(|&p| (p as usize) < places)
                    && match k.labels.len() {
                        1 => k.distance.len() == telling * places && k.sources.is_empty(),
                        _ => {
                            k.distance.is_empty()
                                && !k.sources.is_empty()
                                && k.sources.iter().all(|&r| r < (telling * places) as u64)
                        }
                    }
            })
    }

    /// The node value of kind `k`'s entry `entry` (below that kind's telling
    /// arrangements times places), the other kinds at their first places.
    pub fn value_of_entry(&self, k: usize, entry: usize) -> u64 {
        let width = self.kinds[k].places.len();
        let (t, p) = (entry / width, entry % width);
        (t as u64) << (self.place_bits as usize * self.kinds.len())
            | (p as u64) << (self.place_bits as usize * k)
    }

    /// Entries of part `k`.
    pub fn kind_size(&self, k: usize) -> usize {
        self.telling.len() * self.kinds[k].places.len()
    }
}

impl KindPart {
    /// Kind `label`'s places and distances, over the telling set's numbering.
    fn new(
        sets: &[SetDef],
        tie: &Tie,
        labels: &[u8],
        moves: &[&Element],
        telling: &PackedMap<u32>,
        telling_steps: &[u32],
        limits: PartLimits,
    ) -> Option<Self> {
        let set = tie.set;
        let count = moves.len();
        // The places of the followed pieces: from those the tie allows, under the moves
        // (the piece in slot `slot` comes from slot `perm[slot]`).
        let size = sets[set].size;
        // Each label's places take the set's size in bits of one word.
        if labels.len() * size > 64 {
            return None;
        }
        // A told arrangement is its labels then its orientations.
        let mask_of =
            |arrangement: &[u8]| group_places(arrangement.get(..size).unwrap_or_default(), labels);
        let (places, place_steps) = numbered(
            tie.map.values().map(|v| mask_of(v)),
            count,
            |mask, m| {
                let perm = &moves[m].orbits[set].perm;
                let mut next = 0u64;
                for g in 0..labels.len() {
                    let part = mask >> (g * size);
                    next |= (0..perm.len())
                        .filter(|&slot| part >> perm[slot] & 1 == 1)
                        .fold(0u64, |next, slot| next | 1 << slot)
                        << (g * size);
                }
                next
            },
            usize::MAX,
        )?;
        let width = places.len();
        let entries = telling.len().checked_mul(width)?;
        let joint = labels.len() > 1;
        if entries > if joint { limits.joint } else { limits.single } {
            return None;
        }
        let sources = tie
            .map
            .iter()
            .map(|(key, value)| (telling[key], places[&mask_of(value)]));
        let (distance, sources) = if joint {
            let mut ranks: Vec<u64> = sources
                .map(|(t, p)| t as u64 * width as u64 + p as u64)
                .collect();
            ranks.sort_unstable();
            ranks.dedup();
            (Vec::new(), ranks)
        } else {
            let distance = pair_distances(sources, telling_steps, &place_steps, width, count);
            (distance, Vec::new())
        };
        Some(Self {
            labels: labels.to_vec(),
            places,
            place_steps,
            distance,
            sources,
            joint: None,
        })
    }
}

/// For tests of a table of distances over node values: over 20,000 random entries
/// (below `entries`, made values by `value_of`), each entry neither 0 nor never is one
/// more than its nearest neighbour's (by `child`, over `moves` moves) and no more than
/// any neighbour's plus one; the largest such entry.
#[cfg(test)]
pub(super) fn farthest_checked(
    rng: &mut crate::rng::SplitMix64,
    entries: usize,
    moves: usize,
    value_of: impl Fn(usize) -> u64,
    bound: impl Fn(u64) -> usize,
    child: impl Fn(u64, usize) -> u64,
) -> usize {
    let mut far = 0;
    for _ in 0..20_000 {
        let entry = rng.below(entries as u64) as usize;
        let value = value_of(entry);
        let d = bound(value);
        if d == usize::MAX || d == 0 {
            continue;
        }
        let near: Vec<usize> = (0..moves).map(|m| bound(child(value, m))).collect();
        assert_eq!(near.iter().min(), Some(&(d - 1)), "entry {entry}");
        assert!(near.iter().all(|&n| n != usize::MAX && n + 1 >= d));
        far = far.max(d);
    }
    far
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::{moves_of, set_named as set, shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;

    /// The FTO's four faces of one colour class tie both centre sets to the corners (one
    /// of them, on those faces, never changes); three faces around a corner tie neither
    /// (`fto-faces.plan`'s last phase). Along random turns of the four faces every tie
    /// holds, and a turn of another face breaks it.
    #[test]
    fn the_four_faces_of_a_class_tie_the_fto_centres_to_its_corners() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let class = moves_of(&puzzle, &["UFL", "UBR", "DFR", "DBL"]);
        assert_eq!(class.len(), 8);
        let ties = Tie::find_in(&puzzle.sets, &puzzle.solved, &class);
        let corner = set(&puzzle, "CORNER");
        let told: Vec<(usize, usize, bool)> = ties
            .iter()
            .map(|t| (t.set, t.by, t.is_constant()))
            .collect();
        assert_eq!(
            told,
            [
                (set(&puzzle, "CENTER"), corner, true),
                (set(&puzzle, "CENTER2"), corner, false)
            ]
        );
        // Every arrangement of the corners: 6! / 2 places, 2^5 twists.
        assert_eq!(ties[1].arrangements(), 11_520);
        let around = moves_of(&puzzle, &["UFL", "UFR", "UBR"]);
        assert!(Tie::find_in(&puzzle.sets, &puzzle.solved, &around)
            .iter()
            .all(|t| t.set != set(&puzzle, "CENTER2")));
        let mut rng = SplitMix64::new(11);
        let mut state = puzzle.solved.clone();
        for _ in 0..300 {
            let m = class[rng.below(class.len() as u64) as usize];
            state = state.then(m, &puzzle.sets);
            assert!(ties.iter().all(|t| t.holds(&state)));
        }
        let other = moves_of(&puzzle, &["UFR"])[0];
        assert!(!ties[1].holds(&state.then(other, &puzzle.sets)));
        // Merged, the told set is one kind.
        let mut merged = state.clone();
        ties[1].merge(&mut merged);
        let labels: std::collections::HashSet<u8> =
            merged.orbits[ties[1].set].perm.iter().copied().collect();
        assert_eq!(labels.len(), 1);
    }

    /// The ways a tie table may follow its kinds, best first: the first with the last,
    /// the second with the one before (every kind in a pair), then the first with the
    /// second; then fewer pairs, the kinds they leave alone; at last every kind alone.
    #[test]
    fn kinds_are_joined_first_with_last_then_first_with_second() {
        let ways = joined(&[5, 6, 7, 8]);
        let expected: Vec<Vec<Vec<u8>>> = vec![
            vec![vec![5, 8], vec![6, 7], vec![5, 6]],
            vec![vec![5, 8], vec![6, 7]],
            vec![vec![5, 8], vec![6], vec![7]],
            vec![vec![5], vec![6], vec![7], vec![8]],
        ];
        assert_eq!(ways, expected);
        let odd: Vec<Vec<Vec<u8>>> =
            vec![vec![vec![1, 3], vec![2]], vec![vec![1], vec![2], vec![3]]];
        assert_eq!(joined(&[1, 2, 3]), odd);
        assert_eq!(joined(&[1, 2]), vec![vec![vec![1], vec![2]]]);
    }

    /// `--memory` bounds a tie table's parts: the FTO's colour pairs (212.9 M entries,
    /// 173 MB to build) with the default budget and with 180 MB; below, the next way
    /// that fits, its colours apart (a part of one kind: 2.5 M entries).
    #[test]
    fn a_budget_too_small_for_a_pair_leaves_the_kinds_apart() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let last = moves_of(&puzzle, &["UFL", "UBR", "DFR", "DBL"]);
        let phase = moves_of(&puzzle, &["UFR", "UFL", "UBR", "DFR", "DBL"]);
        assert!(PartLimits::within(crate::puzzles::perm::DEFAULT_BUDGET_MB).are_widest());
        let joined_parts = |budget_mb: u64| -> Vec<usize> {
            let limits = PartLimits::within(budget_mb);
            assert_eq!(limits.are_widest(), budget_mb >= 1000, "{budget_mb} MB");
            tables_before(&puzzle.sets, &puzzle.solved, &last, &phase, limits)
                .iter()
                .map(|t| t.joint_parts().len())
                .collect()
        };
        assert_eq!(
            joined_parts(crate::puzzles::perm::DEFAULT_BUDGET_MB),
            vec![3]
        );
        assert_eq!(joined_parts(180), vec![3]);
        assert_eq!(joined_parts(150), vec![0]);
    }

    /// A tie table holds distances: each kind's entry one more than its nearest
    /// neighbour's unless it is 0, never more than a neighbour's plus one (the moves
    /// include their inverses); along random walks of full states the node's value
    /// follows the moves, and the table reads 0 exactly where the tie holds.
    #[test]
    fn a_tie_table_holds_each_entrys_distance() {
        let puzzle = shipped_puzzle("fto.tws", PuzzleMetric::Htm);
        let class = moves_of(&puzzle, &["UFL", "UBR", "DFR", "DBL"]);
        let phase = moves_of(&puzzle, &["UFR", "UFL", "UBR", "DFR", "DBL"]);
        let ties = Tie::find_in(&puzzle.sets, &puzzle.solved, &class);
        let told = &ties[1];
        let mut labels = puzzle.solved.orbits[told.set].perm.clone();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), 4);
        let apart: Vec<Vec<u8>> = labels.iter().map(|&l| vec![l]).collect();
        let table = TieTable::new(
            &puzzle.sets,
            told,
            &apart,
            &phase,
            PartLimits::within(u64::MAX),
        )
        .expect("fits");
        assert_eq!(table.kinds(), 4);
        let mut rng = SplitMix64::new(5);
        for k in 0..table.kinds() {
            let far = farthest_checked(
                &mut rng,
                table.kind_size(k),
                phase.len(),
                |entry| table.value_of_entry(k, entry),
                |value| table.kind_bound(k, value),
                |value, m| table.child(value, m),
            );
            assert!(far >= 3, "{far}");
        }
        let mut state = puzzle.solved.clone();
        let mut value = table.encode(&state).expect("solved");
        let mut broken = 0;
        for _ in 0..3000 {
            let m = rng.below(phase.len() as u64) as usize;
            state = state.then(phase[m], &puzzle.sets);
            value = table.child(value, m);
            assert_eq!(table.encode(&state), Some(value));
            let zero = table.bound(value) == 0;
            assert_eq!(zero, told.holds(&state));
            assert_eq!(table.exceeds(value, 0), !zero);
            broken += usize::from(!zero);
        }
        assert!(broken > 1000, "{broken}");
    }
}
