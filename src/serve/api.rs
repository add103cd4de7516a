//! The HTTP routes: JSON requests read with size and time limits, checked field by field
//! with the library's ranges and wording, answered by the [`Service`].
//!
//! - `GET /api/health`, `GET /api/info`;
//! - `POST /api/solve`: one cube (`scramble` or `facelets`), optimal or two-phase
//!   (`max_length`), `all` / `count` / `moves` listings, `goal`; `metric`, `timeout`;
//! - `POST /api/solve/batch`: `cubes` (strings or objects), answered as NDJSON in order;
//! - `GET /api/scramble?count=N&seed=S`: random-state scrambles;
//! - `POST /api/cube` (or `GET /api/cube?scramble=...`): the facelets after moves, and
//!   after each of them;
//! - `GET /api/puzzles`, `POST /api/puzzle/{name}/solve`, `GET /api/puzzle/{name}/scramble`:
//!   the definition-driven puzzles (see [`super::puzzles`]);
//! - `GET /`: the web page.

use super::error::ApiError;
use super::service::{Job, Mode, Service};
use super::web;
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use cubedb::limits::{self, WholeRange};
use cubedb::puzzles::rubik::api::GoalSpec;
use cubedb::puzzles::rubik::{
    facelet_string, format_moves, parse_facelets, parse_move_set, parse_moves, Cube, Metric,
};
use cubedb::rng::SplitMix64;
use cubedb::text::quote;
use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// Largest request body (a batch of 100,000 facelet strings fits).
pub const MAX_BODY: usize = 8 << 20;

/// How long a batch waits for its client to read an answer before giving up on it.
const STALLED_READER: Duration = Duration::from_secs(30);

/// Scrambles in one request at most.
const MAX_SCRAMBLES: u64 = 10_000;

/// The routes over `service`.
pub fn router(service: Arc<Service>) -> Router {
    Router::new()
        .route("/", get(web::page))
        .route("/assets/{file}", get(web::asset))
        .route("/api/health", get(health))
        .route("/api/info", get(info))
        .route("/api/solve", post(solve))
        .route("/api/solve/batch", post(solve_batch))
        .route("/api/scramble", get(scramble))
        .route("/api/scramble/{event}", get(event_scramble))
        .route("/api/cube", get(cube_get).post(cube_post))
        .route("/api/puzzles", get(puzzle_list))
        .route("/api/puzzle/{name}/solve", post(puzzle_solve))
        .route("/api/puzzle/{name}/scramble", get(puzzle_scramble))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(service)
}

async fn not_found() -> ApiError {
    ApiError {
        status: StatusCode::NOT_FOUND,
        message: "no such route: see GET /api/info".into(),
        retry_after: None,
    }
}

async fn method_not_allowed() -> ApiError {
    ApiError {
        status: StatusCode::METHOD_NOT_ALLOWED,
        message: "this route does not take that method: see GET /api/info".into(),
        retry_after: None,
    }
}

async fn health(State(service): State<Arc<Service>>) -> Response {
    let stopping = service.is_shutting_down();
    let body = serde_json::json!({
        "status": if stopping { "shutting down" } else { "ok" },
        "version": env!("CARGO_PKG_VERSION"),
        "requests_answered": service.requests_answered(),
    });
    let status = if stopping {
        StatusCode::SERVICE_UNAVAILABLE
    } else {
        StatusCode::OK
    };
    (status, Json(body)).into_response()
}

async fn info(State(service): State<Arc<Service>>) -> Json<Value> {
    Json(service.info())
}

/// Reads a request body: at most [`MAX_BODY`] bytes (413), within the client timeout (408).
async fn read_body(service: &Service, headers: &HeaderMap, body: Body) -> Result<Bytes, ApiError> {
    let patience = service.limits().client_timeout;
    let too_large =
        || ApiError::too_large(format!("the request body is larger than {MAX_BODY} bytes"));
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return Err(too_large());
    }
    match tokio::time::timeout(patience, axum::body::to_bytes(body, MAX_BODY)).await {
        Err(_) => Err(ApiError::slow_client(format!(
            "the request body did not arrive within {} s",
            patience.as_secs_f64()
        ))),
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(e)) => {
            let over = std::error::Error::source(&e)
                .is_some_and(|s| s.is::<http_body_util::LengthLimitError>());
            if over {
                Err(too_large())
            } else {
                Err(ApiError::bad_request(format!(
                    "reading the request body: {e}"
                )))
            }
        }
    }
}

