//! The heuristic over any pattern databases (the small and medium presets): the max of
//! every table looked up on the position and on its inverse, read in two batched stages.

use super::{CubeNode, KorfSolver};
use crate::puzzles::rubik::model::metric::Metric;
use crate::puzzles::rubik::optimal::pdb::{Encoding, Entries, Pdb};
use crate::table::packed::Nibbles;

/// Largest number of table reads per position in the generic search (each table on the
/// position and on its inverse).
const MAX_READS: usize = 8;

/// Which table is read on which view of a position in the generic search, in two stages:
/// the first table on the position (view 0) and its inverse (view 1) for every child of
/// a node, the other tables only for the children the first did not prune.
#[derive(Debug, Clone, Copy)]
pub(super) struct ReadPlan {
    reads: [(u8, u8); MAX_READS],
    len: usize,
    /// Reads `..first` make the first stage, the rest the second.
    first: usize,
    /// Whether every table holds 4-bit entries.
    all_nibbles: bool,
}

impl ReadPlan {
    pub(super) fn new(tables: &[Pdb]) -> Self {
        let mut plan = ReadPlan {
            reads: [(0, 0); MAX_READS],
            len: 0,
            first: 2.min(2 * tables.len()),
            all_nibbles: tables.iter().all(|t| t.encoding() == Encoding::Nibbles),
        };
        for t in 0..tables.len() {
            for view in 0..2 {
                assert!(plan.len < MAX_READS, "too many table reads per position");
                plan.reads[plan.len] = (t as u8, view);
                plan.len += 1;
            }
        }
        plan
    }

    /// The reads of stage `s` (0 or 1).
    fn stage(&self, s: usize) -> &[(u8, u8)] {
        match s {
            0 => &self.reads[..self.first],
            _ => &self.reads[self.first..self.len],
        }
    }
}

impl KorfSolver<'_> {
    /// [`KorfSolver::bounds`] from any tables, without the coset tricks.
    ///
    /// Lookups are random reads in tables far bigger than the caches, so every index of a
    /// stage is computed before any entry is read and the reads overlap.
    pub(super) fn generic_bounds(&self, kids: &[CubeNode], budget: u32, out: &mut [u32]) {
        let plan = &self.plan;
        let tables = &self.pdbs.tables;
        let qtm = self.pdbs.metric() == Metric::Qtm;
        let n = kids.len();
        let mut best = [0u32; 18];
        let mut alive = [true; 18];
        for stage in 0..2 {
            let reads = plan.stage(stage);
            let mut index = [[0usize; MAX_READS]; 18];
            for k in (0..n).filter(|&k| alive[k]) {
                let CubeNode { cube, inv } = &kids[k];
                for (r, &(t, view)) in reads.iter().enumerate() {
                    let (view, partner) = if view == 0 { (cube, inv) } else { (inv, cube) };
                    index[k][r] = tables[t as usize]
                        .pattern()
                        .index_with_inverse(view, partner);
                }
            }
            // The reads themselves in a loop doing nothing else, so that as many as
            // possible are in flight at once.
            let mut entries = [Entries::Nibbles(Nibbles::new(&[])); MAX_READS];
            for (e, &(t, _)) in entries.iter_mut().zip(reads) {
                *e = tables[t as usize].entries();
            }
            let mut values = [[0u8; MAX_READS]; 18];
            let live = || (0..n).filter(|&k| alive[k]);
            if plan.all_nibbles {
                // The usual case (the small and medium presets), without a branch on the
                // encoding per read.
                let nibbles = entries.map(|e| match e {
                    Entries::Nibbles(nibbles) => nibbles,
                    Entries::Lines(_) => Nibbles::new(&[]),
                });
                read_stage(
                    |r, i| nibbles[r].get(i),
                    live(),
                    reads.len(),
                    &index,
                    &mut values,
                );
            } else {
                read_stage(
                    |r, i| entries[r].get(i),
                    live(),
                    reads.len(),
                    &index,
                    &mut values,
                );
            }
            for k in 0..n {
                if !alive[k] {
                    continue;
                }
                best[k] = best[k].max(u32::from(
                    *values[k][..reads.len()].iter().max().unwrap_or(&0),
                ));
                if qtm && (best[k] ^ budget) & 1 == 1 {
                    best[k] += 1;
                }
                alive[k] = best[k] <= budget;
            }
        }
        out[..n].copy_from_slice(&best[..n]);
    }
}

/// The reads of one stage, `get(read, index)` for the live children `kids`, in a loop
/// doing nothing else.
#[inline(always)]
fn read_stage(
    get: impl Fn(usize, usize) -> u8,
    kids: impl Iterator<Item = usize>,
    reads: usize,
    index: &[[usize; MAX_READS]; 18],
    values: &mut [[u8; MAX_READS]; 18],
) {
    for k in kids {
        for r in 0..reads {
            values[k][r] = get(r, index[k][r]);
        }
    }
}
