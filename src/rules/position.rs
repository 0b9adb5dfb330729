//! A game in progress: the board, whose turn it is, the moves played and
//! taken back, and the outcome once there is one.

use super::board::{Cell, DIRECTIONS};
use super::error::{BoardTextError, PlayError};
use super::{Board, Color, ForbiddenKind, ForbiddenPolicy, Point, Variant, check_on_board};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// `winner` won; `line` holds the k winning points in order (empty when
    /// black lost by playing a forbidden point).
    Win {
        winner: Color,
        reason: WinReason,
        line: Vec<Point>,
    },
    /// The board filled up with no winner.
    Draw,
}

impl Outcome {
    pub fn winner(&self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            Outcome::Draw => None,
        }
    }
}

/// Why a game was won on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WinReason {
    /// k in a row (five, or three in tic-tac-toe).
    Row,
    /// Black played a forbidden point under the "foul loses" rule.
    Forbidden(ForbiddenKind),
}

/// A game under one rule set that can be played forward and taken back.
///
/// ```
/// use gobang::rules::{Color, Outcome, Point, Position, Variant};
/// let mut game = Position::new(Variant::tictactoe());
/// for (x, y) in [(0, 0), (0, 1), (1, 1), (0, 2)] {
///     assert_eq!(game.play(Point::new(x, y)).unwrap(), None);
/// }
/// let outcome = game.play(Point::new(2, 2)).unwrap().unwrap();
/// assert_eq!(outcome.winner(), Some(Color::Black));
/// game.undo();
/// assert_eq!(game.outcome(), None);
/// ```
#[derive(Clone, Debug)]
pub struct Position {
    variant: Variant,
    board: Board,
    moves: Vec<Point>,
    /// Moves taken back, the next one to redo last.
    undone: Vec<Point>,
    outcome: Option<Outcome>,
}

impl Position {
    /// The empty board of `variant`.
    pub fn new(variant: Variant) -> Position {
        Position {
            variant,
            board: Board::empty(variant.width(), variant.height()),
            moves: Vec::with_capacity(variant.area()),
            undone: Vec::new(),
            outcome: None,
        }
    }

    /// A position set up from a text board (no move history). The side to
    /// move follows from the stone counts.
    ///
    /// ```
    /// use gobang::rules::{Color, Position, Variant};
    /// let p = Position::from_rows(Variant::tictactoe(), &["X..", ".O.", "..X"]).unwrap();
    /// assert_eq!(p.to_move(), Color::White);
    /// ```
    pub fn from_rows<S: AsRef<str>>(
        variant: Variant,
        rows: &[S],
    ) -> Result<Position, BoardTextError> {
        let board = Board::from_rows(rows)?;
        Self::from_board(variant, board)
    }

    /// A position set up from a board of the variant's size.
    pub fn from_board(variant: Variant, board: Board) -> Result<Position, BoardTextError> {
        if board.width() != variant.width() || board.height() != variant.height() {
            return Err(BoardTextError::Size {
                width: board.width(),
                height: board.height(),
                expected_width: variant.width(),
                expected_height: variant.height(),
            });
        }
        let count = |c: Color| board.points().filter(|&p| board.get(p) == Some(c)).count();
        let (black, white) = (count(Color::Black), count(Color::White));
        if black != white && black != white + 1 {
            return Err(BoardTextError::StoneCounts { black, white });
        }
        Ok(Position {
            variant,
            board,
            moves: Vec::new(),
            undone: Vec::new(),
            outcome: None,
        })
    }

    pub fn variant(&self) -> &Variant {
        &self.variant
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move next.
    pub fn to_move(&self) -> Color {
        Color::of_ply(self.board.stone_count())
    }

    /// The moves played (after any set-up stones), in order.
    pub fn moves(&self) -> &[Point] {
        &self.moves
    }

    /// The moves that [`redo`](Self::redo) would play back, next first.
    pub fn redo_moves(&self) -> impl Iterator<Item = Point> + '_ {
        self.undone.iter().rev().copied()
    }

