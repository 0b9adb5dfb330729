//! Opening rules through the real server: every phase of RIF, Yamaguchi,
//! Swap2 and Swap1, every wrong action with its code, swaps moving players
//! between seats (and so whose score changes), the 26 names in all 8
//! orientations, undo through the opening, and the computer in each role.

use reqwest::{Response, StatusCode};
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};
use crate::live::EventReader;

async fn opening(app: &TestApp, game: &str, token: &str, body: Value) -> Response {
    app.post(
        &format!("/v1/games/{game}/opening"),
        Some(token),
        Some(body),
    )
    .await
}

/// An opening action that must succeed; returns the body (moves and game).
async fn opening_ok(app: &TestApp, game: &str, token: &str, body: Value) -> Value {
    let response = opening(app, game, token, body.clone()).await;
    let status = response.status();
    let answer: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::OK, "{body}: {answer}");
    answer
}

fn names(points: &Value) -> Vec<String> {
    points
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

/// Score, wins, losses.
async fn score(app: &TestApp, id: &str) -> [i64; 3] {
    let p = app.player_stats(id).await;
    ["score", "wins", "losses"].map(|k| p[k].as_i64().unwrap())
}

#[tokio::test]
async fn a_rif_game_between_two_people_goes_through_every_phase() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app
        .online_game(
            &alice,
            &bob_id,
            &bob,
            json!({"rules": "renju", "opening": "rif"}),
        )
        .await;
    let state = app.game(&game).await;
    assert_eq!(state["opening"]["rule"], "rif");
    assert_eq!(state["opening"]["phase"], "place");
    assert_eq!(state["opening"]["to_act"], "black");
    assert_eq!(state["opening"]["stones_left"], 3);
    assert_eq!(state["opening"]["zone"], 0);

    // The tentative black (Alice) places all three stones, white's too.
    assert_problem(
        app.play(&game, &bob, "h8").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    assert_problem(
        app.play(&game, &alice, "h9").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "OUTSIDE_OPENING_ZONE",
    )
    .await;
    app.play_ok(&game, &alice, "h8").await;
    assert_problem(
        app.play(&game, &alice, "h10").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "OUTSIDE_OPENING_ZONE",
    )
    .await;
    let second = app.play_ok(&game, &alice, "h9").await;
    assert_eq!(
        second["moves"][0]["color"], "white",
        "Alice placed white's stone"
    );
    assert_problem(
        app.play(&game, &alice, "h11").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "OUTSIDE_OPENING_ZONE",
    )
    .await;
    let third = app.play_ok(&game, &alice, "j10").await;
    let state = &third["game"];
    assert_eq!(state["opening"]["name"]["name"], "Sosei");
    assert_eq!(state["opening"]["name"]["kanji"], "疎星");
    assert_eq!(state["opening"]["phase"], "swap");
    assert_eq!(state["opening"]["to_act"], "white");
    assert_eq!(state["opening"]["actions"], json!(["swap"]));
    let text = app.game_text(&game).await;
    assert!(
        text.contains("opening: rif · Sosei 疎星 (D3) · white to swap\n"),
        "{text}"
    );

    // Bob decides on the colours; nothing else will do.
    assert_problem(
        app.play(&game, &alice, "k8").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    assert_problem(
        app.play(&game, &bob, "k8").await,
        StatusCode::CONFLICT,
        "OPENING_DECISION_REQUIRED",
    )
    .await;
    assert_problem(
        opening(&app, &game, &bob, json!({"declare": 2})).await,
        StatusCode::CONFLICT,
        "OPENING_WRONG_PHASE",
    )
    .await;
    assert_problem(
        opening(&app, &game, &bob, json!({"swap": true, "declare": 2})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    assert_problem(
        opening(&app, &game, &alice, json!({"swap": true})).await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    let swapped = opening_ok(&app, &game, &bob, json!({"swap": true})).await;
    let state = &swapped["game"];
    assert_eq!(state["opening"]["swapped"], true);
    assert_eq!(
        state["seats"]["black"]["player_id"], bob_id,
        "Bob now plays black"
    );
    assert_eq!(state["seats"]["white"]["player_id"], alice_id);
    assert_eq!(state["opening"]["phase"], "move");
    assert_eq!(state["opening"]["to_act"], "white");

    // White (now Alice) plays move 4 anywhere; black (Bob) offers two fifths.
    app.play_ok(&game, &alice, "l12").await;
    assert_eq!(app.game(&game).await["opening"]["offer_count"], 2);
    assert_problem(
        opening(&app, &game, &bob, json!({"offer": ["g7"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    assert_problem(
        opening(&app, &game, &bob, json!({"offer": ["g7", "h8"]})).await,
        StatusCode::CONFLICT,
        "OCCUPIED",
    )
    .await;
    let offered = opening_ok(
        &app,
        &game,
        &bob,
        json!({"offer": ["g7", {"x": 9, "y": 9}]}),
    )
    .await;
    let state = &offered["game"];
    assert_eq!(names(&state["opening"]["offered"]), ["g7", "j6"]);
    assert_eq!(state["opening"]["phase"], "choose");
    assert_eq!(state["opening"]["to_act"], "white");
    assert_eq!(state["ply"], 4, "offers are not stones");

    // White chooses one (played as black's fifth), then plays the sixth.
    assert_problem(
        opening(&app, &game, &alice, json!({"choose": "k5"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "NOT_OFFERED",
    )
    .await;
    assert_problem(
        app.play(&game, &alice, "k5").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "NOT_OFFERED",
    )
    .await;
    let chosen = opening_ok(&app, &game, &alice, json!({"choose": "j6"})).await;
    assert_eq!(chosen["moves"][0]["color"], "black");
    assert_eq!(chosen["moves"][0]["point"]["name"], "j6");
    assert_eq!(chosen["game"]["opening"]["phase"], "done");
    assert_problem(
        opening(&app, &game, &alice, json!({"swap": false})).await,
        StatusCode::CONFLICT,
        "OPENING_WRONG_PHASE",
    )
    .await;
    app.play_ok(&game, &alice, "g9").await;

    // Bob's last stone is the chosen fifth: a takeback would reach into the
    // opening, so there is none to ask for.
    let refused = app.act(&game, "takeback", &bob, StatusCode::CONFLICT).await;
    assert_eq!(refused["code"], "NOTHING_TO_UNDO");
    assert!(refused["detail"].as_str().unwrap().contains("opening"));

    // Bob (black after the swap) resigns: Alice, who began as black, wins.
    app.act(&game, "resign", &bob, StatusCode::OK).await;
    let end = app.game(&game).await;
    assert_eq!(end["result"]["winner"], "white");
    assert_eq!(score(&app, &alice_id).await, [1, 1, 0]);
    assert_eq!(score(&app, &bob_id).await, [-1, 0, 1]);
}

/// A local RIF game at black's fifth-move offer: `stones` placed, no swap,
/// then white's fourth.
async fn at_the_offer(app: &TestApp, stones: [&str; 3], fourth: &str) -> (String, String) {
    let (game, token) = app
        .local_game(json!({"rules": "renju", "opening": "rif"}))
        .await;
    opening_ok(app, &game, &token, json!({"place": stones})).await;
    opening_ok(app, &game, &token, json!({"swap": false})).await;
    app.play_ok(&game, &token, fourth).await;
    (game, token)
}

#[tokio::test]
async fn fifth_move_offers_the_position_maps_onto_each_other_are_refused() {
    let app = spawn_app().await;
    // Each position is kept by one mirror of the board (a rotation never
    // keeps one with two black stones and two white): an offer and its
    // image under that mirror are one move. (The rules' tests show all 8
    // symmetries on a position that every one keeps.)
    for (stones, fourth, mirrored, other) in [
        (["h8", "h9", "h10"], "h7", ["g8", "i8"], ["g8", "i6"]), // left-right
        (["h8", "i8", "j8"], "g8", ["h9", "h7"], ["h9", "i6"]),  // top-bottom
        (["h8", "i7", "j6"], "g9", ["h10", "f8"], ["h10", "f7"]), // one diagonal
        (["h8", "i9", "j10"], "g7", ["h6", "f8"], ["h6", "f9"]), // the other
    ] {
        let (game, token) = at_the_offer(&app, stones, fourth).await;
        let body = assert_problem(
            opening(&app, &game, &token, json!({"offer": mirrored})).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "SYMMETRIC_OFFERS",
        )
        .await;
        assert!(
            body["detail"].as_str().unwrap().contains(mirrored[1]),
            "{body}"
        );
        let body = assert_problem(
            opening(
                &app,
                &game,
                &token,
                json!({"offer": [mirrored[0], mirrored[0]]}),
            )
            .await,
            StatusCode::UNPROCESSABLE_ENTITY,
            "VALIDATION",
        )
        .await;
        assert!(body["detail"].as_str().unwrap().contains("twice"));
        let offered = opening_ok(&app, &game, &token, json!({"offer": other})).await;
        assert_eq!(names(&offered["game"]["opening"]["offered"]), other);
    }
}

#[tokio::test]
async fn all_26_openings_are_named_in_all_8_orientations() {
    let app = spawn_app().await;
    let (_, token) = app.player("Namer").await;
    // The table's stones (renju names on 15×15), turned and mirrored here
    // in x, y with y from the top.
    let table: Value =
        serde_json::from_str(include_str!("../data/renju_26_openings.json")).unwrap();
    type Transform = fn(i64, i64) -> (i64, i64);
    let transforms: [Transform; 8] = [
        |x, y| (x, y),
        |x, y| (14 - y, x),
        |x, y| (14 - x, 14 - y),
        |x, y| (y, 14 - x),
        |x, y| (14 - x, y),
        |x, y| (x, 14 - y),
        |x, y| (y, x),
        |x, y| (14 - y, 14 - x),
    ];
    for named in table["openings"].as_array().unwrap() {
        for transform in transforms {
            let stones: Vec<Value> = named["gomocup_xy"]
                .as_array()
                .unwrap()
                .iter()
                .map(|xy| {
                    let (x, y) = transform(xy[0].as_i64().unwrap(), xy[1].as_i64().unwrap());
                    json!({"x": x, "y": y})
                })
                .collect();
            let created = app
                .create_game(
                    Some(&token),
                    json!({"rules": "renju", "opening": "rif", "black": "me", "white": "me"}),
                )
                .await;
            let game = created["game"]["id"].as_str().unwrap();
            let placed = opening_ok(&app, game, &token, json!({"place": stones})).await;
            let name = &placed["game"]["opening"]["name"];
            assert_eq!(name["id"], named["id"], "{stones:?}");
            assert_eq!(name["name"], named["name"]);
            assert_eq!(name["kanji"], named["kanji"]);
            assert_eq!(name["kind"], named["type"]);
        }
    }
}

#[tokio::test]
async fn swap2_gives_the_second_player_three_choices() {
    let app = spawn_app().await;
    let (alice_id, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;

    // 1. Bob stays white and plays the fourth stone.
    let game = app
        .online_game(&alice, &bob_id, &bob, json!({"opening": "swap2"}))
        .await;
    assert_problem(
        opening(
            &app,
            &game,
            &alice,
            json!({"place": ["h8", "j9", "g10", "k3"]}),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    let placed = opening_ok(&app, &game, &alice, json!({"place": ["h8", "j9", "g10"]})).await;
    assert_eq!(placed["moves"].as_array().unwrap().len(), 3);
    let state = &placed["game"]["opening"];
    assert_eq!(state["phase"], "swap_or_place");
    assert_eq!(state["actions"], json!(["swap", "place"]));
    assert_problem(
        app.play(&game, &bob, "k8").await,
        StatusCode::CONFLICT,
        "OPENING_DECISION_REQUIRED",
    )
    .await;
    assert_problem(
        opening(&app, &game, &bob, json!({"place": ["k8"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    let stayed = opening_ok(&app, &game, &bob, json!({"swap": false})).await;
    assert_eq!(stayed["game"]["opening"]["phase"], "done");
    assert_eq!(stayed["game"]["seats"]["white"]["player_id"], bob_id);
    app.play_ok(&game, &bob, "k8").await;

    // 2. Bob takes black: Alice plays the fourth stone, as white.
    let game = app
        .online_game(&alice, &bob_id, &bob, json!({"opening": "swap2"}))
        .await;
    opening_ok(&app, &game, &alice, json!({"place": ["h8", "j9", "g10"]})).await;
    let took = opening_ok(&app, &game, &bob, json!({"swap": true})).await;
    assert_eq!(took["game"]["seats"]["black"]["player_id"], bob_id);
    assert_eq!(took["game"]["seats"]["white"]["player_id"], alice_id);
    assert_eq!(took["game"]["opening"]["to_act"], "white");
    assert_problem(
        app.play(&game, &bob, "k8").await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    app.play_ok(&game, &alice, "k8").await;
    // Alice, now white, resigns: Bob's black wins and Bob scores.
    app.act(&game, "resign", &alice, StatusCode::OK).await;
    assert_eq!(app.game(&game).await["result"]["winner"], "black");
    assert_eq!(score(&app, &bob_id).await, [1, 1, 0]);

    // 3. Bob places two more (white's, then black's); Alice chooses.
    let game = app
        .online_game(&alice, &bob_id, &bob, json!({"opening": "swap2"}))
        .await;
    opening_ok(&app, &game, &alice, json!({"place": ["h8", "j9", "g10"]})).await;
    let two = opening_ok(&app, &game, &bob, json!({"place": ["k8", "f11"]})).await;
    let colours: Vec<&str> = two["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["color"].as_str().unwrap())
        .collect();
    assert_eq!(colours, ["white", "black"]);
    let state = &two["game"]["opening"];
    assert_eq!(
        (state["phase"].clone(), state["to_act"].clone()),
        (json!("swap"), json!("black"))
    );
    assert_problem(
        opening(&app, &game, &bob, json!({"swap": true})).await,
        StatusCode::CONFLICT,
        "NOT_YOUR_TURN",
    )
    .await;
    let chose = opening_ok(&app, &game, &alice, json!({"swap": true})).await;
    assert_eq!(
        chose["game"]["seats"]["white"]["player_id"], alice_id,
        "Alice takes white"
    );
    assert_eq!(chose["game"]["opening"]["phase"], "done");
    assert_eq!(
        chose["game"]["opening"]["decisions"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    app.play_ok(&game, &alice, "e12").await;
}

#[tokio::test]
async fn swap1_and_yamaguchi_run_their_phases() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "standard", "opening": "swap1"}))
        .await;
    app.play_ok(&game, &token, "a1").await; // no zone outside renju
    app.play_ok(&game, &token, "o15").await;
    app.play_ok(&game, &token, "h8").await;
    assert_eq!(app.game(&game).await["opening"]["phase"], "swap");
    opening_ok(&app, &game, &token, json!({"swap": false})).await;
    assert_eq!(app.game(&game).await["opening"]["phase"], "done");

    let (game, token) = app
        .local_game(json!({"rules": "renju", "opening": "yamaguchi"}))
        .await;
    opening_ok(&app, &game, &token, json!({"place": ["h8", "i9"]})).await;
    opening_ok(&app, &game, &token, json!({"place": ["i7"]})).await;
    let state = app.game(&game).await;
    assert_eq!(state["opening"]["phase"], "declare");
    assert_eq!(state["opening"]["name"]["name"], "Hogetsu");
    assert_problem(
        opening(&app, &game, &token, json!({"declare": 0})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    opening_ok(&app, &game, &token, json!({"declare": 3})).await;
    opening_ok(&app, &game, &token, json!({"swap": true})).await;
    app.play_ok(&game, &token, "k10").await;
    let state = app.game(&game).await;
    assert_eq!(state["opening"]["declared_count"], 3);
    assert_eq!(state["opening"]["offer_count"], 3);
    assert_problem(
        opening(&app, &game, &token, json!({"offer": ["g10", "f5"]})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "VALIDATION",
    )
    .await;
    opening_ok(&app, &game, &token, json!({"offer": ["g10", "f5", "l4"]})).await;
    let chosen = opening_ok(&app, &game, &token, json!({"choose": "f5"})).await;
    assert_eq!(chosen["game"]["opening"]["phase"], "done");
    assert_eq!(chosen["game"]["ply"], 5);
}

#[tokio::test]
async fn a_local_game_undoes_and_redoes_through_the_opening() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "renju", "opening": "rif"}))
        .await;
    opening_ok(&app, &game, &token, json!({"place": ["h8", "h9", "j10"]})).await;
    opening_ok(&app, &game, &token, json!({"swap": true})).await;
    app.play_ok(&game, &token, "g9").await;
    opening_ok(&app, &game, &token, json!({"offer": ["j8", "g7"]})).await;
    opening_ok(&app, &game, &token, json!({"choose": "g7"})).await;

    // Back step by step: the chosen fifth, the offer, the fourth, the swap,
    // then the three placed stones.
    let mut phases = Vec::new();
    loop {
        let response = app
            .post(&format!("/v1/games/{game}/undo"), Some(&token), None)
            .await;
        if response.status() != StatusCode::OK {
            assert_problem(response, StatusCode::CONFLICT, "NOTHING_TO_UNDO").await;
            break;
        }
        let state: Value = response.json().await.unwrap();
        phases.push(format!(
            "{} {}",
            state["ply"],
            state["opening"]["phase"].as_str().unwrap()
        ));
    }
    assert_eq!(
        phases,
        [
            "4 choose", "4 offer", "3 move", "3 swap", "2 place", "1 place", "0 place"
        ]
    );
    let state = app.game(&game).await;
    assert_eq!(state["opening"]["decisions"], json!([]));
    assert_eq!(
        state["can_redo"], true,
        "the stones before the first decision"
    );
    let redone = app.act(&game, "redo", &token, StatusCode::OK).await;
    assert_eq!(redone["ply"], 1);
}

#[tokio::test]
async fn an_online_takeback_never_crosses_a_swap() {
    let app = spawn_app().await;
    let (_, alice) = app.player("Alice").await;
    let (bob_id, bob) = app.player("Bob").await;
    let game = app
        .online_game(&alice, &bob_id, &bob, json!({"opening": "swap1"}))
        .await;
    // During the opening nothing can be taken back.
    app.play_ok(&game, &alice, "h8").await;
    let refused = app
        .act(&game, "takeback", &alice, StatusCode::CONFLICT)
        .await;
    assert_eq!(refused["code"], "NOTHING_TO_UNDO");
    opening_ok(&app, &game, &alice, json!({"place": ["j9", "g10"]})).await;
    opening_ok(&app, &game, &bob, json!({"swap": true})).await;
    // Bob now plays black, whose stones Alice placed before the swap.
    app.play_ok(&game, &alice, "k8").await;
    let refused = app.act(&game, "takeback", &bob, StatusCode::CONFLICT).await;
    assert_eq!(refused["code"], "NOTHING_TO_UNDO");
    assert_eq!(app.game(&game).await["can_undo"], true, "Alice could ask");
    // Alice's fourth stone came after the swap: hers to ask back.
    app.act(&game, "takeback", &alice, StatusCode::OK).await;
    let back = app
        .act(&game, "takeback/accept", &bob, StatusCode::OK)
        .await;
    assert_eq!(back["ply"], 3);
    assert_eq!(back["opening"]["swapped"], true, "the swap stands");
    assert_eq!(back["opening"]["phase"], "done");
}

#[tokio::test]
async fn openings_are_checked_at_creation_and_renju_begins_at_the_centre() {
    let app = spawn_app().await;
    let (_, token) = app.player("Ann").await;
    for body in [
        json!({"rules": "tictactoe", "opening": "swap2"}),
        json!({"rules": "freestyle", "board_size": 14, "opening": "rif"}),
        json!({"opening": "pro"}),
    ] {
        let response = app.post("/v1/games", Some(&token), Some(body)).await;
        assert_problem(response, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    }
    let (game, token) = app.local_game(json!({"rules": "renju"})).await;
    assert_eq!(app.game(&game).await["opening"]["rule"], "free");
    let body = assert_problem(
        app.play(&game, &token, "a1").await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "OUTSIDE_OPENING_ZONE",
    )
    .await;
    assert!(body["detail"].as_str().unwrap().contains("centre"));
    app.play_ok(&game, &token, "h8").await;
    app.play_ok(&game, &token, "a1").await;
}

/// Empty points of a 15×15 state nearest the centre, as `{"x", "y"}`.
fn empty_near_centre(state: &Value) -> Vec<Value> {
    let board: Vec<&str> = state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    let mut points: Vec<(u8, u8)> = (0..15u8)
        .flat_map(|y| (0..15u8).map(move |x| (x, y)))
        .filter(|&(x, y)| board[y as usize].as_bytes()[x as usize] == b'.')
        .collect();
    points.sort_by_key(|&(x, y)| (x.abs_diff(7).max(y.abs_diff(7)), y, x));
    points
        .into_iter()
        .map(|(x, y)| json!({"x": x, "y": y}))
        .collect()
}

/// Plays a game against the computer until its opening is over and two
/// more moves are on the board, the person making whatever decision the
/// opening asks of them (`swap` when asked to swap); every answer of the
/// computer must keep the game legal. Returns the final state.
async fn play_through_the_opening(
    app: &TestApp,
    token: &str,
    me: &str,
    created: Value,
    first_stones: [&str; 3],
    swap: bool,
) -> Value {
    let game = created["game"]["id"].as_str().unwrap().to_string();
    let mut state = created["game"].clone();
    for _ in 0..30 {
        if state["status"] != "in_progress"
            || (state["opening"]["phase"] == "done" && state["ply"].as_u64().unwrap() >= 7)
        {
            break;
        }
        let to_act = state["opening"]["to_act"].as_str().unwrap();
        assert_eq!(
            state["seats"][to_act]["player_id"], me,
            "after the computer's turn it is the person's: {}",
            state["opening"]
        );
        let phase = state["opening"]["phase"].as_str().unwrap().to_string();
        let free = empty_near_centre(&state);
        let body = match phase.as_str() {
            "place" if state["ply"] == 0 => json!({"place": first_stones}),
            "place" => json!({"place": [free[0]]}),
            "swap" => json!({ "swap": swap }),
            "swap_or_place" => json!({"place": [free[3], free[8]]}),
            "declare" => json!({"declare": 2}),
            "offer" => {
                let count = state["opening"]["offer_count"].as_u64().unwrap() as usize;
                // Points near the centre, trying others while a symmetry
                // pairs two up or one is forbidden.
                let mut answer = Value::Null;
                for start in 0..10 {
                    let offer: Vec<Value> = free[start..]
                        .iter()
                        .step_by(3)
                        .take(count)
                        .cloned()
                        .collect();
                    let response = opening(app, &game, token, json!({"offer": offer})).await;
                    if response.status() == StatusCode::OK {
                        answer = response.json().await.unwrap();
                        break;
                    }
                    let status = response.status();
                    let problem: Value = response.json().await.unwrap();
                    // Symmetric, or a point forbidden for black: the next try.
                    assert!(
                        matches!(
                            (status, problem["code"].as_str()),
                            (StatusCode::UNPROCESSABLE_ENTITY, Some("SYMMETRIC_OFFERS"))
                                | (StatusCode::CONFLICT, Some("FORBIDDEN_MOVE"))
                        ),
                        "{problem} {}",
                        state["opening"]
                    );
                }
                state = answer["game"].clone();
                continue;
            }
            "choose" => json!({"choose": state["opening"]["offered"][0]["name"]}),
            _ => {
                let played = app
                    .post(
                        &format!("/v1/games/{game}/moves"),
                        Some(token),
                        Some(free[0].clone()),
                    )
                    .await;
                assert_eq!(played.status(), StatusCode::OK);
                let body: Value = played.json().await.unwrap();
                state = body["game"].clone();
                continue;
            }
        };
        let answer = opening_ok(app, &game, token, body).await;
        state = answer["game"].clone();
    }
    assert_eq!(state["opening"]["phase"], "done", "{}", state["opening"]);
    state
}

#[tokio::test]
async fn the_computer_plays_every_opening_role() {
    let app = spawn_app().await;
    let (me, token) = app.player("Renju Fan").await;
    // As the computer's swap choices vary, the person's are set so that
    // each role falls to the computer in some game: placing the first
    // stones, choosing colours, offering fifth moves (the person keeps
    // white) and choosing among them (the person takes black).
    // (rules, opening, the computer's level, whether it is the first
    // player, the person's answer when asked to swap)
    let games = [
        ("renju", "rif", "expert", false, false),
        ("renju", "rif", "expert", true, false),
        ("renju", "rif", "expert", true, true),
        ("renju", "yamaguchi", "advanced", true, true),
        ("freestyle", "swap2", "expert", false, false),
        ("freestyle", "swap2", "expert", true, false),
        ("standard", "swap1", "intermediate", true, true),
    ];
    for (rules, opening_rule, level, computer_first, swap) in games {
        let (black, white) = if computer_first {
            (json!({ "ai": level }), json!("me"))
        } else {
            (json!("me"), json!({ "ai": level }))
        };
        let stones = if rules == "renju" {
            ["h8", "h9", "j10"]
        } else {
            ["h8", "j9", "g10"]
        };
        let created = app
            .create_game(
                Some(&token),
                json!({"rules": rules, "opening": opening_rule, "black": black, "white": white}),
            )
            .await;
        if created["game"]["seats"]["black"]["kind"] == "computer" {
            // As the first player the computer placed its stones at once.
            assert!(
                created["game"]["ply"].as_u64().unwrap() >= 3,
                "{}",
                created["game"]["opening"]
            );
            if rules == "renju" {
                assert!(created["game"]["opening"]["name"].is_object());
            }
        }
        let end = play_through_the_opening(&app, &token, &me, created, stones, swap).await;
        let decisions = end["opening"]["decisions"].as_array().unwrap();
        assert!(!decisions.is_empty(), "{opening_rule}: {}", end["opening"]);
    }
}

#[tokio::test]
async fn followers_see_every_opening_decision_and_stale_ones_are_refused() {
    let app = spawn_app().await;
    let (game, token) = app
        .local_game(json!({"rules": "freestyle", "opening": "swap2"}))
        .await;
    let mut follower = EventReader::open(&app, &game, None).await;
    let (_, first) = follower.next().await;
    assert_eq!(first["opening"]["phase"], "place");
    let placed = opening_ok(&app, &game, &token, json!({"place": ["h8", "j9", "g10"]})).await;
    let version = placed["game"]["version"].as_i64().unwrap();
    // Each placed stone is its own state; the follower sees them in order.
    let mut last = Value::Null;
    while last["version"].as_i64() != Some(version) {
        last = follower.next().await.1;
    }
    assert_eq!(last["opening"]["phase"], "swap_or_place");

    // A decision sent against an older version is refused and changes nothing.
    let stale = app
        .client
        .post(app.url(&format!("/v1/games/{game}/opening")))
        .bearer_auth(&token)
        .header("if-match", format!("\"{}\"", version - 1))
        .json(&json!({"swap": true}))
        .send()
        .await
        .unwrap();
    assert_problem(stale, StatusCode::PRECONDITION_FAILED, "VERSION_MISMATCH").await;
    // A body outside the document's ranges is refused as such first,
    // whatever the version (as a move off the board is).
    for body in [
        json!({"declare": 0}),
        json!({"declare": 11}),
        json!({"offer": []}),
        json!({"offer": ["a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10", "a11"]}),
    ] {
        let invalid = app
            .client
            .post(app.url(&format!("/v1/games/{game}/opening")))
            .bearer_auth(&token)
            .header("if-match", format!("\"{}\"", version - 1))
            .json(&body)
            .send()
            .await
            .unwrap();
        assert_problem(invalid, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    }
    let fresh = app
        .client
        .post(app.url(&format!("/v1/games/{game}/opening")))
        .bearer_auth(&token)
        .header("if-match", format!("\"{version}\""))
        .json(&json!({"swap": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(fresh.status(), StatusCode::OK);
    assert_eq!(
        fresh.headers()["etag"],
        format!("\"{}\"", version + 1).as_str()
    );
    let (seen, state) = follower.next().await;
    assert_eq!(seen, version + 1);
    assert_eq!(state["opening"]["decisions"][0]["swap"], true);
    assert_eq!(state["opening"]["phase"], "done");
}
