//! The single place where cubedb maps a file into memory, answers the one fault a
//! mapping can raise, and hints the processor about table memory it will read soon.

use memmap2::Mmap;
use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicBool, Ordering};

/// Files up to this size get their page tables filled as they are mapped: a verified
/// table was once touched by its checksum anyway, and one that a seal spares the hash
/// would otherwise take its page faults one by one during the queries.
const POPULATE_UP_TO: u64 = 256 << 20;

/// Set by [`lock_mapped_tables`]: lock every table mapped from then on.
static LOCK_MAPPED: AtomicBool = AtomicBool::new(false);

/// Locks in memory (`mlock`) every table mapped from now on, for a long-lived process
/// such as `cubedb serve --lock-tables`. Some hosts page out file pages nobody touched
/// for a minute. A service idle that long would then read its next query's table lines
/// from disk (`docs/rubik-optimal.md`, "Idle tables are paged out"). Locking reads the
/// whole file in when it is opened, and needs a memlock limit (`ulimit -l`) of at least
/// the tables' size, or the `CAP_IPC_LOCK` capability. Tables small enough to be copied
/// into the process are anonymous memory and are not affected.
pub fn lock_mapped_tables() {
    LOCK_MAPPED.store(true, Ordering::Relaxed);
}

/// Maps `file` read-only, after making sure a bus error (see [`report_bus_errors`]) ends
/// the process with a message; locked in memory after [`lock_mapped_tables`].
pub(crate) fn map_read_only(file: &File) -> io::Result<Mmap> {
    map_with(file, LOCK_MAPPED.load(Ordering::Relaxed))
}

/// [`map_read_only`], locking the mapping in memory if `lock`.
fn map_with(file: &File, lock: bool) -> io::Result<Mmap> {
    let map = map_file(file)?;
    if map.len() as u64 <= POPULATE_UP_TO {
        read_in_huge_folios(&map);
    } else {
        // Read at random by the search, but maybe hashed whole first: readahead stays.
        prefer_huge_folios(&map);
    }
    if lock {
        map.lock().map_err(|e| {
            io::Error::new(
                e.kind(),
                format!(
                    "cannot lock its {:.1} MB in memory ({e}): raise the memlock limit \
                     (ulimit -l) or open the tables unlocked",
                    map.len() as f64 / 1e6
                ),
            )
        })?;
    }
    Ok(map)
}

/// Reads `file`, just dropped from the page cache, back in through a mapping that asks
/// for 2 MiB folios ([`prefer_huge_folios`]), and returns its length: every later mapping
/// of it then gets 2 MiB page-table entries wherever a whole aligned 2 MiB of it is
/// cached ([`super::file::reload_into_page_cache`]).
pub(crate) fn read_back_in_huge_folios(file: &File) -> io::Result<u64> {
    let map = map_file(file)?;
    read_in_huge_folios(&map);
    Ok(map.len() as u64)
}

/// The one mapping call.
fn map_file(file: &File) -> io::Result<Mmap> {
    report_bus_errors();
    // SAFETY: a mapping is undefined behaviour only if the file changes underneath it. cubedb
    // never modifies a table file in place: tables are written to a temporary file and renamed
    // over the old name, which leaves existing mappings of the old inode untouched. The mapping
    // is read-only and lives inside `Table` (or only inside the function that made it), which
    // hands out only shared borrows of it. A file truncated by someone else raises SIGBUS on
    // access, which `report_bus_errors` turns into a message and exit code 1 before any byte
    // of it is used.
    unsafe { memmap2::MmapOptions::new().map(file) }
}

/// Asks Linux to read the pages of `map` not yet cached in whole 2 MiB folios as they
/// fault (`MADV_HUGEPAGE`), which it then maps with one 2 MiB entry each. Best effort:
/// elsewhere, or with transparent huge pages off, nothing changes.
fn prefer_huge_folios(map: &Mmap) {
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    #[cfg(not(target_os = "linux"))]
    let _ = map;
}

/// Faults every page of `map` in, those not yet cached read in whole 2 MiB folios and
/// nothing else around them (`MADV_HUGEPAGE` with `MADV_RANDOM`, then populated), and
/// fills its page tables. Readahead's own mix of folio sizes left the FTO's 106 MB tie
/// tables 60% mapped with 2 MiB entries after a page-out, and none after their build,
/// its search 7-9% slower (`docs/phases.md`, "Mapped, not copied"). With no readahead
/// to overlap, a hash through such a mapping would be slower, so only mappings populated
/// at once get `MADV_RANDOM`. Pages already cached keep their folios.
fn read_in_huge_folios(map: &Mmap) {
    prefer_huge_folios(map);
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::Random);
    populate(map);
}

