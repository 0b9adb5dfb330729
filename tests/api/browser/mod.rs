//! The web client in a real browser against the real server: games by
//! clicks, online play between browsers, the opening, the phone.

mod driver;

use driver::{Driver, Page};
use serde_json::json;

use crate::helpers::{TestApp, spawn_app, spawn_app_limited};

/// Chromium's driver and a server on a fresh database; `None` (the test
/// skips) where there is no Chromium.
async fn start() -> Option<(Driver, TestApp)> {
    let driver = Driver::start().await?;
    Some((driver, spawn_app().await))
}

/// Fills the new-game form and starts the game; the page moves to it.
async fn start_game(page: &Page, address: &str, choices: &[(&str, &str)]) -> String {
    page.goto(&format!("{address}/")).await;
    for (field, value) in choices {
        page.element(&format!("#f-{field}"))
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("{field} = {value}: {e}"));
    }
    page.click("#start").await;
    page.element(".game").await;
    page.settled().await;
    let path = page.js("return location.pathname").await;
    path.as_str()
        .expect("a path")
        .trim_start_matches("/g/")
        .to_string()
}

#[tokio::test]
async fn a_whole_game_against_the_computer_by_clicks_following_the_hints() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let page = driver.desktop().await;
    let id = start_game(
        &page,
        &app.address,
        &[
            ("rules", "freestyle"),
            ("opponent", "computer"),
            ("level", "beginner"),
        ],
    )
    .await;
    assert!(id.starts_with("g_"), "the page went to the game: {id}");
    assert!(page.text("#status").await.contains("You to move"));

    // At most one move per point of the board, so the game ends on the page.
    for turn in 0..113 {
        page.settled().await;
        if page
            .js("return document.querySelector('.game').dataset.status")
            .await
            == json!("finished")
        {
            break;
        }
        // The page's own hint, drawn on the board, then a click on the best.
        page.click("#hint").await;
        page.element("[data-hint='1']").await;
        let best = page.text("#hints li:first-child").await;
        if turn == 4 {
            page.screenshot("desktop").await;
        }
        page.play(&best).await;
        page.stone(&best).await;
    }
    page.wait_until("return document.querySelector('.game').dataset.status === 'finished'")
        .await;
    let status = page.text("#status").await;
    assert!(
        status.contains("wins"),
        "the game ended with a winner: {status}"
    );
    assert!(
        page.js("return !!document.querySelector('.win-line')")
            .await
            == json!(true),
        "the winning line is drawn"
    );
    // The server agrees with what the page shows.
    let game: serde_json::Value = app
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["status"], "finished");
    if game["result"]["reason"] == "five" {
        assert!(
            page.js("return !!document.querySelector('.win-line')")
                .await
                == json!(true),
            "the winning line is drawn"
        );
    }
    let stones = page
        .js("return document.querySelectorAll('[data-stone]').length")
        .await;
    assert_eq!(
        stones,
        json!(game["ply"]),
        "every move of the game is on the page's board"
    );

    // The game to keep: its record and pictures are links on the page.
    for (link, kind) in [
        ("#keep-sgf", "application/x-go-sgf"),
        ("#keep-psq", "application/x-piskvork-psq"),
        ("#keep-png", "image/png"),
        ("#keep-gif", "image/gif"),
    ] {
        let href = page
            .element(link)
            .await
            .attr("href")
            .await
            .unwrap()
            .unwrap();
        let response = app.get(&href).await;
        assert_eq!(response.headers()["content-type"], kind, "{link}");
    }

    // The score card counts the game.
    page.click("a[href='/me']").await;
    page.wait_until("return document.querySelectorAll('#score-card [data-stat]').length === 6")
        .await;
    assert_eq!(page.text("[data-stat='games'] dd").await, "1");
    page.close().await;
}