    pub fn last_move(&self) -> Option<Point> {
        self.moves.last().copied()
    }

    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    pub fn can_undo(&self) -> bool {
        !self.moves.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Whether the side to move may play `p`, and why not.
    pub fn check(&self, p: Point) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        check_on_board(p, self.variant.width(), self.variant.height())?;
        if let Some(by) = self.board.get(p) {
            return Err(PlayError::Occupied { point: p, by });
        }
        if self.variant.forbidden_policy() == Some(ForbiddenPolicy::Reject)
            && self.to_move() == Color::Black
            && let Some(kind) = self.board.forbidden_kind(p)
        {
            return Err(PlayError::Forbidden { point: p, kind });
        }
        Ok(())
    }

    /// Plays `p` for the side to move; forgets the moves that could be
    /// redone. Returns the outcome if the move ended the game.
    pub fn play(&mut self, p: Point) -> Result<Option<Outcome>, PlayError> {
        let outcome = self.play_keeping_redo(p)?;
        self.undone.clear();
        Ok(outcome)
    }

    fn play_keeping_redo(&mut self, p: Point) -> Result<Option<Outcome>, PlayError> {
        self.check(p)?;
        let color = self.to_move();
        // Under "foul loses" the forbidden move stands and ends the game.
        let foul = match self.variant.forbidden_policy() {
            Some(ForbiddenPolicy::Lose) if color == Color::Black => self.board.forbidden_kind(p),
            _ => None,
        };
        self.board.put(p, color);
        self.moves.push(p);
        self.outcome = if let Some(kind) = foul {
            Some(Outcome::Win {
                winner: Color::White,
                reason: WinReason::Forbidden(kind),
                line: Vec::new(),
            })
        } else if let Some(line) = self.winning_line(p, color) {
            Some(Outcome::Win {
                winner: color,
                reason: WinReason::Row,
                line,
            })
        } else if self.board.is_full() {
            Some(Outcome::Draw)
        } else {
            None
        };
        Ok(self.outcome.clone())
    }

    /// A winning row already on the board (a position set up from a board
    /// may hold one): its colour and points.
    pub fn row_on_board(&self) -> Option<(Color, Vec<Point>)> {
        self.board.points().find_map(|p| {
            let color = self.board.get(p)?;
            self.winning_line(p, color).map(|line| (color, line))
        })
    }

    /// The k points of the winning row `color`'s stone on `p` made, if any.
    fn winning_line(&self, p: Point, color: Color) -> Option<Vec<Point>> {
        let k = self.variant.k() as usize;
        let overline_wins = self.variant.overline_wins(color);
        let i = Board::index(p);
        for step in DIRECTIONS {
            let (back, forward) = self.board.run(i, step, Cell::stone(color));
            let len = back + forward + 1;
            if len == k || (len > k && overline_wins) {
                // The k points of the row that start closest to its first stone
                // while still holding the new one.
                let start = i - back.min(k - 1) * step;
                return Some((0..k).map(|n| Board::point_at(start + n * step)).collect());
            }
        }
        None
    }

    /// Forgets the moves that could be redone (as a new move does).
    pub fn forget_redo(&mut self) {
        self.undone.clear();
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Point> {
        let p = self.moves.pop()?;
        self.board.take(p);
        self.undone.push(p);
        self.outcome = None;
        Some(p)
    }

    /// Plays again the last move taken back; returns it and the outcome it
    /// brings, or `None` when there is nothing to redo.
    pub fn redo(&mut self) -> Option<(Point, Option<Outcome>)> {
        let p = *self.undone.last()?;
        let outcome = self
            .play_keeping_redo(p)
            .expect("a move taken back can always be played again");
        self.undone.pop();
        Some((p, outcome))
    }

    /// Why the side to move may not play `p` under renju rules, whatever the
    /// policy says playing it does; `None` for white and other rule sets.
    pub fn forbidden_kind(&self, p: Point) -> Option<ForbiddenKind> {
        if self.variant.forbidden_policy().is_none() || self.to_move() != Color::Black {
            return None;
        }
        self.board.forbidden_kind(p)
    }

    /// Black's forbidden points, when this is renju, black is to move and the
    /// game is not over; empty otherwise.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        if self.variant.forbidden_policy().is_none()
            || self.to_move() != Color::Black
            || self.is_over()
        {
            return Vec::new();
        }
        self.board.forbidden_points()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::PointError;

    fn play_all(position: &mut Position, points: &[(u8, u8)]) -> Option<Outcome> {
        let mut last = None;
        for &(x, y) in points {
            last = position.play(Point::new(x, y)).unwrap();
        }
        last
    }

    #[test]
    fn five_in_a_row_wins_freestyle_with_the_line_in_order() {
        let mut p = Position::new(Variant::freestyle(15).unwrap());
        let outcome = play_all(
            &mut p,
            &[
                (3, 7),
                (3, 8),
                (4, 7),
                (4, 8),
                (6, 7),
                (6, 8),
                (7, 7),
                (7, 8),
                (5, 7),
            ],
        );
        let Some(Outcome::Win { winner, line, .. }) = outcome else {
            panic!("no win")
        };
        assert_eq!(winner, Color::Black);
        assert_eq!(line, (3..8).map(|x| Point::new(x, 7)).collect::<Vec<_>>());
        assert_eq!(p.play(Point::new(0, 0)), Err(PlayError::GameOver));
    }

    #[test]
    fn an_overline_wins_freestyle_but_not_standard() {
        let moves = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (2, 0),
            (2, 1),
            (4, 0),
            (4, 1),
            (5, 0),
            (9, 9),
            (3, 0),
        ];
        let mut free = Position::new(Variant::freestyle(15).unwrap());
        let Some(Outcome::Win { line, .. }) = play_all(&mut free, &moves) else {
            panic!("no win")
        };
        assert_eq!(line.len(), 5, "just five points even for an overline");
        assert!(line.contains(&Point::new(3, 0)));
        let mut standard = Position::new(Variant::standard(15).unwrap());
        assert_eq!(play_all(&mut standard, &moves), None);
    }

