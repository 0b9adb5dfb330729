//! Records out and in: every rule set round-trips through every format,
//! files as other programs write them load, and a bad file creates nothing.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

/// Sends a record as a raw upload.
async fn upload(
    app: &TestApp,
    token: &str,
    query: &str,
    content_type: &str,
    body: &str,
) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/v1/games/import{query}")))
        .bearer_auth(token)
        .header("content-type", content_type)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

async fn export(app: &TestApp, game: &str, format: &str) -> String {
    let response = app
        .get(&format!("/v1/games/{game}/record?format={format}"))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    response.text().await.unwrap()
}

async fn moves_of(app: &TestApp, game: &str) -> Vec<String> {
    let record: Value = app
        .get(&format!("/v1/games/{game}/moves"))
        .await
        .json()
        .await
        .unwrap();
    record["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["point"]["name"].as_str().unwrap().to_string())
        .collect()
}

async fn created(response: reqwest::Response) -> Value {
    let status = response.status();
    let body: Value = response.json().await.unwrap();
    assert_eq!(status, StatusCode::CREATED, "{body}");
    body
}

/// A game of each kind, played to its end (or not), by one player.
fn games() -> Vec<(Value, Vec<&'static str>, Option<&'static str>)> {
    vec![
        // Black makes five on row 8.
        (
            json!({"rules": "freestyle"}),
            vec!["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"],
            None,
        ),
        (
            json!({"rules": "freestyle", "board_size": 19}),
            vec!["k10", "k11", "a1", "s19"],
            Some("resign"),
        ),
        (
            json!({"rules": "standard"}),
            vec!["h8", "a1", "i8", "a2", "j8"],
            None,
        ),
        (
            json!({"rules": "renju"}),
            vec!["h8", "h9", "j10", "g7", "i9", "j8"],
            Some("resign"),
        ),
        (
            json!({"rules": "renju", "forbidden": "lose"}),
            vec!["h8", "a1", "i8", "a3", "k10", "a5", "k9", "a7", "k8"],
            None,
        ),
        (
            json!({"rules": "tictactoe"}),
            vec!["b2", "a1", "a3", "c1", "b1", "c3", "c2", "a2", "b3"],
            None,
        ),
        (
            json!({"rules": "custom", "width": 7, "height": 6, "k": 4}),
            vec!["d1", "e1", "d2", "e2", "d3", "e3", "d4"],
            None,
        ),
        (
            json!({"rules": "freestyle"}),
            vec!["h8", "i9"],
            Some("draw"),
        ),
    ]
}

#[tokio::test]
async fn every_rule_set_comes_back_the_same_through_every_format() {
    let app = spawn_app().await;
    let (player, token) = app.player("Keeper").await;
    for (rules, moves, ending) in games() {
        let mut body = rules.clone();
        body["black"] = json!("me");
        body["white"] = json!("me");
        let game = app.create_game(Some(&token), body).await;
        let id = game["game"]["id"].as_str().unwrap().to_string();
        for at in &moves {
            app.play_ok(&id, &token, at).await;
        }
        match ending {
            Some("resign") => {
                app.act(&id, "resign", &token, StatusCode::OK).await;
            }
            Some("draw") => {
                // A draw agreed needs two people; a board-full draw is
                // played out in tic-tac-toe above. Leave this game open.
            }
            _ => {}
        }
        let original: Value = app
            .get(&format!("/v1/games/{id}"))
            .await
            .json()
            .await
            .unwrap();
        for format in ["sgf", "psq", "moves", "json"] {
            let text = export(&app, &id, format).await;
            // PSQ and move lists do not carry the rules: say them.
            let (query, content_type) = match format {
                "sgf" => (String::new(), "application/x-go-sgf"),
                "json" => (String::new(), "application/json"),
                _ => {
                    let rules = original["rules"].as_str().unwrap();
                    let mut query = format!("?format={format}&rules={rules}");
                    if original["forbidden_policy"] == "lose" {
                        query.push_str("&forbidden=lose");
                    }
                    if rules == "freestyle" || rules == "standard" {
                        query.push_str(&format!("&board_size={}", original["width"]));
                    }
                    (query, "text/plain")
                }
            };
            let query = if rules["rules"] == "custom" && (format == "psq" || format == "moves") {
                // Custom rules need their k: send them in a JSON body.
                let body = json!({"record": text, "format": format, "rules": "custom", "width": 7, "height": 6, "k": 4});
                let response = app.post("/v1/games/import", Some(&token), Some(body)).await;
                let imported = created(response).await;
                check_same(&app, &original, &imported, format).await;
                continue;
            } else {
                query
            };
            let imported = created(upload(&app, &token, &query, content_type, &text).await).await;
            check_same(&app, &original, &imported, format).await;
        }
    }
    // Nobody's score moved for all those loaded games.
    let me: Value = app
        .get(&format!("/v1/players/{player}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(me["games"], 0, "{me}");
}

async fn check_same(app: &TestApp, original: &Value, imported: &Value, format: &str) {
    let game = &imported["game"];
    let what = format!("{} as {format}", original["rules"]);
    for key in [
        "rules",
        "width",
        "height",
        "k",
        "overline_wins",
        "forbidden_policy",
        "board",
        "ply",
    ] {
        assert_eq!(game[key], original[key], "{what}: {key}");
    }
    // A resignation is not in PSQ files or move lists: those games come
    // back open, where the last move left them.
    let keeps_result =
        format == "sgf" || format == "json" || original["result"]["reason"] != "resign";
    if keeps_result {
        assert_eq!(game["status"], original["status"], "{what}: status");
    }
    let from = original["id"].as_str().unwrap();
    let to = game["id"].as_str().unwrap();
    assert_eq!(
        moves_of(app, to).await,
        moves_of(app, from).await,
        "{what}: moves"
    );
    // Results come back where the format keeps them (and always when the
    // moves themselves end the game).
    if keeps_result {
        assert_eq!(game["result"], original["result"], "{what}: result");
    }
    // Every move can be taken back.
    if game["status"] == "in_progress" {
        assert_eq!(
            game["can_undo"],
            original["ply"].as_u64().unwrap() > 0,
            "{what}"
        );
    }
}

#[tokio::test]
async fn a_record_downloads_with_a_file_name_and_the_format_asked_for() {
    let app = spawn_app().await;
    let (_, token) = app.player("Ada Lovelace").await;
    let game = app
        .create_game(
            Some(&token),
            json!({"rules": "renju", "opening": "rif", "white": {"ai": "beginner"}}),
        )
        .await;
    let id = game["game"]["id"].as_str().unwrap();
    let response = app.get(&format!("/v1/games/{id}/record")).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/x-go-sgf");
    let disposition = response.headers()["content-disposition"]
        .to_str()
        .unwrap()
        .to_string();
    let today = chrono::Utc::now().format("%Y-%m-%d");
    assert!(
        disposition.contains(&format!(
            "filename=\"gobang-renju-Ada_Lovelace-vs-Computer__beginner-{today}.sgf\""
        )),
        "{disposition}"
    );
    let sgf = response.text().await.unwrap();
    assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
    assert!(
        sgf.contains("SZ[15]")
            && sgf.contains("RU[renju opening=rif]")
            && sgf.contains("PB[Ada Lovelace]")
    );
    for (accept, content_type) in [
        ("application/x-piskvork-psq", "application/x-piskvork-psq"),
        ("text/plain", "text/plain; charset=utf-8"),
        ("application/json", "application/json"),
        ("text/html, */*;q=0.8", "application/x-go-sgf"),
    ] {
        let response = app
            .client
            .get(app.url(&format!("/v1/games/{id}/record")))
            .header("accept", accept)
            .send()
            .await
            .unwrap();
        assert_eq!(
            response.headers()["content-type"],
            content_type,
            "Accept: {accept}"
        );
    }
    let refused = app
        .client
        .get(app.url(&format!("/v1/games/{id}/record")))
        .header("accept", "image/png")
        .send()
        .await
        .unwrap();
    assert_problem(refused, StatusCode::NOT_ACCEPTABLE, "NOT_ACCEPTABLE").await;
    let unknown = app.get(&format!("/v1/games/{id}/record?format=doc")).await;
    assert_problem(unknown, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    // The ETag follows the game and the format.
    let first = app.get(&format!("/v1/games/{id}/record?format=psq")).await;
    let tag = first.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(app.url(&format!("/v1/games/{id}/record?format=psq")))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
}

#[tokio::test]
async fn files_as_other_programs_write_them_load() {
    let app = spawn_app().await;
    let (_, token) = app.player("Loader").await;
    // A renju server's SGF: GM[5], the rule in the game name, escapes,
    // variations (the main line is the first), a resignation.
    let sgf = include_str!("../data/records/orc-rif-game.sgf");
    let game = created(upload(&app, &token, "", "application/x-go-sgf", sgf).await).await;
    let g = &game["game"];
    assert_eq!(g["rules"], "renju");
    assert_eq!(g["ply"], 12);
    assert_eq!(g["status"], "finished");
    assert_eq!(g["result"]["winner"], "white");
    assert_eq!(g["result"]["reason"], "resign");
    let id = g["id"].as_str().unwrap();
    assert_eq!(
        moves_of(&app, id).await,
        [
            "h8", "h9", "j10", "i9", "i11", "k9", "j9", "j8", "k7", "g9", "f10", "g10"
        ]
    );
    // Undo reopens it, to play on from there.
    let reopened = app.act(id, "undo", &token, StatusCode::OK).await;
    assert_eq!(reopened["status"], "in_progress");

    // Piskvork's PSQ on 20×20, names and end code after the moves.
    let psq = include_str!("../data/records/piskvork-20x20.psq");
    let game = created(upload(&app, &token, "", "application/octet-stream", psq).await).await;
    let g = &game["game"];
    assert_eq!(
        (g["rules"].as_str(), g["width"].as_u64()),
        (Some("freestyle"), Some(20))
    );
    assert_eq!(g["ply"], 10);
    let id = g["id"].as_str().unwrap();
    assert_eq!(moves_of(&app, id).await[..3], ["j11", "k10", "j10"]);
    let thinking: Value = app
        .get(&format!("/v1/games/{id}/moves"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(thinking["moves"][1]["thinking_ms"], 1203);

    // A numbered move list, any case, in a JSON body, against the computer.
    let list = include_str!("../data/records/numbered-moves.txt");
    let response = app
        .post(
            "/v1/games/import",
            Some(&token),
            Some(json!({"record": list, "white": {"ai": "beginner"}})),
        )
        .await;
    let game = created(response).await;
    // Five moves, then the computer's reply as white.
    assert_eq!(game["game"]["ply"], 6);
    assert_eq!(game["moves"].as_array().unwrap().len(), 1);
    assert_eq!(game["game"]["seats"]["white"]["kind"], "computer");

    // A JSON record as the body itself.
    let body = json!({"moves": ["h8", {"at": "h9", "thinking_ms": 400}], "rules": "standard"});
    let game = created(upload(&app, &token, "", "application/json", &body.to_string()).await).await;
    assert_eq!(game["game"]["rules"], "standard");
    assert_eq!(game["game"]["ply"], 2);

    // Without a token, a guest is made, as for any new game.
    let anonymous = app
        .client
        .post(app.url("/v1/games/import"))
        .body("h8 h9")
        .send()
        .await
        .unwrap();
    let game = created(anonymous).await;
    assert!(game["you"]["token"].as_str().unwrap().starts_with("gbt_"));
}

#[tokio::test]
async fn a_record_that_cannot_be_played_is_refused_by_move_and_leaves_nothing() {
    let app = spawn_app().await;
    let (player, token) = app.player("Careful").await;
    let too_large = "h8 ".repeat(50_000);
    let cases: Vec<(&str, &str, String, &str)> = vec![
        (
            "",
            "text/plain",
            "h8 i9 h8".into(),
            "move 3: h8 is already taken",
        ),
        ("", "text/plain", "h8 z99".into(), "move 2"),
        (
            "",
            "application/x-go-sgf",
            "(;FF[4]GM[4]SZ[15];B[hh];W[zz])".into(),
            "move 2: (25, 25) is off the 15×15 board",
        ),
        // Black's k8 makes two open threes: forbidden in renju.
        (
            "?rules=renju",
            "text/plain",
            "h8 a1 i8 a3 k10 a5 k9 a7 k8".into(),
            "move 9: k8 is forbidden",
        ),
        (
            "",
            "text/plain",
            "h8 a1 i8 a2 j8 a3 k8 a4 l8 b1".into(),
            "game was already over at move 9",
        ),
        (
            "",
            "application/x-go-sgf",
            "(;FF[4]GM[1]SZ[19];B[dd])".into(),
            "GM[1] is another game",
        ),
        (
            "",
            "application/x-go-sgf",
            "(;FF[4]GM[4]SZ[15];B[hh];B[ii])".into(),
            "move 2 is black's",
        ),
        (
            "",
            "application/x-go-sgf",
            "(;FF[4]GM[4]SZ[15]AB[hh][ii];W[jj])".into(),
            "setup stones",
        ),
        (
            "",
            "application/x-go-sgf",
            "(;FF[4]GM[4]SZ[15];B[hh".into(),
            "not closed",
        ),
        (
            "?format=doc",
            "text/plain",
            "h8".into(),
            "unknown record format",
        ),
        ("", "text/plain", String::new(), "the body is empty"),
        ("", "text/plain", too_large, "too large"),
        (
            "",
            "text/plain",
            "Piskvorky 20x20, 0:0, 0\n0,5,1\n".into(),
            "off the board",
        ),
        (
            "?rules=renju",
            "application/x-piskvork-psq",
            "Piskvorky 20x20, 0:0, 0\n10,10,0\n".into(),
            "the record's board is 20×20",
        ),
    ];
    for (query, content_type, body, expected) in cases {
        let response = upload(&app, &token, query, content_type, &body).await;
        let status = response.status();
        let problem: Value = response.json().await.unwrap();
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{expected}: {problem}"
        );
        let code = problem["code"].as_str().unwrap();
        assert!(
            code == "IMPORT_INVALID" || code == "VALIDATION",
            "{problem}"
        );
        let detail = problem["detail"].as_str().unwrap();
        assert!(
            detail.contains(expected),
            "expected {expected:?} in {detail:?}"
        );
    }
    // Nothing was half-created.
    let games: Value = app
        .get(&format!("/v1/games?player={player}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(games["games"].as_array().unwrap().len(), 0, "{games}");
}
