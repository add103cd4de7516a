//! How many states a puzzle has: the order of the group its moves generate, by
//! Schreier–Sims over the puzzle's stickers (exact when every piece is distinct), and the
//! count by invariants (pieces, orientations, the parities and orientation sums every
//! move keeps) that also covers identical pieces.

use super::element::{parity, Element, WILD};
use super::puzzle::PermPuzzle;
use std::fmt;

/// A non-negative integer of any size (for state counts such as 10^68).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Count(Vec<u32>);

impl Count {
    /// The number `n`.
    pub fn from_u64(n: u64) -> Self {
        let mut c = Count(vec![n as u32, (n >> 32) as u32]);
        c.trim();
        c
    }

    fn trim(&mut self) {
        while self.0.last() == Some(&0) {
            self.0.pop();
        }
    }

    /// This times `k`.
    pub fn times(&self, k: u64) -> Self {
        let mut out = Vec::with_capacity(self.0.len() + 2);
        let mut carry: u128 = 0;
        for &limb in &self.0 {
            let v = limb as u128 * k as u128 + carry;
            out.push(v as u32);
            carry = v >> 32;
        }
        while carry > 0 {
            out.push(carry as u32);
            carry >>= 32;
        }
        let mut c = Count(out);
        c.trim();
        c
    }

    /// This divided by `k` (which must divide it).
    pub fn divided(&self, k: u64) -> Self {
        let mut out = vec![0u32; self.0.len()];
        let mut rest: u128 = 0;
        for i in (0..self.0.len()).rev() {
            let v = (rest << 32) | self.0[i] as u128;
            out[i] = (v / k as u128) as u32;
            rest = v % k as u128;
        }
        let mut c = Count(out);
        c.trim();
        c
    }

    /// The value, if it fits in 64 bits.
    pub fn to_u64(&self) -> Option<u64> {
        match self.0.len() {
            0 => Some(0),
            1 => Some(self.0[0] as u64),
            2 => Some(self.0[0] as u64 | (self.0[1] as u64) << 32),
            _ => None,
        }
    }

    /// Roughly, as a float (for sizes and messages).
    pub fn approx(&self) -> f64 {
        self.0
            .iter()
            .rev()
            .fold(0.0, |acc, &limb| acc * 4_294_967_296.0 + limb as f64)
    }
}

impl fmt::Display for Count {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("0");
        }
        let mut digits = Vec::new();
        let mut n = self.clone();
        while !n.0.is_empty() {
            let q = n.divided(1_000_000_000);
            let r =
                n.0.iter()
                    .rev()
                    .fold(0u128, |acc, &l| ((acc << 32) | l as u128) % 1_000_000_000);
            digits.push(r as u32);
            n = q;
        }
        let mut text = format!("{}", digits.pop().unwrap_or(0));
        while let Some(d) = digits.pop() {
            text.push_str(&format!("{d:09}"));
        }
        f.write_str(&text)
    }
}

/// A permutation of sticker points.
pub(crate) type Perm = Vec<u16>;

pub(crate) fn compose(a: &Perm, b: &Perm) -> Perm {
    // First a, then b: point p goes to b[a[p]].
    a.iter().map(|&x| b[x as usize]).collect()
}

/// `g` becomes `g` then `b` (`compose(g, b)`), without a new permutation.
pub(crate) fn follow_in_place(g: &mut Perm, b: &Perm) {
    for x in g.iter_mut() {
        *x = b[*x as usize];
    }
}

pub(crate) fn invert(a: &Perm) -> Perm {
    let mut out = vec![0u16; a.len()];
    for (p, &x) in a.iter().enumerate() {
        out[x as usize] = p as u16;
    }
    out
}

pub(crate) fn is_identity(a: &Perm) -> bool {
    a.iter().enumerate().all(|(p, &x)| p == x as usize)
}

/// Where each set's sticker points start (a slot's points, one per orientation, in
/// turn), and how many points there are.
pub(crate) fn point_offsets(puzzle: &PermPuzzle) -> (Vec<usize>, usize) {
    let mut offsets = Vec::with_capacity(puzzle.sets.len());
    let mut total = 0usize;
    for s in &puzzle.sets {
        offsets.push(total);
        total += s.size * s.omod as usize;
    }
    (offsets, total)
}

