//! Online play: invitations, takebacks, draw offers, rematches, claims
//! against a player who walked away, and calling off a waiting game.

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, post, web};

use super::auth::{Caller, IfMatch, record_game};
use super::error::{Problem, Result};
use super::games::with_etag;
use super::types::GameView;
use crate::service::{Game, GameOffer, OfferKind, RematchOutcome, Service};

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

game_action! {
    tag = "online",
    /// Accept an invitation: the game named you for a seat, and starts now.
    accept_invitation, "/v1/games/{id}/accept",
    ok = "The game, now in progress",
    conflicts = "NO_INVITATION, GAME_OVER",
    accept_invitation()
}

game_action! {
    tag = "online",
    /// Decline an invitation: the game ends unplayed (reason `declined`), no
    /// score changes.
    decline_invitation, "/v1/games/{id}/decline",
    ok = "The game, ended unplayed",
    conflicts = "NO_INVITATION, GAME_OVER",
    decline_invitation()
}

game_action! {
    tag = "online",
    /// Call off a game still waiting for a player (an open seat, or an
    /// invitation you sent): it ends unplayed (reason `cancelled`).
    cancel, "/v1/games/{id}/cancel",
    ok = "The game, ended unplayed",
    conflicts = "GAME_ALREADY_STARTED, GAME_OVER",
    cancel()
}

game_action! {
    tag = "online",
    /// Ask your opponent to take back moves to your last turn (also what `POST
    /// …/undo` does in an online game). The request shows in the state as
    /// `offer` until answered; moving on drops it. After three declined
    /// requests in a game you cannot ask again.
    request_takeback, "/v1/games/{id}/takeback",
    ok = "The game, with the request as `offer`",
    conflicts = "NOT_AN_ONLINE_GAME, OFFER_PENDING, TAKEBACK_LIMIT_REACHED, NOTHING_TO_UNDO, GAME_OVER, GAME_NOT_STARTED",
    offer(GameOffer::Takeback)
}

game_action! {
    tag = "online",
    /// Accept your opponent's takeback request: moves go back to their last
    /// turn, and it is their move again.
    accept_takeback, "/v1/games/{id}/takeback/accept",
    ok = "The game after the takeback",
    conflicts = "NO_OFFER, NOT_AN_ONLINE_GAME, GAME_OVER",
    accept(GameOffer::Takeback)
}

game_action! {
    tag = "online",
    /// Decline your opponent's takeback request (the third declined request is
    /// their last).
    decline_takeback, "/v1/games/{id}/takeback/decline",
    ok = "The game, the request gone",
    conflicts = "NO_OFFER, NOT_AN_ONLINE_GAME",
    decline(OfferKind::Takeback)
}

game_action! {
    tag = "online",
    /// Offer a draw. The offer shows in the state as `offer` until answered;
    /// moving on drops it. After three declined offers in a game you cannot
    /// offer again.
    offer_draw, "/v1/games/{id}/draw",
    ok = "The game, with the offer as `offer`",
    conflicts = "NOT_AN_ONLINE_GAME, OFFER_PENDING, DRAW_OFFER_LIMIT_REACHED, GAME_OVER, GAME_NOT_STARTED",
    offer(GameOffer::Draw)
}

game_action! {
    tag = "online",
    /// Accept your opponent's draw offer: the game ends drawn (`draw_agreed`),
    /// 0 points each.
    accept_draw, "/v1/games/{id}/draw/accept",
    ok = "The game, drawn",
    conflicts = "NO_OFFER, NOT_AN_ONLINE_GAME, GAME_OVER",
    accept(GameOffer::Draw)
}

game_action! {
    tag = "online",
    /// Decline your opponent's draw offer (the third declined offer is their
    /// last).
    decline_draw, "/v1/games/{id}/draw/decline",
    ok = "The game, the offer gone",
    conflicts = "NO_OFFER, NOT_AN_ONLINE_GAME",
    decline(OfferKind::Draw)
}

game_action! {
    tag = "online",
    /// Decline your opponent's rematch proposal (the third declined proposal is
    /// their last).
    decline_rematch, "/v1/games/{id}/rematch/decline",
    ok = "The finished game, the proposal gone",
    conflicts = "NO_OFFER, NOT_AN_ONLINE_GAME",
    decline(OfferKind::Rematch)
}

game_action! {
    tag = "online",
    /// Claim the win from an opponent who walked away: in an online game
    /// without a clock, once the side to move has been idle past the idle limit
    /// (`claimable_at` in the state). The leaver scores −3, you +1.
    claim_win, "/v1/games/{id}/claim",
    ok = "The game, won by abandonment",
    conflicts = "CLAIM_TOO_EARLY (with Retry-After), CLAIM_NOT_ALLOWED, NOT_AN_ONLINE_GAME, GAME_OVER, GAME_NOT_STARTED",
    claim_win()
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
