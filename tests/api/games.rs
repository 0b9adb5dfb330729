//! Whole games in every rule set, against each other and the computer.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{assert_problem, spawn_app};

async fn play_all(app: &crate::helpers::TestApp, game: &str, token: &str, moves: &[&str]) -> Value {
    let mut last = Value::Null;
    for at in moves {
        last = app.play_ok(game, token, at).await;
    }
    last
}

fn names(line: &Value) -> Vec<String> {
    line.as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_freestyle_game_is_won_with_five_and_shows_the_winning_line() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    let last = play_all(
        &app,
        &game,
        &token,
        &["d8", "d10", "e8", "e10", "f8", "f10", "g8", "g10", "h8"],
    )
    .await;
    let state = &last["game"];
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], "black");
    assert_eq!(state["result"]["reason"], "five");
    assert_eq!(
        names(&state["result"]["winning_line"]),
        ["d8", "e8", "f8", "g8", "h8"]
    );
    assert_eq!(state["to_move"], Value::Null);
    assert_eq!(state["mode"], "local");
    let after = app.play(&game, &token, "a1").await;
    assert_problem(after, StatusCode::CONFLICT, "GAME_OVER").await;
}

#[tokio::test]
async fn in_standard_rules_an_overline_does_not_win_but_exactly_five_does() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "standard", "board_size": 19}))
        .await;
    let last = play_all(
        &app,
        &game,
        &token,
        &[
            "a1", "a3", "b1", "b3", "c1", "c3", "e1", "s19", "f1", "s17", "d1",
        ],
    )
    .await;
    assert_eq!(
        last["game"]["status"], "in_progress",
        "six in a row is no win in standard"
    );
    let last = play_all(&app, &game, &token, &["e3", "a5", "d3"]).await;
    assert_eq!(last["game"]["result"]["winner"], "white");
    assert_eq!(
        names(&last["game"]["result"]["winning_line"]),
        ["a3", "b3", "c3", "d3", "e3"]
    );
}

const DOUBLE_THREE_SETUP: [&str; 8] = ["h8", "a15", "h9", "c15", "f6", "e15", "g6", "a13"];

#[tokio::test]
async fn renju_refuses_blacks_forbidden_point_and_lists_it() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "renju"})).await;
    let state = play_all(&app, &game, &token, &DOUBLE_THREE_SETUP).await;
    let forbidden = state["game"]["forbidden"].as_array().unwrap();
    assert!(
        forbidden
            .iter()
            .any(|f| f["name"] == "h6" && f["kind"] == "double_three"),
        "{forbidden:?}"
    );
    let version = state["game"]["version"].clone();
    let refused = assert_problem(
        app.play(&game, &token, "h6").await,
        StatusCode::CONFLICT,
        "FORBIDDEN_MOVE",
    )
    .await;
    assert_eq!(refused["forbidden_kind"], "double_three");
    assert_eq!(
        app.game(&game).await["version"],
        version,
        "a refused move changes nothing"
    );
    // Black wins renju with exactly five elsewhere.
    let last = play_all(
        &app,
        &game,
        &token,
        &["b2", "o1", "c2", "o3", "d2", "o5", "e2", "n1", "f2"],
    )
    .await;
    assert_eq!(last["game"]["result"]["winner"], "black");
}

#[tokio::test]
async fn under_foul_loses_a_forbidden_move_hands_white_the_game() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "renju", "forbidden": "lose"}))
        .await;
    play_all(&app, &game, &token, &DOUBLE_THREE_SETUP).await;
    let last = app.play_ok(&game, &token, "h6").await;
    assert_eq!(last["game"]["result"]["winner"], "white");
    assert_eq!(last["game"]["result"]["reason"], "forbidden");
    assert_eq!(last["game"]["forbidden_policy"], "lose");
}

#[tokio::test]
async fn tictactoe_is_won_with_three_or_drawn_on_a_full_board() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "tictactoe"})).await;
    let last = play_all(&app, &game, &token, &["a1", "a2", "b1", "b2", "c1"]).await;
    assert_eq!(last["game"]["result"]["winner"], "black");
    assert_eq!(
        names(&last["game"]["result"]["winning_line"]),
        ["a1", "b1", "c1"]
    );

    let (game, token) = app.local_game(json!({"rules": "tictactoe"})).await;
    let draw = [
        (0, 0),
        (1, 1),
        (2, 2),
        (0, 1),
        (2, 1),
        (2, 0),
        (0, 2),
        (1, 2),
        (1, 0),
    ];
    let mut last = Value::Null;
    for (x, y) in draw {
        let response = app
            .post(
                &format!("/v1/games/{game}/moves"),
                Some(&token),
                Some(json!({"x": x, "y": y})),
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        last = response.json().await.unwrap();
    }
    assert_eq!(last["game"]["status"], "finished");
    assert_eq!(last["game"]["result"]["winner"], Value::Null);
    assert_eq!(last["game"]["result"]["reason"], "board_full");
}

