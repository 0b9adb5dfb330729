//! Following a game live: server-sent events, a WebSocket (for clients
//! such as mini-programs, which have no EventSource), and long polling.

use std::collections::VecDeque;
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

use super::auth::record_game;
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
            service: service.clone(),
            id: id.to_string(),
            _counted: None,
        })
    }

    /// The next state; `None` once the game can no longer be followed.
    /// Cancel-safe: a call dropped while waiting loses nothing.
    async fn next(&mut self) -> Option<Arc<GameEvent>> {
        if let Some(event) = self.queued.pop_front() {
            return Some(event);
        }
        loop {
            if self.behind {
                // Too slow to keep every state: catch up with the latest.
                let game = self.service.game(&self.id).await.ok()?;
                self.behind = false;
                if game.version > self.last {
                    self.last = game.version;
                    return Some(Arc::new(GameEvent::new(game)));
                }
            }
            match self.receiver.recv().await {
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
        (status = 200, description = "An event stream: `id: <version>`, `event: state`, `data: <game state JSON>`; a comment every 15 s", content_type = "text/event-stream", body = String),
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
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
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
    let (response, session, mut messages) = actix_ws::handle(&req, body).map_err(|e| {
        ApiError::new(
            StatusCode::BAD_REQUEST,
            "WEBSOCKET_EXPECTED",
            "WebSocket expected",
            format!("this endpoint speaks WebSocket: connect with a WebSocket client ({e})"),
        )
    })?;
    let mut sender = session.clone();
    let forward = actix_web::rt::spawn(async move {
        while let Some(event) = follower.next().await {
            let text = event.rendered(render).to_string();
            if sender.text(text).await.is_err() {
                return;
            }
        }
        // 1001 Going Away when the server stops: the client reconnects
        // with `?after=` its last version.
        let reason = follower
            .service
            .events()
            .is_closed()
            .then(|| actix_ws::CloseReason {
                code: actix_ws::CloseCode::Away,
                description: Some("the server is stopping; reconnect".into()),
            });
        let _ = sender.close(reason).await;
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
