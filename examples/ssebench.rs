//! Live-update benchmark: many server-sent-event listeners spread over many
//! online games while the games are played.
//!
//! For every move it notes when the mover got the response, and for every
//! listener when the event carrying that move's version arrived; the delay
//! is the difference (negative when the event beat the response). With
//! `--server-pid` it also samples the server's resident memory: before the
//! listeners connect, with them connected, and the peak while moves flow.
//!
//! ```text
//! cargo run --release --example ssebench -- --url http://127.0.0.1:8080 --games 100 --listeners 10
//! ```
//! `scripts/ssebench.sh` starts a release server on a fresh database and
//! runs it with 1,000 listeners over 100 games.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tokio::sync::mpsc;

struct Args {
    url: String,
    /// Where the listeners connect (another instance than the one the
    /// moves go to, to measure the delay across instances).
    follow_url: Option<String>,
    games: usize,
    listeners: usize,
    moves: usize,
    interval_ms: u64,
    server_pid: Option<u32>,
}

fn parse_args() -> Args {
    let mut args = Args {
        url: "http://127.0.0.1:8080".into(),
        follow_url: None,
        games: 100,
        listeners: 10,
        moves: 30,
        interval_ms: 500,
        server_pid: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().unwrap_or_else(|| panic!("{flag} needs a value"));
        let number = || {
            value
                .parse::<u64>()
                .unwrap_or_else(|_| panic!("{flag} takes a number"))
        };
        match flag.as_str() {
            "--url" => args.url = value.clone(),
            "--follow-url" => args.follow_url = Some(value.clone()),
            "--games" => args.games = number() as usize,
            "--listeners" => args.listeners = number() as usize,
            "--moves" => args.moves = number() as usize,
            "--interval-ms" => args.interval_ms = number(),
            "--server-pid" => args.server_pid = Some(number() as u32),
            other => panic!(
                "unknown flag {other}: use --url, --follow-url, --games, --listeners (per game), --moves (per game), --interval-ms, --server-pid"
            ),
        }
    }
    args
}

/// Resident memory of a process, in MiB, from /proc.
fn rss_mib(pid: Option<u32>) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", pid?)).ok()?;
    let kib: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

async fn post(client: &reqwest::Client, url: String, token: Option<&str>, body: Value) -> Value {
    let mut request = client.post(url).json(&body);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.expect("the server answers");
    let status = response.status();
    let body: Value = response.json().await.unwrap_or(Value::Null);
    assert!(status.is_success(), "{status}: {body}");
    body
}

/// One arrival: (game, version, when).
type Arrival = (usize, i64, Instant);

/// Follows one game's event stream, reporting each state's arrival.
async fn listen(
    client: reqwest::Client,
    url: String,
    game: usize,
    arrivals: mpsc::UnboundedSender<Arrival>,
    connected: Arc<AtomicUsize>,
) {
    let mut response = client.get(url).send().await.expect("the stream opens");
    assert!(response.status().is_success());
    // Bytes: a chunk may end inside a character that the next completes.
    let mut buffer: Vec<u8> = Vec::new();
    let mut first = true;
    while let Ok(Some(chunk)) = response.chunk().await {
        let now = Instant::now();
        buffer.extend_from_slice(&chunk);
        while let Some(end) = buffer.windows(2).position(|w| w == b"\n\n") {
            let bytes: Vec<u8> = buffer.drain(..end + 2).collect();
            let frame = String::from_utf8_lossy(&bytes);
            let Some(version) = frame
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .and_then(|v| v.trim().parse::<i64>().ok())
            else {
                continue;
            };
            if first {
                first = false;
                connected.fetch_add(1, Ordering::SeqCst);
            }
            if arrivals.send((game, version, now)).is_err() {
                return;
            }
        }
    }
}