/// The body as a JSON object whose fields are all in `known`, each given once (at every
/// level: a repeated key is refused, never decided by which comes last).
fn json_fields(bytes: &[u8], known: &[&str]) -> Result<Map<String, Value>, ApiError> {
    let map = match serde_json::from_slice::<Value>(bytes) {
        Ok(Value::Object(map)) => map,
        Ok(_) => {
            return Err(ApiError::bad_request(
                "the request body must be a JSON object",
            ))
        }
        Err(e) => {
            return Err(ApiError::bad_request(format!(
                "the request body is not JSON: {e}"
            )))
        }
    };
    no_repeated_keys(bytes)?;
    known_fields(&map, known)?;
    Ok(map)
}

/// Refuses a JSON document in which an object names a key twice (a parser keeps one of
/// them, silently): the error names the key and where it is.
fn no_repeated_keys(bytes: &[u8]) -> Result<(), ApiError> {
    let repeated = RefCell::new(None);
    let walk = Unique {
        at: Place::Top,
        repeated: &repeated,
    };
    let mut document = serde_json::Deserializer::from_slice(bytes);
    match (walk.deserialize(&mut document), repeated.into_inner()) {
        (_, Some(path)) => Err(ApiError::bad_request(format!(
            "field {path} is given twice: give each field once"
        ))),
        // The document parsed once already; a second parse cannot fail otherwise.
        (result, None) => {
            result.map_err(|e| ApiError::bad_request(format!("the request body is not JSON: {e}")))
        }
    }
}

/// Where a value is in a JSON document, for messages.
#[derive(Clone, Copy)]
enum Place<'p> {
    Top,
    Field(&'p Place<'p>, &'p str),
    Item(&'p Place<'p>, usize),
}

impl fmt::Display for Place<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Place::Top => Ok(()),
            Place::Field(Place::Top, key) => write!(f, "{}", quote(key)),
            Place::Field(parent, key) => write!(f, "{parent}.{}", quote(key)),
            Place::Item(parent, index) => write!(f, "{parent}[{index}]"),
        }
    }
}

/// A walk over a JSON value that stops at the first repeated key (the place is left in
/// `repeated`); everything else is skipped.
struct Unique<'p> {
    at: Place<'p>,
    repeated: &'p RefCell<Option<String>>,
}

impl<'de> DeserializeSeed<'de> for Unique<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Unique<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }

    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }

    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }

    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }

    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<(), A::Error> {
        let mut index = 0;
        loop {
            let item = Unique {
                at: Place::Item(&self.at, index),
                repeated: self.repeated,
            };
            if items.next_element_seed(item)?.is_none() {
                return Ok(());
            }
            index += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut fields: A) -> Result<(), A::Error> {
        let mut seen = HashSet::new();
        while let Some(key) = fields.next_key::<String>()? {
            let at = Place::Field(&self.at, &key);
            if seen.contains(&key) {
                *self.repeated.borrow_mut() = Some(at.to_string());
                return Err(serde::de::Error::custom("a repeated key"));
            }
            fields.next_value_seed(Unique {
                at,
                repeated: self.repeated,
            })?;
            seen.insert(key);
        }
        Ok(())
    }
}

/// Refuses fields not in `known` (a misspelt option must not be silently ignored).
fn known_fields(map: &Map<String, Value>, known: &[&str]) -> Result<(), ApiError> {
    match map.keys().find(|k| !known.contains(&k.as_str())) {
        Some(field) => Err(ApiError::bad_request(format!(
            "unknown field {}; the fields are {}",
            quote(field),
            known.join(", ")
        ))),
        None => Ok(()),
    }
}

/// What a field holds, so that a query string (text only) is read by the rules of a
/// JSON body: the same field refuses the same values either way.
#[derive(Clone, Copy)]
enum Kind {
    /// Text, taken as it is.
    Text,
    /// `true` or `false`.
    Flag,
    /// A whole number in a range.
    Whole(WholeRange),
}

