//! The cube at cubie level: which corner and edge sits in each slot, and how it is turned.
//!
//! Slots and cubies are named as usual (corners URF, UFL, ULB, UBR, DFR, DLF, DBL, DRB;
//! edges UR, UF, UL, UB, DR, DF, DL, DB, FR, FL, BL, BR). The quarter turns are derived
//! once from the sticker geometry in [`crate::puzzles::rubik::model::facelets`]; half and counter-clockwise turns
//! are compositions of them.

use std::fmt;
use thiserror::Error;

/// Number of corner slots.
pub const CORNERS: usize = 8;
/// Number of edge slots.
pub const EDGES: usize = 12;
/// Number of face turns (6 faces x quarter, half, counter-clockwise quarter).
pub const MOVE_COUNT: usize = 18;

/// A face, in the order U R F D L B (the facelet-string order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    /// Up.
    U,
    /// Right.
    R,
    /// Front.
    F,
    /// Down.
    D,
    /// Left.
    L,
    /// Back.
    B,
}

impl Face {
    /// All faces in URFDLB order.
    pub const ALL: [Face; 6] = [Face::U, Face::R, Face::F, Face::D, Face::L, Face::B];

    /// Index in URFDLB order.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The opposite face (U-D, R-L, F-B).
    pub fn opposite(self) -> Face {
        Face::ALL[(self.index() + 3) % 6]
    }

    /// The face's letter.
    pub fn letter(self) -> char {
        ['U', 'R', 'F', 'D', 'L', 'B'][self.index()]
    }
}

/// A face turn: index `face * 3 + (quarter turns - 1)`, quarter turns clockwise as seen
/// from outside (1 = X, 2 = X2, 3 = X').
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move(u8);

impl Move {
    /// The move turning `face` by `turns` clockwise quarter turns (1, 2 or 3).
    pub fn new(face: Face, turns: u8) -> Self {
        assert!((1..=3).contains(&turns), "turns must be 1, 2 or 3");
        Move(face as u8 * 3 + turns - 1)
    }

    /// The move with index `index` (< 18).
    pub fn from_index(index: usize) -> Self {
        assert!(index < MOVE_COUNT);
        Move(index as u8)
    }

    /// All 18 moves: U U2 U' R R2 R' ...
    pub fn all() -> impl Iterator<Item = Move> {
        (0..MOVE_COUNT as u8).map(Move)
    }

    /// The 12 quarter turns: U U' R R' ...
    pub fn quarter_turns() -> impl Iterator<Item = Move> {
        Move::all().filter(|m| m.is_quarter())
    }

    /// Index 0..18.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The face turned.
    pub fn face(self) -> Face {
        Face::ALL[self.0 as usize / 3]
    }

    /// Clockwise quarter turns (1, 2 or 3).
    pub fn turns(self) -> u8 {
        self.0 % 3 + 1
    }

    /// Whether this is a quarter turn (not a half turn).
    pub fn is_quarter(self) -> bool {
        self.turns() != 2
    }

    /// The move that undoes this one.
    pub fn inverse(self) -> Move {
        Move::new(self.face(), 4 - self.turns())
    }

    /// Quarter turns this move costs (1 or 2).
    pub fn qtm_cost(self) -> u32 {
        if self.is_quarter() {
            1
        } else {
            2
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let suffix = ["", "2", "'"][self.turns() as usize - 1];
        write!(f, "{}{}", self.face().letter(), suffix)
    }
}

/// A cube position: `cp[slot]` is the corner cubie in `slot`, `co[slot]` its twist (0..3,
/// clockwise), `ep`/`eo` the same for edges (flip 0..2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cube {
    /// Corner permutation.
    pub cp: [u8; CORNERS],
    /// Corner orientation.
    pub co: [u8; CORNERS],
    /// Edge permutation.
    pub ep: [u8; EDGES],
    /// Edge orientation.
    pub eo: [u8; EDGES],
}

impl Default for Cube {
    fn default() -> Self {
        Self::SOLVED
    }
}

