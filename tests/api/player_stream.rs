//! A player's own stream of every game they sit in, over SSE and
//! WebSocket, resumed after a disconnection with every state missed.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app};
use crate::live::Socket;
use crate::seeks::PlayerStream;

fn id_of(state: &Value) -> String {
    format!(
        "{}.{}",
        state["id"].as_str().unwrap(),
        state["version"].as_i64().unwrap()
    )
}

#[tokio::test]
async fn a_resumed_stream_gets_every_state_missed_in_order_then_the_new_ones() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let (carol_id, carol) = app.player("Carol").await;
    let first = app.online_game(&alice, &bob_id, &bob, json!({})).await;

    let mut stream = PlayerStream::open(&app, &alice).await;
    app.play_ok(&first, &alice, "h8").await;
    // A stream opened without Last-Event-ID may first carry a state that
    // was being announced as it opened (with several instances, changes
    // travel through the database's notifications): the game's start,
    // never anything older or out of order.
    let (mut seen, _) = stream.next().await;
    if seen == format!("{first}.2") {
        seen = stream.next().await.0;
    }
    assert_eq!(seen, format!("{first}.3"));
    drop(stream);

    // Away: Bob answers, Carol invites her, Bob and Carol play without her.
    app.play_ok(&first, &bob, "h9").await;
    let invited = app
        .create_game(
            Some(&carol),
            json!({"black": "me", "white": {"player_id": alice_id}}),
        )
        .await;
    let second = invited["game"]["id"].as_str().unwrap().to_string();
    let others = app.online_game(&bob, &carol_id, &carol, json!({})).await;
    app.play_ok(&others, &bob, "h8").await;
    app.play_ok(&first, &alice, "j10").await;

    let mut stream = PlayerStream::resume(&app, &alice, Some(&seen)).await;
    let mut ids = Vec::new();
    for _ in 0..3 {
        ids.push(stream.next().await.0);
    }
    assert_eq!(
        ids,
        [
            format!("{first}.4"),
            format!("{second}.1"),
            format!("{first}.5")
        ]
    );
    // Then live.
    app.act(&second, "accept", &alice, StatusCode::OK).await;
    assert_eq!(stream.next().await.0, format!("{second}.2"));
}

#[tokio::test]
async fn a_stream_resumed_after_a_state_no_longer_kept_says_to_read_the_games() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let mut stream = PlayerStream::resume(&app, &alice, Some("g_forgotten.7")).await;
    let (event, _, data) = stream.next_event().await;
    assert_eq!(event, "resync");
    assert_eq!(data["resync"], true);
    assert_eq!(
        data["games"],
        format!("/v1/games?player={alice_id}").as_str()
    );
    // Then the stream goes on as any other.
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    assert_eq!(stream.next().await.0, format!("{game}.1"));

    // An id that is not one of this stream's.
    let refused = app
        .client
        .get(app.url("/v1/players/me/events"))
        .bearer_auth(&alice)
        .header("last-event-id", "7")
        .send()
        .await
        .unwrap();
    assert_problem(refused, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}

#[tokio::test]
async fn the_player_s_websocket_carries_the_same_states_and_resumes_with_after() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let mut socket = Socket::open_as(&app, "/v1/players/me/ws", Some(&alice)).await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    let invited = socket.next().await;
    assert_eq!(id_of(&invited), format!("{game}.1"));
    let started = socket.next().await;
    assert_eq!(started["status"], "in_progress");
    drop(socket);

    app.play_ok(&game, &alice, "h8").await;
    app.play_ok(&game, &bob, "h9").await;
    let path = format!("/v1/players/me/ws?after={}", id_of(&started));
    let mut socket = Socket::open_as(&app, &path, Some(&alice)).await;
    assert_eq!(id_of(&socket.next().await), format!("{game}.3"));
    let last = socket.next().await;
    assert_eq!(id_of(&last), format!("{game}.4"));
    assert_eq!(last["to_move"], "black");

    // Without a token: refused before the handshake.
    let refused = app
        .client
        .get(app.url("/v1/players/me/ws"))
        .send()
        .await
        .unwrap();
    assert_problem(refused, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
}
