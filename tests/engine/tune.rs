//! `gobang tune --from-record` fits the evaluation to the judgments an
//! engine reported in an arena match: here the brain of this very binary,
//! as a subprocess, whose `MESSAGE` lines the record keeps.

use std::process::Command;

#[test]
fn a_match_record_is_fitted_to_what_its_engine_said() {
    let binary = env!("CARGO_BIN_EXE_gobang");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("games.jsonl");
    let played = Command::new(binary)
        .args([
            "arena",
            "beginner",
            &format!("cmd:{binary} brain --level advanced"),
            "--games",
            "2",
            "--time-ms",
            "100",
            "--record",
        ])
        .arg(&record)
        .output()
        .expect("the arena runs");
    assert!(played.status.success(), "{played:?}");
    let tune = |judge: &str| {
        Command::new(binary)
            .args([
                "tune",
                "--rules",
                "freestyle",
                "--outcome",
                "0",
                "--judge",
                judge,
            ])
            .arg("--from-record")
            .arg(&record)
            .output()
            .expect("tune runs")
    };
    let fitted = tune("second");
    let stdout = String::from_utf8_lossy(&fitted.stdout);
    assert!(fitted.status.success(), "{stdout}\n{fitted:?}");
    let positions: usize = stdout
        .lines()
        .find_map(|l| l.strip_suffix(" quiet positions"))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a count of positions in {stdout}"));
    assert!(positions > 0, "{stdout}");
    assert!(stdout.contains("pub const FREE: Weights"), "{stdout}");
    // A level inside the arena says what it thought too; a judge that is
    // neither contender is refused with what to give.
    assert!(tune("first").status.success());
    let refused = tune("third");
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(stderr.contains("--judge is first or second"), "{stderr}");
}
