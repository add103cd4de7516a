//! The self-describing header at the start of every table file.

use serde::{Deserialize, Serialize};

/// Bytes that open every cubedb table file, so a stray file is never mistaken for a table.
pub const MAGIC: [u8; 8] = *b"CUBEDB\0T";

/// Version of the on-disk layout; bumped whenever the layout or any table's encoding changes.
pub const FORMAT_VERSION: u32 = 2;

/// The payload starts at a multiple of this, so it can be mapped and read page-aligned.
pub const PAYLOAD_ALIGN: u64 = 4096;

/// What a table is: everything a reader checks before trusting the payload.
///
/// Encoded with serde + bincode right after [`MAGIC`] and a little-endian `u32` length, and
/// followed by the XXH3-64 of its encoding (version 2 on; version 1 had no header checksum).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableHeader {
    /// Layout version, compared with [`FORMAT_VERSION`].
    pub format_version: u32,
    /// Puzzle the table belongs to, e.g. `rolling`.
    pub puzzle: String,
    /// What the entries mean, e.g. `answers` or `depth-mod3`.
    pub kind: String,
    /// Parameters that change the table's contents (sizes, depth limits), as `key=value` pairs.
    pub params: Vec<(String, u64)>,
    /// Number of entries in the payload.
    pub entries: u64,
    /// Width of one entry in bits (2, 4, 8, ...).
    pub bits_per_entry: u32,
    /// Exact payload length in bytes.
    pub payload_len: u64,
    /// XXH3-64 of the payload bytes.
    pub checksum: u64,
    /// Depth histogram or other per-value counts, shown by `cubedb-gen info`.
    pub histogram: Vec<u64>,
}
