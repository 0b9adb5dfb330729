//! The two sides. Black (X) always moves first.

use std::fmt;

/// A side: black moves first; in tic-tac-toe black is X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black,
    White,
}

impl Color {
    /// The other side.
    ///
    /// ```
    /// use gobang::rules::Color;
    /// assert_eq!(Color::Black.opponent(), Color::White);
    /// ```
    pub const fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// The side that plays ply `ply` (0-based): black on even plies.
    pub const fn of_ply(ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The letter of this side's stones in text boards.
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// `"black"` or `"white"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
