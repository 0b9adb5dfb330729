//! Every action on a seat needs the token of the player in it.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app};

#[tokio::test]
async fn without_a_token_or_with_a_wrong_one_nothing_can_be_done() {
    let app = spawn_app().await;
    let (game, _) = app.local_game(json!({})).await;
    for action in ["moves", "undo", "redo", "resign", "ai-move", "join"] {
        let path = format!("/v1/games/{game}/{action}");
        let body = (action == "moves").then(|| json!({"at": "h8"}));
        let response = app.post(&path, None, body.clone()).await;
        assert_eq!(response.headers()["www-authenticate"], "Bearer");
        assert_problem(response, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
        let response = app.post(&path, Some("gbt_not_a_real_token"), body).await;
        assert_problem(response, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
    }
    let malformed = app
        .client
        .post(app.url(&format!("/v1/games/{game}/resign")))
        .header("authorization", "Basic dXNlcjpwYXNz")
        .send()
        .await
        .unwrap();
    assert_problem(malformed, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
    assert_eq!(app.game(&game).await["version"], 1);
}

#[tokio::test]
async fn a_player_who_is_not_in_the_game_is_forbidden() {
    let app = spawn_app().await;
    let (game, _) = app.local_game(json!({})).await;
    let (_, stranger) = app.player("Stranger").await;
    for action in ["undo", "redo", "resign", "ai-move"] {
        let response = app
            .post(&format!("/v1/games/{game}/{action}"), Some(&stranger), None)
            .await;
        assert_problem(response, StatusCode::FORBIDDEN, "NOT_A_PLAYER_OF_THIS_GAME").await;
    }
    let response = app.play(&game, &stranger, "h8").await;
    assert_problem(response, StatusCode::FORBIDDEN, "NOT_A_PLAYER_OF_THIS_GAME").await;
    assert_eq!(app.game(&game).await["ply"], 0);
}

#[tokio::test]
async fn in_an_online_game_each_token_moves_only_its_own_colour() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    assert_problem(
        app.play(&game, &bob, "h8").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    app.play_ok(&game, &alice, "h8").await;
    assert_problem(
        app.play(&game, &alice, "h9").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    app.play_ok(&game, &bob, "h9").await;
}

#[tokio::test]
async fn tokens_never_appear_in_reads_or_listings() {
    let app = spawn_app().await;
    let created = app.create_game(None, json!({})).await;
    let token = created["you"]["token"].as_str().unwrap().to_string();
    let player = created["you"]["player_id"].as_str().unwrap().to_string();
    let game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&game, &token, "h8").await;
    for path in [
        format!("/v1/games/{game}"),
        format!("/v1/games/{game}/moves"),
        format!("/v1/games?player={player}"),
        format!("/v1/players/{player}"),
        "/v1/leaderboard".to_string(),
    ] {
        let text = app.get(&path).await.text().await.unwrap();
        assert!(!text.contains(&token), "{path} shows the token");
        assert!(!text.contains("token_hash"), "{path}");
    }
    let body: Value = app
        .get(&format!("/v1/players/{player}"))
        .await
        .json()
        .await
        .unwrap();
    assert!(body.get("token").is_none());
}