/// A move as a permutation of the points (set, slot, orientation): the piece in slot
/// `from` lands in slot `i` with its orientation raised by the move's twist.
pub(crate) fn sticker_perm(puzzle: &PermPuzzle, element: &Element) -> Perm {
    let (offsets, total) = point_offsets(puzzle);
    let mut out = vec![0u16; total];
    for ((orbit, def), &offset) in element.orbits.iter().zip(&puzzle.sets).zip(&offsets) {
        let omod = def.omod as usize;
        for (i, (&from, &twist)) in orbit.perm.iter().zip(&orbit.ori).enumerate() {
            for o in 0..omod {
                let src = offset + from as usize * omod + o;
                let dst = offset + i * omod + (o + twist as usize) % omod;
                out[src] = dst as u16;
            }
        }
    }
    out
}

/// One level of a stabilizer chain: a base point, its orbit under the strong generators
/// that fix the earlier base points, and a transversal.
struct Level {
    base: usize,
    /// `transversal[p]`: an element taking the base point to `p`, for `p` in the orbit.
    transversal: Vec<Option<Perm>>,
    /// The inverse of each, so that sifting composes in place without inverting.
    inverses: Vec<Option<Perm>>,
    orbit: Vec<usize>,
    /// Indices of the strong generators fixing the earlier base points.
    gens: Vec<usize>,
    dirty: bool,
}

/// The order of the group generated by the puzzle's moves acting on its stickers
/// (Schreier–Sims; pieces told apart even where the solved state repeats labels). `None`
/// if it takes more than `budget` Schreier generators.
pub fn group_order(puzzle: &PermPuzzle, budget: usize) -> Option<Count> {
    Some(stabilizer_chain(puzzle, budget)?.order())
}

/// A membership test for the group of the moves (Schreier–Sims), for puzzles whose
/// pieces are all told apart: whether a state can be reached at all, answered before a
/// search that would otherwise look for a solution that does not exist.
pub struct Membership {
    chain: Chain,
    puzzle: PermPuzzle,
}

impl Membership {
    /// The test for `puzzle`, or `None` when it has identical pieces or "any"
    /// orientations, or Schreier–Sims takes more than `budget` steps.
    pub fn new(puzzle: &PermPuzzle, budget: usize) -> Option<Self> {
        if has_identical_pieces(puzzle)
            || puzzle.solved.orbits.iter().any(|o| o.ori.contains(&WILD))
        {
            return None;
        }
        Some(Self {
            chain: stabilizer_chain(puzzle, budget)?,
            puzzle: puzzle.clone(),
        })
    }

    /// Whether some sequence of the moves takes solved to `state`.
    pub fn contains(&self, state: &Element) -> bool {
        // The move taking solved to `state`: each slot's piece, from its home slot.
        let mut orbits = Vec::with_capacity(state.orbits.len());
        for ((orbit, home), def) in state
            .orbits
            .iter()
            .zip(&self.puzzle.solved.orbits)
            .zip(&self.puzzle.sets)
        {
            let mut perm = Vec::with_capacity(orbit.perm.len());
            let mut ori = Vec::with_capacity(orbit.perm.len());
            for (&label, &o) in orbit.perm.iter().zip(&orbit.ori) {
                let Some(h) = home.perm.iter().position(|&l| l == label) else {
                    return false;
                };
                perm.push(h as u8);
                ori.push(
                    ((o as u16 + def.omod as u16 - home.ori[h] as u16 % def.omod as u16)
                        % def.omod as u16) as u8,
                );
            }
            orbits.push(super::element::Orbit { perm, ori });
        }
        let g = sticker_perm(&self.puzzle, &Element { orbits });
        is_identity(&self.chain.sift(g))
    }
}

/// The stabilizer chain of the moves' group, or `None` past `budget` steps.
fn stabilizer_chain(puzzle: &PermPuzzle, budget: usize) -> Option<Chain> {
    let gens: Vec<Perm> = puzzle
        .moves
        .iter()
        .map(|m| sticker_perm(puzzle, &m.element))
        .filter(|p| !is_identity(p))
        .collect();
    chain_of(&gens, budget, Some(&told_apart_bound(puzzle)))
}

/// An upper bound on the order of the moves' group on stickers: the count by invariants
/// ([`invariant_count`]) of the puzzle with every piece told apart and every orientation
/// followed, each factor of which an element of the group must respect.
fn told_apart_bound(puzzle: &PermPuzzle) -> Count {
    let mut apart = puzzle.clone();
    for orbit in &mut apart.solved.orbits {
        for (slot, label) in orbit.perm.iter_mut().enumerate() {
            *label = slot as u8;
        }
        orbit.ori.fill(0);
    }
    invariant_count(&apart)
}

