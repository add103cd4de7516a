//! Whether some cube shows a given set of stickers (a cube known in part, a sticker mask),
//! decided exactly and at once, with the rule that fails when none does.
//!
//! A cube shows the named stickers exactly when its corners and its edges can each be
//! placed so that every slot shows what is named there, with corner twists summing to 0,
//! edge flips summing to 0, and the two permutations of equal parity. For one kind of
//! piece that is a search over assignments, done here by dynamic programming over the
//! slots in order: the state is the set of pieces already placed (2^8 or 2^12), the
//! orientation sum so far, and the parity of the permutation so far (placing piece `c`
//! after the pieces of `used` adds one inversion per larger piece already placed). That
//! is at most 4,096 x 3 x 2 states, so the answer takes microseconds whatever the input.

use super::cube::{Face, CORNER_NAMES, EDGE_NAMES};
use super::facelets::STICKERS;
use super::stickers::{corner_slot_stickers, edge_slot_stickers, CORNER_FACES, EDGE_FACES};

/// Checks that some cube shows face `wanted[p]` at every sticker position `p` that names
/// one (centres are ignored: they are fixed). The error names the rule that no cube can
/// keep.
pub fn some_cube_shows(wanted: &[Option<u8>; STICKERS]) -> Result<(), String> {
    check_counts(wanted)?;
    let corners = Kind {
        name: "corner",
        slots: corner_slot_stickers().iter().map(|s| s.to_vec()).collect(),
        pieces: CORNER_FACES.iter().map(|f| f.to_vec()).collect(),
        slot_names: &CORNER_NAMES,
    };
    let edges = Kind {
        name: "edge",
        slots: edge_slot_stickers().iter().map(|s| s.to_vec()).collect(),
        pieces: EDGE_FACES.iter().map(|f| f.to_vec()).collect(),
        slot_names: &EDGE_NAMES,
    };
    let corner_ends = corners.reachable(wanted)?;
    let edge_ends = edges.reachable(wanted)?;
    if !corner_ends.iter().any(|&(sum, _)| sum == 0) {
        return Err("the named corner stickers need a twisted corner (rule: the corner twists sum to a whole turn)".into());
    }
    if !edge_ends.iter().any(|&(sum, _)| sum == 0) {
        return Err(
            "the named edge stickers need a flipped edge (rule: the edge flips sum to zero)".into(),
        );
    }
    let fits =
        (0..2).any(|parity| corner_ends.contains(&(0, parity)) && edge_ends.contains(&(0, parity)));
    if !fits {
        return Err("the named stickers need corners and edges permuted with unlike parities (rule: one swap of two corners goes with one swap of two edges)".into());
    }
    Ok(())
}

/// Each colour is on 4 corners and 4 edges: more named corner (or edge) stickers of one
/// colour than that is no cube.
fn check_counts(wanted: &[Option<u8>; STICKERS]) -> Result<(), String> {
    for (what, slots) in [
        (
            "corner",
            corner_slot_stickers()
                .iter()
                .flatten()
                .copied()
                .collect::<Vec<_>>(),
        ),
        (
            "edge",
            edge_slot_stickers().iter().flatten().copied().collect(),
        ),
    ] {
        let mut counts = [0usize; 6];
        for &p in &slots {
            if let Some(face) = wanted[p] {
                counts[face as usize] += 1;
            }
        }
        if let Some(face) = counts.iter().position(|&n| n > 4) {
            return Err(format!(
                "{} {what} stickers of {}'s colour are named, and only 4 {what}s carry that colour",
                counts[face],
                Face::ALL[face].letter()
            ));
        }
    }
    Ok(())
}

/// One kind of piece: its slots (sticker positions, reference first) and its pieces
/// (faces, in the same order).
struct Kind<'a> {
    name: &'a str,
    slots: Vec<Vec<usize>>,
    pieces: Vec<Vec<Face>>,
    slot_names: &'a [&'a str],
}

