//! Following a game live: server-sent events, a WebSocket (for clients
//! such as mini-programs, which have no EventSource), and long polling.

use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use std::time::Duration;

use actix_web::http::{StatusCode, header};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::stream;
use serde::Deserialize;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;
use utoipa::IntoParams;

use super::auth::{Caller, record_game};
use super::error::{ApiError, Problem, Result};
use super::limits::{Limits, StreamPermit};
use super::types::GameView;
use crate::metrics::FollowerGuard;
use crate::service::{Game, GameEvent, Service};

/// A comment (SSE) or ping (WebSocket) every so often keeps proxies from
/// closing a quiet connection.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

fn render(game: &Game) -> String {
    serde_json::to_string(&GameView::from(game)).expect("a game view serializes")
}

/// One follower's states, in order: those it missed since the version it
/// last saw, the current one, then each new one; never a version twice,
/// never an older one after a newer.
struct Follower {
    queued: VecDeque<Arc<GameEvent>>,
    receiver: broadcast::Receiver<Arc<GameEvent>>,
    /// The newest version handed out (or queued).
    last: i64,
    /// Fell behind the channel: catch up from the store.
    behind: bool,
    /// A state that came after a gap, held until the gap is filled.
    held: Option<Arc<GameEvent>>,
    service: Service,
    id: String,
    /// Counted as a live follower, and against its address's streams, while it lives.
    _counted: Option<(FollowerGuard, StreamPermit)>,
}

impl Follower {
    async fn open(service: &Service, id: &str, last_seen: Option<i64>) -> Result<Follower> {
        // Subscribe before reading the game, so no change slips between the two.
        let subscription = service.events().subscribe(id, last_seen);
        let game = service.game(id).await?;
        let mut queued: VecDeque<_> = subscription.missed.into();
        if let Some(seen) = last_seen {
            // What this instance kept does not reach back to the state after
            // the one seen (a restart, another instance, a long absence):
            // the store has every state of the last day.
            let first = queued.front().map_or(game.version + 1, |e| e.version());
            if first > seen + 1 {
                let through = first - 1;
                let older = service.states_between(id, seen, through).await?;
                for game in older.into_iter().rev() {
                    queued.push_front(Arc::new(GameEvent::new(game)));
                }
            }
        }
        let mut last = queued.back().map(|e| e.version()).or(last_seen);
        if last.is_none_or(|v| v < game.version) {
            last = Some(game.version);
            queued.push_back(Arc::new(GameEvent::new(game)));
        }
        Ok(Follower {
            queued,
            receiver: subscription.receiver,
            last: last.unwrap_or(0),
            behind: false,
            held: None,
            service: service.clone(),
            id: id.to_string(),
            _counted: None,
        })
    }

    /// The next state; `None` once the game can no longer be followed.
    /// Cancel-safe: a call dropped while waiting loses nothing.
    async fn next(&mut self) -> Option<Arc<GameEvent>> {
        loop {
            if let Some(event) = self.queued.pop_front() {
                return Some(event);
            }
            // (Each await below changes nothing until it is over, so a call
            // dropped there is taken up again by the next.)
            if self.behind {
                // Fell behind the channel: every state since, from the store.
                let game = self.service.game(&self.id).await.ok()?;
                self.catch_up(game.version).await;
                self.behind = false;
                if game.version > self.last {
                    self.last = game.version;
                    self.queued.push_back(Arc::new(GameEvent::new(game)));
                }
                continue;
            }
            if let Some(version) = self.held.as_ref().map(|e| e.version()) {
                // States published out of order, or made by another
                // instance and heard late: the ones between, first.
                self.catch_up(version - 1).await;
                if let Some(event) = self.held.take()
                    && version > self.last
                {
                    self.last = version;
                    self.queued.push_back(event);
                }
                continue;
            }
            match self.receiver.recv().await {
                Ok(event) if event.version() > self.last + 1 => self.held = Some(event),
                Ok(event) if event.version() > self.last => {
                    self.last = event.version();
                    return Some(event);
                }
                Ok(_) => continue,
                Err(RecvError::Lagged(_)) => self.behind = true,
                Err(RecvError::Closed) => return None,
            }
        }
    }

