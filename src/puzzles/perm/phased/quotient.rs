//! Exact tables over classes of states that moves costing nothing join.
//!
//! When a phase's moves that cost nothing (Square-1's layer turns in the twist metric)
//! generate a small group F, a state `s` and every `s·f` (f in F) cost the same to reach
//! the target: a path from one is a path from the other once `f` or its inverse, free,
//! is put in front. So one entry per class `s·F` is enough, and the classes' distances
//! are a plain breadth-first search in which one step is "some free element, then one
//! paid move" (the twist metric's compound move). A state's class is read through one
//! coordinate, the pivot, on which F acts freely (no element but the identity fixes a
//! value): the element taking the pivot's value to its class's representative is
//! unique, and applied to the other coordinates it gives the class's number.
//!
//! Square-1's pieces phase: F = <U3, D3> (16 elements) acts freely on the places of the
//! 8 corners, so 3.25 G states (8!·8!·2) become 203 M classes: a 51 MB table.

use crate::puzzles::perm::coord::Projection;
use crate::puzzles::perm::element::{parity, Element};
use crate::puzzles::perm::puzzle::PermPuzzle;
use crate::search::bfs::RankedSpace;
use rayon::prelude::*;
use std::collections::HashMap;

/// An element's map of the pivot's values, hashed by its first values only (enough to
/// tell a free group's few elements apart at once), compared in full.
#[derive(PartialEq, Eq)]
struct ValueMap(Vec<u32>);

impl std::hash::Hash for ValueMap {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.0[..self.0.len().min(64)].hash(state);
    }
}

/// Neighbours a walk down the classes works out (and asks the table for) at a time.
const GROUP: usize = 8;

/// Most elements a free group may have for its classes to be followed.
const MOST_ELEMENTS: usize = 64;

/// Most entries of the elements' value maps over all coordinates together.
const MOST_MAP_ENTRIES: u64 = 1 << 26;

/// A parity of the coordinates that every move keeps (a sum modulo 2 of some
/// coordinates' parities) and the targets share: the states it rules out are never
/// reached, so one coordinate is numbered among the values of its parity only (half of
/// them), its parity told by the others'. Square-1's pieces phase: half of its classes.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
struct Halving {
    /// The coordinate numbered by half.
    coord: usize,
    /// Per coordinate in the sum (else empty): each value's parity.
    parities: Vec<Vec<u8>>,
    /// The sum every reachable state has.
    sum: u8,
    /// Per value of the halved coordinate: its number among the values of its parity.
    #[serde(with = "crate::table::derived::words")]
    half: Vec<u32>,
    /// Per parity, per number: the halved coordinate's value.
    whole: [Vec<u32>; 2],
}

