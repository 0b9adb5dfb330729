//! Two people on two devices: invitations, takebacks, draw offers, resign,
//! rematches, clocks and abandonment claims, and who may do what.

use std::time::Duration;

use gobang::service::OnlineConfig;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app, spawn_app_online};
use crate::live::EventReader;

/// Alice and Bob: (alice id, alice token, bob id, bob token).
async fn two_players(app: &TestApp) -> (String, String, String, String) {
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    (alice_id, alice, bob_id, bob)
}

/// Score, wins, losses, draws, abandoned, games.
async fn record(app: &TestApp, id: &str) -> [i64; 6] {
    let p = app.player_stats(id).await;
    ["score", "wins", "losses", "draws", "abandoned", "games"].map(|k| p[k].as_i64().unwrap())
}

#[tokio::test]
async fn an_invited_player_accepts_or_declines_and_only_they_can() {
    let app = spawn_app().await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let (_, carol) = app.player("Carol").await;
    let created = app
        .create_game(
            Some(&alice),
            json!({"black": "me", "white": {"player_id": bob_id}}),
        )
        .await;
    let game = created["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["status"], "waiting");
    assert_eq!(created["game"]["invited"], "white");
    assert_eq!(created["game"]["seats"]["white"]["player_id"], bob_id);
    // Bob finds the invitation among his games.
    let listed: Value = app
        .get(&format!("/v1/games?player={bob_id}&status=waiting"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(listed["games"][0]["id"], game.as_str());
    assert_eq!(listed["games"][0]["invited"], "white");

    assert_problem(
        app.play(&game, &alice, "h8").await,
        StatusCode::CONFLICT,
        "GAME_NOT_STARTED",
    )
    .await;
    let body = app.act(&game, "accept", &alice, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "NO_INVITATION");
    assert!(body["detail"].as_str().unwrap().contains("Bob"));
    let body = app.act(&game, "join", &carol, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "SEAT_UNAVAILABLE");
    let body = app
        .act(&game, "accept", &carol, StatusCode::FORBIDDEN)
        .await;
    assert_eq!(body["code"], "NOT_A_PLAYER_OF_THIS_GAME");

    let accepted = app.act(&game, "accept", &bob, StatusCode::OK).await;
    assert_eq!(accepted["status"], "in_progress");
    assert_eq!(accepted["invited"], Value::Null);
    assert_eq!(accepted["mode"], "online");
    let body = app.act(&game, "accept", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "NO_INVITATION");
    let body = app.act(&game, "cancel", &alice, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "GAME_ALREADY_STARTED");
    app.play_ok(&game, &alice, "h8").await;

    // A declined invitation ends the game unplayed and unscored.
    let created = app
        .create_game(
            Some(&alice),
            json!({"black": {"player_id": bob_id}, "white": "me"}),
        )
        .await;
    let declined_game = created["game"]["id"].as_str().unwrap().to_string();
    assert_eq!(created["game"]["invited"], "black");
    let declined = app
        .act(&declined_game, "decline", &bob, StatusCode::OK)
        .await;
    assert_eq!(declined["status"], "finished");
    assert_eq!(declined["result"]["reason"], "declined");
    assert_eq!(declined["result"]["winner"], Value::Null);
    assert_eq!(record(&app, &alice_id).await, [0; 6]);
    assert_eq!(record(&app, &bob_id).await, [0; 6]);
    let body = app
        .act(&declined_game, "rematch", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "REMATCH_UNAVAILABLE");

    // The creator may call off a game nobody has joined yet.
    let created = app
        .create_game(Some(&alice), json!({"black": "me", "white": "open"}))
        .await;
    let open = created["game"]["id"].as_str().unwrap().to_string();
    let body = app
        .act(&open, "cancel", &carol, StatusCode::FORBIDDEN)
        .await;
    assert_eq!(body["code"], "NOT_A_PLAYER_OF_THIS_GAME");
    let cancelled = app.act(&open, "cancel", &alice, StatusCode::OK).await;
    assert_eq!(cancelled["result"]["reason"], "cancelled");
    let body = app.act(&open, "join", &carol, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "SEAT_UNAVAILABLE");
}

#[tokio::test]
async fn a_takeback_goes_back_to_the_askers_turn_and_three_declines_end_the_asking() {
    let app = spawn_app().await;
    let (_, alice, bob_id, bob) = two_players(&app).await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;

    let body = app
        .act(&game, "takeback", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "NOTHING_TO_UNDO", "no move of hers yet");
    for (token, at) in [(&alice, "h8"), (&bob, "h9"), (&alice, "i8")] {
        app.play_ok(&game, token, at).await;
    }
    // Bob, to move, asks to take back h9: i8 and h9 go.
    let asked = app.act(&game, "takeback", &bob, StatusCode::OK).await;
    assert_eq!(asked["offer"]["kind"], "takeback");
    assert_eq!(asked["offer"]["by"], "white");
    assert_eq!(asked["can_undo"], false, "one offer at a time");
    let text = app.game_text(&game).await;
    assert!(text.contains("white asks for a takeback"), "{text}");
    let body = app.act(&game, "takeback", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "OFFER_PENDING");
    let body = app.act(&game, "draw", &alice, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "OFFER_PENDING");
    let body = app
        .act(&game, "takeback/accept", &bob, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "NO_OFFER", "not his own");
    let body = app
        .act(&game, "draw/accept", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "NO_OFFER", "not a draw offer");
    let taken = app
        .act(&game, "takeback/accept", &alice, StatusCode::OK)
        .await;
    assert_eq!(taken["ply"], 1);
    assert_eq!(taken["to_move"], "white");
    assert_eq!(taken["offer"], Value::Null);
    assert_eq!(taken["last_move"]["name"], "h8");
    let moves: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(moves["moves"].as_array().unwrap().len(), 1);
    assert_problem(
        app.post(&format!("/v1/games/{game}/redo"), Some(&bob), None)
            .await,
        StatusCode::CONFLICT,
        "NOTHING_TO_REDO",
    )
    .await;

    // Bob plays on; Alice asks to take back her h8 (and Bob's reply with it).
    // Bob declines, three times.
    app.play_ok(&game, &bob, "j10").await;
    for n in 1..=3 {
        // `undo` in an online game is a takeback request too.
        let asked = app.act(&game, "undo", &alice, StatusCode::OK).await;
        assert_eq!(asked["offer"]["by"], "black");
        let declined = app
            .act(&game, "takeback/decline", &bob, StatusCode::OK)
            .await;
        assert_eq!(declined["offer"], Value::Null);
        assert_eq!(declined["declined"]["black"]["takeback"], n);
        assert_eq!(declined["ply"], 2, "nothing taken back");
    }
    let body = app
        .act(&game, "takeback", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "TAKEBACK_LIMIT_REACHED");
    // Bob still may ask; moving on drops an unanswered request.
    app.play_ok(&game, &alice, "k11").await;
    let asked = app.act(&game, "takeback", &bob, StatusCode::OK).await;
    assert_eq!(asked["offer"]["by"], "white");
    let moved = app.play_ok(&game, &bob, "a1").await;
    assert_eq!(moved["game"]["offer"], Value::Null);
    assert_eq!(moved["game"]["declined"]["white"]["takeback"], 0);
}

#[tokio::test]
async fn draw_offers_end_in_a_draw_when_accepted_with_the_same_three_declines_limit() {
    let app = spawn_app().await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    app.play_ok(&game, &alice, "h8").await;
    for n in 1..=3 {
        let offered = app.act(&game, "draw", &bob, StatusCode::OK).await;
        assert_eq!(offered["offer"]["kind"], "draw");
        let body = app
            .act(&game, "draw/decline", &bob, StatusCode::CONFLICT)
            .await;
        assert_eq!(body["code"], "NO_OFFER");
        let declined = app.act(&game, "draw/decline", &alice, StatusCode::OK).await;
        assert_eq!(declined["declined"]["white"]["draw"], n);
    }
    let body = app.act(&game, "draw", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "DRAW_OFFER_LIMIT_REACHED");
    // Alice, who has declined but never offered, still may.
    app.act(&game, "draw", &alice, StatusCode::OK).await;
    let drawn = app.act(&game, "draw/accept", &bob, StatusCode::OK).await;
    assert_eq!(drawn["status"], "finished");
    assert_eq!(drawn["result"]["reason"], "draw_agreed");
    assert_eq!(drawn["result"]["winner"], Value::Null);
    assert_eq!(record(&app, &alice_id).await, [0, 0, 0, 1, 0, 1]);
    assert_eq!(record(&app, &bob_id).await, [0, 0, 0, 1, 0, 1]);
    let body = app.act(&game, "draw", &alice, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "GAME_OVER");

    // Draw offers are for two people.
    let created = app.create_game(Some(&alice), json!({})).await;
    let against_computer = created["game"]["id"].as_str().unwrap();
    let body = app
        .act(against_computer, "draw", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "NOT_AN_ONLINE_GAME");
}

#[tokio::test]
async fn resigning_ends_the_online_game_for_the_opponent_whoever_is_to_move() {
    let app = spawn_app().await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    app.play_ok(&game, &alice, "h8").await;
    // Alice resigns on Bob's turn.
    let resigned = app.act(&game, "resign", &alice, StatusCode::OK).await;
    assert_eq!(resigned["result"]["winner"], "white");
    assert_eq!(resigned["result"]["reason"], "resign");
    assert_eq!(record(&app, &alice_id).await, [-1, 0, 1, 0, 0, 1]);
    assert_eq!(record(&app, &bob_id).await, [1, 1, 0, 0, 0, 1]);
    let body = app.act(&game, "resign", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "GAME_OVER");
}

#[tokio::test]
async fn a_rematch_swaps_colours_once_both_agree() {
    let app = spawn_app().await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let game = app
        .online_game(&alice, &bob_id, &bob, json!({"rules": "renju"}))
        .await;
    let body = app
        .act(&game, "rematch", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(body["code"], "REMATCH_UNAVAILABLE", "not over yet");
    app.act(&game, "resign", &bob, StatusCode::OK).await;

    let proposed = app.act(&game, "rematch", &alice, StatusCode::OK).await;
    assert_eq!(proposed["offer"]["kind"], "rematch");
    assert_eq!(proposed["offer"]["by"], "black");
    app.act(&game, "rematch/decline", &bob, StatusCode::OK)
        .await;
    app.act(&game, "rematch", &alice, StatusCode::OK).await;
    let response = app
        .post(
            &format!("/v1/games/{game}/rematch/accept"),
            Some(&bob),
            None,
        )
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let rematch: Value = response.json().await.unwrap();
    let rematch_id = rematch["id"].as_str().unwrap();
    assert_eq!(location, format!("/v1/games/{rematch_id}"));
    assert_eq!(rematch["rules"], "renju");
    assert_eq!(rematch["status"], "in_progress");
    assert_eq!(rematch["seats"]["black"]["player_id"], bob_id.as_str());
    assert_eq!(rematch["seats"]["white"]["player_id"], alice_id.as_str());
    assert_eq!(rematch["rematch_of"], game.as_str());
    let old = app.game(&game).await;
    assert_eq!(old["rematch_id"], rematch_id);
    assert_eq!(old["offer"], Value::Null);
    assert_eq!(old["declined"]["black"]["rematch"], 1);
    let body = app.act(&game, "rematch", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "REMATCH_UNAVAILABLE");
    // Bob now plays black.
    app.play_ok(rematch_id, &bob, "h8").await;

    // Against the computer the rematch starts at once, the computer now black.
    let created = app.create_game(Some(&alice), json!({})).await;
    let first = created["game"]["id"].as_str().unwrap().to_string();
    app.act(&first, "resign", &alice, StatusCode::OK).await;
    let response = app
        .post(&format!("/v1/games/{first}/rematch"), Some(&alice), None)
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let second: Value = response.json().await.unwrap();
    assert_eq!(second["seats"]["black"]["kind"], "computer");
    assert_eq!(second["seats"]["white"]["player_id"], alice_id.as_str());
    assert_eq!(second["ply"], 1, "the computer opened");
    assert_eq!(second["to_move"], "white");
}

#[tokio::test]
async fn a_clock_that_runs_out_ends_the_game_with_nobody_calling_and_scores_once() {
    let app = spawn_app().await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let game = app
        .online_game(
            &alice,
            &bob_id,
            &bob,
            json!({"clock": {"main_ms": 1500, "floor_ms": 1000}}),
        )
        .await;
    let state = app.game(&game).await;
    assert_eq!(state["clock"]["main_ms"], 1500);
    assert_eq!(state["clock"]["running"], "black");
    assert_eq!(state["claimable_at"], Value::Null, "the clock decides");
    let text = app.game_text(&game).await;
    // Black's clock is running; white's stands at its main time.
    assert!(text.contains("clock: black 0:0"), "{text}");
    assert!(text.contains(" · white 0:01\n"), "{text}");
    let mut follower =
        EventReader::open(&app, &game, Some(state["version"].as_i64().unwrap())).await;

    // Black thinks 700 ms: 800 ms left, below the floor, so back to 1000.
    tokio::time::sleep(Duration::from_millis(700)).await;
    let moved = app.play_ok(&game, &alice, "h8").await;
    let clock = &moved["game"]["clock"];
    assert_eq!(clock["black_ms"], 1000, "{clock}");
    assert_eq!(clock["running"], "white");
    assert!(moved["moves"][0]["thinking_ms"].as_i64().unwrap() >= 700);
    assert!(moved["game"]["thinking_ms"]["black"].as_i64().unwrap() >= 700);
    assert_eq!(follower.next().await.1["ply"], 1);

    // White never moves; nobody calls the API; the server ends the game.
    let (_, finished) = follower.next().await;
    assert_eq!(finished["status"], "finished");
    assert_eq!(finished["result"]["reason"], "timeout");
    assert_eq!(finished["result"]["winner"], "black");
    assert_eq!(finished["clock"]["white_ms"], 0);
    assert_eq!(finished["clock"]["running"], Value::Null);
    assert!(finished["thinking_ms"]["white"].as_i64().unwrap() >= 1500);
    assert_eq!(record(&app, &alice_id).await, [1, 1, 0, 0, 0, 1]);
    assert_eq!(record(&app, &bob_id).await, [-1, 0, 1, 0, 0, 1]);

    // A late move changes nothing; the scores were counted once.
    assert_problem(
        app.play(&game, &bob, "h9").await,
        StatusCode::CONFLICT,
        "GAME_OVER",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(record(&app, &alice_id).await, [1, 1, 0, 0, 0, 1]);
    assert_eq!(record(&app, &bob_id).await, [-1, 0, 1, 0, 0, 1]);
    assert_eq!(app.game(&game).await["version"], finished["version"]);
}

#[tokio::test]
async fn clocks_are_checked_and_only_for_two_people() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    for clock in [
        json!({"main_ms": 500}),
        json!({"main_ms": 60000, "floor_ms": 60001}),
        json!({"main_ms": 100000000}),
        json!({"main_ms": 60000, "byoyomi": 3}),
    ] {
        let response = app
            .post(
                "/v1/games",
                Some(&alice),
                Some(json!({"black": "me", "white": "open", "clock": clock})),
            )
            .await;
        assert!(response.status().is_client_error(), "{clock}");
    }
    let response = app
        .post(
            "/v1/games",
            Some(&alice),
            Some(json!({"clock": {"main_ms": 60000}})),
        )
        .await;
    assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    // The floor defaults to 60 s, or the main time when that is shorter.
    let created = app
        .create_game(
            Some(&alice),
            json!({"black": "me", "white": "open", "clock": {"main_ms": 30000}}),
        )
        .await;
    assert_eq!(created["game"]["clock"]["floor_ms"], 30000);
    assert_eq!(
        created["game"]["clock"]["running"],
        Value::Null,
        "not started"
    );
}

#[tokio::test]
async fn the_win_can_be_claimed_from_an_idle_opponent_only_after_the_idle_time() {
    let app = spawn_app_online(OnlineConfig {
        idle_limit: Duration::from_millis(1200),
    })
    .await;
    let (alice_id, alice, bob_id, bob) = two_players(&app).await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    let moved = app.play_ok(&game, &alice, "h8").await;
    assert!(moved["game"]["claimable_at"].is_string());

    let response = app
        .post(&format!("/v1/games/{game}/claim"), Some(&alice), None)
        .await;
    let retry_after: u64 = response.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&retry_after), "{retry_after}");
    assert_problem(response, StatusCode::CONFLICT, "CLAIM_TOO_EARLY").await;
    let body = app.act(&game, "claim", &bob, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "CLAIM_NOT_ALLOWED", "Bob is the one to move");

    tokio::time::sleep(Duration::from_millis(1300)).await;
    let claimed = app.act(&game, "claim", &alice, StatusCode::OK).await;
    assert_eq!(claimed["result"]["reason"], "abandoned");
    assert_eq!(claimed["result"]["winner"], "black");
    assert_eq!(record(&app, &alice_id).await, [1, 1, 0, 0, 0, 1]);
    assert_eq!(record(&app, &bob_id).await, [-3, 0, 0, 0, 1, 1]);
    let body = app.act(&game, "claim", &alice, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "GAME_OVER");

    // Not against the computer.
    let created = app.create_game(Some(&alice), json!({})).await;
    let body = app
        .act(
            created["game"]["id"].as_str().unwrap(),
            "claim",
            &alice,
            StatusCode::CONFLICT,
        )
        .await;
    assert_eq!(body["code"], "NOT_AN_ONLINE_GAME");
}

#[tokio::test]
async fn strangers_can_do_none_of_it_and_without_a_token_nobody_can() {
    let app = spawn_app().await;
    let (_, alice, bob_id, bob) = two_players(&app).await;
    let (_, mallory) = app.player("Mallory").await;
    let game = app.online_game(&alice, &bob_id, &bob, json!({})).await;
    app.play_ok(&game, &alice, "h8").await;
    app.act(&game, "takeback", &alice, StatusCode::OK).await;
    let actions = [
        "accept",
        "decline",
        "cancel",
        "takeback",
        "takeback/accept",
        "takeback/decline",
        "draw",
        "draw/accept",
        "draw/decline",
        "rematch",
        "rematch/accept",
        "rematch/decline",
        "claim",
        "resign",
        "undo",
    ];
    let before = app.game(&game).await;
    for action in actions {
        let body = app
            .act(&game, action, &mallory, StatusCode::FORBIDDEN)
            .await;
        assert_eq!(body["code"], "NOT_A_PLAYER_OF_THIS_GAME", "{action}");
        let response = app
            .post(&format!("/v1/games/{game}/{action}"), None, None)
            .await;
        assert_problem(response, StatusCode::UNAUTHORIZED, "UNAUTHORIZED").await;
    }
    assert_eq!(app.game(&game).await["version"], before["version"]);
}
