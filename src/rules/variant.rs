//! Rule sets: board shape, how many in a row win, whether overlines win, and
//! whether black has forbidden points.

use std::fmt;
use std::str::FromStr;

use super::Color;
use super::error::VariantError;
use super::point::MAX_SIDE;

/// The named rule sets a game can be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSet {
    /// Five or more in a row wins; square boards 5–26.
    Freestyle,
    /// Exactly five wins for both sides; overlines do not win.
    Standard,
    /// 15×15; black needs exactly five and has forbidden points, white wins with five or more.
    Renju,
    /// 3×3, three in a row.
    TicTacToe,
    /// Any width and height from 3 to 26, any k, overlines winning or not.
    Custom,
}

impl RuleSet {
    pub const ALL: [RuleSet; 5] = [
        RuleSet::Freestyle,
        RuleSet::Standard,
        RuleSet::Renju,
        RuleSet::TicTacToe,
        RuleSet::Custom,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            RuleSet::Freestyle => "freestyle",
            RuleSet::Standard => "standard",
            RuleSet::Renju => "renju",
            RuleSet::TicTacToe => "tictactoe",
            RuleSet::Custom => "custom",
        }
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for RuleSet {
    type Err = VariantError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| VariantError::UnknownRules(s.to_string()))
    }
}

/// What happens when black plays a forbidden point in renju.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenPolicy {
    /// The move is refused and black plays again (friendly play).
    Reject,
    /// The move stands and black loses (tournament rule).
    Lose,
}

/// A complete, checked rule set: only constructors that validate can make one.
///
/// ```
/// use gobang::rules::Variant;
/// let v = Variant::freestyle(19).unwrap();
/// assert_eq!((v.width(), v.height(), v.k()), (19, 19, 5));
/// assert!(Variant::freestyle(4).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    rule_set: RuleSet,
    width: u8,
    height: u8,
    k: u8,
    overline_wins: bool,
    forbidden: Option<ForbiddenPolicy>,
}

impl Variant {
    /// Five or more in a row wins, on a `size`×`size` board (5–26).
    pub fn freestyle(size: u8) -> Result<Self, VariantError> {
        Self::square(RuleSet::Freestyle, size, true)
    }

    /// Exactly five wins for both sides, on a `size`×`size` board (5–26).
    pub fn standard(size: u8) -> Result<Self, VariantError> {
        Self::square(RuleSet::Standard, size, false)
    }

    fn square(rule_set: RuleSet, size: u8, overline_wins: bool) -> Result<Self, VariantError> {
        if !(5..=MAX_SIDE).contains(&size) {
            return Err(VariantError::BoardSize {
                rules: rule_set.as_str(),
                size,
                min: 5,
                max: MAX_SIDE,
            });
        }
        Ok(Variant {
            rule_set,
            width: size,
            height: size,
            k: 5,
            overline_wins,
            forbidden: None,
        })
    }

    /// Renju on 15×15 with black's forbidden points handled by `policy`.
    pub fn renju(policy: ForbiddenPolicy) -> Self {
        Variant {
            rule_set: RuleSet::Renju,
            width: 15,
            height: 15,
            k: 5,
            overline_wins: false,
            forbidden: Some(policy),
        }
    }

    /// Tic-tac-toe: 3×3, three in a row.
    pub fn tictactoe() -> Self {
        Variant {
            rule_set: RuleSet::TicTacToe,
            width: 3,
            height: 3,
            k: 3,
            overline_wins: true,
            forbidden: None,
        }
    }

    /// `k` in a row on a `width`×`height` board (3–26 each, 3 ≤ k ≤ the longer side).
    pub fn custom(width: u8, height: u8, k: u8, overline_wins: bool) -> Result<Self, VariantError> {
        if !(3..=MAX_SIDE).contains(&width) || !(3..=MAX_SIDE).contains(&height) {
            return Err(VariantError::CustomSize { width, height });
        }
        let max = width.max(height);
        if !(3..=max).contains(&k) {
            return Err(VariantError::RowLength {
                k,
                max,
                width,
                height,
            });
        }
        Ok(Variant {
            rule_set: RuleSet::Custom,
            width,
            height,
            k,
            overline_wins,
            forbidden: None,
        })
    }

    pub fn rule_set(&self) -> RuleSet {
        self.rule_set
    }
    pub fn width(&self) -> u8 {
        self.width
    }
    pub fn height(&self) -> u8 {
        self.height
    }
    /// How many in a row win.
    pub fn k(&self) -> u8 {
        self.k
    }
    /// Whether a line longer than k wins for `color`.
    pub fn overline_wins(&self, color: Color) -> bool {
        match self.forbidden {
            // Renju: white wins with five or more, black needs exactly five.
            Some(_) => color == Color::White,
            None => self.overline_wins,
        }
    }
    /// Whether overlines win in a custom game (for describing it back).
    pub fn overline_wins_for_both(&self) -> bool {
        self.overline_wins
    }
    /// Black's forbidden points and what playing one does, in renju.
    pub fn forbidden_policy(&self) -> Option<ForbiddenPolicy> {
        self.forbidden
    }
    /// Points on the board.
    pub fn area(&self) -> usize {
        self.width as usize * self.height as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_set_names_round_trip() {
        for r in RuleSet::ALL {
            assert_eq!(r.as_str().parse::<RuleSet>().unwrap(), r);
        }
        assert_eq!("Renju".parse::<RuleSet>().unwrap(), RuleSet::Renju);
        assert!("go".parse::<RuleSet>().is_err());
    }

    #[test]
    fn square_boards_go_from_5_to_26() {
        assert!(Variant::freestyle(5).is_ok());
        assert!(Variant::standard(26).is_ok());
        assert_eq!(
            Variant::freestyle(27).unwrap_err().to_string(),
            "freestyle is played on boards from 5 to 26 lines a side, not 27"
        );
    }

    #[test]
    fn custom_k_fits_the_board() {
        assert!(Variant::custom(7, 4, 7, false).is_ok());
        assert!(Variant::custom(7, 4, 8, false).is_err());
        assert!(Variant::custom(2, 4, 3, false).is_err());
        assert!(Variant::custom(4, 4, 2, false).is_err());
    }

    #[test]
    fn renju_overlines_win_for_white_only() {
        let v = Variant::renju(ForbiddenPolicy::Reject);
        assert!(v.overline_wins(Color::White));
        assert!(!v.overline_wins(Color::Black));
        let s = Variant::standard(15).unwrap();
        assert!(!s.overline_wins(Color::White));
    }
}
