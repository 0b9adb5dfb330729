//! Quick-pairing benchmark: a pool of waiting seekers, then as many new
//! seekers arriving at once, each paired with one of them.
//!
//! The pool's seekers all want black, so they never pair with each other;
//! each arrival wants white and is paired with one of them. Reports pairings
//! per second with the pool full, and the delay from an arrival's request to
//! (a) its own answer (paired) and (b) the waiting partner's long poll
//! (`GET /v1/seeks/{id}?wait=30`) answering with the game.
//!
//! ```text
//! cargo run --release --example seekbench -- --url http://127.0.0.1:8080 --waiting 1000 --connections 16
//! ```
//! `scripts/seekbench.sh` starts a release server on a fresh database and
//! runs it.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::Mutex;

struct Args {
    url: String,
    waiting: usize,
    connections: usize,
    /// Waiting seekers whose long poll is timed.
    followed: usize,
}

fn parse_args() -> Args {
    let mut args = Args {
        url: "http://127.0.0.1:8080".into(),
        waiting: 1000,
        connections: 16,
        followed: 200,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || {
            value
                .parse::<usize>()
                .unwrap_or_else(|_| panic!("{flag} takes a number"))
        };
        match flag.as_str() {
            "--url" => args.url = value.clone(),
            "--waiting" => args.waiting = number(),
            "--connections" => args.connections = number(),
            "--followed" => args.followed = number(),
            other => {
                panic!("unknown flag {other}: use --url, --waiting, --connections, --followed")
            }
        }
    }
    args
}

async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    let body: Value = response.json().await.expect("a JSON answer");
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// Players, `connections` at a time; their tokens.
async fn players(client: &reqwest::Client, url: &str, n: usize, prefix: &str) -> Vec<String> {
    let mut tokens = Vec::with_capacity(n);
    for chunk in (0..n).collect::<Vec<_>>().chunks(64) {
        let made = futures_util::future::join_all(chunk.iter().map(|i| {
            post(
                client,
                format!("{url}/v1/players"),
                None,
                json!({"name": format!("{prefix} {i}")}),
            )
        }))
        .await;
        tokens.extend(
            made.into_iter()
                .map(|p| p["token"].as_str().unwrap().to_string()),
        );
    }
    tokens
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

fn summary(name: &str, mut ms: Vec<f64>) {
    ms.sort_by(f64::total_cmp);
    println!(
        "{name}: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms ({} samples)",
        percentile(&ms, 0.5),
        percentile(&ms, 0.99),
        ms.last().copied().unwrap_or(0.0),
        ms.len()
    );
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.connections + args.followed)
        .build()
        .unwrap();
    let url = args.url.clone();
    let settings = json!({"rules": "freestyle", "board_size": 15});
    let wanting = |colour: &str| {
        let mut body = settings.clone();
        body["colour"] = json!(colour);
        body
    };
    let (black, white) = (wanting("black"), wanting("white"));

    let pool = players(&client, &url, args.waiting, "waiting").await;
    let arrivals = players(&client, &url, args.waiting, "arriving").await;
    // The pool fills: every seek waits (they all want black).
    let started = Instant::now();
    let mut seeks = Vec::new();
    for chunk in pool.chunks(64) {
        let made = futures_util::future::join_all(chunk.iter().map(|token| {
            post(
                &client,
                format!("{url}/v1/seeks"),
                Some(token),
                black.clone(),
            )
        }))
        .await;
        for (token, seek) in chunk.iter().zip(made) {
            assert_eq!(seek["status"], "waiting");
            seeks.push((token.clone(), seek["id"].as_str().unwrap().to_string()));
        }
    }
    println!(
        "{} seeks waiting after {:.2} s",
        seeks.len(),
        started.elapsed().as_secs_f64()
    );

    // Some of the waiting seekers long-poll their seek; when each hears of
    // its game is noted by game id.
    let heard: Arc<Mutex<HashMap<String, Instant>>> = Arc::default();
    let followers: Vec<_> = seeks
        .iter()
        .take(args.followed)
        .map(|(token, id)| {
            let (client, url, token, id, heard) = (
                client.clone(),
                url.clone(),
                token.clone(),
                id.clone(),
                heard.clone(),
            );
            tokio::spawn(async move {
                loop {
                    let seek: Value = client
                        .get(format!("{url}/v1/seeks/{id}?wait=30"))
                        .bearer_auth(&token)
                        .send()
                        .await
                        .expect("the server answers")
                        .json()
                        .await
                        .unwrap();
                    if seek["status"] == "paired" {
                        let game = seek["game_id"].as_str().unwrap().to_string();
                        heard.lock().await.insert(game, Instant::now());
                        return;
                    }
                    assert_eq!(seek["status"], "waiting", "{seek}");
                }
            })
        })
        .collect();
    // The long polls are in place.
    tokio::time::sleep(Duration::from_millis(500)).await;

    // Arrivals, `connections` at once, each paired with a waiting seeker.
    let queue = Arc::new(Mutex::new(arrivals));
    let started = Instant::now();
    let workers: Vec<_> = (0..args.connections)
        .map(|_| {
            let (client, url, queue, white) =
                (client.clone(), url.clone(), queue.clone(), white.clone());
            tokio::spawn(async move {
                let mut answered = Vec::new();
                loop {
                    let Some(token) = queue.lock().await.pop() else {
                        return answered;
                    };
                    let sent = Instant::now();
                    let seek = post(
                        &client,
                        format!("{url}/v1/seeks"),
                        Some(&token),
                        white.clone(),
                    )
                    .await;
                    assert_eq!(seek["status"], "paired", "{seek}");
                    let game = seek["game_id"].as_str().unwrap().to_string();
                    answered.push((game, sent, Instant::now()));
                }
            })
        })
        .collect();
    let mut answered = Vec::new();
    for worker in workers {
        answered.extend(worker.await.unwrap());
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{} pairings in {:.2} s: {:.0} pairings/s ({} connections, pool of {} at the start)",
        answered.len(),
        elapsed,
        answered.len() as f64 / elapsed,
        args.connections,
        args.waiting
    );
    for follower in followers {
        follower.await.unwrap();
    }
    let heard = heard.lock().await;
    let mut own = Vec::new();
    let mut partner = Vec::new();
    for (game, sent, received) in &answered {
        own.push((*received - *sent).as_secs_f64() * 1000.0);
        if let Some(at) = heard.get(game) {
            partner.push((*at - *sent).as_secs_f64() * 1000.0);
        }
    }
    summary("from the second seek to its answer (paired)", own);
    summary(
        "from the second seek to the waiting seeker's long poll answering",
        partner,
    );
}