/// A query string as the JSON object a body would be: every parameter in `fields`, each
/// given once, its text read by its kind (a flag is `true` or `false`, a number a whole
/// number in its range), refused in the same words as the body's field.
fn query_fields(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    fields: &[(&str, Kind)],
) -> Result<Map<String, Value>, ApiError> {
    let Query(pairs) = query.map_err(|e| {
        ApiError::bad_request(format!(
            "the query string cannot be read: {}",
            e.body_text()
        ))
    })?;
    let names: Vec<&str> = fields.iter().map(|(name, _)| *name).collect();
    let mut map = Map::new();
    for (name, text) in pairs {
        let Some(&(_, kind)) = fields.iter().find(|(n, _)| *n == name) else {
            return Err(ApiError::bad_request(format!(
                "unknown parameter {}; the parameters are {}",
                quote(&name),
                names.join(", ")
            )));
        };
        if map.contains_key(&name) {
            return Err(ApiError::bad_request(format!(
                "parameter {} is given twice: give each parameter once",
                quote(&name)
            )));
        }
        let value = match kind {
            Kind::Text => Value::String(text),
            Kind::Flag => match text.as_str() {
                "true" => Value::Bool(true),
                "false" => Value::Bool(false),
                other => {
                    return Err(ApiError::bad_request(format!(
                        "{name} must be true or false, not {}",
                        quote(other)
                    )))
                }
            },
            Kind::Whole(range) => Value::from(
                range
                    .parse(&text)
                    .map_err(|e| ApiError::bad_request(format!("{name} {e}")))?,
            ),
        };
        map.insert(name, value);
    }
    Ok(map)
}

/// JSON's name for a value's type, for messages.
fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A whole number in `range`, with the library's wording (as the CLI and Python say it).
fn whole(name: &str, range: WholeRange, value: &Value) -> Result<u64, ApiError> {
    let Value::Number(number) = value else {
        return Err(ApiError::bad_request(format!(
            "{name} must be a whole number, not {}",
            kind(value)
        )));
    };
    let checked = if let Some(v) = number.as_i64() {
        range.check(name, v)
    } else if let Some(v) = number.as_u64() {
        range.check(name, v)
    } else {
        Err(range.error(name, number))
    };
    checked.map_err(|e| ApiError::bad_request(e.to_string()))
}

/// An optional field that must be a string.
fn text<'a>(map: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(ApiError::bad_request(format!(
            "{name} must be a string, not {}",
            kind(other)
        ))),
    }
}

/// An optional boolean field.
fn flag(map: &Map<String, Value>, name: &str) -> Result<bool, ApiError> {
    match map.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(ApiError::bad_request(format!(
            "{name} must be true or false, not {}",
            kind(other)
        ))),
    }
}

/// The metric field (`htm` by default).
fn metric(map: &Map<String, Value>) -> Result<Metric, ApiError> {
    match text(map, "metric")? {
        None => Ok(Metric::Htm),
        Some(word) => limits::choice(
            "metric",
            &[("htm", Metric::Htm), ("qtm", Metric::Qtm)],
            word,
        )
        .map_err(|e| ApiError::bad_request(e.to_string())),
    }
}

/// The optional `timeout` field: seconds, in the command line's range and words.
fn timeout(map: &Map<String, Value>) -> Result<Option<Duration>, ApiError> {
    Ok(match map.get("timeout") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(
            limits::parse_seconds(&n.to_string())
                .and_then(|seconds| limits::timeout("timeout", seconds).map_err(|e| e.to_string()))
                .map_err(|e| ApiError::bad_request(format!("timeout {e}")))?,
        ),
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "timeout must be a number of seconds, not {}",
                kind(other)
            )))
        }
    })
}

