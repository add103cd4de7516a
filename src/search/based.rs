//! Distances told apart only around a base value, found in place in two bits per state:
//! the search behind 2-bit pattern databases (`crate::table::base_lines`).
//!
//! The mod-3 search ([`mod3_bfs_observed`]) runs layer by layer. After each layer the
//! states reached so far are counted; the base is the last depth before that count
//! passes a share of the space. Once it is fixed (after layer `base + 1`), every rank
//! within the base is set to hold `base % 3`, so that a rank's two bits alone give its
//! code. Most ranks are told by their residue: only those of layers `base - 2`,
//! `base - 5`, ... share one with layer `base + 1`, and those small layers are the
//! search's lists. (A space whose lists stop short of them gets a bitmap of the ranks
//! reached after each layer instead, a bit per state, as every build had before.) One
//! more layer gives `base + 2`; what is still unreached is at `base + 3` or more, and
//! the search stops there. Each group of ranks (a table line) remembers the depth at
//! which it was first reached: its smallest distance.
//!
//! Peak memory: two bits per state, the lists of the layers up to the base's (at most a
//! rank in 128), and a byte per group; the lines of the table are made in the two bits'
//! memory ([`BasedDistances::into_lines`]).

use super::bfs::{mod3_bfs_observed, word_of, word_slots_holding, Mod3Observer, RankedSpace};
use crate::progress::Progress;
use crate::table::base_lines;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

/// Distances around a base: see the module documentation.
#[derive(Debug)]
pub struct BasedDistances {
    /// Four ranks per byte: `base % 3` within the base, `(base + 1) % 3` and
    /// `(base + 2) % 3` at those depths, 3 unreached (`base + 3` or more).
    crumbs: Vec<u8>,
    /// Smallest depth in each group of ranks (255 if none was reached).
    pub group_min: Vec<u8>,
    /// The base.
    pub base: usize,
    /// States at each depth `0..=base + 2`, then those at `base + 3` or more.
    pub histogram: Vec<u64>,
    /// Ranks, and ranks per group.
    size: u64,
    group: u64,
}

impl BasedDistances {
    /// Code of `rank`: 0 within the base, 1 and 2 at `base + 1` and `base + 2`, 3 beyond.
    #[inline]
    pub fn code(&self, rank: u64) -> u8 {
        let crumb = self.crumbs[(rank / 4) as usize] >> (2 * (rank % 4)) & 3;
        code_of(crumb, self.base)
    }

    /// The codes as lines of [`crate::table::base_lines`] (groups of
    /// [`base_lines::LINE_ENTRIES`] ranks), made in the crumbs' own memory, and the
    /// histogram.
    pub fn into_lines(self) -> (Vec<u8>, Vec<u64>) {
        assert_eq!(
            self.group,
            base_lines::LINE_ENTRIES as u64,
            "one group per line"
        );
        // Byte `j` of the crumbs holds ranks `4 j .. 4 j + 3`: one lookup gives their codes.
        let codes = byte_table(|_, crumb| code_of(crumb, self.base));
        let recode = |_: u64, byte: u8| codes[byte as usize];
        let lines = base_lines::pack_in_place(self.crumbs, self.size, recode, &self.group_min);
        (lines, self.histogram)
    }
}

/// The code of a rank holding `crumb` once the ranks within the base hold `base % 3`.
#[inline]
fn code_of(crumb: u8, base: usize) -> u8 {
    match crumb {
        3 => 3,
        // Within the base, base + 1 or base + 2, told apart by their residues.
        c => ((c as usize + 3 - base % 3) % 3) as u8,
    }
}

/// `byte` (four ranks, two bits each) with each rank's two bits replaced by
/// `map(slot, crumb)`.
#[inline]
fn map_crumbs(byte: u8, map: impl Fn(usize, u8) -> u8) -> u8 {
    (0..4).fold(0, |mapped, slot| {
        mapped | map(slot, byte >> (2 * slot) & 3) << (2 * slot)
    })
}

/// [`map_crumbs`] of every byte, as a lookup table.
fn byte_table(map: impl Fn(usize, u8) -> u8) -> [u8; 256] {
    std::array::from_fn(|byte| map_crumbs(byte as u8, &map))
}

/// `byte` (four ranks) with each rank whose bit is set in `within` (its low four bits)
/// holding `residue`.
#[inline]
fn settled_within(byte: u8, within: u64, residue: u8) -> u8 {
    map_crumbs(byte, |slot, crumb| {
        if within >> slot & 1 == 1 {
            residue
        } else {
            crumb
        }
    })
}

/// What the search tells the base chooser.
struct BaseChooser {
    size: u64,
    group: u64,
    share: f64,
    group_min: Vec<AtomicU8>,
    /// Bit per rank, reached by the last layer (empty while the layers are listed).
    within: Vec<u64>,
    base: Option<usize>,
}