/// The stabilizer chain of the group `gens` generate (none: the trivial group on no
/// points), or `None` past `budget` steps. A chain that random elements leave with the
/// order of `bound`, an upper bound on the group's order, is complete: each level's
/// orbit lies within the true one, so a missing element would make the order smaller.
/// The deterministic check is then skipped (the 5x5x5: 7 s of Schreier generators).
fn chain_of(gens: &[Perm], budget: usize, bound: Option<&Count>) -> Option<Chain> {
    let gens = gens.to_vec();
    let degree = gens.first().map_or(0, Vec::len);
    let mut chain = Chain {
        degree,
        strong: Vec::new(),
        levels: Vec::new(),
    };
    for g in &gens {
        chain.add_generator(g.clone());
    }
    chain.add_random_elements(&gens);
    if let Some(bound) = bound {
        for level in 0..chain.levels.len() {
            chain.refresh(level);
        }
        if chain.order() == *bound {
            return Some(chain);
        }
    }
    // Then the deterministic check: every Schreier generator sifts through (a chain the
    // random elements completed passes it without a restart).
    let mut work = 0usize;
    let mut i = chain.levels.len() as isize - 1;
    'levels: while i >= 0 {
        let level = i as usize;
        chain.refresh(level);
        let orbit = chain.levels[level].orbit.clone();
        let gens = chain.levels[level].gens.clone();
        for &p in &orbit {
            for &s in &gens {
                work += 1;
                if work > budget {
                    return None;
                }
                let lv = &chain.levels[level];
                let gen = &chain.strong[s];
                let q = gen[p] as usize;
                let (Some(up), Some(uq_inverse)) = (&lv.transversal[p], &lv.inverses[q]) else {
                    continue;
                };
                // up, then gen, then uq's inverse, in one pass.
                let schreier: Perm = up
                    .iter()
                    .map(|&x| uq_inverse[gen[x as usize] as usize])
                    .collect();
                let (residue, at) = chain.strip(schreier, level + 1);
                if !is_identity(&residue) {
                    let at = chain.add_strong(residue, at);
                    i = at as isize;
                    continue 'levels;
                }
            }
        }
        i -= 1;
    }
    for level in 0..chain.levels.len() {
        chain.refresh(level);
    }
    Some(chain)
}

/// A base and strong generating set being built.
struct Chain {
    degree: usize,
    strong: Vec<Perm>,
    levels: Vec<Level>,
}

impl Chain {
    /// The product of the levels' orbit lengths (all levels fresh): the group's order
    /// when the chain is complete.
    fn order(&self) -> Count {
        self.levels
            .iter()
            .fold(Count::from_u64(1), |c, l| c.times(l.orbit.len() as u64))
    }

    /// Adds an original generator: a new base point if it fixes all the current ones.
    fn add_generator(&mut self, g: Perm) {
        let at = self
            .levels
            .iter()
            .position(|l| g[l.base] as usize != l.base)
            .unwrap_or(self.levels.len());
        self.add_strong(g, at);
    }

    /// Adds a strong generator that fixes the base points before `at` (a new base point
    /// if `at` is past the end); the levels up to `at` must be recomputed. Returns `at`.
    fn add_strong(&mut self, g: Perm, at: usize) -> usize {
        if at == self.levels.len() {
            let base = (0..self.degree)
                .find(|&p| g[p] as usize != p)
                .expect("a non-identity permutation moves a point");
            self.levels.push(Level {
                base,
                transversal: Vec::new(),
                inverses: Vec::new(),
                orbit: Vec::new(),
                gens: Vec::new(),
                dirty: true,
            });
        }
        self.strong.push(g);
        for level in &mut self.levels[..=at] {
            level.dirty = true;
        }
        at
    }

    /// Recomputes a level's generators, orbit and transversal if they are stale.
    fn refresh(&mut self, level: usize) {
        if !self.levels[level].dirty {
            return;
        }
        let earlier: Vec<usize> = self.levels[..level].iter().map(|l| l.base).collect();
        let gens: Vec<usize> = (0..self.strong.len())
            .filter(|&s| earlier.iter().all(|&b| self.strong[s][b] as usize == b))
            .collect();
        let base = self.levels[level].base;
        let mut transversal: Vec<Option<Perm>> = vec![None; self.degree];
        transversal[base] = Some((0..self.degree as u16).collect());
        let mut orbit = vec![base];
        let mut k = 0;
        while k < orbit.len() {
            let p = orbit[k];
            for &s in &gens {
                let q = self.strong[s][p] as usize;
                if transversal[q].is_none() {
                    transversal[q] = transversal[p].as_ref().map(|t| compose(t, &self.strong[s]));
                    orbit.push(q);
                }
            }
            k += 1;
        }
        let l = &mut self.levels[level];
        l.gens = gens;
        l.inverses = transversal.iter().map(|t| t.as_ref().map(invert)).collect();
        l.transversal = transversal;
        l.orbit = orbit;
        l.dirty = false;
    }

