//! Table files: a self-describing header, a checksummed payload, atomic writes and
//! read-only memory mapping.
//!
//! Layout of a `.cdb` file:
//! `MAGIC (8 bytes) | header length (u32 LE) | bincode(TableHeader) | XXH3-64 of the encoded
//! header (u64 LE) | zero padding | payload`, with the payload starting at a multiple of
//! [`header::PAYLOAD_ALIGN`]. Every byte but the padding is covered by a checksum: the
//! header's own, and the payload's (kept in the header).
//!
//! Tables up to [`READ_LIMIT`] bytes are read into memory; bigger ones are mapped
//! read-only. A mapped file must only ever be replaced by rename (as `cubedb-gen` does):
//! one truncated in place under a running process would fault on access, which
//! [`mmap`] turns into a message and exit code 1 instead of a bare bus error.

pub mod family;
pub mod header;
mod mmap;
pub mod packed;
pub mod seal;
mod store;

pub use family::{GroupMember, Rebuild, TableFamily, TableGroup};
pub use header::{TableHeader, FORMAT_VERSION, MAGIC, PAYLOAD_ALIGN};
pub use store::TableStore;

use memmap2::Mmap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use thiserror::Error;

/// What a caller expects a table file to be; opening checks the file against it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableSpec {
    /// File stem under the data directory, e.g. `rolling-answers` -> `rolling-answers.cdb`.
    pub name: &'static str,
    /// The `cubedb-gen` target that builds this table, named in every error about it.
    pub group: &'static str,
    /// Puzzle the table belongs to.
    pub puzzle: &'static str,
    /// What the entries mean.
    pub kind: &'static str,
    /// Parameters the contents depend on.
    pub params: Vec<(String, u64)>,
    /// Number of entries.
    pub entries: u64,
    /// Width of one entry in bits.
    pub bits_per_entry: u32,
}

impl TableSpec {
    /// File name of this table inside a data directory.
    pub fn file_name(&self) -> String {
        format!("{}.cdb", self.name)
    }

    /// Payload length in bytes implied by entries and entry width.
    pub fn payload_len(&self) -> u64 {
        packed::packed_len(self.entries, self.bits_per_entry)
    }

    fn describe_params(params: &[(String, u64)]) -> String {
        params
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

/// Why a table file cannot be used. Every message names the file and how to rebuild it.
#[derive(Debug, Error)]
pub enum TableError {
    /// The file does not exist.
    #[error("table {path} is missing; build it with `cubedb-gen {group}`")]
    Missing { path: PathBuf, group: &'static str },
    /// Reading or writing failed.
    #[error("table {path}: {action}: {error}")]
    Io {
        path: PathBuf,
        /// What was being done, e.g. "cannot open".
        action: &'static str,
        error: io::Error,
    },
    /// Something other than a regular file (a folder, a FIFO, a device) has the table's
    /// name; it is never opened, since reading a FIFO or device could wait forever.
    #[error("table {path} is {kind}, not a regular file; remove it, then build the table with `cubedb-gen {group}`")]
    NotAFile {
        path: PathBuf,
        group: &'static str,
        /// What it is instead, e.g. "a folder".
        kind: &'static str,
    },
    /// The data directory is not a folder.
    #[error("data directory {dir} is not a folder")]
    DataDirNotAFolder { dir: PathBuf },
    /// The file does not start with the cubedb magic bytes.
    #[error(
        "{path} is not a cubedb table (bad magic); rebuild it with `cubedb-gen {group} --force`"
    )]
    NotATable { path: PathBuf, group: &'static str },
    /// The header could not be decoded.
    #[error("table {path} has an unreadable header ({reason}); rebuild it with `cubedb-gen {group} --force`")]
    BadHeader {
        path: PathBuf,
        group: &'static str,
        reason: String,
    },
    /// The file was written by another version of the format.
    #[error("table {path} has format version {found}, this cubedb reads version {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongVersion {
        path: PathBuf,
        group: &'static str,
        found: u32,
        expected: u32,
    },
    /// The header describes a different table than the one asked for.
    #[error("table {path} holds {found}, expected {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongTable {
        path: PathBuf,
        group: &'static str,
        found: String,
        expected: String,
    },
    /// The file is shorter or longer than its header says.
    #[error("table {path} is truncated or padded: {actual} bytes, expected {expected}; rebuild it with `cubedb-gen {group} --force`")]
    WrongLength {
        path: PathBuf,
        group: &'static str,
        actual: u64,
        expected: u64,
    },
    /// The payload does not match its checksum (or its contents break the table's rules).
    #[error("table {path} is corrupted (checksum mismatch); rebuild it with `cubedb-gen {group} --force`")]
    Corrupted { path: PathBuf, group: &'static str },
    /// The header does not match its own checksum.
    #[error("table {path} has a corrupted header (header checksum mismatch); rebuild it with `cubedb-gen {group} --force`")]
    HeaderCorrupted { path: PathBuf, group: &'static str },
}

/// Tables up to this many bytes are read into memory rather than mapped: they cost little
/// to copy, and a copy cannot change or vanish under a running query.
pub const READ_LIMIT: u64 = 16 << 20;

/// Where a table's bytes live.
#[derive(Debug)]
enum TableBytes {
    /// Read into memory (small tables).
    Owned(Vec<u8>),
    /// Mapped read-only (big tables).
    Mapped(Mmap),
}

impl std::ops::Deref for TableBytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        match self {
            TableBytes::Owned(bytes) => bytes,
            TableBytes::Mapped(map) => map,
        }
    }
}