impl BaseChooser {
    /// Writes the bitmap of the ranks reached in `crumbs` into `within`.
    fn snapshot(&mut self, crumbs: &[AtomicU8]) {
        let size = self.size;
        self.within.resize(size.div_ceil(64) as usize, 0);
        self.within
            .par_iter_mut()
            .zip(crumbs.par_chunks(16))
            .enumerate()
            .for_each(|(w, (word, bytes))| {
                // 32 ranks a half: each reached one's lower bit, gathered into 32 bits.
                let (low, high) = bytes.split_at(bytes.len().min(8));
                let half = |bytes: &[AtomicU8]| {
                    let reached = !word_slots_holding(word_of(bytes), 3) & 0x5555_5555_5555_5555;
                    gather_even_bits(reached)
                };
                let mut bits = half(low) | half(high) << 32;
                let first = w as u64 * 64;
                if size - first < 64 {
                    // Padding past the last rank reads as reached: clear it.
                    bits &= (1 << (size - first)) - 1;
                }
                *word = bits;
            });
    }

    /// Fixes the base (layer `base + 1` just done): every rank within the base is set to
    /// hold `base % 3` in `crumbs`, so that a crumb alone gives a rank's code, and the
    /// bitmap and lists are freed: the last layers run without them.
    ///
    /// With a bitmap (of the ranks within the base), its ranks are set. Without one, the
    /// crumbs alone tell most ranks: `base % 3` is within the base, and so is
    /// `(base + 2) % 3` (layer `base + 2` is not searched yet), while `(base + 1) % 3` is
    /// layer `base + 1` or one of the layers `base - 2`, `base - 5`, ..., which are
    /// listed (`layer_done` takes a bitmap whenever a later base could need more).
    fn fix_base(&mut self, base: usize, crumbs: &[AtomicU8], lists: &mut Vec<Vec<u64>>) {
        let residue = (base % 3) as u8;
        if !self.within.is_empty() {
            self.within
                .par_iter()
                .zip(crumbs.par_chunks(16))
                .for_each(|(&word, bytes)| {
                    for (k, byte) in bytes.iter().enumerate() {
                        let within = word >> (4 * k) & 15;
                        if within != 0 {
                            let old = byte.load(Ordering::Relaxed);
                            byte.store(settled_within(old, within, residue), Ordering::Relaxed);
                        }
                    }
                });
        } else {
            let older = ((base + 2) % 3) as u8;
            let recoded = byte_table(|_, crumb| if crumb == older { residue } else { crumb });
            crumbs.par_chunks(1 << 16).for_each(|bytes| {
                for byte in bytes {
                    let old = byte.load(Ordering::Relaxed);
                    byte.store(recoded[old as usize], Ordering::Relaxed);
                }
            });
            let ambiguous = (base + 1) % 3;
            for depth in (ambiguous..base.saturating_sub(1)).step_by(3) {
                assert!(
                    depth < lists.len(),
                    "layer {depth} below the base {base} is listed"
                );
                lists[depth].par_iter().for_each(|&rank| {
                    let within = 1 << (rank % 4);
                    let set = |old: u8| Some(settled_within(old, within, residue));
                    let cell = &crumbs[(rank / 4) as usize];
                    let _ = cell.fetch_update(Ordering::Relaxed, Ordering::Relaxed, set);
                });
            }
        }
        self.within = Vec::new();
        *lists = Vec::new();
        self.base = Some(base);
    }
}

/// Bits `0, 2, 4, ..., 62` of `x` (the others clear) packed into bits `0..32`.
#[inline]
fn gather_even_bits(mut x: u64) -> u64 {
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    (x | x >> 16) & 0x0000_0000_FFFF_FFFF
}

impl Mod3Observer for BaseChooser {
    #[inline]
    fn reached(&self, rank: u64, depth: usize) {
        if self.base.is_none() {
            // Most groups already hold a smaller depth: a load spares the locked update.
            let min = &self.group_min[(rank / self.group) as usize];
            if min.load(Ordering::Relaxed) > depth as u8 {
                min.fetch_min(depth as u8, Ordering::Relaxed);
            }
        }
    }

    fn keeps_lists(&self) -> bool {
        true
    }

    fn layer_done(
        &mut self,
        depth: usize,
        histogram: &[u64],
        crumbs: &[AtomicU8],
        lists: &mut Vec<Vec<u64>>,
    ) -> bool {
        match self.base {
            Some(base) => depth < base + 2,
            None => {
                // Every rank weighs one state, so the histogram counts ranks.
                let reached: u64 = histogram.iter().sum();
                let limit = (self.share * self.size as f64) as u64;
                if depth > 0 && reached > limit {
                    // The base is the layer before: the bitmap, if taken, holds it, and
                    // the lists hold every layer up to two before it otherwise.
                    self.fix_base(depth - 1, crumbs, lists);
                } else {
                    // A base of `depth` (fixed after the next layer) needs the layers
                    // up to `depth - 2` listed; once one of them is not, a bitmap of the
                    // ranks reached is taken after every layer instead. (A bigger base
                    // is this question asked again after the next layer.)
                    if lists.len() + 1 < depth {
                        self.snapshot(crumbs);
                        *lists = Vec::new();
                    }
                    if reached > limit {
                        // Only the sources, and already past the share.
                        self.fix_base(depth, crumbs, lists);
                    }
                }
                true
            }
        }
    }
}