/// Why a cubie-level description is not a reachable cube position.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CubeError {
    /// A corner or edge cubie is missing or present twice.
    #[error("{0}")]
    NotAPermutation(String),
    /// The corner twists do not sum to 0 mod 3.
    #[error("twisted corner: corner twists sum to {0} mod 3, not 0 (rule: twists sum to 0 mod 3)")]
    TwistedCorner(u32),
    /// The edge flips do not sum to 0 mod 2.
    #[error("flipped edge: edge flips sum to 1 mod 2, not 0 (rule: flips sum to 0 mod 2)")]
    FlippedEdge,
    /// Corner and edge permutations have different parities.
    #[error("parity mismatch: corner permutation is {corner} but edge permutation is {edge} (rule: both parities are equal)")]
    Parity {
        /// Parity of the corner permutation ("even" or "odd").
        corner: &'static str,
        /// Parity of the edge permutation.
        edge: &'static str,
    },
}

/// Names of the corner slots/cubies.
pub const CORNER_NAMES: [&str; CORNERS] = ["URF", "UFL", "ULB", "UBR", "DFR", "DLF", "DBL", "DRB"];
/// Names of the edge slots/cubies.
pub const EDGE_NAMES: [&str; EDGES] = [
    "UR", "UF", "UL", "UB", "DR", "DF", "DL", "DB", "FR", "FL", "BL", "BR",
];

/// Parity (0 even, 1 odd) of a permutation.
pub fn permutation_parity(p: &[u8]) -> u32 {
    let mut inversions = 0;
    for i in 0..p.len() {
        for j in i + 1..p.len() {
            inversions += u32::from(p[i] > p[j]);
        }
    }
    inversions % 2
}

impl Cube {
    /// The solved cube.
    pub const SOLVED: Cube = Cube {
        cp: [0, 1, 2, 3, 4, 5, 6, 7],
        co: [0; CORNERS],
        ep: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
        eo: [0; EDGES],
    };

    /// Whether the cube is solved.
    pub fn is_solved(&self) -> bool {
        *self == Cube::SOLVED
    }

    /// `self` followed by `other` (both read as "what ends up in each slot").
    #[inline]
    pub fn then(&self, other: &Cube) -> Cube {
        let mut out = Cube::SOLVED;
        for i in 0..CORNERS {
            let from = other.cp[i] as usize;
            out.cp[i] = self.cp[from];
            out.co[i] = (self.co[from] + other.co[i]) % 3;
        }
        for i in 0..EDGES {
            let from = other.ep[i] as usize;
            out.ep[i] = self.ep[from];
            out.eo[i] = self.eo[from] ^ other.eo[i];
        }
        out
    }

    /// The position that undoes this one: `c.then(&c.inverse())` is solved.
    pub fn inverse(&self) -> Cube {
        let mut out = Cube::SOLVED;
        for i in 0..CORNERS {
            let cubie = self.cp[i] as usize;
            out.cp[cubie] = i as u8;
            out.co[cubie] = (3 - self.co[i]) % 3;
        }
        for i in 0..EDGES {
            let cubie = self.ep[i] as usize;
            out.ep[cubie] = i as u8;
            out.eo[cubie] = self.eo[i];
        }
        out
    }

    /// A uniformly random reachable position (every one of the 4.3 * 10^19 equally likely):
    /// random permutations of equal parity, random twists and flips summing to zero.
    pub fn random(rng: &mut crate::rng::SplitMix64) -> Cube {
        fn shuffle(rng: &mut crate::rng::SplitMix64, p: &mut [u8]) {
            for i in (1..p.len()).rev() {
                p.swap(i, rng.below(i as u64 + 1) as usize);
            }
        }
        fn orient(rng: &mut crate::rng::SplitMix64, o: &mut [u8], modulus: u8) {
            let last = o.len() - 1;
            let mut sum = 0;
            for x in &mut o[..last] {
                *x = rng.below(modulus as u64) as u8;
                sum += *x as u32;
            }
            o[last] = ((modulus as u32 - sum % modulus as u32) % modulus as u32) as u8;
        }
        let mut cube = Cube::SOLVED;
        shuffle(rng, &mut cube.cp);
        shuffle(rng, &mut cube.ep);
        if permutation_parity(&cube.cp) != permutation_parity(&cube.ep) {
            cube.ep.swap(EDGES - 2, EDGES - 1);
        }
        orient(rng, &mut cube.co, 3);
        orient(rng, &mut cube.eo, 2);
        cube
    }

