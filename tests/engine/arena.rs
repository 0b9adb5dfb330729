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
    assert!(stdout.contains("move times: p50"), "{stdout}");
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
    for g in &games {
        let reason = g["reason"].as_str().unwrap();
        assert!(
            reason.contains("won") || reason.contains("full"),
            "{reason}"
        );
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
