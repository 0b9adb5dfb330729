//! `gobang brain` as a subprocess, through a whole game over the Gomocup protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use gobang::rules::{Point, Position, Variant};

struct Brain {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
}

impl Brain {
    fn start() -> Brain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gobang"))
            .args(["brain", "--level", "expert"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("gobang brain starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Brain {
            child,
            input,
            output,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    fn answer(&mut self) -> String {
        let mut line = String::new();
        self.output.read_line(&mut line).unwrap();
        line.trim().to_string()
    }

    fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.answer()
    }
}

fn point(answer: &str) -> Point {
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not a move: {answer:?}"));
    Point::new(x.parse().unwrap(), y.parse().unwrap())
}

#[test]
fn the_brain_plays_a_whole_game_over_the_gomocup_protocol() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 300");
    brain.send("INFO rule 0");
    assert!(brain.ask("ABOUT").starts_with("name=\"gobang\""));
    assert!(brain.ask("FROBNICATE").starts_with("UNKNOWN"));

    // The brain is black; we answer with the first empty point near the corner.
    let mut game = Position::new(Variant::freestyle(15).unwrap());
    let mut answer = brain.ask("BEGIN");
    let mut turns = 0;
    loop {
        let p = point(&answer);
        game.play(p)
            .unwrap_or_else(|e| panic!("illegal brain move {p}: {e}"));
        if game.is_over() {
            break;
        }
        let mine = game
            .board()
            .points()
            .find(|&q| game.board().get(q).is_none())
            .unwrap();
        game.play(mine).unwrap();
        if game.is_over() {
            break;
        }
        turns += 1;
        if turns == 3 {
            // Take our move back and play another: the brain follows.
            assert_eq!(brain.ask(&format!("TAKEBACK {},{}", mine.x, mine.y)), "OK");
            game.undo();
            let other = game
                .board()
                .points()
                .filter(|&q| game.board().get(q).is_none())
                .last()
                .unwrap();
            game.play(other).unwrap();
            answer = brain.ask(&format!("TURN {},{}", other.x, other.y));
            continue;
        }
        answer = brain.ask(&format!("TURN {},{}", mine.x, mine.y));
    }
    assert_eq!(
        game.outcome().and_then(|o| o.winner()),
        Some(gobang::rules::Color::Black)
    );

    // A fresh game given as a BOARD: the brain must complete its four.
    assert_eq!(brain.ask("RESTART"), "OK");
    brain.send("BOARD");
    for (x, y, who) in [
        (3, 3, 1),
        (3, 9, 2),
        (4, 3, 1),
        (4, 9, 2),
        (5, 3, 1),
        (5, 9, 2),
        (6, 3, 1),
        (9, 9, 2),
    ] {
        brain.send(&format!("{x},{y},{who}"));
    }
    let reply = point(&brain.ask("DONE"));
    assert!(
        reply == Point::new(2, 3) || reply == Point::new(7, 3),
        "{reply}"
    );
    brain.send("END");
    let status = brain.child.wait().unwrap();
    assert!(status.success());
}
