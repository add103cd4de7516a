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

pub mod base_lines;
pub mod derived;
mod error;
pub mod family;
mod file;
pub mod header;
mod mmap;
pub mod packed;
mod resident;
pub mod seal;
mod spec;
mod store;
#[cfg(test)]
mod tests;

pub use error::TableError;
pub use family::{GroupMember, Rebuild, TableFamily, TableGroup};
pub use file::{
    checksum, file_kind, probe, read_header, reload_into_page_cache, write_table, Table, Verify,
    READ_LIMIT,
};
pub use header::{TableHeader, FORMAT_VERSION, MAGIC, PAYLOAD_ALIGN};
pub use mmap::{lock_mapped_tables, prefetch, prefetch_to_l2};
pub use resident::Resident;
pub use spec::{intern, TableSpec};
pub use store::{data_dir_from_env, TableStore, DATA_ENV};
