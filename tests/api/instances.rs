//! Several gobang processes on one PostgreSQL database, as behind a load
//! balancer: any request may go to any of them, and nothing is lost, done
//! twice or seen out of order. Skipped (with one line) unless
//! `GOBANG_TEST_POSTGRES_URL` names a PostgreSQL server.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::database::{fresh_postgres_database, postgres_url};
use crate::helpers::{TestApp, serve_app};
use crate::live::EventReader;

/// `n` server processes on one fresh PostgreSQL database, or `None` (the
/// test is skipped) without a PostgreSQL server.
async fn instances(n: usize) -> Option<Vec<TestApp>> {
    if postgres_url().is_none() {
        eprintln!("skipped: several instances need PostgreSQL; set GOBANG_TEST_POSTGRES_URL");
        return None;
    }
    let database = fresh_postgres_database().await;
    let mut servers = Vec::new();
    for _ in 0..n {
        servers.push(serve_app(&database).await);
    }
    Some(servers)
}

/// Score, wins, losses, draws, abandoned, games.
async fn record(app: &TestApp, id: &str) -> [i64; 6] {
    let p = app.player_stats(id).await;
    ["score", "wins", "losses", "draws", "abandoned", "games"].map(|k| p[k].as_i64().unwrap())
}

/// Alice (black) on `a` invites Bob, who accepts on `b`: the game's id and
/// (alice id, alice token, bob id, bob token).
async fn online_game(
    a: &TestApp,
    b: &TestApp,
    extra: Value,
) -> (String, (String, String, String, String)) {
    let (alice_id, alice) = a.player("Alice").await;
    let (bob_id, bob) = b.player("Bob").await;
    let mut body = extra;
    body["black"] = json!("me");
    body["white"] = json!({ "player_id": bob_id });
    let created = a.create_game(Some(&alice), body).await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    let accepted = b
        .post(&format!("/v1/games/{game}/accept"), Some(&bob), None)
        .await;
    assert_eq!(accepted.status(), StatusCode::OK);
    (game, (alice_id, alice, bob_id, bob))
}

#[tokio::test]
async fn a_follower_on_a_third_instance_sees_every_state_of_a_game_played_on_two() {
    let Some(servers) = instances(3).await else {
        return;
    };
    let [a, b, c] = &servers[..] else {
        unreachable!()
    };
    let (game, (_, alice, _, bob)) = online_game(a, b, json!({})).await;
    let mut follower = EventReader::open(c, &game, None).await;
    let (first, state) = follower.next().await;
    assert_eq!(first, 2, "created on one instance, accepted on another");
    assert_eq!(state["status"], "in_progress");
    let moves = ["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    for (n, at) in moves.iter().enumerate() {
        // Alice plays through one instance, Bob through the other.
        let (server, token) = if n % 2 == 0 { (a, &alice) } else { (b, &bob) };
        server.play_ok(&game, token, at).await;
    }
    let mut seen = 0;
    for (n, at) in moves.iter().enumerate() {
        let (version, state) = follower.next().await;
        assert_eq!(version, first + 1 + n as i64, "no gaps, in order");
        assert_eq!(state["ply"], n + 1);
        assert_eq!(state["last_move"]["name"], *at);
        seen = version;
        if n == 3 {
            // The follower goes away for a while...
            break;
        }
    }
    drop(follower);
    // ...and comes back through another instance, which has never had a
    // follower of this game: what it missed comes from the store.
    let mut follower = EventReader::open(a, &game, Some(seen)).await;
    for (n, at) in moves.iter().enumerate().skip(4) {
        let (version, state) = follower.next().await;
        assert_eq!(version, first + 1 + n as i64, "resumed without a gap");
        assert_eq!(state["last_move"]["name"], *at);
    }
    for server in &servers {
        assert_eq!(server.game(&game).await["result"]["winner"], "black");
    }
}

#[tokio::test]
async fn of_sixteen_racing_moves_for_one_ply_spread_over_two_instances_one_is_played() {
    let Some(servers) = instances(2).await else {
        return;
    };
    let [a, b] = &servers[..] else { unreachable!() };
    let (game, (_, alice, _, bob)) = online_game(a, b, json!({})).await;
    // Both instances have the game in their caches.
    a.game(&game).await;
    b.game(&game).await;
    let points = [
        "a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8", "j10", "k11", "l12", "m13", "n14", "o15",
        "a15", "o1",
    ];
    let racing = points.iter().enumerate().map(|(n, at)| {
        let server = if n % 2 == 0 { a } else { b };
        let (game, alice) = (&game, &alice);
        async move { (server.play(game, alice, at).await.status(), *at) }
    });
    let outcomes = futures_util::future::join_all(racing).await;
    let played: Vec<&str> = outcomes
        .iter()
        .filter(|(status, _)| *status == StatusCode::OK)
        .map(|(_, at)| *at)
        .collect();
    assert_eq!(played.len(), 1, "{outcomes:?}");
    for (status, _) in &outcomes {
        assert!(
            *status == StatusCode::OK || *status == StatusCode::CONFLICT,
            "{outcomes:?}"
        );
    }
    for server in &servers {
        let state = server.game(&game).await;
        assert_eq!(state["ply"], 1);
        assert_eq!(state["last_move"]["name"], played[0]);
        assert_eq!(state["version"], 3);
        assert_eq!(state["to_move"], "white");
    }
    // The game goes on through either instance.
    b.play_ok(&game, &bob, "h9").await;
    let state = a.play_ok(&game, &alice, "j9").await;
    assert_eq!(state["game"]["ply"], 3);
}

