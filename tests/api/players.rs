//! Players, their records and the leaderboard.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app};

#[tokio::test]
async fn a_new_player_gets_an_id_and_a_token_shown_once() {
    let app = spawn_app().await;
    let response = app
        .post("/v1/players", None, Some(json!({"name": "  Ada  "})))
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["name"], "Ada");
    assert!(body["token"].as_str().unwrap().starts_with("gbt_"));
    assert_eq!(
        location,
        format!("/v1/players/{}", body["id"].as_str().unwrap())
    );
    let read: Value = app.get(&location).await.json().await.unwrap();
    assert_eq!(read["score"], 0);
    assert_eq!(read["kind"], "human");
    assert!(read.get("token").is_none());
}

#[tokio::test]
async fn a_token_alone_says_which_player_it_belongs_to() {
    let app = spawn_app().await;
    let (id, token) = app.player("Ada").await;
    let me: Value = app
        .client
        .get(app.url("/v1/players/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["id"], id.as_str());
    assert_eq!(me["name"], "Ada");
    assert!(me.get("token").is_none());
    let anonymous = app.get("/v1/players/me").await;
    assert_eq!(anonymous.status(), StatusCode::UNAUTHORIZED);
    let wrong = app
        .client
        .get(app.url("/v1/players/me"))
        .bearer_auth("gbt_not_a_token")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_leaderboard_orders_players_by_score_and_pages_with_a_cursor() {
    let app = spawn_app().await;
    let mut players = Vec::new();
    // Player i resigns i games against the beginner: scores 0, -1, -2, -3.
    for i in 0..4 {
        let (id, token) = app.player(&format!("P{i}")).await;
        for _ in 0..i {
            let game = app
                .create_game(Some(&token), json!({"white": {"ai": "beginner"}}))
                .await;
            let id = game["game"]["id"].as_str().unwrap();
            app.post(&format!("/v1/games/{id}/resign"), Some(&token), None)
                .await;
        }
        players.push(id);
    }
    let mut ranked = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            Some(c) => format!("/v1/leaderboard?limit=2&cursor={c}"),
            None => "/v1/leaderboard?limit=2".to_string(),
        };
        let page: Value = app.get(&path).await.json().await.unwrap();
        for p in page["players"].as_array().unwrap() {
            ranked.push((
                p["id"].as_str().unwrap().to_string(),
                p["score"].as_i64().unwrap(),
            ));
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.into()),
            None => break,
        }
    }
    // The computer won 6 games; P0 never finished a game and is not ranked.
    assert_eq!(ranked[0], ("ai-beginner".to_string(), 6));
    let people: Vec<(String, i64)> = ranked[1..].to_vec();
    assert_eq!(
        people,
        vec![
            (players[1].clone(), -1),
            (players[2].clone(), -2),
            (players[3].clone(), -3)
        ]
    );
}

#[tokio::test]
async fn a_player_renames_themselves_and_every_view_shows_the_new_name() {
    let app = spawn_app().await;
    let (id, token) = app.player("Guest 7f3k").await;
    // A game being played (so the server holds it in memory too).
    let created = app.create_game(Some(&token), json!({})).await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&game, &token, "h8").await;
    let renamed = app
        .post(
            "/v1/players/me/name",
            Some(&token),
            Some(json!({"name": "  Ada Lovelace  "})),
        )
        .await;
    assert_eq!(renamed.status(), StatusCode::OK);
    let renamed: Value = renamed.json().await.unwrap();
    assert_eq!(renamed["name"], "Ada Lovelace");
    assert_eq!(renamed["id"], id.as_str());
    let read: Value = app
        .get(&format!("/v1/players/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["name"], "Ada Lovelace");
    let seen = app.game(&game).await;
    assert_eq!(seen["seats"]["black"]["name"], "Ada Lovelace", "{seen}");
    // The next move's answer, from the game as held, has it too.
    let played = app.play_ok(&game, &token, "a1").await;
    assert_eq!(played["game"]["seats"]["black"]["name"], "Ada Lovelace");
    // Names need not be unique: another player may take the same one.
    let (_, other) = app.player("Bob").await;
    let same = app
        .post(
            "/v1/players/me/name",
            Some(&other),
            Some(json!({"name": "Ada Lovelace"})),
        )
        .await;
    assert_eq!(same.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_bad_name_or_no_token_is_refused_and_nothing_changes() {
    let app = spawn_app().await;
    let (id, token) = app.player("Ada").await;
    for (name, says) in [
        (json!("   "), "empty"),
        (json!("x".repeat(41)), "40"),
        (json!("tab\there"), "control"),
    ] {
        let refused = app
            .post(
                "/v1/players/me/name",
                Some(&token),
                Some(json!({"name": name})),
            )
            .await;
        let problem = assert_problem(refused, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
        assert!(
            problem["detail"].as_str().unwrap().contains(says),
            "{problem}"
        );
    }
    let anonymous = app
        .post(
            "/v1/players/me/name",
            None,
            Some(json!({"name": "Mallory"})),
        )
        .await;
    assert_problem(anonymous, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
    let read: Value = app
        .get(&format!("/v1/players/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(read["name"], "Ada");
}
