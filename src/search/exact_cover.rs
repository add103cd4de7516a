//! A general exact-cover solver: Knuth's Algorithm X on bit sets.
//!
//! Items are `0..items` (at most 64), rows are non-empty sets of items given as `u64`
//! masks, and a solution is a set of rows covering every item exactly once.
//!
//! Instead of dancing links the search keeps, at each node, the set of rows still
//! compatible with the rows chosen so far, as a bit set over rows. Precomputed per item
//! (the rows containing it) and per row (the rows sharing an item with it), both as bit
//! sets, make every step a few word operations:
//! - choose the open item with the fewest compatible rows (Knuth's "minimum remaining
//!   values"; ties to the lowest item), backtracking at once if some item has none;
//! - for each of its compatible rows: take it, drop every row meeting it, recurse.
//!
//! Nothing here knows about Soma pieces.

/// Largest number of items a problem may have.
pub const MAX_ITEMS: u32 = 64;

/// What the search did: solutions found and nodes visited.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// Exact covers found.
    pub solutions: u64,
    /// Rows taken during the search (search-tree nodes below the root).
    pub nodes: u64,
}

impl std::ops::AddAssign for SearchStats {
    fn add_assign(&mut self, other: Self) {
        self.solutions += other.solutions;
        self.nodes += other.nodes;
    }
}

/// An exact-cover problem: items `0..items`, and rows as masks over them.
#[derive(Debug, Clone)]
pub struct ExactCover {
    full: u64,
    rows: Vec<u64>,
    /// Words in a bit set over rows.
    words: usize,
    /// `containing[i * words..][..words]`: the rows containing item `i`.
    containing: Vec<u64>,
    /// `meeting[r * words..][..words]`: the rows sharing an item with row `r` (itself too).
    meeting: Vec<u64>,
}

impl ExactCover {
    /// The problem of covering items `0..items` exactly with some of `rows`.
    ///
    /// # Panics
    /// If `items` exceeds [`MAX_ITEMS`], or a row is empty or names an item `>= items`
    /// (the rows are built by code, never read from input).
    pub fn new(items: u32, rows: Vec<u64>) -> Self {
        assert!(items <= MAX_ITEMS, "{items} items, at most {MAX_ITEMS}");
        let full = if items == MAX_ITEMS {
            u64::MAX
        } else {
            (1u64 << items) - 1
        };
        assert!(
            rows.iter().all(|&r| r != 0 && r & !full == 0),
            "every row must be a non-empty set of items below {items}"
        );
        let words = rows.len().div_ceil(64);
        let mut containing = vec![0u64; items as usize * words];
        for (r, &row) in rows.iter().enumerate() {
            for item in bits(row) {
                containing[item * words + r / 64] |= 1 << (r % 64);
            }
        }
        let mut meeting = vec![0u64; rows.len() * words];
        for (r, &row) in rows.iter().enumerate() {
            let out = &mut meeting[r * words..][..words];
            for item in bits(row) {
                let column = &containing[item * words..][..words];
                out.iter_mut().zip(column).for_each(|(o, &c)| *o |= c);
            }
        }
        Self {
            full,
            rows,
            words,
            containing,
            meeting,
        }
    }

    /// The rows, as given.
    pub fn rows(&self) -> &[u64] {
        &self.rows
    }

    /// Calls `visit` with the row indices of every exact cover, each cover once.
    pub fn solve(&self, visit: impl FnMut(&[u32])) -> SearchStats {
        self.solve_with(&[], visit)
    }

    /// The rows the search branches on at the root: the compatible rows of the item it
    /// chooses first. Every cover contains exactly one of them, so solving below each
    /// (see [`ExactCover::solve_with`]) splits the work, e.g. over threads, and still
    /// finds every cover exactly once.
    pub fn root_branches(&self) -> Vec<u32> {
        let alive = self.all_rows();
        match self.choose(&alive, self.full) {
            Some((item, _)) => self.rows_of(&alive, item).collect(),
            None => Vec::new(),
        }
    }