impl Halving {
    /// The parity kept by `projection`'s moves (of `puzzle`) that the states in
    /// `targets` (coordinate values) share, numbering a coordinate other than `pivot`
    /// by half; `None` when there is none.
    fn find(
        puzzle: &PermPuzzle,
        projection: &Projection,
        pivot: usize,
        targets: &[Vec<u64>],
    ) -> Option<Self> {
        const MOST_SUMMED: usize = 12;
        let moves = projection.moves;
        // Each coordinate's values' parities (permutation parity and, for sets of two
        // orientations, the orientations' sum), kept when every move changes them by a
        // constant.
        let mut parities: Vec<Vec<u8>> = Vec::new();
        let mut changes: Vec<Vec<u8>> = Vec::new();
        let mut summable = Vec::new();
        for (j, coord) in projection.coords.iter().enumerate() {
            let r = projection.radix[j];
            let of = |state: &Element| -> u8 {
                state
                    .orbits
                    .iter()
                    .zip(&puzzle.sets)
                    .map(|(orbit, set)| {
                        let twist = if set.omod == 2 {
                            orbit.ori.iter().map(|&o| o & 1).fold(0, |a, b| a ^ b)
                        } else {
                            0
                        };
                        parity(&orbit.perm) ^ twist
                    })
                    .fold(0, |a, b| a ^ b)
            };
            let values: Option<Vec<u8>> = (0..r)
                .into_par_iter()
                .map_with(puzzle.solved.clone(), |state, v| {
                    coord.decode_into(v, state).then(|| of(state))
                })
                .collect();
            let Some(values) = values else {
                parities.push(Vec::new());
                changes.push(Vec::new());
                continue;
            };
            let change: Option<Vec<u8>> = (0..moves)
                .map(|m| {
                    let d = values[coord.apply(0, m, moves) as usize] ^ values[0];
                    (0..r)
                        .all(|v| {
                            values[coord.apply(v, m, moves) as usize] ^ values[v as usize] == d
                        })
                        .then_some(d)
                })
                .collect();
            match change {
                Some(change) if values.iter().any(|&p| p != values[0]) => {
                    summable.push(j);
                    parities.push(values);
                    changes.push(change);
                }
                _ => {
                    parities.push(Vec::new());
                    changes.push(Vec::new());
                }
            }
        }
        if summable.is_empty() || summable.len() > MOST_SUMMED {
            return None;
        }
        // The smallest set of coordinates whose parities' sum no move changes, with a
        // coordinate besides the pivot that splits evenly into its two parities.
        let mut subsets: Vec<u32> = (1..1u32 << summable.len()).collect();
        subsets.sort_by_key(|m| m.count_ones());
        for mask in subsets {
            let chosen: Vec<usize> = (0..summable.len())
                .filter(|&i| mask >> i & 1 == 1)
                .map(|i| summable[i])
                .collect();
            let kept = (0..moves).all(|m| chosen.iter().fold(0, |a, &j| a ^ changes[j][m]) == 0);
            if !kept {
                continue;
            }
            let sum_at = |values: &[u64]| -> u8 {
                chosen
                    .iter()
                    .fold(0, |a, &j| a ^ parities[j][values[j] as usize])
            };
            let first = targets.first()?;
            let sum = sum_at(first);
            if targets.iter().any(|t| sum_at(t) != sum) {
                continue;
            }
            let Some(&coord) = chosen.iter().find(|&&j| {
                j != pivot && {
                    let odd = parities[j].iter().filter(|&&p| p == 1).count();
                    2 * odd == parities[j].len()
                }
            }) else {
                continue;
            };
            let mut half = vec![0u32; parities[coord].len()];
            let mut whole: [Vec<u32>; 2] = [Vec::new(), Vec::new()];
            for (v, &p) in parities[coord].iter().enumerate() {
                half[v] = whole[p as usize].len() as u32;
                whole[p as usize].push(v as u32);
            }
            let parities = (0..parities.len())
                .map(|j| {
                    if chosen.contains(&j) {
                        parities[j].clone()
                    } else {
                        Vec::new()
                    }
                })
                .collect();
            return Some(Self {
                coord,
                parities,
                sum,
                half,
                whole,
            });
        }
        None
    }

    /// The halved coordinate's value from its number and the other coordinates' values.
    #[inline]
    fn value(&self, values: &[u64], number: u64) -> u64 {
        let mut p = self.sum;
        for (j, parities) in self.parities.iter().enumerate() {
            if j != self.coord && !parities.is_empty() {
                p ^= parities[values[j] as usize];
            }
        }
        self.whole[p as usize][number as usize] as u64
    }
}

/// A table of coordinate values in 16-bit words when they all fit (every coordinate of
/// Square-1's pieces phase: its maps then take 7.7 MB instead of 15.5 and stay, with its
/// 25 MB table, within this machine's 32 MB last-level cache: its table is built 1.3 to
/// 1.5 times faster), else in 32-bit words.
#[derive(Debug)]
enum Values {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl From<Vec<u32>> for Values {
    fn from(words: Vec<u32>) -> Self {
        if words.iter().all(|&w| w <= u32::from(u16::MAX)) {
            Values::Narrow(words.into_iter().map(|w| w as u16).collect())
        } else {
            Values::Wide(words)
        }
    }
}

impl Values {
    /// The value at `i`.
    #[inline]
    fn get(&self, i: usize) -> u64 {
        match self {
            Values::Narrow(t) => u64::from(t[i]),
            Values::Wide(t) => u64::from(t[i]),
        }
    }