#[tokio::test]
async fn a_clock_that_runs_out_ends_the_game_once_and_every_instance_s_followers_are_told() {
    let Some(servers) = instances(2).await else {
        return;
    };
    let [a, b] = &servers[..] else { unreachable!() };
    let (game, (alice_id, alice, bob_id, _)) =
        online_game(a, b, json!({"clock": {"main_ms": 1500, "floor_ms": 1000}})).await;
    let version = a.game(&game).await["version"].as_i64().unwrap();
    let mut on_a = EventReader::open(a, &game, Some(version)).await;
    let mut on_b = EventReader::open(b, &game, Some(version)).await;
    a.play_ok(&game, &alice, "h8").await;
    for follower in [&mut on_a, &mut on_b] {
        let (moved, state) = follower.next().await;
        assert_eq!((moved, state["ply"].as_i64()), (version + 1, Some(1)));
        // White never moves; both instances watch the clock; one ends it.
        let (ended, state) = follower.next().await;
        assert_eq!(ended, version + 2, "one end, one version");
        assert_eq!(state["status"], "finished");
        assert_eq!(state["result"]["reason"], "timeout");
        assert_eq!(state["result"]["winner"], "black");
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    for server in &servers {
        assert_eq!(server.game(&game).await["version"], version + 2);
        assert_eq!(record(server, &alice_id).await, [1, 1, 0, 0, 0, 1]);
        assert_eq!(record(server, &bob_id).await, [-1, 0, 1, 0, 0, 1]);
    }
}

#[tokio::test]
async fn a_game_goes_on_through_the_other_instance_when_one_is_killed_and_loses_nothing() {
    let Some(mut servers) = instances(2).await else {
        return;
    };
    let (game, (_, alice, _, bob)) = online_game(&servers[0], &servers[1], json!({})).await;
    let moves = ["h8", "h9", "i8", "i9", "a1", "a2", "b1"];
    for (n, at) in moves[..4].iter().enumerate() {
        let (server, token) = if n % 2 == 0 {
            (&servers[0], &alice)
        } else {
            (&servers[1], &bob)
        };
        server.play_ok(&game, token, at).await;
    }
    // Every move so far was acknowledged; the first instance dies at once.
    servers[0].kill();
    let survivor = &servers[1];
    for (n, at) in moves[4..].iter().enumerate() {
        let token = if n % 2 == 0 { &alice } else { &bob };
        survivor.play_ok(&game, token, at).await;
    }
    let record: Value = survivor
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    let played: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["point"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(played, moves);
    // A new instance started on the same database sees the same.
    let again = serve_app(&survivor.database).await;
    assert_eq!(again.game(&game).await["ply"], moves.len());
}

#[tokio::test]
async fn seekers_on_two_instances_are_paired_and_each_hears_of_it_where_they_wait() {
    let Some(servers) = instances(2).await else {
        return;
    };
    let [a, b] = &servers[..] else { unreachable!() };
    let (_, alice) = a.player("Alice").await;
    let (_, bob) = b.player("Bob").await;
    // Alice follows her games on one instance and seeks there.
    let mut stream = a
        .client
        .get(a.url("/v1/players/me/events"))
        .bearer_auth(&alice)
        .send()
        .await
        .unwrap();
    assert_eq!(stream.status(), StatusCode::OK);
    let seek: Value = a
        .post(
            "/v1/seeks",
            Some(&alice),
            Some(json!({"rules": "standard"})),
        )
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(seek["status"], "waiting");
    let id = seek["id"].as_str().unwrap().to_string();
    let poll = a
        .client
        .get(a.url(&format!("/v1/seeks/{id}?wait=20")))
        .bearer_auth(&alice)
        .send();
    let (polled, paired) = tokio::join!(poll, async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        // Bob seeks on the other instance: one pool.
        b.post("/v1/seeks", Some(&bob), Some(json!({"rules": "standard"})))
            .await
            .json::<Value>()
            .await
            .unwrap()
    });
    assert_eq!(paired["status"], "paired", "{paired}");
    let game = paired["game_id"].as_str().unwrap();
    let polled: Value = polled.unwrap().json().await.unwrap();
    assert_eq!(polled["status"], "paired");
    assert_eq!(polled["game_id"], game);
    // Her stream on her instance carries the game made on the other.
    let mut buffer = String::new();
    while !buffer.contains("event: game") {
        let chunk = tokio::time::timeout(Duration::from_secs(10), stream.chunk())
            .await
            .expect("an event within 10 s")
            .unwrap()
            .unwrap();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
    assert!(buffer.contains(&format!("id: {game}.1")), "{buffer}");
}
