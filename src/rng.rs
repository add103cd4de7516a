//! A small deterministic random generator (SplitMix64) for tests, benchmarks and sampling.

/// SplitMix64: fast, seedable, good enough for picking random test positions.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Generator number `index` of `seed`: one per item of a batch, so that item `i` is
    /// the same however many items are made, in whatever order, on however many cores.
    ///
    /// The start is the index and the seed each run through the output mix, so streams
    /// of nearby indices are unrelated (a start of `seed ^ index·γ` made stream `i + 2`
    /// stream `i` two steps on, as the state itself advances by γ).
    pub fn stream(seed: u64, index: u64) -> Self {
        Self(mix(seed ^ mix(index ^ 0x632B_E59B_D9B4_E019)))
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        mix(self.0)
    }

    /// A number in `0..bound` (`bound` > 0).
    pub fn below(&mut self, bound: u64) -> u64 {
        ((self.next_u64() as u128 * bound as u128) >> 64) as u64
    }
}

/// SplitMix64's output function: a bijection of 64-bit words that spreads every input
/// bit over the output.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::SplitMix64;

    #[test]
    fn streams_of_nearby_indices_share_no_draws() {
        // Each stream's first 64 draws; no draw of one appears among another's.
        let draws: Vec<Vec<u64>> = (0..64)
            .map(|i| {
                let mut rng = SplitMix64::stream(1, i);
                (0..64).map(|_| rng.next_u64()).collect()
            })
            .collect();
        let mut all: Vec<u64> = draws.concat();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), 64 * 64);
    }
}
