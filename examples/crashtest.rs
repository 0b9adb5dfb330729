//! Crash test: moves played under load while the server is killed with
//! SIGKILL, again and again; after each restart every acknowledged move
//! must be stored, and nothing beyond them but the one move each client
//! had in flight when the server died.
//!
//! ```text
//! cargo build --release --bin gobang --example crashtest
//! target/release/examples/crashtest --rounds 5 --connections 16
//! ```
//! `scripts/crashtest.sh` does both. Exits non-zero on any loss.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

struct Args {
    binary: String,
    rounds: usize,
    connections: usize,
    /// The database (a fresh SQLite file when not given).
    database_url: Option<String>,
}

fn parse_args() -> Args {
    let mut args = Args {
        binary: "target/release/gobang".into(),
        rounds: 5,
        connections: 16,
        database_url: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        match flag.as_str() {
            "--binary" => args.binary = value,
            "--rounds" => args.rounds = value.parse().expect("a number of rounds"),
            "--connections" => args.connections = value.parse().expect("a number of connections"),
            "--database-url" => args.database_url = Some(value),
            other => panic!(
                "unknown flag {other}: use --binary, --rounds, --connections, --database-url"
            ),
        }
    }
    args
}

/// A tiny xorshift, so runs need no extra crates.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

const SIZE: u8 = 15;

/// One client's game, as far as the client knows it.
#[derive(Clone, Default)]
struct Player {
    token: String,
    game: String,
    /// The moves the server acknowledged, in order.
    acknowledged: Vec<(u8, u8)>,
    /// The move sent when the server died, if any.
    in_flight: Option<(u8, u8)>,
}

fn start(binary: &str, port: u16, database: &str) -> Child {
    Command::new(binary)
        .args(["serve", "--rate-limits", "off", "--port", &port.to_string()])
        .args(["--database-url", database])
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .spawn()
        .expect("the server starts")
}

