//! Lower bounds in two bits around a base value, one cache line per 252 entries.
//!
//! A pattern database whose distances cluster in a few values (most of a big Rubik's
//! projection lies within three layers of the deepest) keeps nearly all its pruning
//! power in two bits per entry: code 1 and 2 say `base + 1` and `base + 2` exactly, code 3
//! says `base + 3` or more, and code 0 says `base` or less. For code 0 the reader falls
//! back on the smallest distance in the entry's 64-byte line, stored in the line's last
//! byte: a lower bound from the line the entry was read from, so a fallback costs no
//! second memory access.
//!
//! Layout: lines of [`LINE_BYTES`] bytes; line `l` holds entries `252 l .. 252 l + 251`,
//! four per byte, lowest bits first, in bytes 0..63; byte 63 holds the line's minimum
//! (at most 15) in its low four bits. The base itself is not in the payload: the table's
//! histogram has `base + 4` buckets (the last counts entries at `base + 3` or more).

use rayon::prelude::*;

/// How the kinds of tables in this encoding end (`cubedb-gen info` reads their
/// histograms by it).
pub const KIND_SUFFIX: &str = "base-lines";

/// Bytes per line: one cache line.
pub const LINE_BYTES: usize = 64;

/// Entries per line: 63 bytes of 2-bit codes (the last byte is the minimum).
pub const LINE_ENTRIES: usize = 252;

/// Lines holding `entries` entries.
pub fn lines(entries: u64) -> u64 {
    entries.div_ceil(LINE_ENTRIES as u64)
}

/// Payload length in 2-bit cells (four per byte, the minimum's byte included): what a
/// table spec counts as its entries, so its payload length comes out right.
pub fn cells(entries: u64) -> u64 {
    lines(entries) * (LINE_BYTES as u64) * 4
}

/// The base of a table from its histogram (`base + 4` buckets), if the histogram can be
/// one: at least four buckets and `base + 3` at most 15.
pub fn base_of_histogram(histogram: &[u64]) -> Option<u8> {
    let base = histogram.len().checked_sub(4)?;
    (base + 3 <= 15).then_some(base as u8)
}

/// Turns `bytes`, which hold `entries` entries four per byte in any two-bit encoding
/// (byte `j`: entries `4 j .. 4 j + 3`, lowest bits first), into lines in the same
/// allocation: `recode(j, bytes[j])` gives byte `j`'s four codes (each 0..=3, in the
/// same places) and `line_min[l]` line `l`'s minimum (capped at 15; any value for a line
/// without code 0). Entries past the end are code 3, whatever their source bits.
///
/// A line's 252 entries are exactly 63 source bytes, and line `l` is written at byte
/// `64 l`, never before its source at `63 l`: the lines are made from the last one down,
/// a segment at a time (its source copied aside, then its lines written on all cores),
/// so the only memory beyond the table itself is one segment. The 8g preset's build
/// peaks at its 7.5 GB table and the 3.7 GB bitmap beside it, where a second array for
/// the lines added 7.5 GB.
pub fn pack_in_place(
    bytes: Vec<u8>,
    entries: u64,
    recode: impl Fn(u64, u8) -> u8 + Sync,
    line_min: &[u8],
) -> Vec<u8> {
    pack_in_segments(bytes, entries, recode, line_min, 1 << 16)
}

