//! Rate limits: a caller over its budget gets 429 with when to come back;
//! other callers and other budgets are untouched.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app_limited};
use gobang::api::RateLimitConfig;

#[tokio::test]
async fn a_token_over_its_write_budget_is_told_when_to_come_back() {
    let app = spawn_app_limited(RateLimitConfig {
        enabled: true,
        reads_per_minute: 1000,
        writes_per_minute: 4,
        guests_per_hour: 100,
        ..RateLimitConfig::default()
    })
    .await;
    let (_, ada) = app.player("Ada").await;
    let (_, bob) = app.player("Bob").await;
    let (id, _) = {
        let created = app
            .create_game(Some(&ada), json!({"black": "me", "white": "me"}))
            .await;
        (created["game"]["id"].as_str().unwrap().to_string(), ())
    };
    // Ada has spent one write creating the game: three moves more fit.
    for at in ["h8", "h9", "i8"] {
        app.play_ok(&id, &ada, at).await;
    }
    let refused = app.play(&id, &ada, "i9").await;
    assert_eq!(refused.status(), StatusCode::TOO_MANY_REQUESTS);
    let headers = refused.headers().clone();
    let wait: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    assert_eq!(headers["ratelimit-policy"], "\"writes\";q=4;w=60");
    assert_eq!(
        headers["ratelimit"].to_str().unwrap(),
        format!("\"writes\";r=0;t={wait}")
    );
    assert!(headers.contains_key("x-request-id"));
    let problem = assert_problem(refused, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED").await;
    assert!(problem["detail"].as_str().unwrap().contains("try again in"));
    // The move was not played.
    let game: Value = app
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["ply"], 3);
    // Reads are their own budget; other tokens their own.
    let read = app
        .client
        .get(app.url(&format!("/v1/games/{id}")))
        .bearer_auth(&ada)
        .send()
        .await
        .unwrap();
    assert_eq!(read.status(), StatusCode::OK);
    let other = app
        .create_game(Some(&bob), json!({"white": {"ai": "beginner"}}))
        .await;
    assert_eq!(other["game"]["status"], "in_progress");
    // Health checks are never counted.
    for _ in 0..10 {
        assert_eq!(app.get("/healthz").await.status(), StatusCode::OK);
    }
}

#[tokio::test]
async fn guests_are_limited_per_address_and_tokens_play_on() {
    let app = spawn_app_limited(RateLimitConfig {
        enabled: true,
        reads_per_minute: 1000,
        writes_per_minute: 1000,
        guests_per_hour: 2,
        ..RateLimitConfig::default()
    })
    .await;
    let mut tokens = Vec::new();
    for _ in 0..2 {
        let created = app.post("/v1/games", None, None).await;
        assert_eq!(created.status(), StatusCode::CREATED);
        let body: Value = created.json().await.unwrap();
        tokens.push(body["you"]["token"].as_str().unwrap().to_string());
    }
    let refused = app
        .post("/v1/players", None, Some(json!({"name": "Eve"})))
        .await;
    assert_eq!(
        refused.headers()["ratelimit-policy"],
        "\"guests\";q=2;w=3600"
    );
    assert_problem(refused, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED").await;
    let import = app.post("/v1/games/import", None, None).await;
    assert_eq!(import.status(), StatusCode::TOO_MANY_REQUESTS);
    // A guest made earlier plays on with its token.
    let game = app.create_game(Some(&tokens[0]), json!({})).await;
    assert_eq!(game["game"]["status"], "in_progress");
}

#[tokio::test]
async fn an_address_may_keep_only_so_many_event_streams_open() {
    let app = spawn_app_limited(RateLimitConfig {
        streams_per_address: 2,
        ..RateLimitConfig::default()
    })
    .await;
    let (_, ada) = app.player("Ada").await;
    let created = app
        .create_game(Some(&ada), json!({"black": "me", "white": "me"}))
        .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let open = || async {
        app.client
            .get(app.url(&format!("/v1/games/{id}/events")))
            .send()
            .await
            .unwrap()
    };
    let first = open().await;
    let second = open().await;
    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(second.status(), StatusCode::OK);
    let third = open().await;
    assert_eq!(third.headers()["retry-after"], "5");
    let problem = assert_problem(third, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("2 event streams open")
    );
    // The WebSocket counts against the same streams.
    let socket = app
        .client
        .get(app.url(&format!("/v1/games/{id}/ws")))
        .send()
        .await
        .unwrap();
    assert_eq!(socket.status(), StatusCode::TOO_MANY_REQUESTS);
    // A stream closed makes room for another (the server notices when it
    // next writes to it: a change, or the keep-alive).
    drop(first);
    app.play_ok(&id, &ada, "h8").await;
    app.play_ok(&id, &ada, "h9").await;
    let mut reopened = None;
    for _ in 0..50 {
        let response = open().await;
        if response.status() == StatusCode::OK {
            reopened = Some(response);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert!(reopened.is_some(), "closing a stream frees its place");
    drop(second);
}

/// The computer's thinking is the expensive resource: each caller has a
/// share per minute. A hint over it is refused before any search; a move
/// against the computer stands, and the computer waits to be asked.
#[tokio::test]
async fn the_computers_thinking_time_is_shared_out_per_caller() {
    let app = spawn_app_limited(RateLimitConfig {
        thinking_ms_per_minute: 500,
        ..RateLimitConfig::default()
    })
    .await;
    let (_, ada) = app.player("Ada").await;
    let created = app
        .create_game(Some(&ada), json!({"black": "me", "white": "me"}))
        .await;
    let id = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&id, &ada, "h8").await;
    let hint = |ms: u32| {
        app.client
            .get(app.url(&format!("/v1/games/{id}/hint?level=beginner&time_ms={ms}")))
            .bearer_auth(&ada)
            .send()
    };
    assert_eq!(hint(400).await.unwrap().status(), StatusCode::OK);
    let refused = hint(300).await.unwrap();
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=60).contains(&wait), "Retry-After {wait}");
    let problem = assert_problem(refused, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("500 ms a minute"),
        "{problem}"
    );
    // Another caller has a share of its own.
    let (_, bob) = app.player("Bob").await;
    let against = app
        .create_game(
            Some(&bob),
            json!({"black": "me", "white": {"ai": "beginner"}}),
        )
        .await;
    let against = against["game"]["id"].as_str().unwrap().to_string();
    let played: Value = app.play_ok(&against, &bob, "h8").await;
    assert_eq!(played["game"]["ply"], 2, "the computer replied: {played}");
    // Ada, out of thinking time, plays the computer: her move stands and
    // the computer waits.
    let versus = app
        .create_game(
            Some(&ada),
            json!({"black": "me", "white": {"ai": "beginner"}}),
        )
        .await;
    let versus = versus["game"]["id"].as_str().unwrap().to_string();
    let played: Value = app.play_ok(&versus, &ada, "h8").await;
    assert_eq!(played["game"]["ply"], 1);
    assert_eq!(played["game"]["to_move"], "white");
    let asked = app
        .post(&format!("/v1/games/{versus}/ai-move"), Some(&ada), None)
        .await;
    assert_problem(asked, StatusCode::TOO_MANY_REQUESTS, "RATE_LIMITED").await;
}