#[tokio::test]
async fn two_browsers_play_online_through_the_share_link_while_a_third_watches() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let ada = driver.desktop().await;
    let id = start_game(
        &ada,
        &app.address,
        &[
            ("opponent", "online"),
            ("colour", "black"),
            ("clock", "300000"),
        ],
    )
    .await;
    let link = ada
        .element("#share-link")
        .await
        .prop("value")
        .await
        .unwrap()
        .expect("a link");
    assert_eq!(link, format!("{}/g/{id}", app.address));
    assert!(ada.text("#status").await.contains("Waiting"));

    let bob = driver.desktop().await;
    bob.goto(&link).await;
    bob.click("#join").await;
    bob.settled().await;
    // The spectator follows by long polling, as behind a proxy that holds
    // event streams back.
    let watcher = driver.desktop().await;
    watcher.goto(&format!("{link}?live=poll")).await;
    watcher.element("#spectating").await;
    watcher
        .wait_until("return document.querySelector('.game').dataset.live === 'poll'")
        .await;
    ada.wait_until("return document.querySelector('.game').dataset.live === 'sse'")
        .await;
    ada.wait_until("return document.querySelector('.game').dataset.status === 'in_progress'")
        .await;

    // The clocks: five minutes each, black's running.
    assert_eq!(ada.text("[data-clock='white']").await, "5:00");
    ada.wait_until(
        "return document.querySelector('[data-clock=\"black\"]').textContent.startsWith('4:5')",
    )
    .await;
    // Every move appears on the other two boards.
    for (page, point) in [(&ada, "h8"), (&bob, "h9"), (&ada, "j10"), (&bob, "g7")] {
        page.play(point).await;
        for other in [&ada, &bob, &watcher] {
            other.stone(point).await;
        }
    }
    // A move out of turn is explained, not sent.
    bob.play("a1").await;
    bob.wait_until("return document.getElementById('toast').textContent.includes('not your turn')")
        .await;

    // A takeback: asked, shown to the opponent as a prompt, accepted.
    ada.play("k11").await;
    bob.stone("k11").await;
    ada.click("#takeback").await;
    bob.click("#prompt-accept").await;
    for page in [&ada, &bob, &watcher] {
        page.no_stone("k11").await;
    }
    // A second takeback declined: the tries left go down.
    ada.play("k11").await;
    bob.stone("k11").await;
    ada.click("#takeback").await;
    bob.click("#prompt-decline").await;
    ada.wait_until("return document.getElementById('takeback').textContent.includes('2 left')")
        .await;

    // Resign, and a rematch with one click each.
    bob.click("#resign").await;
    bob.click("#resign").await;
    for page in [&ada, &bob, &watcher] {
        page.wait_until(
            "return document.getElementById('status').textContent.includes('Black wins')",
        )
        .await;
    }
    ada.click("#rematch").await;
    bob.click("#prompt-accept").await;
    for page in [&ada, &bob] {
        page.wait_until(&format!(
            "return location.pathname !== '/g/{id}' && !!document.querySelector('.game')"
        ))
        .await;
    }
    let rematch = bob.js("return location.pathname").await;
    assert_eq!(
        ada.js("return location.pathname").await,
        rematch,
        "both went to the same new game"
    );
    for page in [ada, bob, watcher] {
        page.close().await;
    }
}

#[tokio::test]
async fn undo_redo_and_the_keyboard_in_a_game_on_one_device() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let page = driver.desktop().await;
    start_game(&page, &app.address, &[("opponent", "local")]).await;
    // The keyboard: the cursor starts at the centre; Enter plays there.
    page.element("svg.board")
        .await
        .send_keys("\u{E007}")
        .await
        .unwrap();
    page.stone("h8").await;
    page.settled().await;
    page.element("svg.board")
        .await
        .send_keys("\u{E014}\u{E007}")
        .await
        .unwrap();
    page.stone("i8").await;
    page.settled().await;
    page.play("h9").await;
    page.stone("h9").await;
    page.click("#undo").await;
    page.no_stone("h9").await;
    page.click("#undo").await;
    page.no_stone("i8").await;
    page.click("#redo").await;
    page.stone("i8").await;
    page.wait_until("return !document.getElementById('redo').disabled")
        .await;
    page.click("#redo").await;
    page.stone("h9").await;
    // Move numbers, on request.
    page.click("#numbers").await;
    page.wait_until("const s = document.querySelector('[data-stone=\"h9\"] .num'); return !!s && s.textContent === '3'").await;
    // Chinese, from the switch in the header.
    page.click("#lang").await;
    page.wait_until("return document.querySelector('header nav a').textContent === '新对局'")
        .await;
    page.close().await;
}