    /// Queues the states after the last one handed out, through `through`,
    /// from the store.
    async fn catch_up(&mut self, through: i64) {
        if through <= self.last {
            return;
        }
        match self
            .service
            .states_between(&self.id, self.last, through)
            .await
        {
            Ok(states) => {
                for game in states {
                    self.last = game.version;
                    self.queued.push_back(Arc::new(GameEvent::new(game)));
                }
            }
            Err(e) => {
                tracing::warn!(game_id = %self.id, error = %e, "could not read the states a follower missed");
            }
        }
    }
}

/// One event of the event streams, as an `EventSource` hands it over: the
/// document's description of each event (its `schema`, as OpenAPI 3.1 has
/// it for `text/event-stream`); the streams themselves are written by hand.
#[derive(utoipa::ToSchema)]
#[schema(example = json!({"event": "game", "id": "g_5kq2m8x1c4v7b3n6.4",
    "data": "{\"id\":\"g_5kq2m8x1c4v7b3n6\",\"version\":4,\"status\":\"in_progress\",\"to_move\":\"white\"}"}))]
#[allow(dead_code)]
pub struct ServerSentEvent {
    /// `state` on a game's stream; `game` or `resync` on a player's.
    pub event: String,
    /// JSON: a game state (`GameView`), or what to read after a `resync`.
    pub data: String,
    /// A game's version, or `<game id>.<version>` on a player's stream: send
    /// it back as `Last-Event-ID` to resume.
    pub id: Option<String>,
    /// Milliseconds to wait before reconnecting (when the server stops).
    pub retry: Option<u64>,
}

/// A response streaming server-sent events (not buffered by proxies).
fn event_stream<S>(body: S) -> HttpResponse
where
    S: futures_util::Stream<Item = std::result::Result<Bytes, actix_web::Error>> + 'static,
{
    HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body)
}

/// The last frame of an event stream when the server stops.
const RECONNECT: &[u8] = b": the server is stopping; reconnect\nretry: 1000\n\n";

fn sse_frame(event: &GameEvent) -> Bytes {
    Bytes::from(format!(
        "id: {}\nevent: state\ndata: {}\n\n",
        event.version(),
        event.rendered(render)
    ))
}

/// Follow a game: after every change, an event `state` whose data is the
/// whole game state and whose id is its version. Reconnect with
/// `Last-Event-ID` to get exactly the states missed since.
#[utoipa::path(
    tag = "live",
    params(
        ("id" = String, Path, description = "Game id"),
        ("Last-Event-ID" = Option<String>, Header, description = "The last version seen, to resume after it"),
    ),
    responses(
        (status = 200, description = "An event stream: `id: <version>`, `event: state`, `data: <game state JSON>`; a comment every 15 s", content_type = "text/event-stream", body = ServerSentEvent),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/events")]
pub async fn events(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let last_seen = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok());
    let permit = open_stream(&req)?;
    let mut follower = Follower::open(&service, &id, last_seen).await?;
    follower._counted = Some((service.metrics().follower("sse"), permit));
    let body = stream::unfold(Some(follower), |follower| async move {
        let mut follower = follower?;
        let bytes = match tokio::time::timeout(KEEP_ALIVE, follower.next()).await {
            Err(_) => Bytes::from_static(b": keep-alive\n\n"),
            Ok(Some(event)) => sse_frame(&event),
            // The server is stopping: reconnect in a second (to another
            // instance, or to this one restarted), with Last-Event-ID.
            Ok(None) if follower.service.events().is_closed() => {
                return Some((Ok(Bytes::from_static(RECONNECT)), None));
            }
            Ok(None) => return None,
        };
        Some((Ok::<_, actix_web::Error>(bytes), Some(follower)))
    });
    Ok(event_stream(body))
}

