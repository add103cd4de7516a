//! The third hardening round (issue 56), first use of the Rubik's cube: each test
//! reproduces one reported defect and fails before its fix.

/// F5: front ends open Rubik solvers through faces (`puzzles::rubik::api`) only: none
/// names a table family.
#[test]
fn front_ends_name_no_rubik_table_family() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let families = [
        "NearTable",
        "Pdbs",
        "Pdb",
        "TwoPhaseTables",
        "CompactTables",
        "GoalTable",
        "RuTable",
    ];
    let mut found = Vec::new();
    let mut folders = vec![
        root.join("src/cli"),
        root.join("src/bench"),
        root.join("src/serve"),
        root.join("benches"),
        root.join("python/src"),
        root.join("gen/src"),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("a front end's folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source");
            for (number, line) in text.lines().enumerate() {
                let words = line.split(|c: char| !(c.is_alphanumeric() || c == '_'));
                if let Some(family) = words.into_iter().find(|w| families.contains(w)) {
                    found.push(format!("{}:{}: {family}", path.display(), number + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "front ends naming table families:\n{}",
        found.join("\n")
    );
}
