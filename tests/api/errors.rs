//! Every refusal is problem+json with its own code, and changes nothing.

use reqwest::StatusCode;
use serde_json::json;

use crate::helpers::{TestApp, assert_problem, spawn_app};

async fn version(app: &TestApp, game: &str) -> i64 {
    app.game(game).await["version"].as_i64().unwrap()
}

#[tokio::test]
async fn bad_moves_are_refused_with_their_own_codes_and_change_nothing() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "freestyle"})).await;
    app.play_ok(&game, &token, "h8").await;
    let before = version(&app, &game).await;
    let path = format!("/v1/games/{game}/moves");

    let cases = [
        (json!({"at": "h8"}), StatusCode::CONFLICT, "OCCUPIED"),
        (json!({"x": 7, "y": 7}), StatusCode::CONFLICT, "OCCUPIED"),
        (
            json!({"at": "p8"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "OUT_OF_BOARD",
        ),
        (
            json!({"at": "h16"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "OUT_OF_BOARD",
        ),
        (
            json!({"x": -1, "y": 3}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "OUT_OF_BOARD",
        ),
        (
            json!({"x": 15, "y": 3}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "OUT_OF_BOARD",
        ),
        (
            json!({"at": "8h"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        ),
        (
            json!({"at": "h8", "x": 1, "y": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        ),
        (
            json!({"x": 1}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        ),
        (json!({}), StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION"),
        (
            json!({"at": 7}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        ),
        (
            json!({"at": "a1", "color": "white"}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        ),
    ];
    for (body, status, code) in cases {
        let response = app.post(&path, Some(&token), Some(body.clone())).await;
        let problem = assert_problem(response, status, code).await;
        assert!(
            !problem["detail"].as_str().unwrap().contains("gbt_"),
            "no token in errors"
        );
    }
    assert_eq!(
        version(&app, &game).await,
        before,
        "no refused move changed the game"
    );
}

#[tokio::test]
async fn broken_json_oversized_bodies_and_wrong_content_types_are_refused() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    let path = app.url(&format!("/v1/games/{game}/moves"));
    let send = |body: String, content_type: &'static str| {
        app.client
            .post(&path)
            .bearer_auth(&token)
            .header("content-type", content_type)
            .body(body)
            .send()
    };
    assert_problem(
        send("{\"at\": ".into(), "application/json").await.unwrap(),
        StatusCode::BAD_REQUEST,
        "MALFORMED_JSON",
    )
    .await;
    assert_problem(
        send("not json".into(), "application/json").await.unwrap(),
        StatusCode::BAD_REQUEST,
        "MALFORMED_JSON",
    )
    .await;
    let huge = format!("{{\"at\": \"{}\"}}", "h".repeat(64 * 1024));
    assert_problem(
        send(huge, "application/json").await.unwrap(),
        StatusCode::PAYLOAD_TOO_LARGE,
        "PAYLOAD_TOO_LARGE",
    )
    .await;
    assert_problem(
        send("{\"at\": \"h8\"}".into(), "text/plain").await.unwrap(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "UNSUPPORTED_MEDIA_TYPE",
    )
    .await;
    let create = app
        .client
        .post(app.url("/v1/games"))
        .header("content-type", "application/json")
        .body("{\"rules\": ")
        .send()
        .await
        .unwrap();
    assert_problem(create, StatusCode::BAD_REQUEST, "MALFORMED_JSON").await;
    assert_eq!(app.game(&game).await["ply"], 0);
}

#[tokio::test]
async fn whole_numbers_written_with_a_point_are_integers_and_fractions_are_refused() {
    let app = spawn_app().await;
    // As Python's json.dumps writes them: a size, a time and a point.
    let (game, token) = app
        .local_game(json!({"rules": "freestyle", "board_size": 19.0}))
        .await;
    assert_eq!(app.game(&game).await["width"], 19);
    let path = format!("/v1/games/{game}/moves");
    let played = app
        .post(&path, Some(&token), Some(json!({"x": 7.0, "y": 7e0})))
        .await;
    assert_eq!(played.status(), StatusCode::OK);
    let computer = app
        .post(
            &format!("/v1/games/{game}/ai-move"),
            Some(&token),
            Some(json!({"time_ms": 100.0})),
        )
        .await;
    assert_eq!(computer.status(), StatusCode::OK);
    let analysis = app
        .post(
            "/v1/analysis",
            None,
            Some(json!({"moves": ["h8"], "time_ms": 1e2, "count": 2.0})),
        )
        .await;
    assert_eq!(analysis.status(), StatusCode::OK);
    let body: serde_json::Value = analysis.json().await.unwrap();
    assert!(!body["candidates"].as_array().unwrap().is_empty(), "{body}");
    // A fraction is no integer: refused, and the game is as it was.
    let before = version(&app, &game).await;
    let problem = assert_problem(
        app.post(&path, Some(&token), Some(json!({"x": 7.5, "y": 8.0})))
            .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    assert!(
        problem["detail"].as_str().unwrap().contains("7.5"),
        "{problem}"
    );
    assert_eq!(version(&app, &game).await, before);
}

#[tokio::test]
async fn unknown_ids_and_routes_are_not_found() {
    let app = spawn_app().await;
    let (_, token) = app.player("Seeker").await;
    assert_problem(
        app.get("/v1/games/g_nope").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
    assert_problem(
        app.get("/v1/players/p_nope").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
    assert_problem(
        app.play("g_nope", &token, "h8").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
    assert_problem(
        app.get("/v1/nothing-here").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
}

#[tokio::test]
async fn impossible_games_are_refused_when_created() {
    let app = spawn_app().await;
    let cases = [
        json!({"rules": "go"}),
        json!({"rules": "freestyle", "board_size": 4}),
        json!({"rules": "freestyle", "board_size": 27}),
        json!({"rules": "freestyle", "board_size": 100000}),
        json!({"rules": "renju", "board_size": 19}),
        json!({"rules": "tictactoe", "board_size": 4}),
        json!({"rules": "custom", "width": 5, "height": 5, "k": 6}),
        json!({"rules": "custom"}),
        json!({"rules": "freestyle", "k": 4}),
        json!({"rules": "freestyle", "forbidden": "lose"}),
        json!({"rules": "renju", "forbidden": "sometimes"}),
        json!({"white": {"ai": "grandmaster"}}),
        json!({"white": "somebody"}),
        json!({"white": {"player_id": "p_missing"}}),
        json!({"black": "open", "white": "open"}),
        json!({"black": {"ai": "beginner"}, "white": "open"}),
        json!({"board": "big"}),
        json!({"board_size": "fifteen"}),
    ];
    for body in cases {
        let response = app.post("/v1/games", None, Some(body.clone())).await;
        assert_eq!(
            response.status(),
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}"
        );
        let problem: serde_json::Value = response.json().await.unwrap();
        assert_eq!(problem["code"], "VALIDATION", "{body}: {problem}");
    }
    let bad_name = app
        .post("/v1/players", None, Some(json!({"name": "  "})))
        .await;
    assert_problem(bad_name, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    let bad_page = app.get("/v1/leaderboard?limit=0").await;
    assert_problem(bad_page, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    let bad_cursor = app.get("/v1/leaderboard?cursor=zz").await;
    assert_problem(bad_cursor, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
}
