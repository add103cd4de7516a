//! Verified-checksum records ("seals") for big tables.
//!
//! Hashing a multi-gigabyte payload takes about a second on every open. Once a mapped
//! table's payload has been hashed and found right (or has just been written), a small
//! file `NAME.cdb.verified` next to it records the file's identity: device, inode, length,
//! and modification and status-change times to the nanosecond, with the payload checksum
//! from the header. A later open whose file still has exactly that identity skips the
//! hash; any write, truncation, rename over it or `touch` changes the identity, and the
//! payload is hashed again. `cubedb-gen verify` always hashes, whatever the seal says.

use std::fs::{self, Metadata};
use std::path::{Path, PathBuf};

/// First word of a seal file, with its layout version.
const SEAL_TAG: &str = "cubedb-seal-1";

/// How long a file must have been left alone before it is sealed.
const SETTLED_NS: i128 = 2_000_000_000;

/// What identifies one version of a file on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FileIdentity {
    device: u64,
    inode: u64,
    len: u64,
    modified_ns: i128,
    changed_ns: i128,
}

impl FileIdentity {
    #[cfg(unix)]
    fn of(meta: &Metadata) -> Option<Self> {
        use std::os::unix::fs::MetadataExt;
        let ns = |secs: i64, nanos: i64| i128::from(secs) * 1_000_000_000 + i128::from(nanos);
        Some(Self {
            device: meta.dev(),
            inode: meta.ino(),
            len: meta.len(),
            modified_ns: ns(meta.mtime(), meta.mtime_nsec()),
            changed_ns: ns(meta.ctime(), meta.ctime_nsec()),
        })
    }

    /// Elsewhere there is no inode or status-change time to go by: never sealed.
    #[cfg(not(unix))]
    fn of(_meta: &Metadata) -> Option<Self> {
        None
    }

    fn line(&self, checksum: u64) -> String {
        format!(
            "{SEAL_TAG} {} {} {} {} {} {checksum:016x}\n",
            self.device, self.inode, self.len, self.modified_ns, self.changed_ns
        )
    }
}

/// Where the seal of the table at `path` lives.
pub fn seal_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".verified");
    path.with_file_name(name)
}

/// Whether the table file at `path` (with metadata `meta`, taken from the open file) was
/// verified with payload checksum `checksum` and has not changed since.
pub fn is_sealed(path: &Path, meta: &Metadata, checksum: u64) -> bool {
    let Some(identity) = FileIdentity::of(meta) else {
        return false;
    };
    fs::read_to_string(seal_path(path)).is_ok_and(|text| text == identity.line(checksum))
}

/// Records that the table file at `path` (metadata `meta`, taken before its payload was
/// verified) has payload checksum `checksum`. Best effort: a folder that cannot be
/// written to only means hashing again next time.
pub fn seal(path: &Path, meta: &Metadata, checksum: u64) {
    let Some(identity) = FileIdentity::of(meta) else {
        return;
    };
    // File times tick in steps of a few milliseconds: a file changed within the same tick
    // as it was read would keep its identity. Like git's "racy clean" rule, only a file
    // unchanged for a while is sealed.
    let now_ns = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    if now_ns - identity.modified_ns.max(identity.changed_ns) < SETTLED_NS {
        return;
    }
    let seal = seal_path(path);
    let tmp = seal.with_extension(format!("verified.tmp-{}", std::process::id()));
    if fs::write(&tmp, identity.line(checksum)).is_err() || fs::rename(&tmp, &seal).is_err() {
        let _ = fs::remove_file(&tmp);
    }
}

/// Removes the seal of the table at `path`, if any (before the table is replaced).
pub fn unseal(path: &Path) {
    let _ = fs::remove_file(seal_path(path));
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_seal_holds_only_for_the_unchanged_file_it_was_made_for() {
        let dir = std::env::temp_dir().join(format!("cubedb-seal-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("t.cdb");
        fs::write(&path, b"payload").unwrap();
        let meta = fs::metadata(&path).unwrap();
        // Too fresh to seal: a write in the same clock tick would go unseen.
        seal(&path, &meta, 7);
        assert!(!is_sealed(&path, &meta, 7));
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let meta = fs::metadata(&path).unwrap();
        seal(&path, &meta, 7);
        assert!(is_sealed(&path, &meta, 7));
        assert!(!is_sealed(&path, &meta, 8), "another checksum");
        // Any change to the file, even of one byte in place, breaks the seal.
        let mut file = fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(b"P").unwrap();
        drop(file);
        assert!(!is_sealed(&path, &fs::metadata(&path).unwrap(), 7));
        // A damaged seal file is no seal.
        fs::write(seal_path(&path), "cubedb-seal-1 garbage\n").unwrap();
        assert!(!is_sealed(&path, &meta, 7));
        unseal(&path);
        assert!(!seal_path(&path).exists());
        fs::remove_dir_all(&dir).unwrap();
    }
}
