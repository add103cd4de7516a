//! Views of a payload as arrays of 2-, 4- or 8-bit entries, or of little-endian words.

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

/// A read-only array of little-endian `u16`s over borrowed bytes, read in place: a mapped
/// table is used where it lies, whatever its alignment, with no copy at open.
#[derive(Clone, Copy, Debug)]
pub struct Words16<'a> {
    bytes: &'a [u8],
}

impl<'a> Words16<'a> {
    /// Wraps `bytes` (an odd last byte is never read).
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// Entry `index`; panics if out of range.
    #[inline]
    pub fn at(&self, index: usize) -> u16 {
        let b = &self.bytes[2 * index..2 * index + 2];
        u16::from_le_bytes([b[0], b[1]])
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest entry (`None` when empty), in one pass the compiler vectorises.
    pub fn max(&self) -> Option<u16> {
        self.bytes
            .chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]))
            .reduce(u16::max)
    }
}

/// A read-only array of little-endian `u32`s over borrowed bytes, read in place (see
/// [`Words16`]).
#[derive(Clone, Copy, Debug)]
pub struct Words32<'a> {
    bytes: &'a [u8],
}

impl<'a> Words32<'a> {
    /// Wraps `bytes` (a last partial word is never read).
    pub fn new(bytes: &'a [u8]) -> Self {
        Self { bytes }
    }

    /// Entry `index`; panics if out of range.
    #[inline]
    pub fn at(&self, index: usize) -> u32 {
        let b = &self.bytes[4 * index..4 * index + 4];
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / 4
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest entry (`None` when empty), in one pass the compiler vectorises.
    pub fn max(&self) -> Option<u32> {
        self.bytes
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .reduce(u32::max)
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

    #[test]
    fn words_read_little_endian_in_place_at_any_alignment() {
        let words: Vec<u32> = (0..257u32).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        // One byte in: no word of the view is aligned.
        let shifted: Vec<u8> = std::iter::once(0xaa).chain(bytes.iter().copied()).collect();
        for at in [&bytes[..], &shifted[1..]] {
            let view = Words32::new(at);
            assert_eq!(view.len(), words.len());
            assert!(words.iter().enumerate().all(|(i, &w)| view.at(i) == w));
            assert_eq!(view.max(), words.iter().copied().max());
            let halves = Words16::new(at);
            assert_eq!(halves.len(), 2 * words.len());
            for (i, &w) in words.iter().enumerate() {
                assert_eq!(halves.at(2 * i), w as u16);
                assert_eq!(halves.at(2 * i + 1), (w >> 16) as u16);
            }
            assert_eq!(
                halves.max(),
                words
                    .iter()
                    .flat_map(|&w| [w as u16, (w >> 16) as u16])
                    .max()
            );
        }
        assert_eq!(Words16::new(&[]).max(), None);
    }
}