/// A verified table file, read into memory or mapped.
#[derive(Debug)]
pub struct Table {
    path: PathBuf,
    header: TableHeader,
    bytes: TableBytes,
    payload_offset: usize,
}

/// Whether a regular file is at `path`: `Ok(false)` if nothing is, an error for anything
/// else there (a folder, a FIFO) or when the path cannot be examined. Checked before any
/// open, since opening a FIFO for reading waits for a writer.
pub fn probe(path: &Path, group: &'static str) -> Result<bool, TableError> {
    match fs::metadata(path) {
        Ok(meta) if meta.is_file() => Ok(true),
        Ok(meta) => Err(TableError::NotAFile {
            path: path.to_path_buf(),
            group,
            kind: file_kind(&meta.file_type()),
        }),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(error) => Err(TableError::Io {
            path: path.to_path_buf(),
            action: "cannot examine",
            error,
        }),
    }
}

/// What a non-regular file is, for messages.
fn file_kind(kind: &fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a FIFO";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a folder"
    } else {
        "not a regular file"
    }
}

/// Opens the regular file at `path` for reading: missing, unreadable or anything but a
/// regular file is an error, decided before the open (a FIFO would block it) and checked
/// again on the open file.
fn open_regular(path: &Path, group: &'static str) -> Result<(File, fs::Metadata), TableError> {
    let io_err = |action, error| TableError::Io {
        path: path.to_path_buf(),
        action,
        error,
    };
    if !probe(path, group)? {
        return Err(TableError::Missing {
            path: path.to_path_buf(),
            group,
        });
    }
    let file = File::open(path).map_err(|e| io_err("cannot open", e))?;
    let meta = file.metadata().map_err(|e| io_err("cannot examine", e))?;
    if !meta.is_file() {
        // Replaced by something else between the check and the open.
        return Err(TableError::NotAFile {
            path: path.to_path_buf(),
            group,
            kind: file_kind(&meta.file_type()),
        });
    }
    Ok((file, meta))
}

/// How much [`Table::open_checked`] hashes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verify {
    /// Hash the payload unless the table is mapped and its seal ([`seal`]) says this very
    /// file was verified before.
    TrustSeal,
    /// Always hash the payload (`cubedb-gen verify`).
    Full,
}

impl Table {
    /// Opens `path`, checks it against `spec` and its checksums, and reads or maps it;
    /// a big table verified before and unchanged since is not hashed again ([`seal`]).
    pub fn open(path: &Path, spec: &TableSpec) -> Result<Self, TableError> {
        Self::open_checked(path, spec, Verify::TrustSeal)
    }

