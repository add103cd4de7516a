//! `bench serve`: `cubedb serve` under load on loopback. Three scenarios, every answer
//! checked by applying it to its cube:
//! 1. single two-phase requests (cap 21) from many concurrent keep-alive clients:
//!    requests per second, p50 / p99 latency, the service's memory before and after;
//! 2. batches of 1,000 cubes from a few clients: cubes per second;
//! 3. a flood of 1,000 optimal requests for random cubes (far more than the queue holds),
//!    with a health probe every 20 ms: the probes' latency, how the flood was answered
//!    (503 refused at once, 504 past the deadline), and the service's peak memory.
//!
//! The load generator runs on the same 2 cores as the service, so the figures are
//! what one machine does with both: a lower bound of the service alone.

use super::{human, quantile, BenchArgs};
use anyhow::{bail, Context, Result};
use axum::body::Bytes;
use cubedb::puzzles::rubik::{facelet_string, parse_moves, Cube};
use cubedb::rng::SplitMix64;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::SendRequest;
use hyper_util::rt::TokioIo;
use serde_json::{json, Value};
use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The service under test, started here if no `--url` was given.
struct Target {
    address: String,
    child: Option<Child>,
}

impl Target {
    fn start(args: &BenchArgs) -> Result<Self> {
        if let Some(url) = &args.url {
            let address = url
                .trim_start_matches("http://")
                .trim_end_matches('/')
                .to_string();
            return Ok(Self {
                address,
                child: None,
            });
        }
        let exe = std::env::current_exe().context("finding the cubedb binary")?;
        let mut command = Command::new(exe);
        command.args(["serve", "--addr", "127.0.0.1:0", "--deadline", "10", "-q"]);
        if let Some(data) = &args.data {
            command.arg("--data").arg(data);
        }
        let mut child = command
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("starting cubedb serve")?;
        let mut line = String::new();
        std::io::BufReader::new(child.stdout.take().context("stdout")?)
            .read_line(&mut line)
            .context("reading where it listens")?;
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .with_context(|| format!("no address in {line:?}"))?
            .to_string();
        Ok(Self {
            address,
            child: Some(child),
        })
    }

