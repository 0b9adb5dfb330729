//! The computer in the server: levels, budgets, and a bounded number of
//! searches at once.

use std::time::Duration;

use gobang::service::ComputerConfig;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, fresh_database, spawn_app, spawn_app_with};

#[tokio::test]
async fn every_level_can_be_played_and_reports_its_depth_and_time() {
    let app = spawn_app().await;
    let (_, token) = app.player("Climber").await;
    for level in ["beginner", "intermediate", "advanced", "expert"] {
        let created = app
            .create_game(Some(&token), json!({"white": {"ai": level}}))
            .await;
        let game = created["game"]["id"].as_str().unwrap().to_string();
        app.play_ok(&game, &token, "h8").await;
        let played = app.play_ok(&game, &token, "a1").await;
        let reply = &played["moves"][1];
        assert_eq!(reply["computer"]["level"], level);
        assert!(reply["computer"]["depth"].as_u64().unwrap() >= 1);
        assert!(
            reply["computer"]["time_ms"].as_u64().unwrap() <= 400,
            "{reply}"
        );
    }
}

#[tokio::test]
async fn a_hint_reports_a_forced_win_when_there_is_one() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    // Black builds an open three; white plays far away.
    for at in ["h8", "a1", "i8", "a3", "j8", "a5"] {
        app.play_ok(&game, &token, at).await;
    }
    let hint: Value = app
        .get(&format!("/v1/games/{game}/hint?level=expert&time_ms=300"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        hint["forced_win_in"], 3,
        "an open four wins on the third ply: {hint}"
    );
    assert!(
        ["g8", "k8"].contains(&hint["candidates"][0]["name"].as_str().unwrap()),
        "{hint}"
    );
    // The line it expects: the open four, one end blocked, five at the other.
    let computer = &hint["computer"];
    assert_eq!(computer["forced_win_in"], 3, "{hint}");
    assert_eq!(computer["forced_loss_in"], Value::Null, "{hint}");
    assert!(computer["score"].as_i64().unwrap() > 900_000, "{hint}");
    let pv: Vec<&str> = computer["pv"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(pv.len(), 3, "{hint}");
    assert_eq!(pv[0], hint["candidates"][0]["name"].as_str().unwrap());
    let mut ends = [pv[1], pv[2]];
    ends.sort();
    let expected = if pv[0] == "g8" {
        ["f8", "k8"]
    } else {
        ["g8", "l8"]
    };
    assert_eq!(ends, expected, "{hint}");
}

#[tokio::test]
async fn when_every_search_is_taken_a_request_waits_then_gets_503_with_retry_after() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let computer = ComputerConfig {
        max_concurrent: 1,
        queue_timeout: Duration::from_millis(100),
        default_budget: Duration::from_millis(200),
        max_budget: Duration::from_millis(1500),
    };
    let app = spawn_app_with(
        fresh_database(dir.path(), "busy.db").await,
        dir.clone(),
        computer,
    )
    .await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    app.play_ok(&game, &token, "h8").await;
    app.play_ok(&game, &token, "a1").await;
    let url = app.url(&format!("/v1/games/{game}/hint?level=expert&time_ms=1500"));
    let (first, second) = tokio::join!(app.client.get(&url).send(), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        app.client.get(&url).send().await
    });
    assert_eq!(first.unwrap().status(), StatusCode::OK);
    let second = second.unwrap();
    assert_eq!(second.headers()["retry-after"], "1");
    assert_problem(second, StatusCode::SERVICE_UNAVAILABLE, "ENGINE_BUSY").await;
}

#[tokio::test]
async fn a_requested_thinking_time_is_capped_by_the_server() {
    let dir = std::sync::Arc::new(tempfile::tempdir().unwrap());
    let computer = ComputerConfig {
        max_budget: Duration::from_millis(100),
        ..ComputerConfig::default()
    };
    let app = spawn_app_with(
        fresh_database(dir.path(), "cap.db").await,
        dir.clone(),
        computer,
    )
    .await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    app.play_ok(&game, &token, "h8").await;
    app.play_ok(&game, &token, "i9").await;
    let response = app
        .post(
            &format!("/v1/games/{game}/ai-move"),
            Some(&token),
            Some(json!({"level": "expert", "time_ms": 60000})),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["moves"][0]["computer"]["time_ms"].as_u64().unwrap() <= 150,
        "{body}"
    );
}