    fn len(&self) -> usize {
        match self {
            Values::Narrow(t) => t.len(),
            Values::Wide(t) => t.len(),
        }
    }

    /// Whether every value is below `bound`.
    fn all_below(&self, bound: u64) -> bool {
        match self {
            Values::Narrow(t) => t.iter().all(|&x| u64::from(x) < bound),
            Values::Wide(t) => t.iter().all(|&x| u64::from(x) < bound),
        }
    }

    /// The values as 32-bit words (the file's layout, whichever the words in memory).
    fn words(&self) -> Vec<u32> {
        match self {
            Values::Narrow(t) => t.iter().map(|&x| u32::from(x)).collect(),
            Values::Wide(t) => t.clone(),
        }
    }
}

/// Serde for `Vec<Values>`: kept as lists of 32-bit words
/// ([`crate::table::derived::word_lists`]), read back into the narrowest words.
mod value_lists {
    use super::Values;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lists: &[Values], s: S) -> Result<S::Ok, S::Error> {
        let words: Vec<Vec<u32>> = lists.iter().map(Values::words).collect();
        crate::table::derived::word_lists::serialize(&words, s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Values>, D::Error> {
        let words = crate::table::derived::word_lists::deserialize(d)?;
        Ok(words.into_iter().map(Values::from).collect())
    }
}

/// The classes of a projection's states under the group of its free moves.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct FreeQuotient {
    /// The coordinate the group moves freely.
    pivot: usize,
    /// Per pivot value: its class.
    #[serde(with = "crate::table::derived::words")]
    class_of: Vec<u32>,
    /// Per pivot value: the element taking it to its class's representative.
    to_rep: Vec<u8>,
    /// Per class: the representative's pivot value.
    #[serde(with = "crate::table::derived::words")]
    reps: Vec<u32>,
    /// Per coordinate, per element `e`, per value `v`: `v` after `e`, at `e * radix + v`.
    #[serde(with = "value_lists")]
    maps: Vec<Values>,
    /// Per coordinate, per element `e` and paid move `p` (of `P`), per value `v`: `v`
    /// after `e` then `p`, at `(e * P + p) * radix + v`.
    #[serde(with = "value_lists")]
    moved: Vec<Values>,
    /// Number of elements of the group.
    elements: usize,
    /// The moves that cost 1.
    paid: Vec<usize>,
    /// Per coordinate, its number of values (the projection's radix).
    width: Vec<u64>,
    /// A parity every state the phase reaches keeps, when there is one: the classes then
    /// leave out the half of one coordinate's values it rules out.
    halving: Option<Halving>,
    /// The classes' radix: the projection's, the pivot's replaced by the class count (and
    /// the halved coordinate's by half its count).
    pub radix: Vec<u64>,
    /// Number of classes (ranks of the table).
    pub size: u64,
}

impl FreeQuotient {
    /// The classes of `projection` (built with move tables) under the moves whose `costs`
    /// are 0; `None` when no move is free, the group is too big, or no coordinate is
    /// moved freely by it (or the group does not act on the others through it).
    ///
    /// `puzzle` is the pattern puzzle `projection` ranks and `targets` its target states'
    /// values, for a parity every reachable state keeps (see [`Halving`]).
    pub fn new(
        puzzle: &PermPuzzle,
        projection: &Projection,
        costs: &[u8],
        targets: &[Vec<u64>],
    ) -> Option<Self> {
        let free: Vec<usize> = (0..costs.len()).filter(|&m| costs[m] == 0).collect();
        let paid: Vec<usize> = (0..costs.len()).filter(|&m| costs[m] != 0).collect();
        if free.is_empty() || paid.is_empty() {
            return None;
        }
        let moves = projection.moves;
        let mut order: Vec<usize> = (0..projection.radix.len()).collect();
        order.sort_by_key(|&j| std::cmp::Reverse(projection.radix[j]));
        for pivot in order {
            let radix = projection.radix[pivot];
            if radix < 2 || radix > u32::MAX as u64 {
                continue;
            }
            let coord = &projection.coords[pivot];
            let step = |map: &[u32], m: usize| -> Vec<u32> {
                map.iter()
                    .map(|&v| coord.apply(v as u64, m, moves) as u32)
                    .collect()
            };
            // The group's elements as maps of the pivot's values, each with the element
            // it becomes after each free move (those worked out on every core).
            let identity: Vec<u32> = (0..radix as u32).collect();
            let mut elements = vec![identity.clone()];
            let mut index: HashMap<ValueMap, usize> = HashMap::from([(ValueMap(identity), 0)]);
            let mut words: Vec<Vec<usize>> = vec![Vec::new()];
            let mut after: Vec<Vec<usize>> = Vec::new();
            let mut at = 0;
            let mut too_big = false;
            while at < elements.len() {
                let nexts: Vec<Vec<u32>> =
                    free.par_iter().map(|&m| step(&elements[at], m)).collect();
                let mut row = Vec::with_capacity(free.len());
                for (&m, next) in free.iter().zip(nexts) {
                    let next = ValueMap(next);
                    let k = match index.get(&next) {
                        Some(&k) => k,
                        None => {
                            if elements.len() == MOST_ELEMENTS {
                                too_big = true;
                                break;
                            }
                            let mut word = words[at].clone();
                            word.push(m);
                            words.push(word);
                            elements.push(next.0.clone());
                            index.insert(next, elements.len() - 1);
                            elements.len() - 1
                        }
                    };
                    row.push(k);
                }
                if too_big {
                    break;
                }
                after.push(row);
                at += 1;
            }
            let n = elements.len();
            if too_big
                || elements[1..]
                    .iter()
                    .any(|e| e.iter().enumerate().any(|(v, &w)| w as usize == v))
                || projection.radix.iter().sum::<u64>() * (n * costs.len()) as u64
                    > MOST_MAP_ENTRIES
            {
                continue;
            }
            // Every other coordinate's value after each element (its word applied), checked
            // to be a function of the element: after each free move, the next element's.
            let mut maps: Vec<Vec<u32>> = Vec::with_capacity(projection.radix.len());
            let mut acts = true;
            for (j, c) in projection.coords.iter().enumerate() {
                if j == pivot {
                    maps.push(elements.concat());
                    continue;
                }
                let r = projection.radix[j] as usize;
                let mut map = vec![0u32; n * r];
                map.par_chunks_mut(r).zip(&words).for_each(|(row, word)| {
                    for (v, out) in row.iter_mut().enumerate() {
                        *out = word.iter().fold(v as u64, |v, &m| c.apply(v, m, moves)) as u32;
                    }
                });
                acts = (0..n).into_par_iter().all(|e| {
                    free.iter().zip(&after[e]).all(|(&m, &k)| {
                        (0..r).all(|v| {
                            c.apply(map[e * r + v] as u64, m, moves) as u32 == map[k * r + v]
                        })
                    })
                });
                if !acts {
                    break;
                }
                maps.push(map);
            }
            if !acts {
                continue;
            }
            // The inverse of each element: the one that brings it back to the identity.
            let inverse: Vec<usize> = (0..n)
                .map(|e| {
                    let v = elements[e][0] as usize;
                    (0..n).find(|&i| elements[i][v] == 0).unwrap_or(0)
                })
                .collect();
            let mut class_of = vec![u32::MAX; radix as usize];
            let mut to_rep = vec![0u8; radix as usize];
            let mut reps = Vec::with_capacity(radix as usize / n);
            for v in 0..radix as usize {
                if class_of[v] != u32::MAX {
                    continue;
                }
                let class = reps.len() as u32;
                reps.push(v as u32);
                for (e, element) in elements.iter().enumerate() {
                    let w = element[v] as usize;
                    class_of[w] = class;
                    to_rep[w] = inverse[e] as u8;
                }
            }
            // A paid move that is an earlier one between two free elements joins the same
            // classes (Square-1's `Y` is `D3' X D3'`): one of them is enough.
            let paid: Vec<usize> = paid
                .iter()
                .enumerate()
                .filter(|&(i, &m)| {
                    !paid[..i].iter().any(|&earlier| {
                        (0..n).any(|before| {
                            (0..n).any(|after| {
                                projection.coords.iter().zip(&maps).all(|(c, map)| {
                                    let r = map.len() / n;
                                    (0..r).all(|v| {
                                        let turned = map[before * r + v] as u64;
                                        let moved = c.apply(turned, earlier, moves) as usize;
                                        map[after * r + moved] as u64 == c.apply(v as u64, m, moves)
                                    })
                                })
                            })
                        })
                    })
                })
                .map(|(_, &m)| m)
                .collect();
            let moved: Vec<Vec<u32>> = projection
                .coords
                .iter()
                .zip(&maps)
                .map(|(c, map)| {
                    let r = map.len() / n;
                    let mut table = vec![0u32; n * paid.len() * r];
                    table.par_chunks_mut(r).enumerate().for_each(|(at, row)| {
                        let (e, m) = (at / paid.len(), paid[at % paid.len()]);
                        for (out, &v) in row.iter_mut().zip(&map[e * r..][..r]) {
                            *out = c.apply(v as u64, m, moves) as u32;
                        }
                    });
                    table
                })
                .collect();
            let halving = Halving::find(puzzle, projection, pivot, targets);
            let mut class_radix = projection.radix.clone();
            class_radix[pivot] = reps.len() as u64;
            if let Some(h) = &halving {
                class_radix[h.coord] /= 2;
            }
            let size = class_radix.iter().product();
            return Some(Self {
                pivot,
                class_of,
                to_rep,
                reps,
                maps: maps.into_iter().map(Values::from).collect(),
                moved: moved.into_iter().map(Values::from).collect(),
                halving,
                width: projection.radix.clone(),
                elements: n,
                paid,
                radix: class_radix,
                size,
            });
        }
        None
    }