    /// Sifts `g` through every level of a finished chain (all levels fresh): the
    /// residue, the identity exactly when `g` is in the group.
    fn sift(&self, mut g: Perm) -> Perm {
        for l in &self.levels {
            match &l.inverses[g[l.base] as usize] {
                Some(inverse) => follow_in_place(&mut g, inverse),
                None => return g,
            }
        }
        g
    }

    /// Sifts random elements of the group (products of the generators, by product
    /// replacement) and adds each residue as a strong generator, until 40 in a row sift
    /// through: the chain is then complete with high probability, and the deterministic
    /// check after it is one pass instead of a restart at every new generator (the
    /// megaminx: 0.3 s instead of 12). Deterministic: a fixed seed.
    fn add_random_elements(&mut self, gens: &[Perm]) {
        if gens.is_empty() {
            return;
        }
        let mut rng = crate::rng::SplitMix64::new(0x5eed);
        // Every generator in the pool (ten at least): a pool of the first ten alone
        // generates a subgroup when there are more (the 5x5x5's first ten moves are
        // `U` and `D` turns), and its random elements would miss the rest.
        let size = gens.len().max(10);
        let mut pool: Vec<Perm> = (0..size).map(|i| gens[i % gens.len()].clone()).collect();
        let mut product: Perm = (0..self.degree as u16).collect();
        // Mix the pool first.
        for _ in 0..50 {
            self.replace(&mut pool, &mut product, &mut rng);
        }
        let mut quiet = 0;
        while quiet < 40 {
            let g = self.replace(&mut pool, &mut product, &mut rng);
            let (residue, at) = self.strip(g, 0);
            if is_identity(&residue) {
                quiet += 1;
            } else {
                self.add_strong(residue, at);
                quiet = 0;
            }
        }
    }

    /// One product-replacement step: a pool element times another (or its inverse), the
    /// running product times it; returns the running product.
    fn replace(
        &self,
        pool: &mut [Perm],
        product: &mut Perm,
        rng: &mut crate::rng::SplitMix64,
    ) -> Perm {
        let n = pool.len() as u64;
        let i = rng.below(n) as usize;
        let j = (i + 1 + rng.below(n - 1) as usize) % pool.len();
        let other = if rng.below(2) == 0 {
            pool[j].clone()
        } else {
            invert(&pool[j])
        };
        pool[i] = compose(&pool[i], &other);
        *product = compose(product, &pool[i]);
        product.clone()
    }

    /// Sifts `g` through the levels from `from`: the residue and the level where it
    /// stopped (the number of levels if it went through).
    fn strip(&mut self, mut g: Perm, from: usize) -> (Perm, usize) {
        for level in from..self.levels.len() {
            self.refresh(level);
            let l = &self.levels[level];
            let image = g[l.base] as usize;
            match &l.inverses[image] {
                Some(inverse) => follow_in_place(&mut g, inverse),
                None => return (g, level),
            }
        }
        (g, self.levels.len())
    }
}

/// The state count from invariants: per set, the arrangements of its pieces (repeated
/// labels counted once) and orientations, reduced by what every move keeps: the
/// orientation sum of a set, and the parities of sets of distinct pieces (jointly: two
/// sets whose parities always change together count one parity between them).
pub fn invariant_count(puzzle: &PermPuzzle) -> Count {
    let mut count = Count::from_u64(1);
    let mut distinct_sets = Vec::new();
    for (s, def) in puzzle.sets.iter().enumerate() {
        let solved = &puzzle.solved.orbits[s];
        let moved = puzzle.moves.iter().any(|m| {
            let o = &m.element.orbits[s];
            o.perm.iter().enumerate().any(|(i, &p)| p as usize != i)
        });
        let mut labels = solved.perm.clone();
        labels.sort_unstable();
        let distinct = labels.windows(2).all(|w| w[0] != w[1]);
        if moved {
            for k in 2..=def.size as u64 {
                count = count.times(k);
            }
            let mut run = 1u64;
            for w in labels.windows(2) {
                if w[0] == w[1] {
                    run += 1;
                    count = count.divided(run);
                } else {
                    run = 1;
                }
            }
            if distinct {
                distinct_sets.push(s);
            }
        }
        let wild = solved.ori.contains(&WILD);
        let twisted = puzzle
            .moves
            .iter()
            .any(|m| m.element.orbits[s].ori.iter().any(|&t| t != 0));
        if def.omod > 1 && !wild && twisted {
            for _ in 0..def.size {
                count = count.times(def.omod as u64);
            }
            let keeps_sum = puzzle.moves.iter().all(|m| {
                m.element.orbits[s]
                    .ori
                    .iter()
                    .map(|&t| t as u32)
                    .sum::<u32>()
                    % def.omod as u32
                    == 0
            });
            if keeps_sum {
                count = count.divided(def.omod as u64);
            }
        }
    }
    // Parities of the sets of distinct pieces: the moves span a subspace of GF(2)^d.
    let vectors: Vec<u64> = puzzle
        .moves
        .iter()
        .map(|m| {
            distinct_sets.iter().enumerate().fold(0u64, |v, (bit, &s)| {
                v | (parity(&m.element.orbits[s].perm) as u64) << bit
            })
        })
        .collect();
    let rank = gf2_rank(vectors);
    for _ in rank..distinct_sets.len() {
        count = count.divided(2);
    }
    count
}

