//! Errors of the service: a status code and a message in the library's (and the command
//! line's) words, sent as JSON `{"error": ..., "status": ...}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// An answer that is not a solution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong, naming the field or the rule.
    pub message: String,
    /// Seconds to wait before trying again (503 answers).
    pub retry_after: Option<u32>,
}

impl ApiError {
    /// 400: a request that is not valid (bad JSON, bad cube, a number out of range).
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    /// 413: a body or batch over the service's limits.
    pub fn too_large(message: impl Into<String>) -> Self {
        Self::new(StatusCode::PAYLOAD_TOO_LARGE, message)
    }

    /// 408: the client took too long to send its request.
    pub fn slow_client(message: impl Into<String>) -> Self {
        Self::new(StatusCode::REQUEST_TIMEOUT, message)
    }

    /// 504: the solve reached its deadline without an answer.
    pub fn deadline(message: impl Into<String>) -> Self {
        Self::new(StatusCode::GATEWAY_TIMEOUT, message)
    }

    /// 422: a valid request whose cube has no answer in the mode asked (no solution
    /// within the cap, a cube outside the group of the moves allowed).
    pub fn no_answer(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 503 with Retry-After: the long-request queue is full, or the service is stopping.
    pub fn busy(message: impl Into<String>, retry_after: u32) -> Self {
        Self {
            retry_after: Some(retry_after),
            ..Self::new(StatusCode::SERVICE_UNAVAILABLE, message)
        }
    }

    /// 500: a table that cannot be used, or a bug (never a wrong answer).
    pub fn internal(message: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
            retry_after: None,
        }
    }

    /// The JSON body: `{"error": message, "status": code}`.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.message, "status": self.status.as_u16() })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(self.body())).into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
