//! Properties over random games on random boards and rule sets.

use gobang::rules::{
    Board, Color, ForbiddenPolicy, Outcome, Point, PointName, Position, Variant, WinReason,
    parse_point,
};
use proptest::prelude::*;

fn variants() -> impl Strategy<Value = Variant> {
    prop_oneof![
        (5u8..=26).prop_map(|n| Variant::freestyle(n).unwrap()),
        (5u8..=26).prop_map(|n| Variant::standard(n).unwrap()),
        Just(Variant::renju(ForbiddenPolicy::Reject)),
        Just(Variant::renju(ForbiddenPolicy::Lose)),
        Just(Variant::tictactoe()),
        (3u8..=26, 3u8..=26, any::<bool>(), any::<u8>()).prop_map(|(w, h, overline, k)| {
            let k = 3 + k % (w.max(h) - 2);
            Variant::custom(w, h, k, overline).unwrap()
        }),
    ]
}

/// Whether `color` has a winning row anywhere, by scanning the whole board.
fn brute_force_win(board: &Board, variant: &Variant, color: Color) -> bool {
    let k = variant.k() as i32;
    let at =
        |x: i32, y: i32| x >= 0 && y >= 0 && board.get(Point::new(x as u8, y as u8)) == Some(color);
    for p in board.points() {
        for (dx, dy) in [(1, 0), (0, 1), (1, 1), (-1, 1)] {
            let (x, y) = (p.x as i32, p.y as i32);
            if !at(x, y) || at(x - dx, y - dy) {
                continue;
            }
            let mut len = 0;
            while at(x + len * dx, y + len * dy) {
                len += 1;
            }
            if len == k || (len > k && variant.overline_wins(color)) {
                return true;
            }
        }
    }
    false
}

/// Plays a random legal game; `picks` choose among the points the rules allow.
fn random_game(variant: Variant, picks: &[u16]) -> Vec<(Position, Point)> {
    let mut position = Position::new(variant);
    let mut history = Vec::new();
    for &pick in picks {
        if position.is_over() {
            break;
        }
        let legal: Vec<Point> = position
            .board()
            .points()
            .filter(|&p| position.check(p).is_ok())
            .collect();
        if legal.is_empty() {
            break;
        }
        let p = legal[pick as usize % legal.len()];
        history.push((position.clone(), p));
        position.play(p).unwrap();
    }
    history
}

fn snapshot(p: &Position) -> (Vec<String>, Color, Vec<Point>, Option<Outcome>) {
    (
        p.board().rows(),
        p.to_move(),
        p.moves().to_vec(),
        p.outcome().cloned(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn incremental_win_detection_agrees_with_a_full_scan(
        variant in variants(),
        picks in prop::collection::vec(any::<u16>(), 0..250),
    ) {
        for (before, p) in random_game(variant, &picks) {
            let mut after = before.clone();
            let mover = after.to_move();
            let outcome = after.play(p).unwrap();
            let board = after.board();
            let won = brute_force_win(board, &variant, mover);
            match &outcome {
                Some(Outcome::Win { winner, reason: WinReason::Row, line }) => {
                    prop_assert_eq!(*winner, mover);
                    prop_assert!(won, "claimed a win the scan does not see:\n{}", board);
                    prop_assert_eq!(line.len(), variant.k() as usize);
                    prop_assert!(line.contains(&p));
                    prop_assert!(line.iter().all(|&q| board.get(q) == Some(mover)));
                    let (dx, dy) = (line[1].x as i32 - line[0].x as i32, line[1].y as i32 - line[0].y as i32);
                    for pair in line.windows(2) {
                        prop_assert_eq!((pair[1].x as i32 - pair[0].x as i32, pair[1].y as i32 - pair[0].y as i32), (dx, dy));
                    }
                }
                Some(Outcome::Win { reason: WinReason::Forbidden(_), winner, .. }) => {
                    prop_assert_eq!(*winner, Color::White);
                    prop_assert_eq!(variant.forbidden_policy(), Some(ForbiddenPolicy::Lose));
                }
                Some(Outcome::Draw) => {
                    prop_assert!(!won);
                    prop_assert!(board.is_full());
                }
                None => prop_assert!(!won, "missed a win:\n{}", board),
            }
        }
    }

    #[test]
    fn undo_restores_and_redo_replays_exactly(
        variant in variants(),
        picks in prop::collection::vec(any::<u16>(), 1..120),
    ) {
        let history = random_game(variant, &picks);
        let Some((before, _)) = history.first() else { return Ok(()) };
        let mut game = before.clone();
        for (_, p) in &history {
            game.play(*p).unwrap();
        }
        let end = snapshot(&game);
        for (position, _) in history.iter().rev() {
            game.undo();
            prop_assert_eq!(snapshot(&game), snapshot(position));
        }
        prop_assert!(!game.can_undo());
        while game.redo().is_some() {}
        prop_assert_eq!(snapshot(&game), end);
    }
}

#[test]
fn notation_round_trips_for_every_point_of_every_board_size() {
    for width in 3..=26u8 {
        for height in 3..=26u8 {
            for p in Board::empty(width, height).points() {
                let name = p.name(height);
                assert_eq!(name.to_string().parse::<PointName>().unwrap(), name);
                assert_eq!(parse_point(&name.to_string(), width, height).unwrap(), p);
                assert_eq!(
                    parse_point(&name.to_string().to_uppercase(), width, height).unwrap(),
                    p
                );
                assert_eq!(parse_point(&p.to_string(), width, height).unwrap(), p);
            }
            let beyond_x = Point::new(width, 0).to_string();
            assert!(parse_point(&beyond_x, width, height).is_err());
            let beyond_row = format!("a{}", height + 1);
            assert!(parse_point(&beyond_row, width, height).is_err());
        }
    }
}