fn gf2_rank(mut vectors: Vec<u64>) -> usize {
    let mut rank = 0;
    for bit in 0..64 {
        let Some(pivot) = vectors.iter().position(|v| v >> bit & 1 == 1) else {
            continue;
        };
        let p = vectors.swap_remove(pivot);
        for v in vectors.iter_mut() {
            if *v >> bit & 1 == 1 {
                *v ^= p;
            }
        }
        rank += 1;
    }
    rank
}

/// A uniformly random state of the puzzle: a random element of the moves' group (a
/// random coset representative at each level of the stabilizer chain, the deepest
/// applied first), applied to the solved state. Uniform over the group, hence over the
/// states it reaches (each state is reached by as many elements: identical pieces count
/// once). `None` when Schreier–Sims gives up.
pub fn random_state(puzzle: &PermPuzzle, rng: &mut crate::rng::SplitMix64) -> Option<Element> {
    if !puzzle.illegal.is_empty() {
        return random_legal_state(puzzle, rng);
    }
    let chain = cached_chain(puzzle)?;
    Some(
        puzzle
            .solved
            .then(&random_element(&chain, puzzle, rng)?, &puzzle.sets),
    )
}

/// A level of a stabilizer chain: its base point and the base point's orbit.
pub(crate) type ChainLevel = (usize, Vec<usize>);

/// The stabilizer chain of the moves' group whose base points come in `order` (a
/// permutation of the sticker points: the earliest one an element moves is taken first),
/// made afresh (not the cached chain random states are drawn from): each level's base
/// point and orbit, and whether its order equals the count by invariants with every
/// piece told apart (then parities and orientation sums are all that tell a reachable
/// arrangement). `None` when Schreier–Sims gives up.
pub(crate) fn chain_levels_in_order(
    puzzle: &PermPuzzle,
    order: &[usize],
) -> Option<(Vec<ChainLevel>, bool)> {
    let mut rank = vec![0u16; order.len()];
    for (k, &p) in order.iter().enumerate() {
        rank[p] = k as u16;
    }
    let gens: Vec<Perm> = puzzle
        .moves
        .iter()
        .map(|m| sticker_perm(puzzle, &m.element))
        .filter(|p| !is_identity(p))
        .map(|g| {
            let mut out = vec![0u16; g.len()];
            for (p, &q) in g.iter().enumerate() {
                out[rank[p] as usize] = rank[q as usize];
            }
            out
        })
        .collect();
    let bound = told_apart_bound(puzzle);
    let chain = chain_of(&gens, 50_000_000, Some(&bound))?;
    let levels = chain
        .levels
        .iter()
        .map(|l| (order[l.base], l.orbit.iter().map(|&q| order[q]).collect()))
        .collect();
    Some((levels, chain.order() == bound))
}

/// The order of the moves' group with every piece told apart (from the chain random
/// states are drawn from, made once), and whether it equals the count by invariants.
/// `None` when Schreier–Sims gives up.
pub(crate) fn told_apart_order(puzzle: &PermPuzzle) -> Option<(Count, bool)> {
    let order = cached_chain(puzzle)?.order();
    let tell = order == told_apart_bound(puzzle);
    Some((order, tell))
}

/// A uniformly random element of the moves' group, as a move of `puzzle` (pieces told
/// apart); `None` when Schreier–Sims gives up.
pub(crate) fn random_move(
    puzzle: &PermPuzzle,
    rng: &mut crate::rng::SplitMix64,
) -> Option<Element> {
    random_element(&*cached_chain(puzzle)?, puzzle, rng)
}

