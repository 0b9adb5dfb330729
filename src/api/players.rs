//! Player endpoints: create, read, rename, leaderboard.

use actix_web::{HttpResponse, get, post, web};

use super::auth::Caller;
use super::error::{ApiError, Problem, Result};
use super::types::{CreatePlayer, Leaderboard, PageQuery, PlayerCreated, PlayerView};
use crate::service::{PlayerName, Service};

/// The page size from a query, 1–100 (default 20).
pub fn page_limit(limit: Option<i64>) -> Result<i64> {
    match limit {
        None => Ok(20),
        Some(n @ 1..=100) => Ok(n),
        Some(n) => Err(ApiError::validation(format!(
            "limit must be from 1 to 100, not {n}"
        ))),
    }
}

/// Create a player. The token in the answer is shown only this once.
#[utoipa::path(
    tag = "players",
    request_body = CreatePlayer,
    responses(
        (status = 201, description = "The player and their secret token", body = PlayerCreated),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Invalid name", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/players")]
pub async fn create_player(
    service: web::Data<Service>,
    body: web::Json<CreatePlayer>,
) -> Result<HttpResponse> {
    let name = PlayerName::parse(&body.name)?;
    let created = service.create_player(&name).await?;
    Ok(HttpResponse::Created()
        .insert_header(("Location", format!("/v1/players/{}", created.player.id)))
        .json(PlayerCreated {
            id: created.player.id,
            name: created.player.name,
            token: created.token.expose().to_string(),
        }))
}

/// The player the bearer token belongs to: how a client that was given
/// only a token (a second device, a saved token) learns who it plays as.
#[utoipa::path(
    tag = "players",
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The caller", body = PlayerView),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me")]
pub async fn me(service: web::Data<Service>, caller: Caller) -> Result<web::Json<PlayerView>> {
    // The caller as authenticated may be a minute old: the counts are read now.
    Ok(web::Json(service.player(&caller.0.id).await?.into()))
}

/// Rename yourself. Trimmed, 1–40 characters; names need not be unique
/// (the id is the identity, and every listing shows both). A POST, as
/// every client can send one.
#[utoipa::path(
    tag = "players",
    request_body = CreatePlayer,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "You, renamed", body = PlayerView),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: an empty or too long name, or control characters in it", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/players/me/name")]
pub async fn rename(
    service: web::Data<Service>,
    caller: Caller,
    body: web::Json<CreatePlayer>,
) -> Result<web::Json<PlayerView>> {
    let name = PlayerName::parse(&body.name)?;
    Ok(web::Json(
        service.rename_player(&caller.0, &name).await?.into(),
    ))
}

/// A player and their cumulative score.
#[utoipa::path(
    tag = "players",
    params(("id" = String, Path, description = "Player id")),
    responses(
        (status = 200, description = "The player", body = PlayerView),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}")]
pub async fn get_player(
    service: web::Data<Service>,
    id: web::Path<String>,
) -> Result<web::Json<PlayerView>> {
    Ok(web::Json(service.player(&id).await?.into()))
}

/// Players by score, best first, with an opaque cursor for the next page.
#[utoipa::path(
    tag = "players",
    params(PageQuery),
    responses(
        (status = 200, description = "One page of the leaderboard", body = Leaderboard),
        (status = 422, description = "Bad limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/leaderboard")]
pub async fn leaderboard(
    service: web::Data<Service>,
    query: web::Query<PageQuery>,
) -> Result<web::Json<Leaderboard>> {
    let limit = page_limit(query.limit)?;
    let (players, next_cursor) = service.leaderboard(limit, query.cursor.as_deref()).await?;
    Ok(web::Json(Leaderboard {
        players: players.into_iter().map(PlayerView::from).collect(),
        next_cursor,
    }))
}
