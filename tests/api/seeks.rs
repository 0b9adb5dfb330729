//! Quick pairing through the real server: compatible seeks pair and begin a
//! game, incompatible ones do not, rating ranges are kept, a waiting seeker
//! hears at once, cancelled and expired seeks are left alone, and no seek
//! gets two games however many race.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};
use sqlx::Connection;

use crate::helpers::{TestApp, assert_problem, spawn_app};

async fn seek(app: &TestApp, token: &str, body: Value) -> Value {
    let response = app.post("/v1/seeks", Some(token), Some(body)).await;
    let status = response.status();
    let location = response
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_string());
    let seek: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    assert_eq!(
        location,
        Some(format!("/v1/seeks/{}", seek["id"].as_str().unwrap()))
    );
    seek
}

async fn get_seek(app: &TestApp, token: &str, id: &str, wait: u64) -> Value {
    let response = app
        .client
        .get(app.url(&format!("/v1/seeks/{id}?wait={wait}")))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test]
async fn two_compatible_seeks_are_paired_and_their_game_begins() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let settings =
        json!({"rules": "renju", "opening": "rif", "clock": {"main_ms": 300000}, "rated": true});
    let first = seek(&app, &alice, settings.clone()).await;
    assert_eq!(first["status"], "waiting");
    assert_eq!(first["game_id"], Value::Null);
    assert_eq!(first["rating"], 1500.0);
    let second = seek(&app, &bob, settings).await;
    assert_eq!(second["status"], "paired", "{second}");
    let game_id = second["game_id"].as_str().unwrap();
    let first = get_seek(&app, &alice, first["id"].as_str().unwrap(), 0).await;
    assert_eq!(first["status"], "paired");
    assert_eq!(first["game_id"], game_id);

    let game = app.game(game_id).await;
    assert_eq!(game["status"], "in_progress");
    assert_eq!(game["rules"], "renju");
    assert_eq!(game["rated"], true);
    assert_eq!(game["opening"]["rule"], "rif");
    assert_eq!(game["clock"]["main_ms"], 300000);
    let seated: Vec<&str> = ["black", "white"]
        .iter()
        .map(|c| game["seats"][c]["player_id"].as_str().unwrap())
        .collect();
    assert!(seated.contains(&alice_id.as_str()) && seated.contains(&bob_id.as_str()));
}

#[tokio::test]
async fn different_settings_or_the_same_player_do_not_pair() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (_, bob) = app.player("Bob").await;
    seek(&app, &alice, json!({"rules": "freestyle"})).await;
    // The same player seeking twice waits twice.
    assert_eq!(
        seek(&app, &alice, json!({"rules": "freestyle"})).await["status"],
        "waiting"
    );
    for other in [
        json!({"rules": "renju"}),
        json!({"rules": "freestyle", "board_size": 19}),
        json!({"rules": "freestyle", "rated": true}),
        json!({"rules": "freestyle", "clock": {"main_ms": 60000}}),
        json!({"rules": "freestyle", "opening": "swap2"}),
    ] {
        assert_eq!(
            seek(&app, &bob, other.clone()).await["status"],
            "waiting",
            "{other}"
        );
    }
    // Both wanting black do not pair either.
    let (_, carol) = app.player("Carol").await;
    let (_, dave) = app.player("Dave").await;
    seek(
        &app,
        &carol,
        json!({"rules": "standard", "colour": "black"}),
    )
    .await;
    let d = seek(&app, &dave, json!({"rules": "standard", "colour": "black"})).await;
    assert_eq!(d["status"], "waiting");
    // Asking for white pairs with her, as black.
    let (_, erin) = app.player("Erin").await;
    let e = seek(&app, &erin, json!({"rules": "standard", "colour": "white"})).await;
    assert_eq!(e["status"], "paired");
    let game = app.game(e["game_id"].as_str().unwrap()).await;
    assert_eq!(game["seats"]["white"]["name"], "Erin");
}