/// What a player's stream hands out next.
enum PlayerNews {
    /// A state of one of their games.
    Game(Arc<GameEvent>),
    /// The state to resume after is no longer kept (or over 1,000 states
    /// came since): what was missed cannot be told; read your games.
    Resync,
}

/// One player's stream of their games' states: those missed since the
/// state last seen (from the store), then each new one; never an older
/// state of a game after a newer one.
struct PlayerFollower {
    queued: VecDeque<PlayerNews>,
    receiver: broadcast::Receiver<Arc<GameEvent>>,
    /// The newest version handed out of each game.
    sent: HashMap<String, i64>,
    service: Service,
    _counted: (FollowerGuard, StreamPermit),
}

impl PlayerFollower {
    async fn open(
        service: &Service,
        player: &str,
        last_seen: Option<(String, i64)>,
        counted: (FollowerGuard, StreamPermit),
    ) -> Result<PlayerFollower> {
        // Subscribed before reading the store, so no change slips between.
        let receiver = service.events().subscribe_player(player);
        let mut queued = VecDeque::new();
        let mut sent = HashMap::new();
        if let Some((game, version)) = last_seen {
            match service
                .player_states_since(player, (&game, version))
                .await?
            {
                Some(missed) => {
                    sent.insert(game, version);
                    queued.extend(
                        missed
                            .into_iter()
                            .map(|g| PlayerNews::Game(Arc::new(GameEvent::new(g)))),
                    );
                }
                None => queued.push_back(PlayerNews::Resync),
            }
        }
        Ok(PlayerFollower {
            queued,
            receiver,
            sent,
            service: service.clone(),
            _counted: counted,
        })
    }

    /// The next news; `None` once the stream ends (the server stopping).
    async fn next(&mut self) -> Option<PlayerNews> {
        loop {
            let news = match self.queued.pop_front() {
                Some(news) => news,
                None => match self.receiver.recv().await {
                    Ok(event) => PlayerNews::Game(event),
                    // Too slow to keep up: some states were skipped; the
                    // next of each game is its newest.
                    Err(RecvError::Lagged(_)) => continue,
                    Err(RecvError::Closed) => return None,
                },
            };
            if let PlayerNews::Game(event) = &news {
                let seen = self.sent.entry(event.game.id.clone()).or_insert(0);
                if event.version() <= *seen {
                    continue;
                }
                *seen = event.version();
            }
            return Some(news);
        }
    }
}

/// The last state a player's stream client saw, `<game id>.<version>`:
/// exactly what the document's pattern says,
/// `^[0-9A-Za-z_-]{1,64}\.-?[0-9]{1,18}$`.
fn player_event_id(text: &str) -> Result<(String, i64)> {
    let id_char = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    text.rsplit_once('.')
        .filter(|(game, _)| (1..=64).contains(&game.len()) && game.chars().all(id_char))
        .filter(|(_, version)| {
            let digits = version.strip_prefix('-').unwrap_or(version);
            (1..=18).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit())
        })
        .and_then(|(game, version)| Some((game.to_string(), version.parse().ok()?)))
        .ok_or_else(|| {
            ApiError::validation(format!(
                "{text:?} is not an event id of this stream: send back the last `<game id>.<version>` received"
            ))
        })
}

/// What a player's stream says when the state to resume after is no
/// longer kept.
fn resync_data(player: &str) -> String {
    serde_json::json!({
        "resync": true,
        "detail": "the states since the one you saw are no longer kept, or too many to replay: read your games",
        "games": format!("/v1/games?player={player}"),
    })
    .to_string()
}

