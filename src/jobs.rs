//! Many inputs at once, on every core. Each input's work knows that it is one of many
//! side by side, and leaves the cores to the others; a lone input's work may use them
//! all itself (the phased solver searches its last phase's candidates side by side).

use rayon::prelude::*;
use std::cell::Cell;

thread_local! {
    static ONE_OF_MANY: Cell<bool> = const { Cell::new(false) };
}

/// Whether the calling work is one of many that [`map_each`] runs side by side.
pub fn one_of_many() -> bool {
    ONE_OF_MANY.with(Cell::get)
}

/// `work` on each of `items`, on every core, the answers in order. A lone item runs on
/// the calling thread, not as one of many.
pub fn map_each<T: Send, R: Send>(items: Vec<T>, work: impl Fn(T) -> R + Sync + Send) -> Vec<R> {
    if items.len() <= 1 {
        return items.into_iter().map(work).collect();
    }
    items
        .into_par_iter()
        .map(|item| {
            // Restored after: a thread may take up another item while it waits inside one.
            let before = ONE_OF_MANY.with(|flag| flag.replace(true));
            let answer = work(item);
            ONE_OF_MANY.with(|flag| flag.set(before));
            answer
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many items each see that they are one of many, in order; a lone item does not.
    #[test]
    fn items_know_whether_they_are_one_of_many() {
        let many = map_each((0..64u32).collect(), |i| (i, one_of_many()));
        assert!(many
            .iter()
            .enumerate()
            .all(|(k, &(i, flag))| i == k as u32 && flag));
        assert_eq!(
            map_each(vec![7u32], |i| (i, one_of_many())),
            vec![(7, false)]
        );
        assert!(!one_of_many());
    }
}