    /// [`Table::open`], hashing as `verify` says.
    ///
    /// Nothing in the payload is looked at before magic, header checksum, version,
    /// identity and length have been checked.
    pub fn open_checked(path: &Path, spec: &TableSpec, verify: Verify) -> Result<Self, TableError> {
        let group = spec.group;
        let io_err = |action, error| TableError::Io {
            path: path.to_path_buf(),
            action,
            error,
        };
        let (file, meta) = open_regular(path, group)?;
        let bytes = if meta.len() <= READ_LIMIT {
            use std::io::Read;
            let mut bytes = Vec::with_capacity(meta.len() as usize);
            (&file)
                .take(READ_LIMIT + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| io_err("cannot read", e))?;
            TableBytes::Owned(bytes)
        } else {
            TableBytes::Mapped(mmap::map_read_only(&file).map_err(|e| io_err("cannot map", e))?)
        };
        let (header, payload_offset) = decode_header(&bytes, path, group)?;
        let found = identity(
            &header.puzzle,
            &header.kind,
            &header.params,
            header.entries,
            header.bits_per_entry,
            header.payload_len,
        );
        let expected = identity(
            spec.puzzle,
            spec.kind,
            &spec.params,
            spec.entries,
            spec.bits_per_entry,
            spec.payload_len(),
        );
        if found != expected {
            return Err(TableError::WrongTable {
                path: path.to_path_buf(),
                group,
                found,
                expected,
            });
        }
        let expected_len = payload_offset as u64 + header.payload_len;
        if bytes.len() as u64 != expected_len {
            return Err(TableError::WrongLength {
                path: path.to_path_buf(),
                group,
                actual: bytes.len() as u64,
                expected: expected_len,
            });
        }
        let mapped = matches!(bytes, TableBytes::Mapped(_));
        let sealed =
            mapped && verify == Verify::TrustSeal && seal::is_sealed(path, &meta, header.checksum);
        if !sealed {
            if checksum(&bytes[payload_offset..]) != header.checksum {
                seal::unseal(path);
                return Err(TableError::Corrupted {
                    path: path.to_path_buf(),
                    group,
                });
            }
            if mapped {
                seal::seal(path, &meta, header.checksum);
            }
        }
        Ok(Self {
            path: path.to_path_buf(),
            header,
            bytes,
            payload_offset,
        })
    }

    /// The verified payload bytes.
    pub fn payload(&self) -> &[u8] {
        &self.bytes[self.payload_offset..]
    }

    /// Whether the table is mapped (big) rather than read into memory (small).
    pub fn is_mapped(&self) -> bool {
        matches!(self.bytes, TableBytes::Mapped(_))
    }

    /// The table's header.
    pub fn header(&self) -> &TableHeader {
        &self.header
    }