/// A uniformly random element of `chain`'s group, as a move of `puzzle`.
fn random_element(
    chain: &Chain,
    puzzle: &PermPuzzle,
    rng: &mut crate::rng::SplitMix64,
) -> Option<Element> {
    let degree = chain.degree;
    let mut g: Perm = (0..degree as u16).collect();
    for level in chain.levels.iter().rev() {
        let pick = level.orbit[rng.below(level.orbit.len() as u64) as usize];
        let rep = level.transversal[pick].as_ref()?;
        g = compose(&g, rep);
    }
    // Back from stickers to a move: the piece at (from, 0) lands at (slot, twist).
    let (offsets, _) = point_offsets(puzzle);
    let mut orbits = Vec::with_capacity(puzzle.sets.len());
    for (def, &offset) in puzzle.sets.iter().zip(&offsets) {
        let omod = def.omod as usize;
        let mut perm = vec![0u8; def.size];
        let mut ori = vec![0u8; def.size];
        for from in 0..def.size {
            let to = g[offset + from * omod] as usize - offset;
            perm[to / omod] = from as u8;
            ori[to / omod] = (to % omod) as u8;
        }
        orbits.push(super::element::Orbit { perm, ori });
    }
    Some(Element { orbits })
}

/// What drawing uniformly among the states legal moves reach takes, for a definition
/// with `Illegal` rules (Square-1), where the moves' group also holds states no legal
/// sequence reaches.
///
/// Legality depends only on the *shape*: each set's pieces seen as the rules that name
/// them (Square-1: where the corners' second halves are). A BFS by legal moves lists the
/// reachable shapes, each with a path from the solved shape. The loops at the solved shape
/// (a path out, a legal move, the path back) generate a group `V`; for any shape `p`
/// with path `t`, `x -> x * t` maps the states of the solved shape onto those of `p`
/// (legality follows the shape, so `t` stays legal), so every shape holds `|V|`-many
/// states' worth, and a state drawn as `solved * v * t` with `v` uniform in `V` and the
/// shape uniform is uniform among all reachable states.
struct LegalSampler {
    chain: Chain,
    /// Per reachable shape, a legal path from the solved shape, as one element.
    paths: Vec<Element>,
}

/// Most shapes [`LegalSampler`] lists.
const MAX_SHAPES: usize = 1 << 20;

impl LegalSampler {
    fn new(puzzle: &PermPuzzle) -> Option<Self> {
        use std::collections::HashMap;
        let sets = &puzzle.sets;
        // A label's class: the rules naming it (0: none).
        let class: Vec<Vec<u8>> = sets
            .iter()
            .enumerate()
            .map(|(s, _)| {
                let mut signatures: Vec<Vec<usize>> = vec![Vec::new()];
                (0..256)
                    .map(|label| {
                        let named: Vec<usize> = (0..puzzle.illegal.len())
                            .filter(|&r| {
                                puzzle.illegal[r].set == s
                                    && puzzle.illegal[r].labels.contains(&(label as u8))
                            })
                            .collect();
                        match signatures.iter().position(|x| *x == named) {
                            Some(i) => i as u8,
                            None => {
                                signatures.push(named);
                                (signatures.len() - 1) as u8
                            }
                        }
                    })
                    .collect()
            })
            .collect();
        let class = &class;
        let shape = |state: &Element| -> Vec<u8> {
            state
                .orbits
                .iter()
                .enumerate()
                .flat_map(|(s, o)| o.perm.iter().map(move |&l| class[s][l as usize]))
                .collect()
        };
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let identity = Element::identity(sets);
        index.insert(shape(&puzzle.solved), 0);
        let mut paths = vec![identity];
        let mut loops: Vec<Perm> = Vec::new();
        let mut seen: std::collections::HashSet<Perm> = std::collections::HashSet::new();
        let mut next = 0;
        while next < paths.len() {
            let here = puzzle.solved.then(&paths[next], sets);
            for m in &puzzle.moves {
                let there = here.then(&m.element, sets);
                if !puzzle.is_legal(&there) {
                    continue;
                }
                let path = paths[next].then(&m.element, sets);
                match index.get(&shape(&there)) {
                    Some(&q) => {
                        // A loop at the solved shape: out by `path`, back by `paths[q]`.
                        let g = sticker_perm(puzzle, &path.then(&paths[q].inverse(sets), sets));
                        if !is_identity(&g) && seen.insert(g.clone()) {
                            loops.push(g);
                        }
                    }
                    None => {
                        if paths.len() == MAX_SHAPES {
                            return None;
                        }
                        index.insert(shape(&there), paths.len());
                        paths.push(path);
                    }
                }
            }
            next += 1;
        }
        // The loops generate V: a chain from a few, then every loop sifted through it;
        // one that does not is added and the chain made again.
        let mut gens: Vec<Perm> = loops.iter().take(16).cloned().collect();
        let mut chain = chain_of(&gens, 50_000_000, None)?;
        loop {
            let outside: Vec<Perm> = loops
                .iter()
                .filter(|g| !is_identity(&chain.sift((*g).clone())))
                .take(8)
                .cloned()
                .collect();
            if outside.is_empty() {
                break;
            }
            gens.extend(outside);
            chain = chain_of(&gens, 50_000_000, None)?;
        }
        if chain.degree == 0 {
            chain.degree = sticker_perm(puzzle, &Element::identity(sets)).len();
        }
        Some(Self { chain, paths })
    }
}

