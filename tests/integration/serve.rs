//! `cubedb serve`, a real HTTP server on loopback: its answers equal the library's on
//! thousands of random cubes, bad requests get JSON errors and never bring it down, the
//! optimal queue refuses floods with 503, slow clients are cut off, and SIGTERM stops it
//! cleanly.

use crate::common::{data_dir_with, shared_data_dir};
use cubedb::progress::Progress;
use cubedb::puzzles::rubik::api::{OptimalSolver, TwoPhaseSolver};
use cubedb::puzzles::rubik::twophase::Best;
use cubedb::puzzles::rubik::{facelet_string, format_moves, parse_moves, Cube, Metric};
use cubedb::rng::SplitMix64;
use cubedb::table::TableStore;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CUBEDB: &str = env!("CARGO_BIN_EXE_cubedb");

/// A running `cubedb serve`, stopped when dropped.
struct Server {
    child: Child,
    base: String,
}

impl Server {
    /// Starts the service on a free loopback port with the shared test tables.
    fn start(extra: &[&str]) -> Self {
        data_dir_with("rubik-twophase");
        data_dir_with("rubik-near");
        data_dir_with("rubik");
        let data = shared_data_dir().display().to_string();
        let mut child = Command::new(CUBEDB)
            .args(["serve", "--addr", "127.0.0.1:0", "--data", &data, "-q"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start cubedb serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the listening line");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Self {
            child,
            base: format!("http://{address}"),
        }
    }

    fn address(&self) -> &str {
        self.base.trim_start_matches("http://")
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .timeout_global(Some(Duration::from_secs(120)))
        .build()
        .into()
}

/// Status, body text and Retry-After of a request.
fn call(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    body: Option<&str>,
) -> (u16, String, Option<String>) {
    let response = match (method, body) {
        ("GET", _) => agent.get(url).call(),
        ("POST", Some(body)) => agent
            .post(url)
            .header("Content-Type", "application/json")
            .send(body),
        ("POST", None) => agent.post(url).send_empty(),
        ("DELETE", _) => agent.delete(url).call(),
        _ => unreachable!(),
    };
    let mut response = response.unwrap_or_else(|e| panic!("{method} {url}: {e}"));
    let retry = response
        .headers()
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let status = response.status().as_u16();
    let text = response
        .body_mut()
        .with_config()
        .limit(64 << 20)
        .read_to_string()
        .expect("body");
    (status, text, retry)
}

fn post_json(agent: &ureq::Agent, url: &str, body: &Value) -> (u16, Value) {
    let (status, text, _) = call(agent, "POST", url, Some(&body.to_string()));
    let value = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
    (status, value)
}

fn random_cubes(seed: u64, count: usize) -> Vec<Cube> {
    let mut rng = SplitMix64::new(seed);
    (0..count).map(|_| Cube::random(&mut rng)).collect()
}

/// `--lock-tables` locks the tables it maps in memory (the server's `VmLck`), and the
/// service answers as without it.
#[test]
#[cfg(target_os = "linux")]
fn locked_tables_are_locked_memory_and_answer() {
    let server = Server::start(&["--lock-tables"]);
    let agent = agent();
    let (status, reply) = post_json(
        &agent,
        &format!("{}/api/solve", server.base),
        &json!({"scramble": "R U F'", "metric": "htm"}),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["length"], 3, "{reply}");
    assert_eq!(reply["optimal"], true);
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id()))
        .expect("the server's status");
    let locked_kb: u64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmLck:"))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmLck in /proc/PID/status");
    // The near table's keys (74 MB) are mapped, not copied: at least they are locked.
    assert!(locked_kb > 60_000, "only {locked_kb} kB locked");
}