    /// Where the table was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// Reads only the header of a table file, without checking it against a spec
/// (for listings such as `cubedb-gen info`).
pub fn read_header(path: &Path, group: &'static str) -> Result<(TableHeader, u64), TableError> {
    use std::io::Read;
    let io_err = |action, error| TableError::Io {
        path: path.to_path_buf(),
        action,
        error,
    };
    let (file, meta) = open_regular(path, group)?;
    let len = meta.len();
    let mut bytes = Vec::new();
    file.take(1 << 20)
        .read_to_end(&mut bytes)
        .map_err(|e| io_err("cannot read", e))?;
    let (header, _) = decode_header(&bytes, path, group)?;
    Ok((header, len))
}

fn identity(
    puzzle: &str,
    kind: &str,
    params: &[(String, u64)],
    entries: u64,
    bits: u32,
    payload_len: u64,
) -> String {
    format!(
        "{puzzle}/{kind} [{}] {entries} entries x {bits} bits in {payload_len} bytes",
        TableSpec::describe_params(params)
    )
}

/// XXH3-64 checksum of a payload.
pub fn checksum(payload: &[u8]) -> u64 {
    xxhash_rust::xxh3::xxh3_64(payload)
}

/// Decodes and checks the header: magic, header checksum, then version (a header from
/// an older layout is named as such, not as corrupted). Returns the header and where the
/// payload starts.
fn decode_header(
    bytes: &[u8],
    path: &Path,
    group: &'static str,
) -> Result<(TableHeader, usize), TableError> {
    let bad = |reason: String| TableError::BadHeader {
        path: path.to_path_buf(),
        group,
        reason,
    };
    if bytes.len() < MAGIC.len() || bytes[..MAGIC.len()] != MAGIC {
        return Err(TableError::NotATable {
            path: path.to_path_buf(),
            group,
        });
    }
    let len_bytes: [u8; 4] = bytes
        .get(8..12)
        .and_then(|s| s.try_into().ok())
        .ok_or_else(|| bad("file ends inside the header".into()))?;
    let header_len = u32::from_le_bytes(len_bytes) as usize;
    let encoded = bytes
        .get(12..12 + header_len)
        .ok_or_else(|| bad("file ends inside the header".into()))?;
    // A damaged length field inside the header must not become a huge allocation.
    let decoded: Result<(TableHeader, usize), _> = bincode::serde::decode_from_slice(
        encoded,
        bincode::config::standard().with_limit::<HEADER_LIMIT>(),
    );
    let wrong_version = |header: &TableHeader| TableError::WrongVersion {
        path: path.to_path_buf(),
        group,
        found: header.format_version,
        expected: FORMAT_VERSION,
    };
    let stored_checksum = bytes
        .get(12 + header_len..20 + header_len)
        .and_then(|s| s.try_into().ok())
        .map(u64::from_le_bytes);
    if stored_checksum != Some(checksum(encoded)) {
        return Err(match decoded {
            Ok((header, _)) if header.format_version != FORMAT_VERSION => wrong_version(&header),
            _ => TableError::HeaderCorrupted {
                path: path.to_path_buf(),
                group,
            },
        });
    }
    let (header, used) = decoded.map_err(|e| bad(e.to_string()))?;
    if used != header_len {
        return Err(bad("header length does not match its contents".into()));
    }
    if header.format_version != FORMAT_VERSION {
        return Err(wrong_version(&header));
    }
    Ok((header, payload_offset(header_len)))
}

/// Most bytes a header may decode into (its strings and lists); real ones are far smaller.
const HEADER_LIMIT: usize = 1 << 20;

fn payload_offset(header_len: usize) -> usize {
    (12 + header_len + 8).next_multiple_of(PAYLOAD_ALIGN as usize)
}

/// Writes a table atomically: a temporary file in the same folder, synced, then renamed over
/// `path`. An interrupted write leaves at most a `*.tmp-<pid>` file, never a half table
/// under the real name.
pub fn write_table(
    path: &Path,
    spec: &TableSpec,
    payload: &[u8],
    histogram: Vec<u64>,
) -> Result<(), TableError> {
    assert_eq!(
        payload.len() as u64,
        spec.payload_len(),
        "payload of {} has the wrong length",
        spec.name
    );
    let header = TableHeader {
        format_version: FORMAT_VERSION,
        puzzle: spec.puzzle.to_string(),
        kind: spec.kind.to_string(),
        params: spec.params.clone(),
        entries: spec.entries,
        bits_per_entry: spec.bits_per_entry,
        payload_len: payload.len() as u64,
        checksum: checksum(payload),
        histogram,
    };
    let encoded = bincode::serde::encode_to_vec(&header, bincode::config::standard())
        .expect("a table header always encodes");
    let io_err = |error| TableError::Io {
        path: path.to_path_buf(),
        action: "cannot write",
        error,
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    if dir.exists() && !dir.is_dir() {
        return Err(TableError::DataDirNotAFolder {
            dir: dir.to_path_buf(),
        });
    }
    fs::create_dir_all(dir).map_err(io_err)?;
    // Never rename over a folder, FIFO or device: whatever put it there, it is not ours.
    probe(path, spec.group)?;
    let file_name = path.file_name().unwrap_or_default().to_string_lossy();
    let tmp = dir.join(format!("{file_name}.tmp-{}", std::process::id()));
    let result = (|| {
        let mut file = io::BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        file.write_all(&MAGIC)?;
        file.write_all(&(encoded.len() as u32).to_le_bytes())?;
        file.write_all(&encoded)?;
        file.write_all(&checksum(&encoded).to_le_bytes())?;
        let padding = payload_offset(encoded.len()) - 20 - encoded.len();
        file.write_all(&vec![0u8; padding])?;
        file.write_all(payload)?;
        let file = file.into_inner().map_err(|e| e.into_error())?;
        file.sync_all()?;
        drop(file);
        seal::unseal(path);
        fs::rename(&tmp, path)?;
        // Make the rename itself durable.
        File::open(dir)?.sync_all()
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(io_err)
}

/// Size of a huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// A copy of table bytes in anonymous memory advised to use huge pages, starting on a huge
/// page boundary: tables read at random are far bigger than what the TLB covers with
/// 4 KiB pages, and each miss costs a page walk (two, on a virtual machine).
#[derive(Debug)]
pub struct Resident {
    map: memmap2::MmapMut,
    offset: usize,
    len: usize,
}

impl Resident {
    /// Copies `bytes`, or `None` if the memory cannot be had.
    pub fn copy_of(bytes: &[u8]) -> Option<Self> {
        let mut map = memmap2::MmapMut::map_anon(bytes.len() + HUGE_PAGE).ok()?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let offset = (HUGE_PAGE - map.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE;
        map[offset..offset + bytes.len()].copy_from_slice(bytes);
        Some(Self {
            map,
            offset,
            len: bytes.len(),
        })
    }

    /// The copied bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map[self.offset..self.offset + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> TableSpec {
        TableSpec {
            name: "test-table",
            group: "test",
            puzzle: "test",
            kind: "bytes",
            params: vec![("n".into(), 10_000)],
            entries: 10_000,
            bits_per_entry: 8,
        }
    }

    fn temp_dir(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("cubedb-table-{tag}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn write_sample(dir: &Path) -> (PathBuf, Vec<u8>) {
        let payload: Vec<u8> = (0..10_000u32).map(|i| (i % 251) as u8).collect();
        let path = dir.join(spec().file_name());
        write_table(&path, &spec(), &payload, vec![1, 2, 3]).unwrap();
        (path, payload)
    }

    #[test]
    fn round_trip_is_page_aligned_and_verified() {
        let dir = temp_dir("round");
        let (path, payload) = write_sample(&dir);
        let table = Table::open(&path, &spec()).unwrap();
        assert_eq!(table.payload(), &payload[..]);
        assert_eq!(table.header().histogram, vec![1, 2, 3]);
        let len = fs::metadata(&path).unwrap().len();
        assert_eq!((len - payload.len() as u64) % PAYLOAD_ALIGN, 0);
        assert_eq!(
            fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
    }

    #[test]
    fn leftovers_of_killed_builds_are_removed_by_the_next_build() {
        let dir = temp_dir("stale");
        let store = TableStore::new(&dir);
        let stale = dir.join(format!("{}.tmp-4000000000", spec().file_name()));
        let other = dir.join("unrelated.cdb.tmp-4000000000");
        fs::write(&stale, b"half a table").unwrap();
        fs::write(&other, b"someone else's").unwrap();
        store
            .write(&spec(), &vec![7u8; 10_000], Vec::new())
            .unwrap();
        assert_eq!(!stale.exists(), cfg!(target_os = "linux"));
        assert!(other.exists());
        assert!(store.open(&spec()).is_ok());
    }

    #[test]
    fn every_flipped_payload_byte_and_truncation_is_detected() {
        let dir = temp_dir("flip");
        let (path, _) = write_sample(&dir);
        let good = fs::read(&path).unwrap();
        for offset in [0, 5, 9, 12, 20, good.len() - 10_000, good.len() - 1] {
            let mut bad = good.clone();
            bad[offset] ^= 0x40;
            fs::write(&path, &bad).unwrap();
            assert!(
                Table::open(&path, &spec()).is_err(),
                "flip at {offset} accepted"
            );
        }
        for cut in [0, 7, 100, good.len() - 1] {
            fs::write(&path, &good[..cut]).unwrap();
            assert!(
                Table::open(&path, &spec()).is_err(),
                "cut at {cut} accepted"
            );
        }
        fs::write(&path, &good).unwrap();
        let mut other = spec();
        other.params = vec![("n".into(), 9_999)];
        let err = Table::open(&path, &other).unwrap_err();
        assert!(matches!(err, TableError::WrongTable { .. }), "{err}");
        fs::remove_file(&path).unwrap();
        let err = Table::open(&path, &spec()).unwrap_err();
        assert!(err.to_string().contains("cubedb-gen test"), "{err}");
    }

    /// Item 11: every header byte is covered, including the histogram after the payload
    /// checksum field; neither `open` nor `read_header` (used by `info`) trusts a flip.
    #[test]
    fn every_flipped_header_byte_is_detected() {
        let dir = temp_dir("header-flip");
        let (path, _) = write_sample(&dir);
        let good = fs::read(&path).unwrap();
        let header_len = u32::from_le_bytes(good[8..12].try_into().unwrap()) as usize;
        // Magic, length, encoded header (histogram last), header checksum.
        for offset in 0..12 + header_len + 8 {
            let mut bad = good.clone();
            bad[offset] ^= 0x01;
            fs::write(&path, &bad).unwrap();
            assert!(
                Table::open(&path, &spec()).is_err(),
                "flip at {offset} accepted"
            );
            assert!(
                read_header(&path, "test").is_err(),
                "flip at {offset} accepted by read_header"
            );
        }
    }

    /// A header from format 1 (no header checksum) is named as an older format.
    #[test]
    fn older_formats_are_named() {
        let dir = temp_dir("old-format");
        let path = dir.join(spec().file_name());
        let payload = vec![3u8; 10_000];
        let header = sample_header(&payload, 1, 10_000);
        let bytes = raw_table(&header, &payload, false);
        fs::write(&path, &bytes).unwrap();
        let err = Table::open(&path, &spec()).unwrap_err();
        assert!(
            matches!(err, TableError::WrongVersion { found: 1, .. }),
            "{err}"
        );
    }

    /// The header of the sample table as `write_table` would make it, with the given
    /// format version and claimed payload length.
    fn sample_header(payload: &[u8], format_version: u32, payload_len: u64) -> TableHeader {
        TableHeader {
            format_version,
            puzzle: "test".into(),
            kind: "bytes".into(),
            params: spec().params,
            entries: 10_000,
            bits_per_entry: 8,
            payload_len,
            checksum: checksum(payload),
            histogram: vec![],
        }
    }

    /// A table file's bytes from a header, written by hand (with or without the header
    /// checksum of format 2).
    fn raw_table(header: &TableHeader, payload: &[u8], header_checksum: bool) -> Vec<u8> {
        let encoded = bincode::serde::encode_to_vec(header, bincode::config::standard()).unwrap();
        raw_table_from(&encoded, payload, header_checksum)
    }

    /// A table file's bytes from an encoded header.
    fn raw_table_from(encoded: &[u8], payload: &[u8], header_checksum: bool) -> Vec<u8> {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
        bytes.extend_from_slice(encoded);
        if header_checksum {
            bytes.extend_from_slice(&checksum(encoded).to_le_bytes());
        }
        bytes.resize(bytes.len().next_multiple_of(4096), 0);
        bytes.extend_from_slice(payload);
        bytes
    }

    /// Found by fuzzing: a header whose list length is huge (with valid checksums) is a
    /// bad header, not an attempt to allocate exabytes.
    #[test]
    fn huge_lengths_inside_the_header_are_refused() {
        let dir = temp_dir("huge-length");
        let path = dir.join(spec().file_name());
        let payload = vec![0u8; 10_000];
        let header = sample_header(&payload, FORMAT_VERSION, 10_000);
        let mut encoded =
            bincode::serde::encode_to_vec(&header, bincode::config::standard()).unwrap();
        // The empty histogram's length (the last byte) becomes 2^62 as a u64 varint.
        encoded.pop();
        encoded.push(253);
        encoded.extend_from_slice(&(1u64 << 62).to_le_bytes());
        fs::write(&path, raw_table_from(&encoded, &payload, true)).unwrap();
        let err = Table::open(&path, &spec()).unwrap_err();
        assert!(matches!(err, TableError::BadHeader { .. }), "{err}");
        assert!(read_header(&path, "test").is_err());
    }

    /// Item 13: messages say what is wrong once, and tell the two sides apart.
    #[test]
    fn messages_name_the_file_and_the_problem_once() {
        let io = TableError::Io {
            path: PathBuf::from("t.cdb"),
            action: "cannot open",
            error: io::Error::from(io::ErrorKind::PermissionDenied),
        };
        let chain = format!("{:#}", anyhow_like_chain(&io));
        assert_eq!(chain.matches("permission denied").count(), 1, "{chain}");
        // A header claiming another payload length, with valid checksums.
        let dir = temp_dir("payload-len");
        let path = dir.join(spec().file_name());
        let payload = vec![0u8; 10_001];
        let header = sample_header(&payload, FORMAT_VERSION, 10_001);
        fs::write(&path, raw_table(&header, &payload, true)).unwrap();
        let err = Table::open(&path, &spec()).unwrap_err();
        let TableError::WrongTable {
            found, expected, ..
        } = &err
        else {
            panic!("{err}")
        };
        assert_ne!(found, expected, "{err}");
        assert!(
            found.contains("10001 bytes") && expected.contains("10000 bytes"),
            "{err}"
        );
    }

    /// The error and its sources, joined as `anyhow`'s `{:#}` would.
    fn anyhow_like_chain(err: &dyn std::error::Error) -> String {
        let mut text = err.to_string();
        let mut source = err.source();
        while let Some(cause) = source {
            text.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        text.to_lowercase()
    }

    /// Item 15: a small table is read into memory, so rewriting its file in place cannot
    /// change what an open table answers.
    #[test]
    fn small_tables_are_copies_unaffected_by_rewrites_in_place() {
        let dir = temp_dir("in-place");
        let (path, payload) = write_sample(&dir);
        let table = Table::open(&path, &spec()).unwrap();
        assert!(!table.is_mapped());
        let mut file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(&vec![0xEE; fs::metadata(&path).unwrap().len() as usize])
            .unwrap();
        file.set_len(100).unwrap();
        drop(file);
        assert_eq!(table.payload(), &payload[..]);
    }

    /// Environment variable that makes the test below act as its own child process.
    const BUS_ERROR_CHILD: &str = "CUBEDB_TEST_BUS_ERROR_CHILD";

    /// Item 15: a big (mapped) table truncated under a running process ends it with a
    /// message and exit code 1, not a bare SIGBUS. Runs itself as a child process, which
    /// maps a table, truncates its file and reads the lost page.
    #[test]
    fn truncated_mapping_fails_with_a_message() {
        if let Some(dir) = std::env::var_os(BUS_ERROR_CHILD) {
            let dir = PathBuf::from(dir);
            let mut big = spec();
            big.entries = READ_LIMIT + 4096;
            big.params = vec![("n".into(), big.entries)];
            let path = dir.join(big.file_name());
            write_table(&path, &big, &vec![1u8; big.entries as usize], vec![]).unwrap();
            let table = Table::open(&path, &big).unwrap();
            assert!(table.is_mapped());
            fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .unwrap()
                .set_len(4096)
                .unwrap();
            let last = std::hint::black_box(table.payload()[table.payload().len() - 1]);
            // Unreachable when the handler works.
            std::process::exit(i32::from(last) + 10);
        }
        let dir = temp_dir("bus-error");
        let output = std::process::Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "table::tests::truncated_mapping_fails_with_a_message",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(BUS_ERROR_CHILD, &dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{err}");
        assert!(err.contains("truncated or rewritten in place"), "{err}");
        let _ = fs::remove_dir_all(&dir);
    }
}
