//! `bench table-reads`: what a random read in a big pattern database costs on this
//! machine, the figure the optimal search is designed around (`docs/rubik-optimal.md`,
//! "What a table read costs on this machine"): nanoseconds per cache line with one line
//! in flight (the latency) and with many (the throughput), and what a second line costs
//! beside each first one, at random, in the same 4 KiB page, or 1 MiB away.

use super::BenchArgs;
use anyhow::{Context, Result};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::optimal::pdb::{Encoding, Entries};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use std::time::Instant;

/// Lines read per measurement (each measurement takes a fraction of a second).
const LINES: usize = 1 << 22;

/// Where the second line of a pair lies, if there is one.
#[derive(Clone, Copy)]
enum Partner {
    /// No second line.
    Alone,
    /// Another random line.
    Random,
    /// This many entries after the first line's entry.
    After(u64),
}

/// `bench table-reads`: reads of random lines of the preset's first table.
pub fn table_reads(args: &BenchArgs) -> Result<()> {
    use cubedb::puzzles::rubik::api::OptimalSolver;
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let solver = OptimalSolver::open_all(&store, args.metric, args.tables, &progress)?;
    let pdbs = solver.pdbs()?.context("the solver has tables")?;
    let table = pdbs.tables().first().context("the preset has a table")?;
    let (entries, size) = (table.entries(), table.pattern().size());
    let per_line: u64 = match table.encoding() {
        Encoding::BaseLines => cubedb::table::base_lines::LINE_ENTRIES as u64,
        Encoding::Nibbles => 128,
    };
    say!(
        "table-reads: the {} preset's first table ({:.2} GB), random 64-byte lines",
        solver.preset().map_or("custom", |p| p.name()),
        table.entries_len() as f64 / 1e9
    );
    // Past the end by the farthest partner: every index read stays in the table.
    let room = size.saturating_sub(per_line * 16_384).max(1);
    let rows: [(&str, usize, Partner); 6] = [
        ("1 line in flight (latency)", 1, Partner::Alone),
        ("16 lines in flight", 16, Partner::Alone),
        ("48 lines in flight", 48, Partner::Alone),
        ("48 pairs: two random lines", 48, Partner::Random),
        (
            "48 pairs: the second 3 lines on (same 4 KiB page)",
            48,
            Partner::After(3 * per_line),
        ),
        (
            "48 pairs: the second 1 MiB on",
            48,
            Partner::After(16_384 * per_line),
        ),
    ];
    for &(label, in_flight, partner) in &rows {
        if matches!(partner, Partner::After(gap) if gap >= room) {
            say!("{label:<52}       - (the table is too small)");
            continue;
        }
        // The best of three: the first touches warm the page tables.
        let ns = (0..3)
            .map(|seed| measure(entries, room, in_flight, partner, seed))
            .fold(f64::INFINITY, f64::min);
        let unit = match partner {
            Partner::Alone => "per line",
            _ => "per pair",
        };
        say!("{label:<52} {ns:>7.1} ns {unit}");
    }
    let threads = rayon::current_num_threads();
    let each: Vec<f64> =
        rayon::broadcast(|ctx| measure(entries, room, 48, Partner::Alone, 7 + ctx.index() as u64));
    let mean = each.iter().sum::<f64>() / each.len().max(1) as f64;
    let label = "48 lines in flight, every thread at once";
    say!("{label:<52} {mean:>7.1} ns per line and thread ({threads} threads)");
    Ok(())
}

/// Nanoseconds per first line over [`LINES`] reads in batches of `in_flight` (each with
/// its partner): every line of a batch asked for, then all read.
fn measure(entries: Entries<'_>, room: u64, in_flight: usize, partner: Partner, seed: u64) -> f64 {
    let mut rng = SplitMix64::new(0x7ab1e ^ seed);
    let mut indices = vec![0usize; 2 * in_flight];
    let batches = LINES / in_flight;
    let mut sum = 0u64;
    let started = Instant::now();
    for _ in 0..batches {
        let mut n = 0;
        for _ in 0..in_flight {
            let first = rng.below(room);
            indices[n] = first as usize;
            n += 1;
            match partner {
                Partner::Alone => {}
                Partner::Random => {
                    indices[n] = rng.below(room) as usize;
                    n += 1;
                }
                Partner::After(gap) => {
                    indices[n] = (first + gap) as usize;
                    n += 1;
                }
            }
        }
        for &i in &indices[..n] {
            entries.prefetch(i);
        }
        for &i in &indices[..n] {
            sum += u64::from(entries.get(i));
        }
    }
    let elapsed = started.elapsed();
    std::hint::black_box(sum);
    elapsed.as_secs_f64() * 1e9 / (batches * in_flight) as f64
}
