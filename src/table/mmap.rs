//! The single place where cubedb maps a file into memory, answers the one fault a
//! mapping can raise, and hints the processor about table memory it will read soon.

use memmap2::Mmap;
use std::fs::File;
use std::io;

/// Files up to this size get their page tables filled as they are mapped: a verified
/// table was once touched by its checksum anyway, and one that a seal spares the hash
/// would otherwise take its page faults one by one during the queries.
const POPULATE_UP_TO: u64 = 256 << 20;

/// Maps `file` read-only, after making sure a bus error (see [`report_bus_errors`]) ends
/// the process with a message.
pub(crate) fn map_read_only(file: &File) -> io::Result<Mmap> {
    report_bus_errors();
    let mut options = memmap2::MmapOptions::new();
    if file.metadata()?.len() <= POPULATE_UP_TO {
        options.populate();
    }
    // SAFETY: a mapping is undefined behaviour only if the file changes underneath it. cubedb
    // never modifies a table file in place: tables are written to a temporary file and renamed
    // over the old name, which leaves existing mappings of the old inode untouched. The mapping
    // is read-only and lives inside `Table`, which hands out only shared borrows of it. A file
    // truncated by someone else raises SIGBUS on access, which `report_bus_errors` turns into
    // a message and exit code 1 before any byte of it is used.
    unsafe { options.map(file) }
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

/// Asks the processor to start loading the cache line holding `items[index]` (nothing if
/// `index` is past the end): a search computes the table positions of many nodes, hints
/// them all, works on something else while the lines arrive, then reads them.
#[inline(always)]
pub fn prefetch<T>(items: &[T], index: usize) {
    if index >= items.len() {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault, whatever the
    // address (and this one is inside `items`). The intrinsic is `unsafe` only because it
    // needs SSE, which every x86_64 processor has.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(items.as_ptr().add(index).cast());
    }
}
