//! Views of a payload as arrays of 2-, 4- or 8-bit entries.

/// Packs `values` (each below `1 << bits`) into bytes, lowest bits first.
///
/// `bits` must be 2, 4 or 8; entries never straddle a byte.
pub fn pack(values: &[u8], bits: u32) -> Vec<u8> {
    assert!(matches!(bits, 2 | 4 | 8), "unsupported entry width {bits}");
    if bits == 8 {
        return values.to_vec();
    }
    let per_byte = (8 / bits) as usize;
    let mask = (1u8 << bits) - 1;
    values
        .chunks(per_byte)
        .map(|chunk| {
            chunk.iter().enumerate().fold(0u8, |byte, (i, &v)| {
                byte | ((v & mask) << (i as u32 * bits))
            })
        })
        .collect()
}

/// Number of payload bytes needed for `entries` entries of `bits` bits.
pub fn packed_len(entries: u64, bits: u32) -> u64 {
    (entries * bits as u64).div_ceil(8)
}

/// A read-only array of 2-bit entries over borrowed bytes.
#[derive(Clone, Copy, Debug)]
pub struct Crumbs<'a> {
    bytes: &'a [u8],
}

impl<'a> Crumbs<'a> {
    /// Wraps `bytes`, four entries per byte.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// Entry `index`; panics if out of range.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        (self.bytes[index >> 2] >> ((index & 3) * 2)) & 3
    }
}

/// A read-only array of 4-bit entries over borrowed bytes.
#[derive(Clone, Copy, Debug)]
pub struct Nibbles<'a> {
    bytes: &'a [u8],
}

impl<'a> Nibbles<'a> {
    /// Wraps `bytes`, two entries per byte.
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// Entry `index`; panics if out of range.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        (self.bytes[index >> 1] >> ((index & 1) * 4)) & 15
    }

    /// Asks for the cache line of entry `index` to be loaded ahead of [`Self::get`].
    #[inline]
    pub fn prefetch(&self, index: usize) {
        super::prefetch(self.bytes, index >> 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        let values: Vec<u8> = (0..1001u32).map(|i| (i * 7 % 13) as u8).collect();
        let nibbles = pack(&values, 4);
        assert_eq!(nibbles.len() as u64, packed_len(1001, 4));
        let view = Nibbles::new(&nibbles);
        assert!(values.iter().enumerate().all(|(i, &v)| view.get(i) == v));
        let small: Vec<u8> = values.iter().map(|v| v % 4).collect();
        let crumbs = pack(&small, 2);
        assert_eq!(crumbs.len() as u64, packed_len(1001, 2));
        let view = Crumbs::new(&crumbs);
        assert!(small.iter().enumerate().all(|(i, &v)| view.get(i) == v));
    }
}
