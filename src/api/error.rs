//! Every error leaves as RFC 9457 `application/problem+json` with a stable
//! `code`. Internal details go to the log, never to the client.

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

use crate::service::{OfferKind, ServiceError};

/// An RFC 9457 problem document.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "type": "urn:gobang:problem:OCCUPIED",
    "title": "Point occupied",
    "status": 409,
    "detail": "h8 is already taken by black: choose an empty point",
    "code": "OCCUPIED"
}))]
pub struct Problem {
    /// A URI naming the kind of problem.
    #[serde(rename = "type")]
    pub kind: String,
    /// A short summary of the kind of problem.
    pub title: &'static str,
    /// The HTTP status.
    pub status: u16,
    /// What went wrong this time, and what to do about it.
    pub detail: String,
    /// A stable, machine-readable code.
    pub code: &'static str,
    /// For FORBIDDEN_MOVE: `double_three`, `double_four` or `overline`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forbidden_kind: Option<&'static str>,
    /// For VERSION_MISMATCH: the game's current version.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub current_version: Option<i64>,
}

/// An error on its way out as a problem document.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    title: &'static str,
    detail: String,
    forbidden_kind: Option<&'static str>,
    current_version: Option<i64>,
    retry_after: Option<u64>,
}

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

impl ApiError {
    pub fn new(
        status: StatusCode,
        code: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        ApiError {
            status,
            code,
            title,
            detail: detail.into(),
            forbidden_kind: None,
            current_version: None,
            retry_after: None,
        }
    }

    /// Tells the client when to try again (`Retry-After`).
    pub fn with_retry_after(mut self, seconds: u64) -> Self {
        self.retry_after = Some(seconds);
        self
    }

    pub fn validation(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
            "Invalid request",
            detail,
        )
    }

    pub fn malformed_json(detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::BAD_REQUEST,
            "MALFORMED_JSON",
            "Malformed JSON",
            detail,
        )
    }

    pub fn not_found(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "NOT_FOUND", "Not found", detail)
    }

    pub fn code(&self) -> &'static str {
        self.code
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.detail)
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let body = Problem {
            kind: format!("urn:gobang:problem:{}", self.code),
            title: self.title,
            status: self.status.as_u16(),
            detail: self.detail.clone(),
            code: self.code,
            forbidden_kind: self.forbidden_kind,
            current_version: self.current_version,
        };
        let mut response = HttpResponse::build(self.status);
        response.insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/problem+json"),
        ));
        if self.status == StatusCode::UNAUTHORIZED {
            response.insert_header((header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer")));
        }
        if let Some(seconds) = self.retry_after {
            response.insert_header((header::RETRY_AFTER, seconds.to_string()));
        }
        response.body(serde_json::to_string(&body).expect("a problem serializes"))
    }
}

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> Self {
        use StatusCode as S;
        let detail = error.to_string();
        let (status, code, title) = match &error {
            ServiceError::NotFound { .. } => (S::NOT_FOUND, "NOT_FOUND", "Not found"),
            ServiceError::PlyNotPlayed(_) => (S::NOT_FOUND, "PLY_NOT_PLAYED", "Ply not played"),
            ServiceError::Validation(_) => {
                (S::UNPROCESSABLE_ENTITY, "VALIDATION", "Invalid request")
            }
            ServiceError::ImportInvalid(_) => (
                S::UNPROCESSABLE_ENTITY,
                "IMPORT_INVALID",
                "Record cannot be imported",
            ),
            ServiceError::OutOfBoard(_) => (
                S::UNPROCESSABLE_ENTITY,
                "OUT_OF_BOARD",
                "Point off the board",
            ),
            ServiceError::Occupied { .. } => (S::CONFLICT, "OCCUPIED", "Point occupied"),
            ServiceError::Forbidden { .. } => (S::CONFLICT, "FORBIDDEN_MOVE", "Forbidden move"),
            ServiceError::NotYourTurn(_) => (S::CONFLICT, "NOT_YOUR_TURN", "Not your turn"),
            ServiceError::GameOver => (S::CONFLICT, "GAME_OVER", "Game over"),
            ServiceError::NotStarted => (S::CONFLICT, "GAME_NOT_STARTED", "Game not started"),
            ServiceError::NothingToUndo(_) => (S::CONFLICT, "NOTHING_TO_UNDO", "Nothing to undo"),
            ServiceError::NothingToRedo => (S::CONFLICT, "NOTHING_TO_REDO", "Nothing to redo"),
            ServiceError::NotOnline(_) => {
                (S::CONFLICT, "NOT_AN_ONLINE_GAME", "Only in online games")
            }
            ServiceError::OfferPending(_) => (S::CONFLICT, "OFFER_PENDING", "An offer is pending"),
            ServiceError::NoOffer(_) => (S::CONFLICT, "NO_OFFER", "No such offer"),
            ServiceError::OfferLimit { kind } => (
                S::CONFLICT,
                match kind {
                    OfferKind::Takeback => "TAKEBACK_LIMIT_REACHED",
                    OfferKind::Draw => "DRAW_OFFER_LIMIT_REACHED",
                    OfferKind::Rematch => "REMATCH_LIMIT_REACHED",
                },
                "Too many declined offers",
            ),
            ServiceError::NoInvitation(_) => (S::CONFLICT, "NO_INVITATION", "No invitation"),
            ServiceError::AlreadyStarted(_) => {
                (S::CONFLICT, "GAME_ALREADY_STARTED", "Game already started")
            }
            ServiceError::RematchUnavailable(_) => {
                (S::CONFLICT, "REMATCH_UNAVAILABLE", "No rematch possible")
            }
            ServiceError::ClaimNotAllowed(_) => {
                (S::CONFLICT, "CLAIM_NOT_ALLOWED", "Cannot claim the win")
            }
            ServiceError::ClaimTooEarly { .. } => (S::CONFLICT, "CLAIM_TOO_EARLY", "Too early"),
            ServiceError::SeatUnavailable(_) => {
                (S::CONFLICT, "SEAT_UNAVAILABLE", "Seat unavailable")
            }
            ServiceError::HintNotAllowed(_) => {
                (S::CONFLICT, "HINT_NOT_ALLOWED", "Hint not allowed")
            }
            ServiceError::OpeningDecisionRequired(_) => (
                S::CONFLICT,
                "OPENING_DECISION_REQUIRED",
                "The opening waits for a decision",
            ),
            ServiceError::OpeningWrongPhase(_) => (
                S::CONFLICT,
                "OPENING_WRONG_PHASE",
                "Not what the opening waits for",
            ),
            ServiceError::OutsideOpeningZone(_) => (
                S::UNPROCESSABLE_ENTITY,
                "OUTSIDE_OPENING_ZONE",
                "Outside the opening zone",
            ),
            ServiceError::NotOffered(_) => (
                S::UNPROCESSABLE_ENTITY,
                "NOT_OFFERED",
                "Not an offered fifth move",
            ),
            ServiceError::SymmetricOffers(_) => (
                S::UNPROCESSABLE_ENTITY,
                "SYMMETRIC_OFFERS",
                "Symmetric fifth-move offers",
            ),
            ServiceError::VersionMismatch { .. } => (
                S::PRECONDITION_FAILED,
                "VERSION_MISMATCH",
                "Version mismatch",
            ),
            ServiceError::Unauthorized | ServiceError::BadToken => {
                (S::UNAUTHORIZED, "UNAUTHORIZED", "Unauthorized")
            }
            ServiceError::NotAPlayer => (
                S::FORBIDDEN,
                "NOT_A_PLAYER_OF_THIS_GAME",
                "Not a player of this game",
            ),
            ServiceError::EngineBusy { .. } => {
                (S::SERVICE_UNAVAILABLE, "ENGINE_BUSY", "Computer busy")
            }
            ServiceError::ThinkingBudget { .. } => {
                (S::TOO_MANY_REQUESTS, "RATE_LIMITED", "Too many requests")
            }
            ServiceError::Store(_) | ServiceError::Internal(_) => {
                tracing::error!(error = ?error, "internal error");
                return ApiError::new(
                    S::INTERNAL_SERVER_ERROR,
                    "INTERNAL",
                    "Internal error",
                    "something went wrong on our side; the X-Request-Id response header identifies this request in our logs",
                );
            }
        };
        let mut api = ApiError::new(status, code, title, detail);
        match error {
            ServiceError::Forbidden { kind, .. } => api.forbidden_kind = Some(kind.as_str()),
            ServiceError::VersionMismatch { current, .. } => api.current_version = Some(current),
            ServiceError::EngineBusy { retry_after_secs }
            | ServiceError::ThinkingBudget {
                retry_after_secs, ..
            }
            | ServiceError::ClaimTooEarly { retry_after_secs } => {
                api.retry_after = Some(retry_after_secs)
            }
            _ => {}
        }
        api
    }
}