/// A uniformly random state among those legal moves reach ([`LegalSampler`]); `None`
/// when there are too many shapes or Schreier–Sims gives up.
fn random_legal_state(puzzle: &PermPuzzle, rng: &mut crate::rng::SplitMix64) -> Option<Element> {
    let sampler = legal_sampler(puzzle)?;
    let v = random_element(&sampler.chain, puzzle, rng)?;
    let shape = &sampler.paths[rng.below(sampler.paths.len() as u64) as usize];
    Some(
        puzzle
            .solved
            .then(&v, &puzzle.sets)
            .then(shape, &puzzle.sets),
    )
}

/// The sampler of `puzzle`'s legal states, made once per puzzle and rules.
fn legal_sampler(puzzle: &PermPuzzle) -> Option<std::sync::Arc<LegalSampler>> {
    use std::collections::HashMap;
    use std::sync::{Arc, LazyLock, Mutex};
    static SAMPLERS: LazyLock<Mutex<HashMap<u64, Option<Arc<LegalSampler>>>>> =
        LazyLock::new(Default::default);
    let key = puzzle.hash ^ xxhash_rust::xxh3::xxh3_64(format!("{:?}", puzzle.illegal).as_bytes());
    let found = SAMPLERS.lock().ok()?.get(&key).cloned();
    match found {
        Some(sampler) => sampler,
        None => {
            let made = LegalSampler::new(puzzle).map(Arc::new);
            SAMPLERS.lock().ok()?.insert(key, made.clone());
            made
        }
    }
}

/// `open()` (a puzzle's tables opening) while what [`random_state`] draws `puzzle`'s
/// states from (its stabilizer chain, or its legal states' sampler) is made on the other
/// core, so that the first scramble finds it ready (Square-1's sampler: a third of a
/// fresh process's first scramble).
pub fn while_preparing_random_states<T: Send>(
    puzzle: &PermPuzzle,
    open: impl FnOnce() -> T + Send,
) -> T {
    rayon::join(open, || {
        if puzzle.illegal.is_empty() {
            cached_chain(puzzle);
        } else {
            legal_sampler(puzzle);
        }
    })
    .0
}

/// Stabilizer chains already made, by puzzle hash (Schreier–Sims on the megaminx takes a
/// second; scrambles draw many states). Made once: threads asking for one being made wait
/// for it.
fn cached_chain(puzzle: &PermPuzzle) -> Option<std::sync::Arc<Chain>> {
    use std::collections::HashMap;
    use std::sync::{Arc, LazyLock, Mutex, OnceLock};
    type Made = Arc<OnceLock<Option<Arc<Chain>>>>;
    static CHAINS: LazyLock<Mutex<HashMap<u64, Made>>> = LazyLock::new(Default::default);
    let key = puzzle.hash
        ^ xxhash_rust::xxh3::xxh3_64(
            format!(
                "{:?}",
                puzzle.moves.iter().map(|m| &m.element).collect::<Vec<_>>()
            )
            .as_bytes(),
        );
    let cell = CHAINS.lock().ok()?.entry(key).or_default().clone();
    cell.get_or_init(|| stabilizer_chain(puzzle, 50_000_000).map(Arc::new))
        .clone()
}

/// Whether `state` keeps every invariant the moves keep: each set's orientation sum
/// (where no orientation is "any"), and the parity of each set of distinct pieces that
/// every move permutes evenly. A necessary condition to be reachable, for puzzles whose
/// identical pieces rule out a membership test.
pub fn invariants_hold(puzzle: &PermPuzzle, state: &Element) -> bool {
    let facts = super::coord::set_facts(puzzle);
    puzzle.sets.iter().enumerate().all(|(s, def)| {
        let (home, here) = (&puzzle.solved.orbits[s], &state.orbits[s]);
        let omod = u64::from(def.omod.max(1));
        let fixed = here.ori.iter().chain(&home.ori).all(|&o| o != WILD);
        let sum = |o: &[u8]| o.iter().map(|&x| u64::from(x)).sum::<u64>() % omod;
        let sums = !(facts[s].keeps_sum && fixed) || sum(&here.ori) == sum(&home.ori);
        let parities = !(facts[s].keeps_parity && facts[s].distinct)
            || parity(&here.perm) == parity(&home.perm);
        sums && parities
    })
}

