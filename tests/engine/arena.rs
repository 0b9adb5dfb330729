//! `gobang arena` plays a level against an external Gomocup engine (here
//! the brain of this very binary, as a subprocess) and reports the match.

use std::process::Command;

#[test]
fn the_arena_plays_a_level_against_an_external_engine_and_reports_elo() {
    let binary = env!("CARGO_BIN_EXE_gobang");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.jsonl");
    let output = Command::new(binary)
        .args([
            "arena",
            "advanced",
            &format!("cmd:{binary} brain --level beginner"),
            "--games",
            "4",
            "--time-ms",
            "100",
            "--record",
        ])
        .arg(&record)
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("advanced vs `"), "{stdout}");
    assert!(stdout.contains("Elo"), "{stdout}");
    // Each contender's move times apart, the level's and the engine's.
    assert!(stdout.contains("move times of advanced: p50"), "{stdout}");
    assert!(stdout.contains("move times of `"), "{stdout}");
    let games: Vec<serde_json::Value> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 4);
    // Colours alternate, and every game ended on the board, not by a failure.
    assert_eq!(
        games.iter().filter(|g| g["first_is_black"] == true).count(),
        2
    );
    // The level's record with each colour, as the games went.
    let halves = [true, false].map(|black| {
        let scores: Vec<f64> = games
            .iter()
            .filter(|g| g["first_is_black"] == black)
            .map(|g| g["score"].as_f64().unwrap())
            .collect();
        let count = |s: f64| scores.iter().filter(|&&x| x == s).count();
        (count(1.0), count(0.0), count(0.5))
    });
    let expected = format!(
        "advanced: as black +{} -{} ={} · as white +{} -{} ={}",
        halves[0].0, halves[0].1, halves[0].2, halves[1].0, halves[1].1, halves[1].2
    );
    assert!(stdout.contains(&expected), "{expected} in {stdout}");
    for g in &games {
        let reason = g["reason"].as_str().unwrap();
        assert!(
            reason.contains("won") || reason.contains("full"),
            "{reason}"
        );
        // Each move's time says whose it was: the two take turns.
        let movers = g["first_moved"].as_array().unwrap();
        assert_eq!(movers.len(), g["move_ms"].as_array().unwrap().len());
        assert!(movers.windows(2).all(|w| w[0] != w[1]), "{movers:?}");
        // And what its contender said of it: the level its line, the
        // brain the same line as a MESSAGE, each with the depth it reached
        // and the move it chose first in its line.
        let said = g["said"].as_array().unwrap();
        assert_eq!(said.len(), movers.len());
        let chosen = &g["moves"].as_array().unwrap()[3..];
        for (lines, point) in said.iter().zip(chosen) {
            let lines = lines.as_array().unwrap();
            assert_eq!(lines.len(), 1, "{lines:?}");
            let line = lines[0].as_str().unwrap();
            assert!(line.starts_with("depth "), "{line}");
            let (x, y) = (point[0].as_u64().unwrap(), point[1].as_u64().unwrap());
            let name = format!("{}{}", (b'a' + x as u8) as char, 15 - y);
            assert!(line.contains(&format!(" | pv {name}")), "{line} for {name}");
        }
    }
}

/// Runs `gobang arena` with `args`; the games it recorded.
fn arena(args: &[&str]) -> (String, Vec<serde_json::Value>) {
    let binary = env!("CARGO_BIN_EXE_gobang");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.jsonl");
    let output = Command::new(binary)
        .arg("arena")
        .args(args)
        .arg("--record")
        .arg(&record)
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let games = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (stdout, games)
}

#[test]
fn under_an_opening_rule_both_sides_make_the_opening_decisions() {
    for (rules, rule) in [
        ("renju", "rif"),
        ("renju", "yamaguchi"),
        ("freestyle", "swap2"),
        ("standard", "swap1"),
    ] {
        let (stdout, games) = arena(&[
            "advanced",
            "intermediate",
            "--games",
            "2",
            "--time-ms",
            "50",
            "--rules",
            rules,
            "--opening-rule",
            rule,
        ]);
        assert!(stdout.contains("Elo"), "{stdout}");
        for g in &games {
            let reason = g["reason"].as_str().unwrap();
            assert!(
                reason.contains("won") || reason.contains("full"),
                "{rule}: {reason}"
            );
            assert!(g["moves"].as_array().unwrap().len() >= 5);
        }
    }
}