    /// Whether these classes fit `projection` (classes read back from a file): every
    /// table the right length for its coordinate and every entry in range.
    pub fn fits(&self, projection: &Projection) -> bool {
        let width = &projection.radix;
        let (n, paid) = (self.elements, self.paid.len());
        let below = |table: &[u32], bound: u64| table.iter().all(|&x| u64::from(x) < bound);
        let sized = |table: &Values, per: usize, r: u64| table.len() as u64 == per as u64 * r;
        let Some(&pivot_width) = width.get(self.pivot) else {
            return false;
        };
        let pivot_width = pivot_width as usize;
        let halving_fits = self.halving.as_ref().is_none_or(|h| {
            let Some(&r) = width.get(h.coord) else {
                return false;
            };
            h.coord != self.pivot
                && h.parities.len() == width.len()
                && h.parities.iter().zip(width).all(|(p, &r)| {
                    p.is_empty() || (p.len() as u64 == r && p.iter().all(|&x| x < 2))
                })
                && h.half.len() as u64 == r
                && below(&h.half, r.div_ceil(2))
                && h.whole.iter().all(|w| w.len() as u64 <= r && below(w, r))
        });
        self.width == *width
            && self.radix.len() == width.len()
            && self.paid.iter().all(|&m| m < projection.moves)
            && self.class_of.len() == pivot_width
            && self.to_rep.len() == pivot_width
            && self.to_rep.iter().all(|&e| (e as usize) < n)
            && below(&self.class_of, self.reps.len() as u64)
            && below(&self.reps, pivot_width as u64)
            && self.maps.len() == width.len()
            && self.moved.len() == width.len()
            && self
                .maps
                .iter()
                .zip(width)
                .all(|(t, &r)| sized(t, n, r) && t.all_below(r))
            && self
                .moved
                .iter()
                .zip(width)
                .all(|(t, &r)| sized(t, n * paid, r) && t.all_below(r))
            && halving_fits
            && self
                .radix
                .iter()
                .zip(width)
                .enumerate()
                .all(|(j, (&c, &r))| {
                    if j == self.pivot {
                        c == self.reps.len() as u64
                    } else if self.halving.as_ref().is_some_and(|h| h.coord == j) {
                        c == r / 2
                    } else {
                        c == r
                    }
                })
            && self.radix.iter().try_fold(1u64, |a, &r| a.checked_mul(r)) == Some(self.size)
    }