/// The fields of a job (everything but the cube).
fn job(map: &Map<String, Value>) -> Result<Job, ApiError> {
    let metric = metric(map)?;
    let timeout = timeout(map)?;
    let max_length = match map.get("max_length") {
        None | Some(Value::Null) => None,
        Some(v) => Some(whole("max_length", WholeRange::MAX_LENGTH, v)? as u32),
    };
    let all = flag(map, "all")?;
    let count = match map.get("count") {
        None | Some(Value::Null) => None,
        Some(v) => Some(whole(
            "count",
            WholeRange {
                min: 1,
                max: super::service::MAX_SOLUTIONS as u64,
            },
            v,
        )? as usize),
    };
    let moves = match text(map, "moves")? {
        None => None,
        Some(text) => Some(
            parse_move_set(text, metric == Metric::Qtm)
                .map_err(|e| ApiError::bad_request(format!("moves: {e}")))?,
        ),
    };
    let goal = text(map, "goal")?;
    let listing = all || count.is_some() || moves.is_some();
    if max_length.is_some() && (listing || goal.is_some()) {
        return Err(ApiError::bad_request(
            "max_length (two-phase) does not combine with all, count, moves or goal",
        ));
    }
    if all && count.is_some() {
        return Err(ApiError::bad_request("give all or count, not both"));
    }
    if goal.is_some() && moves.is_some() {
        return Err(ApiError::bad_request("goal does not combine with moves"));
    }
    let limit = if all { usize::MAX } else { count.unwrap_or(1) };
    let mode = if let Some(max_length) = max_length {
        Mode::TwoPhase { max_length }
    } else if let Some(name) = goal {
        let spec: GoalSpec = name
            .parse()
            .map_err(|e: String| ApiError::bad_request(format!("goal: {e}")))?;
        if matches!(spec, GoalSpec::Mask(_)) {
            return Err(ApiError::bad_request(
                "goal: sticker masks are answered by the command line (cubedb rubik solve \
                 --goal MASK), not by the service; name a goal such as cross:D",
            ));
        }
        Mode::Goal {
            name: name.to_string(),
            spec,
            limit,
            all,
        }
    } else if listing {
        Mode::Listing { moves, limit, all }
    } else {
        Mode::Optimal
    };
    Ok(Job {
        mode,
        metric,
        timeout,
    })
}

/// A cube from `scramble` or `facelets` (exactly one), in the library's words.
fn cube_of(map: &Map<String, Value>) -> Result<Cube, ApiError> {
    match (text(map, "scramble")?, text(map, "facelets")?) {
        (Some(_), Some(_)) => Err(ApiError::bad_request("give scramble or facelets, not both")),
        (None, None) => Err(ApiError::bad_request(
            "no cube: give \"scramble\" (moves) or \"facelets\" (54 stickers, URFDLB)",
        )),
        (Some(scramble), None) => parse_moves(scramble.trim())
            .map(|moves| Cube::from_moves(&moves))
            .map_err(|e| ApiError::bad_request(format!("scramble: {e}"))),
        (None, Some(facelets)) => facelets_cube(facelets),
    }
}

fn facelets_cube(facelets: &str) -> Result<Cube, ApiError> {
    if facelets.contains('?') {
        return Err(ApiError::bad_request(
            "facelets: partial cubes (with ?) are answered by the command line (cubedb \
             rubik solve --facelets), not by the service",
        ));
    }
    parse_facelets(facelets.trim()).map_err(|e| ApiError::bad_request(format!("facelets: {e}")))
}

/// A batch item: a string (facelets if it looks like them, else a scramble, as the CLI
/// reads lines) or an object with `scramble` or `facelets`.
fn batch_cube(item: &Value) -> Result<Cube, ApiError> {
    match item {
        Value::String(s) => {
            let trimmed = s.trim();
            let mut colours: Vec<char> = trimmed.chars().collect();
            let looks_like_facelets = colours.len() == 54 && !trimmed.contains(char::is_whitespace);
            colours.sort_unstable();
            colours.dedup();
            if looks_like_facelets && colours.len() == 6 {
                facelets_cube(trimmed)
            } else {
                parse_moves(trimmed)
                    .map(|moves| Cube::from_moves(&moves))
                    .map_err(|e| ApiError::bad_request(format!("scramble: {e}")))
            }
        }
        Value::Object(map) => {
            known_fields(map, &["scramble", "facelets"])?;
            cube_of(map)
        }
        other => Err(ApiError::bad_request(format!(
            "a cube must be a string or an object, not {}",
            kind(other)
        ))),
    }
}

const SOLVE_FIELDS: [&str; 10] = [
    "scramble",
    "facelets",
    "max_length",
    "metric",
    "timeout",
    "all",
    "count",
    "moves",
    "goal",
    "id",
];

