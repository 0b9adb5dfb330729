//! `GET /metrics`: what an operator scrapes, counted from real traffic.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_limited};
use gobang::api::RateLimitConfig;

/// The value of the series `name` with exactly these labels (in the
/// order the exporter writes them), if it is there.
fn value(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find_map(|line| line.strip_prefix(series)?.strip_prefix(' '))
        .and_then(|v| v.trim().parse().ok())
}

async fn scrape(app: &crate::helpers::TestApp) -> String {
    let response = app.get("/metrics").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/openmetrics-text")
    );
    response.text().await.unwrap()
}

#[tokio::test]
async fn moves_requests_games_and_write_batches_are_counted() {
    let app = spawn_app().await;
    let (_, ada) = app.player("Ada").await;
    let created = app
        .create_game(
            Some(&ada),
            json!({"black": "me", "white": {"ai": "beginner"}}),
        )
        .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&id, &ada, "h8").await;
    app.play_ok(&id, &ada, "c3").await;
    let refused = app.play(&id, &ada, "h8").await;
    assert_eq!(refused.status(), StatusCode::CONFLICT);

    let text = scrape(&app).await;
    assert!(
        text.ends_with("# EOF\n"),
        "OpenMetrics text ends with # EOF"
    );
    // Two moves of Ada's and the computer's two replies.
    assert_eq!(value(&text, "gobang_moves_total"), Some(4.0));
    let moves_route = "method=\"POST\",route=\"/v1/games/{id}/moves\"";
    assert_eq!(
        value(
            &text,
            &format!("gobang_http_requests_total{{{moves_route},status=\"200\"}}")
        ),
        Some(2.0)
    );
    assert_eq!(
        value(
            &text,
            &format!("gobang_http_requests_total{{{moves_route},status=\"409\"}}")
        ),
        Some(1.0)
    );
    assert_eq!(
        value(
            &text,
            &format!("gobang_http_request_duration_seconds_count{{{moves_route}}}")
        ),
        Some(3.0)
    );
    assert_eq!(
        value(&text, "gobang_games{status=\"in_progress\"}"),
        Some(1.0)
    );
    // Player, game, two moves, two replies (at least: batches may hold several).
    let writes = value(&text, "gobang_store_write_batch_size_sum").unwrap();
    assert!(writes >= 6.0, "{writes} writes");
    assert!(value(&text, "gobang_store_commit_seconds_count").unwrap() >= 1.0);
    // The computer thought twice.
    assert_eq!(value(&text, "gobang_engine_think_seconds_count"), Some(2.0));
    assert_eq!(value(&text, "gobang_engine_searches_running"), Some(0.0));
}

#[tokio::test]
async fn live_followers_and_refusals_are_counted() {
    let app = spawn_app_limited(RateLimitConfig {
        writes_per_minute: 2,
        ..RateLimitConfig::default()
    })
    .await;
    let (_, ada) = app.player("Ada").await;
    let created = app.create_game(Some(&ada), json!({})).await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let (_, bob) = app.player("Bob").await;
    let followed = app.create_game(Some(&bob), json!({})).await;
    let followed = followed["game"]["id"].as_str().unwrap().to_string();
    let stream = app
        .client
        .get(app.url(&format!("/v1/games/{followed}/events")))
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    app.play_ok(&id, &ada, "h8").await;
    assert_eq!(
        app.play(&id, &ada, "h9").await.status(),
        StatusCode::TOO_MANY_REQUESTS
    );
    let text = scrape(&app).await;
    assert_eq!(
        value(&text, "gobang_live_followers{transport=\"sse\"}"),
        Some(1.0)
    );
    assert_eq!(
        value(&text, "gobang_rate_limited_total{budget=\"writes\"}"),
        Some(1.0)
    );
    // The server notices a closed stream when it next writes to it.
    drop(stream);
    app.play_ok(&followed, &bob, "h8").await;
    let mut followers = None;
    for _ in 0..50 {
        followers = value(
            &scrape(&app).await,
            "gobang_live_followers{transport=\"sse\"}",
        );
        if followers == Some(0.0) {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(followers, Some(0.0), "a closed stream is no longer counted");
}