/// Every answer equals the library's: two-phase in both metrics (singles and batches),
/// optimal solutions, scrambles and cube states.
#[test]
fn service_answers_equal_the_librarys() {
    let server = Server::start(&[]);
    let agent = agent();
    let store = TableStore::new(shared_data_dir());
    let hidden = Progress::hidden();
    for (metric, name, cap, count) in [
        (Metric::Htm, "htm", 21, 2000),
        // 27: two-phase's first answers within it come in milliseconds, where 26 takes
        // seconds a cube on some (the comparison is the same).
        (Metric::Qtm, "qtm", 27, 300),
    ] {
        let solver = TwoPhaseSolver::open(&store, metric, &hidden).expect("tables");
        let cubes = random_cubes(27 + count as u64, count);
        let expected: Vec<String> = cubes
            .iter()
            .map(|cube| {
                match solver
                    .solve(&mut solver.search(), cube, cap, None, None)
                    .best
                {
                    Best::Within(moves) => format_moves(&moves),
                    other => panic!("library: {other:?}"),
                }
            })
            .collect();
        // The batch, as NDJSON in input order.
        let body = json!({
            "cubes": cubes.iter().map(facelet_string).collect::<Vec<_>>(),
            "max_length": cap,
            "metric": name,
        });
        let (status, text, _) = call(
            &agent,
            "POST",
            &format!("{}/api/solve/batch", server.base),
            Some(&body.to_string()),
        );
        assert_eq!(status, 200, "{text}");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("NDJSON line"))
            .collect();
        assert_eq!(lines.len(), cubes.len());
        for (i, line) in lines.iter().enumerate() {
            assert_eq!(line["index"], i, "{line}");
            assert_eq!(line["solution"], expected[i], "{name} cube {i}");
            assert_eq!(line["metric"], name);
        }
        // Single requests, as facelets and as the scramble that undoes the solution.
        for (i, cube) in cubes.iter().enumerate().take(300) {
            let (status, reply) = post_json(
                &agent,
                &format!("{}/api/solve", server.base),
                &json!({"facelets": facelet_string(cube), "max_length": cap, "metric": name}),
            );
            assert_eq!(status, 200, "{reply}");
            assert_eq!(reply["solution"], expected[i]);
            let moves = parse_moves(reply["solution"].as_str().unwrap_or_default()).expect("moves");
            assert!(cube.apply_all(&moves).is_solved());
            assert_eq!(reply["length"], metric.length(&moves));
        }
    }
    // Optimal answers equal the library's optimal solver's.
    let mut rng = SplitMix64::new(5);
    for metric in [Metric::Htm, Metric::Qtm] {
        let solver = OptimalSolver::open(&store, metric, None, &hidden).expect("tables");
        for depth in [0, 1, 5, 8, 10] {
            let scramble: Vec<_> = (0..depth)
                .map(|_| cubedb::puzzles::rubik::Move::from_index(rng.below(18) as usize))
                .collect();
            let cube = Cube::from_moves(&scramble);
            let expected = solver.solve(&cube).expect("solve");
            let (status, reply) = post_json(
                &agent,
                &format!("{}/api/solve", server.base),
                &json!({"scramble": format_moves(&scramble), "metric": metric.name()}),
            );
            assert_eq!(status, 200, "{reply}");
            assert_eq!(reply["length"], expected.length, "{reply}");
            assert_eq!(reply["optimal"], true);
            let moves = parse_moves(reply["solution"].as_str().unwrap_or_default()).expect("moves");
            assert!(cube.apply_all(&moves).is_solved());
        }
    }
    // Scrambles: the positions of `cubedb rubik random` with the same seed, as the CLI's.
    let (status, text, _) = call(
        &agent,
        "GET",
        &format!("{}/api/scramble?count=20&seed=77", server.base),
        None,
    );
    assert_eq!(status, 200, "{text}");
    let reply: Value = serde_json::from_str(&text).expect("json");
    let cli = crate::common::cubedb(
        &[
            "rubik",
            "scramble",
            "--count",
            "20",
            "--seed",
            "77",
            "--data",
            &shared_data_dir().display().to_string(),
        ],
        "",
    );
    let cli_lines: Vec<String> = crate::common::stdout(&cli)
        .lines()
        .map(str::to_string)
        .collect();
    let scrambles: Vec<String> = reply["scrambles"]
        .as_array()
        .expect("scrambles")
        .iter()
        .map(|s| s.as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(scrambles, cli_lines);
    for (scramble, facelets) in scrambles
        .iter()
        .zip(reply["facelets"].as_array().expect("facelets"))
    {
        let cube = Cube::from_moves(&parse_moves(scramble).expect("moves"));
        assert_eq!(facelet_string(&cube), facelets.as_str().unwrap_or_default());
    }
    // The cube after moves, step by step.
    let (status, reply) = post_json(
        &agent,
        &format!("{}/api/cube", server.base),
        &json!({"scramble": "R U", "moves": "U' R'", "steps": true}),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["solved"], true);
    assert_eq!(reply["steps"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        reply["steps"][0],
        facelet_string(&Cube::from_moves(&parse_moves("R U").expect("moves")))
    );
}

/// Bad requests: a JSON error with the right status and the library's wording, never a
/// crash; the service answers normally afterwards.
#[test]
fn bad_requests_get_json_errors_and_never_crash_it() {
    let server = Server::start(&["--max-batch", "10"]);
    let agent = agent();
    let solve = format!("{}/api/solve", server.base);
    let cases: Vec<(&str, String, u16, &str)> = vec![
        ("POST", "not json".into(), 400, "not JSON"),
        ("POST", "[1, 2]".into(), 400, "must be a JSON object"),
        (
            "POST",
            r#"{"scramble": "R", "bogus": 1}"#.into(),
            400,
            "unknown field `bogus`",
        ),
        (
            "POST",
            r#"{"scramble": "R", "facelets": "x"}"#.into(),
            400,
            "not both",
        ),
        ("POST", "{}".into(), 400, "no cube"),
        ("POST", r#"{"scramble": "R Q"}"#.into(), 400, "scramble:"),
        (
            "POST",
            r#"{"scramble": 12}"#.into(),
            400,
            "scramble must be a string, not a number",
        ),
        (
            "POST",
            format!(r#"{{"facelets": "{}"}}"#, "U".repeat(54)),
            400,
            "facelets:",
        ),
        (
            "POST",
            r#"{"facelets": "UUUUUUUUURRRRRRRRRFFFFFFFFFDDDDDDDDDLLLLLLLLLBBBBBBBBU"}"#.into(),
            400,
            "wrong sticker counts",
        ),
        // One corner twisted, one edge flipped, two edges swapped (parity).
        (
            "POST",
            format!(r#"{{"facelets": "{}"}}"#, twisted_corner()),
            400,
            "twist",
        ),
        (
            "POST",
            format!(r#"{{"facelets": "{}"}}"#, flipped_edge()),
            400,
            "flip",
        ),
        (
            "POST",
            format!(r#"{{"facelets": "{}"}}"#, swapped_edges()),
            400,
            "parity",
        ),
        (
            "POST",
            format!(r#"{{"facelets": "{}"}}"#, "U?".repeat(27)),
            400,
            "partial cubes",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": -1}"#.into(),
            400,
            "max_length must be a whole number from 0 to 255, not -1",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": 1e30}"#.into(),
            400,
            "max_length must be a whole number from 0 to 255",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": "21"}"#.into(),
            400,
            "max_length must be a whole number, not a string",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": 2.5}"#.into(),
            400,
            "max_length must be a whole number from 0 to 255",
        ),
        (
            "POST",
            r#"{"scramble": "R", "metric": "slice"}"#.into(),
            400,
            "metric must be \"htm\" or \"qtm\"",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": 21, "timeout": -1}"#.into(),
            400,
            "timeout",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": 21, "timeout": "soon"}"#.into(),
            400,
            "timeout must be a number of seconds",
        ),
        (
            "POST",
            r#"{"scramble": "R", "count": 0}"#.into(),
            400,
            "count must be a whole number from 1",
        ),
        (
            "POST",
            r#"{"scramble": "R", "all": true, "count": 2}"#.into(),
            400,
            "not both",
        ),
        (
            "POST",
            r#"{"scramble": "R", "max_length": 21, "goal": "cross"}"#.into(),
            400,
            "does not combine",
        ),
        (
            "POST",
            r#"{"scramble": "R", "goal": "nonsense"}"#.into(),
            400,
            "goal:",
        ),
        (
            "POST",
            format!(
                r#"{{"scramble": "R", "goal": "{}{}{}"}}"#,
                "?".repeat(27),
                "D".repeat(9),
                "?".repeat(18)
            ),
            400,
            "sticker masks",
        ),
        (
            "POST",
            r#"{"scramble": "R", "moves": "R,Q"}"#.into(),
            400,
            "moves:",
        ),
        (
            "POST",
            r#"{"scramble": "R U F D", "max_length": 3}"#.into(),
            422,
            "no solution of at most 3 face turns exists",
        ),
        (
            "POST",
            r#"{"scramble": "F", "moves": "R,U"}"#.into(),
            422,
            "not in the group",
        ),
    ];
    for (method, body, status, words) in &cases {
        let (got, text, _) = call(&agent, method, &solve, Some(body));
        assert_eq!(got, *status, "{body}: {text}");
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{body}: not JSON ({e}): {text}"));
        let message = value["error"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{body}: {message}");
        assert_eq!(value["status"], *status);
    }
    // Size limits: 413, whether the size is declared or only seen while reading.
    let declared = raw_exchange(
        server.address(),
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 10485760\r\n\r\n".to_vec(),
    );
    assert!(declared.starts_with("HTTP/1.1 413"), "{declared}");
    assert!(declared.contains("larger than 8388608 bytes"), "{declared}");
    let mut chunked =
        b"POST /api/solve HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..10 {
        chunked.extend_from_slice(format!("{:x}\r\n", 1 << 20).as_bytes());
        chunked.extend(std::iter::repeat_n(b' ', 1 << 20));
        chunked.extend_from_slice(b"\r\n");
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    let seen = raw_exchange(server.address(), chunked);
    assert!(
        seen.starts_with("HTTP/1.1 413"),
        "{}",
        &seen[..seen.len().min(300)]
    );
    let batch = json!({"cubes": vec!["R"; 11], "max_length": 21});
    let (status, reply) = post_json(&agent, &format!("{}/api/solve/batch", server.base), &batch);
    assert_eq!(status, 413, "{reply}");
    assert!(reply["error"]
        .as_str()
        .unwrap_or_default()
        .contains("at most 10 cubes, not 11"));
    // Routes and methods.
    let (status, text, _) = call(&agent, "GET", &format!("{}/api/nothing", server.base), None);
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("\"error\""));
    let (status, text, _) = call(&agent, "GET", &solve, None);
    assert_eq!(status, 405, "{text}");
    assert!(text.contains("\"error\""));
    let (status, text, _) = call(
        &agent,
        "GET",
        &format!("{}/api/scramble?count=0", server.base),
        None,
    );
    assert_eq!(status, 400, "{text}");
    let (status, text, _) = call(
        &agent,
        "GET",
        &format!("{}/api/scramble?count=-1", server.base),
        None,
    );
    assert_eq!(status, 400, "{text}");
    // A batch keeps going past a bad cube, and says which.
    let batch = json!({"cubes": ["R U", "R Q", {"facelets": "U"}, 7, "F"], "max_length": 21});
    let (status, text, _) = call(
        &agent,
        "POST",
        &format!("{}/api/solve/batch", server.base),
        Some(&batch.to_string()),
    );
    assert_eq!(status, 200);
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("line"))
        .collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0]["solution"], "U' R'");
    assert_eq!(
        (lines[1]["index"].clone(), lines[1]["status"].clone()),
        (json!(1), json!(400))
    );
    assert!(lines[2]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("facelets"));
    assert!(lines[3]["error"]
        .as_str()
        .unwrap_or_default()
        .contains("string or an object"));
    assert_eq!(lines[4]["solution"], "F'");
    // Garbage on the wire: the connection is dropped, the server stays up.
    for garbage in [
        &b"\x00\x01\x02 nonsense\r\n\r\n"[..],
        b"GET / HTTP/9.9\r\n\r\n",
        b"POST /api/solve HTTP/1.1\r\nContent-Length: -5\r\n\r\n",
    ] {
        let mut stream = TcpStream::connect(server.address()).expect("connect");
        let _ = stream.write_all(garbage);
        let _ = stream.set_read_timeout(Some(Duration::from_secs(5)));
        let mut sink = Vec::new();
        let _ = stream.read_to_end(&mut sink);
    }
    let (status, text, _) = call(&agent, "GET", &format!("{}/api/health", server.base), None);
    assert_eq!(status, 200, "{text}");
    assert!(text.contains("\"status\":\"ok\""));
}

/// A running service's error for a request: status and message.
fn error_of(server: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
    let (status, text, _) = call(&agent(), method, &format!("{}{path}", server.base), body);
    let value: Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {text}"));
    (status, value["error"].as_str().unwrap_or("").to_string())
}

/// Issue 56, item 22: a repeated key is refused, in a body (at any depth) or a query
/// string, as an unknown one is: never decided by which comes last.
#[test]
fn repeated_keys_are_refused() {
    let server = Server::start(&[]);
    let cases: [(&str, &str, Option<&str>, &str); 6] = [
        (
            "POST",
            "/api/solve",
            Some(r#"{"scramble": "R", "scramble": "F"}"#),
            "field `scramble` is given twice",
        ),
        (
            "POST",
            "/api/solve",
            Some(r#"{"scramble": "R", "max_length": 21, "max_length": 1}"#),
            "field `max_length` is given twice",
        ),
        (
            "POST",
            "/api/solve/batch",
            Some(r#"{"cubes": ["R", {"scramble": "R", "scramble": "F"}], "max_length": 21}"#),
            "field `cubes`[1].`scramble` is given twice",
        ),
        (
            "POST",
            "/api/cube",
            Some(r#"{"moves": "R", "moves": "F"}"#),
            "field `moves` is given twice",
        ),
        (
            "GET",
            "/api/scramble?count=1&count=3",
            None,
            "parameter `count` is given twice",
        ),
        (
            "GET",
            "/api/cube?moves=R&moves=F",
            None,
            "parameter `moves` is given twice",
        ),
    ];
    for (method, path, body, words) in cases {
        let (status, message) = error_of(&server, method, path, body);
        assert_eq!(status, 400, "{path} {body:?}: {message}");
        assert!(message.contains(words), "{path} {body:?}: {message}");
    }
}

/// Issue 56, item 23: input echoed in an error is at most 40 characters, escaped (as every
/// message quotes input), and a number is reported as written, never as a float.
#[test]
fn echoed_input_is_cut_and_numbers_are_as_written() {
    let server = Server::start(&[]);
    let agent = agent();
    let url = |path: &str| format!("{}{path}", server.base);
    let long = "A".repeat(60_000);
    let (status, text, _) = call(&agent, "GET", &url(&format!("/assets/{long}")), None);
    assert_eq!(status, 404);
    assert!(text.len() < 300, "{} bytes: {}", text.len(), &text[..200]);
    assert!(
        text.contains(&format!("`{}...` (60000 characters)", "A".repeat(40))),
        "{text}"
    );
    let (status, text, _) = call(&agent, "GET", &url("/assets/%E2%80%8Bapp.js"), None);
    assert_eq!(status, 404);
    assert!(text.contains(r"`\\u{200B}app.js`"), "{text}");
    for (body, words) in [
        (
            r#"{"scramble": "R", "max_length": 18446744073709551616}"#.to_string(),
            "max_length must be a whole number from 0 to 255, not 18446744073709551616",
        ),
        (
            r#"{"scramble": "R", "max_length": -99999999999999999999}"#.to_string(),
            "max_length must be a whole number from 0 to 255, not -99999999999999999999",
        ),
        (
            r#"{"scramble": "R", "max_length": 1e30}"#.to_string(),
            "max_length must be a whole number from 0 to 255, not 1e",
        ),
        (
            format!(r#"{{"scramble": "R", "{long}": 1}}"#),
            "unknown field `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA...` (60000 characters)",
        ),
        (
            format!(r#"{{"scramble": "R", "metric": "{long}"}}"#),
            "(60000 characters)",
        ),
        (
            r#"{"scramble": "R", "max_length": 21, "timeout": -1e400}"#.to_string(),
            "timeout must be a number of seconds, 0 or more, not -1e",
        ),
    ] {
        let (status, message) = error_of(&server, "POST", "/api/solve", Some(&body));
        assert_eq!(status, 400, "{message}");
        assert!(
            message.contains(words),
            "{}: {message}",
            &body[..body.len().min(80)]
        );
        assert!(!message.contains("e+19"), "a float: {message}");
        assert!(message.len() < 300, "{message}");
    }
    let (status, message) = error_of(
        &server,
        "GET",
        &format!("/api/scramble?count=1&{long}=1"),
        None,
    );
    assert_eq!(status, 400);
    assert!(
        message.contains("(60000 characters)") && message.len() < 300,
        "{message}"
    );
    let (status, message) = error_of(
        &server,
        "GET",
        "/api/scramble?count=99999999999999999999999",
        None,
    );
    assert_eq!(status, 400);
    assert!(
        message
            .contains("count must be a whole number from 1 to 10000, not 99999999999999999999999"),
        "{message}"
    );
    // A timeout beyond a float is no deadline at all, as on the command line.
    let (status, reply) = post_json(
        &agent,
        &url("/api/solve"),
        &serde_json::from_str(r#"{"scramble": "R U F", "max_length": 21, "timeout": 1e400}"#)
            .expect("JSON"),
    );
    assert_eq!(status, 200, "{reply}");
    assert_eq!(reply["solution"], "F' U' R'");
}

/// Issue 56, item 24: a query parameter is read by the rules of the same field in a body
/// (`steps` is true or false either way), and both give the same answers.
#[test]
fn query_values_follow_the_rules_of_bodies() {
    let server = Server::start(&[]);
    let agent = agent();
    let url = |path: &str| format!("{}{path}", server.base);
    for (path, body) in [
        (
            "/api/cube?moves=R&steps=yes",
            r#"{"moves": "R", "steps": "yes"}"#,
        ),
        ("/api/cube?moves=R&steps=1", r#"{"moves": "R", "steps": 1}"#),
    ] {
        for (method, path, body) in [("GET", path, None), ("POST", "/api/cube", Some(body))] {
            let (status, message) = error_of(&server, method, path, body);
            assert_eq!(status, 400, "{path} {body:?}: {message}");
            assert!(
                message.contains("steps must be true or false"),
                "{path}: {message}"
            );
        }
    }
    for (path, body) in [
        (
            "/api/cube?moves=R&steps=true",
            r#"{"moves": "R", "steps": true}"#,
        ),
        (
            "/api/cube?moves=R&steps=false",
            r#"{"moves": "R", "steps": false}"#,
        ),
    ] {
        let (status, got, _) = call(&agent, "GET", &url(path), None);
        assert_eq!(status, 200, "{got}");
        let (status, posted, _) = call(&agent, "POST", &url("/api/cube"), Some(body));
        assert_eq!(status, 200, "{posted}");
        assert_eq!(got, posted, "{path}");
    }
}

/// Sends `request` on a new connection (from another thread: the server may answer and
/// close before it is all sent) and returns what comes back.
fn raw_exchange(address: &str, request: Vec<u8>) -> String {
    let stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    let mut writer = stream.try_clone().expect("clone");
    let sender = std::thread::spawn(move || {
        let _ = writer.write_all(&request);
    });
    let mut answer = Vec::new();
    let _ = (&stream).read_to_end(&mut answer);
    let _ = sender.join();
    String::from_utf8_lossy(&answer).into_owned()
}

fn faces_with(swaps: &[(usize, usize)]) -> String {
    let mut faces: Vec<char> = facelet_string(&Cube::SOLVED).chars().collect();
    for &(a, b) in swaps {
        faces.swap(a, b);
    }
    faces.into_iter().collect()
}

/// The URF corner turned in place: U9 R1 F3 rotated.
fn twisted_corner() -> String {
    let mut faces: Vec<char> = facelet_string(&Cube::SOLVED).chars().collect();
    let (u, r, f) = (8, 9, 20);
    let (a, b, c) = (faces[u], faces[r], faces[f]);
    faces[u] = c;
    faces[r] = a;
    faces[f] = b;
    faces.into_iter().collect()
}

/// The UR edge flipped: U6 and R2 swapped.
fn flipped_edge() -> String {
    faces_with(&[(5, 10)])
}

/// UR and UF swapped (each keeps its orientation): an odd edge permutation alone.
fn swapped_edges() -> String {
    faces_with(&[(5, 7), (10, 19)])
}

/// A flood of optimal requests: the queue refuses the excess at once with 503 and
/// Retry-After, deadlines end the rest with 504, health answers throughout, and two-phase
/// requests are still served.
#[test]
fn a_flood_of_optimal_requests_is_refused_not_queued_forever() {
    let server = Server::start(&["--queue", "2", "--deadline", "3"]);
    let url = format!("{}/api/solve", server.base);
    let cubes = random_cubes(99, 24);
    let workers: Vec<_> = cubes
        .iter()
        .map(|cube| {
            let (url, facelets) = (url.clone(), facelet_string(cube));
            std::thread::spawn(move || {
                let (status, _, retry) = call(
                    &agent(),
                    "POST",
                    &url,
                    Some(&json!({"facelets": facelets}).to_string()),
                );
                (status, retry)
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let agent = agent();
    let started = Instant::now();
    let (status, text, _) = call(&agent, "GET", &format!("{}/api/health", server.base), None);
    assert_eq!(status, 200, "{text}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "health took {:?}",
        started.elapsed()
    );
    let (status, reply) = post_json(
        &agent,
        &url,
        &json!({"scramble": "R U F D", "max_length": 21}),
    );
    assert_eq!(status, 200, "{reply}");
    let results: Vec<(u16, Option<String>)> = workers
        .into_iter()
        .map(|w| w.join().expect("worker"))
        .collect();
    let refused = results.iter().filter(|(s, _)| *s == 503).count();
    let timed_out = results.iter().filter(|(s, _)| *s == 504).count();
    assert!(refused >= 24 - 2 - 2 - 4, "{results:?}");
    assert!(
        results.iter().all(|(s, _)| matches!(s, 200 | 503 | 504)),
        "{results:?}"
    );
    assert!(timed_out + results.iter().filter(|(s, _)| *s == 200).count() <= 24 - refused);
    assert!(results
        .iter()
        .filter(|(s, _)| *s == 503)
        .all(|(_, r)| r.as_deref() == Some("5")));
}

/// A client that sends half its headers, or half its body, is cut off; others are not.
#[test]
fn slow_clients_are_cut_off() {
    let server = Server::start(&["--client-timeout", "1"]);
    let mut headers_only = TcpStream::connect(server.address()).expect("connect");
    headers_only
        .write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\n")
        .expect("write");
    let mut half_body = TcpStream::connect(server.address()).expect("connect");
    half_body
        .write_all(b"POST /api/solve HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"scr")
        .expect("write");
    for stream in [&mut headers_only, &mut half_body] {
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
    }
    let started = Instant::now();
    let mut answer = String::new();
    let _ = half_body.read_to_string(&mut answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    let mut rest = Vec::new();
    let _ = headers_only.read_to_end(&mut rest);
    assert!(started.elapsed() < Duration::from_secs(15));
    let (status, _, _) = call(
        &agent(),
        "GET",
        &format!("{}/api/health", server.base),
        None,
    );
    assert_eq!(status, 200);
}

/// SIGTERM: in-flight solves are cancelled, the process exits 0 promptly.
#[test]
fn sigterm_stops_it_cleanly() {
    let mut server = Server::start(&["--deadline", "120"]);
    let url = format!("{}/api/solve", server.base);
    let facelets = facelet_string(&random_cubes(3, 1)[0]);
    let inflight = std::thread::spawn(move || {
        call(
            &agent(),
            "POST",
            &url,
            Some(&json!({"facelets": facelets}).to_string()),
        )
        .0
    });
    std::thread::sleep(Duration::from_millis(500));
    let started = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = loop {
        if let Some(status) = server.child.try_wait().expect("wait") {
            break status;
        }
        assert!(
            started.elapsed() < Duration::from_secs(15),
            "still running after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    assert_eq!(inflight.join().expect("request"), 503);
    let mut err = String::new();
    let _ = server
        .child
        .stderr
        .take()
        .map(|mut e| e.read_to_string(&mut err));
    assert!(err.contains("shutting down"), "{err}");
}

/// Issue 53: the definition-driven puzzles over HTTP. `GET /api/puzzles` lists the
/// folder; `POST /api/puzzle/NAME/solve` answers with the plan (3x3x3) or the exact
/// table (2x2x2, optimal: the library's length), every solution applied and checked
/// here; scrambles are reproducible and reach their states; bad names, moves and
/// numbers get their errors, and a puzzle without a plan or table is refused (422).
#[test]
fn puzzles_are_solved_and_scrambled_over_http() {
    use cubedb::puzzles::perm::solver::{accept_plan_names, load_plan};
    use cubedb::puzzles::perm::{load_puzzle, PuzzleEngine, PuzzleMetric, PuzzleSolver};
    let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("puzzles");
    let server = Server::start(&["--puzzles", &folder.display().to_string()]);
    let agent = agent();
    let url = |path: &str| format!("{}{path}", server.base);

    let (status, text, _) = call(&agent, "GET", &url("/api/puzzles"), None);
    assert_eq!(status, 200, "{text}");
    let listed: Value = serde_json::from_str(&text).unwrap();
    let has = |name: &str, plan: bool| {
        listed["puzzles"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == name && p["plan"] == plan)
    };
    assert!(has("3x3x3", true) && has("2x2x2", false), "{text}");

    // The 3x3x3 by its plan: each answer solves its scramble.
    let mut cube = load_puzzle(&folder.join("3x3x3.tws"), PuzzleMetric::Htm, None).unwrap();
    let plan = load_plan(&folder.join("3x3x3.plan"), &cube).unwrap();
    accept_plan_names(&mut cube, &plan);
    let names: Vec<String> = cube.moves.iter().map(|m| m.name.clone()).collect();
    let mut rng = SplitMix64::new(53);
    for _ in 0..8 {
        let scramble: Vec<&str> = (0..25)
            .map(|_| names[(rng.next_u64() % names.len() as u64) as usize].as_str())
            .collect();
        let scramble = scramble.join(" ");
        let (status, answer) = post_json(
            &agent,
            &url("/api/puzzle/3x3x3/solve"),
            &json!({ "scramble": scramble, "max_length": 24, "id": 7 }),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["method"], "plan kociemba");
        assert_eq!(answer["id"], 7);
        let solution = answer["solution"].as_str().unwrap();
        let end = cube.scrambled(&format!("{scramble} {solution}")).unwrap();
        assert!(cube.is_solved(&end), "{scramble} / {solution}");
        let length = answer["length"].as_u64().unwrap();
        assert_eq!(length as usize, solution.split_whitespace().count());
        assert!(
            length <= 24 && answer["within_max_length"] == true,
            "{answer}"
        );
    }

    // The 2x2x2 by its exact table: optimal, the library's length.
    let pocket = load_puzzle(&folder.join("2x2x2.tws"), PuzzleMetric::Htm, None).unwrap();
    let store = TableStore::new(shared_data_dir());
    let exact = PuzzleSolver::open(
        &pocket,
        &store,
        "test",
        1024,
        PuzzleEngine::Table,
        &Progress::hidden(),
    )
    .unwrap();
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/puzzle/2x2x2/scramble?count=6&seed=11"),
        None,
    );
    assert_eq!(status, 200, "{text}");
    let drawn: Value = serde_json::from_str(&text).unwrap();
    let again = call(
        &agent,
        "GET",
        &url("/api/puzzle/2x2x2/scramble?count=6&seed=11"),
        None,
    );
    assert_eq!(again.1, text, "the same seed gives the same scrambles");
    for scramble in drawn["scrambles"].as_array().unwrap() {
        let scramble = scramble.as_str().unwrap();
        let state = pocket.scrambled(scramble).unwrap();
        let optimal = exact.solve(&state, 20).unwrap().len();
        let (status, answer) = post_json(
            &agent,
            &url("/api/puzzle/2x2x2/solve"),
            &json!({ "scramble": scramble }),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["optimal"], true);
        assert_eq!(answer["length"].as_u64().unwrap() as usize, optimal);
        let end = pocket
            .scrambled(&format!(
                "{scramble} {}",
                answer["solution"].as_str().unwrap()
            ))
            .unwrap();
        assert!(pocket.is_solved(&end));
    }

    // TopSpin, with neither a table nor a plan, by the stabilizer chain: the command
    // line's scrambles, each answered (long, not optimal) and checked.
    let topspin = load_puzzle(&folder.join("topspin.tws"), PuzzleMetric::Htm, None).unwrap();
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/puzzle/topspin/scramble?count=3&seed=4"),
        None,
    );
    assert_eq!(status, 200, "{text}");
    let drawn: Value = serde_json::from_str(&text).unwrap();
    let data = shared_data_dir().display().to_string();
    let definition = folder.join("topspin.tws").display().to_string();
    let out = crate::common::cubedb(
        &[
            "puzzle",
            "scramble",
            &definition,
            "--count",
            "3",
            "--seed",
            "4",
            "--data",
            &data,
            "-q",
        ],
        "",
    );
    assert!(out.status.success(), "{out:?}");
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let served: Vec<String> = drawn["scrambles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap().to_string())
        .collect();
    assert_eq!(served, lines);
    for scramble in &served {
        assert!(!topspin.is_solved(&topspin.scrambled(scramble).unwrap()));
        let (status, answer) = post_json(
            &agent,
            &url("/api/puzzle/topspin/solve"),
            &json!({ "scramble": scramble }),
        );
        assert_eq!(status, 200, "{answer}");
        assert_eq!(answer["method"], "stabilizer chain");
        assert_eq!(answer["optimal"], false);
        let end = topspin
            .scrambled(&format!(
                "{scramble} {}",
                answer["solution"].as_str().unwrap()
            ))
            .unwrap();
        assert!(topspin.is_solved(&end));
    }

    // Errors, each with its status and words.
    let cases: [(&str, &str, Option<&str>, u16, &str); 6] = [
        (
            "GET",
            "/api/puzzle/nope/scramble",
            None,
            404,
            "the puzzles are",
        ),
        (
            "GET",
            "/api/puzzle/..%2F3x3x3/scramble",
            None,
            404,
            "no puzzle",
        ),
        (
            "POST",
            "/api/puzzle/3x3x3/solve",
            Some(r#"{"scramble":"R X"}"#),
            400,
            "unknown move",
        ),
        (
            "POST",
            "/api/puzzle/3x3x3/solve",
            Some(r#"{"moves":"R"}"#),
            400,
            "unknown field",
        ),
        (
            "POST",
            "/api/puzzle/3x3x3/solve",
            Some(r#"{"scramble":"R","max_length":300}"#),
            400,
            "from 0 to 255",
        ),
        (
            "GET",
            "/api/puzzle/2x2x2/scramble?count=0",
            None,
            400,
            "count must be a whole number from 1",
        ),
    ];
    for (method, path, body, want, words) in cases {
        let (status, text, _) = call(&agent, method, &url(path), body);
        assert_eq!(status, want, "{method} {path}: {text}");
        assert!(text.contains(words), "{method} {path}: {text}");
    }
    // Still up.
    let (status, _, _) = call(&agent, "GET", &url("/api/health"), None);
    assert_eq!(status, 200);
}

/// `GET /api/scramble/{event}`: the command line's scrambles (same seed, same text), as
/// JSON or text; an unknown event is a 404 naming the known ones, a bad format a 400.
#[test]
fn event_scrambles_over_http_are_the_command_lines() {
    let server = Server::start(&[]);
    let agent = agent();
    let url = |path: &str| format!("{}{path}", server.base);
    let data = shared_data_dir().display().to_string();
    for event in ["222", "333fm", "minx", "clock", "skewb"] {
        let (status, text, _) = call(
            &agent,
            "GET",
            &url(&format!("/api/scramble/{event}?count=4&seed=9")),
            None,
        );
        assert_eq!(status, 200, "{text}");
        let answer: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(answer["event"], event);
        assert_eq!(answer["seed"], 9);
        let out = crate::common::cubedb(
            &[
                "scramble", event, "--count", "4", "--seed", "9", "--data", &data, "-q",
            ],
            "",
        );
        let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect();
        let expected: Vec<String> = if event == "minx" {
            lines.chunks(7).map(|c| c.join("\n")).collect()
        } else {
            lines
        };
        let got: Vec<String> = answer["scrambles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        assert_eq!(got, expected, "{event}");
    }
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/scramble/pyram?count=3&seed=2&format=text"),
        None,
    );
    assert_eq!(status, 200, "{text}");
    assert_eq!(text.lines().count(), 3, "{text}");
    let (status, text, _) = call(&agent, "GET", &url("/api/scramble/444fast"), None);
    assert_eq!(status, 404, "{text}");
    assert!(text.contains("sq1"), "{text}");
    let (status, text, _) = call(&agent, "GET", &url("/api/scramble/333?format=svgz"), None);
    assert_eq!(status, 400, "{text}");
    let (status, text, _) = call(&agent, "GET", &url("/api/scramble/333?count=0"), None);
    assert_eq!(status, 400, "{text}");
    // `random_state` as `--random-state`: taken where the event is random-state anyway
    // (the same scrambles as the command line's with the flag), refused by name where
    // there is no random-state solver, and read as a flag.
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/scramble/222?count=3&seed=4&random_state=true&format=text"),
        None,
    );
    assert_eq!(status, 200, "{text}");
    let out = crate::common::cubedb(
        &[
            "scramble",
            "222",
            "--count",
            "3",
            "--seed",
            "4",
            "--random-state",
            "--data",
            &data,
            "-q",
        ],
        "",
    );
    assert_eq!(text, String::from_utf8_lossy(&out.stdout));
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/scramble/666?random_state=true"),
        None,
    );
    assert_eq!(status, 400, "{text}");
    assert!(
        text.contains("random_state") && text.contains("666") && !text.contains("--"),
        "{text}"
    );
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/scramble/666?random_state=false&count=2&seed=1"),
        None,
    );
    assert_eq!(status, 200, "{text}");
    let (status, text, _) = call(
        &agent,
        "GET",
        &url("/api/scramble/minx?random_state=maybe"),
        None,
    );
    assert_eq!(status, 400, "{text}");
    assert!(text.contains("random_state"), "{text}");
}
