//! A stopping server (SIGTERM, as a deploy sends) lets its followers go so
//! that they reconnect, answers what is under way, and loses nothing.

use std::process::Command;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{fresh_database, serve, until_up};

#[tokio::test]
async fn on_sigterm_streams_are_told_to_reconnect_and_nothing_is_lost() {
    let dir = tempfile::tempdir().unwrap();
    let database = fresh_database(dir.path(), "gobang.db").await;
    let (mut server, url) = serve(&database);
    let client = reqwest::Client::new();
    until_up(&client, &url).await;
    let player: Value = client
        .post(format!("{url}/v1/players"))
        .json(&json!({"name": "Ada"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let token = player["token"].as_str().unwrap().to_string();
    let created: Value = client
        .post(format!("{url}/v1/games"))
        .bearer_auth(&token)
        .json(&json!({"black": "me", "white": "me"}))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let game = created["game"]["id"].as_str().unwrap().to_string();
    let played = client
        .post(format!("{url}/v1/games/{game}/moves"))
        .bearer_auth(&token)
        .json(&json!({"at": "h8"}))
        .send()
        .await
        .unwrap();
    assert_eq!(played.status(), StatusCode::OK);

    // A follower and a long poll, both waiting.
    let mut stream = client
        .get(format!("{url}/v1/games/{game}/events"))
        .send()
        .await
        .unwrap();
    let first = stream.chunk().await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&first).contains("id: 2"));
    let poll = tokio::spawn({
        let (client, url, game) = (client.clone(), url.clone(), game.clone());
        async move {
            client
                .get(format!(
                    "{url}/v1/games/{game}?wait_for_version=2&timeout=30"
                ))
                .send()
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(200)).await;

    let stopping = Instant::now();
    let killed = Command::new("kill")
        .args(["-TERM", &server.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    // The stream ends at once, its last frame telling the client to reconnect.
    let mut rest = Vec::new();
    while let Some(chunk) = tokio::time::timeout(Duration::from_secs(5), stream.chunk())
        .await
        .expect("the stream ends well before the forced stop")
        .unwrap()
    {
        rest.extend_from_slice(&chunk);
    }
    let rest = String::from_utf8_lossy(&rest);
    assert!(rest.contains("retry: 1000"), "{rest}");
    // The long poll is answered with the game as it is, not cut.
    let answered = tokio::time::timeout(Duration::from_secs(5), poll)
        .await
        .expect("the long poll is answered")
        .unwrap()
        .unwrap();
    assert_eq!(answered.status(), StatusCode::OK);
    let state: Value = answered.json().await.unwrap();
    assert_eq!(state["version"], 2);
    // And the process is gone, cleanly, long before its 10 s grace.
    let status = loop {
        if let Some(status) = server.try_wait().unwrap() {
            break status;
        }
        assert!(stopping.elapsed() < Duration::from_secs(5), "still running");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(status.success(), "{status}");

    // Started again on the same database: the move is there.
    let (mut again, url) = serve(&database);
    until_up(&client, &url).await;
    let read: Value = client
        .get(format!("{url}/v1/games/{game}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(read["ply"], 1, "{read}");
    let _ = again.kill();
    let _ = again.wait();
}