    /// The service's resident memory now and at its peak (MB), if it runs here.
    fn memory(&self) -> Option<(f64, f64)> {
        let pid = self.child.as_ref()?.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let field = |name: &str| {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.split_whitespace().next()?.parse::<f64>().ok())
                .map(|kb| kb / 1024.0)
        };
        Some((field("VmRSS:")?, field("VmHWM:")?))
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// One keep-alive HTTP/1.1 connection.
async fn connect(address: &str) -> Result<SendRequest<Full<Bytes>>> {
    let stream = tokio::net::TcpStream::connect(address)
        .await
        .with_context(|| format!("connecting to {address}"))?;
    stream.set_nodelay(true)?;
    let (sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

/// Sends one request; the status and the body.
async fn request(
    sender: &mut SendRequest<Full<Bytes>>,
    method: &str,
    path: &str,
    body: Option<String>,
) -> Result<(u16, Bytes)> {
    sender.ready().await?;
    let request = hyper::Request::builder()
        .method(method)
        .uri(path)
        .header("host", "127.0.0.1")
        .header("content-type", "application/json")
        .body(Full::new(Bytes::from(body.unwrap_or_default())))?;
    let response = sender.send_request(request).await?;
    let status = response.status().as_u16();
    let body = response.into_body().collect().await?.to_bytes();
    Ok((status, body))
}

/// Checks a reply solves `cube`.
fn check(cube: &Cube, body: &[u8]) -> Result<()> {
    let reply: Value = serde_json::from_slice(body).context("reply is not JSON")?;
    let solution = reply["solution"].as_str().context("no solution")?;
    let moves = parse_moves(solution).context("solution is not moves")?;
    if !cube.apply_all(&moves).is_solved() || moves.len() > 21 {
        bail!("wrong answer {solution:?} for {}", facelet_string(cube));
    }
    Ok(())
}

/// Runs the three scenarios.
pub fn run(args: &BenchArgs) -> Result<()> {
    let target = Target::start(args)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(scenarios(args, &target))
}

async fn scenarios(args: &BenchArgs, target: &Target) -> Result<()> {
    let address = target.address.clone();
    let clients = args.clients as usize;
    let total = args.count as usize;
    let mut rng = SplitMix64::new(args.seed);
    let cubes: Arc<Vec<Cube>> = Arc::new(
        (0..total.max(1000))
            .map(|_| Cube::random(&mut rng))
            .collect(),
    );
    say!("bench serve: http://{address}, load generator on the same machine");
    let memory_before = target.memory();

    // 1. Single requests from many clients.
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..clients {
        let (address, cubes, next) = (address.clone(), Arc::clone(&cubes), Arc::clone(&next));
        tasks.push(tokio::spawn(async move {
            let mut sender = connect(&address).await?;
            let mut latencies = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= total {
                    return Ok::<_, anyhow::Error>(latencies);
                }
                let cube = &cubes[i % cubes.len()];
                let body = json!({"facelets": facelet_string(cube), "max_length": 21}).to_string();
                let sent = Instant::now();
                let (status, reply) =
                    request(&mut sender, "POST", "/api/solve", Some(body)).await?;
                latencies.push(sent.elapsed());
                if status != 200 {
                    bail!("status {status}: {}", String::from_utf8_lossy(&reply));
                }
                check(cube, &reply)?;
            }
        }));
    }
    let mut latencies = Vec::with_capacity(total);
    for task in tasks {
        latencies.extend(task.await??);
    }
    let elapsed = started.elapsed();
    latencies.sort();
    anyhow::ensure!(
        latencies.len() == total,
        "requests lost: {} of {total} answered",
        latencies.len()
    );
    say!(
        "single requests, cap 21, {clients} clients: {total} answered and checked in {:.2} s: \
         {:.0} requests/s, latency p50 {} p99 {} max {}",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64(),
        human(quantile(&latencies, 0.5)),
        human(quantile(&latencies, 0.99)),
        human(quantile(&latencies, 1.0)),
    );
    if let (Some((before, _)), Some((after, peak))) = (memory_before, target.memory()) {
        say!("service memory: {before:.0} MB before, {after:.0} MB after, peak {peak:.0} MB");
    }

    // 2. Batches.
    let batch_clients = 4;
    let per_batch = 1000;
    let batches = (total / per_batch).max(batch_clients);
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for _ in 0..batch_clients {
        let (address, cubes, next) = (address.clone(), Arc::clone(&cubes), Arc::clone(&next));
        tasks.push(tokio::spawn(async move {
            let mut sender = connect(&address).await?;
            let mut solved = 0usize;
            loop {
                let b = next.fetch_add(1, Ordering::Relaxed);
                if b >= batches {
                    return Ok::<_, anyhow::Error>(solved);
                }
                let chosen: Vec<&Cube> = (0..per_batch)
                    .map(|k| &cubes[(b * per_batch + k) % cubes.len()])
                    .collect();
                let body = json!({
                    "cubes": chosen.iter().map(|c| facelet_string(c)).collect::<Vec<_>>(),
                    "max_length": 21,
                })
                .to_string();
                let (status, reply) =
                    request(&mut sender, "POST", "/api/solve/batch", Some(body)).await?;
                if status != 200 {
                    bail!("batch status {status}");
                }
                let lines: Vec<&[u8]> = reply
                    .split(|&b| b == b'\n')
                    .filter(|l| !l.is_empty())
                    .collect();
                anyhow::ensure!(
                    lines.len() == per_batch,
                    "batch answered {} of {per_batch}",
                    lines.len()
                );
                for (k, line) in lines.iter().enumerate() {
                    check(chosen[k], line)?;
                }
                solved += per_batch;
            }
        }));
    }
    let mut solved = 0;
    for task in tasks {
        solved += task.await??;
    }
    let elapsed = started.elapsed();
    say!(
        "batches of {per_batch}, cap 21, {batch_clients} clients: {solved} cubes answered and checked in {:.2} s: {:.0} cubes/s",
        elapsed.as_secs_f64(),
        solved as f64 / elapsed.as_secs_f64()
    );

    // 3. A flood of optimal requests, with health probes.
    let flood = 1000;
    let done = Arc::new(AtomicBool::new(false));
    let probe = {
        let (address, done) = (address.clone(), Arc::clone(&done));
        tokio::spawn(async move {
            let mut sender = connect(&address).await?;
            let mut times = Vec::new();
            while !done.load(Ordering::Relaxed) {
                let sent = Instant::now();
                let (status, _) = request(&mut sender, "GET", "/api/health", None).await?;
                anyhow::ensure!(status == 200, "health answered {status}");
                times.push(sent.elapsed());
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Ok::<_, anyhow::Error>(times)
        })
    };
    let started = Instant::now();
    let senders = 100;
    let next = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for _ in 0..senders {
        let (address, cubes, next) = (address.clone(), Arc::clone(&cubes), Arc::clone(&next));
        tasks.push(tokio::spawn(async move {
            let mut counts = [0usize; 4]; // 200, 503, 504, other
            let mut sender = connect(&address).await?;
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= flood {
                    return Ok::<_, anyhow::Error>(counts);
                }
                let cube = &cubes[i % cubes.len()];
                let body = json!({"facelets": facelet_string(cube)}).to_string();
                let (status, reply) =
                    request(&mut sender, "POST", "/api/solve", Some(body)).await?;
                match status {
                    200 => {
                        let value: Value = serde_json::from_slice(&reply)?;
                        let moves = parse_moves(value["solution"].as_str().unwrap_or_default())?;
                        anyhow::ensure!(cube.apply_all(&moves).is_solved(), "wrong optimal answer");
                        counts[0] += 1;
                    }
                    503 => counts[1] += 1,
                    504 => counts[2] += 1,
                    _ => counts[3] += 1,
                }
            }
        }));
    }
    let mut counts = [0usize; 4];
    let mut peak_during = 0.0f64;
    for task in tasks {
        let c = task.await??;
        for k in 0..4 {
            counts[k] += c[k];
        }
        if let Some((rss, _)) = target.memory() {
            peak_during = peak_during.max(rss);
        }
    }
    let flood_time = started.elapsed();
    done.store(true, Ordering::Relaxed);
    let mut probes = probe.await??;
    probes.sort();
    anyhow::ensure!(
        counts.iter().sum::<usize>() == flood,
        "optimal requests lost"
    );
    say!(
        "flood of {flood} optimal requests from {senders} clients in {:.2} s: {} solved, {} refused (503), \
         {} past the deadline (504), {} other",
        flood_time.as_secs_f64(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    if !probes.is_empty() {
        say!(
            "health during the flood: {} probes, p50 {} p99 {} max {}",
            probes.len(),
            human(quantile(&probes, 0.5)),
            human(quantile(&probes, 0.99)),
            human(quantile(&probes, 1.0))
        );
    }
    if let Some((rss, peak)) = target.memory() {
        say!("service memory after the flood: {rss:.0} MB (peak {peak:.0} MB)");
    }
    Ok(())
}
