//! Table files with arbitrary bytes (starting from a valid one): opening never panics,
//! and a table that opens has the valid table's header and payload.
#![no_main]

use cubedb::table::{read_header, Table, TableSpec, TableStore};
use libfuzzer_sys::fuzz_target;
use std::path::PathBuf;
use std::sync::OnceLock;

fn spec() -> TableSpec {
    TableSpec {
        name: "fuzz-table",
        group: "fuzz",
        puzzle: "fuzz",
        kind: "bytes",
        params: vec![("n".into(), 5000)],
        entries: 5000,
        bits_per_entry: 8,
    }
}

/// A valid table and the folder it is in.
fn valid() -> &'static (PathBuf, Table) {
    static VALID: OnceLock<(PathBuf, Table)> = OnceLock::new();
    VALID.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("cubedb-fuzz-{}", std::process::id()));
        let store = TableStore::new(&dir);
        let payload: Vec<u8> = (0..5000u32).map(|i| (i % 253) as u8).collect();
        store.write(&spec(), &payload, vec![1, 2, 3]).unwrap();
        let table = store.open(&spec()).unwrap();
        (dir, table)
    })
}

fuzz_target!(|data: &[u8]| {
    let (dir, good) = valid();
    // Half the inputs edit the valid file (xor), so checks past the magic get exercised.
    let original = std::fs::read(good.path()).unwrap();
    let bytes: Vec<u8> = match data.split_first() {
        Some((0, edits)) => original
            .iter()
            .enumerate()
            .map(|(i, &b)| b ^ edits.get(i).copied().unwrap_or(0))
            .collect(),
        _ => data.to_vec(),
    };
    let trial = dir.join("trial.cdb");
    std::fs::write(&trial, &bytes).unwrap();
    if let Ok(table) = Table::open(&trial, &spec()) {
        assert_eq!(table.payload(), good.payload());
        assert_eq!(table.header(), good.header());
    }
    if let Ok((header, _)) = read_header(&trial, "fuzz") {
        assert_eq!(&header, good.header());
    }
});
