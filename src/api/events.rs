//! Following a game live: server-sent events, and long polling for clients
//! without EventSource (such as mini-programs).

use std::sync::Arc;
use std::time::Duration;

use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::stream;
use tokio::sync::broadcast::error::RecvError;

use super::auth::record_game;
use super::error::{ApiError, Problem, Result};
use super::types::GameView;
use crate::service::{Game, GameEvent, Service};

/// A comment line every so often keeps proxies from closing a quiet stream.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

fn render(game: &Game) -> String {
    serde_json::to_string(&GameView::from(game)).expect("a game view serializes")
}

fn frame(version: i64, json: &str) -> Bytes {
    Bytes::from(format!("id: {version}\nevent: state\ndata: {json}\n\n"))
}

fn event_frame(event: &Arc<GameEvent>) -> Bytes {
    frame(event.version(), event.rendered(render))
}

/// Follow a game: after every change, an event `state` whose data is the
/// whole game state and whose id is its version. Reconnect with
/// `Last-Event-ID` to get exactly the states missed since.
#[utoipa::path(
    tag = "games",
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
    // Subscribe before reading the game, so no change slips between the two.
    let subscription = service.events().subscribe(&id, last_seen);
    let game = service.game(&id).await?;
    let mut first: Vec<Bytes> = subscription.missed.iter().map(event_frame).collect();
    let mut sent = subscription
        .missed
        .last()
        .map(|e| e.version())
        .or(last_seen);
    if sent.is_none_or(|v| v < game.version) {
        first.push(frame(game.version, &render(&game)));
        sent = Some(game.version);
    }
    let state = (
        first,
        subscription.receiver,
        sent.unwrap_or(0),
        service.clone(),
        id.into_inner(),
    );
    let body = stream::unfold(
        state,
        |(mut queued, mut receiver, mut sent, service, id)| async move {
            if !queued.is_empty() {
                let next = queued.remove(0);
                return Some((
                    Ok::<_, actix_web::Error>(next),
                    (queued, receiver, sent, service, id),
                ));
            }
            loop {
                match tokio::time::timeout(KEEP_ALIVE, receiver.recv()).await {
                    Err(_) => {
                        return Some((
                            Ok(Bytes::from_static(b": keep-alive\n\n")),
                            (queued, receiver, sent, service, id),
                        ));
                    }
                    Ok(Ok(event)) if event.version() > sent => {
                        sent = event.version();
                        return Some((
                            Ok(event_frame(&event)),
                            (queued, receiver, sent, service, id),
                        ));
                    }
                    Ok(Ok(_)) => continue,
                    Ok(Err(RecvError::Lagged(_))) => {
                        // Too slow to keep every state: catch up with the latest.
                        let game = service.game(&id).await.ok()?;
                        if game.version > sent {
                            sent = game.version;
                            let bytes = frame(game.version, &render(&game));
                            return Some((Ok(bytes), (queued, receiver, sent, service, id)));
                        }
                    }
                    Ok(Err(RecvError::Closed)) => return None,
                }
            }
        },
    );
    Ok(HttpResponse::Ok()
        .insert_header((header::CONTENT_TYPE, "text/event-stream"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
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
