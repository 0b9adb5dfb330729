//! The eight symmetries of a square board: four rotations, each with or
//! without a mirror. Openings are named, and fifth-move offers compared, up
//! to these.

use crate::rules::{Board, Point};

/// One of the eight symmetries of a square board about its centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Quarter turns clockwise, after the mirror.
    turns: u8,
    /// Mirror left to right first.
    mirror: bool,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            turns: 0,
            mirror: false,
        }; 8];
        let mut n = 0;
        while n < 8 {
            all[n] = Symmetry {
                turns: (n % 4) as u8,
                mirror: n >= 4,
            };
            n += 1;
        }
        all
    };

    /// Where `p` goes on a `side`×`side` board.
    ///
    /// ```
    /// use gobang::rules::{Point, Symmetry};
    /// let quarter = Symmetry::ALL[1];
    /// assert_eq!(quarter.apply(Point::new(0, 0), 15), Point::new(14, 0));
    /// assert!(Symmetry::ALL.iter().all(|s| s.apply(Point::new(7, 7), 15) == Point::new(7, 7)));
    /// ```
    pub fn apply(self, p: Point, side: u8) -> Point {
        let n = side - 1;
        let (mut x, mut y) = if self.mirror {
            (n - p.x, p.y)
        } else {
            (p.x, p.y)
        };
        for _ in 0..self.turns {
            (x, y) = (n - y, x);
        }
        Point::new(x, y)
    }

    /// The symmetry that undoes this one: a mirrored one is its own
    /// inverse, a turn is undone by the turns that complete the circle.
    ///
    /// ```
    /// use gobang::rules::{Point, Symmetry};
    /// let p = Point::new(2, 5);
    /// assert!(Symmetry::ALL.iter().all(|s| s.inverse().apply(s.apply(p, 15), 15) == p));
    /// ```
    pub fn inverse(self) -> Symmetry {
        if self.mirror {
            self
        } else {
            Symmetry {
                turns: (4 - self.turns) % 4,
                mirror: false,
            }
        }
    }

    /// Whether this symmetry maps every stone of `board` (a square one) onto
    /// a stone of the same colour.
    pub fn preserves(self, board: &Board) -> bool {
        let side = board.width();
        board
            .points()
            .filter(|&p| board.get(p).is_some())
            .all(|p| board.get(self.apply(p, side)) == board.get(p))
    }
}

/// Whether `a` and `b` are the same move up to a symmetry of the position on
/// `board`: some symmetry that leaves the stones as they are maps `a` to `b`.
pub fn equivalent(board: &Board, a: Point, b: Point) -> bool {
    board.width() == board.height()
        && Symmetry::ALL
            .iter()
            .any(|s| s.apply(a, board.width()) == b && s.preserves(board))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_distinct_and_closed() {
        let p = Point::new(1, 3);
        let images: Vec<Point> = Symmetry::ALL.iter().map(|s| s.apply(p, 15)).collect();
        for (i, a) in images.iter().enumerate() {
            assert!(!images[i + 1..].contains(a), "{images:?}");
        }
        for s in Symmetry::ALL {
            for t in Symmetry::ALL {
                let composed = t.apply(s.apply(p, 15), 15);
                assert!(images.contains(&composed));
            }
        }
    }

    #[test]
    fn each_symmetry_is_undone_by_its_inverse() {
        for s in Symmetry::ALL {
            for y in 0..15 {
                for x in 0..15 {
                    let p = Point::new(x, y);
                    assert_eq!(s.inverse().apply(s.apply(p, 15), 15), p, "{s:?}");
                }
            }
        }
    }

    #[test]
    fn offers_on_a_symmetric_position_are_compared_up_to_its_symmetries() {
        // h8 and h9 (centre and the point above): mirror left-right keeps it.
        let mut board = Board::empty(15, 15);
        board.put(Point::new(7, 7), crate::rules::Color::Black);
        board.put(Point::new(7, 6), crate::rules::Color::White);
        assert!(equivalent(&board, Point::new(5, 5), Point::new(9, 5)));
        assert!(!equivalent(&board, Point::new(5, 5), Point::new(5, 9)));
        assert!(equivalent(&board, Point::new(5, 5), Point::new(5, 5)));
    }
}
