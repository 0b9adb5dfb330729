//! Player endpoints: create, read (with ratings), rename, rating history,
//! leaderboards by score and by rating.

use actix_web::{HttpResponse, get, post, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::Caller;
use super::body;
use super::error::{ApiError, Problem, Result};
use super::types::{
    CreatePlayer, GameSummary, Leaderboard, PlayerCreated, PlayerProfile, PlayerView,
    RatingHistoryView, RatingView,
};
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
    body: body::Json<CreatePlayer>,
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
    body: body::Json<CreatePlayer>,
) -> Result<web::Json<PlayerView>> {
    let name = PlayerName::parse(&body.name)?;
    Ok(web::Json(
        service.rename_player(&caller.0, &name).await?.into(),
    ))
}

/// Whose games against this player to count.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct ProfileQuery {
    /// Another player's id: adds `head_to_head`, this player's finished
    /// games against them.
    pub vs: Option<String>,
}

/// A player's card: their cumulative score, their Glicko-2 rating in each
/// category they have played rated games in, their newest games, and with
/// `?vs=` their record against another player.
#[utoipa::path(
    tag = "players",
    params(("id" = String, Path, description = "Player id"), ProfileQuery),
    responses(
        (status = 200, description = "The player", body = PlayerProfile),
        (status = 404, description = "No such player (or no such `vs` player)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}")]
pub async fn get_player(
    service: web::Data<Service>,
    id: web::Path<String>,
    query: web::Query<ProfileQuery>,
) -> Result<web::Json<PlayerProfile>> {
    let player = service.player(&id).await?;
    let ratings = service.ratings(&id).await?;
    let recent = service.list_games(Some(&id), None, 10, None).await?;
    let head_to_head = match &query.vs {
        Some(vs) => Some(service.head_to_head(&id, vs).await?),
        None => None,
    };
    Ok(web::Json(PlayerProfile::new(
        player,
        ratings,
        recent.games.iter().map(GameSummary::from).collect(),
        recent.next_cursor,
        head_to_head,
    )))
}

/// Which category's rating history to read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct RatingHistoryQuery {
    /// `freestyle-15`, `freestyle-19`, `standard`, `renju`, `tictactoe` or `custom`.
    #[param(pattern = "^(freestyle-15|freestyle-19|standard|renju|tictactoe|custom)$")]
    pub category: String,
    /// Page size, 1–100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(pattern = "^-?[0-9]{1,18}\\.[0-9A-Za-z_-]{1,64}$")]
    pub cursor: Option<String>,
}

/// A player's rating after each rated game in a category, newest first:
/// the points of a rating chart.
#[utoipa::path(
    tag = "players",
    params(("id" = String, Path, description = "Player id"), RatingHistoryQuery),
    responses(
        (status = 200, description = "One page of the history", body = RatingHistoryView),
        (status = 404, description = "No such player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Unknown category, bad limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/{id}/ratings")]
pub async fn rating_history(
    service: web::Data<Service>,
    id: web::Path<String>,
    query: web::Query<RatingHistoryQuery>,
) -> Result<web::Json<RatingHistoryView>> {
    let limit = page_limit(query.limit)?;
    let history = service
        .rating_history(&id, &query.category, limit, query.cursor.as_deref())
        .await?;
    Ok(web::Json(RatingHistoryView::new(
        id.into_inner(),
        query.category.clone(),
        history,
    )))
}

/// Which leaderboard page to read.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardQuery {
    /// By rating in this category (`freestyle-15`, `freestyle-19`,
    /// `standard`, `renju`, `tictactoe` or `custom`) instead of by score.
    #[param(pattern = "^(freestyle-15|freestyle-19|standard|renju|tictactoe|custom)$")]
    pub category: Option<String>,
    /// With a category: include provisional ratings (default false);
    /// without one, it has no effect.
    pub provisional: Option<bool>,
    /// Page size, 1–100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(pattern = "^-?[0-9]{1,18}\\.[0-9A-Za-z_-]{1,64}$")]
    pub cursor: Option<String>,
}

/// Players by score, best first; or, with `category`, by their Glicko-2
/// rating in it (provisional ratings left out unless asked for). An opaque
/// cursor gives the next page.
#[utoipa::path(
    tag = "players",
    params(LeaderboardQuery),
    responses(
        (status = 200, description = "One page of the leaderboard", body = Leaderboard),
        (status = 422, description = "Bad category, limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/leaderboard")]
pub async fn leaderboard(
    service: web::Data<Service>,
    query: web::Query<LeaderboardQuery>,
) -> Result<web::Json<Leaderboard>> {
    let limit = page_limit(query.limit)?;
    if let Some(category) = &query.category {
        let board = service
            .rating_leaderboard(
                category,
                query.provisional.unwrap_or(false),
                limit,
                query.cursor.as_deref(),
            )
            .await?;
        return Ok(web::Json(Leaderboard {
            players: board
                .players
                .into_iter()
                .map(|(player, rating)| PlayerView {
                    rating: Some(RatingView::from(rating)),
                    ..PlayerView::from(player)
                })
                .collect(),
            next_cursor: board.next_cursor,
        }));
    }
    let (players, next_cursor) = service.leaderboard(limit, query.cursor.as_deref()).await?;
    Ok(web::Json(Leaderboard {
        players: players.into_iter().map(PlayerView::from).collect(),
        next_cursor,
    }))
}
