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
