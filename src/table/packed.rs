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

/// A word of a table payload, stored little-endian.
pub trait LeWord: Copy + Ord {
    /// Its width in bytes.
    const BYTES: usize;
    /// The word in `bytes` (exactly [`LeWord::BYTES`] of them).
    fn from_le(bytes: &[u8]) -> Self;
    /// The largest word in `bytes` (`None` when it holds none), in one pass the compiler
    /// vectorises.
    fn max_in(bytes: &[u8]) -> Option<Self>;
}

impl LeWord for u16 {
    const BYTES: usize = 2;
    #[inline]
    fn from_le(b: &[u8]) -> Self {
        u16::from_le_bytes([b[0], b[1]])
    }
    fn max_in(bytes: &[u8]) -> Option<Self> {
        let (words, _) = bytes.as_chunks::<2>();
        words.iter().map(|&w| u16::from_le_bytes(w)).max()
    }
}

impl LeWord for u32 {
    const BYTES: usize = 4;
    #[inline]
    fn from_le(b: &[u8]) -> Self {
        u32::from_le_bytes([b[0], b[1], b[2], b[3]])
    }
    fn max_in(bytes: &[u8]) -> Option<Self> {
        let (words, _) = bytes.as_chunks::<4>();
        words.iter().map(|&w| u32::from_le_bytes(w)).max()
    }
}

/// A read-only array of little-endian words over borrowed bytes, read in place: a mapped
/// table is used where it lies, whatever its alignment, with no copy at open.
#[derive(Clone, Copy, Debug)]
pub struct Words<'a, W> {
    bytes: &'a [u8],
    word: std::marker::PhantomData<W>,
}

/// Little-endian `u16`s read in place.
pub type Words16<'a> = Words<'a, u16>;
/// Little-endian `u32`s read in place.
pub type Words32<'a> = Words<'a, u32>;

impl<'a, W: LeWord> Words<'a, W> {
    /// Wraps `bytes` (a last partial word is never read).
    pub fn new(bytes: &'a [u8]) -> Self {
        Self {
            bytes,
            word: std::marker::PhantomData,
        }
    }

    /// Entry `index`; panics if out of range.
    #[inline]
    pub fn at(&self, index: usize) -> W {
        W::from_le(&self.bytes[W::BYTES * index..W::BYTES * (index + 1)])
    }

    /// The number of entries.
    pub fn len(&self) -> usize {
        self.bytes.len() / W::BYTES
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The largest entry (`None` when empty).
    pub fn max(&self) -> Option<W> {
        W::max_in(self.bytes)
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