    /// Calls `visit` with every exact cover that contains all of the rows `given`, each
    /// cover once, its rows starting with `given`. Returns nothing if `given` overlap.
    pub fn solve_with(&self, given: &[u32], mut visit: impl FnMut(&[u32])) -> SearchStats {
        let mut stats = SearchStats::default();
        let mut alive = self.all_rows();
        let mut open = self.full;
        for &r in given {
            let row = self.rows[r as usize];
            if row & !open != 0 {
                return stats;
            }
            open &= !row;
            self.drop_meeting(&mut alive, r);
        }
        // One bit set of live rows per level of the search, reused throughout.
        let depth = self.full.count_ones() as usize + 1;
        let mut levels = vec![0u64; depth * self.words];
        levels[..self.words].copy_from_slice(&alive);
        let mut chosen = given.to_vec();
        self.search(&mut levels, open, &mut chosen, &mut visit, &mut stats);
        stats
    }

    fn all_rows(&self) -> Vec<u64> {
        let mut alive = vec![u64::MAX; self.words];
        if !self.rows.len().is_multiple_of(64) {
            alive[self.words - 1] = (1u64 << (self.rows.len() % 64)) - 1;
        }
        alive
    }

    fn drop_meeting(&self, alive: &mut [u64], r: u32) {
        let meeting = &self.meeting[r as usize * self.words..][..self.words];
        alive.iter_mut().zip(meeting).for_each(|(a, &m)| *a &= !m);
    }

    /// The open item with the fewest live rows, and that number (the first item with at
    /// most one live row is taken at once: nothing can beat it).
    fn choose(&self, alive: &[u64], open: u64) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        for item in bits(open) {
            let column = &self.containing[item * self.words..][..self.words];
            let count: u32 = alive
                .iter()
                .zip(column)
                .map(|(&a, &c)| (a & c).count_ones())
                .sum();
            if best.is_none_or(|(_, least)| count < least) {
                best = Some((item, count));
                if count <= 1 {
                    break;
                }
            }
        }
        best
    }

    /// The live rows containing `item`.
    fn rows_of<'s>(&'s self, alive: &'s [u64], item: usize) -> impl Iterator<Item = u32> + 's {
        let column = &self.containing[item * self.words..][..self.words];
        alive
            .iter()
            .zip(column)
            .enumerate()
            .flat_map(|(w, (&a, &c))| bits(a & c).map(move |bit| (w * 64 + bit) as u32))
    }

    fn search(
        &self,
        levels: &mut [u64],
        open: u64,
        chosen: &mut Vec<u32>,
        visit: &mut impl FnMut(&[u32]),
        stats: &mut SearchStats,
    ) {
        if open == 0 {
            stats.solutions += 1;
            visit(chosen);
            return;
        }
        let (here, below) = levels.split_at_mut(self.words);
        let Some((item, count)) = self.choose(here, open) else {
            return;
        };
        if count == 0 {
            return;
        }
        let column = &self.containing[item * self.words..][..self.words];
        for (w, (&live, &c)) in here.iter().zip(column).enumerate() {
            for bit in bits(live & c) {
                let r = w * 64 + bit;
                stats.nodes += 1;
                let meeting = &self.meeting[r * self.words..][..self.words];
                for ((next, &now), &m) in below.iter_mut().zip(here.iter()).zip(meeting) {
                    *next = now & !m;
                }
                chosen.push(r as u32);
                self.search(below, open & !self.rows[r], chosen, visit, stats);
                chosen.pop();
            }
        }
    }
}

