//! `gobang brain` as a subprocess, through a whole game over the Gomocup protocol.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use gobang::rules::{Point, Position, Variant};

struct Brain {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: BufReader<std::process::ChildStdout>,
    /// The MESSAGE lines it sent, as a manager shows them.
    messages: Vec<String>,
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
            messages: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// The next line that is not a MESSAGE (those are kept).
    fn answer(&mut self) -> String {
        loop {
            let mut line = String::new();
            self.output.read_line(&mut line).unwrap();
            match line.trim().strip_prefix("MESSAGE ") {
                Some(message) => self.messages.push(message.to_string()),
                None => return line.trim().to_string(),
            }
        }
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
    // Before each move, its thinking in one MESSAGE line, as managers show
    // it; the last one saw the win and the five that ends its line.
    assert!(brain.messages.len() > turns, "{:?}", brain.messages);
    for message in &brain.messages {
        assert!(
            message.starts_with("depth ")
                && message.contains(" | eval ")
                && message.contains(" | pv "),
            "{message}"
        );
    }
    let last = brain.messages.last().unwrap();
    assert!(last.contains("eval +W1"), "{last}");

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

/// Points in a SWAP2BOARD answer.
fn points(answer: &str) -> Vec<Point> {
    answer.split_whitespace().map(point).collect()
}

fn swap2board(brain: &mut Brain, stones: &[Point]) -> String {
    brain.send("SWAP2BOARD");
    for p in stones {
        brain.send(&format!("{},{}", p.x, p.y));
    }
    brain.ask("DONE")
}

#[test]
fn the_brain_answers_every_swap2board_question() {
    let mut brain = Brain::start();
    assert_eq!(brain.ask("START 15"), "OK");
    brain.send("INFO timeout_turn 300");
    brain.send("INFO rule 0");

    // As the first player: three stones, black, white, black.
    let three = points(&swap2board(&mut brain, &[]));
    assert_eq!(three.len(), 3, "{three:?}");
    let mut game = Position::new(Variant::freestyle(15).unwrap());
    for &p in &three {
        game.play(p).unwrap();
    }

    // As the second player: SWAP, white's fourth, or two more stones.
    let answer = swap2board(&mut brain, &three);
    match answer.as_str() {
        "SWAP" => {}
        _ => {
            let placed = points(&answer);
            assert!(matches!(placed.len(), 1 | 2), "{answer}");
            let mut after = game.clone();
            for p in placed {
                after.play(p).unwrap_or_else(|e| panic!("{p}: {e}"));
            }
        }
    }

    // As the first player again, after two more: SWAP (keep black) or
    // white's sixth. Then the game goes on with TURN as usual.
    let five = [
        Point::new(7, 7),
        Point::new(8, 8),
        Point::new(9, 7),
        Point::new(6, 8),
        Point::new(3, 3),
    ];
    let answer = swap2board(&mut brain, &five);
    let mut game = Position::new(Variant::freestyle(15).unwrap());
    for &p in &five {
        game.play(p).unwrap();
    }
    if answer == "SWAP" {
        // We play white's sixth; the brain, black, answers.
        game.play(Point::new(10, 7)).unwrap();
        let reply = point(&brain.ask("TURN 10,7"));
        game.play(reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
    } else {
        let sixth = point(&answer);
        game.play(sixth).unwrap_or_else(|e| panic!("{sixth}: {e}"));
        assert_eq!(game.board().get(sixth), Some(gobang::rules::Color::White));
        // We, black, play on; the brain, white, answers legally.
        game.play(Point::new(0, 14)).unwrap();
        let reply = point(&brain.ask("TURN 0,14"));
        game.play(reply).unwrap_or_else(|e| panic!("{reply}: {e}"));
    }
    assert!(swap2board(&mut brain, &five[..4]).starts_with("ERROR"));
    brain.send("END");
    assert!(brain.child.wait().unwrap().success());
}
