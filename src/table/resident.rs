//! Copies of table bytes in huge pages, for tables read at random.

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
