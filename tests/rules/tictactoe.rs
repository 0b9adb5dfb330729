//! Tic-tac-toe enumerated exhaustively from the empty board.

use std::collections::HashSet;

use gobang::rules::{Color, Outcome, Point, Position, Variant};

#[derive(Default)]
struct Tally {
    games: u64,
    x_wins: u64,
    o_wins: u64,
    draws: u64,
    positions: HashSet<Vec<String>>,
}

fn walk(position: &mut Position, tally: &mut Tally) {
    tally.positions.insert(position.board().rows());
    let empty: Vec<Point> = position
        .board()
        .points()
        .filter(|&p| position.board().get(p).is_none())
        .collect();
    for p in empty {
        match position.play(p).unwrap() {
            None => walk(position, tally),
            Some(outcome) => {
                tally.positions.insert(position.board().rows());
                tally.games += 1;
                match outcome {
                    Outcome::Draw => tally.draws += 1,
                    Outcome::Win {
                        winner: Color::Black,
                        ..
                    } => tally.x_wins += 1,
                    Outcome::Win {
                        winner: Color::White,
                        ..
                    } => tally.o_wins += 1,
                }
            }
        }
        position.undo();
    }
}

#[test]
fn every_game_of_tictactoe_is_counted_and_judged() {
    let mut tally = Tally::default();
    walk(&mut Position::new(Variant::tictactoe()), &mut tally);
    assert_eq!(tally.games, 255_168);
    assert_eq!(tally.x_wins, 131_184);
    assert_eq!(tally.o_wins, 77_904);
    assert_eq!(tally.draws, 46_080);
    assert_eq!(tally.positions.len(), 5_478);
}
