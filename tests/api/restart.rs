//! Stopping the server loses nothing a client was told had happened.

use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_on};

#[tokio::test]
async fn a_restarted_server_on_the_same_file_continues_every_game() {
    let app = spawn_app().await;
    let (me, token) = app.player("Persistent").await;
    let (local, local_token) = app.local_game(json!({"rules": "freestyle"})).await;
    for at in ["h8", "h9", "i8"] {
        app.play_ok(&local, &local_token, at).await;
    }
    app.post(&format!("/v1/games/{local}/undo"), Some(&local_token), None)
        .await;
    let created = app
        .create_game(Some(&token), json!({"white": {"ai": "beginner"}}))
        .await;
    let ai_game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&ai_game, &token, "h8").await;
    let before_local = app.game(&local).await;
    let before_ai = app.game(&ai_game).await;

    let (database, dir) = app.stop().await;
    let app = spawn_app_on(database, dir).await;

    assert_eq!(app.game(&local).await, before_local);
    assert_eq!(app.game(&ai_game).await, before_ai);
    let redone = app
        .post(&format!("/v1/games/{local}/redo"), Some(&local_token), None)
        .await;
    assert_eq!(
        redone.status(),
        reqwest::StatusCode::OK,
        "the redo stack survived"
    );
    app.play_ok(&local, &local_token, "a1").await;
    let played = app.play_ok(&ai_game, &token, "a1").await;
    assert_eq!(played["game"]["ply"], 4);
    assert_eq!(app.player_stats(&me).await["name"], "Persistent");
}

#[tokio::test]
async fn a_clock_that_ran_out_while_the_server_was_down_ends_the_game_at_start() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app
        .online_game(
            &alice,
            &bob_id,
            &bob,
            json!({"clock": {"main_ms": 1000, "floor_ms": 1000}}),
        )
        .await;
    app.play_ok(&game, &alice, "h8").await;
    let (database, dir) = app.stop().await;
    // White's second runs out while nobody is serving.
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let app = spawn_app_on(database, dir).await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let state = loop {
        let state = app.game(&game).await;
        if state["status"] == "finished" || std::time::Instant::now() > deadline {
            break state;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(state["result"]["reason"], "timeout");
    assert_eq!(state["result"]["winner"], "black");
    assert_eq!(
        state["thinking_ms"]["white"], 1000,
        "charged up to the flag fall"
    );
    assert_eq!(app.player_stats(&alice_id).await["wins"], 1);
    assert_eq!(app.player_stats(&bob_id).await["losses"], 1);
}
