//! What can go wrong in the rules layer, each error saying exactly what.

use super::{Color, ForbiddenKind, Point};

/// A point that could not be read, or does not lie on the board.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PointError {
    #[error("{input:?} is not a point: write a name like \"h8\" or coordinates like \"7,7\"")]
    Syntax { input: String },
    #[error(
        "{name} is off the {width}×{height} board (columns a–{last_column}, rows 1–{height})",
        last_column = (b'a' + width - 1) as char
    )]
    NameOffBoard { name: String, width: u8, height: u8 },
    #[error(
        "({x}, {y}) is off the {width}×{height} board (x goes from 0 to {max_x}, y from 0 to {max_y})",
        max_x = width - 1,
        max_y = height - 1
    )]
    OffBoard { x: u8, y: u8, width: u8, height: u8 },
}

/// A rule set that cannot be played as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum VariantError {
    #[error("{rules} is played on boards from {min} to {max} lines a side, not {size}")]
    BoardSize {
        rules: &'static str,
        size: u8,
        min: u8,
        max: u8,
    },
    #[error("renju is played on a 15×15 board only, not {width}×{height}")]
    RenjuSize { width: u8, height: u8 },
    #[error("tic-tac-toe is played on a 3×3 board only, not {width}×{height}")]
    TicTacToeSize { width: u8, height: u8 },
    #[error("a custom board's width and height go from 3 to 26, not {width}×{height}")]
    CustomSize { width: u8, height: u8 },
    #[error("k (stones in a row to win) goes from 3 to {max} on a {width}×{height} board, not {k}")]
    RowLength {
        k: u8,
        max: u8,
        width: u8,
        height: u8,
    },
    #[error("unknown rule set {0:?}: use {names}", names = super::RuleSet::ALL.map(super::RuleSet::as_str).join(", "))]
    UnknownRules(String),
    #[error("{option} applies to {applies} rules only, not {rules}")]
    OptionNotFor {
        option: &'static str,
        rules: &'static str,
        applies: &'static str,
    },
    #[error("custom rules need width and height (or board_size for a square board)")]
    CustomNeedsSize,
    #[error(
        "Gomocup rule {0} is not played here: use 0 (freestyle), 1 (exactly five) or 4 (renju)"
    )]
    GomocupRule(u32),
}

/// A move that may not be played.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error(transparent)]
    OutOfBoard(#[from] PointError),
    #[error("{point} is already taken by {by}")]
    Occupied { point: Point, by: Color },
    #[error("the game is over")]
    GameOver,
    #[error("{point} is forbidden for black ({kind})")]
    Forbidden { point: Point, kind: ForbiddenKind },
}

/// A text board that cannot be read back into a position.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoardTextError {
    #[error("the board has {found} rows; {}", expected_size(*expected))]
    RowCount { found: usize, expected: Option<u8> },
    #[error("row {row} (from the top, 0-based) has {found} points; {}", expected_size(*expected))]
    RowLength {
        row: usize,
        found: usize,
        expected: Option<u8>,
    },
    #[error("row {row} has {found:?} at x = {x}: use '.' for empty, 'X' for black, 'O' for white")]
    Character { row: usize, x: usize, found: char },
    #[error("the board is {width}×{height}; the rules need {expected_width}×{expected_height}")]
    Size {
        width: u8,
        height: u8,
        expected_width: u8,
        expected_height: u8,
    },
    #[error(
        "black has {black} stones and white {white}: black moves first, so black has as many stones as white or one more"
    )]
    StoneCounts { black: usize, white: usize },
}

fn expected_size(expected: Option<u8>) -> String {
    match expected {
        Some(n) => format!("it needs {n}"),
        None => "a board has 1 to 26 of them".to_string(),
    }
}