#[test]
fn swap2_is_asked_of_an_external_engine_with_swap2board() {
    let binary = env!("CARGO_BIN_EXE_gobang");
    let (_, games) = arena(&[
        "intermediate",
        &format!("cmd:{binary} brain --level advanced"),
        "--games",
        "2",
        "--time-ms",
        "50",
        "--opening-rule",
        "swap2",
    ]);
    for g in &games {
        let reason = g["reason"].as_str().unwrap();
        assert!(
            reason.contains("won") || reason.contains("full"),
            "{reason}"
        );
    }
    // Decisions other than swap2's cannot be asked over the protocol.
    let output = Command::new(binary)
        .args([
            "arena",
            "intermediate",
            &format!("cmd:{binary} brain"),
            "--rules",
            "renju",
            "--opening-rule",
            "rif",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("swap2"));
}

/// Writes a scripted engine's transcript; the `cmd:` that runs it.
fn scripted(dir: &std::path::Path, name: &str, transcript: &[String]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, transcript.join("\n") + "\n").unwrap();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/engine/scripted/engine.sh"
    );
    format!("cmd:bash {script} {}", path.display())
}

/// Transcripts of two scripted engines that fail the game on anything out
/// of protocol or out of order, or on a command that comes hard on an
/// answer. On a 5×5 board (no opening stones) black plays down the first
/// column, white down the second, and black's fifth stone wins; black
/// pauses `pause` seconds before its answer `n` (from 0) if asked.
fn column_game(pause: Option<(usize, &str)>) -> (Vec<String>, Vec<String>) {
    let start = [
        "< START 5",
        "> OK",
        "< INFO timeout_turn 100",
        "< INFO timeout_match *",
        "< INFO max_memory 0",
        "< INFO game_type 1",
        "< INFO rule 0",
    ]
    .map(String::from);
    let mut black: Vec<String> = start.to_vec();
    let mut white: Vec<String> = start.to_vec();
    for y in 0..5 {
        black.push("< INFO time_left *".into());
        black.push(if y == 0 {
            "< BEGIN".into()
        } else {
            format!("< TURN 1,{}", y - 1)
        });
        if let Some((n, seconds)) = pause
            && n == y
        {
            black.push(format!("~ {seconds}"));
        }
        black.push(format!("> 0,{y}"));
        if y < 4 {
            white.push("< INFO time_left *".into());
            white.push(format!("< TURN 0,{y}"));
            white.push(format!("> 1,{y}"));
        }
    }
    (black, white)
}

/// The arena's arguments for one 5×5 game between two scripted engines
/// (their transcripts written to `dir`) at 100 ms a move.
fn scripted_match(dir: &std::path::Path, black: &[String], white: &[String]) -> Vec<String> {
    let mut args = vec![
        scripted(dir, "black.txt", black),
        scripted(dir, "white.txt", white),
    ];
    args.extend(["--games", "1", "--size", "5", "--time-ms", "100"].map(String::from));
    args
}

/// One 5×5 game between two scripted engines at 100 ms a move.
fn scripted_game(black: &[String], white: &[String]) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let args = scripted_match(dir.path(), black, white);
    let (_, games) = arena(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(games.len(), 1);
    games[0].clone()
}

#[test]
fn external_engines_are_spoken_to_as_piskvork_does() {
    let (black, white) = column_game(None);
    let game = scripted_game(&black, &white);
    assert_eq!(game["reason"], "black won (Row)", "{game}");
    assert_eq!(game["score"], 1.0);
    assert_eq!(game["moves"].as_array().unwrap().len(), 9);
}

/// The MESSAGE lines an engine sends while it thinks are kept with the
/// move they came with, in order; a move with none has none.
#[test]
fn what_an_engine_says_of_each_move_is_recorded_with_it() {
    let (mut black, white) = column_game(None);
    let second_move = black.iter().position(|l| l == "> 0,1").unwrap();
    black.insert(second_move, "> MESSAGE depth 7 | eval 30".into());
    black.insert(second_move + 1, "> DEBUG not for the record".into());
    black.insert(second_move + 2, "> message Bestline A4 B4".into());
    let game = scripted_game(&black, &white);
    assert_eq!(game["reason"], "black won (Row)", "{game}");
    let said = game["said"].as_array().unwrap();
    assert_eq!(said.len(), 9, "{game}");
    assert_eq!(
        said[2],
        serde_json::json!(["depth 7 | eval 30", "Bestline A4 B4"]),
        "{game}"
    );
    for (n, lines) in said.iter().enumerate().filter(|&(n, _)| n != 2) {
        assert_eq!(lines, &serde_json::json!([]), "move {n}: {game}");
    }
}