    /// The number of elements of the free group.
    pub fn elements(&self) -> usize {
        self.elements
    }

    /// The number of paid moves that join different classes (the others are one of them
    /// between free elements).
    pub fn paid_moves(&self) -> usize {
        self.paid.len()
    }

    /// The class (table rank) of the state with coordinate values `values`.
    #[inline]
    pub fn index(&self, values: &[u64]) -> u64 {
        let e = self.to_rep[values[self.pivot] as usize] as usize;
        let mut rank = 0u64;
        for (j, (&v, &r)) in values.iter().zip(&self.radix).enumerate() {
            let mut w = if j == self.pivot {
                self.class_of[v as usize] as u64
            } else {
                self.maps[j].get(e * self.width[j] as usize + v as usize)
            };
            if let Some(h) = self.halving.as_ref().filter(|h| h.coord == j) {
                w = h.half[w as usize] as u64;
            }
            rank = rank * r + w;
        }
        rank
    }

    /// The values after element `e`, then paid move `paid` (an index into the paid
    /// moves), written to `out`.
    #[inline]
    fn step(&self, values: &[u64], e: usize, paid: usize, out: &mut [u64]) {
        let at = e * self.paid.len() + paid;
        for ((o, &v), (table, &r)) in out
            .iter_mut()
            .zip(values)
            .zip(self.moved.iter().zip(&self.width))
        {
            *o = table.get(at * r as usize + v as usize);
        }
    }

