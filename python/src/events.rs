//! `scramble_event`: scrambles for a WCA event, as `cubedb scramble EVENT` prints them.

use crate::args::optional_whole;
use crate::cube::random_seed;
use crate::{cube_error, interrupt, store};
use cubedb::events::{Event, EventError, EventScrambler};
use cubedb::limits::Stop;
use cubedb::limits::WholeRange;
use cubedb::progress::Progress;
use pyo3::prelude::*;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Scramblers opened so far, by event and random-state flag (tables load once).
type Opened = Mutex<HashMap<(&'static str, bool), Arc<EventScrambler>>>;

fn scrambler(event: Event, random_state: bool) -> PyResult<Arc<EventScrambler>> {
    static OPENED: OnceLock<Opened> = OnceLock::new();
    let opened = OPENED.get_or_init(|| Mutex::new(HashMap::new()));
    let mut opened = opened.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(found) = opened.get(&(event.id(), random_state)) {
        return Ok(found.clone());
    }
    let made = EventScrambler::open(event, random_state, &store(), &Progress::stderr(false))
        .map_err(event_error)?;
    let made = Arc::new(made);
    opened.insert((event.id(), random_state), made.clone());
    Ok(made)
}

fn event_error(e: EventError) -> PyErr {
    match e {
        EventError::Table(t) => crate::table_error(t),
        other => cube_error(other.to_string()),
    }
}

/// Scrambles for the WCA event `event` (`"333"`, `"444"`, `"sq1"`, `"minx"`, ...) in its
/// notation: one string, or a list of `count`; reproducible with `seed` (the same as
/// `cubedb scramble EVENT --seed S`). `random_state=True` asks random-state megaminx
/// and 5x5x5 scrambles. An unknown event raises `CubeError` listing the known ones.
#[pyfunction]
#[pyo3(signature = (event, *, count = None, seed = None, random_state = false))]
pub fn scramble_event(
    py: Python<'_>,
    event: &str,
    count: Option<&Bound<'_, PyAny>>,
    seed: Option<&Bound<'_, PyAny>>,
    random_state: bool,
) -> PyResult<Py<PyAny>> {
    let event = Event::parse(event).map_err(event_error)?;
    let count = optional_whole("count", WholeRange::COUNT, count)?;
    let seed = optional_whole("seed", WholeRange::SEED, seed)?.unwrap_or_else(random_seed);
    let scrambler = scrambler(event, random_state)?;
    let wanted = count.unwrap_or(1);
    // Without the GIL, a chunk at a time: Ctrl-C stops a long run between two chunks.
    let made = interrupt::run(py, move |cancel| {
        let mut made = Vec::with_capacity(wanted as usize);
        let mut next = 0;
        while next < wanted && !cancel.is_cancelled() {
            let chunk = (wanted - next).min(64);
            made.extend(scrambler.scrambles(seed, next, chunk, &Stop::never()));
            next += chunk;
        }
        made
    })?;
    let scrambles: Vec<String> = made
        .into_iter()
        .map(|s| s.map_err(event_error))
        .collect::<PyResult<_>>()?;
    crate::one_or_list(py, count, scrambles)
}

/// The picture of the state the `event` scramble `scramble` reaches, as SVG (the cubes as
/// a net in the WCA's colours, the others as the WCA's program draws them); a scramble
/// the event's notation cannot read raises `CubeError`.
#[pyfunction]
pub fn scramble_picture(event: &str, scramble: &str) -> PyResult<String> {
    let event = Event::parse(event).map_err(event_error)?;
    cubedb::events::picture(event, scramble).map_err(event_error)
}
