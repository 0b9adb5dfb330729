//! Following games live: the event stream, resuming it, and long polling.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

/// Reads server-sent events off a streaming response.
pub struct EventReader {
    response: reqwest::Response,
    /// Bytes, not text: a chunk may end inside a character (the opening's
    /// kanji), which only the next chunk completes.
    buffer: Vec<u8>,
}

impl EventReader {
    pub async fn open(app: &TestApp, game: &str, last_event_id: Option<i64>) -> EventReader {
        let mut request = app.client.get(app.url(&format!("/v1/games/{game}/events")));
        if let Some(id) = last_event_id {
            request = request.header("last-event-id", id.to_string());
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        EventReader {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next `state` event: (version, state).
    pub async fn next(&mut self) -> (i64, Value) {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let bytes: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let frame = String::from_utf8(bytes).expect("a whole frame is UTF-8");
                if frame.starts_with(':') {
                    continue;
                }
                let field = |name: &str| {
                    frame
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(|v| v.trim().to_string())
                        .unwrap_or_else(|| panic!("no {name} in {frame:?}"))
                };
                let id: i64 = field("id:").parse().unwrap();
                let data: Value = serde_json::from_str(&field("data:")).unwrap();
                assert_eq!(field("event:"), "state");
                return (id, data);
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.response.chunk())
                .await
                .expect("an event within 10 s")
                .unwrap()
                .expect("the stream stays open");
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

/// The smallest WebSocket client that follows a game: the handshake, then
/// the server's (unmasked, unfragmented) text frames.
pub(crate) struct Socket {
    stream: tokio::net::TcpStream,
    buffer: Vec<u8>,
}

impl Socket {
    async fn open(app: &TestApp, path: &str) -> Socket {
        Socket::open_as(app, path, None).await
    }

    /// With `token` in the handshake's `Authorization` header.
    pub(crate) async fn open_as(app: &TestApp, path: &str, token: Option<&str>) -> Socket {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let authorization = token
            .map(|t| format!("Authorization: Bearer {t}\r\n"))
            .unwrap_or_default();
        let host = app.address.trim_start_matches("http://");
        let mut stream = tokio::net::TcpStream::connect(host).await.unwrap();
        // The key and its accept value are the example of RFC 6455, 1.3.
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{authorization}\r\n"
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        let mut buffer = Vec::new();
        let end = loop {
            if let Some(end) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break end + 4;
            }
            let mut chunk = [0u8; 1024];
            let n = stream.read(&mut chunk).await.unwrap();
            assert!(n > 0, "closed during the handshake");
            buffer.extend_from_slice(&chunk[..n]);
        };
        let head = String::from_utf8_lossy(&buffer[..end]).to_lowercase();
        assert!(head.starts_with("http/1.1 101"), "{head}");
        assert!(
            head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="),
            "{head}"
        );
        buffer.drain(..end);
        Socket { stream, buffer }
    }

    /// The next text message, as JSON.
    pub(crate) async fn next(&mut self) -> Value {
        use tokio::io::AsyncReadExt;
        loop {
            if let Some((opcode, payload)) = self.frame() {
                match opcode {
                    0x1 => return serde_json::from_slice(&payload).unwrap(),
                    0x9 | 0xA => continue,
                    other => panic!("unexpected frame {other:#x}"),
                }
            }
            let mut chunk = [0u8; 8192];
            let n = tokio::time::timeout(Duration::from_secs(10), self.stream.read(&mut chunk))
                .await
                .expect("a message within 10 s")
                .unwrap();
            assert!(n > 0, "the server closed the socket");
            self.buffer.extend_from_slice(&chunk[..n]);
        }
    }

    /// A whole frame off the buffer: (opcode, payload).
    fn frame(&mut self) -> Option<(u8, Vec<u8>)> {
        let b = &self.buffer;
        if b.len() < 2 {
            return None;
        }
        assert_eq!(b[0] & 0x80, 0x80, "unfragmented");
        assert_eq!(b[1] & 0x80, 0, "server frames are not masked");
        let (len, start) = match b[1] & 0x7F {
            126 if b.len() >= 4 => (u16::from_be_bytes([b[2], b[3]]) as usize, 4),
            127 if b.len() >= 10 => (
                u64::from_be_bytes(b[2..10].try_into().unwrap()) as usize,
                10,
            ),
            126 | 127 => return None,
            n => (n as usize, 2),
        };
        if b.len() < start + len {
            return None;
        }
        let opcode = b[0] & 0x0F;
        let payload = b[start..start + len].to_vec();
        self.buffer.drain(..start + len);
        Some((opcode, payload))
    }
}

async fn online_game(app: &TestApp) -> (String, String, String) {
    let (_, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    (game, alice, bob)
}

#[tokio::test]
async fn a_follower_receives_every_state_in_order_while_two_players_play() {
    let app = spawn_app().await;
    let (game, alice, bob) = online_game(&app).await;
    let mut follower = EventReader::open(&app, &game, None).await;
    let (first, state) = follower.next().await;
    assert_eq!(first, 2, "created, then accepted");
    assert_eq!(state["ply"], 0);
    let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    for (n, at) in moves.iter().enumerate() {
        let token = if n % 2 == 0 { &alice } else { &bob };
        app.play_ok(&game, token, at).await;
    }
    for (n, at) in moves.iter().enumerate() {
        let (version, state) = follower.next().await;
        assert_eq!(version, first + 1 + n as i64, "no gaps, in order");
        assert_eq!(state["version"], version);
        assert_eq!(state["ply"], n + 1);
        assert_eq!(state["last_move"]["name"], *at);
    }
    assert_eq!(app.game(&game).await["result"]["winner"], "black");
}

#[tokio::test]
async fn a_follower_that_reconnects_with_last_event_id_resumes_where_it_left_off() {
    let app = spawn_app().await;
    let (game, alice, bob) = online_game(&app).await;
    let mut follower = EventReader::open(&app, &game, None).await;
    app.play_ok(&game, &alice, "h8").await;
    follower.next().await;
    let (seen, _) = follower.next().await;
    assert_eq!(seen, 3);
    drop(follower);
    // Moves made while the follower is away.
    app.play_ok(&game, &bob, "h9").await;
    app.play_ok(&game, &alice, "i8").await;
    app.play_ok(&game, &bob, "i9").await;
    let mut follower = EventReader::open(&app, &game, Some(seen)).await;
    for expected in 4..=6 {
        let (version, state) = follower.next().await;
        assert_eq!(version, expected);
        assert_eq!(state["ply"], expected - 2);
    }
    app.play_ok(&game, &alice, "j8").await;
    assert_eq!(follower.next().await.0, 7);
}

#[tokio::test]
async fn the_event_stream_of_an_unknown_game_is_not_found() {
    let app = spawn_app().await;
    assert_problem(
        app.get("/v1/games/g_nope/events").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
}

#[tokio::test]
async fn a_long_poll_answers_as_soon_as_the_game_changes_or_when_its_time_is_up() {
    let app = spawn_app().await;
    let (game, alice, _bob) = online_game(&app).await;
    let started = Instant::now();
    let waited: Value = app
        .get(&format!("/v1/games/{game}?wait_for_version=2&timeout=1"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(waited["version"], 2, "unchanged after the timeout");
    assert!(started.elapsed() >= Duration::from_millis(900));

    let poll = app
        .client
        .get(app.url(&format!("/v1/games/{game}?wait_for_version=2&timeout=20")))
        .send();
    let play = async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        app.play_ok(&game, &alice, "h8").await;
    };
    let started = Instant::now();
    let (response, ()) = tokio::join!(poll, play);
    let state: Value = response.unwrap().json().await.unwrap();
    assert_eq!(state["version"], 3);
    assert_eq!(state["last_move"]["name"], "h8");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "answered on the change"
    );

    // Already past the version: answered at once.
    let state: Value = app
        .get(&format!("/v1/games/{game}?wait_for_version=0"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(state["version"], 3);
    let bad = app
        .get(&format!("/v1/games/{game}?wait_for_version=3&timeout=90"))
        .await;
    assert_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}

#[tokio::test]
async fn the_websocket_carries_the_same_states_as_the_event_stream_and_resumes() {
    let app = spawn_app().await;
    let (game, alice, bob) = online_game(&app).await;
    let mut socket = Socket::open(&app, &format!("/v1/games/{game}/ws")).await;
    let mut events = EventReader::open(&app, &game, None).await;
    let first = socket.next().await;
    assert_eq!(first["version"], 2);
    assert_eq!(events.next().await.1, first, "the same state");
    for (token, at) in [(&alice, "h8"), (&bob, "h9"), (&alice, "i8")] {
        app.play_ok(&game, token, at).await;
    }
    let mut seen = 2;
    for at in ["h8", "h9", "i8"] {
        let state = socket.next().await;
        let (version, event) = events.next().await;
        assert_eq!(state, event);
        assert_eq!(state["version"], version);
        assert_eq!(version, seen + 1, "in order, no gaps");
        assert_eq!(state["last_move"]["name"], at);
        seen = version;
    }
    drop(socket);
    app.play_ok(&game, &bob, "i9").await;
    app.play_ok(&game, &alice, "j8").await;
    let mut socket = Socket::open(&app, &format!("/v1/games/{game}/ws?after={}", seen - 1)).await;
    for expected in seen..=seen + 2 {
        assert_eq!(socket.next().await["version"], expected);
    }
    // Not a WebSocket handshake; an unknown game.
    assert_problem(
        app.get(&format!("/v1/games/{game}/ws")).await,
        StatusCode::BAD_REQUEST,
        "WEBSOCKET_EXPECTED",
    )
    .await;
    assert_problem(
        app.get("/v1/games/g_nope/ws").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
}