async fn wait_until_up(client: &reqwest::Client, url: &str) {
    for _ in 0..100 {
        if client.get(format!("{url}/healthz")).send().await.is_ok() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
}

async fn new_game(client: &reqwest::Client, url: &str, token: &str) -> String {
    let created: Value = client
        .post(format!("{url}/v1/games"))
        .bearer_auth(token)
        .json(&json!({"rules": "freestyle", "board_size": SIZE, "black": "me", "white": "me"}))
        .send()
        .await
        .expect("create a game")
        .json()
        .await
        .expect("a game");
    created["game"]["id"].as_str().expect("an id").to_string()
}

/// Plays random moves until the server stops answering.
async fn play(client: reqwest::Client, url: String, mut player: Player, seed: u64) -> Player {
    let mut rng = Rng(seed | 1);
    loop {
        let taken: std::collections::HashSet<_> = player.acknowledged.iter().copied().collect();
        let empty: Vec<(u8, u8)> = (0..SIZE)
            .flat_map(|y| (0..SIZE).map(move |x| (x, y)))
            .filter(|p| !taken.contains(p))
            .collect();
        let (x, y) = empty[rng.below(empty.len() as u64) as usize];
        player.in_flight = Some((x, y));
        let response = client
            .post(format!("{url}/v1/games/{}/moves", player.game))
            .bearer_auth(&player.token)
            .json(&json!({"x": x, "y": y}))
            .send()
            .await;
        let Ok(response) = response else {
            return player;
        };
        let status = response.status();
        let Ok(body) = response.json::<Value>().await else {
            return player;
        };
        player.in_flight = None;
        let over = body["code"] == "GAME_OVER";
        assert!(status.is_success() || over, "a move was refused: {body}");
        if !over {
            player.acknowledged.push((x, y));
        }
        if over || body["game"]["status"] == "finished" {
            let Ok(created) = client
                .post(format!("{url}/v1/games"))
                .bearer_auth(&player.token)
                .json(&json!({"rules": "freestyle", "board_size": SIZE, "black": "me", "white": "me"}))
                .send()
                .await
            else {
                return player;
            };
            let Ok(created) = created.json::<Value>().await else {
                return player;
            };
            player.game = created["game"]["id"].as_str().unwrap().to_string();
            player.acknowledged.clear();
        }
    }
}

/// Compares what the server stored with what the client was told; fixes
/// the client's view to the stored game. Returns (lost, unacknowledged).
async fn check(client: &reqwest::Client, url: &str, player: &mut Player) -> (usize, usize) {
    let list: Value = client
        .get(format!("{url}/v1/games/{}/moves", player.game))
        .send()
        .await
        .expect("the moves")
        .json()
        .await
        .expect("a move list");
    let stored: Vec<(u8, u8)> = list["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            (
                m["point"]["x"].as_u64().unwrap() as u8,
                m["point"]["y"].as_u64().unwrap() as u8,
            )
        })
        .collect();
    let known = player.acknowledged.len();
    let lost = if stored.len() >= known && stored[..known] == player.acknowledged[..] {
        0
    } else {
        eprintln!(
            "game {}: told of {:?}, stored {:?}",
            player.game, player.acknowledged, stored
        );
        known
    };
    let extra = stored.len().saturating_sub(known);
    let unacknowledged = match (extra, player.in_flight) {
        (0, _) => 0,
        (1, Some(p)) if stored[known] == p => 1,
        _ => {
            eprintln!(
                "game {}: {extra} stored moves nobody was told of beyond the one in flight {:?}",
                player.game, player.in_flight
            );
            usize::MAX
        }
    };
    player.acknowledged = stored;
    player.in_flight = None;
    (lost, unacknowledged)
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let dir = std::env::temp_dir().join(format!("gobang-crashtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let database = args
        .database_url
        .clone()
        .unwrap_or_else(|| format!("sqlite:{}", dir.join("gobang.db").display()));
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{port}");
    let client = reqwest::Client::new();
    let mut rng = Rng(0x5eed_1234);

    let mut server = start(&args.binary, port, &database);
    wait_until_up(&client, &url).await;
    let mut players = Vec::new();
    for i in 0..args.connections {
        let created: Value = client
            .post(format!("{url}/v1/players"))
            .json(&json!({"name": format!("crash {i}")}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let token = created["token"].as_str().unwrap().to_string();
        let game = new_game(&client, &url, &token).await;
        players.push(Player {
            token,
            game,
            ..Player::default()
        });
    }

    let (mut total_acknowledged, mut total_lost, mut total_in_flight_kept) = (0, 0, 0);
    let mut failed = false;
    for round in 1..=args.rounds {
        let workers: Vec<_> = players
            .drain(..)
            .enumerate()
            .map(|(i, p)| {
                tokio::spawn(play(
                    client.clone(),
                    url.clone(),
                    p,
                    rng.below(u64::MAX) ^ i as u64,
                ))
            })
            .collect();
        let run_for = Duration::from_millis(500 + rng.below(1500));
        let started = Instant::now();
        tokio::time::sleep(run_for).await;
        server.kill().expect("SIGKILL");
        server.wait().unwrap();
        for worker in workers {
            players.push(worker.await.unwrap());
        }
        server = start(&args.binary, port, &database);
        wait_until_up(&client, &url).await;
        let (mut lost, mut kept, mut acknowledged) = (0, 0, 0);
        for player in &mut players {
            acknowledged += player.acknowledged.len();
            let (l, u) = check(&client, &url, player).await;
            if u == usize::MAX {
                failed = true;
            } else {
                kept += u;
            }
            lost += l;
        }
        println!(
            "round {round}: killed after {:.1} s; {acknowledged} acknowledged moves on the boards, {lost} lost, {kept} of {} in-flight moves stored",
            started.elapsed().as_secs_f64(),
            args.connections
        );
        total_acknowledged += acknowledged;
        total_lost += lost;
        total_in_flight_kept += kept;
    }
    server.kill().ok();
    server.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
    println!(
        "{} rounds: {total_acknowledged} acknowledged moves checked, {total_lost} lost, {total_in_flight_kept} in-flight moves stored (allowed), {}",
        args.rounds,
        if failed || total_lost > 0 {
            "FAILED"
        } else {
            "ok"
        }
    );
    if failed || total_lost > 0 {
        std::process::exit(1);
    }
}