    /// The distance of the state with values `values` (a class's, read from `value_of`:
    /// modulo 3, 3 for unreached), walked down the classes one step closer each move;
    /// `None` when unreached or deeper than `deepest`.
    pub fn distance(
        &self,
        values: &[u64],
        value_of: impl Fn(u64) -> u8,
        prefetch: impl Fn(u64),
        deepest: usize,
    ) -> Option<usize> {
        let width = self.radix.len();
        let mut here = [0u64; 32];
        here[..width].copy_from_slice(&values[..width]);
        let mut value = value_of(self.index(&here[..width]));
        if value > 2 {
            return None;
        }
        let neighbours = self.elements * self.paid.len();
        let (mut next, mut classes) = ([0u64; 32 * GROUP], [0u64; GROUP]);
        let mut distance = 0;
        // A class's neighbours are at most one step nearer or farther: the one whose value
        // is one less (mod 3) is one step nearer, and only a target's class has none.
        // Neighbours are tried a few at a time, their entries asked for before any is read.
        'walk: loop {
            if distance > deepest {
                return None;
            }
            let want = (value + 2) % 3;
            for first in (0..neighbours).step_by(GROUP) {
                let group = GROUP.min(neighbours - first);
                for (i, class) in classes[..group].iter_mut().enumerate() {
                    let k = first + i;
                    let (e, p) = (k / self.paid.len(), k % self.paid.len());
                    let out = &mut next[i * width..][..width];
                    self.step(&here[..width], e, p, out);
                    *class = self.index(out);
                    prefetch(*class);
                }
                if let Some(i) = classes[..group].iter().position(|&c| value_of(c) == want) {
                    here[..width].copy_from_slice(&next[i * width..][..width]);
                    value = want;
                    distance += 1;
                    continue 'walk;
                }
            }
            break;
        }
        (value == 0).then_some(distance)
    }

    /// The coordinate values of a class's representative.
    fn representative(&self, mut rank: u64, out: &mut [u64]) {
        for j in (0..self.radix.len()).rev() {
            out[j] = rank % self.radix[j];
            rank /= self.radix[j];
        }
        out[self.pivot] = self.reps[out[self.pivot] as usize] as u64;
        if let Some(h) = &self.halving {
            out[h.coord] = h.value(out, out[h.coord]);
        }
    }

    /// Whether one coordinate is numbered by half (a parity every reachable state keeps).
    pub fn halved(&self) -> bool {
        self.halving.is_some()
    }
}

/// The classes as a space for [`crate::search::bfs::mod3_bfs`]: a class's neighbours are
/// the classes of its representative after any element of the free group, then one paid
/// move.
pub struct QuotientSpace<'a> {
    quotient: &'a FreeQuotient,
}

