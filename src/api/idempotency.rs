//! `Idempotency-Key` on changing requests (the IETF draft): the same key
//! with the same request returns the first answer without acting again; the
//! same key with another request is 422 `IDEMPOTENCY_KEY_REUSED`; a retry
//! while the first is still under way is 409 `IDEMPOTENCY_KEY_IN_USE`. Keys
//! belong to the caller (its token, or its address without one) and are
//! kept a day, in the database.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Payload, ServiceRequest, ServiceResponse};
use actix_web::http::{Method, StatusCode, header};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, HttpResponse, ResponseError, web};
use futures_util::StreamExt;
use sha2::{Digest, Sha256};

use super::auth::Client;
use super::error::ApiError;
use crate::service::{Service, ServiceError};
use crate::store::idempotency::{Claim, StoredResponse};

/// The header.
pub const HEADER: &str = "idempotency-key";
/// The largest body a keyed request may carry.
const BODY_LIMIT: usize = 256 * 1024;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Who owns a key: the caller's token (hashed) or its address.
fn owner(req: &ServiceRequest) -> String {
    match Client::of(req.request()) {
        Client::Token(token) => format!("t:{}", hex(&Sha256::digest(token.as_bytes())[..16])),
        Client::Address(address) => format!("a:{address}"),
    }
}

fn problem(
    status: StatusCode,
    code: &'static str,
    title: &'static str,
    detail: String,
) -> HttpResponse {
    ApiError::new(status, code, title, detail).error_response()
}

fn replay(stored: StoredResponse) -> HttpResponse {
    let status = StatusCode::from_u16(stored.status).unwrap_or(StatusCode::OK);
    let mut response = HttpResponse::build(status);
    response.insert_header(("Idempotent-Replayed", "true"));
    for (name, value) in [
        (header::CONTENT_TYPE, stored.content_type),
        (header::LOCATION, stored.location),
        (header::ETAG, stored.etag),
    ] {
        if let Some(value) = value {
            response.insert_header((name, value));
        }
    }
    response.body(stored.body)
}

/// The middleware: `middleware::from_fn(idempotency::handle)`.
pub async fn handle(
    mut req: ServiceRequest,
    next: Next<BoxBody>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let srv = &next;
    let key = req
        .headers()
        .get(HEADER)
        .map(|v| v.to_str().map(str::to_string));
    let key = match key {
        None => return srv.call(req).await,
        Some(_) if *req.method() != Method::POST => return srv.call(req).await,
        Some(Ok(key))
            if (1..=255).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_graphic()) =>
        {
            key
        }
        Some(_) => {
            let refusal = problem(
                StatusCode::UNPROCESSABLE_ENTITY,
                "VALIDATION",
                "Invalid request",
                "Idempotency-Key must be 1 to 255 visible ASCII characters, e.g. a UUID".into(),
            );
            return Ok(req.into_response(refusal));
        }
    };
    let Some(service) = req.app_data::<web::Data<Service>>().cloned() else {
        return srv.call(req).await;
    };
    // The body, read to fingerprint the request, then handed on.
    let mut payload = req.take_payload();
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk?;
        if body.len() + chunk.len() > BODY_LIMIT {
            let refusal = problem(
                StatusCode::PAYLOAD_TOO_LARGE,
                "PAYLOAD_TOO_LARGE",
                "Body too large",
                format!("a request with an Idempotency-Key carries at most {BODY_LIMIT} bytes"),
            );
            return Ok(req.into_response(refusal));
        }
        body.extend_from_slice(&chunk);
    }
    let body = body.freeze();
    let fingerprint = format!(
        "{} {}?{} {}",
        req.method(),
        req.path(),
        req.query_string(),
        hex(&Sha256::digest(&body))
    );
    req.set_payload(Payload::from(body));
    let owner = owner(&req);
    let claim = service
        .claim_idempotency_key(&owner, &key, &fingerprint)
        .await
        .map_err(ApiError::from)?;
    match claim {
        Claim::Done(stored) => return Ok(req.into_response(replay(stored))),
        Claim::Mismatch => {
            let refusal = problem(
                StatusCode::UNPROCESSABLE_ENTITY,
                "IDEMPOTENCY_KEY_REUSED",
                "Idempotency key reused",
                format!(
                    "the Idempotency-Key {key:?} was used for another request: use a new key for a new request"
                ),
            );
            return Ok(req.into_response(refusal));
        }
        Claim::InFlight => {
            let refusal = problem(
                StatusCode::CONFLICT,
                "IDEMPOTENCY_KEY_IN_USE",
                "Request under way",
                format!(
                    "the first request with Idempotency-Key {key:?} is still under way: retry in a moment"
                ),
            );
            return Ok(req.into_response(refusal));
        }
        Claim::New => {}
    }
    let response = srv.call(req).await;
    let response = match response {
        Ok(response) => response,
        Err(e) => {
            let _ = service.complete_idempotency_key(&owner, &key, None).await;
            return Err(e);
        }
    };
    let (request, response) = response.into_parts();
    let status = response.status();
    // Server errors and refusals for being too fast are not answers: a
    // retry may act.
    if status.is_server_error() || status == StatusCode::TOO_MANY_REQUESTS {
        let _ = service.complete_idempotency_key(&owner, &key, None).await;
        return Ok(ServiceResponse::new(request, response));
    }
    let (response, body) = response.into_parts();
    let bytes = match body.try_into_bytes() {
        Ok(bytes) => bytes,
        Err(body) => actix_web::body::to_bytes(body).await.map_err(|_| {
            ApiError::from(ServiceError::Internal(
                "a response body could not be read".into(),
            ))
        })?,
    };
    let text = |name| {
        response
            .headers()
            .get(name)
            .and_then(|v: &header::HeaderValue| v.to_str().ok())
            .map(str::to_string)
    };
    let stored = StoredResponse {
        status: status.as_u16(),
        content_type: text(header::CONTENT_TYPE),
        location: text(header::LOCATION),
        etag: text(header::ETAG),
        body: bytes.to_vec(),
    };
    service
        .complete_idempotency_key(&owner, &key, Some(&stored))
        .await
        .map_err(ApiError::from)?;
    let response = response.set_body(BoxBody::new(bytes));
    Ok(ServiceResponse::new(request, response))
}
