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
//! Peak memory: two bits plus one bit per state, and a byte per group.

use super::bfs::{mod3_bfs_observed, slots_holding, Mod3Observer, RankedSpace};
use crate::progress::Progress;
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
}

impl BasedDistances {
    /// Code of `rank`: 0 within the base, 1 and 2 at `base + 1` and `base + 2`, 3 beyond.
    #[inline]
    pub fn code(&self, rank: u64) -> u8 {
        if self.within_base[(rank / 64) as usize] >> (rank % 64) & 1 == 1 {
            return 0;
        }
        match self.crumbs[(rank / 4) as usize] >> (2 * (rank % 4)) & 3 {
            3 => 3,
            // Depth base + 1 or base + 2, told apart by their residues.
            c => ((c as usize + 3 - self.base % 3) % 3) as u8,
        }
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
                let mut bits = 0u64;
                for (b, byte) in bytes.iter().enumerate() {
                    // A reached slot's lower bit, gathered into four bits.
                    let reached = !slots_holding(byte.load(Ordering::Relaxed), 3) & 0x55;
                    let pairs = (reached | reached >> 1) & 0x33;
                    bits |= u64::from((pairs | pairs >> 2) & 0x0F) << (4 * b);
                }
                let first = w as u64 * 64;
                if size - first < 64 {
                    // Padding past the last rank reads as reached: clear it.
                    bits &= (1 << (size - first)) - 1;
                }
                *word = bits;
            });
    }
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
}
