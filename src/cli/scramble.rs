//! `cubedb scramble EVENT`: scrambles for a WCA event, one per line (a megaminx scramble
//! is seven lines), in the notation the WCA's program prints, or as JSON.

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use cubedb::events::{Event, EventScrambler};
use cubedb::limits::Stop;
use cubedb::progress::Progress;
use cubedb::table::TableStore;
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `cubedb scramble`.
#[derive(Debug, Args)]
pub struct ScrambleArgs {
    /// The WCA event id: 222 333 444 555 666 777 333bf 333fm 333oh 333mbf 444bf 555bf
    /// clock minx pyram skewb sq1, or fto.
    #[arg(value_name = "EVENT")]
    event: String,

    /// How many scrambles.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::count)]
    count: u64,

    /// Seed (the same seed gives the same scrambles) [default: drawn from the clock].
    #[arg(long, value_parser = crate::ranges::seed)]
    seed: Option<u64>,

    /// `text`: one scramble per line (a megaminx scramble is its seven lines); `json`:
    /// one JSON object per line with the event, seed, index and scramble; `svg`: the
    /// picture of each scrambled state, one SVG document per line.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,

    /// Random-state megaminx and 5x5x5 scrambles (the WCA uses random moves where it has no fast
    /// solver); refused for events with no random-state solver.
    #[arg(long)]
    random_state: bool,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// No progress bars or notes on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// How scrambles are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The scramble's text.
    Text,
    /// A JSON object per scramble.
    Json,
    /// A picture per scramble.
    Svg,
}

/// Runs `cubedb scramble`.
pub fn run(args: ScrambleArgs) -> Result<()> {
    let event = Event::parse(&args.event)?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64)
    });
    let progress = Progress::stderr(args.quiet);
    let store = TableStore::locate(args.data.clone());
    let scrambler = EventScrambler::open(event, args.random_state, &store, &progress)?;
    let mut out = std::io::BufWriter::new(cubedb::output::stdout()?);
    let mut next = 0u64;
    while next < args.count {
        let end = (next + 256).min(args.count);
        for (index, scramble) in
            (next..end).zip(scrambler.scrambles(seed, next, end - next, &Stop::never()))
        {
            let scramble =
                scramble.with_context(|| format!("{} scramble {}", event.id(), index + 1))?;
            match args.format {
                Format::Text => writeln!(out, "{scramble}"),
                Format::Svg => writeln!(out, "{}", cubedb::events::picture(event, &scramble)?),
                Format::Json => writeln!(
                    out,
                    "{{\"event\":\"{}\",\"seed\":{seed},\"index\":{index},\"scramble\":\"{}\"}}",
                    event.id(),
                    // Scrambles hold letters, digits, `'+-(),/`, spaces and newlines.
                    scramble.replace('\n', "\\n"),
                ),
            }
            .context(crate::WRITING)?;
        }
        out.flush().context(crate::WRITING)?;
        next = end;
    }
    Ok(())
}
