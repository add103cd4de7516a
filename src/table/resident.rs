//! Copies of table bytes in huge pages, for tables read at random.

/// Size of a huge page on x86-64 and aarch64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// A copy of table bytes in anonymous memory advised to use huge pages, starting on a huge
/// page boundary: tables read at random are far bigger than what the TLB covers with
/// 4 KiB pages, and each miss costs a page walk (two, on a virtual machine).
///
/// The copy is paid at every open, and fresh anonymous memory can be dear: on the 2-core
/// virtual machine cubedb is measured on, idle a little, first touches cost 4-9 ms a
/// megabyte (a 4x4x4 process's 160 MB of copies took 0.4-0.9 s of system time, where its
/// first state takes 0.2 s to solve). The phases' tables, the two-phase solver's and the
/// exact tables are therefore mapped from the page cache, already resident, and searched
/// as fast so (20 FTO states, 40 4x4x4 states, 100,000 3x3x3 and pyraminx scrambles), as
/// are the optimal solver's pattern databases, whose pages come in 2 MiB folios
/// (`table::mmap`): `200m` opens in 0.05 s mapped, 1.0-1.2 s copied, at the same speed
/// per node. Only the coordinate tables' small class table is copied.
#[derive(Debug)]
pub struct Resident {
    map: memmap2::MmapMut,
    offset: usize,
    len: usize,
}

impl Resident {
    /// Copies `bytes`, or `None` if the memory cannot be had.
    pub fn copy_of(bytes: &[u8]) -> Option<Self> {
        let mut copy = Self::zeroed(bytes.len())?;
        copy.bytes_mut().copy_from_slice(bytes);
        Some(copy)
    }

    /// `len` zero bytes starting on a huge page boundary, or `None`.
    fn zeroed(len: usize) -> Option<Self> {
        let map = memmap2::MmapMut::map_anon(len.checked_add(HUGE_PAGE)?).ok()?;
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        let offset = (HUGE_PAGE - map.as_ptr() as usize % HUGE_PAGE) % HUGE_PAGE;
        Some(Self { map, offset, len })
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        &mut self.map[self.offset..self.offset + self.len]
    }

    /// The copied bytes.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.map[self.offset..self.offset + self.len]
    }
}
