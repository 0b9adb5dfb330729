//! Game endpoints: create, list, read, join, play, the move record, undo,
//! redo, resign, and the computer's moves and hints.

use std::time::Duration;

use actix_web::http::header::{self, ETag, EntityTag};
use actix_web::{HttpRequest, HttpResponse, get, post, web};

use super::auth::{Caller, IfMatch, MaybeCaller, record_game};
use super::body;
use super::error::{ApiError, Problem, Result};
use super::players::page_limit;
use super::types::{
    AiMoveRequest, CandidateView, ClockRequest, ComputerInfo, CreateGame, GameCreated, GameList,
    GameListQuery, GameQuery, GameSummary, GameView, Hint, HintQuery, MAX_TIME_MS, MoveList,
    MoveRequest, MoveView, MovesPlayed, SeatRequest, You,
};
use crate::engine::Level;
use crate::rules::{ForbiddenPolicy, OpeningRule, RuleSet, Variant, VariantSpec};
use crate::service::{
    Game, GameSpec, NewlyCreated, PlayOutcome, PointInput, SeatSpec, Service, Status,
};

pub(super) fn etag(version: i64) -> ETag {
    ETag(EntityTag::new_strong(version.to_string()))
}

pub(super) fn with_etag(
    mut response: actix_web::HttpResponseBuilder,
    version: i64,
    body: impl serde::Serialize,
) -> HttpResponse {
    response.insert_header(etag(version)).json(body)
}

pub(super) fn moves_played(outcome: &PlayOutcome) -> MovesPlayed {
    let height = outcome.game.variant.height();
    MovesPlayed {
        moves: outcome
            .moves
            .iter()
            .map(|(record, thought)| MoveView::new(record, height, thought.as_ref()))
            .collect(),
        game: GameView::from(&outcome.game),
    }
}

fn side(n: Option<u32>, what: &str) -> Result<Option<u8>> {
    n.map(|n| {
        u8::try_from(n).map_err(|_| ApiError::validation(format!("{what} {n} is far too large")))
    })
    .transpose()
}

/// The rule set a request names, if it names one.
pub(super) fn rules_named(rules: Option<&str>) -> Result<Option<RuleSet>> {
    rules
        .map(str::parse)
        .transpose()
        .map_err(|e: crate::rules::VariantError| ApiError::validation(e.to_string()))
}

/// The rules' options a create request gives.
pub(super) fn variant_spec(body: &CreateGame) -> Result<VariantSpec> {
    let forbidden = match body.forbidden.as_deref() {
        None => None,
        Some("reject") => Some(ForbiddenPolicy::Reject),
        Some("lose") => Some(ForbiddenPolicy::Lose),
        Some(other) => {
            return Err(ApiError::validation(format!(
                "forbidden must be \"reject\" or \"lose\", not {other:?}"
            )));
        }
    };
    Ok(VariantSpec {
        board_size: side(body.board_size, "board_size")?,
        width: side(body.width, "width")?,
        height: side(body.height, "height")?,
        k: side(body.k, "k")?,
        overline_wins: body.overline_wins,
        forbidden,
    })
}

/// Who a request seats: `default` when it names nobody.
pub(super) fn seat_spec(request: Option<SeatRequest>, default: SeatSpec) -> Result<SeatSpec> {
    match request {
        None => Ok(default),
        Some(SeatRequest::Named(name)) => match name.as_str() {
            "me" => Ok(SeatSpec::Me),
            "open" => Ok(SeatSpec::Open),
            other => Err(ApiError::validation(format!(
                "a seat is \"me\", \"open\", {{\"player_id\": \"…\"}} or {{\"ai\": \"<level>\"}}, not {other:?}"
            ))),
        },
        Some(SeatRequest::Player { player_id }) => Ok(SeatSpec::Player(player_id)),
        Some(SeatRequest::Computer { ai }) => Ok(SeatSpec::Computer(parse_level(&ai)?)),
    }
}

/// The rules a create request asks for (freestyle 15×15 unless it says).
pub(super) fn variant_of(body: &CreateGame) -> Result<Variant> {
    let rules = rules_named(body.rules.as_deref())?.unwrap_or(RuleSet::Freestyle);
    let spec = variant_spec(body)?;
    Variant::from_spec(rules, &spec).map_err(|e| ApiError::validation(e.to_string()))
}

/// The rules, clock (main time and floor) and opening rule a create
/// request asks for.
pub(super) struct GameSettings {
    pub variant: Variant,
    pub clock: Option<(i64, i64)>,
    pub opening: OpeningRule,
}

