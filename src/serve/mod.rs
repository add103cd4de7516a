//! `cubedb serve`: the Rubik solvers over HTTP, with a web page. One more front end over
//! the library's faces (`cubedb::puzzles::rubik::api`), like the command line and the
//! Python package.
//!
//! - [`service`]: the solvers opened once at start, the two thread pools (quick two-phase
//!   work; long optimal work behind a bounded queue) and every answer;
//! - [`api`]: the HTTP routes, JSON in and out, and the request limits;
//! - [`puzzles`]: definition-driven puzzles (`.tws` with plans), opened on first use;
//! - [`error`]: errors as JSON with their status codes;
//! - [`web`]: the web page, its files built into the binary.
//!
//! Connections are served by hyper directly (not `axum::serve`) so that slow clients,
//! connection counts and graceful shutdown are under this module's control.

mod api;
mod error;
mod puzzles;
mod service;
mod web;

use anyhow::{Context, Result};
use clap::Args;
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::Preset;
use cubedb::table::TableStore;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use puzzles::PuzzleShelf;
use service::{Limits, Service};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Arguments of `cubedb serve`.
#[derive(Debug, Args)]
pub struct ServeArgs {
    /// Address to listen on (loopback unless told otherwise; port 0 picks a free one).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,

    /// Folder of table files [default: $CUBEDB_DATA, else ./data].
    #[arg(long, value_name = "DIR")]
    data: Option<PathBuf>,

    /// Pattern-database preset for optimal solving [default: the fastest built, else
    /// 200m].
    #[arg(long, value_enum)]
    tables: Option<Preset>,

    /// Longest any one solve may take, in seconds (a request's own `timeout` can only
    /// shorten it); past it the answer is 504.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0, value_parser = crate::ranges::seconds)]
    deadline: f64,

    /// Long requests (optimal, listings, goals) waiting for a free solver at most; past
    /// it they are refused at once with 503 and Retry-After.
    #[arg(long, value_name = "N", default_value_t = 64, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    queue: u32,

    /// Cubes in one batch request at most.
    #[arg(long, value_name = "N", default_value_t = 100_000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    max_batch: u32,

    /// How long a client may take to send a request's headers, or its body, in seconds;
    /// slower or stalled clients are cut off (408 when the headers came).
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0, value_parser = crate::ranges::seconds)]
    client_timeout: f64,

    /// Lock the mapped tables in memory (mlock), so that they stay resident while the
    /// service is idle: some hosts page out file pages nobody touched for a minute, and
    /// the next query would read its table lines from disk. Reads every mapped table in
    /// at start; needs a memlock limit (`ulimit -l`) of at least their size.
    #[arg(long)]
    lock_tables: bool,

    /// Folder of puzzle definitions (`.tws`, each with its `.plan` beside it) answered at
    /// /api/puzzle/NAME/... [default: ./puzzles, when there is one].
    #[arg(long, value_name = "DIR")]
    puzzles: Option<PathBuf>,

    /// No progress bars or notes on stderr (the line saying where it listens stays).
    #[arg(long, short)]
    quiet: bool,
}

/// Open connections at most; more wait in the kernel's backlog.
const MAX_CONNECTIONS: usize = 1024;

/// How long in-flight requests get to finish after SIGINT or SIGTERM (their solves are
/// cancelled at once, so they finish within milliseconds).
const DRAIN: Duration = Duration::from_secs(10);

/// Runs the service until SIGINT or SIGTERM.
pub fn run(args: ServeArgs) -> Result<()> {
    let started = Instant::now();
    let store = TableStore::locate(args.data.clone());
    let progress = Progress::stderr(args.quiet);
    let limits = Limits {
        deadline: cubedb::limits::timeout("--deadline", args.deadline)?,
        queue: args.queue as usize,
        max_batch: args.max_batch as usize,
        client_timeout: cubedb::limits::timeout("--client-timeout", args.client_timeout)?,
    };
    if args.lock_tables {
        cubedb::table::lock_mapped_tables();
    }
    let shelf = PuzzleShelf::new(match args.puzzles {
        Some(dir) => Some(dir),
        None => Some(PathBuf::from("puzzles")).filter(|d| d.is_dir()),
    });
    let opened = Service::open(store, args.tables, limits, shelf, &progress);
    let service = if args.lock_tables {
        opened.context("opening the tables locked in memory (--lock-tables)")?
    } else {
        opened?
    };
    let service = Arc::new(service);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cubedb::threads().clamp(1, 4))
        .thread_name("cubedb-http")
        .enable_all()
        .build()
        .context("starting the HTTP runtime")?;
    runtime.block_on(serve(service, args.addr, started))
}

/// Accepts connections until a shutdown signal, then drains them.
async fn serve(service: Arc<Service>, addr: SocketAddr, started: Instant) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("listening on {addr}"))?;
    let local = listener.local_addr().context("reading the bound address")?;
    let app = api::router(Arc::clone(&service));
    say!(
        "cubedb serve: listening on http://{local} (ready in {:.0} ms; {})",
        started.elapsed().as_secs_f64() * 1e3,
        service.summary()
    );
    let graceful = GracefulShutdown::new();
    let connections = Arc::new(tokio::sync::Semaphore::new(MAX_CONNECTIONS));
    let shutdown = shutdown_signal();
    tokio::pin!(shutdown);
    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&connections).acquire_owned() => permit.context("connection limit")?,
            () = &mut shutdown => break,
        };
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        let (stream, _) = match accepted {
            Ok(connection) => connection,
            // Out of file descriptors and the like: wait a little, keep serving.
            Err(_) => {
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let hyper_service = hyper_util::service::TowerToHyperService::new(app.clone());
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(service.limits().client_timeout)
            .serve_connection(TokioIo::new(stream), hyper_service);
        let watched = graceful.watch(connection);
        tokio::spawn(async move {
            let _ = watched.await;
            drop(permit);
        });
    }
    note!("cubedb serve: shutting down: in-flight solves cancelled, connections draining");
    service.shut_down();
    drop(listener);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        note!("cubedb serve: some connections did not close in time");
    }
    note!(
        "cubedb serve: stopped after {} requests",
        service.requests_answered()
    );
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = interrupt => {},
        () = terminate => {},
    }
}