/// Follow all your games at once: after every change to a game you sit in
/// (a pairing that found you an opponent, an invitation, an offer, a move
/// that makes it your turn, an end), an event `game` whose data is that
/// game's whole state and whose id is `<game id>.<version>`. The one stream
/// a mobile app keeps open. Reconnect with `Last-Event-ID` to get every
/// state missed since (kept a day, up to 1,000); beyond that, an event
/// `resync` says to read `GET /v1/games?player=<you>`.
#[utoipa::path(
    tag = "live",
    security(("bearer" = [])),
    params(
        ("Last-Event-ID" = Option<String>, Header, nullable = false, pattern = "^[0-9A-Za-z_-]{1,64}\\.-?[0-9]{1,18}$", description = "The last event id seen (`<game id>.<version>`), to resume after it"),
    ),
    responses(
        (status = 200, description = "An event stream: `id: <game id>.<version>`, `event: game`, `data: <game state JSON>`; `event: resync` when the states missed are no longer kept or over 1,000; a comment every 15 s", content_type = "text/event-stream", body = ServerSentEvent),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: a Last-Event-ID that is not `<game id>.<version>`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me/events")]
pub async fn player_events(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
) -> Result<HttpResponse> {
    let last_seen = req
        .headers()
        .get("last-event-id")
        .map(|v| player_event_id(v.to_str().unwrap_or("")))
        .transpose()?;
    let counted = (service.metrics().follower("sse"), open_stream(&req)?);
    let player = caller.0.id;
    let follower = PlayerFollower::open(&service, &player, last_seen, counted).await?;
    let body = stream::unfold(Some(follower), move |follower| {
        let player = player.clone();
        async move {
            let mut follower = follower?;
            let bytes = match tokio::time::timeout(KEEP_ALIVE, follower.next()).await {
                Err(_) => Bytes::from_static(b": keep-alive\n\n"),
                Ok(Some(PlayerNews::Game(event))) => Bytes::from(format!(
                    "id: {}.{}\nevent: game\ndata: {}\n\n",
                    event.game.id,
                    event.version(),
                    event.rendered(render)
                )),
                Ok(Some(PlayerNews::Resync)) => {
                    Bytes::from(format!("event: resync\ndata: {}\n\n", resync_data(&player)))
                }
                Ok(None) if follower.service.events().is_closed() => {
                    return Some((Ok(Bytes::from_static(RECONNECT)), None));
                }
                Ok(None) => return None,
            };
            Some((Ok::<_, actix_web::Error>(bytes), Some(follower)))
        }
    });
    Ok(event_stream(body))
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PlayerSocketQuery {
    /// The last state seen, `<game id>.<version>`, to resume after it (as
    /// `Last-Event-ID` does for the event stream).
    #[param(nullable = false, pattern = "^[0-9A-Za-z_-]{1,64}\\.-?[0-9]{1,18}$")]
    pub after: Option<String>,
}

/// Follow all your games over a WebSocket: one text message per state of
/// any game you sit in, the whole game state as JSON (its `id` and
/// `version` say which), the same states `GET /v1/players/me/events`
/// carries. Connect with `?after=<game id>.<version>` (the last state
/// received) to get every state missed since (kept a day); when that is too
/// old, a message `{"resync": true, …}` says to read your games. Send the
/// token in the `Authorization` header of the handshake (mini-programs'
/// `connectSocket` and native clients can). The server pings every 15 s;
/// messages from the client are ignored.
#[utoipa::path(
    tag = "live",
    security(("bearer" = [])),
    params(PlayerSocketQuery),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol; then one text message per state"),
        (status = 400, description = "WEBSOCKET_EXPECTED: not a WebSocket handshake", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "UNAUTHORIZED: no token, or one that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: an `after` that is not `<game id>.<version>`", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/players/me/ws")]
pub async fn player_websocket(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    query: web::Query<PlayerSocketQuery>,
    body: web::Payload,
) -> Result<HttpResponse> {
    let last_seen = query.after.as_deref().map(player_event_id).transpose()?;
    let counted = (service.metrics().follower("websocket"), open_stream(&req)?);
    let player = caller.0.id;
    let mut follower = PlayerFollower::open(&service, &player, last_seen, counted).await?;
    socket(&req, body, async move |mut sender: actix_ws::Session| {
        while let Some(news) = follower.next().await {
            let text = match news {
                PlayerNews::Game(event) => event.rendered(render).to_string(),
                PlayerNews::Resync => resync_data(&player),
            };
            if sender.text(text).await.is_err() {
                return false;
            }
        }
        follower.service.events().is_closed()
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct SocketQuery {
    /// The last version seen, to resume after it (as `Last-Event-ID` does
    /// for the event stream).
    pub after: Option<i64>,
}

/// Follow a game over a WebSocket: one text message per state, the whole
/// game state as JSON (its `version` says which), the same states the
/// event stream carries. Connect with `?after=<version>` to get exactly the
/// states missed since. The server pings every 15 s; messages from the
/// client are ignored (actions go through the HTTP endpoints).
#[utoipa::path(
    tag = "live",
    params(("id" = String, Path, description = "Game id"), SocketQuery),
    responses(
        (status = 101, description = "Switching to the WebSocket protocol; then one text message per state"),
        (status = 400, description = "WEBSOCKET_EXPECTED: not a WebSocket handshake", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/ws")]
pub async fn websocket(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<SocketQuery>,
    body: web::Payload,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let permit = open_stream(&req)?;
    let mut follower = Follower::open(&service, &id, query.after).await?;
    follower._counted = Some((service.metrics().follower("websocket"), permit));
    socket(&req, body, async move |mut sender: actix_ws::Session| {
        while let Some(event) = follower.next().await {
            let text = event.rendered(render).to_string();
            if sender.text(text).await.is_err() {
                return false;
            }
        }
        follower.service.events().is_closed()
    })
}

/// Answers a WebSocket handshake and runs `forward` with the session: it
/// sends what it has to and returns whether the server is stopping, in
/// which case the socket closes with 1001 Going Away (the client
/// reconnects, to another instance or to this one restarted). The server
/// pings every 15 s and answers pings; other client messages are ignored.
fn socket<F, Fut>(req: &HttpRequest, body: web::Payload, forward: F) -> Result<HttpResponse>
where
    F: FnOnce(actix_ws::Session) -> Fut + 'static,
    Fut: std::future::Future<Output = bool> + 'static,
{
    let (response, session, mut messages) = actix_ws::handle(req, body).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "WEBSOCKET_EXPECTED",
            "WebSocket expected",
            format!("this endpoint speaks WebSocket: connect with a WebSocket client ({e})"),
        )
    })?;
    let closer = session.clone();
    let forward = actix_web::rt::spawn(async move {
        let stopping = forward(closer.clone()).await;
        let reason = stopping.then(|| actix_ws::CloseReason {
            code: actix_ws::CloseCode::Away,
            description: Some("the server is stopping; reconnect".into()),
        });
        let _ = closer.close(reason).await;
    });
    let mut session = session;
    actix_web::rt::spawn(async move {
        let mut keep_alive =
            tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        loop {
            tokio::select! {
                message = messages.recv() => match message {
                    Some(Ok(actix_ws::Message::Ping(bytes))) => {
                        if session.pong(&bytes).await.is_err() {
                            break;
                        }
                    }
                    Some(Ok(actix_ws::Message::Close(_)) | Err(_)) | None => break,
                    Some(Ok(_)) => {}
                },
                _ = keep_alive.tick() => {
                    if session.ping(b"").await.is_err() {
                        break;
                    }
                }
            }
        }
        forward.abort();
        let _ = session.close(None).await;
    });
    Ok(response)
}

/// The longest a long poll waits.
pub const MAX_WAIT: Duration = Duration::from_secs(30);

/// How long a long poll asked to wait, checked.
pub fn wait_time(timeout_s: Option<u64>) -> Result<Duration> {
    match timeout_s {
        None => Ok(MAX_WAIT),
        Some(s @ 1..=30) => Ok(Duration::from_secs(s)),
        Some(s) => Err(ApiError::validation(format!(
            "timeout must be from 1 to 30 seconds, not {s}"
        ))),
    }
}

/// A place for one more stream from the request's address.
fn open_stream(req: &HttpRequest) -> Result<StreamPermit> {
    match req.app_data::<Limits>() {
        Some(limits) => limits.open_stream(req),
        None => Ok(StreamPermit::unlimited()),
    }
}
