//! Load generator: many games played at once through the HTTP API.
//!
//! Each connection plays its own local game (one player in both seats, so
//! no computer thinking is measured), random legal moves until the game
//! ends, then starts another. Prints moves per second and latency
//! percentiles, and the same for `GET /healthz` as the ceiling.
//!
//! ```text
//! cargo run --release --example loadgen -- --url http://127.0.0.1:8080 --connections 16 --seconds 10
//! ```
//! `scripts/loadtest.sh` starts a release server on a fresh database and runs
//! the whole set. `--url` may list several servers, comma-separated: each
//! request then goes to the next one, as a load balancer without sticky
//! sessions would send them.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Args {
    url: String,
    connections: usize,
    seconds: u64,
    size: u8,
}

fn parse_args() -> Args {
    let mut args = Args {
        url: "http://127.0.0.1:8080".into(),
        connections: 16,
        seconds: 10,
        size: 15,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--url" => args.url = value,
            "--connections" => args.connections = value.parse().expect("a number of connections"),
            "--seconds" => args.seconds = value.parse().expect("a number of seconds"),
            "--size" => args.size = value.parse().expect("a board size"),
            other => panic!("unknown flag {other}: use --url, --connections, --seconds, --size"),
        }
    }
    args
}

/// A tiny xorshift, so runs need no extra crates.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[derive(Default)]
struct Tally {
    latencies: Vec<Duration>,
    errors: usize,
    games: usize,
}

/// The servers, each request to the next (as a load balancer without
/// sticky sessions would).
#[derive(Clone)]
struct Servers {
    urls: std::sync::Arc<Vec<String>>,
    next: usize,
}

impl Servers {
    fn new(list: &str, start: usize) -> Servers {
        Servers {
            urls: std::sync::Arc::new(list.split(',').map(str::to_string).collect()),
            next: start,
        }
    }

    fn next(&mut self) -> &str {
        self.next = (self.next + 1) % self.urls.len();
        &self.urls[self.next]
    }
}

async fn play_games(
    client: reqwest::Client,
    mut servers: Servers,
    size: u8,
    until: Instant,
    seed: u64,
) -> Tally {
    let mut tally = Tally::default();
    let mut rng = Rng(seed | 1);
    let player: Value = client
        .post(format!("{}/v1/players", servers.next()))
        .json(&json!({"name": format!("load {seed}")}))
        .send()
        .await
        .expect("create a player")
        .json()
        .await
        .unwrap();
    let token = player["token"].as_str().unwrap().to_string();
    while Instant::now() < until {
        let created: Value = client
            .post(format!("{}/v1/games", servers.next()))
            .bearer_auth(&token)
            .json(&json!({"rules": "freestyle", "board_size": size, "black": "me", "white": "me"}))
            .send()
            .await
            .expect("create a game")
            .json()
            .await
            .unwrap();
        let game = created["game"]["id"].as_str().unwrap().to_string();
        tally.games += 1;
        let mut empty: Vec<(u8, u8)> = (0..size)
            .flat_map(|y| (0..size).map(move |x| (x, y)))
            .collect();
        while !empty.is_empty() && Instant::now() < until {
            let (x, y) = empty.swap_remove(rng.below(empty.len()));
            let started = Instant::now();
            let response = client
                .post(format!("{}/v1/games/{game}/moves", servers.next()))
                .bearer_auth(&token)
                .json(&json!({"x": x, "y": y}))
                .send()
                .await;
            let Ok(response) = response else {
                tally.errors += 1;
                continue;
            };
            let ok = response.status().is_success();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            tally.latencies.push(started.elapsed());
            if !ok {
                tally.errors += 1;
                break;
            }
            if body["game"]["status"] == "finished" {
                break;
            }
        }
    }
    tally
}

async fn hit_health(client: reqwest::Client, mut servers: Servers, until: Instant) -> Tally {
    let mut tally = Tally::default();
    while Instant::now() < until {
        let started = Instant::now();
        match client
            .get(format!("{}/healthz", servers.next()))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => {
                let _ = r.bytes().await;
                tally.latencies.push(started.elapsed());
            }
            _ => tally.errors += 1,
        }
    }
    tally
}

/// Prints a phase's figures; returns its rate per second.
fn report(what: &str, connections: usize, seconds: f64, tallies: Vec<Tally>) -> f64 {
    let mut latencies: Vec<Duration> = tallies
        .iter()
        .flat_map(|t| t.latencies.iter().copied())
        .collect();
    let errors: usize = tallies.iter().map(|t| t.errors).sum();
    let games: usize = tallies.iter().map(|t| t.games).sum();
    latencies.sort();
    let pick = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
    };
    println!(
        "{what:<8} connections={connections:<3} requests={:<7} rate={:>8.0}/s p50={:.2}ms p99={:.2}ms errors={errors}{}",
        latencies.len(),
        latencies.len() as f64 / seconds,
        pick(0.50),
        pick(0.99),
        if games > 0 {
            format!(" games={games}")
        } else {
            String::new()
        },
    );
    latencies.len() as f64 / seconds
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(args.connections)
        .build()
        .unwrap();
    let duration = Duration::from_secs(args.seconds);

    let until = Instant::now() + duration;
    let workers: Vec<_> = (0..args.connections)
        .map(|i| {
            tokio::spawn(play_games(
                client.clone(),
                Servers::new(&args.url, i),
                args.size,
                until,
                0x9E37 * (i as u64 + 1),
            ))
        })
        .collect();
    let mut tallies = Vec::new();
    for w in workers {
        tallies.push(w.await.unwrap());
    }
    let moves = report("moves", args.connections, duration.as_secs_f64(), tallies);

    let until = Instant::now() + duration;
    let workers: Vec<_> = (0..args.connections)
        .map(|i| {
            tokio::spawn(hit_health(
                client.clone(),
                Servers::new(&args.url, i),
                until,
            ))
        })
        .collect();
    let mut tallies = Vec::new();
    for w in workers {
        tallies.push(w.await.unwrap());
    }
    let health = report("healthz", args.connections, duration.as_secs_f64(), tallies);
    println!(
        "ratio    connections={:<3} moves/healthz={:.3}",
        args.connections,
        moves / health
    );
}