    #[test]
    fn an_occupied_point_is_refused_and_names_the_owner() {
        let mut p = Position::new(Variant::freestyle(15).unwrap());
        p.play(Point::new(7, 7)).unwrap();
        assert_eq!(
            p.play(Point::new(7, 7)),
            Err(PlayError::Occupied {
                point: Point::new(7, 7),
                by: Color::Black
            })
        );
        assert_eq!(
            p.play(Point::new(15, 0)),
            Err(PlayError::OutOfBoard(PointError::OffBoard {
                x: 15,
                y: 0,
                width: 15,
                height: 15
            }))
        );
        assert_eq!(p.moves().len(), 1);
    }

    #[test]
    fn a_full_board_without_a_row_is_a_draw() {
        let mut p = Position::new(Variant::tictactoe());
        let outcome = play_all(
            &mut p,
            &[
                (0, 0),
                (1, 1),
                (2, 2),
                (0, 1),
                (2, 1),
                (2, 0),
                (0, 2),
                (1, 2),
                (1, 0),
            ],
        );
        assert_eq!(outcome, Some(Outcome::Draw));
    }

    #[test]
    fn a_forbidden_point_is_refused_or_loses_by_policy() {
        let rows = [
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
        ];
        let target = Point::new(7, 9);
        let mut reject =
            Position::from_rows(Variant::renju(ForbiddenPolicy::Reject), &rows).unwrap();
        assert_eq!(
            reject.forbidden_points(),
            vec![(target, ForbiddenKind::DoubleThree)]
        );
        assert_eq!(
            reject.play(target),
            Err(PlayError::Forbidden {
                point: target,
                kind: ForbiddenKind::DoubleThree
            })
        );
        let mut lose = Position::from_rows(Variant::renju(ForbiddenPolicy::Lose), &rows).unwrap();
        let outcome = lose.play(target).unwrap().unwrap();
        assert_eq!(outcome.winner(), Some(Color::White));
        // White is never restricted.
        lose.undo();
        lose.play(Point::new(14, 0)).unwrap();
        assert!(lose.forbidden_points().is_empty());
        assert!(lose.check(target).is_ok());
    }

    #[test]
    fn undo_and_redo_walk_the_history() {
        let mut p = Position::new(Variant::freestyle(9).unwrap());
        play_all(&mut p, &[(4, 4), (4, 5), (5, 5)]);
        assert_eq!(p.undo(), Some(Point::new(5, 5)));
        assert_eq!(p.undo(), Some(Point::new(4, 5)));
        assert_eq!(p.to_move(), Color::White);
        assert_eq!(
            p.redo_moves().collect::<Vec<_>>(),
            vec![Point::new(4, 5), Point::new(5, 5)]
        );
        assert_eq!(p.redo(), Some((Point::new(4, 5), None)));
        p.play(Point::new(0, 0)).unwrap();
        assert!(!p.can_redo(), "a new move clears redo");
        assert_eq!(p.redo(), None);
    }
}
