//! `POST /v1/analysis`: the computer's view of a position given by its
//! moves or its board, with no game made.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

async fn analyse(app: &TestApp, body: Value) -> reqwest::Response {
    app.post("/v1/analysis", None, Some(body)).await
}

fn names(points: &Value) -> Vec<String> {
    points
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn a_position_from_its_moves_or_its_board_is_analysed_alike() {
    let app = spawn_app().await;
    // Black's open three on row 8; white far away; black to move.
    let moves = json!(["h8", "a1", "i8", "a3", "j8", "a5"]);
    let from_moves = analyse(
        &app,
        json!({"moves": moves, "level": "expert", "time_ms": 300, "count": 2}),
    )
    .await;
    assert_eq!(from_moves.status(), StatusCode::OK);
    let from_moves: Value = from_moves.json().await.unwrap();
    assert_eq!(from_moves["to_move"], "black");
    assert_eq!(from_moves["computer"]["forced_win_in"], 3, "{from_moves}");
    let pv = names(&from_moves["computer"]["pv"]);
    assert_eq!(pv.len(), 3, "{from_moves}");
    assert!(["g8", "k8"].contains(&pv[0].as_str()), "{from_moves}");
    assert!(from_moves["candidates"].as_array().unwrap().len() <= 2);

    let mut rows = vec![".".repeat(15); 15];
    let mut put = |x: usize, y: usize, c: char| rows[y].replace_range(x..x + 1, &c.to_string());
    // h8 i8 j8 are (7..=9, 7); a1 a3 a5 are (0, 14), (0, 12), (0, 10).
    for x in 7..=9 {
        put(x, 7, 'X');
    }
    for y in [14, 12, 10] {
        put(0, y, 'O');
    }
    let from_board: Value = analyse(
        &app,
        json!({"board": rows, "level": "expert", "time_ms": 300}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(from_board["to_move"], "black");
    assert_eq!(from_board["computer"]["forced_win_in"], 3, "{from_board}");
    assert_eq!(names(&from_board["computer"]["pv"]).len(), 3);
    // Nothing was stored: no game was made.
    let games: Value = app.get("/v1/games").await.json().await.unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 0, "{games}");
}

#[tokio::test]
async fn a_lost_position_says_in_how_many_plies() {
    let app = spawn_app().await;
    // Black has an open four (h8–k8): white blocks one end, black plays
    // the other. White to move loses on the second ply.
    let moves = json!(["h8", "a1", "i8", "a3", "j8", "a5", "k8"]);
    let lost: Value = analyse(&app, json!({"moves": moves, "time_ms": 300}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(lost["to_move"], "white");
    assert_eq!(lost["computer"]["forced_loss_in"], 2, "{lost}");
    assert_eq!(lost["computer"]["forced_win_in"], Value::Null, "{lost}");
    assert!(
        lost["computer"]["score"].as_i64().unwrap() < -900_000,
        "{lost}"
    );
}

#[tokio::test]
async fn tic_tac_toe_is_solved_to_the_end_of_the_line() {
    let app = spawn_app().await;
    // X in opposite corners, O in the centre: O draws only on an edge (a
    // corner loses to a double threat).
    let solved: Value = analyse(
        &app,
        json!({"rules": "tictactoe", "moves": ["a1", "b2", "c3"], "time_ms": 500}),
    )
    .await
    .json()
    .await
    .unwrap();
    assert_eq!(solved["to_move"], "white");
    let pv = names(&solved["computer"]["pv"]);
    // A drawn game played to the full board: 6 moves left.
    assert_eq!(pv.len(), 6, "{solved}");
    assert!(
        ["a2", "b1", "b3", "c2"].contains(&pv[0].as_str()),
        "{solved}"
    );
    assert_eq!(solved["computer"]["forced_win_in"], Value::Null, "{solved}");
    assert_eq!(
        solved["computer"]["forced_loss_in"],
        Value::Null,
        "{solved}"
    );
}

#[tokio::test]
async fn a_position_that_cannot_be_is_refused_with_what_to_change() {
    let app = spawn_app().await;
    for (body, says) in [
        (json!({"time_ms": 50}), "exactly one of"),
        (
            json!({"moves": ["h8"], "board": ["..."], "time_ms": 50}),
            "exactly one of",
        ),
        (json!({"moves": null, "time_ms": 50}), "null"),
        (json!({"moves": ["h8", "h8"], "time_ms": 50}), "moves[1]"),
        (json!({"moves": ["h8", "z99"], "time_ms": 50}), "moves[1]"),
        (
            json!({"moves": ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8", "a5"]}),
            "moves[9]",
        ),
        (
            json!({"moves": ["h8", "a1", "i8", "a2", "j8", "a3", "k8", "a4", "l8"]}),
            "black has won",
        ),
        (
            json!({"board": ["XXXXX", ".....", "OOOO.", ".....", "....."], "board_size": 5}),
            "already has a row",
        ),
        (json!({"board": ["..", ".."]}), "board"),
        (json!({"rules": "go", "moves": []}), "go"),
        (json!({"moves": [], "count": 11}), "count"),
    ] {
        let refused = analyse(&app, body.clone()).await;
        let problem = assert_problem(refused, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
        let detail = problem["detail"].as_str().unwrap();
        assert!(detail.contains(says), "{body}: {detail}");
    }
}