pub(super) fn game_spec_parts(body: &CreateGame) -> Result<GameSettings> {
    let variant = variant_of(body)?;
    let clock = body.clock.as_ref().map(clock_spec).transpose()?;
    let opening = body
        .opening
        .as_deref()
        .map(str::parse::<OpeningRule>)
        .transpose()
        .map_err(|e| ApiError::validation(e.to_string()))?
        .unwrap_or_default();
    Ok(GameSettings {
        variant,
        clock,
        opening,
    })
}

/// The rules and seats a create request asks for.
fn game_spec(body: CreateGame) -> Result<GameSpec> {
    let GameSettings {
        variant,
        clock,
        opening,
    } = game_spec_parts(&body)?;
    Ok(GameSpec {
        opening,
        variant,
        black: seat_spec(body.black, SeatSpec::Me)?,
        white: seat_spec(body.white, SeatSpec::Computer(Level::Intermediate))?,
        clock,
        rated: body.rated.unwrap_or(false),
    })
}

/// A clock's main time: 1 s to 24 h.
pub(super) const CLOCK_MAIN_MS: std::ops::RangeInclusive<u64> = 1_000..=86_400_000;

/// Main time and floor of a requested clock, checked.
fn clock_spec(clock: &ClockRequest) -> Result<(i64, i64)> {
    let main = clock.main_ms;
    if !CLOCK_MAIN_MS.contains(&main) {
        return Err(ApiError::validation(format!(
            "clock.main_ms must be from 1000 (1 s) to 86400000 (24 h), not {main}"
        )));
    }
    let floor = clock.floor_ms.unwrap_or(60_000.min(main));
    if floor > main {
        return Err(ApiError::validation(format!(
            "clock.floor_ms ({floor}) must not be more than clock.main_ms ({main})"
        )));
    }
    Ok((main as i64, floor as i64))
}

pub(super) fn parse_level(name: &str) -> Result<Level> {
    name.parse()
        .map_err(|e: crate::engine::UnknownLevel| ApiError::validation(e.to_string()))
}

/// How many candidates a hint or an analysis lists: 1–10 (default 5).
pub(super) fn candidate_count(count: Option<usize>) -> Result<usize> {
    match count {
        None => Ok(5),
        Some(n @ 1..=10) => Ok(n),
        Some(n) => Err(ApiError::validation(format!(
            "count must be from 1 to 10, not {n}"
        ))),
    }
}

pub(super) fn time_budget(ms: Option<u64>) -> Result<Option<Duration>> {
    match ms {
        Some(0) => Err(ApiError::validation("time_ms must be at least 1")),
        Some(ms) if ms > MAX_TIME_MS => Err(ApiError::validation(format!(
            "time_ms must be at most {MAX_TIME_MS} (an hour); the server caps thinking time lower still"
        ))),
        other => Ok(other.map(Duration::from_millis)),
    }
}

/// Create a game. Without a token a guest player is made for you, and its
/// token comes back in `you.token`.
#[utoipa::path(
    tag = "games",
    request_body(content = Option<CreateGame>, description = "Optional: every field has a default; no body (or `null`) is a game against the computer"),
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The new game (and the computer's first move if it plays black)", body = GameCreated),
        (status = 400, description = "Malformed JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "A token that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Rules or seats that cannot be played", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games")]
pub async fn create_game(
    service: web::Data<Service>,
    caller: MaybeCaller,
    body: web::Bytes,
) -> Result<HttpResponse> {
    let body: CreateGame = body::optional(&body)?.unwrap_or_default();
    let spec = game_spec(body)?;
    let (outcome, guest) = service.create_game(caller.0, spec).await?;
    Ok(created(&outcome, guest))
}

/// 201 with a new game, the moves played on creation, and who you are.
pub(super) fn created(outcome: &PlayOutcome, guest: Option<NewlyCreated>) -> HttpResponse {
    let played = moves_played(outcome);
    let player_id = guest
        .as_ref()
        .map(|g| g.player.id.clone())
        .unwrap_or_else(|| outcome.game.created_by.clone());
    let body = GameCreated {
        game: played.game,
        moves: played.moves,
        you: You {
            player_id,
            token: guest.map(|g| g.token.expose().to_string()),
        },
    };
    let mut response = HttpResponse::Created();
    response.insert_header((header::LOCATION, format!("/v1/games/{}", outcome.game.id)));
    with_etag(response, outcome.game.version, body)
}