impl<'a> QuotientSpace<'a> {
    /// The space of `quotient`'s classes.
    pub fn new(quotient: &'a FreeQuotient) -> Self {
        Self { quotient }
    }

    /// The class after element `e`, then the paid move `paid`, from a representative's
    /// values.
    #[inline]
    fn neighbour(&self, values: &[u64], e: usize, paid: usize) -> u64 {
        let mut next = [0u64; 32];
        let next = &mut next[..values.len()];
        self.quotient.step(values, e, paid, next);
        self.quotient.index(next)
    }
}

impl RankedSpace for QuotientSpace<'_> {
    fn size(&self) -> u64 {
        self.quotient.size
    }

    fn for_each_neighbour(&self, rank: u64, mut visit: impl FnMut(u64)) {
        self.any_neighbour(rank, |n| {
            visit(n);
            false
        });
    }

    fn any_neighbour(&self, rank: u64, mut test: impl FnMut(u64) -> bool) -> bool {
        let q = self.quotient;
        let mut values = [0u64; 32];
        let values = &mut values[..q.radix.len()];
        q.representative(rank, values);
        (0..q.elements).any(|e| (0..q.paid.len()).any(|p| test(self.neighbour(values, e, p))))
    }

    const STOPS_EARLY: bool = true;

    fn move_count(&self) -> usize {
        self.quotient.elements * self.quotient.paid.len()
    }

    fn neighbours_by_move(&self, rank: u64) -> impl Fn(usize) -> u64 + '_ {
        let q = self.quotient;
        let mut values = [0u64; 32];
        q.representative(rank, &mut values[..q.radix.len()]);
        move |k| {
            let (e, p) = (k / q.paid.len(), k % q.paid.len());
            self.neighbour(&values[..q.radix.len()], e, p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::perm::exact::exact_projection_with;
    use crate::puzzles::perm::{shipped_puzzle, PuzzleMetric};
    use crate::rng::SplitMix64;

    /// The classes with their maps in 16-bit words number every state and take every
    /// step as they do in 32-bit words: the 2x2x2 with its `U` turns free, at random
    /// values of every coordinate.
    #[test]
    fn narrow_and_wide_maps_give_the_same_classes_and_steps() {
        let puzzle = shipped_puzzle("2x2x2-fixed.tws", PuzzleMetric::Htm);
        let costs: Vec<u8> = (puzzle.moves.iter())
            .map(|m| u8::from(!m.name.starts_with('U')))
            .collect();
        let (projection, _) = exact_projection_with(&puzzle, None, true).expect("projection");
        let solved = projection.encode(&puzzle.solved).expect("solved");
        let mut target = vec![0u64; projection.radix.len()];
        projection.values(solved, &mut target);
        let narrow =
            FreeQuotient::new(&puzzle, &projection, &costs, &[target.clone()]).expect("classes");
        let mut wide = FreeQuotient::new(&puzzle, &projection, &costs, &[target]).expect("classes");
        for t in wide.maps.iter_mut().chain(&mut wide.moved) {
            *t = Values::Wide(t.words());
        }
        // Words past 16 bits stay whole.
        let big = Values::from(vec![1, 70_000, 3]);
        assert!(matches!(big, Values::Wide(_)) && big.words() == [1, 70_000, 3]);
        let narrowed = |t: &Values| matches!(t, Values::Narrow(_));
        assert!(narrow.maps.iter().chain(&narrow.moved).all(narrowed));
        assert!(narrow.fits(&projection) && wide.fits(&projection));
        let width = projection.radix.len();
        let mut rng = SplitMix64::new(9);
        let (mut a, mut b) = (vec![0u64; width], vec![0u64; width]);
        for _ in 0..2_000 {
            let values: Vec<u64> = projection.radix.iter().map(|&r| rng.below(r)).collect();
            assert_eq!(narrow.index(&values), wide.index(&values));
            for e in 0..narrow.elements {
                for paid in 0..narrow.paid.len() {
                    narrow.step(&values, e, paid, &mut a);
                    wide.step(&values, e, paid, &mut b);
                    assert_eq!(a, b);
                }
            }
        }
    }
}
