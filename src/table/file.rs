//! Opening, verifying and writing table files: the regular-file checks, the header
//! decode, the checksums, reading small tables and mapping big ones, and the atomic write.

use super::header::{TableHeader, FORMAT_VERSION, MAGIC, PAYLOAD_ALIGN};
use super::{mmap, seal, TableError, TableSpec};
use memmap2::Mmap;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
/// Tables up to this many bytes are read into memory rather than mapped: they cost little
/// to copy and hash, and a copy cannot change or vanish under a running query. Bigger
/// ones are mapped and sealed ([`seal`]): a process opening a 1-16 MB table (a phase's
/// move rows and straddle table, the two-phase coordinates) neither copies nor hashes it
/// again, a quarter of a 4x4x4 or FTO open.
pub const READ_LIMIT: u64 = 1 << 20;

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
/// What a path that is not a regular file is, in words for a message: "a folder", "a
/// FIFO", "a socket", "a device" or "something else".
pub fn file_kind(kind: &fs::FileType) -> &'static str {
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
        "something else"
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
        // Big tables carry a seal (small ones are cheap to hash every time).
        let big = meta.len() > READ_LIMIT;
        let sealed =
            big && verify == Verify::TrustSeal && seal::is_sealed(path, &meta, header.checksum);
        if !sealed {
            if checksum(&bytes[payload_offset..]) != header.checksum {
                seal::unseal(path);
                return Err(TableError::Corrupted {
                    path: path.to_path_buf(),
                    group,
                });
            }
            if big {
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

/// Tables bigger than this are dropped from the page cache after they are written and
/// read back ([`reload_for_large_folios`]); a smaller one holds few whole 2 MiB pieces.
pub(super) const RELOAD_ABOVE: u64 = 8 << 20;

/// Drops a just-written file from the page cache and reads it back
/// ([`reload_into_page_cache`]).
///
/// Pages cached by the build's writes are small (4 KiB) folios, which a mapping then
/// maps with 4 KiB page-table entries; read back in 2 MiB folios they are mapped with
/// 2 MiB entries (far fewer TLB misses in random lookups). Measured on the 5 GB table of
/// the `5g` preset straight after its build: 3.2 of its 5.0 GB mapped with 2 MiB entries
/// and 130 ns per search node; read back, 4.8 GB and 109 ns. Best effort: a failure
/// leaves the cache as it was, which is still correct. Linux only: elsewhere there are
/// no large folios to gain.
fn reload_for_large_folios(path: &Path) {
    if cfg!(target_os = "linux") {
        let _ = reload_into_page_cache(path);
    }
}

/// Drops the file at `path` from the page cache (on Linux) and reads it back through a
/// mapping that asks for 2 MiB folios, returning its length: the whole file is then
/// cached, in 2 MiB folios wherever the kernel has them to give, whatever pieces of it
/// were cached before and however (`cubedb-gen warm`; `docs/rubik-optimal.md`, "Large
/// folios"). Pages that a running process has mapped stay as they are: the kernel drops
/// only pages nobody maps.
pub fn reload_into_page_cache(path: &Path) -> io::Result<u64> {
    let file = File::open(path)?;
    #[cfg(target_os = "linux")]
    rustix::fs::fadvise(&file, 0, None, rustix::fs::Advice::DontNeed)?;
    super::mmap::read_back_in_huge_folios(&file)
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
    result.map_err(io_err)?;
    if payload.len() as u64 > RELOAD_ABOVE {
        reload_for_large_folios(path);
    }
    Ok(())
}
