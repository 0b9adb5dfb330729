//! The expert never loses tic-tac-toe, as X or as O, against any sequence of
//! opponent moves (exhaustive), and wins every position that is won.

use std::collections::HashMap;

use gobang::engine::{Level, Limits, think};
use gobang::rules::{Color, Outcome, Point, Position, Variant};

struct Referee {
    /// The expert's move per position, so each is asked once.
    cache: HashMap<Vec<String>, Point>,
    games: usize,
}

impl Referee {
    fn expert_move(&mut self, position: &Position) -> Point {
        let key = position.board().rows();
        if let Some(&p) = self.cache.get(&key) {
            return p;
        }
        let decision = think(position, Level::Expert, &Limits::default()).expect("a move");
        self.cache.insert(key, decision.point);
        decision.point
    }

    /// Plays every opponent reply; the expert plays `expert`.
    fn explore(&mut self, position: &mut Position, expert: Color) {
        if let Some(outcome) = position.outcome() {
            self.games += 1;
            if let Outcome::Win { winner, .. } = outcome {
                assert_eq!(*winner, expert, "the expert lost:\n{}", position.board());
            }
            return;
        }
        if position.to_move() == expert {
            let p = self.expert_move(position);
            position.play(p).unwrap();
            self.explore(position, expert);
            position.undo();
        } else {
            let empty: Vec<Point> = position
                .board()
                .points()
                .filter(|&p| position.board().get(p).is_none())
                .collect();
            for p in empty {
                position.play(p).unwrap();
                self.explore(position, expert);
                position.undo();
            }
        }
    }
}

#[test]
fn the_expert_never_loses_tictactoe_as_x_or_o() {
    for expert in [Color::Black, Color::White] {
        let mut referee = Referee {
            cache: HashMap::new(),
            games: 0,
        };
        referee.explore(&mut Position::new(Variant::tictactoe()), expert);
        assert!(referee.games > 50, "{expert}: {} games", referee.games);
    }
}

#[test]
fn the_expert_wins_a_won_tictactoe_position_against_every_defence() {
    // X to move: c1 (0,2) makes two threats at once, a2 and c3.
    let position = Position::from_rows(Variant::tictactoe(), &["XO.", ".X.", "..O"]).unwrap();
    let decision = think(&position, Level::Expert, &Limits::default()).unwrap();
    assert_eq!(decision.forced_win_in, Some(3), "{decision:?}");
    let mut referee = Referee {
        cache: HashMap::new(),
        games: 0,
    };
    let mut wins = 0;
    let mut game = position.clone();
    fn count(referee: &mut Referee, game: &mut Position, wins: &mut usize) {
        if let Some(outcome) = game.outcome() {
            assert_eq!(outcome.winner(), Some(Color::Black), "\n{}", game.board());
            *wins += 1;
            return;
        }
        if game.to_move() == Color::Black {
            let p = referee.expert_move(game);
            game.play(p).unwrap();
            count(referee, game, wins);
            game.undo();
        } else {
            let empty: Vec<Point> = game
                .board()
                .points()
                .filter(|&p| game.board().get(p).is_none())
                .collect();
            for p in empty {
                game.play(p).unwrap();
                count(referee, game, wins);
                game.undo();
            }
        }
    }
    count(&mut referee, &mut game, &mut wins);
    assert!(wins >= 4, "every defence was tried");
}