impl Kind<'_> {
    /// Every (orientation sum, permutation parity) some placement of all the pieces
    /// reaches while showing the named stickers; an error when there is no placement.
    fn reachable(&self, wanted: &[Option<u8>; STICKERS]) -> Result<Vec<(usize, usize)>, String> {
        let n = self.slots.len();
        let turns = self.slots[0].len();
        // Which (piece, orientation) each slot may hold.
        let mut allowed: Vec<Vec<(usize, usize)>> = Vec::with_capacity(n);
        for (s, stickers) in self.slots.iter().enumerate() {
            let fits: Vec<(usize, usize)> = (0..n)
                .flat_map(|c| (0..turns).map(move |t| (c, t)))
                .filter(|&(c, t)| {
                    stickers.iter().enumerate().all(|(k, &p)| {
                        let shown = self.pieces[c][(k + turns - t) % turns].index() as u8;
                        wanted[p].is_none_or(|w| w == shown)
                    })
                })
                .collect();
            if fits.is_empty() {
                let named: Vec<String> = stickers
                    .iter()
                    .filter_map(|&p| wanted[p])
                    .map(|f| Face::ALL[f as usize].letter().to_string())
                    .collect();
                return Err(format!(
                    "the {} at {} is named {}, which no {} shows",
                    self.name,
                    self.slot_names[s],
                    named.join(" and "),
                    self.name
                ));
            }
            allowed.push(fits);
        }
        // reach[mask][sum * 2 + parity] after placing slots 0..popcount(mask).
        let states = 1usize << n;
        let mut reach = vec![[false; 6]; states];
        reach[0][0] = true;
        for mask in 0..states {
            let slot = mask.count_ones() as usize;
            if slot == n {
                continue;
            }
            for state in 0..turns * 2 {
                if !reach[mask][state] {
                    continue;
                }
                let (sum, parity) = (state / 2, state % 2);
                for &(c, t) in &allowed[slot] {
                    if mask >> c & 1 == 1 {
                        continue;
                    }
                    let inversions = (mask >> (c + 1)).count_ones() as usize;
                    let next = ((sum + t) % turns) * 2 + (parity + inversions) % 2;
                    reach[mask | 1 << c][next] = true;
                }
            }
        }
        let ends: Vec<(usize, usize)> = (0..turns * 2)
            .filter(|&state| reach[states - 1][state])
            .map(|state| (state / 2, state % 2))
            .collect();
        if ends.is_empty() {
            return Err(format!(
                "the named {0} stickers need one {0} in two places (rule: every {0} is on the cube once)",
                self.name
            ));
        }
        Ok(ends)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::rubik::model::cube::Cube;
    use crate::puzzles::rubik::model::facelets::faces_of_cube;
    use crate::rng::SplitMix64;

    fn some(faces: &[u8; STICKERS], keep: impl Fn(usize) -> bool) -> [Option<u8>; STICKERS] {
        std::array::from_fn(|p| keep(p).then_some(faces[p]))
    }

    #[test]
    fn every_real_cube_in_part_is_consistent() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..300 {
            let faces = faces_of_cube(&Cube::random(&mut rng));
            let mask = rng.next_u64();
            assert_eq!(
                some_cube_shows(&some(&faces, |p| mask >> p & 1 == 1)),
                Ok(())
            );
            assert_eq!(some_cube_shows(&some(&faces, |_| true)), Ok(()));
        }
    }

    #[test]
    fn impossible_sticker_sets_are_refused_with_their_rule() {
        let solved = faces_of_cube(&Cube::SOLVED);
        // Five U stickers on corners: U1, U3, U7, U9 and one more U on R3 (a corner).
        let mut five = some(&solved, |p| [0, 2, 6, 8].contains(&p));
        five[9 + 2] = Some(0);
        let err = some_cube_shows(&five).unwrap_err();
        assert!(err.contains("5 corner stickers of U's colour"), "{err}");
        // A twisted corner: URF turned in place, every other sticker named.
        let mut twisted = some(&solved, |_| true);
        let urf = corner_slot_stickers()[0];
        let shown: Vec<u8> = urf.iter().map(|&p| solved[p]).collect();
        for k in 0..3 {
            twisted[urf[k]] = Some(shown[(k + 1) % 3]);
        }
        assert!(some_cube_shows(&twisted)
            .unwrap_err()
            .contains("twisted corner"));
        // Two edges swapped, everything else named: parity.
        let mut swapped = some(&solved, |_| true);
        let (a, b) = (edge_slot_stickers()[0], edge_slot_stickers()[1]);
        for k in 0..2 {
            swapped[a[k]] = Some(solved[b[k]]);
            swapped[b[k]] = Some(solved[a[k]]);
        }
        assert!(some_cube_shows(&swapped).unwrap_err().contains("parities"));
        // The same swap with a corner left unnamed can still be a cube? No: every corner
        // named but one leaves its place and twist forced. With two corners free, a
        // corner swap fixes the parity.
        let mut fixable = swapped;
        for &p in corner_slot_stickers()[0]
            .iter()
            .chain(&corner_slot_stickers()[1])
        {
            fixable[p] = None;
        }
        assert_eq!(some_cube_shows(&fixable), Ok(()));
        // A corner showing two stickers of one colour.
        let mut double = [None; STICKERS];
        double[urf[0]] = Some(0);
        double[urf[1]] = Some(0);
        assert!(some_cube_shows(&double)
            .unwrap_err()
            .contains("which no corner shows"));
        // Two slots needing the same corner.
        let mut twice = [None; STICKERS];
        for slot in [0, 1] {
            for (k, &p) in corner_slot_stickers()[slot].iter().enumerate() {
                twice[p] = Some(solved[corner_slot_stickers()[0][k]]);
            }
        }
        assert!(some_cube_shows(&twice)
            .unwrap_err()
            .contains("one corner in two places"));
    }
}