/// [`pack_in_place`], `segment_lines` lines at a time.
fn pack_in_segments(
    mut bytes: Vec<u8>,
    entries: u64,
    recode: impl Fn(u64, u8) -> u8 + Sync,
    line_min: &[u8],
    segment_lines: usize,
) -> Vec<u8> {
    const SOURCE_BYTES: usize = LINE_ENTRIES / 4;
    let line_count = lines(entries) as usize;
    assert_eq!(line_min.len(), line_count, "one minimum per line");
    assert_eq!(
        bytes.len() as u64,
        entries.div_ceil(4),
        "four entries per byte"
    );
    // Source bytes past the end are never recoded: their lines get code 3 there.
    let real_bytes = bytes.len();
    let payload_len = line_count * LINE_BYTES;
    bytes.reserve_exact(payload_len - bytes.len());
    bytes.resize(payload_len, 0xFF);
    let mut source = vec![0u8; segment_lines.min(line_count) * SOURCE_BYTES];
    let mut end = line_count;
    while end > 0 {
        let start = end.saturating_sub(segment_lines);
        let from = start * SOURCE_BYTES;
        let source = &mut source[..(end - start) * SOURCE_BYTES];
        source
            .par_chunks_mut(SOURCE_BYTES * 1024)
            .zip(bytes[from..end * SOURCE_BYTES].par_chunks(SOURCE_BYTES * 1024))
            .for_each(|(to, from)| to.copy_from_slice(from));
        // Lines below `start` keep their source: `64 start` is past `63 start`.
        bytes[start * LINE_BYTES..end * LINE_BYTES]
            .par_chunks_mut(LINE_BYTES)
            .zip(source.par_chunks(SOURCE_BYTES))
            .enumerate()
            .for_each(|(k, (line, source))| {
                let first = from + k * SOURCE_BYTES;
                let real = real_bytes.saturating_sub(first).min(SOURCE_BYTES);
                for (j, (out, &byte)) in line[..real].iter_mut().zip(source).enumerate() {
                    *out = recode((first + j) as u64, byte);
                }
                line[real..SOURCE_BYTES].fill(0xFF);
                line[LINE_BYTES - 1] = line_min[start + k].min(15);
            });
        end = start;
    }
    // The last source byte (in the last line) may hold slots past the end too.
    if !entries.is_multiple_of(4) {
        let last = real_bytes - 1;
        bytes[last / SOURCE_BYTES * LINE_BYTES + last % SOURCE_BYTES] |=
            0xFF << (2 * (entries % 4));
    }
    bytes
}

/// A read-only view of lines over borrowed bytes.
#[derive(Clone, Copy, Debug)]
pub struct BaseLines<'a> {
    bytes: &'a [u8],
    base: u8,
}

impl<'a> BaseLines<'a> {
    /// Wraps a payload of lines with base `base`.
    pub fn new(bytes: &'a [u8], base: u8) -> Self {
        Self { bytes, base }
    }

    /// Byte offset of the line holding entry `index` (to prefetch it).
    #[inline]
    pub fn line_offset(index: usize) -> usize {
        index / LINE_ENTRIES * LINE_BYTES
    }

    /// Asks for the line of entry `index` to be loaded ahead of [`Self::get`].
    #[inline]
    pub fn prefetch(&self, index: usize) {
        super::prefetch_to_l2(self.bytes, Self::line_offset(index));
    }

    /// The lower bound stored for entry `index`; panics if out of range.
    #[inline]
    pub fn get(&self, index: usize) -> u8 {
        let line = index / LINE_ENTRIES;
        let slot = index - line * LINE_ENTRIES;
        let at = line * LINE_BYTES;
        let code = self.bytes[at + slot / 4] >> (2 * (slot % 4)) & 3;
        if code == 0 {
            self.bytes[at + LINE_BYTES - 1] & 15
        } else {
            self.base + code
        }
    }

