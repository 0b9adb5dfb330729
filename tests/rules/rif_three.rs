//! The RIF definition of a three: one more stone makes a straight four
//! "without at the same time a five in a row being made". A shape whose
//! only straight-four points also make a five is no three, so a point
//! crossing it with one real three is no double-three.

use gobang::rules::{Board, ForbiddenKind, Point};

/// A 15×15 board with black (`X`) and white (`O`) stones at `(x, y)`, y
/// from the top.
fn board(black: &[(u8, u8)], white: &[(u8, u8)]) -> Board {
    let mut rows = vec![vec![b'.'; 15]; 15];
    for &(x, y) in black {
        rows[y as usize][x as usize] = b'X';
    }
    for &(x, y) in white {
        rows[y as usize][x as usize] = b'O';
    }
    let rows: Vec<String> = rows
        .into_iter()
        .map(|r| String::from_utf8(r).unwrap())
        .collect();
    Board::from_rows(&rows).unwrap()
}

/// White stones far from the fight, to keep the stone counts of a game.
fn far_white(n: usize) -> Vec<(u8, u8)> {
    (0..15u8)
        .step_by(2)
        .map(|x| (x, 0))
        .chain((0..15u8).step_by(2).map(|x| (x, 14)))
        .take(n)
        .collect()
}

#[test]
fn a_split_three_whose_only_four_point_makes_a_five_is_no_three() {
    // Row 7: X . X P  — the split three's only straight-four point is (5, 7),
    // and a stone there also makes five on column 5 (rows 7 to 11).
    // Column 7: the open three (7, 5), (7, 6), P is real.
    let black = [
        (4, 7),
        (6, 7),
        (7, 5),
        (7, 6),
        (5, 8),
        (5, 9),
        (5, 10),
        (5, 11),
    ];
    let b = board(&black, &far_white(8));
    assert_eq!(b.forbidden_kind(Point::new(7, 7)), None, "\n{b}");
    // Without the column of four, the same point is a double-three.
    let b = board(&black[..4], &far_white(4));
    assert_eq!(
        b.forbidden_kind(Point::new(7, 7)),
        Some(ForbiddenKind::DoubleThree),
        "\n{b}"
    );
}

#[test]
fn an_open_three_whose_both_four_points_make_fives_is_no_three() {
    // Row 7: . X X P .  — both straight-four points, (4, 7) and (8, 7),
    // make five on their columns; column 7 holds a real open three.
    let black = [
        (5, 7),
        (6, 7),
        (7, 5),
        (7, 6),
        (4, 8),
        (4, 9),
        (4, 10),
        (4, 11),
        (8, 8),
        (8, 9),
        (8, 10),
        (8, 11),
    ];
    let b = board(&black, &far_white(12));
    assert_eq!(b.forbidden_kind(Point::new(7, 7)), None, "\n{b}");
    assert!(
        !b.forbidden_points()
            .iter()
            .any(|&(p, _)| p == Point::new(7, 7))
    );
    // With only one of the two columns, the other four point still makes a
    // straight four without a five: a real three, so a double-three.
    let b = board(&black[..8], &far_white(8));
    assert_eq!(
        b.forbidden_kind(Point::new(7, 7)),
        Some(ForbiddenKind::DoubleThree),
        "\n{b}"
    );
}
