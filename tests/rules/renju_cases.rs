//! The 46 renju positions of tests/data/renju_forbidden_cases.json: every
//! checked point and the complete forbidden set must match.

use gobang::rules::{Board, ForbiddenKind, Point};
use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    name: String,
    board: Vec<String>,
    checks: Vec<Check>,
    forbidden_all: Vec<[u8; 2]>,
}

#[derive(Deserialize)]
struct Check {
    x: u8,
    y: u8,
    forbidden: bool,
    kind: Option<String>,
}

fn cases() -> Vec<Case> {
    let text = include_str!("../data/renju_forbidden_cases.json");
    serde_json::from_str(text).expect("the case file parses")
}

fn kind_name(kind: ForbiddenKind) -> &'static str {
    match kind {
        ForbiddenKind::DoubleThree => "DoubleThree",
        ForbiddenKind::DoubleFour => "DoubleFour",
        ForbiddenKind::Overline => "Overline",
    }
}

#[test]
fn all_46_cases_are_read() {
    assert_eq!(cases().len(), 46);
}

#[test]
fn every_checked_point_matches_its_expectation() {
    let mut failures = Vec::new();
    for case in cases() {
        let board = Board::from_rows(&case.board).unwrap();
        for check in &case.checks {
            let got = board.forbidden_kind(Point::new(check.x, check.y));
            let kind_ok = match (&check.kind, got) {
                (Some(expected), Some(kind)) => expected == kind_name(kind),
                _ => true,
            };
            if got.is_some() != check.forbidden || !kind_ok {
                failures.push(format!(
                    "{}: ({}, {}) expected forbidden={} {:?}, got {:?}",
                    case.name, check.x, check.y, check.forbidden, check.kind, got
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_complete_forbidden_set_matches() {
    let mut failures = Vec::new();
    for case in cases() {
        let board = Board::from_rows(&case.board).unwrap();
        let mut got: Vec<[u8; 2]> = board
            .forbidden_points()
            .iter()
            .map(|(p, _)| [p.x, p.y])
            .collect();
        let mut expected = case.forbidden_all.clone();
        got.sort();
        expected.sort();
        if got != expected {
            failures.push(format!(
                "{}: expected {:?}, got {:?}\n{}",
                case.name,
                expected,
                got,
                case.board.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_full_set_agrees_with_asking_point_by_point() {
    for case in cases() {
        let board = Board::from_rows(&case.board).unwrap();
        let one_by_one: Vec<_> = board
            .points()
            .filter_map(|p| board.forbidden_kind(p).map(|k| (p, k)))
            .collect();
        assert_eq!(board.forbidden_points(), one_by_one, "{}", case.name);
    }
}
