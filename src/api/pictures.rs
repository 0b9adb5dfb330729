//! Pictures of games: `board.svg` and `board.png` at any move, and
//! `animation.gif` of the whole game. Drawn off the async workers; cached by
//! the game's version and the options.

use std::hash::{Hash, Hasher};

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, get, web};
use serde::Deserialize;
use utoipa::IntoParams;

use super::auth::record_game;
use super::error::{ApiError, Problem, Result};
use crate::pictures::{self, GIF_SIZES, SIZES, Style, Theme};
use crate::service::{Game, Service, Status};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PictureQuery {
    /// The longer side in pixels, 120–2000 (default 600).
    #[param(minimum = 120, maximum = 2000)]
    pub size: Option<u32>,
    /// `wood` (default), `paper` or `dark`.
    #[param(pattern = "^(wood|paper|dark)$")]
    pub theme: Option<String>,
    /// Number the stones in the order played (default false).
    pub numbers: Option<bool>,
    /// The board after this many moves (default: as it stands); at most
    /// 676, the points of the largest board.
    #[param(minimum = 0, maximum = 676)]
    pub ply: Option<usize>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AnimationQuery {
    /// The longer side in pixels, 120–800 (default 400).
    #[param(minimum = 120, maximum = 800)]
    pub size: Option<u32>,
    /// `wood` (default), `paper` or `dark`.
    #[param(pattern = "^(wood|paper|dark)$")]
    pub theme: Option<String>,
    /// Each move's time on screen, 100–5000 ms (default 700).
    #[param(minimum = 100, maximum = 5000)]
    pub delay_ms: Option<u32>,
}

fn style(
    size: Option<u32>,
    default: u32,
    allowed: std::ops::RangeInclusive<u32>,
    theme: Option<&str>,
    numbers: bool,
) -> Result<Style> {
    let size = size.unwrap_or(default);
    if !allowed.contains(&size) {
        return Err(ApiError::validation(format!(
            "size must be from {} to {} pixels, not {size}",
            allowed.start(),
            allowed.end()
        )));
    }
    let theme = theme
        .map(str::parse::<Theme>)
        .transpose()
        .map_err(ApiError::validation)?
        .unwrap_or_default();
    Ok(Style {
        size,
        theme,
        numbers,
    })
}

/// The ETag of a picture: the game's version and everything asked.
fn tag(game: &Game, what: impl Hash) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    what.hash(&mut hasher);
    format!("\"{}-{:x}\"", game.version, hasher.finish())
}

/// The answer for a picture: 304 when the client has it, else `render`'s
/// bytes, rendered on the blocking pool.
async fn picture(
    req: &HttpRequest,
    game: &Game,
    tag: String,
    content_type: &'static str,
    render: impl FnOnce() -> Vec<u8> + Send + 'static,
) -> Result<HttpResponse> {
    let fresh = super::not_modified(req, &tag);
    // A finished game's pictures never change; others do with every move.
    let cache = if game.status == Status::Finished {
        "public, max-age=86400"
    } else {
        "no-cache"
    };
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag))
        .insert_header((header::CACHE_CONTROL, cache));
    if fresh {
        return Ok(response.finish());
    }
    let bytes = web::block(render).await.map_err(|e| {
        ApiError::from(crate::service::ServiceError::Internal(format!(
            "drawing failed: {e}"
        )))
    })?;
    Ok(response.content_type(content_type).body(bytes))
}

const PICTURE_ERRORS: &str = "VALIDATION: a size, theme or ply out of range";

/// The board as SVG: coordinates, the stones, the last move, the winning
/// row, black's forbidden points in renju; move numbers, size, theme and
/// the move to show as asked.
#[utoipa::path(
    tag = "records",
    params(("id" = String, Path, description = "Game id"), PictureQuery),
    responses(
        (status = 200, description = "The picture", content_type = "image/svg+xml", body = String),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, description = "NOT_FOUND: no such game; PLY_NOT_PLAYED: the game has not reached that ply", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = PICTURE_ERRORS, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/board.svg")]
pub async fn board_svg(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse> {
    board(service, req, id, query, "svg").await
}

/// The board as PNG, drawn from the same picture as `board.svg`.
#[utoipa::path(
    tag = "records",
    params(("id" = String, Path, description = "Game id"), PictureQuery),
    responses(
        (status = 200, description = "The picture", content_type = "image/png", body = Vec<u8>),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, description = "NOT_FOUND: no such game; PLY_NOT_PLAYED: the game has not reached that ply", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = PICTURE_ERRORS, body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/board.png")]
pub async fn board_png(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<PictureQuery>,
) -> Result<HttpResponse> {
    board(service, req, id, query, "png").await
}

async fn board(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<PictureQuery>,
    kind: &'static str,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let style = style(
        query.size,
        600,
        SIZES,
        query.theme.as_deref(),
        query.numbers.unwrap_or(false),
    )?;
    let game = service.game(&id).await?;
    let diagram = game.diagram(query.ply)?;
    let tag = tag(&game, (kind, style, query.ply));
    if kind == "svg" {
        picture(&req, &game, tag, "image/svg+xml", move || {
            diagram.svg(&style).into_bytes()
        })
        .await
    } else {
        picture(&req, &game, tag, "image/png", move || diagram.png(&style)).await
    }
}

/// The whole game, move by move, as an animated GIF for sharing: each move
/// shown `delay_ms`, the final position held three seconds, looping.
#[utoipa::path(
    tag = "records",
    params(("id" = String, Path, description = "Game id"), AnimationQuery),
    responses(
        (status = 200, description = "The animation", content_type = "image/gif", body = Vec<u8>),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: a size, theme or delay out of range", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/animation.gif")]
pub async fn animation_gif(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<AnimationQuery>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let style = style(query.size, 400, GIF_SIZES, query.theme.as_deref(), false)?;
    let delay = query.delay_ms.unwrap_or(700);
    if !(100..=5000).contains(&delay) {
        return Err(ApiError::validation(format!(
            "delay_ms must be from 100 to 5000, not {delay}"
        )));
    }
    let game = service.game(&id).await?;
    let frames = game.diagrams();
    let tag = tag(&game, ("gif", style, delay));
    picture(&req, &game, tag, "image/gif", move || {
        pictures::animation(&frames, &style, delay, 3000)
    })
    .await
}
