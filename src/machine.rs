//! What this machine has room for: memory free for a table build, disk space free for
//! its files. Both are best efforts (`None` where the system does not say).

use std::path::Path;

/// Bytes of memory a new computation can use without pushing others out: the kernel's
/// `MemAvailable` (Linux), else `None`.
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    available_in_meminfo(&text)
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn available_in_meminfo(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// Bytes free for an unprivileged user on the filesystem holding `path` (the nearest
/// existing folder above it if it does not exist yet).
pub fn free_disk(path: &Path) -> Option<u64> {
    let existing = path.ancestors().find(|p| p.exists())?;
    free_disk_at(existing)
}

#[cfg(unix)]
fn free_disk_at(path: &Path) -> Option<u64> {
    let stats = rustix::fs::statvfs(path).ok()?;
    stats.f_bavail.checked_mul(stats.f_frsize)
}

#[cfg(not(unix))]
fn free_disk_at(_path: &Path) -> Option<u64> {
    None
}

/// Makes the calling thread yield the processor to every normal-priority thread (Linux
/// `nice` 19 for this thread alone): for work in the background, such as building tables
/// while answers are wanted now. Elsewhere, or if refused, nothing changes.
pub fn yield_to_others() {
    // On Linux `setpriority` of "this process" (no id) sets the calling thread's nice.
    #[cfg(target_os = "linux")]
    let _ = rustix::process::setpriority_process(None, 19);
}

/// Bytes in words: `5.0 GB`, `86 MB`.
pub fn bytes_text(bytes: u64) -> String {
    let gb = bytes as f64 / 1e9;
    if gb >= 1.0 {
        format!("{gb:.1} GB")
    } else {
        format!("{:.0} MB", (bytes as f64 / 1e6).max(1.0))
    }
}

/// A duration in words, rounded to what an estimate can say: `0.4 s`, `12 s`, `8 min`,
/// `3.5 h`, `6 days`.
pub fn duration_text(seconds: f64) -> String {
    match seconds {
        s if s < 10.0 => format!("{s:.1} s"),
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.0} min", s / 60.0),
        s if s < 2.0 * 86400.0 => format!("{:.1} h", s / 3600.0),
        s if s < 730.0 * 86400.0 => format!("{:.0} days", s / 86400.0),
        s => format!("{:.0} years", s / (365.25 * 86400.0)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn meminfo_is_read_in_bytes() {
        let text = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   22000000 kB\n";
        assert_eq!(available_in_meminfo(text), Some(22_000_000 * 1024));
        assert_eq!(available_in_meminfo("MemTotal: 5 kB\n"), None);
    }

    #[test]
    fn free_disk_is_found_above_a_missing_folder() {
        let missing = std::env::temp_dir()
            .join("cubedb-no-such-folder")
            .join("deeper");
        if cfg!(unix) {
            assert!(free_disk(&missing).is_some());
        }
    }

    #[test]
    fn words_for_sizes_and_times() {
        assert_eq!(bytes_text(5_010_000_000), "5.0 GB");
        assert_eq!(bytes_text(86_000_000), "86 MB");
        assert_eq!(duration_text(0.42), "0.4 s");
        assert_eq!(duration_text(42.0), "42 s");
        assert_eq!(duration_text(3000.0), "50 min");
        assert_eq!(duration_text(5.0 * 3600.0), "5.0 h");
        assert_eq!(duration_text(10.0 * 86400.0), "10 days");
    }
}