/// An engine's first answer may also carry its start-up (a second more
/// than the turn's limit); a later answer as slow loses on time.
#[test]
fn an_external_engine_s_first_move_may_carry_its_start_up_and_no_later_one() {
    let (black, white) = column_game(Some((0, "0.8")));
    let game = scripted_game(&black, &white);
    assert_eq!(game["reason"], "black won (Row)", "{game}");
    let (black, white) = column_game(Some((1, "0.8")));
    let game = scripted_game(&black, &white);
    assert_eq!(game["score"], 0.0, "{game}");
    assert!(
        game["reason"].as_str().unwrap().starts_with("black"),
        "{game}"
    );
}

#[test]
fn a_scripted_engine_fails_the_game_when_the_protocol_is_broken() {
    // The same engine, told to expect what the arena does not send: the
    // test above could not pass by accident.
    let dir = tempfile::tempdir().unwrap();
    let wrong: Vec<String> = ["< START 5", "> OK", "< INFO timeout_turn 999"]
        .map(String::from)
        .to_vec();
    let (_, games) = arena(&[
        &scripted(dir.path(), "wrong.txt", &wrong),
        "beginner",
        "--games",
        "1",
        "--size",
        "5",
        "--time-ms",
        "50",
    ]);
    let reason = games[0]["reason"].as_str().unwrap();
    assert!(
        reason.contains("out of protocol") && reason.contains("INFO timeout_turn 50"),
        "{reason}"
    );
    assert_eq!(games[0]["score"], 0.0);
}

/// With `--compare BASE` the match is also compared with an earlier record,
/// game by game; a base that cannot be read stops the arena before it plays.
#[test]
fn a_match_is_compared_with_an_earlier_record_game_by_game() {
    let dir = tempfile::tempdir().unwrap();
    let (black, white) = column_game(None);
    // The base lost as black the game the scripted black wins; its game as
    // white has no partner in a one-game match.
    let base = dir.path().join("base.jsonl");
    std::fs::write(
        &base,
        "{\"opening\":0,\"first_is_black\":true,\"score\":0.0,\"moves\":[]}\n\
         {\"opening\":0,\"first_is_black\":false,\"score\":1.0}\n",
    )
    .unwrap();
    let scripted = scripted_match(dir.path(), &black, &white);
    let mut args: Vec<&str> = scripted.iter().map(String::as_str).collect();
    args.extend(["--compare", base.to_str().unwrap()]);
    let (stdout, games) = arena(&args);
    assert_eq!(games[0]["score"], 1.0, "{stdout}");
    for line in [
        "paired with the base game by game (1 pair, 1 game without a partner left out): \
         100.0% against 0.0%, +100.0 points",
        "as black 1 against 0, +100.0 points (±0.0) · as white no pairs\n",
        "  opening 0 as black: +1\n",
    ] {
        assert!(stdout.contains(line), "{line:?} in {stdout}");
    }
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(&bad, "{\"opening\":0}\n").unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_gobang"))
        .arg("arena")
        .args(&args[..args.len() - 1])
        .arg(&bad)
        .output()
        .expect("the arena runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    let expected = format!(
        "error: --compare {}: line 1: not a game of an arena record",
        bad.display()
    );
    assert!(stderr.starts_with(&expected), "{expected} in {stderr}");
    assert!(!stderr.contains('['), "no game was played: {stderr}");
}

/// With `--anchor`, the match also places the first contender on the scale
/// where the second has the rating given: the anchor plus the Elo found.
#[test]
fn an_anchored_match_says_the_first_contender_s_rating() {
    let binary = env!("CARGO_BIN_EXE_gobang");
    let output = Command::new(binary)
        .args([
            "arena",
            "beginner",
            "beginner",
            "--games",
            "2",
            "--time-ms",
            "20",
            "--anchor",
            "1700",
        ])
        .output()
        .expect("the arena runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}");
    let elo: f64 = stdout
        .split("Elo ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("an Elo: {stdout}"));
    let expected = format!("beginner ≈ {:.0} (95% ", 1700.0 + elo);
    assert!(stdout.contains(&expected), "{expected} in {stdout}");
    assert!(stdout.contains("where beginner = 1700"), "{stdout}");
}