    /// Checks that this is a reachable position: permutations, twist, flip and parity.
    pub fn validate(&self) -> Result<(), CubeError> {
        check_permutation(&self.cp, &CORNER_NAMES, "corner")?;
        check_permutation(&self.ep, &EDGE_NAMES, "edge")?;
        if self.co.iter().any(|&o| o > 2) || self.eo.iter().any(|&o| o > 1) {
            return Err(CubeError::NotAPermutation(
                "orientation value out of range".into(),
            ));
        }
        let twist: u32 = self.co.iter().map(|&o| o as u32).sum::<u32>() % 3;
        if twist != 0 {
            return Err(CubeError::TwistedCorner(twist));
        }
        if self.eo.iter().map(|&o| o as u32).sum::<u32>() % 2 != 0 {
            return Err(CubeError::FlippedEdge);
        }
        let (corner, edge) = (permutation_parity(&self.cp), permutation_parity(&self.ep));
        if corner != edge {
            let name = |p| if p == 0 { "even" } else { "odd" };
            return Err(CubeError::Parity {
                corner: name(corner),
                edge: name(edge),
            });
        }
        Ok(())
    }

    /// Number of corners and edges not in their home slot with orientation 0.
    pub fn misplaced(&self) -> (u32, u32) {
        let corners = (0..CORNERS)
            .filter(|&i| self.cp[i] as usize != i || self.co[i] != 0)
            .count() as u32;
        let edges = (0..EDGES)
            .filter(|&i| self.ep[i] as usize != i || self.eo[i] != 0)
            .count() as u32;
        (corners, edges)
    }
}

fn check_permutation(p: &[u8], names: &[&str], what: &str) -> Result<(), CubeError> {
    let mut count = [0u32; EDGES];
    for &x in p {
        let x = x as usize;
        if x >= p.len() {
            return Err(CubeError::NotAPermutation(format!(
                "impossible cubie: {what} index {x} out of range"
            )));
        }
        count[x] += 1;
    }
    let count = &count[..p.len()];
    if let Some(missing) = count.iter().position(|&c| c == 0) {
        let twice = count.iter().position(|&c| c > 1).unwrap_or(missing);
        return Err(CubeError::NotAPermutation(format!(
            "impossible cubie: {what} {} appears twice and {what} {} is missing (rule: every cubie exactly once)",
            names[twice], names[missing]
        )));
    }
    Ok(())
}

/// Canonical move sequences (each position has an optimal sequence of this form, so
/// search may skip the rest): never two moves of one face in a row, and of two opposite
/// faces turned in a row, the one first in URFDLB order comes first.
///
/// Used for half-turn-metric search, where `X X` is `X2`.
#[inline]
pub fn htm_may_follow(previous: Option<Move>, mv: Move) -> bool {
    match previous {
        None => true,
        Some(p) => {
            let (pf, f) = (p.face(), mv.face());
            pf != f && !(pf.opposite() == f && pf > f)
        }
    }
}

/// Canonical quarter-turn sequences: never `X X'` or `X' X`, a half turn only as `X X`
/// (never `X' X'`), never `X X X`, and opposite faces in URFDLB order. `previous` and
/// `before` are the last two moves.
#[inline]
pub fn qtm_may_follow(before: Option<Move>, previous: Option<Move>, mv: Move) -> bool {
    let Some(p) = previous else {
        return true;
    };
    let (pf, f) = (p.face(), mv.face());
    if pf == f {
        // Same face: only X X with X clockwise, and not a third time.
        return p == mv && mv.turns() == 1 && before != Some(mv);
    }
    !(pf.opposite() == f && pf > f)
}