#[tokio::test]
async fn rating_ranges_are_kept_both_ways() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (_, bob) = app.player("Bob").await;
    let (_, carol) = app.player("Carol").await;
    // Alice (1500) wants stronger opponents only; Bob (1500) does not fit.
    seek(
        &app,
        &alice,
        json!({"rating_range": {"min": 1600, "max": 3000}}),
    )
    .await;
    assert_eq!(seek(&app, &bob, json!({})).await["status"], "waiting");
    // Carol's range leaves Bob out too... but not Alice? Alice's range
    // leaves Carol (1500) out: nobody pairs.
    let c = seek(
        &app,
        &carol,
        json!({"rating_range": {"min": 1000, "max": 1400}}),
    )
    .await;
    assert_eq!(c["status"], "waiting");
    assert_eq!(c["rating_range"], json!({"min": 1000.0, "max": 1400.0}));
    // A fourth with no range pairs with the one that accepts them: Bob.
    let (_, dave) = app.player("Dave").await;
    let d = seek(&app, &dave, json!({})).await;
    assert_eq!(d["status"], "paired");
    let game = app.game(d["game_id"].as_str().unwrap()).await;
    let names: Vec<&str> = ["black", "white"]
        .iter()
        .map(|c| game["seats"][c]["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"Bob") && names.contains(&"Dave"),
        "{names:?}"
    );
    assert_problem(
        app.post(
            "/v1/seeks",
            Some(&dave),
            Some(json!({"rating_range": {"min": 1800, "max": 1200}})),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
}

#[tokio::test]
async fn a_waiting_seeker_hears_of_the_pairing_at_once_and_a_cancelled_seek_is_left_alone() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (_, bob) = app.player("Bob").await;
    let (_, carol) = app.player("Carol").await;
    // Carol seeks and leaves.
    let gone = seek(&app, &carol, json!({"rules": "tictactoe"})).await;
    let cancelled = app
        .client
        .delete(app.url(&format!("/v1/seeks/{}", gone["id"].as_str().unwrap())))
        .bearer_auth(&carol)
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), StatusCode::OK);
    assert_eq!(
        cancelled.json::<Value>().await.unwrap()["status"],
        "cancelled"
    );

    let waiting = seek(&app, &alice, json!({"rules": "tictactoe"})).await;
    assert_eq!(
        waiting["status"], "waiting",
        "not paired with the cancelled seek"
    );
    let id = waiting["id"].as_str().unwrap().to_string();
    let started = Instant::now();
    let (heard, _) = tokio::join!(get_seek(&app, &alice, &id, 20), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        seek(&app, &bob, json!({"rules": "tictactoe"})).await
    });
    assert_eq!(heard["status"], "paired");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "the long poll answered when the pairing was made"
    );
    // Somebody else's seek is not yours to read.
    let response = app
        .client
        .get(app.url(&format!("/v1/seeks/{id}")))
        .bearer_auth(&bob)
        .send()
        .await
        .unwrap();
    assert_problem(response, StatusCode::NOT_FOUND, "NOT_FOUND").await;
}

