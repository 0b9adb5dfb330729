//! The one-move evaluator of the original browser games (ORIGINS.md): score
//! every playable point by the runs through it, play the best. It sees no
//! further than the next stone, which is what makes it beatable.

use super::{Candidate, Decision, SplitMix64};
use crate::rules::{Board, Color, Point, Position};

const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];
/// How many candidates a decision reports.
const REPORTED: usize = 10;

fn stone_at(board: &Board, x: i32, y: i32) -> Option<Option<Color>> {
    if x < 0 || y < 0 || x >= board.width() as i32 || y >= board.height() as i32 {
        return None;
    }
    Some(board.get(Point::new(x as u8, y as u8)))
}

/// Every point the side to move may play — never a forbidden one, even
/// where the rules would let it stand and lose.
pub(super) fn legal_points(position: &Position) -> Vec<Point> {
    position
        .board()
        .points()
        .filter(|&p| position.check(p).is_ok() && position.forbidden_kind(p).is_none())
        .collect()
}

/// A small pull towards the centre, so quiet positions are played from the middle.
fn centre_bonus(board: &Board, p: Point) -> i64 {
    let dx = (2 * p.x as i64 - (board.width() as i64 - 1)).abs();
    let dy = (2 * p.y as i64 - (board.height() as i64 - 1)).abs();
    let far = (board.width().max(board.height())) as i64;
    (far - dx.max(dy)).max(0)
}

/// Turns scored points into a decision: the best first, ties to the earliest.
fn decide(mut scored: Vec<Candidate>) -> Option<Decision> {
    scored.sort_by_key(|c| std::cmp::Reverse(c.score));
    let nodes = scored.len() as u64;
    scored.truncate(REPORTED);
    Decision::from_candidates(scored, 1, nodes)
}

/// Where the game is measured in k rather than five, a run of `n` counts like
/// a run of `n + 5 - k` would in five-in-a-row.
fn as_if_five(n: usize, k: usize) -> usize {
    (n + 5).saturating_sub(k)
}

/// Line scoring: for each direction, imagine the stone placed and score the
/// run through it by its length and open ends, for both sides.
pub(super) fn line_scoring(position: &Position, seed: u64) -> Option<Decision> {
    let board = position.board();
    let me = position.to_move();
    let k = position.variant().k() as usize;
    let legal = legal_points(position);

    // The first reply goes next to the opponent's only stone, at random.
    if board.stone_count() == 1 {
        let first = board.points().find(|&p| board.get(p).is_some())?;
        let near: Vec<Point> = legal
            .iter()
            .copied()
            .filter(|p| p.x.abs_diff(first.x) <= 1 && p.y.abs_diff(first.y) <= 1)
            .collect();
        if !near.is_empty() {
            let point = near[SplitMix64::new(seed).below(near.len())];
            return decide(vec![Candidate { point, score: 0 }]);
        }
    }

    let run_value = |color: Color, p: Point| -> i64 {
        let own = color == me;
        let mut total = 0;
        for (dx, dy) in DIRECTIONS {
            let mut len = 1;
            let mut open = 0;
            for sign in [1, -1] {
                let (mut x, mut y) = (p.x as i32 + sign * dx, p.y as i32 + sign * dy);
                while stone_at(board, x, y) == Some(Some(color)) {
                    len += 1;
                    x += sign * dx;
                    y += sign * dy;
                }
                if stone_at(board, x, y) == Some(None) {
                    open += 1;
                }
            }
            total += if len == k {
                if own { 100_000 } else { 10_000 }
            } else if len > k {
                match (position.variant().overline_wins(color), own) {
                    (false, _) => 0,
                    (true, true) => 500_000,
                    (true, false) => 250_000,
                }
            } else {
                let n = as_if_five(len, k).clamp(1, 4);
                match (open, own) {
                    (2, true) => [15, 100, 500, 5000][n - 1],
                    (1, true) => [0, 10, 30, 400][n - 1],
                    (2, false) => [10, 50, 200, 2000][n - 1],
                    (1, false) => [0, 5, 20, 100][n - 1],
                    _ => 0,
                }
            };
        }
        total
    };

    let scored = legal
        .into_iter()
        .map(|p| Candidate {
            point: p,
            score: run_value(me, p) + run_value(me.opponent(), p) + centre_bonus(board, p),
        })
        .collect();
    decide(scored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Level, Limits, think};
    use crate::rules::{ForbiddenPolicy, Variant};

    fn position(variant: Variant, rows: &[&str]) -> Position {
        Position::from_rows(variant, rows).unwrap()
    }

    #[test]
    fn every_level_completes_its_own_row_first() {
        let p = position(Variant::tictactoe(), &["XX.", "OO.", "..."]);
        for level in Level::ALL {
            let d = think(&p, level, &Limits::default()).unwrap();
            assert_eq!(d.point, Point::new(2, 0), "{level}");
        }
    }

    #[test]
    fn every_level_blocks_the_opponents_row() {
        let p = position(Variant::tictactoe(), &["XX.", "O..", "..."]);
        for level in Level::ALL {
            let d = think(&p, level, &Limits::default()).unwrap();
            assert_eq!(d.point, Point::new(2, 0), "{level}");
        }
    }

    #[test]
    fn the_beginners_first_reply_is_next_to_the_first_stone_and_follows_the_seed() {
        let mut game = Position::new(Variant::freestyle(15).unwrap());
        game.play(Point::new(7, 7)).unwrap();
        let mut seen = std::collections::HashSet::new();
        for seed in 0..40 {
            let limits = Limits {
                seed,
                ..Limits::default()
            };
            let d = think(&game, Level::Beginner, &limits).unwrap();
            assert!(
                d.point.x.abs_diff(7) <= 1
                    && d.point.y.abs_diff(7) <= 1
                    && d.point != Point::new(7, 7)
            );
            assert_eq!(
                think(&game, Level::Beginner, &limits).unwrap().point,
                d.point
            );
            seen.insert(d.point);
        }
        assert!(seen.len() > 3, "the first reply varies with the seed");
    }

    #[test]
    fn as_renju_black_no_level_plays_a_forbidden_point() {
        // h8-area double-three bait: the only attacking point for black is forbidden.
        let p = position(
            Variant::renju(ForbiddenPolicy::Reject),
            &[
                "O..............",
                "...............",
                "...............",
                "...............",
                "...............",
                "...............",
                ".......X.......",
                ".......X.......",
                "...............",
                ".....XX........",
                "...............",
                "...............",
                "..........O....",
                "...........O...",
                "............O..",
            ],
        );
        for level in Level::ALL {
            let d = think(&p, level, &Limits::default()).unwrap();
            assert_ne!(d.point, Point::new(7, 9), "{level}");
            assert!(p.check(d.point).is_ok());
        }
    }
}