#[tokio::test]
async fn a_forbidden_point_is_marked_for_black_and_refused_with_the_servers_message() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let page = driver.desktop().await;
    start_game(
        &page,
        &app.address,
        &[("rules", "renju"), ("opponent", "local")],
    )
    .await;
    // Black h8 i8 (a two across) and k10 k9 (a two down): k8 makes two
    // open threes at once.
    for point in ["h8", "a1", "i8", "a3", "k10", "a5", "k9", "a7"] {
        page.play(point).await;
        page.stone(point).await;
    }
    page.settled().await;
    page.wait_until("const f = document.querySelector('[data-point=\"k8\"]'); return !!f && f.getAttribute('aria-label').includes('double three')").await;
    assert_eq!(
        page.js("return document.querySelectorAll('.forbidden').length")
            .await,
        json!(1)
    );
    page.play("k8").await;
    page.wait_until(
        "return document.getElementById('toast').textContent.toLowerCase().includes('forbidden')",
    )
    .await;
    let message = page.text("#toast").await;
    assert!(
        message.contains("k8"),
        "the server's message names the point: {message}"
    );
    page.no_stone("k8").await;
    page.close().await;
}

#[tokio::test]
async fn the_yamaguchi_opening_is_played_with_buttons_and_clicks() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let page = driver.desktop().await;
    let id = start_game(
        &page,
        &app.address,
        &[
            ("rules", "renju"),
            ("opening", "yamaguchi"),
            ("opponent", "local"),
        ],
    )
    .await;
    assert!(page.text("#status").await.contains("opening stones"));
    for point in ["h8", "h9", "i9"] {
        page.play(point).await;
        page.stone(point).await;
    }
    page.settled().await;
    assert!(
        page.text("#opening-name").await.contains("Kagetsu"),
        "the standard opening is named"
    );
    // Black declares two fifth moves; white keeps the colours.
    page.element("#declare-count").await.clear().await.unwrap();
    page.element("#declare-count")
        .await
        .send_keys("2")
        .await
        .unwrap();
    page.click("#declare").await;
    page.click("#swap-no").await;
    page.play("j8").await;
    page.stone("j8").await;
    // Black offers two fifth moves by clicking them, then white picks one.
    page.settled().await;
    page.play("k11").await;
    page.play("e5").await;
    page.wait_until("return document.querySelectorAll('[data-pick]').length === 2")
        .await;
    page.click("#offer").await;
    page.wait_until("return document.querySelectorAll('[data-offered]').length === 2")
        .await;
    page.play("e5").await;
    page.stone("e5").await;
    page.no_stone("k11").await;
    let game: serde_json::Value = app
        .get(&format!("/v1/games/{id}"))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(game["ply"], 5);
    assert_eq!(game["opening"]["phase"], "done");
    page.close().await;
}

#[tokio::test]
async fn on_a_phone_the_board_fills_the_width_and_a_tap_plays() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let page = driver.phone().await;
    start_game(
        &page,
        &app.address,
        &[("opponent", "computer"), ("level", "beginner")],
    )
    .await;
    let fits = page
        .js(
            "const b = document.querySelector('svg.board').getBoundingClientRect(); \
             return [b.width, window.innerWidth, document.documentElement.scrollWidth];",
        )
        .await;
    let [board, width, scroll] = [0, 1, 2].map(|i| fits[i].as_f64().unwrap());
    assert!(width <= 400.0, "a phone-sized viewport: {width}");
    assert!(
        board >= 0.9 * width,
        "the board fills the width: {board} of {width}"
    );
    assert!(
        scroll <= width,
        "nothing scrolls sideways: {scroll} > {width}"
    );
    page.play("h8").await;
    page.stone("h8").await;
    page.settled().await;
    page.wait_until("return document.querySelectorAll('[data-stone]').length === 2")
        .await;
    page.screenshot("phone").await;
    page.close().await;
}

#[tokio::test]
async fn the_embedded_board_follows_a_game() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let (id, token) = app.local_game(json!({})).await;
    let page = driver.desktop().await;
    page.goto(&format!("{}/embed/{id}", app.address)).await;
    page.element("svg.board").await;
    // A figure for the record (not a test of speed): how soon the board
    // shows, and what the page fetched.
    let timing = page
        .js("return [Math.round(performance.now()), performance.getEntriesByType('resource').length,              performance.getEntriesByType('resource').reduce((n, r) => n + r.transferSize, 0)]")
        .await;
    eprintln!(
        "embed: board shown at {} ms after {} requests, {} bytes",
        timing[0], timing[1], timing[2]
    );
    assert_eq!(
        page.js("return document.querySelectorAll('button, form').length")
            .await,
        json!(0),
        "no controls"
    );
    for point in ["h8", "j9"] {
        app.play_ok(&id, &token, point).await;
        page.stone(point).await;
    }
    page.close().await;
}