/// Whether a set's solved state repeats a label or leaves an orientation open.
pub fn has_identical_pieces(puzzle: &PermPuzzle) -> bool {
    puzzle.solved.orbits.iter().any(|o| {
        let mut labels = o.perm.clone();
        labels.sort_unstable();
        labels.windows(2).any(|w| w[0] == w[1]) || o.ori.contains(&WILD)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_print_and_divide_exactly() {
        let mut c = Count::from_u64(1);
        for k in 2..=30u64 {
            c = c.times(k);
        }
        assert_eq!(c.to_string(), "265252859812191058636308480000000");
        assert_eq!(c.divided(30).to_string(), "8841761993739701954543616000000");
        assert_eq!(Count::from_u64(0).to_string(), "0");
        assert_eq!(Count::from_u64(1_000_000_000).to_string(), "1000000000");
        assert_eq!(Count::from_u64(u64::MAX).to_u64(), Some(u64::MAX));
        assert_eq!(gf2_rank(vec![0b11, 0b11, 0b01]), 2);
        assert_eq!(parity(&[1, 0, 2]), 1);
        assert_eq!(parity(&[1, 2, 0]), 0);
    }
}

#[cfg(test)]
mod membership_tests {
    use super::*;
    use crate::puzzles::perm::{Definition, PuzzleMetric};

    /// A definition of `puzzles/`, compiled.
    fn shipped(file: &str) -> PermPuzzle {
        let path = format!("{}/puzzles/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).expect("definition");
        PermPuzzle::new(
            &Definition::parse(&text).expect("parses"),
            PuzzleMetric::Htm,
        )
        .expect("compiles")
    }

    /// The product of `factors`.
    fn product(factors: impl IntoIterator<Item = u64>) -> Count {
        factors
            .into_iter()
            .fold(Count::from_u64(1), |c, k| c.times(k))
    }

    /// The 5x5x5 by Schreier–Sims and by invariants, against its count from factorials:
    /// 8! 3^7 corners, 12! 2^11 midges, 24! wings, two sets of 24 centres (told apart:
    /// 24! each; by colour: 24!/(4!)^6), the parities tied as the turns tie them. Within
    /// a budget of 1,000 Schreier generators: the random elements must complete the
    /// chain (they did not when the pool held only the first ten of the 36 moves).
    #[test]
    fn the_5x5x5_counts_equal_their_factorials() {
        let puzzle = shipped("5x5x5.tws");
        let factorial = |n: u64| 2..=n;
        let corners_and_midges = || {
            factorial(8)
                .chain([3u64.pow(7), 1 << 11])
                .chain(factorial(12))
        };
        let told_apart = product(
            corners_and_midges()
                .chain(factorial(24))
                .chain(factorial(24))
                .chain(factorial(24)),
        )
        .divided(8);
        assert_eq!(group_order(&puzzle, 1_000), Some(told_apart));
        let mut identical = product(
            corners_and_midges()
                .chain(factorial(24))
                .chain(factorial(24))
                .chain(factorial(24)),
        )
        .divided(2);
        for _ in 0..12 {
            identical = identical.divided(24);
        }
        assert_eq!(invariant_count(&puzzle), identical);
    }

    #[test]
    fn flips_swaps_and_twists_alone_are_not_positions() {
        let puzzle = shipped("3x3x3.tws");
        let test = Membership::new(&puzzle, 20_000_000).expect("distinct pieces");
        assert!(test.contains(&puzzle.solved));
        let scrambled = puzzle.scrambled("R U F' D2 L B' R2").expect("moves");
        assert!(test.contains(&scrambled));
        let (corners, edges) = (0, 1);
        let mut flip = puzzle.solved.clone();
        flip.orbits[edges].ori[0] = 1;
        assert!(!test.contains(&flip));
        let mut swap = puzzle.solved.clone();
        swap.orbits[edges].perm.swap(0, 1);
        assert!(!test.contains(&swap));
        let mut twist = puzzle.solved.clone();
        twist.orbits[corners].ori[3] = 2;
        assert!(!test.contains(&twist));
        // Two swaps together (corners and edges) are a position.
        let mut both = swap.clone();
        both.orbits[corners].perm.swap(0, 1);
        assert!(test.contains(&both));
    }
}