/// Plays random moves in one game, alternating the two tokens; returns
/// (version, request sent, response received) per move.
async fn play(
    client: reqwest::Client,
    url: String,
    tokens: [String; 2],
    moves: usize,
    interval: Duration,
    seed: u64,
) -> Vec<(i64, Instant, Instant)> {
    let mut rng = seed | 1;
    let mut next = move |n: usize| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        (rng % n as u64) as usize
    };
    // Spread the games over the interval.
    tokio::time::sleep(interval.mul_f64(next(1000) as f64 / 1000.0)).await;
    let mut empty: Vec<(u8, u8)> = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| (x, y)))
        .collect();
    let mut played = Vec::new();
    for ply in 0..moves {
        let (x, y) = empty.swap_remove(next(empty.len()));
        let sent = Instant::now();
        let body = post(
            &client,
            format!("{url}/moves"),
            Some(&tokens[ply % 2]),
            json!({"x": x, "y": y}),
        )
        .await;
        let received = Instant::now();
        played.push((body["game"]["version"].as_i64().unwrap(), sent, received));
        if body["game"]["status"] == "finished" {
            break;
        }
        tokio::time::sleep(interval).await;
    }
    played
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    sorted[((sorted.len() as f64 * q) as usize).min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() {
    let args = parse_args();
    let client = reqwest::Client::new();
    let base = args.url.clone();
    let follow = args.follow_url.clone().unwrap_or_else(|| base.clone());
    let alice = post(
        &client,
        format!("{base}/v1/players"),
        None,
        json!({"name": "Alice"}),
    )
    .await;
    let bob = post(
        &client,
        format!("{base}/v1/players"),
        None,
        json!({"name": "Bob"}),
    )
    .await;
    let tokens = [
        alice["token"].as_str().unwrap().to_string(),
        bob["token"].as_str().unwrap().to_string(),
    ];
    let mut games = Vec::new();
    for _ in 0..args.games {
        let created = post(
            &client,
            format!("{base}/v1/games"),
            Some(&tokens[0]),
            json!({"black": "me", "white": {"player_id": bob["id"]}}),
        )
        .await;
        let id = created["game"]["id"].as_str().unwrap().to_string();
        post(
            &client,
            format!("{base}/v1/games/{id}/accept"),
            Some(&tokens[1]),
            json!({}),
        )
        .await;
        games.push(id);
    }
    let rss_before = rss_mib(args.server_pid);

    let (sender, mut receiver) = mpsc::unbounded_channel();
    let connected = Arc::new(AtomicUsize::new(0));
    let total = args.games * args.listeners;
    let listeners: Vec<_> = (0..total)
        .map(|i| {
            let game = i % args.games;
            tokio::spawn(listen(
                client.clone(),
                format!("{follow}/v1/games/{}/events", games[game]),
                game,
                sender.clone(),
                connected.clone(),
            ))
        })
        .collect();
    drop(sender);
    let opened = Instant::now();
    while connected.load(Ordering::SeqCst) < total {
        assert!(
            opened.elapsed() < Duration::from_secs(60),
            "listeners did not connect"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    println!(
        "{total} listeners on {} games connected in {:.2} s",
        args.games,
        opened.elapsed().as_secs_f64()
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_listening = rss_mib(args.server_pid);

    let started = Instant::now();
    let movers: Vec<_> = games
        .iter()
        .enumerate()
        .map(|(i, id)| {
            tokio::spawn(play(
                client.clone(),
                format!("{base}/v1/games/{id}"),
                tokens.clone(),
                args.moves,
                Duration::from_millis(args.interval_ms),
                0x9E37_79B9 * (i as u64 + 1),
            ))
        })
        .collect();
    let sampling = Arc::new(AtomicBool::new(true));
    let sampler = {
        let sampling = sampling.clone();
        let pid = args.server_pid;
        tokio::spawn(async move {
            let mut peak: Option<f64> = None;
            while sampling.load(Ordering::SeqCst) {
                if let Some(rss) = rss_mib(pid) {
                    peak = Some(peak.map_or(rss, |p| p.max(rss)));
                }
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            peak
        })
    };
    let mut played: Vec<Vec<(i64, Instant, Instant)>> = Vec::new();
    for mover in movers {
        played.push(mover.await.expect("a mover finishes"));
    }
    sampling.store(false, Ordering::SeqCst);
    let rss_peak = sampler.await.unwrap();
    let elapsed = started.elapsed();
    tokio::time::sleep(Duration::from_secs(1)).await;
    for listener in &listeners {
        listener.abort();
    }
    let mut arrivals: HashMap<(usize, i64), Vec<Instant>> = HashMap::new();
    while let Ok((game, version, at)) = receiver.try_recv() {
        arrivals.entry((game, version)).or_default().push(at);
    }

    let mut after_response = Vec::new();
    let mut after_request = Vec::new();
    // Per move: until the last of its listeners had it.
    let mut all_reached = Vec::new();
    let mut missing = 0;
    let moves: usize = played.iter().map(Vec::len).sum();
    for (game, moves) in played.iter().enumerate() {
        for &(version, sent, received) in moves {
            let got = arrivals
                .get(&(game, version))
                .map_or(&[][..], Vec::as_slice);
            missing += args.listeners.saturating_sub(got.len());
            if let Some(&last) = got.iter().max() {
                all_reached.push(if last >= received {
                    (last - received).as_secs_f64() * 1000.0
                } else {
                    -((received - last).as_secs_f64() * 1000.0)
                });
            }
            for &at in got {
                let ms = |a: Instant, b: Instant| {
                    if a >= b {
                        (a - b).as_secs_f64() * 1000.0
                    } else {
                        -((b - a).as_secs_f64() * 1000.0)
                    }
                };
                after_response.push(ms(at, received));
                after_request.push(ms(at, sent));
            }
        }
    }
    after_response.sort_by(f64::total_cmp);
    after_request.sort_by(f64::total_cmp);
    all_reached.sort_by(f64::total_cmp);
    println!(
        "{moves} moves in {:.1} s ({:.0} moves/s), {} events delivered ({:.0}/s), {missing} missing",
        elapsed.as_secs_f64(),
        moves as f64 / elapsed.as_secs_f64(),
        after_response.len(),
        after_response.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "delay from the move's response to the event: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms (min {:.2} ms)",
        percentile(&after_response, 0.5),
        percentile(&after_response, 0.99),
        after_response.last().unwrap(),
        after_response[0],
    );
    println!(
        "delay from the move's response until every listener had it: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&all_reached, 0.5),
        percentile(&all_reached, 0.99),
        all_reached.last().unwrap(),
    );
    println!(
        "delay from the move's request to the event:  p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        percentile(&after_request, 0.5),
        percentile(&after_request, 0.99),
        after_request.last().unwrap(),
    );
    if let (Some(before), Some(listening), Some(peak)) = (rss_before, rss_listening, rss_peak) {
        println!(
            "server memory (RSS): {before:.1} MiB before the listeners, {listening:.1} MiB with {total} connected, {peak:.1} MiB peak while playing"
        );
    }
}