async fn solve(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(&service, &headers, body).await?;
    let map = json_fields(&bytes, &SOLVE_FIELDS)?;
    let job = job(&map)?;
    let cube = cube_of(&map)?;
    let reply = service.solve(cube, job).await;
    service.count_answer();
    let mut value = serde_json::to_value(reply?)
        .map_err(|e| ApiError::internal(format!("internal error: {e}")))?;
    if let (Some(id), Value::Object(out)) = (map.get("id"), &mut value) {
        out.insert("id".into(), id.clone());
    }
    Ok(Json(value).into_response())
}

async fn solve_batch(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(&service, &headers, body).await?;
    let fields: Vec<&str> = SOLVE_FIELDS
        .iter()
        .copied()
        .filter(|f| !matches!(*f, "scramble" | "facelets" | "id"))
        .chain(["cubes"])
        .collect();
    let map = json_fields(&bytes, &fields)?;
    let job = job(&map)?;
    let items = match map.get("cubes") {
        Some(Value::Array(items)) => items,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "cubes must be an array, not {}",
                kind(other)
            )))
        }
        None => return Err(ApiError::bad_request("no cubes: give \"cubes\": [...]")),
    };
    let max = service.limits().max_batch;
    if items.len() > max {
        return Err(ApiError::too_large(format!(
            "a batch holds at most {max} cubes, not {}",
            items.len()
        )));
    }
    let cubes: Vec<Result<Cube, ApiError>> = items.iter().map(batch_cube).collect();
    drop(map);
    let (tx, rx) = tokio::sync::mpsc::channel::<Bytes>(256);
    let worker = Arc::clone(&service);
    tokio::spawn(async move {
        let sent = worker
            .solve_batch(cubes, job, |index, answer| {
                let tx = tx.clone();
                async move {
                    let line = batch_line(index, answer);
                    matches!(
                        tokio::time::timeout(STALLED_READER, tx.send(line)).await,
                        Ok(Ok(()))
                    )
                }
            })
            .await;
        if let Err(e) = sent {
            // The batch as a whole stopped (queue full, shutting down): one last line.
            let mut line = serde_json::to_vec(&e.body()).unwrap_or_default();
            line.push(b'\n');
            let _ = tokio::time::timeout(STALLED_READER, tx.send(Bytes::from(line))).await;
        }
        worker.count_answer();
    });
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv()
            .await
            .map(|line| (Ok::<Bytes, std::convert::Infallible>(line), rx))
    });
    Ok((
        [(header::CONTENT_TYPE, "application/x-ndjson")],
        Body::from_stream(stream),
    )
        .into_response())
}

/// One NDJSON line: the reply or the error, with the cube's index.
fn batch_line(index: usize, answer: Result<super::service::Reply, ApiError>) -> Bytes {
    let mut value = match answer {
        Ok(reply) => serde_json::to_value(reply).unwrap_or(Value::Null),
        Err(e) => e.body(),
    };
    if let Value::Object(map) = &mut value {
        map.insert("index".into(), Value::from(index));
    }
    let mut line = serde_json::to_vec(&value).unwrap_or_default();
    line.push(b'\n');
    Bytes::from(line)
}

/// The parameters of `GET /api/scramble`.
const SCRAMBLE_PARAMETERS: [(&str, Kind); 2] = [
    (
        "count",
        Kind::Whole(WholeRange {
            min: 1,
            max: MAX_SCRAMBLES,
        }),
    ),
    ("seed", Kind::Whole(WholeRange::SEED)),
];

/// The `count` (default 1) and `seed` (drawn when not given) of a scramble route whose
/// `parameters` are those two, in that order, with their ranges.
fn count_and_seed(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
    parameters: &[(&str, Kind); 2],
) -> Result<(u64, u64), ApiError> {
    let map = query_fields(query, parameters)?;
    let number = |index: usize| -> Result<Option<u64>, ApiError> {
        let (name, Kind::Whole(range)) = parameters[index] else {
            return Err(ApiError::internal("internal error: a parameter's kind"));
        };
        map.get(name).map(|v| whole(name, range, v)).transpose()
    };
    let count = number(0)?.unwrap_or(1);
    let seed = match number(1)? {
        Some(seed) => seed,
        None => random_seed(),
    };
    Ok((count, seed))
}