/// The positions of the set bits of `mask`, lowest first.
fn bits(mask: u64) -> impl Iterator<Item = usize> {
    let mut rest = mask;
    std::iter::from_fn(move || {
        (rest != 0).then(|| {
            let bit = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            bit
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn all_covers(problem: &ExactCover) -> Vec<Vec<u32>> {
        let mut found = Vec::new();
        let stats = problem.solve(|rows| {
            let mut rows = rows.to_vec();
            rows.sort_unstable();
            found.push(rows);
        });
        assert_eq!(stats.solutions as usize, found.len());
        found.sort();
        found
    }

    /// Every subset of rows, kept if it is an exact cover.
    fn brute_force(items: u32, rows: &[u64]) -> Vec<Vec<u32>> {
        let full = (1u64 << items) - 1;
        let mut found = Vec::new();
        for subset in 0u32..1 << rows.len() {
            let mut covered = 0u64;
            let mut ok = true;
            for (i, &row) in rows.iter().enumerate() {
                if subset >> i & 1 == 1 {
                    ok &= row & covered == 0;
                    covered |= row;
                }
            }
            if ok && covered == full {
                found.push(
                    (0..rows.len() as u32)
                        .filter(|i| subset >> i & 1 == 1)
                        .collect(),
                );
            }
        }
        found.sort();
        found
    }

    #[test]
    fn knuths_example_has_its_one_solution() {
        // Dancing Links, Knuth (2000), items A..G = 0..6.
        let row = |items: &str| items.bytes().fold(0u64, |m, b| m | 1 << (b - b'A'));
        let rows = ["CEF", "ADG", "BCF", "AD", "BG", "DEG"].map(row);
        let problem = ExactCover::new(7, rows.to_vec());
        assert_eq!(all_covers(&problem), vec![vec![0, 3, 4]]);
    }

    #[test]
    fn domino_tilings_of_small_boards_are_counted_right() {
        // Known counts of domino tilings of an n x m board.
        for (n, m, tilings) in [
            (2, 2, 2),
            (2, 3, 3),
            (2, 8, 34),
            (3, 4, 11),
            (4, 4, 36),
            (6, 6, 6728),
        ] {
            let mut rows = Vec::new();
            for r in 0..n {
                for c in 0..m {
                    let cell = r * m + c;
                    if c + 1 < m {
                        rows.push(0b11u64 << cell);
                    }
                    if r + 1 < n {
                        rows.push(1u64 << cell | 1u64 << (cell + m));
                    }
                }
            }
            let problem = ExactCover::new(n * m, rows);
            assert_eq!(problem.solve(|_| {}).solutions, tilings, "{n} x {m}");
        }
    }

    #[test]
    fn random_problems_agree_with_brute_force() {
        let mut rng = SplitMix64::new(197);
        for round in 0..400 {
            let items = 1 + rng.below(9) as u32;
            let count = rng.below(15) as usize;
            let rows: Vec<u64> = (0..count)
                .map(|_| {
                    // Sparse rows, so that covers exist often.
                    let mut row = 0u64;
                    while row == 0 {
                        for item in 0..items {
                            if rng.below(3) == 0 {
                                row |= 1 << item;
                            }
                        }
                    }
                    row
                })
                .collect();
            let problem = ExactCover::new(items, rows.clone());
            assert_eq!(
                all_covers(&problem),
                brute_force(items, &rows),
                "round {round}: {rows:?}"
            );
        }
    }

    #[test]
    fn splitting_at_the_root_gives_every_cover_once() {
        let rows: Vec<u64> = (0..8)
            .flat_map(|i| [0b11u64 << i, 0b101u64 << i, 1u64 << i])
            .filter(|&r| r < 1 << 8)
            .collect();
        let problem = ExactCover::new(8, rows);
        let whole = all_covers(&problem);
        let mut split = Vec::new();
        let roots = problem.root_branches();
        for &r in &roots {
            problem.solve_with(&[r], |rows| {
                assert_eq!(rows[0], r);
                let mut rows = rows.to_vec();
                rows.sort_unstable();
                split.push(rows);
            });
        }
        split.sort();
        assert_eq!(split, whole);
        assert!(whole.len() > 10);
        // Overlapping given rows have no cover.
        assert_eq!(problem.solve_with(&[0, 0], |_| panic!()).solutions, 0);
    }
}