#[tokio::test]
async fn a_custom_k_in_a_row_game_on_a_rectangular_board_is_won_with_k() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "custom", "width": 7, "height": 5, "k": 4}))
        .await;
    let state = app.game(&game).await;
    assert_eq!(
        (
            state["width"].as_u64(),
            state["height"].as_u64(),
            state["k"].as_u64()
        ),
        (Some(7), Some(5), Some(4))
    );
    let last = play_all(
        &app,
        &game,
        &token,
        &["a1", "a3", "b1", "b3", "c1", "c3", "d1"],
    )
    .await;
    assert_eq!(
        names(&last["game"]["result"]["winning_line"]),
        ["a1", "b1", "c1", "d1"]
    );
}

#[tokio::test]
async fn two_requests_start_a_game_against_the_computer_and_it_replies_in_the_same_request() {
    let app = spawn_app().await;
    let created = app.create_game(None, json!({})).await;
    assert_eq!(created["game"]["mode"], "ai");
    assert_eq!(created["game"]["seats"]["white"]["level"], "intermediate");
    let token = created["you"]["token"]
        .as_str()
        .expect("a guest token")
        .to_string();
    let game = created["game"]["id"].as_str().unwrap().to_string();
    let played = app.play_ok(&game, &token, "h8").await;
    let moves = played["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["color"], "black");
    assert_eq!(moves[1]["color"], "white");
    assert_eq!(moves[1]["computer"]["level"], "intermediate");
    assert_eq!(played["game"]["ply"], 2);
    assert_eq!(played["game"]["to_move"], "black");
    let record = app.get(&format!("/v1/games/{game}/moves")).await;
    let record: Value = record.json().await.unwrap();
    let plies: Vec<u64> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(plies, [1, 2]);
}

#[tokio::test]
async fn when_the_computer_plays_black_it_opens_the_game_at_creation() {
    let app = spawn_app().await;
    let (_, token) = app.player("Second").await;
    let created = app
        .create_game(
            Some(&token),
            json!({"black": {"ai": "beginner"}, "white": "me"}),
        )
        .await;
    assert_eq!(created["moves"].as_array().unwrap().len(), 1);
    assert_eq!(created["game"]["ply"], 1);
    assert_eq!(created["game"]["to_move"], "white");
    assert!(
        created["you"].get("token").is_none(),
        "no token for a caller who has one"
    );
}

#[tokio::test]
async fn a_game_against_the_computer_is_played_out_and_scored_once() {
    let app = spawn_app().await;
    let (me, token) = app.player("Challenger").await;
    let created = app
        .create_game(
            Some(&token),
            json!({"rules": "freestyle", "board_size": 9, "white": {"ai": "beginner"}}),
        )
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    let mut state = created["game"].clone();
    while state["status"] == "in_progress" {
        // Play the first empty point, row by row.
        let board: Vec<String> = serde_json::from_value(state["board"].clone()).unwrap();
        let (y, row) = board
            .iter()
            .enumerate()
            .find(|(_, r)| r.contains('.'))
            .unwrap();
        let x = row.find('.').unwrap();
        let response = app
            .post(
                &format!("/v1/games/{game}/moves"),
                Some(&token),
                Some(json!({"x": x, "y": y})),
            )
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        let body: Value = response.json().await.unwrap();
        state = body["game"].clone();
    }
    let me = app.player_stats(&me).await;
    let computer = app.player_stats("ai-beginner").await;
    assert_eq!(me["games"], 1);
    assert_eq!(computer["games"], 1);
    match state["result"]["winner"].as_str() {
        Some("black") => assert_eq!(
            (me["score"].as_i64(), computer["score"].as_i64()),
            (Some(1), Some(-1))
        ),
        Some("white") => assert_eq!(
            (me["score"].as_i64(), computer["score"].as_i64()),
            (Some(-1), Some(1))
        ),
        _ => assert_eq!(
            (me["draws"].as_i64(), computer["draws"].as_i64()),
            (Some(1), Some(1))
        ),
    }
}

#[tokio::test]
async fn resigning_ends_the_game_for_the_opponent_and_counts_in_the_scores() {
    let app = spawn_app().await;
    let (me, token) = app.player("Quitter").await;
    let created = app.create_game(Some(&token), json!({})).await;
    let game = created["game"]["id"].as_str().unwrap();
    let response = app
        .post(&format!("/v1/games/{game}/resign"), Some(&token), None)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let state: Value = response.json().await.unwrap();
    assert_eq!(state["result"]["winner"], "white");
    assert_eq!(state["result"]["reason"], "resign");
    assert_eq!(app.player_stats(&me).await["score"], -1);
    assert_eq!(app.player_stats("ai-intermediate").await["wins"], 1);
    let again = app
        .post(&format!("/v1/games/{game}/resign"), Some(&token), None)
        .await;
    assert_problem(again, StatusCode::CONFLICT, "GAME_OVER").await;
}

#[tokio::test]
async fn an_open_seat_is_joined_by_another_player_and_the_game_starts() {
    let app = spawn_app().await;
    let (_, host) = app.player("Host").await;
    let (guest_id, guest) = app.player("Guest").await;
    let created = app
        .create_game(Some(&host), json!({"black": "me", "white": "open"}))
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["status"], "waiting");
    assert_problem(
        app.play(&game, &host, "h8").await,
        StatusCode::CONFLICT,
        "GAME_NOT_STARTED",
    )
    .await;
    let joined = app
        .post(&format!("/v1/games/{game}/join"), Some(&guest), None)
        .await;
    assert_eq!(joined.status(), StatusCode::OK);
    let state = app.game(&game).await;
    assert_eq!(state["status"], "in_progress");
    assert_eq!(state["mode"], "online");
    assert_eq!(state["seats"]["white"]["player_id"], guest_id.as_str());
    let again = app
        .post(&format!("/v1/games/{game}/join"), Some(&guest), None)
        .await;
    assert_problem(again, StatusCode::CONFLICT, "SEAT_UNAVAILABLE").await;
    app.play_ok(&game, &host, "h8").await;
    assert_problem(
        app.play(&game, &host, "h9").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    app.play_ok(&game, &guest, "h9").await;
    let undo = app
        .post(&format!("/v1/games/{game}/undo"), Some(&host), None)
        .await;
    // Online, undo asks the opponent for a takeback.
    assert_eq!(undo.status(), StatusCode::OK);
    let asked: Value = undo.json().await.unwrap();
    assert_eq!(asked["offer"]["kind"], "takeback");
    assert_eq!(asked["offer"]["by"], "black");
    assert_eq!(asked["ply"], 2);
    let hint = app.get(&format!("/v1/games/{game}/hint")).await;
    assert_problem(hint, StatusCode::CONFLICT, "HINT_NOT_ALLOWED").await;
}

#[tokio::test]
async fn games_are_listed_by_player_and_status_page_by_page() {
    let app = spawn_app().await;
    let (me, token) = app.player("Lister").await;
    let mut ids = Vec::new();
    for _ in 0..5 {
        let created = app.create_game(Some(&token), json!({"white": "me"})).await;
        ids.push(created["game"]["id"].as_str().unwrap().to_string());
    }
    app.create_game(None, json!({})).await;
    app.post(&format!("/v1/games/{}/resign", ids[0]), Some(&token), None)
        .await;

    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let mut path = format!("/v1/games?player={me}&limit=2");
        if let Some(c) = &cursor {
            path.push_str(&format!("&cursor={c}"));
        }
        let page: Value = app.get(&path).await.json().await.unwrap();
        for g in page["games"].as_array().unwrap() {
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        match page["next_cursor"].as_str() {
            Some(c) => cursor = Some(c.to_string()),
            None => break,
        }
    }
    let mut expected = ids.clone();
    expected.reverse();
    assert_eq!(seen, expected, "newest first, every game once");
    let finished: Value = app
        .get(&format!("/v1/games?player={me}&status=finished"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(finished["games"].as_array().unwrap().len(), 1);
    assert_eq!(finished["games"][0]["id"], ids[0].as_str());
    let bad = app.get("/v1/games?status=paused").await;
    assert_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}

#[tokio::test]
async fn curl_users_can_read_the_board_as_text() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    app.play_ok(&game, &token, "h8").await;
    let response = app
        .client
        .get(app.url(&format!("/v1/games/{game}")))
        .header("accept", "text/plain")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(
        response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/plain")
    );
    let text = response.text().await.unwrap();
    assert!(text.contains("white to move"), "{text}");
    assert!(text.contains(" 8 . . . . . . . x"), "{text}");
    assert!(
        text.trim_end().ends_with("a b c d e f g h i j k l m n o"),
        "{text}"
    );
}

#[tokio::test]
async fn hints_list_the_best_candidates_and_play_nothing() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    for at in ["h8", "a1", "i8", "a2", "j8", "a3"] {
        app.play_ok(&game, &token, at).await;
    }
    // Black has three in a row with both ends open: g8 or k8 make an open four.
    let hint: Value = app
        .get(&format!("/v1/games/{game}/hint?count=3&level=intermediate"))
        .await
        .json()
        .await
        .unwrap();
    let candidates = hint["candidates"].as_array().unwrap();
    assert_eq!(candidates.len(), 3);
    assert!(
        ["g8", "k8"].contains(&candidates[0]["name"].as_str().unwrap()),
        "{hint}"
    );
    assert_eq!(hint["to_move"], "black");
    assert_eq!(app.game(&game).await["ply"], 6);
    let bad = app
        .get(&format!("/v1/games/{game}/hint?level=grandmaster"))
        .await;
    assert_problem(bad, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}

#[tokio::test]
async fn ai_move_plays_for_either_side_of_a_local_game_and_for_the_computer_seat_only_in_ai_games()
{
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    let response = app
        .post(
            &format!("/v1/games/{game}/ai-move"),
            Some(&token),
            Some(json!({"level": "beginner", "time_ms": 100})),
        )
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["moves"][0]["computer"]["level"], "beginner");
    // An empty body is fine too.
    let response = app
        .post(&format!("/v1/games/{game}/ai-move"), Some(&token), None)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(app.game(&game).await["ply"], 2);

    let created = app.create_game(Some(&token), json!({})).await;
    let ai_game = created["game"]["id"].as_str().unwrap();
    let response = app
        .post(&format!("/v1/games/{ai_game}/ai-move"), Some(&token), None)
        .await;
    assert_problem(response, StatusCode::CONFLICT, "NOT_YOUR_TURN").await;
}

#[tokio::test]
async fn two_computers_play_each_other_one_move_per_request() {
    let app = spawn_app().await;
    let (_, token) = app.player("Spectator").await;
    let created = app
        .create_game(
            Some(&token),
            json!({"rules": "tictactoe", "black": {"ai": "intermediate"}, "white": {"ai": "beginner"}}),
        )
        .await;
    assert_eq!(created["game"]["mode"], "ai_vs_ai");
    let game = created["game"]["id"].as_str().unwrap();
    let mut state = created["game"].clone();
    let mut moves = 0;
    while state["status"] == "in_progress" {
        let response = app
            .post(&format!("/v1/games/{game}/ai-move"), Some(&token), None)
            .await;
        assert_eq!(response.status(), StatusCode::OK);
        state = response.json::<Value>().await.unwrap()["game"].clone();
        moves += 1;
        assert!(moves <= 9);
    }
    assert_eq!(state["status"], "finished");
    let (_, stranger) = app.player("Stranger").await;
    let response = app
        .post(&format!("/v1/games/{game}/ai-move"), Some(&stranger), None)
        .await;
    assert_problem(response, StatusCode::FORBIDDEN, "NOT_A_PLAYER_OF_THIS_GAME").await;
}

#[tokio::test]
async fn health_cors_and_request_ids_are_there_for_operators_and_embedders() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers().contains_key("x-request-id"));
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({"status": "ok", "database": "ok"}));

    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.url("/v1/games"))
        .header("origin", "https://widget.example")
        .header("access-control-request-method", "POST")
        .header(
            "access-control-request-headers",
            "authorization, content-type, if-match",
        )
        .send()
        .await
        .unwrap();
    assert!(preflight.status().is_success());
    assert_eq!(
        preflight.headers()["access-control-allow-origin"],
        "https://widget.example"
    );

    let created = app
        .client
        .post(app.url("/v1/games"))
        .header("origin", "https://widget.example")
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    let exposed = created.headers()["access-control-expose-headers"]
        .to_str()
        .unwrap()
        .to_lowercase();
    assert!(
        exposed.contains("etag") && exposed.contains("x-request-id"),
        "{exposed}"
    );

    let foreign = app
        .client
        .get(app.url("/healthz"))
        .header("origin", "https://elsewhere.example")
        .send()
        .await
        .unwrap();
    assert!(
        !foreign
            .headers()
            .contains_key("access-control-allow-origin")
    );
}
