//! Glicko-2 ratings per category: changed once by a rated game's end,
//! not at all by an unrated one, reversed by an undo that reopens the game;
//! shown on the player's card, in a history, and on a leaderboard per
//! category.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

/// Alice (black) and Bob play an online game with `extra` settings; Bob
/// resigns. Returns (game, alice id, bob id).
async fn bob_resigns(app: &TestApp, extra: Value) -> (String, String, String) {
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app.online_game(&alice, &bob_id, &bob, extra).await;
    app.play_ok(&game, &alice, "h8").await;
    app.act(&game, "resign", &bob, StatusCode::OK).await;
    (game, alice_id, bob_id)
}

fn rating_in<'a>(profile: &'a Value, category: &str) -> Option<&'a Value> {
    profile["ratings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["category"] == category)
}

fn close(value: &Value, expected: f64) -> bool {
    (value.as_f64().unwrap() - expected).abs() < 0.05
}

#[tokio::test]
async fn a_rated_game_changes_both_ratings_once_in_its_category() {
    let app = spawn_app().await;
    let (game, alice, bob) = bob_resigns(&app, json!({"rated": true})).await;
    let state = app.game(&game).await;
    assert_eq!(state["rated"], true);
    assert_eq!(state["rating_category"], "freestyle-15");

    // Two newcomers (1500, deviation 350, volatility 0.06): the winner goes
    // up by as much as the loser goes down.
    let winner = app
        .get(&format!("/v1/players/{alice}"))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let loser = app
        .get(&format!("/v1/players/{bob}"))
        .await
        .json::<Value>()
        .await
        .unwrap();
    let (w, l) = (
        rating_in(&winner, "freestyle-15").expect("rated"),
        rating_in(&loser, "freestyle-15").expect("rated"),
    );
    assert!(close(&w["rating"], 1662.31), "{w}");
    assert!(close(&l["rating"], 1337.69), "{l}");
    assert!(close(&w["deviation"], 290.32), "{w}");
    assert_eq!(
        (w["games"].as_i64(), l["games"].as_i64()),
        (Some(1), Some(1))
    );
    assert_eq!(w["provisional"], true, "one game says little");
    assert_eq!(
        winner["ratings"].as_array().unwrap().len(),
        1,
        "one category only"
    );

    // Its history: one point per rated game.
    let history: Value = app
        .get(&format!(
            "/v1/players/{alice}/ratings?category=freestyle-15"
        ))
        .await
        .json()
        .await
        .unwrap();
    let changes = history["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1);
    assert_eq!(changes[0]["game_id"], game.as_str());
    assert!(close(&changes[0]["change"], 162.31), "{history}");
    let renju: Value = app
        .get(&format!("/v1/players/{alice}/ratings?category=renju"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(renju["changes"], json!([]), "categories are kept apart");

    // The leaderboard of the category: provisional ratings only when asked.
    let board: Value = app
        .get("/v1/leaderboard?category=freestyle-15")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(board["players"], json!([]));
    let board: Value = app
        .get("/v1/leaderboard?category=freestyle-15&provisional=true")
        .await
        .json()
        .await
        .unwrap();
    let ids: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [alice.as_str(), bob.as_str()]);
    assert!(close(&board["players"][0]["rating"]["rating"], 1662.31));
    // The card: newest games, and the record against one opponent.
    let card: Value = app
        .get(&format!("/v1/players/{alice}?vs={bob}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(card["recent_games"][0]["id"], game.as_str());
    assert_eq!(card["recent_games_next_cursor"], Value::Null);
    assert_eq!(
        card["head_to_head"],
        json!({"opponent_id": bob, "games": 1, "wins": 1, "losses": 0, "draws": 0})
    );
    let theirs: Value = app
        .get(&format!("/v1/players/{bob}?vs={alice}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(theirs["head_to_head"]["losses"], 1);
    assert_problem(
        app.get(&format!("/v1/players/{alice}?vs=p_nobody")).await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
    // The score leaderboard is as it was: no ratings on it.
    let scores: Value = app.get("/v1/leaderboard").await.json().await.unwrap();
    assert!(scores["players"][0].get("rating").is_none(), "{scores}");
}

#[tokio::test]
async fn an_unrated_game_changes_no_rating() {
    let app = spawn_app().await;
    let (game, alice, _) = bob_resigns(&app, json!({})).await;
    assert_eq!(app.game(&game).await["rated"], false);
    let profile = app.player_stats(&alice).await;
    assert_eq!(profile["ratings"], json!([]));
    assert_eq!(profile["score"], 1, "scores count all the same");
}

#[tokio::test]
async fn an_undo_that_reopens_a_rated_game_takes_its_rating_change_back() {
    let app = spawn_app().await;
    let (me, token) = app.player("Regretful").await;
    let created = app
        .create_game(
            Some(&token),
            json!({"rules": "renju", "white": {"ai": "beginner"}, "rated": true}),
        )
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    app.play_ok(&game, &token, "h8").await;
    app.act(&game, "resign", &token, StatusCode::OK).await;
    let mine = app.player_stats(&me).await;
    assert!(close(
        &rating_in(&mine, "renju").unwrap()["rating"],
        1337.69
    ));
    // The computer level is rated too, from games against people.
    let computer = app.player_stats("ai-beginner").await;
    assert!(close(
        &rating_in(&computer, "renju").unwrap()["rating"],
        1662.31
    ));

    app.act(&game, "undo", &token, StatusCode::OK).await;
    assert_eq!(app.game(&game).await["status"], "in_progress");
    assert_eq!(app.player_stats(&me).await["ratings"], json!([]));
    assert_eq!(app.player_stats("ai-beginner").await["ratings"], json!([]));
    let history: Value = app
        .get(&format!("/v1/players/{me}/ratings?category=renju"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(history["changes"], json!([]));
}

#[tokio::test]
async fn rated_games_and_categories_are_checked() {
    let app = spawn_app().await;
    let (_, token) = app.player("Solo").await;
    let response = app
        .post(
            "/v1/games",
            Some(&token),
            Some(json!({"black": "me", "white": "me", "rated": true})),
        )
        .await;
    let problem = assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    assert!(
        problem["detail"]
            .as_str()
            .unwrap()
            .contains("rated games are between"),
        "{problem}"
    );
    assert_problem(
        app.get("/v1/leaderboard?category=chess").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    assert_problem(
        app.get("/v1/players/p_nobody/ratings?category=renju").await,
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
    )
    .await;
}

#[tokio::test]
async fn seats_show_the_ratings_their_players_sat_down_with() {
    let app = spawn_app().await;
    let (_, alice_token) = app.player("Alice").await;
    let (bob, bob_token) = app.player("Bob").await;
    let rated = json!({"rated": true});
    let first = app
        .online_game(&alice_token, &bob, &bob_token, rated.clone())
        .await;
    app.play_ok(&first, &alice_token, "h8").await;
    app.act(&first, "resign", &bob_token, StatusCode::OK).await;
    // They sat down as newcomers; the game's end does not rewrite that.
    let state = app.game(&first).await;
    for seat in ["black", "white"] {
        let rating = &state["seats"][seat]["rating"];
        assert!(close(&rating["rating"], 1500.0), "{rating}");
        assert!(close(&rating["deviation"], 350.0), "{rating}");
        assert_eq!(rating["provisional"], true, "{rating}");
    }

    // Their next game in the category shows what the first one made of them.
    let again = app.online_game(&alice_token, &bob, &bob_token, rated).await;
    let state = app.game(&again).await;
    assert!(close(&state["seats"]["black"]["rating"]["rating"], 1662.31));
    assert!(close(&state["seats"]["white"]["rating"]["rating"], 1337.69));
    let text = app.game_text(&again).await;
    assert!(
        text.contains("black: Alice (1662?) · white: Bob (1338?)"),
        "{text}"
    );

    // In another category they are newcomers still.
    let renju = app
        .online_game(&alice_token, &bob, &bob_token, json!({"rules": "renju"}))
        .await;
    let state = app.game(&renju).await;
    assert!(close(&state["seats"]["black"]["rating"]["rating"], 1500.0));

    // An open seat has none until somebody sits in it.
    let open = app
        .create_game(Some(&bob_token), json!({"black": "me", "white": "open"}))
        .await;
    assert!(open["game"]["seats"]["white"]["rating"].is_null(), "{open}");
    let id = open["game"]["id"].as_str().unwrap();
    let joined = app.act(id, "join", &alice_token, StatusCode::OK).await;
    assert!(
        close(
            &joined["game"]["seats"]["white"]["rating"]["rating"],
            1662.31
        ),
        "{joined}"
    );
    // The computer's seat has its level's.
    let computer = app
        .create_game(Some(&alice_token), json!({"white": {"ai": "beginner"}}))
        .await;
    let seat = &computer["game"]["seats"]["white"];
    assert_eq!(seat["kind"], "computer", "{seat}");
    assert!(close(&seat["rating"]["rating"], 1500.0), "{seat}");
}
