//! Long computations that Ctrl-C interrupts: the work runs on the library's thread pool
//! while the calling thread, the GIL released, waits for it and every 50 ms takes the GIL
//! back to let Python run its signal handlers. A pending `KeyboardInterrupt` (or any
//! exception a handler raises) cancels the work and is raised in its place.

use cubedb::limits::Cancel;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

/// How often the waiting thread looks for signals.
const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// Runs `job` (given a cancel flag it must watch) and returns its result, or the exception
/// a signal handler raised while it ran (the job is cancelled and waited for first). The
/// job may borrow from the caller: it always ends before this returns.
pub fn run<T: Send>(py: Python<'_>, job: impl FnOnce(Cancel) -> T + Send) -> PyResult<T> {
    let cancel = Cancel::new();
    let (tx, rx) = sync_channel(1);
    let flag = cancel.clone();
    // Shared with the GIL-free waits (a receiver alone is not `Sync`).
    let rx = Mutex::new(rx);
    let recv = |wait: Option<Duration>| {
        let rx = rx.lock().unwrap_or_else(|p| p.into_inner());
        match wait {
            Some(wait) => rx.recv_timeout(wait),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    };
    // The scope ends once the job has: by then its answer (or its end) has been received.
    rayon::in_place_scope(|scope| {
        scope.spawn(move |_| {
            let _ = tx.send(job(flag));
        });
        loop {
            match py.detach(|| recv(Some(SIGNAL_CHECK))) {
                Ok(value) => return Ok(value),
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(interrupt) = py.check_signals() {
                        cancel.cancel();
                        // The job stops within milliseconds of seeing the flag.
                        let _ = py.detach(|| recv(None));
                        return Err(interrupt);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "internal error: a solve stopped without an answer",
                    ))
                }
            }
        }
    })
}
