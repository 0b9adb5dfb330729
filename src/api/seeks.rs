//! Quick pairing: seek a game, hear when it is found, or give up.

use std::time::Duration;

use actix_web::http::header;
use actix_web::{HttpResponse, delete, get, post, web};

use super::auth::Caller;
use super::body;
use super::error::{ApiError, Problem, Result};
use super::games::{GameSettings, game_spec_parts};
use super::types::{CreateGame, CreateSeek, SeekView, SeekWaitQuery};
use crate::rules::Color;
use crate::service::{ComputerFallback, SeekSpec, Service};

/// Seek a game: you join the pool for a game with these settings and are
/// paired with a compatible seek (the same settings, each rating inside the
/// other's range, colours that agree), closer ratings and longer waits
/// first, at once if one waits. The answer is the seek: `paired` with the
/// game (already begun), or `waiting` — then `GET /v1/seeks/{id}?wait=30`
/// until it is paired; a seek nobody asks after for a minute expires.
#[utoipa::path(
    tag = "seeks",
    request_body(content = Option<CreateSeek>, description = "Optional: by default freestyle 15×15, no clock, unrated, any opponent"),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The seek, paired or waiting", body = SeekView),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: rules, clock or range that cannot be played", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/seeks")]
pub async fn create_seek(
    service: web::Data<Service>,
    caller: Caller,
    body: web::Bytes,
) -> Result<HttpResponse> {
    let body: CreateSeek = body::optional(&body)?.unwrap_or_default();
    let spec = seek_spec(body)?;
    let seek = service.create_seek(&caller.0, spec).await?;
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, format!("/v1/seeks/{}", seek.id)));
    Ok(response.json(SeekView::from(seek)))
}

fn seek_spec(body: CreateSeek) -> Result<SeekSpec> {
    let colour = match body.colour.as_deref() {
        None | Some("any") => None,
        Some("black") => Some(Color::Black),
        Some("white") => Some(Color::White),
        Some(other) => {
            return Err(ApiError::validation(format!(
                "colour must be black, white or any, not {other:?}"
            )));
        }
    };
    let rating_range = match &body.rating_range {
        Some(range)
            if !(0.0..=10_000.0).contains(&range.min) || !(0.0..=10_000.0).contains(&range.max) =>
        {
            return Err(ApiError::validation(
                "rating_range: min and max are from 0 to 10000",
            ));
        }
        Some(range) if range.min > range.max => {
            return Err(ApiError::validation(
                "rating_range: min must not be above max",
            ));
        }
        Some(range) => Some((range.min, range.max)),
        None => None,
    };
    let rated = body.rated.unwrap_or(false);
    let game = CreateGame {
        rules: body.rules,
        board_size: body.board_size,
        width: body.width,
        height: body.height,
        k: body.k,
        overline_wins: body.overline_wins,
        forbidden: body.forbidden,
        clock: body.clock,
        opening: body.opening,
        ..CreateGame::default()
    };
    let GameSettings {
        variant,
        clock,
        opening,
    } = game_spec_parts(&game)?;
    let computer = match &body.computer {
        Some(asked) => Some(ComputerFallback {
            after: Duration::from_secs(asked.after_s),
            level: asked.level.as_deref().map(str::parse).transpose().map_err(
                |e: crate::engine::UnknownLevel| {
                    ApiError::validation(format!("computer.level: {e}"))
                },
            )?,
        }),
        None => None,
    };
    Ok(SeekSpec {
        variant,
        opening,
        clock,
        rated,
        rating_range,
        colour,
        computer,
    })
}

/// Your seek; with `wait`, answered once it is paired (or cancelled or
/// expired) or after `wait` seconds (long polling). Asking keeps a waiting
/// seek alive.
#[utoipa::path(
    tag = "seeks",
    params(("id" = String, Path, description = "Seek id"), SeekWaitQuery),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seek", body = SeekView),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND: no such seek of yours", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: a wait over 30 s", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/seeks/{id}")]
pub async fn get_seek(
    service: web::Data<Service>,
    caller: Caller,
    id: web::Path<String>,
    query: web::Query<SeekWaitQuery>,
) -> Result<web::Json<SeekView>> {
    let wait = match query.wait {
        None | Some(0) => Duration::ZERO,
        Some(s @ 1..=30) => Duration::from_secs(s),
        Some(s) => {
            return Err(ApiError::validation(format!(
                "wait must be from 0 to 30 seconds, not {s}"
            )));
        }
    };
    Ok(web::Json(service.seek(&caller.0, &id, wait).await?.into()))
}

/// Leave the pool: your seek is cancelled unless it was paired already
/// (then the answer says so, with the game).
#[utoipa::path(
    tag = "seeks",
    params(("id" = String, Path, description = "Seek id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The seek, cancelled (or paired before)", body = SeekView),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND: no such seek of yours", body = Problem, content_type = "application/problem+json"),
    )
)]
#[delete("/v1/seeks/{id}")]
pub async fn cancel_seek(
    service: web::Data<Service>,
    caller: Caller,
    id: web::Path<String>,
) -> Result<web::Json<SeekView>> {
    Ok(web::Json(service.cancel_seek(&caller.0, &id).await?.into()))
}
