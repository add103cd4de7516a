//! The single place where cubedb maps a file into memory.

use memmap2::Mmap;
use std::fs::File;
use std::io;

/// Maps `file` read-only.
pub(crate) fn map_read_only(file: &File) -> io::Result<Mmap> {
    // SAFETY: a mapping is undefined behaviour only if the file changes underneath it. cubedb
    // never modifies a table file in place: tables are written to a temporary file and renamed
    // over the old name, which leaves existing mappings of the old inode untouched. The mapping
    // is read-only and lives inside `Table`, which hands out only shared borrows of it.
    unsafe { Mmap::map(file) }
}