/// Turns the JSON body extractor's failures into problems.
pub fn json_error(
    error: actix_web::error::JsonPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    use actix_web::error::JsonPayloadError as J;
    let api = match error {
        J::OverflowKnownLength { length, limit } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "PAYLOAD_TOO_LARGE",
            "Payload too large",
            format!("the body is {length} bytes; the limit is {limit}"),
        ),
        J::Overflow { limit } => ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "PAYLOAD_TOO_LARGE",
            "Payload too large",
            format!("the body is over the limit of {limit} bytes"),
        ),
        J::ContentType => ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "UNSUPPORTED_MEDIA_TYPE",
            "Unsupported media type",
            "send the body as JSON with \"Content-Type: application/json\"",
        ),
        J::Deserialize(e) => body_error(&e),
        other => ApiError::malformed_json(other.to_string()),
    };
    api.into()
}

/// A body that did not parse: broken JSON, or JSON of the wrong shape.
pub fn body_error(e: &serde_json::Error) -> ApiError {
    use serde_json::error::Category;
    match e.classify() {
        Category::Data => ApiError::validation(format!("the body does not fit: {e}")),
        Category::Syntax | Category::Eof | Category::Io => {
            ApiError::malformed_json(format!("the body is not valid JSON: {e}"))
        }
    }
}

/// Turns query-string failures into problems.
pub fn query_error(
    error: actix_web::error::QueryPayloadError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::validation(format!("the query string does not fit: {error}")).into()
}

/// Turns path failures into problems.
pub fn path_error(
    error: actix_web::error::PathError,
    _: &actix_web::HttpRequest,
) -> actix_web::Error {
    ApiError::not_found(format!("no such resource: {error}")).into()
}
