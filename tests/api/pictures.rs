//! Pictures of games: the SVG says what is on the board where, the PNG and
//! the GIF decode at the size asked, bad options are refused.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::{TestApp, assert_problem, spawn_app};

/// A local freestyle game black wins on row 8, and its token.
async fn finished_game(app: &TestApp) -> (String, Vec<&'static str>) {
    let (id, token) = app.local_game(json!({})).await;
    let moves = vec!["h8", "h9", "i8", "i9", "j8", "j9", "k8", "k9", "l8"];
    for at in &moves {
        app.play_ok(&id, &token, at).await;
    }
    (id, moves)
}

/// The text of a picture.
async fn picture_text(app: &TestApp, path: &str) -> String {
    app.get(path).await.text().await.unwrap()
}

fn number(node: &roxmltree::Node, attribute: &str) -> f64 {
    node.attribute(attribute).unwrap().parse().unwrap()
}

#[tokio::test]
async fn the_svg_shows_every_stone_the_last_move_and_the_winning_row_where_they_are() {
    let app = spawn_app().await;
    let (id, moves) = finished_game(&app).await;
    let response = app.get(&format!("/v1/games/{id}/board.svg")).await;
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "image/svg+xml");
    assert_eq!(response.headers()["cache-control"], "public, max-age=86400");
    let svg = response.text().await.unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some("600"));
    let with_class = |class: &str| -> Vec<roxmltree::Node> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .collect()
    };
    let stones: Vec<roxmltree::Node> = doc
        .descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("stone")))
        .collect();
    assert_eq!(stones.len(), moves.len());
    assert_eq!(with_class("stone black").len(), 5);
    assert_eq!(with_class("stone white").len(), 4);
    // Stones come in the order played: the last mark sits on the last one.
    let last = &with_class("last")[0];
    let final_stone = stones.last().unwrap();
    assert_eq!(number(last, "cx"), number(final_stone, "cx"));
    assert_eq!(number(last, "cy"), number(final_stone, "cy"));
    // Moves 1, 3, 5, 7, 9 are the five (h8 … l8): the row runs from the
    // first to the last, horizontally.
    let win = &with_class("win")[0];
    assert_eq!(number(win, "x1"), number(&stones[0], "cx"));
    assert_eq!(number(win, "x2"), number(&stones[8], "cx"));
    assert_eq!(number(win, "y1"), number(win, "y2"));
    assert_eq!(number(win, "y1"), number(&stones[0], "cy"));
    assert!(number(win, "x2") > number(win, "x1"));
    // Numbers, on request; an earlier move, on request.
    let numbered = picture_text(
        &app,
        &format!("/v1/games/{id}/board.svg?numbers=true&ply=4"),
    )
    .await;
    let doc = roxmltree::Document::parse(&numbered).unwrap();
    let count = |class: &str| {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .count()
    };
    assert_eq!(count("number"), 4);
    assert_eq!(count("win"), 0, "the row is not made yet at move 4");
}

#[tokio::test]
async fn renju_pictures_mark_the_forbidden_points_and_tic_tac_toe_is_drawn_in_cells() {
    let app = spawn_app().await;
    let (id, token) = app.local_game(json!({"rules": "renju"})).await;
    for at in ["h8", "a1", "i8", "a3", "k10", "a5", "k9", "a7"] {
        app.play_ok(&id, &token, at).await;
    }
    let game: Value = app
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    let forbidden = game["forbidden"].as_array().unwrap().len();
    assert!(forbidden >= 1);
    let svg = picture_text(&app, &format!("/v1/games/{id}/board.svg?theme=paper")).await;
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let marks = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("forbidden"))
        .count();
    assert_eq!(marks, forbidden);
    assert!(svg.contains("fill=\"#ffffff\""), "the paper theme is white");

    let (id, token) = app.local_game(json!({"rules": "tictactoe"})).await;
    app.play_ok(&id, &token, "b2").await;
    let svg = picture_text(&app, &format!("/v1/games/{id}/board.svg?theme=dark")).await;
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let cross = doc
        .descendants()
        .find(|n| n.attribute("class") == Some("stone black"))
        .unwrap();
    assert_eq!(cross.tag_name().name(), "path", "black plays X");
}

#[tokio::test]
async fn the_png_and_the_gif_decode_at_the_size_asked() {
    let app = spawn_app().await;
    let (id, moves) = finished_game(&app).await;
    let png = app
        .get(&format!("/v1/games/{id}/board.png?size=300&theme=dark"))
        .await;
    assert_eq!(png.headers()["content-type"], "image/png");
    let bytes = png.bytes().await.unwrap();
    let decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    let reader = decoder.read_info().expect("a PNG");
    assert_eq!((reader.info().width, reader.info().height), (300, 300));

    let gif = app
        .get(&format!(
            "/v1/games/{id}/animation.gif?size=200&delay_ms=300"
        ))
        .await;
    assert_eq!(gif.status(), StatusCode::OK);
    assert_eq!(gif.headers()["content-type"], "image/gif");
    let bytes = gif.bytes().await.unwrap();
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options
        .read_info(std::io::Cursor::new(bytes))
        .expect("a GIF");
    assert_eq!((decoder.width(), decoder.height()), (200, 200));
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame().unwrap() {
        frames.push(frame.delay);
    }
    // The empty board, then one frame per move; the last held longer.
    assert_eq!(frames.len(), moves.len() + 1);
    assert_eq!(frames[1], 30);
    assert_eq!(*frames.last().unwrap(), 300);
}

#[tokio::test]
async fn pictures_revalidate_and_refuse_options_out_of_range() {
    let app = spawn_app().await;
    let (id, token) = app.local_game(json!({})).await;
    app.play_ok(&id, &token, "h8").await;
    let first = app.get(&format!("/v1/games/{id}/board.png")).await;
    assert_eq!(
        first.headers()["cache-control"],
        "no-cache",
        "a game in progress changes"
    );
    let tag = first.headers()["etag"].to_str().unwrap().to_string();
    let again = app
        .client
        .get(app.url(&format!("/v1/games/{id}/board.png")))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    // Another move, another picture.
    app.play_ok(&id, &token, "h9").await;
    let moved = app
        .client
        .get(app.url(&format!("/v1/games/{id}/board.png")))
        .header("if-none-match", &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(moved.status(), StatusCode::OK);
    // A position the game has not reached is not there.
    let beyond = app.get(&format!("/v1/games/{id}/board.svg?ply=3")).await;
    let problem = assert_problem(beyond, StatusCode::NOT_FOUND, "PLY_NOT_PLAYED").await;
    assert!(problem["detail"].as_str().unwrap().contains("from 0 to"));
    for query in [
        "board.png?size=50",
        "board.svg?size=5000",
        "board.svg?theme=neon",
        "board.png?numbers=maybe",
        "animation.gif?size=1200",
        "animation.gif?delay_ms=1",
        "board.svg?colour=red",
    ] {
        let response = app.get(&format!("/v1/games/{id}/{query}")).await;
        let status = response.status();
        let problem: Value = response.json().await.unwrap();
        assert_eq!(
            status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {problem}"
        );
        assert!(
            problem["detail"].as_str().unwrap().len() > 10,
            "{query}: {problem}"
        );
    }
    let missing = app.get("/v1/games/g_nope/board.svg").await;
    assert_problem(missing, StatusCode::NOT_FOUND, "NOT_FOUND").await;
}