async fn scramble(
    State(service): State<Arc<Service>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let (count, seed) = count_and_seed(query, &SCRAMBLE_PARAMETERS)?;
    let mut rng = SplitMix64::new(seed);
    let positions: Vec<Cube> = (0..count).map(|_| Cube::random(&mut rng)).collect();
    let facelets: Vec<String> = positions.iter().map(facelet_string).collect();
    let scrambles = service.scrambles(positions).await?;
    service.count_answer();
    Ok(Json(serde_json::json!({
        "seed": seed,
        "scrambles": scrambles,
        "facelets": facelets,
    })))
}

/// A seed from the clock, for scrambles asked without one.
fn random_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id())
}

/// The fields of `/api/cube`, as a body or as parameters.
const CUBE_FIELDS: [(&str, Kind); 4] = [
    ("scramble", Kind::Text),
    ("facelets", Kind::Text),
    ("moves", Kind::Text),
    ("steps", Kind::Flag),
];

fn cube_field_names() -> Vec<&'static str> {
    CUBE_FIELDS.iter().map(|(name, _)| *name).collect()
}

async fn cube_get(
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    cube_answer(&query_fields(query, &CUBE_FIELDS)?).map(Json)
}

async fn cube_post(
    State(service): State<Arc<Service>>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let bytes = read_body(&service, &headers, body).await?;
    cube_answer(&json_fields(&bytes, &cube_field_names())?).map(Json)
}

/// The facelets of a start (`scramble` or `facelets`, default solved) after `moves`, and
/// with `steps` after each move.
fn cube_answer(map: &Map<String, Value>) -> Result<Value, ApiError> {
    known_fields(map, &cube_field_names())?;
    let steps = flag(map, "steps")?;
    let start = if map.contains_key("scramble") || map.contains_key("facelets") {
        cube_of(map)?
    } else {
        Cube::SOLVED
    };
    let moves = match text(map, "moves")? {
        Some(text) => {
            parse_moves(text.trim()).map_err(|e| ApiError::bad_request(format!("moves: {e}")))?
        }
        None => Vec::new(),
    };
    if moves.len() > 10_000 {
        return Err(ApiError::too_large("moves: at most 10000 moves"));
    }
    let mut cube = start;
    let mut after = vec![facelet_string(&cube)];
    for &mv in &moves {
        cube = cube.apply(mv);
        if steps {
            after.push(facelet_string(&cube));
        }
    }
    let mut out = serde_json::json!({
        "facelets": facelet_string(&cube),
        "solved": cube.is_solved(),
        "moves": format_moves(&moves),
    });
    if steps {
        out["steps"] = Value::from(after);
    }
    Ok(out)
}

/// Scrambles of a served puzzle in one request at most (each is a solve).
const MAX_PUZZLE_SCRAMBLES: u64 = 1000;

/// The parameters of `GET /api/puzzle/{name}/scramble`.
const PUZZLE_SCRAMBLE_PARAMETERS: [(&str, Kind); 2] = [
    (
        "count",
        Kind::Whole(WholeRange {
            min: 1,
            max: MAX_PUZZLE_SCRAMBLES,
        }),
    ),
    ("seed", Kind::Whole(WholeRange::SEED)),
];

/// The fields of `POST /api/puzzle/{name}/solve`.
const PUZZLE_SOLVE_FIELDS: [&str; 4] = ["scramble", "max_length", "timeout", "id"];

async fn puzzle_list(State(service): State<Arc<Service>>) -> Json<Value> {
    let puzzles: Vec<Value> = service
        .puzzles()
        .list()
        .into_iter()
        .map(|(name, plan)| serde_json::json!({ "name": name, "plan": plan }))
        .collect();
    service.count_answer();
    Json(serde_json::json!({
        "folder": service.puzzles().dir().map(|d| d.display().to_string()),
        "puzzles": puzzles,
    }))
}

