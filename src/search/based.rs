//! Distances told apart only around a base value, found in place in two bits per state:
//! the search behind 2-bit pattern databases (`crate::table::base_lines`).
//!
//! The mod-3 search ([`mod3_bfs_observed`]) runs layer by layer. After each layer the
//! states reached so far are counted; the base is the last depth before that count
//! passes a share of the space, and a bitmap of the states within the base is kept (one
//! bit per state, written after each layer until the base is fixed). Two more layers
//! give `base + 1` and `base + 2` by their depth modulo 3; what is still unreached is at
//! `base + 3` or more, and the search stops there. Each group of ranks (a table line)
//! remembers the depth at which it was first reached: its smallest distance.
//!
//! Peak memory: two bits plus one bit per state, and a byte per group; the lines of the
//! table are made in the two bits' memory ([`BasedDistances::into_lines`]).

use super::bfs::{mod3_bfs_observed, word_of, word_slots_holding, Mod3Observer, RankedSpace};
use crate::progress::Progress;
use crate::table::base_lines;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, Ordering};

/// Distances around a base: see the module documentation.
#[derive(Debug)]
pub struct BasedDistances {
    /// Depth modulo 3 of every rank reached, four per byte (3: unreached, `base + 3` or
    /// more).
    crumbs: Vec<u8>,
    /// Bit per rank: reached within the base.
    within_base: Vec<u64>,
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
        let within = self.within_base[(rank / 64) as usize] >> (rank % 64) & 1 == 1;
        let crumb = self.crumbs[(rank / 4) as usize] >> (2 * (rank % 4)) & 3;
        code_of(within, crumb, self.base)
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
        // Byte `j` of the crumbs holds ranks `4 j .. 4 j + 3`; its codes follow from it
        // and the four bits of the bitmap for the same ranks.
        let mut codes = vec![0u8; 16 * 256];
        for (at, code_byte) in codes.iter_mut().enumerate() {
            let (within, crumbs) = (at >> 8, at & 0xFF);
            *code_byte = (0..4).fold(0, |byte, slot| {
                let code = code_of(
                    within >> slot & 1 == 1,
                    (crumbs >> (2 * slot) & 3) as u8,
                    self.base,
                );
                byte | code << (2 * slot)
            });
        }
        let within_base = &self.within_base;
        let recode = |j: u64, byte: u8| {
            let within = (within_base[(j / 16) as usize] >> (4 * (j % 16)) & 15) as usize;
            codes[within << 8 | byte as usize]
        };
        let lines = base_lines::pack_in_place(self.crumbs, self.size, recode, &self.group_min);
        (lines, self.histogram)
    }
}

/// The code of a rank reached within the base or not, holding `crumb`.
#[inline]
fn code_of(within_base: bool, crumb: u8, base: usize) -> u8 {
    match (within_base, crumb) {
        (true, _) => 0,
        (false, 3) => 3,
        // Depth base + 1 or base + 2, told apart by their residues.
        (false, c) => ((c as usize + 3 - base % 3) % 3) as u8,
    }
}

/// What the search tells the base chooser.
struct BaseChooser {
    size: u64,
    group: u64,
    share: f64,
    group_min: Vec<AtomicU8>,
    within: Vec<u64>,
    base: Option<usize>,
}

impl BaseChooser {
    /// Writes the bitmap of the ranks reached in `crumbs` into `within`.
    fn snapshot(&mut self, crumbs: &[AtomicU8]) {
        let size = self.size;
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

    fn layer_done(&mut self, depth: usize, histogram: &[u64], crumbs: &[AtomicU8]) -> bool {
        match self.base {
            Some(base) => depth < base + 2,
            None => {
                // Every rank weighs one state, so the histogram counts ranks.
                let reached: u64 = histogram.iter().sum();
                let limit = (self.share * self.size as f64) as u64;
                if depth > 0 && reached > limit {
                    // The bitmap still holds the previous layer's states.
                    self.base = Some(depth - 1);
                } else {
                    self.snapshot(crumbs);
                    if reached > limit {
                        // Only the sources, and already past the share.
                        self.base = Some(depth);
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
        within: vec![0u64; size.div_ceil(64) as usize],
        base: None,
    };
    let result = mod3_bfs_observed(space, sources, progress, label, &mut chooser);
    let mut histogram = result.histogram;
    // A search that ran out before passing the share: everything reached is within
    // the base (the bitmap holds the last layer's states).
    let base = chooser.base.unwrap_or(histogram.len() - 1);
    histogram.resize(base + 3, 0);
    let reached: u64 = histogram.iter().sum();
    histogram.push(size - reached);
    BasedDistances {
        crumbs: result.crumbs,
        within_base: chooser.within,
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
        for (n, share) in [(101u64, 0.3), (64, 0.05), (33, 0.9), (9, 0.0)] {
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