/// List games, newest first, by player and status.
#[utoipa::path(
    tag = "games",
    params(GameListQuery),
    responses(
        (status = 200, description = "One page of games", body = GameList),
        (status = 422, description = "Bad filter, limit or cursor", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games")]
pub async fn list_games(
    service: web::Data<Service>,
    query: web::Query<GameListQuery>,
) -> Result<web::Json<GameList>> {
    let limit = page_limit(query.limit)?;
    let status = query
        .status
        .as_deref()
        .map(|s| {
            Status::parse(s).ok_or_else(|| {
                ApiError::validation(format!(
                    "status must be waiting, in_progress or finished, not {s:?}"
                ))
            })
        })
        .transpose()?;
    let list = service
        .list_games(
            query.player.as_deref(),
            status,
            limit,
            query.cursor.as_deref(),
        )
        .await?;
    Ok(web::Json(GameList {
        games: list.games.iter().map(GameSummary::from).collect(),
        next_cursor: list.next_cursor,
    }))
}

/// The whole state of a game. With `Accept: text/plain`, the board as text
/// with coordinates, for terminals. With `wait_for_version=N`, a long poll:
/// the answer comes as soon as the game's version passes N, or after
/// `timeout` seconds (at most 30) with the state unchanged.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id"), GameQuery),
    responses(
        (status = 200, description = "The game", body = GameView, headers(("ETag" = String, description = "The game's version"))),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}")]
pub async fn get_game(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<GameQuery>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let wait = super::events::wait_time(query.timeout)?;
    let game = match query.wait_for_version {
        Some(version) => service.wait_for_change(&id, version, wait).await?,
        None => service.game(&id).await?,
    };
    if wants_text(&req) {
        return Ok(HttpResponse::Ok()
            .insert_header(etag(game.version))
            .content_type("text/plain; charset=utf-8")
            .body(text_board(&game)));
    }
    Ok(with_etag(
        HttpResponse::Ok(),
        game.version,
        GameView::from(&game),
    ))
}

/// Whether the client prefers plain text to JSON.
fn wants_text(req: &HttpRequest) -> bool {
    let accept = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let position = |needle: &str| accept.find(needle);
    match (position("text/plain"), position("application/json")) {
        (Some(_), None) => true,
        (Some(text), Some(json)) => text < json,
        _ => false,
    }
}

fn text_board(game: &Game) -> String {
    let view = GameView::from(game);
    let mut out = format!(
        "{} {}×{} · {} · move {}",
        view.rules, view.width, view.height, view.mode, view.ply
    );
    match (&view.result, view.to_move) {
        (Some(result), _) => {
            let winner = result
                .winner
                .map_or("draw".to_string(), |w| format!("{w} wins"));
            out.push_str(&format!(" · {winner} ({})", result.reason));
        }
        (None, Some(to_move)) => out.push_str(&format!(" · {to_move} to move")),
        (None, None) => match view.invited {
            Some(seat) => out.push_str(&format!(" · waiting for {seat} to accept")),
            None => out.push_str(" · waiting for a player"),
        },
    }
    out.push_str(&format!(" · version {}\n", view.version));
    out.push_str(&format!(
        "black: {} · white: {}\n",
        view.seats.black.label(),
        view.seats.white.label()
    ));
    if let Some(clock) = &view.clock {
        let time = |ms: i64| format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60);
        out.push_str(&format!(
            "clock: black {} · white {}\n",
            time(clock.black_ms),
            time(clock.white_ms)
        ));
    }
    if let Some(offer) = &view.offer {
        out.push_str(&format!("{} asks for a {}\n", offer.by, offer.kind));
    }
    let opening = &view.opening;
    if opening.rule != "free" || opening.name.is_some() {
        let mut line = format!("opening: {}", opening.rule);
        if let Some(name) = &opening.name {
            line.push_str(&format!(" · {} {} ({})", name.name, name.kanji, name.id));
        }
        if let (Some(to_act), phase) = (opening.to_act, opening.phase)
            && !matches!(phase, "done" | "move")
        {
            line.push_str(&format!(" · {to_act} to {}", phase.replace('_', " or ")));
        }
        if opening.phase == "choose" {
            let offered: Vec<&str> = opening.offered.iter().map(|p| p.name.as_str()).collect();
            line.push_str(&format!(" · offered {}", offered.join(", ")));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str(&game.position.board().diagram(game.position.last_move()));
    if !view.forbidden.is_empty() {
        let names: Vec<String> = view
            .forbidden
            .iter()
            .map(|f| format!("{} ({})", f.name, f.kind))
            .collect();
        out.push_str(&format!("forbidden for black: {}\n", names.join(", ")));
    }
    out
}

/// Take the open seat of a waiting game.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The game, now in progress", body = MovesPlayed),
        (status = 401, description = "No valid token", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "SEAT_UNAVAILABLE", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/join")]
pub async fn join(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let outcome = service.join(&caller.0, &id, if_match.0).await?;
    Ok(with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        moves_played(&outcome),
    ))
}

/// Play a move: `{"at": "h8"}` or `{"x": 7, "y": 7}`. Against the computer
/// its reply is played in the same request and both come back.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect, e.g. \"3\"")),
    request_body = MoveRequest,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The moves played and the game after them", body = MovesPlayed),
        (status = 400, description = "MALFORMED_JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "OCCUPIED, NOT_YOUR_TURN, GAME_OVER, FORBIDDEN_MOVE or GAME_NOT_STARTED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "OUT_OF_BOARD or VALIDATION", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "ENGINE_BUSY (the reply waits for a free search too long)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/moves")]
pub async fn play(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
    body: body::Json<MoveRequest>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let point = match body.into_inner() {
        MoveRequest {
            at: Some(at),
            x: None,
            y: None,
        } => PointInput::Name(at),
        MoveRequest {
            at: None,
            x: Some(x),
            y: Some(y),
        } => PointInput::Xy(x, y),
        _ => {
            return Err(ApiError::validation(
                "give the point either as {\"at\": \"h8\"} or as {\"x\": 7, \"y\": 7}",
            ));
        }
    };
    let outcome = service.play(&caller.0, &id, &point, if_match.0).await?;
    Ok(with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        moves_played(&outcome),
    ))
}

/// The move record: ply, colour, point, time played and thinking time.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id")),
    responses(
        (status = 200, description = "The moves on the board, in order", body = MoveList),
        (status = 404, description = "No such game", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/moves")]
pub async fn list_moves(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let (game, records) = service.moves(&id).await?;
    let height = game.variant.height();
    let body = MoveList {
        game_id: game.id.clone(),
        version: game.version,
        moves: records
            .iter()
            .map(|r| MoveView::new(r, height, None))
            .collect(),
    };
    Ok(with_etag(HttpResponse::Ok(), game.version, body))
}

game_action! {
    tag = "games",
    /// Take back a move: one in a local game; the computer's reply and your move
    /// before it against the computer. Also reopens a finished local or computer
    /// game and takes its result out of the scores. In an online game this asks
    /// your opponent for a takeback (as `POST …/takeback`): the game comes back
    /// with the request as `offer`.
    undo, "/v1/games/{id}/undo",
    ok = "The game after the undo",
    conflicts = "NOTHING_TO_UNDO; online: OFFER_PENDING, TAKEBACK_LIMIT_REACHED",
    undo()
}

game_action! {
    tag = "games",
    /// Play again what the last undo took back.
    redo, "/v1/games/{id}/redo",
    ok = "The game after the redo",
    conflicts = "NOTHING_TO_REDO or GAME_OVER",
    redo()
}

game_action! {
    tag = "games",
    /// Resign: the opponent wins. In a local game the side to move resigns.
    resign, "/v1/games/{id}/resign",
    ok = "The finished game",
    conflicts = "GAME_OVER or GAME_NOT_STARTED",
    resign()
}

/// The computer plays for the side to move: its own seat, or either side of
/// a local game. The body is optional.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
    request_body(content = Option<AiMoveRequest>, description = "Optional: level (local games) and thinking time"),
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The computer's move and the game after it", body = MovesPlayed),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "NOT_YOUR_TURN (a person is to move), GAME_OVER", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "ENGINE_BUSY, with Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/ai-move")]
pub async fn ai_move(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
    body: web::Bytes,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let body: AiMoveRequest = body::optional(&body)?.unwrap_or_default();
    let level = body.level.as_deref().map(parse_level).transpose()?;
    let budget = time_budget(body.time_ms)?;
    let outcome = service
        .ai_move(&caller.0, &id, level, budget, if_match.0)
        .await?;
    Ok(with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        moves_played(&outcome),
    ))
}

/// The computer's best candidate moves for the side to move, with scores;
/// nothing is played. Off in online games while they are being played.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id"), HintQuery),
    responses(
        (status = 200, description = "The best candidates, best first", body = Hint),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "GAME_OVER, GAME_NOT_STARTED or HINT_NOT_ALLOWED", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "ENGINE_BUSY, with Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/hint")]
pub async fn hint(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<HintQuery>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let level = query.level.as_deref().map(parse_level).transpose()?;
    let count = candidate_count(query.count)?;
    let budget = time_budget(query.time_ms)?;
    let (game, thought) = service.hint(&id, level, budget, count).await?;
    let height = game.variant.height();
    let body = Hint {
        game_id: game.id.clone(),
        version: game.version,
        to_move: game.position.to_move().as_str(),
        candidates: CandidateView::best(&thought.decision, count, height),
        forced_win_in: thought.decision.forced_win_in,
        computer: ComputerInfo::new(&thought, height),
    };
    Ok(with_etag(HttpResponse::Ok(), game.version, body))
}