/// Sets seek `id` as last asked after two minutes ago, in the store.
async fn age(app: &TestApp, id: &str) {
    let sql = "UPDATE seeks SET seen_at = $1 WHERE id = $2";
    let then = chrono::Utc::now() - chrono::TimeDelta::minutes(2);
    if app.database.starts_with("postgres") {
        let mut conn = sqlx::PgConnection::connect(&app.database).await.unwrap();
        sqlx::query(sql)
            .bind(then)
            .bind(id)
            .execute(&mut conn)
            .await
            .unwrap();
    } else {
        let mut conn = sqlx::SqliteConnection::connect(&app.database)
            .await
            .unwrap();
        sqlx::query(sql)
            .bind(then)
            .bind(id)
            .execute(&mut conn)
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn a_seek_nobody_asks_after_expires() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (_, bob) = app.player("Bob").await;
    let left = seek(&app, &alice, json!({"rules": "standard"})).await;
    let id = left["id"].as_str().unwrap();
    age(&app, id).await;
    assert_eq!(get_seek(&app, &alice, id, 0).await["status"], "expired");
    assert_eq!(
        seek(&app, &bob, json!({"rules": "standard"})).await["status"],
        "waiting"
    );
}

#[tokio::test]
async fn of_two_hundred_racing_seekers_none_gets_two_games() {
    let app = spawn_app().await;
    let mut players = Vec::new();
    for n in 0..200 {
        players.push(app.player(&format!("Seeker {n}")).await);
    }
    let app = &app;
    let racing = players.iter().map(|(id, token)| async move {
        let s = seek(app, token, json!({"rules": "freestyle", "board_size": 15})).await;
        (id.clone(), token.clone(), s)
    });
    let seeks = futures_util::future::join_all(racing).await;
    // Every seek as it stands now, by its game.
    let mut by_game: HashMap<String, Vec<String>> = HashMap::new();
    let mut waiting = 0;
    for (player, token, s) in &seeks {
        let now = get_seek(app, token, s["id"].as_str().unwrap(), 0).await;
        match now["status"].as_str().unwrap() {
            "paired" => by_game
                .entry(now["game_id"].as_str().unwrap().to_string())
                .or_default()
                .push(player.clone()),
            "waiting" => waiting += 1,
            other => panic!("seek {now} is {other}"),
        }
    }
    assert!(waiting <= 1, "{waiting} left waiting with partners about");
    assert_eq!(by_game.len() * 2 + waiting, 200);
    for (game, seated) in &by_game {
        assert_eq!(seated.len(), 2, "game {game}: {seated:?}");
        let state = app.game(game).await;
        for colour in ["black", "white"] {
            assert!(
                seated.contains(
                    &state["seats"][colour]["player_id"]
                        .as_str()
                        .unwrap()
                        .to_string()
                )
            );
        }
    }
    // And no player sits in two of them.
    let mut seen = std::collections::HashSet::new();
    for seated in by_game.values() {
        for player in seated {
            assert!(seen.insert(player.clone()), "{player} paired twice");
        }
    }
}

/// Reads `event: game` frames off a player's event stream: (id, data).
pub(crate) struct PlayerStream {
    response: reqwest::Response,
    buffer: Vec<u8>,
}

impl PlayerStream {
    pub(crate) async fn open(app: &TestApp, token: &str) -> PlayerStream {
        PlayerStream::resume(app, token, None).await
    }

    /// With `Last-Event-ID: last_seen`.
    pub(crate) async fn resume(
        app: &TestApp,
        token: &str,
        last_seen: Option<&str>,
    ) -> PlayerStream {
        let mut request = app
            .client
            .get(app.url("/v1/players/me/events"))
            .bearer_auth(token);
        if let Some(id) = last_seen {
            request = request.header("last-event-id", id);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], "text/event-stream");
        PlayerStream {
            response,
            buffer: Vec::new(),
        }
    }

    /// The next `game` event: (id, data).
    pub(crate) async fn next(&mut self) -> (String, Value) {
        let (event, id, data) = self.next_event().await;
        assert_eq!(event, "game", "{data}");
        (id, data)
    }

    /// The next event: (event, id, data).
    pub(crate) async fn next_event(&mut self) -> (String, String, Value) {
        loop {
            if let Some(end) = self.buffer.windows(2).position(|w| w == b"\n\n") {
                let bytes: Vec<u8> = self.buffer.drain(..end + 2).collect();
                let frame = String::from_utf8(bytes).unwrap();
                if frame.starts_with(':') {
                    continue;
                }
                let field = |name: &str| {
                    frame
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(|v| v.trim().to_string())
                        .unwrap_or_default()
                };
                return (
                    field("event:"),
                    field("id:"),
                    serde_json::from_str(&field("data:")).unwrap(),
                );
            }
            let chunk = tokio::time::timeout(Duration::from_secs(10), self.response.chunk())
                .await
                .expect("an event within 10 s")
                .unwrap()
                .expect("the stream stays open");
            self.buffer.extend_from_slice(&chunk);
        }
    }
}