/// Faults every page of `map` in and fills its page tables (`MADV_POPULATE_READ`; before
/// Linux 5.14, a read of every 4 KiB, as `MAP_POPULATE` would). Elsewhere nothing: pages
/// fault as they are read.
fn populate(map: &Mmap) {
    #[cfg(target_os = "linux")]
    if map.advise(memmap2::Advice::PopulateRead).is_err() {
        let touched = map
            .chunks(4096)
            .fold(0u8, |sum, page| sum.wrapping_add(page[0]));
        std::hint::black_box(touched);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = map;
}

/// Installs (once) a SIGBUS handler that names the likely cause and exits with code 1.
///
/// Reading a mapped page that a truncation removed raises SIGBUS: without a handler the
/// process dies with a bare "Bus error" and no word about the table. The handler only
/// writes a fixed message and exits, both async-signal-safe.
fn report_bus_errors() {
    #[cfg(unix)]
    {
        static INSTALLED: std::sync::Once = std::sync::Once::new();
        INSTALLED.call_once(|| {
            extern "C" fn on_bus_error(_signal: libc::c_int) {
                const MESSAGE: &[u8] = b"cubedb: error: bus error while reading a memory-mapped \
table: its file was truncated or rewritten in place while in use. Replace table files only \
by rename (cubedb-gen does), then run again.\n";
                // SAFETY: write(2) and _exit(2) are async-signal-safe; MESSAGE is static.
                unsafe {
                    libc::write(2, MESSAGE.as_ptr().cast(), MESSAGE.len());
                    libc::_exit(1);
                }
            }
            // SAFETY: the sigaction struct is fully initialised (zeroed, then an empty mask
            // and the handler), and the handler only calls async-signal-safe functions.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_bus_error as extern "C" fn(libc::c_int) as usize;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut());
            }
        });
    }
}

/// Asks the processor to start loading the cache line holding `items[index]` into its
/// nearest cache (nothing if `index` is past the end): a search computes the table
/// positions of many nodes, hints them all, works on something else while the lines
/// arrive, then reads them.
#[inline(always)]
pub fn prefetch<T>(items: &[T], index: usize) {
    hint::<T, NEAREST_CACHE>(items, index);
}

/// [`prefetch`] into the second-level cache only (the T1 hint), for lines of a table far
/// larger than the caches, read once a little later. Where the core has fewer
/// first-level miss slots than the second level has (Intel's), a line on its way from
/// memory then holds a second-level slot instead of a first-level one, and more lines
/// are in flight at once: 10-13% less time per random line of the `8g` table on this
/// machine's Xeon, 1-4% less in its search (`cubedb bench table-reads --tables 8g`, and
/// `bench/ab-optimal.sh` with builds before and after).
#[inline(always)]
pub fn prefetch_to_l2<T>(items: &[T], index: usize) {
    hint::<T, SECOND_LEVEL_CACHE>(items, index);
}

// The locality hints of x86's prefetch: T0 (every cache level) and T1 (the second
// level and beyond); elsewhere only names, since `hint` does nothing there.
#[cfg(target_arch = "x86_64")]
use std::arch::x86_64::{_MM_HINT_T0 as NEAREST_CACHE, _MM_HINT_T1 as SECOND_LEVEL_CACHE};
#[cfg(not(target_arch = "x86_64"))]
const NEAREST_CACHE: i32 = 3;
#[cfg(not(target_arch = "x86_64"))]
const SECOND_LEVEL_CACHE: i32 = 2;

/// The prefetch of `items[index]` with the locality hint `LOCALITY` (`NEAREST_CACHE`
/// or `SECOND_LEVEL_CACHE`), nothing past the end or on other processors.
#[inline(always)]
fn hint<T, const LOCALITY: i32>(items: &[T], index: usize) {
    if index >= items.len() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the
    // address (and this one is inside `items`). The intrinsic is `unsafe` only because it
    // needs SSE, which every x86_64 processor has.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<LOCALITY>(items.as_ptr().add(index).cast());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    /// Kilobytes of locked memory of this process (`VmLck` in `/proc/self/status`).
    fn locked_kb() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmLck:"))
            .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap()
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn a_locked_mapping_is_locked_memory_and_an_unlocked_one_is_not() {
        let path = std::env::temp_dir().join(format!("cubedb-lock-{}", std::process::id()));
        let mut file = File::create(&path).unwrap();
        file.write_all(&vec![7u8; 1 << 20]).unwrap();
        drop(file);
        let file = File::open(&path).unwrap();
        let before = locked_kb();
        let plain = map_with(&file, false).unwrap();
        assert_eq!(locked_kb(), before, "a plain mapping locked memory");
        let locked = map_with(&file, true).unwrap();
        let during = locked_kb();
        assert!(
            during >= before + 1024,
            "locked {before} kB, then {during} kB"
        );
        assert_eq!(locked[12_345], 7);
        drop(locked);
        assert_eq!(locked_kb(), before, "unmapping kept memory locked");
        assert_eq!(plain[0], 7);
        let _ = std::fs::remove_file(&path);
    }
}
