//! Undo and redo, in local games and against the computer, including after
//! the game has ended.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

async fn undo(app: &TestApp, game: &str, token: &str) -> Value {
    let response = app
        .post(&format!("/v1/games/{game}/undo"), Some(token), None)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

async fn redo(app: &TestApp, game: &str, token: &str) -> Value {
    let response = app
        .post(&format!("/v1/games/{game}/redo"), Some(token), None)
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

#[tokio::test]
async fn in_a_local_game_one_undo_takes_back_one_move_and_redo_plays_it_again() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    assert_problem(
        app.post(&format!("/v1/games/{game}/undo"), Some(&token), None)
            .await,
        StatusCode::CONFLICT,
        "NOTHING_TO_UNDO",
    )
    .await;
    for at in ["h8", "h9", "i8"] {
        app.play_ok(&game, &token, at).await;
    }
    let state = undo(&app, &game, &token).await;
    assert_eq!(state["ply"], 2);
    assert_eq!(state["to_move"], "black");
    assert_eq!(state["can_redo"], true);
    assert_eq!(state["last_move"]["name"], "h9");
    let state = undo(&app, &game, &token).await;
    assert_eq!(state["ply"], 1);
    let state = redo(&app, &game, &token).await;
    assert_eq!(state["ply"], 2);
    assert_eq!(state["last_move"]["name"], "h9");
    let state = redo(&app, &game, &token).await;
    assert_eq!(state["ply"], 3);
    assert_eq!(state["can_redo"], false);
    assert_problem(
        app.post(&format!("/v1/games/{game}/redo"), Some(&token), None)
            .await,
        StatusCode::CONFLICT,
        "NOTHING_TO_REDO",
    )
    .await;
}

#[tokio::test]
async fn a_new_move_clears_what_could_be_redone() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    app.play_ok(&game, &token, "h8").await;
    app.play_ok(&game, &token, "h9").await;
    undo(&app, &game, &token).await;
    let played = app.play_ok(&game, &token, "a1").await;
    assert_eq!(played["game"]["can_redo"], false);
    let record: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    let points: Vec<&str> = record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["point"]["name"].as_str().unwrap())
        .collect();
    assert_eq!(points, ["h8", "a1"]);
}

#[tokio::test]
async fn playing_again_the_move_that_was_taken_back_records_it_anew() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({})).await;
    app.play_ok(&game, &token, "h8").await;
    let first = app.play_ok(&game, &token, "h9").await;
    undo(&app, &game, &token).await;
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    // The same point the redo stack holds, played as a new move.
    let again = app.play_ok(&game, &token, "h9").await;
    assert_eq!(again["game"]["can_redo"], false);
    assert_eq!(again["game"]["ply"], 2);
    let record: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    let moves = record["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[1]["point"]["name"], "h9");
    assert_eq!(moves[1]["played_at"], again["moves"][0]["played_at"]);
    assert_ne!(moves[1]["played_at"], first["moves"][0]["played_at"]);
    // And the game goes on from there.
    app.play_ok(&game, &token, "j10").await;
}

#[tokio::test]
async fn against_the_computer_undo_takes_back_its_reply_and_your_move() {
    let app = spawn_app().await;
    let (_, token) = app.player("Learner").await;
    let created = app
        .create_game(Some(&token), json!({"white": {"ai": "beginner"}}))
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&game, &token, "h8").await;
    let second = app.play_ok(&game, &token, "a1").await;
    let reply = second["moves"][1]["point"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let state = undo(&app, &game, &token).await;
    assert_eq!(state["ply"], 2, "the computer's reply and my a1 are gone");
    assert_eq!(state["to_move"], "black");
    let state = redo(&app, &game, &token).await;
    assert_eq!(state["ply"], 4, "redo gives back my move and the reply");
    assert_eq!(state["last_move"]["name"], reply.as_str());
    undo(&app, &game, &token).await;
    let state = undo(&app, &game, &token).await;
    assert_eq!(state["ply"], 0);
    assert_problem(
        app.post(&format!("/v1/games/{game}/undo"), Some(&token), None)
            .await,
        StatusCode::CONFLICT,
        "NOTHING_TO_UNDO",
    )
    .await;
}

#[tokio::test]
async fn undoing_a_finished_game_against_the_computer_reopens_it_and_reverses_the_scores() {
    let app = spawn_app().await;
    let (me, token) = app.player("Regretful").await;
    let created = app
        .create_game(Some(&token), json!({"white": {"ai": "beginner"}}))
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&game, &token, "h8").await;
    let resigned = app
        .post(&format!("/v1/games/{game}/resign"), Some(&token), None)
        .await;
    assert_eq!(resigned.status(), StatusCode::OK);
    assert_eq!(app.player_stats(&me).await["score"], -1);
    assert_eq!(app.player_stats("ai-beginner").await["score"], 1);

    let state = undo(&app, &game, &token).await;
    assert_eq!(state["status"], "in_progress");
    assert_eq!(state["result"], Value::Null);
    assert_eq!(state["ply"], 0);
    let mine = app.player_stats(&me).await;
    assert_eq!(
        (
            mine["score"].as_i64(),
            mine["losses"].as_i64(),
            mine["games"].as_i64()
        ),
        (Some(0), Some(0), Some(0))
    );
    let computer = app.player_stats("ai-beginner").await;
    assert_eq!(
        (computer["score"].as_i64(), computer["wins"].as_i64()),
        (Some(0), Some(0))
    );
}

#[tokio::test]
async fn undo_and_redo_of_a_winning_move_in_a_local_game_reopen_and_refinish_it() {
    let app = spawn_app().await;
    let (game, token) = app.local_game(json!({"rules": "tictactoe"})).await;
    for at in ["a1", "a2", "b1", "b2", "c1"] {
        app.play_ok(&game, &token, at).await;
    }
    let state = undo(&app, &game, &token).await;
    assert_eq!(state["status"], "in_progress");
    assert_eq!(state["to_move"], "black");
    let state = redo(&app, &game, &token).await;
    assert_eq!(state["status"], "finished");
    assert_eq!(state["result"]["winner"], "black");
}
