//! Who is calling: the player behind the bearer token, and the version a
//! client expects (`If-Match`).

use std::future::Future;
use std::pin::Pin;

use actix_web::http::header;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use tracing_actix_web::RootSpan;

use super::error::ApiError;
use crate::service::{Service, ServiceError};
use crate::store::PlayerRow;

/// The authenticated caller; 401 without a valid bearer token.
pub struct Caller(pub PlayerRow);

/// The caller if a token was sent; 401 for a token that fits no player.
pub struct MaybeCaller(pub Option<PlayerRow>);

/// Who a request comes from, for budgets and idempotency keys: its bearer
/// token, or its address when it sends none (not checked: a wrong token
/// is refused later, by the route).
pub(super) enum Client {
    Token(String),
    Address(String),
}

impl Client {
    pub(super) fn of(req: &HttpRequest) -> Client {
        match bearer(req).ok().flatten() {
            Some(token) => Client::Token(token),
            None => Client::Address(
                req.peer_addr()
                    .map(|a| a.ip().to_string())
                    .unwrap_or_default(),
            ),
        }
    }
}

fn bearer(req: &HttpRequest) -> Result<Option<String>, ApiError> {
    let Some(value) = req.headers().get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let value = value
        .to_str()
        .map_err(|_| ApiError::from(ServiceError::Unauthorized))?;
    let (scheme, token) = value.split_once(' ').ok_or(ServiceError::Unauthorized)?;
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(ServiceError::Unauthorized.into());
    }
    Ok(Some(token.trim().to_string()))
}

async fn authenticate(req: HttpRequest) -> Result<Option<PlayerRow>, ApiError> {
    let Some(token) = bearer(&req)? else {
        return Ok(None);
    };
    let service = req
        .app_data::<web::Data<Service>>()
        .expect("the service is registered as app data");
    let player = service.authenticate(&token).await?;
    if let Some(span) = req.extensions().get::<RootSpan>() {
        span.record("player_id", player.id.as_str());
    }
    Ok(Some(player))
}

use actix_web::HttpMessage;

impl FromRequest for MaybeCaller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move { Ok(MaybeCaller(authenticate(req).await?)) })
    }
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            authenticate(req)
                .await?
                .map(Caller)
                .ok_or_else(|| ServiceError::Unauthorized.into())
        })
    }
}

/// The version in `If-Match` (`"5"`, `W/"5"` or `5`); `None` without the
/// header or for `*`.
pub struct IfMatch(pub Option<i64>);

impl FromRequest for IfMatch {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(parse_if_match(req))
    }
}

fn parse_if_match(req: &HttpRequest) -> Result<IfMatch, ApiError> {
    let Some(value) = req.headers().get(header::IF_MATCH) else {
        return Ok(IfMatch(None));
    };
    let bad = || {
        ApiError::validation("If-Match must be a game version as returned in the ETag, e.g. \"3\"")
    };
    let text = value.to_str().map_err(|_| bad())?.trim();
    if text == "*" {
        return Ok(IfMatch(None));
    }
    let text = text.strip_prefix("W/").unwrap_or(text).trim_matches('"');
    text.parse().map(|v| IfMatch(Some(v))).map_err(|_| bad())
}

/// Notes the game a request is about in its log span.
pub fn record_game(req: &HttpRequest, game_id: &str) {
    if let Some(span) = req.extensions().get::<RootSpan>() {
        span.record("game_id", game_id);
    }
}