async fn puzzle_solve(
    State(service): State<Arc<Service>>,
    Path(name): Path<String>,
    headers: HeaderMap,
    body: Body,
) -> Result<Json<Value>, ApiError> {
    let bytes = read_body(&service, &headers, body).await?;
    let map = json_fields(&bytes, &PUZZLE_SOLVE_FIELDS)?;
    let scramble = text(&map, "scramble")?
        .ok_or_else(|| ApiError::bad_request("no scramble: give \"scramble\" (move names)"))?
        .to_string();
    let max_length = match map.get("max_length") {
        None | Some(Value::Null) => None,
        Some(v) => Some(whole("max_length", WholeRange::MAX_LENGTH, v)? as usize),
    };
    let timeout = timeout(&map)?;
    let answer = service
        .solve_puzzle(name.clone(), scramble, max_length, timeout)
        .await;
    service.count_answer();
    let (solution, method, elapsed_ms) = answer?;
    let mut value = serde_json::json!({
        "puzzle": name,
        "solution": solution.solution,
        "length": solution.length,
        "optimal": solution.optimal,
        "method": method,
        "elapsed_ms": elapsed_ms,
    });
    if let Value::Object(out) = &mut value {
        if max_length.is_some() {
            out.insert(
                "within_max_length".into(),
                Value::Bool(solution.within_max_length),
            );
        }
        if let Some(id) = map.get("id") {
            out.insert("id".into(), id.clone());
        }
    }
    Ok(Json(value))
}

/// Scrambles in one `GET /api/scramble/{event}`.
const EVENT_SCRAMBLE_COUNT: WholeRange = WholeRange {
    min: 1,
    max: MAX_PUZZLE_SCRAMBLES,
};

/// The parameters of `GET /api/scramble/{event}`.
const EVENT_SCRAMBLE_PARAMETERS: [(&str, Kind); 4] = [
    ("count", Kind::Whole(EVENT_SCRAMBLE_COUNT)),
    ("seed", Kind::Whole(WholeRange::SEED)),
    ("format", Kind::Text),
    ("random_state", Kind::Flag),
];

/// `GET /api/scramble/{event}?count=&seed=&format=&random_state=`: scrambles for a WCA
/// event in its notation, as `cubedb scramble EVENT` prints them: JSON (`format=json`,
/// the default), one scramble per line (`format=text`), or JSON with each scrambled
/// state's picture (`format=svg`); `random_state=true` as `--random-state` (random-state
/// megaminx and 5x5x5).
async fn event_scramble(
    State(service): State<Arc<Service>>,
    Path(event): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<axum::response::Response, ApiError> {
    use axum::response::IntoResponse;
    let event = cubedb::events::Event::parse(&event).map_err(|e| ApiError {
        status: StatusCode::NOT_FOUND,
        message: e.to_string(),
        retry_after: None,
    })?;
    let map = query_fields(query, &EVENT_SCRAMBLE_PARAMETERS)?;
    let number =
        |name: &str, range: WholeRange| map.get(name).map(|v| whole(name, range, v)).transpose();
    let count = number("count", EVENT_SCRAMBLE_COUNT)?.unwrap_or(1);
    let seed = number("seed", WholeRange::SEED)?.unwrap_or_else(random_seed);
    let format = match map.get("format").and_then(Value::as_str) {
        None => "json",
        Some(f @ ("json" | "text" | "svg")) => f,
        Some(other) => {
            return Err(ApiError::bad_request(format!(
                "format must be json, text or svg, not {}",
                cubedb::text::quote(other)
            )))
        }
    };
    let random_state = map
        .get("random_state")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let scrambles = service
        .event_scrambles(event, random_state, seed, count)
        .await?;
    service.count_answer();
    if format == "svg" {
        let pictures = scrambles
            .iter()
            .map(|s| cubedb::events::picture(event, s))
            .collect::<Result<Vec<String>, _>>()
            .map_err(|e| ApiError::internal(e.to_string()))?;
        return Ok(Json(serde_json::json!({
            "event": event.id(),
            "seed": seed,
            "scrambles": scrambles,
            "pictures": pictures,
        }))
        .into_response());
    }
    Ok(if format == "text" {
        let mut body = scrambles.join("\n");
        body.push('\n');
        (
            [(
                axum::http::header::CONTENT_TYPE,
                "text/plain; charset=utf-8",
            )],
            body,
        )
            .into_response()
    } else {
        Json(serde_json::json!({
            "event": event.id(),
            "seed": seed,
            "scrambles": scrambles,
        }))
        .into_response()
    })
}

async fn puzzle_scramble(
    State(service): State<Arc<Service>>,
    Path(name): Path<String>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let (count, seed) = count_and_seed(query, &PUZZLE_SCRAMBLE_PARAMETERS)?;
    let answer = service.puzzle_scrambles(name.clone(), seed, count).await;
    service.count_answer();
    Ok(Json(serde_json::json!({
        "puzzle": name,
        "seed": seed,
        "scrambles": answer?,
    })))
}