/// Number of canonical quarter-turn sequences of each length `0..=depth`: an upper bound
/// on the number of positions at each distance (every position has a canonical optimal
/// sequence).
pub fn canonical_qtm_counts(depth: usize) -> Vec<u64> {
    // State: (move before last, last move) as indices, 0 = none, else index + 1.
    let quarter: Vec<Move> = Move::quarter_turns().collect();
    let mut layer: std::collections::HashMap<(Option<Move>, Option<Move>), u64> =
        std::collections::HashMap::from([((None, None), 1)]);
    let mut counts = vec![1u64];
    for _ in 0..depth {
        let mut next = std::collections::HashMap::new();
        for (&(before, previous), &n) in &layer {
            for &mv in &quarter {
                if qtm_may_follow(before, previous, mv) {
                    *next.entry((previous, Some(mv))).or_insert(0) += n;
                }
            }
        }
        counts.push(next.values().sum());
        layer = next;
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::turns::MOVE_CUBES;
    use crate::rng::SplitMix64;

    #[test]
    fn move_invariants() {
        for mv in Move::all() {
            let c = MOVE_CUBES[mv.index()];
            assert!(c.validate().is_ok(), "{mv} is not a valid cube");
            assert!(!c.is_solved(), "{mv} is the identity");
            assert!(
                c.then(&MOVE_CUBES[mv.inverse().index()]).is_solved(),
                "{mv} {mv}'"
            );
            let four = Cube::from_moves(&[mv, mv, mv, mv]);
            assert!(four.is_solved(), "{mv}^4");
            assert_eq!(c.inverse(), MOVE_CUBES[mv.inverse().index()]);
        }
        let distinct: std::collections::HashSet<_> = MOVE_CUBES.iter().collect();
        assert_eq!(distinct.len(), MOVE_COUNT, "all 18 moves differ");
        for a in Move::all() {
            for b in Move::all() {
                let ab = Cube::from_moves(&[a, b]);
                let ba = Cube::from_moves(&[b, a]);
                let commute = a.face() == b.face() || a.face().opposite() == b.face();
                assert_eq!(ab == ba, commute, "{a} {b}");
            }
        }
        // A quarter turn moves 4 corners and 4 edges; the sexy move has order 6.
        for mv in Move::quarter_turns() {
            assert_eq!(MOVE_CUBES[mv.index()].misplaced(), (4, 4), "{mv}");
        }
        let sexy = [
            Move::new(Face::R, 1),
            Move::new(Face::U, 1),
            Move::new(Face::R, 3),
            Move::new(Face::U, 3),
        ];
        let mut c = Cube::SOLVED;
        for k in 1..=6 {
            c = c.apply_all(&sexy);
            assert_eq!(c.is_solved(), k == 6);
        }
    }

    #[test]
    fn random_positions_are_reachable_and_varied() {
        let mut rng = SplitMix64::new(29);
        let cubes: Vec<Cube> = (0..1000).map(|_| Cube::random(&mut rng)).collect();
        assert!(cubes.iter().all(|c| c.validate().is_ok()));
        let odd = cubes
            .iter()
            .filter(|c| permutation_parity(&c.cp) == 1)
            .count();
        assert!((400..600).contains(&odd), "{odd} odd of 1000");
        let twisted_first = cubes.iter().filter(|c| c.co[0] == 1).count();
        assert!((250..420).contains(&twisted_first), "{twisted_first}");
    }

    #[test]
    fn inverse_and_composition() {
        let mut rng = SplitMix64::new(7);
        for _ in 0..200 {
            let moves: Vec<Move> = (0..20)
                .map(|_| Move::from_index(rng.below(18) as usize))
                .collect();
            let c = Cube::from_moves(&moves);
            assert!(c.validate().is_ok());
            assert!(c.then(&c.inverse()).is_solved());
            assert!(c.inverse().then(&c).is_solved());
            let undo: Vec<Move> = moves.iter().rev().map(|m| m.inverse()).collect();
            assert!(c.apply_all(&undo).is_solved());
            assert_eq!(Cube::from_moves(&undo), c.inverse());
        }
    }

    #[test]
    fn validation_names_the_rule() {
        let mut c = Cube::SOLVED;
        c.co[0] = 1;
        assert!(matches!(c.validate(), Err(CubeError::TwistedCorner(1))));
        let mut c = Cube::SOLVED;
        c.eo[3] = 1;
        assert_eq!(c.validate(), Err(CubeError::FlippedEdge));
        let mut c = Cube::SOLVED;
        c.ep.swap(0, 1);
        assert!(matches!(c.validate(), Err(CubeError::Parity { .. })));
        let mut c = Cube::SOLVED;
        c.cp[0] = 1;
        assert!(matches!(c.validate(), Err(CubeError::NotAPermutation(_))));
    }

    #[test]
    fn canonical_counts_bound_positions() {
        let counts = canonical_qtm_counts(4);
        assert_eq!(counts[..3], [1, 12, 114]);
    }
}
