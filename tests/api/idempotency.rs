//! Safe retries: a request sent again with the same `Idempotency-Key` gets
//! the first answer and does not act twice, even after a restart.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app, spawn_app_on};

async fn keyed(
    app: &TestApp,
    path: &str,
    token: Option<&str>,
    key: &str,
    body: Value,
) -> reqwest::Response {
    let mut request = app
        .client
        .post(app.url(path))
        .header("idempotency-key", key)
        .json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn a_retried_move_is_answered_from_the_first_and_played_once() {
    let app = spawn_app().await;
    let (id, token) = app.local_game(json!({})).await;
    let path = format!("/v1/games/{id}/moves");
    let first = keyed(&app, &path, Some(&token), "move-1", json!({"at": "h8"})).await;
    assert_eq!(first.status(), StatusCode::OK);
    let first_etag = first.headers()["etag"].clone();
    let first_body: Value = first.json().await.unwrap();
    // The phone lost the answer and sends the same request again.
    let retry = keyed(&app, &path, Some(&token), "move-1", json!({"at": "h8"})).await;
    assert_eq!(retry.status(), StatusCode::OK);
    assert_eq!(retry.headers()["idempotent-replayed"], "true");
    assert_eq!(retry.headers()["etag"], first_etag);
    assert_eq!(retry.headers()["content-type"], "application/json");
    let retry_body: Value = retry.json().await.unwrap();
    assert_eq!(retry_body, first_body);
    assert_eq!(app.game(&id).await["ply"], 1, "played once");
    // The same key for another request is a mistake, said so.
    let reused = keyed(&app, &path, Some(&token), "move-1", json!({"at": "j10"})).await;
    let problem = assert_problem(
        reused,
        StatusCode::UNPROCESSABLE_ENTITY,
        "IDEMPOTENCY_KEY_REUSED",
    )
    .await;
    assert!(problem["detail"].as_str().unwrap().contains("new key"));
    // A refusal is an answer too: replayed, not retried.
    let occupied = keyed(&app, &path, Some(&token), "move-2", json!({"at": "h8"})).await;
    assert_eq!(occupied.status(), StatusCode::CONFLICT);
    let again = keyed(&app, &path, Some(&token), "move-2", json!({"at": "h8"})).await;
    assert_eq!(again.status(), StatusCode::CONFLICT);
    assert_eq!(again.headers()["idempotent-replayed"], "true");
    // Keys belong to their caller: another player's "move-1" is its own.
    let (other, other_token) = app.local_game(json!({})).await;
    let theirs = keyed(
        &app,
        &format!("/v1/games/{other}/moves"),
        Some(&other_token),
        "move-1",
        json!({"at": "h8"}),
    )
    .await;
    assert_eq!(theirs.status(), StatusCode::OK);
    assert!(theirs.headers().get("idempotent-replayed").is_none());
    // A bad key is refused.
    let bad = keyed(
        &app,
        &path,
        Some(&token),
        &"k".repeat(300),
        json!({"at": "a1"}),
    )
    .await;
    assert_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    // So is one with a space inside (HTTP allows it in a header; the key
    // is visible characters only, as the document's pattern says).
    let spaced = keyed(&app, &path, Some(&token), "my key", json!({"at": "a1"})).await;
    assert_problem(spaced, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}

#[tokio::test]
async fn a_retried_new_game_makes_one_game_even_across_a_restart() {
    let app = spawn_app().await;
    let (me, token) = app.player("Retrier").await;
    let body = json!({"white": {"ai": "beginner"}});
    let first = keyed(&app, "/v1/games", Some(&token), "new-game-7", body.clone()).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let location = first.headers()["location"].clone();
    let created: Value = first.json().await.unwrap();

    let (database, dir) = app.stop().await;
    let app = spawn_app_on(database, dir).await;

    let retry = keyed(&app, "/v1/games", Some(&token), "new-game-7", body).await;
    assert_eq!(retry.status(), StatusCode::CREATED);
    assert_eq!(retry.headers()["location"], location);
    let replayed: Value = retry.json().await.unwrap();
    assert_eq!(replayed["game"]["id"], created["game"]["id"]);
    let games: Value = app
        .get(&format!("/v1/games?player={me}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 1, "{games}");
}
