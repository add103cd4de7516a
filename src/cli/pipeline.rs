//! Batches answered on every core in input order, as answers complete: the job queue
//! and the reordering of finished answers, in bounded memory whatever the input's size.

use anyhow::Result;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::Mutex;
use std::time::Duration;

/// Jobs waiting for a worker, at most.
const QUEUE: usize = 1024;

/// Jobs read but not yet emitted, at most: queued, being worked on, or finished and
/// waiting behind a slower one. The producer blocks past it, so one slow job followed by
/// millions of fast ones holds this many answers in memory, not millions.
const IN_FLIGHT: usize = 4096;

/// Runs `work` on every job that `produce` sends, on `threads` threads, and hands each
/// result to `emit` in job order as soon as it and all before it are done. `emit`
/// returning an error stops everything (results after the failing job are dropped).
///
/// The producer runs on its own detached thread, so a producer blocked on reading stdin
/// never keeps the command from ending; it sends through a [`Jobs`], which holds it back
/// while [`IN_FLIGHT`] jobs are unanswered.
pub fn in_order_on_all_cores<J, S, R>(
    threads: usize,
    produce: impl FnOnce(Jobs<J>) + Send + 'static,
    make_state: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, J) -> R + Sync,
    mut emit: impl FnMut(usize, R) -> Result<()>,
) -> Result<()>
where
    J: Send + 'static,
    R: Send,
{
    let (job_tx, job_rx) = mpsc::sync_channel::<(usize, J)>(QUEUE);
    let (permit_tx, permit_rx) = mpsc::sync_channel::<()>(IN_FLIGHT);
    std::thread::spawn(move || {
        produce(Jobs {
            jobs: job_tx,
            permits: permit_tx,
        })
    });
    let jobs: Mutex<Receiver<(usize, J)>> = Mutex::new(job_rx);
    let stop = AtomicBool::new(false);
    let (done_tx, done_rx) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let done_tx = done_tx.clone();
            let (jobs, stop, work, make_state) = (&jobs, &stop, &work, &make_state);
            scope.spawn(move || {
                let mut state = make_state();
                while !stop.load(Ordering::Relaxed) {
                    let next = jobs
                        .lock()
                        .unwrap_or_else(|p| p.into_inner())
                        .recv_timeout(Duration::from_millis(50));
                    match next {
                        Ok((index, job)) => {
                            let result = work(&mut state, index, job);
                            if done_tx.send((index, result)).is_err() {
                                return;
                            }
                        }
                        Err(RecvTimeoutError::Timeout) => continue,
                        Err(RecvTimeoutError::Disconnected) => return,
                    }
                }
            });
        }
        drop(done_tx);
        let mut waiting = BTreeMap::new();
        let mut next = 0usize;
        for (index, result) in done_rx.iter() {
            waiting.insert(index, result);
            while let Some(result) = waiting.remove(&next) {
                if let Err(e) = emit(next, result) {
                    stop.store(true, Ordering::Relaxed);
                    return Err(e);
                }
                // One more job may be read.
                let _ = permit_rx.try_recv();
                next += 1;
            }
        }
        Ok(())
    })
}

/// Where a producer sends jobs: numbered in order, and held back while too many are
/// unanswered.
pub struct Jobs<J> {
    jobs: SyncSender<(usize, J)>,
    permits: SyncSender<()>,
}

impl<J> Jobs<J> {
    /// Sends job `index` (numbered from 0 in order), waiting while [`IN_FLIGHT`] jobs are
    /// unanswered. `Err` when no one takes jobs any more (the command is ending).
    pub fn send(&self, index: usize, job: J) -> Result<(), ()> {
        self.permits.send(()).map_err(drop)?;
        self.jobs.send((index, job)).map_err(drop)
    }
}

/// Worker threads: as many as `--threads` asks, else one per core.
pub fn cores() -> usize {
    cubedb::threads()
}