/// Searches `space` from `sources` keeping distances around a base: the last depth at
/// which at most `share` of the ranks are reached. `group` ranks share a minimum. Every
/// rank must weigh one state.
pub fn based_bfs<S: RankedSpace>(
    space: &S,
    sources: &[u64],
    group: u64,
    share: f64,
    progress: &Progress,
    label: &str,
) -> BasedDistances {
    let size = space.size();
    let mut chooser = BaseChooser {
        size,
        group,
        share,
        group_min: (0..size.div_ceil(group))
            .map(|_| AtomicU8::new(u8::MAX))
            .collect(),
        within: Vec::new(),
        base: None,
    };
    let result = mod3_bfs_observed(space, sources, progress, label, &mut chooser);
    let mut histogram = result.histogram;
    let mut crumbs = result.crumbs;
    let base = match chooser.base {
        Some(base) => base,
        None => {
            // A search that ran out before passing the share: everything reached is
            // within the base.
            let base = histogram.len() - 1;
            let residue = (base % 3) as u8;
            let settled = byte_table(|_, crumb| if crumb == 3 { 3 } else { residue });
            for byte in crumbs.iter_mut() {
                *byte = settled[*byte as usize];
            }
            base
        }
    };
    histogram.resize(base + 3, 0);
    let reached: u64 = histogram.iter().sum();
    histogram.push(size - reached);
    BasedDistances {
        crumbs,
        group_min: chooser
            .group_min
            .into_iter()
            .map(AtomicU8::into_inner)
            .collect(),
        base,
        histogram,
        size,
        group,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bfs::layered_bfs;
    use crate::search::bfs::tests::Torus;

    #[test]
    fn codes_split_the_exact_distances_around_the_base() {
        // Torus(200) at 1%: the layers within the base are listed and no bitmap is
        // taken; the others take bitmaps once the layers outgrow their lists.
        let cases = [
            (101u64, 0.3),
            (64, 0.05),
            (33, 0.9),
            (9, 0.0),
            (200, 0.01),
            (200, 0.011),
            (160, 0.012),
            (230, 0.009),
        ];
        for (n, share) in cases {
            let space = Torus(n);
            let sources = [0, n / 2 + 3 * n];
            let full = layered_bfs(&space, &sources, &Progress::hidden(), "full");
            let group = 37;
            let based = based_bfs(&space, &sources, group, share, &Progress::hidden(), "b");
            let base = based.base;
            // The base is the last depth with at most `share` of the ranks reached.
            let within: u64 = full.histogram[..=base].iter().sum();
            assert!(within as f64 <= share * space.size() as f64 || base == 0);
            if base + 1 < full.histogram.len() {
                let next = within + full.histogram[base + 1];
                assert!(next as f64 > share * space.size() as f64);
            }
            for (rank, &d) in full.depths.iter().enumerate() {
                let want = match d as usize {
                    d if d <= base => 0,
                    d => (d - base).min(3) as u8,
                };
                assert_eq!(based.code(rank as u64), want, "n {n} rank {rank} depth {d}");
            }
            for (g, &min) in based.group_min.iter().enumerate() {
                let range = g * group as usize..((g + 1) * group as usize).min(full.depths.len());
                let smallest = full.depths[range].iter().copied().min().unwrap_or(u8::MAX);
                if smallest as usize <= base {
                    assert_eq!(min, smallest, "group {g}");
                }
            }
            let total: u64 = based.histogram.iter().sum();
            assert_eq!(total, space.size());
            assert_eq!(based.histogram.len(), base + 4);
            assert_eq!(based.histogram[..=base], full.histogram[..=base]);
        }
    }

    #[test]
    fn lines_read_back_every_code_and_line_minimum() {
        // 4,096 and 3,721 ranks: 17 and 15 lines, the last one partial (and for 3,721
        // ending inside a byte).
        for (n, share) in [(64u64, 0.05), (64, 0.3), (61, 0.2)] {
            let space = Torus(n);
            let group = base_lines::LINE_ENTRIES as u64;
            let based = based_bfs(&space, &[5], group, share, &Progress::hidden(), "b");
            let (base, size) = (based.base, space.size());
            let codes: Vec<u8> = (0..size).map(|rank| based.code(rank)).collect();
            let minima = based.group_min.clone();
            let (lines, histogram) = based.into_lines();
            assert_eq!(lines.len() as u64, base_lines::cells(size) / 4);
            assert_eq!(histogram.len(), base + 4);
            let view = base_lines::BaseLines::new(&lines, base as u8);
            for (rank, &code) in codes.iter().enumerate() {
                let want = match code {
                    0 => minima[rank / group as usize].min(15),
                    c => base as u8 + c,
                };
                assert_eq!(view.get(rank), want, "n {n}, rank {rank}, code {code}");
            }
            assert!(codes.contains(&0) && codes.contains(&2));
        }
    }
}
