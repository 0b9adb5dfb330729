//! Online play: invitations, takebacks, draw offers, rematches, claims
//! against a player who walked away, and calling off a waiting game.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};

use super::auth::{Caller, IfMatch, record_game};
use super::error::{Problem, Result};
use super::games::with_etag;
use super::types::GameView;
use crate::service::{Game, OfferKind, RematchOutcome, Service};

/// The game's state, with its version as the ETag.
fn state(game: &Game) -> HttpResponse {
    with_etag(HttpResponse::Ok(), game.version, GameView::from(game))
}

/// A game just created (a rematch), with its address.
fn created(game: &Game) -> HttpResponse {
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, format!("/v1/games/{}", game.id)));
    with_etag(response, game.version, GameView::from(game))
}

/// Accept an invitation: the game named you for a seat, and starts now.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, now in progress", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_INVITATION, GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/accept")]
pub async fn accept_invitation(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .accept_invitation(&caller.0, &id, if_match.0)
            .await?,
    ))
}

/// Decline an invitation: the game ends unplayed (reason `declined`), no score changes.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, ended unplayed", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_INVITATION, GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/decline")]
pub async fn decline_invitation(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .decline_invitation(&caller.0, &id, if_match.0)
            .await?,
    ))
}

/// Call off a game still waiting for a player (an open seat, or an invitation you sent): it ends unplayed (reason `cancelled`).
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, ended unplayed", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "GAME_ALREADY_STARTED, GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/cancel")]
pub async fn cancel(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(&service.cancel(&caller.0, &id, if_match.0).await?))
}

/// Ask your opponent to take back moves to your last turn (also what `POST …/undo` does in an online game). The request shows in the state as `offer` until answered; moving on drops it. After three declined requests in a game you cannot ask again.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, with the request as `offer`", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NOT_AN_ONLINE_GAME, OFFER_PENDING, TAKEBACK_LIMIT_REACHED, NOTHING_TO_UNDO, GAME_OVER, GAME_NOT_STARTED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/takeback")]
pub async fn request_takeback(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .offer(&caller.0, &id, OfferKind::Takeback, if_match.0)
            .await?,
    ))
}

/// Accept your opponent's takeback request: moves go back to their last turn, and it is their move again.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game after the takeback", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, NOT_AN_ONLINE_GAME, GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/takeback/accept")]
pub async fn accept_takeback(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .accept(&caller.0, &id, OfferKind::Takeback, if_match.0)
            .await?,
    ))
}

/// Decline your opponent's takeback request (the third declined request is their last).
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, the request gone", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, NOT_AN_ONLINE_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/takeback/decline")]
pub async fn decline_takeback(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .decline(&caller.0, &id, OfferKind::Takeback, if_match.0)
            .await?,
    ))
}

/// Offer a draw. The offer shows in the state as `offer` until answered; moving on drops it. After three declined offers in a game you cannot offer again.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, with the offer as `offer`", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NOT_AN_ONLINE_GAME, OFFER_PENDING, DRAW_OFFER_LIMIT_REACHED, GAME_OVER, GAME_NOT_STARTED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/draw")]
pub async fn offer_draw(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .offer(&caller.0, &id, OfferKind::Draw, if_match.0)
            .await?,
    ))
}

/// Accept your opponent's draw offer: the game ends drawn (`draw_agreed`), 0 points each.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, drawn", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, NOT_AN_ONLINE_GAME, GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/draw/accept")]
pub async fn accept_draw(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .accept(&caller.0, &id, OfferKind::Draw, if_match.0)
            .await?,
    ))
}

/// Decline your opponent's draw offer (the third declined offer is their last).
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, the offer gone", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, NOT_AN_ONLINE_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/draw/decline")]
pub async fn decline_draw(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .decline(&caller.0, &id, OfferKind::Draw, if_match.0)
            .await?,
    ))
}

/// Decline your opponent's rematch proposal (the third declined proposal is their last).
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The finished game, the proposal gone", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, NOT_AN_ONLINE_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/rematch/decline")]
pub async fn decline_rematch(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(
        &service
            .decline(&caller.0, &id, OfferKind::Rematch, if_match.0)
            .await?,
    ))
}

/// Claim the win from an opponent who walked away: in an online game without a clock, once the side to move has been idle past the idle limit (`claimable_at` in the state). The leaver scores −3, you +1.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, won by abandonment", body = GameView),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "CLAIM_TOO_EARLY (with Retry-After), CLAIM_NOT_ALLOWED, NOT_AN_ONLINE_GAME, GAME_OVER, GAME_NOT_STARTED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/claim")]
pub async fn claim_win(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(state(&service.claim_win(&caller.0, &id, if_match.0).await?))
}

/// Propose a rematch of a finished game: the same players and rules,
/// colours swapped. Against the computer (or in a local game) the new game
/// starts at once (201, the new game); in an online game the proposal shows
/// in the finished game's state as `offer` until your opponent answers (200).
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The finished game, with the proposal as `offer`", body = GameView),
        (status = 201, description = "The new game (against the computer), with the computer's first move if it now plays black", body = GameView, headers(("Location" = String, description = "The new game"))),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "REMATCH_UNAVAILABLE, OFFER_PENDING, REMATCH_LIMIT_REACHED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/rematch")]
pub async fn propose_rematch(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(match service.rematch(&caller.0, &id, if_match.0).await? {
        RematchOutcome::Proposed(game) => state(&game),
        RematchOutcome::Created(outcome) => created(&outcome.game),
    })
}

/// Accept your opponent's rematch proposal: the new game starts at once,
/// colours swapped; the finished game's `rematch_id` points to it.
#[utoipa::path(
    tag = "online",
    params(("id" = String, Path, description = "The finished game's id"), ("If-Match" = Option<String>, Header, description = "The finished game's version you expect")),
    security(("bearer" = [])),
    responses(
        (status = 201, description = "The new game", body = GameView, headers(("Location" = String, description = "The new game"))),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NO_OFFER, REMATCH_UNAVAILABLE, NOT_AN_ONLINE_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/rematch/accept")]
pub async fn accept_rematch(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    Ok(created(
        &service.accept_rematch(&caller.0, &id, if_match.0).await?,
    ))
}