#[tokio::test]
async fn a_player_s_own_stream_carries_the_pairing_invitations_and_their_turn() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (_, bob) = app.player("Bob").await;
    let mut stream = PlayerStream::open(&app, &alice).await;
    seek(&app, &alice, json!({"rules": "renju", "colour": "white"})).await;
    let paired = seek(&app, &bob, json!({"rules": "renju"})).await;
    let game = paired["game_id"].as_str().unwrap();
    let (id, state) = stream.next().await;
    assert_eq!(id, format!("{game}.1"));
    assert_eq!(state["status"], "in_progress");
    assert_eq!(state["seats"]["white"]["player_id"], alice_id.as_str());
    // Bob (black) moves: Alice's turn, on her stream.
    app.play_ok(game, &bob, "h8").await;
    let (id, state) = stream.next().await;
    assert_eq!(id, format!("{game}.2"));
    assert_eq!(state["to_move"], "white");
    // An invitation to another game.
    let invited = app
        .create_game(
            Some(&bob),
            json!({"black": "me", "white": {"player_id": alice_id}}),
        )
        .await;
    let (id, state) = stream.next().await;
    assert_eq!(id, format!("{}.1", invited["game"]["id"].as_str().unwrap()));
    assert_eq!(state["invited"], "white");
    // Games Alice does not sit in are not on her stream: the next event
    // is her own game's.
    let (carol_id, carol) = app.player("Carol").await;
    let other = app.online_game(&bob, &carol_id, &carol, json!({})).await;
    app.play_ok(&other, &bob, "h8").await;
    app.play_ok(game, &alice, "h9").await;
    let (id, _) = stream.next().await;
    assert_eq!(id, format!("{game}.3"));
}

#[tokio::test]
async fn when_nobody_comes_in_time_the_computer_plays_and_not_before() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let asked = seek(
        &app,
        &alice,
        json!({"colour": "white", "computer": {"after_s": 1, "level": "beginner"}}),
    )
    .await;
    assert_eq!(asked["status"], "waiting");
    assert_eq!(asked["computer"]["after_s"], 1);
    assert_eq!(asked["computer"]["level"], "beginner");
    let started = Instant::now();
    let paired = get_seek(&app, &alice, asked["id"].as_str().unwrap(), 10).await;
    assert_eq!(paired["status"], "paired", "{paired}");
    assert!(started.elapsed() < Duration::from_secs(5));
    let game = paired["game_id"].as_str().unwrap();
    // The computer has black: it opens, and then it is Alice's turn.
    let state = app.wait_for_version(game, 1).await;
    assert_eq!(state["seats"]["black"]["kind"], "computer", "{state}");
    assert_eq!(state["seats"]["black"]["level"], "beginner");
    assert_eq!(state["seats"]["white"]["player_id"], alice_id.as_str());
    assert_eq!(state["ply"], 1, "{state}");
    assert_eq!(state["to_move"], "white");

    // A person who comes first is paired, and the computer leaves it be.
    let (_, bob) = app.player("Bob").await;
    let (_, carol) = app.player("Carol").await;
    let waiting = seek(&app, &bob, json!({"computer": {"after_s": 2}})).await;
    let paired = seek(&app, &carol, json!({})).await;
    assert_eq!(paired["status"], "paired");
    tokio::time::sleep(Duration::from_secs(3)).await;
    let mine = get_seek(&app, &bob, waiting["id"].as_str().unwrap(), 0).await;
    assert_eq!(mine["game_id"], paired["game_id"], "{mine}");
    let state = app.game(mine["game_id"].as_str().unwrap()).await;
    assert_eq!(state["seats"]["black"]["kind"], "human");
    assert_eq!(state["seats"]["white"]["kind"], "human");

    // Without a level: intermediate while no level is rated in the category.
    let (_, dave) = app.player("Dave").await;
    let asked = seek(
        &app,
        &dave,
        json!({"rules": "renju", "computer": {"after_s": 1}}),
    )
    .await;
    let paired = get_seek(&app, &dave, asked["id"].as_str().unwrap(), 10).await;
    let state = app.game(paired["game_id"].as_str().unwrap()).await;
    let levels: Vec<&Value> = ["black", "white"]
        .iter()
        .map(|seat| &state["seats"][seat]["level"])
        .filter(|level| !level.is_null())
        .collect();
    assert_eq!(levels, [&json!("intermediate")], "{state}");
    assert_eq!(state["rules"], "renju");
}

#[tokio::test]
async fn the_computer_s_wait_and_level_are_checked() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    for (computer, says) in [
        (json!({"after_s": 0}), "after_s"),
        (json!({"after_s": 301}), "after_s"),
        (
            json!({"after_s": 10, "level": "grandmaster"}),
            "grandmaster",
        ),
    ] {
        let response = app
            .post(
                "/v1/seeks",
                Some(&alice),
                Some(json!({"computer": computer})),
            )
            .await;
        let body = assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
        assert!(body["detail"].as_str().unwrap().contains(says), "{body}");
    }
}