    /// Raises each `out[k]` to the lower bound of entry `indices[k]`, as [`Self::get`]
    /// would read it; panics if an index is out of range.
    ///
    /// For many random entries (a search node's children): every entry's byte and its
    /// line's minimum are loaded first, in a loop with no branch on what they hold, so
    /// their cache misses are all under way together; the codes are decoded after.
    #[inline]
    pub fn raise_to(&self, indices: &[usize], out: &mut [u8]) {
        const BATCH: usize = 128;
        for (indices, out) in indices.chunks(BATCH).zip(out.chunks_mut(BATCH)) {
            let mut code_bytes = [0u8; BATCH];
            let mut minima = [0u8; BATCH];
            for ((&index, code_byte), min) in indices.iter().zip(&mut code_bytes).zip(&mut minima) {
                let line = index / LINE_ENTRIES;
                let at = line * LINE_BYTES;
                let slot = index - line * LINE_ENTRIES;
                let bytes = &self.bytes[at..at + LINE_BYTES];
                *code_byte = bytes[slot / 4];
                *min = bytes[LINE_BYTES - 1];
            }
            for (((&index, o), &code_byte), &min) in
                indices.iter().zip(out).zip(&code_bytes).zip(&minima)
            {
                let slot = index % LINE_ENTRIES;
                let code = code_byte >> (2 * (slot % 4)) & 3;
                let value = if code == 0 {
                    min & 15
                } else {
                    self.base + code
                };
                *o = (*o).max(value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_fallbacks_read_back() {
        // Distances 0..=9 spread over three lines and a bit; base 5.
        let n = 3 * LINE_ENTRIES as u64 + 17;
        let distance = |i: u64| ((i * 7 + i / 100) % 10) as u8;
        let base = 5u8;
        let code = |i: u64| match distance(i) {
            d if d <= base => 0,
            d => (d - base).min(3),
        };
        let mins: Vec<u8> = (0..lines(n))
            .map(|l| {
                let range = l * LINE_ENTRIES as u64..((l + 1) * LINE_ENTRIES as u64).min(n);
                range.map(distance).min().unwrap_or(15)
            })
            .collect();
        // The codes four to a byte, then packed with an encoding that swaps codes 1 and
        // 2 (so that a recoding that did nothing would fail).
        let swapped = |c: u8| [0, 2, 1, 3][c as usize];
        let source: Vec<u8> = (0..n.div_ceil(4))
            .map(|j| {
                (0..4u64)
                    .map(|s| 4 * j + s)
                    .map(|i| if i < n { swapped(code(i)) } else { 0 } << (2 * (i % 4)))
                    .fold(0, |byte, bits| byte | bits)
            })
            .collect();
        let recode = |_: u64, byte: u8| {
            (0..4).fold(0, |out, s| out | swapped(byte >> (2 * s) & 3) << (2 * s))
        };
        let payload = pack_in_place(source.clone(), n, recode, &mins);
        // Segments of one or three lines write the same bytes as one segment.
        for segment_lines in [1, 3] {
            let by_segments = pack_in_segments(source.clone(), n, recode, &mins, segment_lines);
            assert!(by_segments == payload, "segments of {segment_lines} lines");
        }
        assert_eq!(payload.len() as u64, cells(n) / 4);
        let view = BaseLines::new(&payload, base);
        for i in 0..n {
            let (d, got) = (distance(i), view.get(i as usize));
            assert!(got <= d, "entry {i}: bound {got} above distance {d}");
            match d {
                d if d <= base => assert_eq!(got, mins[i as usize / LINE_ENTRIES]),
                d if d < base + 3 => assert_eq!(got, d),
                _ => assert_eq!(got, base + 3),
            }
        }
        // Past the end, whatever the source held there: code 3.
        for i in n..lines(n) * LINE_ENTRIES as u64 {
            assert_eq!(view.get(i as usize), base + 3, "padding entry {i}");
        }
        assert_eq!(base_of_histogram(&[1; 9]), Some(5));
        assert_eq!(base_of_histogram(&[1; 3]), None);
        assert_eq!(base_of_histogram(&[1; 20]), None);

        // The batched read raises each slot to exactly what `get` reads, in batches
        // longer than one buffer, and leaves higher values alone.
        let indices: Vec<usize> = (0..300).map(|k| (k * 97 + k / 7) % n as usize).collect();
        let start: Vec<u8> = (0..300).map(|k| (k % 13) as u8).collect();
        let mut raised = start.clone();
        view.raise_to(&indices, &mut raised);
        for (k, &i) in indices.iter().enumerate() {
            assert_eq!(raised[k], start[k].max(view.get(i)), "slot {k}, entry {i}");
        }
    }
}
