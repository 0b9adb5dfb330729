//! Versions, If-Match, and requests racing on one game.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app};

#[tokio::test]
async fn every_change_raises_the_version_returned_as_the_etag() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    let response = app.get(&format!("/v1/games/{game}")).await;
    assert_eq!(response.headers()["etag"], "\"1\"");
    let response = app.play(&game, &token, "h8").await;
    assert_eq!(response.headers()["etag"], "\"2\"");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["game"]["version"], 2);
}

#[tokio::test]
async fn if_match_with_the_current_version_is_applied_and_a_stale_one_is_refused() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    let path = app.url(&format!("/v1/games/{game}/moves"));
    let current = app
        .client
        .post(&path)
        .bearer_auth(&token)
        .header("if-match", "\"1\"")
        .json(&json!({"at": "h8"}))
        .send()
        .await
        .unwrap();
    assert_eq!(current.status(), StatusCode::OK);
    let stale = app
        .client
        .post(&path)
        .bearer_auth(&token)
        .header("if-match", "\"1\"")
        .json(&json!({"at": "h9"}))
        .send()
        .await
        .unwrap();
    let problem = assert_problem(stale, StatusCode::PRECONDITION_FAILED, "VERSION_MISMATCH").await;
    assert_eq!(problem["current_version"], 2);
    let garbage = app
        .client
        .post(&path)
        .bearer_auth(&token)
        .header("if-match", "yesterday")
        .json(&json!({"at": "h9"}))
        .send()
        .await
        .unwrap();
    assert_problem(garbage, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    assert_eq!(app.game(&game).await["ply"], 1);
}

#[tokio::test]
async fn of_many_racing_moves_on_one_version_exactly_one_is_accepted() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    for round in 0..3 {
        let version = app.game(&game).await["version"].as_i64().unwrap();
        let attempts = (0..16).map(|i| {
            let request = app
                .client
                .post(app.url(&format!("/v1/games/{game}/moves")))
                .bearer_auth(&token)
                .header("if-match", format!("\"{version}\""))
                .json(&json!({"x": i % 15, "y": round * 2 + i / 15}));
            async move { request.send().await.unwrap().status() }
        });
        let statuses = futures_join_all(attempts).await;
        let accepted = statuses.iter().filter(|s| **s == StatusCode::OK).count();
        let refused = statuses
            .iter()
            .filter(|s| **s == StatusCode::PRECONDITION_FAILED)
            .count();
        assert_eq!((accepted, refused), (1, 15), "round {round}: {statuses:?}");
    }
    let record: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    let plies: Vec<u64> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [1, 2, 3]);
}

#[tokio::test]
async fn of_many_racing_moves_on_one_point_exactly_one_is_accepted_and_the_record_has_no_gaps() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    let attempts = (0..16).map(|_| {
        let request = app
            .client
            .post(app.url(&format!("/v1/games/{game}/moves")))
            .bearer_auth(&token)
            .json(&json!({"at": "h8"}));
        async move { request.send().await.unwrap().status() }
    });
    let statuses = futures_join_all(attempts).await;
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::OK).count(), 1);
    assert_eq!(
        statuses
            .iter()
            .filter(|s| **s == StatusCode::CONFLICT)
            .count(),
        15
    );
    // Different points without If-Match: all accepted, one ply each. The
    // points stand three apart, so no arrival order makes a five (which
    // would end the game and refuse the rest).
    let attempts = (0..10).map(|i| {
        let request = app
            .client
            .post(app.url(&format!("/v1/games/{game}/moves")))
            .bearer_auth(&token)
            .json(&json!({"x": (i % 5) * 3, "y": (i / 5) * 3}));
        async move { request.send().await.unwrap().status() }
    });
    let statuses = futures_join_all(attempts).await;
    assert!(
        statuses.iter().all(|s| *s == StatusCode::OK),
        "{statuses:?}"
    );
    let record: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    let moves = record["moves"].as_array().unwrap();
    let plies: Vec<u64> = moves.iter().map(|m| m["ply"].as_u64().unwrap()).collect();
    assert_eq!(plies, (1..=11).collect::<Vec<u64>>());
    let colors: Vec<&str> = moves.iter().map(|m| m["color"].as_str().unwrap()).collect();
    assert!(
        colors
            .iter()
            .enumerate()
            .all(|(i, c)| *c == if i % 2 == 0 { "black" } else { "white" })
    );
}

/// Runs the futures at once and collects their results in order.
async fn futures_join_all<F: std::future::Future<Output = StatusCode> + Send + 'static>(
    futures: impl Iterator<Item = F>,
) -> Vec<StatusCode> {
    let handles: Vec<_> = futures.map(tokio::spawn).collect();
    let mut out = Vec::new();
    for handle in handles {
        out.push(handle.await.unwrap());
    }
    out
}
