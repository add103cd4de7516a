//! Tests of the table file format: round trips, every flipped byte and truncation
//! detected, older formats named, rewrites in place and truncated mappings.
use super::*;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

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

/// A fresh folder for one test, removed when the test ends (passed or failed).
struct TempDir(PathBuf);

impl std::ops::Deref for TempDir {
    type Target = Path;

    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(tag: &str) -> TempDir {
    let dir = std::env::temp_dir().join(format!("cubedb-table-{tag}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    TempDir(dir)
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
    let mut encoded = bincode::serde::encode_to_vec(&header, bincode::config::standard()).unwrap();
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
}

/// A table over the size that `write_table` reads back into the page cache (in 2 MiB
/// folios, through a mapping) keeps its bytes and checksum, and reading it back again
/// (`cubedb-gen warm`) gives its whole length.
#[test]
fn a_table_read_back_into_the_page_cache_keeps_its_bytes() {
    let dir = temp_dir("read-back");
    let mut big = spec();
    // Over both limits: read back when written, and mapped when opened.
    big.entries = file::RELOAD_ABOVE.max(READ_LIMIT) + 3 * 4096 + 17;
    big.params = vec![("n".into(), big.entries)];
    let payload: Vec<u8> = (0..big.entries).map(|i| (i * 7 % 253) as u8).collect();
    let path = dir.join(big.file_name());
    write_table(&path, &big, &payload, vec![]).unwrap();
    let len = fs::metadata(&path).unwrap().len();
    assert_eq!(reload_into_page_cache(&path).unwrap(), len);
    let table = Table::open_checked(&path, &big, Verify::Full).unwrap();
    assert!(table.is_mapped());
    assert_eq!(table.payload(), &payload[..]);
}
