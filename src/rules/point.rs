//! Points on a board and their two spellings.
//!
//! A [`Point`] is 0-based from the top-left corner (screen and Gomocup
//! convention) and prints as `x,y`. A [`PointName`] is the renju spelling: a
//! column letter from the left and a row number counted from the BOTTOM,
//! starting at 1, so on a 15×15 board `h8` is the centre `7,7`.

use std::fmt;
use std::str::FromStr;

use super::error::PointError;

/// The largest board side any rule set allows; columns are named `a` to `z`.
pub const MAX_SIDE: u8 = 26;

/// An intersection, 0-based: `x` from the left, `y` from the top.
///
/// ```
/// use gobang::rules::Point;
/// let p: Point = "7,7".parse().unwrap();
/// assert_eq!(p, Point::new(7, 7));
/// assert_eq!(p.to_string(), "7,7");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    pub x: u8,
    pub y: u8,
}

impl Point {
    pub const fn new(x: u8, y: u8) -> Self {
        Point { x, y }
    }

    /// The renju name of this point on a board `height` rows tall.
    ///
    /// ```
    /// use gobang::rules::Point;
    /// assert_eq!(Point::new(7, 7).name(15).to_string(), "h8");
    /// assert_eq!(Point::new(0, 14).name(15).to_string(), "a1");
    /// ```
    pub fn name(self, height: u8) -> PointName {
        PointName {
            column: self.x,
            row: height - self.y,
        }
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

impl FromStr for Point {
    type Err = PointError;

    /// Parses `x,y` (spaces and surrounding parentheses are allowed).
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || PointError::Syntax {
            input: s.to_string(),
        };
        let inner = s.trim();
        let inner = inner
            .strip_prefix('(')
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or(inner);
        let (x, y) = inner.split_once(',').ok_or_else(syntax)?;
        let coordinate = |part: &str| -> Result<u8, PointError> {
            let part = part.trim();
            if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            // Anything past 255 is off every board; keep the error about the board.
            Ok(part.parse::<u32>().map_or(u8::MAX, |n| n.min(255) as u8))
        };
        Ok(Point::new(coordinate(x)?, coordinate(y)?))
    }
}

/// A point in renju notation: column letter from the left, row from the bottom.
///
/// ```
/// use gobang::rules::{Point, PointName};
/// let name: PointName = "H8".parse().unwrap();
/// assert_eq!(name.to_string(), "h8");
/// assert_eq!(name.to_point(15, 15).unwrap(), Point::new(7, 7));
/// assert!("p16".parse::<PointName>().unwrap().to_point(15, 15).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PointName {
    /// 0-based column (`a` is 0).
    pub column: u8,
    /// 1-based row counted from the bottom.
    pub row: u8,
}

impl PointName {
    /// The point this name stands for on a `width`×`height` board.
    pub fn to_point(self, width: u8, height: u8) -> Result<Point, PointError> {
        if self.column >= width || self.row == 0 || self.row > height {
            return Err(PointError::NameOffBoard {
                name: self.to_string(),
                width,
                height,
            });
        }
        Ok(Point::new(self.column, height - self.row))
    }
}

impl fmt::Display for PointName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.column) as char, self.row)
    }
}

impl FromStr for PointName {
    type Err = PointError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let syntax = || PointError::Syntax {
            input: s.to_string(),
        };
        let trimmed = s.trim();
        let mut chars = trimmed.chars();
        let letter = chars.next().ok_or_else(syntax)?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return Err(syntax());
        }
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 3 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        let row: u16 = digits.parse().map_err(|_| syntax())?;
        Ok(PointName {
            column: letter as u8 - b'a',
            row: row.min(255) as u8,
        })
    }
}

/// Parses either spelling, `h8` or `7,7`, and checks it lies on a
/// `width`×`height` board.
///
/// ```
/// use gobang::rules::{parse_point, Point};
/// assert_eq!(parse_point("h8", 15, 15).unwrap(), Point::new(7, 7));
/// assert_eq!(parse_point("14,0", 15, 15).unwrap(), parse_point("o15", 15, 15).unwrap());
/// assert!(parse_point("15,0", 15, 15).is_err());
/// ```
pub fn parse_point(s: &str, width: u8, height: u8) -> Result<Point, PointError> {
    let starts_with_letter = s
        .trim()
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic());
    if starts_with_letter {
        s.parse::<PointName>()?.to_point(width, height)
    } else {
        let p: Point = s.parse()?;
        check_on_board(p, width, height)
    }
}

/// `Ok(p)` when `p` lies on a `width`×`height` board.
pub fn check_on_board(p: Point, width: u8, height: u8) -> Result<Point, PointError> {
    if p.x < width && p.y < height {
        Ok(p)
    } else {
        Err(PointError::OffBoard {
            x: p.x,
            y: p.y,
            width,
            height,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_of_a_15_board_have_their_renju_names() {
        assert_eq!(Point::new(0, 14).name(15).to_string(), "a1");
        assert_eq!(Point::new(14, 0).name(15).to_string(), "o15");
        assert_eq!(Point::new(7, 7).name(15).to_string(), "h8");
        assert_eq!(Point::new(8, 7).name(15).to_string(), "i8");
    }

    #[test]
    fn names_parse_in_either_case() {
        assert_eq!(
            "O15"
                .parse::<PointName>()
                .unwrap()
                .to_point(15, 15)
                .unwrap(),
            Point::new(14, 0)
        );
        assert_eq!(
            " a1 "
                .parse::<PointName>()
                .unwrap()
                .to_point(15, 15)
                .unwrap(),
            Point::new(0, 14)
        );
    }

    #[test]
    fn malformed_names_are_syntax_errors() {
        for bad in ["", "8h", "h", "h-1", "hh8", "h8x", "é8", "h1234"] {
            assert!(
                matches!(bad.parse::<PointName>(), Err(PointError::Syntax { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn off_board_names_say_which_point_and_board() {
        let err = "p8"
            .parse::<PointName>()
            .unwrap()
            .to_point(15, 15)
            .unwrap_err();
        assert_eq!(
            err.to_string(),
            "p8 is off the 15×15 board (columns a–o, rows 1–15)"
        );
        assert!("h0".parse::<PointName>().unwrap().to_point(15, 15).is_err());
        assert!(
            "h16"
                .parse::<PointName>()
                .unwrap()
                .to_point(15, 15)
                .is_err()
        );
    }

    #[test]
    fn coordinates_parse_with_or_without_parentheses() {
        assert_eq!("(3, 4)".parse::<Point>().unwrap(), Point::new(3, 4));
        assert_eq!("3,4".parse::<Point>().unwrap(), Point::new(3, 4));
        assert!("3;4".parse::<Point>().is_err());
        assert!("-1,4".parse::<Point>().is_err());
        let err = parse_point("15,2", 15, 15).unwrap_err();
        assert_eq!(
            err.to_string(),
            "(15, 2) is off the 15×15 board (x goes from 0 to 14, y from 0 to 14)"
        );
        assert!(parse_point("9999,2", 15, 15).is_err());
    }
}