#[tokio::test]
async fn a_record_file_loads_as_a_game_to_step_through() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.sgf");
    std::fs::write(
        &path,
        "(;FF[4]GM[4]SZ[15]RU[renju];B[hh];W[ig];B[ii];W[jh];B[gg])",
    )
    .unwrap();
    let page = driver.desktop().await;
    page.goto(&format!("{}/", app.address)).await;
    page.element("#load-file")
        .await
        .send_keys(path.to_str().unwrap())
        .await
        .unwrap();
    page.click("#load").await;
    page.element(".game").await;
    page.settled().await;
    for point in ["h8", "i9", "i7", "j8", "g9"] {
        page.stone(point).await;
    }
    assert!(page.text(".tags").await.contains("Renju"));
    // Step back through it.
    page.click("#undo").await;
    page.no_stone("g9").await;
    page.close().await;
}

#[tokio::test]
async fn a_computer_that_could_not_reply_is_asked_again_with_a_button() {
    let Some(driver) = Driver::start().await else {
        return;
    };
    // Less thinking time a minute than one search costs: the computer's
    // reply is refused, the player's move stands.
    let app = spawn_app_limited(gobang::api::RateLimitConfig {
        thinking_ms_per_minute: 100,
        ..gobang::api::RateLimitConfig::default()
    })
    .await;
    let page = driver.desktop().await;
    start_game(
        &page,
        &app.address,
        &[
            ("rules", "freestyle"),
            ("opponent", "computer"),
            ("level", "beginner"),
        ],
    )
    .await;
    // Nothing to ask for while it is the player's turn.
    assert_eq!(
        page.js("return !!document.getElementById('ai-move')").await,
        json!(false)
    );
    page.play("h8").await;
    page.settled().await;
    page.stone("h8").await;
    // The computer's turn with no reply coming: the page offers to ask.
    page.click("#ai-move").await;
    page.wait_until(
        "const t = document.getElementById('toast'); return !!t && !t.hidden && t.textContent.includes('thinking time')",
    )
    .await;
    page.settled().await;
    // Still its turn, and the button is still there for later.
    page.element("#ai-move").await;
    page.close().await;
}

#[tokio::test]
async fn two_browsers_asking_for_anyone_are_paired_and_one_can_stop_looking() {
    let Some((driver, app)) = start().await else {
        return;
    };
    let choices = [
        ("rules", "renju"),
        ("opponent", "anyone"),
        ("colour", "random"),
        ("fallback", "0"),
    ];
    // Ada asks first and waits, the seconds counting.
    let ada = driver.desktop().await;
    ada.goto(&format!("{}/", app.address)).await;
    for (field, value) in choices {
        ada.element(&format!("#f-{field}"))
            .await
            .select_by_value(value)
            .await
            .unwrap();
    }
    ada.click("#start").await;
    ada.element("#seeking").await;
    ada.wait_until("return document.getElementById('seek-waited').textContent.includes('1')")
        .await;
    // Bob asks for the same: paired at once, both pages go to the game.
    let bob = driver.desktop().await;
    let game = start_game(&bob, &app.address, &choices).await;
    ada.element(".game").await;
    ada.settled().await;
    let path = ada.js("return location.pathname").await;
    assert_eq!(path, json!(format!("/g/{game}")));
    let state = app.game(&game).await;
    assert_eq!(state["rules"], "renju");
    assert_eq!(state["rated"], true);
    assert_eq!(state["status"], "in_progress");
    // Each seat with its rating, provisional for newcomers.
    assert_eq!(ada.text("[data-rating='black']").await, "1500?");
    assert_eq!(bob.text("[data-rating='white']").await, "1500?");

    // Carol asks, nobody comes, she stops: the form is back, her seek
    // cancelled.
    let carol = driver.desktop().await;
    carol.goto(&format!("{}/", app.address)).await;
    carol
        .element("#f-opponent")
        .await
        .select_by_value("anyone")
        .await
        .unwrap();
    carol.click("#start").await;
    let seek = carol
        .element("#seeking")
        .await
        .attr("data-seek")
        .await
        .unwrap()
        .expect("the seek's id");
    carol.click("#cancel-seek").await;
    carol.element("#new-game").await;
    let token = carol
        .js("return JSON.parse(localStorage.getItem('gobang.player')).token")
        .await;
    let response = app
        .client
        .get(app.url(&format!("/v1/seeks/{seek}")))
        .bearer_auth(token.as_str().unwrap())
        .send()
        .await
        .unwrap();
    let seek: serde_json::Value = response.json().await.unwrap();
    assert_eq!(seek["status"], "cancelled", "{seek}");
    for page in [ada, bob, carol] {
        page.close().await;
    }
}
