//! The web page: plain HTML, CSS and JavaScript in `web/`, built into the binary (it
//! works offline, with no CDN), talking to the same JSON API as any other client.

use super::error::ApiError;
use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};

/// The page, its script and its style sheet.
const FILES: [(&str, &str, &str); 3] = [
    (
        "index.html",
        "text/html; charset=utf-8",
        include_str!("web/index.html"),
    ),
    (
        "app.js",
        "text/javascript; charset=utf-8",
        include_str!("web/app.js"),
    ),
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("web/style.css"),
    ),
];

fn file(name: &str) -> Option<Response> {
    FILES
        .iter()
        .find(|(n, ..)| *n == name)
        .map(|(_, kind, text)| {
            (
                StatusCode::OK,
                [
                    (header::CONTENT_TYPE, *kind),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                *text,
            )
                .into_response()
        })
}

/// `GET /`.
pub async fn page() -> Response {
    file("index.html").unwrap_or_else(|| StatusCode::NOT_FOUND.into_response())
}

/// `GET /assets/{file}`.
pub async fn asset(Path(name): Path<String>) -> Response {
    file(&name)
        .filter(|_| name != "index.html")
        .unwrap_or_else(|| {
            ApiError {
                status: StatusCode::NOT_FOUND,
                message: format!("no asset {}", cubedb::text::quote(&name)),
                retry_after: None,
            }
            .into_response()
        })
}
