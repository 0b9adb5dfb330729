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

/// A rule set's options as a game is created with them: each applies to
/// some rule sets only, and [`Variant::from_spec`] says so when one is given
/// where it does not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VariantSpec {
    /// Side of a square board (freestyle, standard; renju and tic-tac-toe
    /// accept only their own size).
    pub board_size: Option<u8>,
    /// Custom rules: width, height, k, and whether overlines win.
    pub width: Option<u8>,
    pub height: Option<u8>,
    pub k: Option<u8>,
    pub overline_wins: Option<bool>,
    /// Renju: what a forbidden move does.
    pub forbidden: Option<ForbiddenPolicy>,
}

impl Variant {
    /// The variant a client asked for: `rules` with the options in `spec`,
    /// defaults for the rest. The one place that knows which option goes
    /// with which rule set.
    ///
    /// ```
    /// use gobang::rules::{RuleSet, Variant, VariantSpec};
    /// let v = Variant::from_spec(RuleSet::Freestyle, &VariantSpec { board_size: Some(19), ..Default::default() }).unwrap();
    /// assert_eq!(v.width(), 19);
    /// let wrong = VariantSpec { k: Some(4), ..Default::default() };
    /// assert!(Variant::from_spec(RuleSet::Renju, &wrong).is_err());
    /// ```
    pub fn from_spec(rules: RuleSet, spec: &VariantSpec) -> Result<Variant, VariantError> {
        let only = |present: bool, option: &'static str, applies: &'static str| {
            if present {
                Err(VariantError::OptionNotFor {
                    option,
                    rules: rules.as_str(),
                    applies,
                })
            } else {
                Ok(())
            }
        };
        if rules != RuleSet::Custom {
            only(spec.width.is_some(), "width", "custom")?;
            only(spec.height.is_some(), "height", "custom")?;
            only(spec.k.is_some(), "k", "custom")?;
            only(spec.overline_wins.is_some(), "overline_wins", "custom")?;
        }
        if rules != RuleSet::Renju {
            only(spec.forbidden.is_some(), "forbidden", "renju")?;
        }
        match rules {
            RuleSet::Freestyle => Variant::freestyle(spec.board_size.unwrap_or(15)),
            RuleSet::Standard => Variant::standard(spec.board_size.unwrap_or(15)),
            RuleSet::Renju => match spec.board_size {
                Some(size) if size != 15 => Err(VariantError::RenjuSize {
                    width: size,
                    height: size,
                }),
                _ => Ok(Variant::renju(
                    spec.forbidden.unwrap_or(ForbiddenPolicy::Reject),
                )),
            },
            RuleSet::TicTacToe => match spec.board_size {
                Some(size) if size != 3 => Err(VariantError::TicTacToeSize {
                    width: size,
                    height: size,
                }),
                _ => Ok(Variant::tictactoe()),
            },
            RuleSet::Custom => {
                let width = spec
                    .width
                    .or(spec.board_size)
                    .ok_or(VariantError::CustomNeedsSize)?;
                let height = spec.height.or(spec.board_size).unwrap_or(width);
                let k = spec.k.unwrap_or(5.min(width.max(height)));
                Variant::custom(width, height, k, spec.overline_wins.unwrap_or(false))
            }
        }
    }

    /// The variant a stored game was made as, from everything stored with
    /// it: its rule set takes what applies to it.
    pub fn from_stored(
        rules: RuleSet,
        width: u8,
        height: u8,
        k: u8,
        overline_wins: bool,
        forbidden: Option<ForbiddenPolicy>,
    ) -> Result<Variant, VariantError> {
        let all = VariantSpec {
            board_size: Some(width),
            width: Some(width),
            height: Some(height),
            k: Some(k),
            overline_wins: Some(overline_wins),
            forbidden,
        };
        let spec = match rules {
            RuleSet::Custom => VariantSpec {
                board_size: None,
                forbidden: None,
                ..all
            },
            RuleSet::Renju => VariantSpec {
                forbidden: forbidden.or(Some(ForbiddenPolicy::Reject)),
                ..VariantSpec::default()
            },
            _ => VariantSpec {
                board_size: Some(width),
                ..VariantSpec::default()
            },
        };
        Variant::from_spec(rules, &spec)
    }

    /// The options that make this variant again with
    /// [`from_spec`](Self::from_spec).
    pub fn spec(&self) -> VariantSpec {
        let custom = self.rule_set == RuleSet::Custom;
        let square = matches!(self.rule_set, RuleSet::Freestyle | RuleSet::Standard);
        VariantSpec {
            board_size: square.then_some(self.width),
            width: custom.then_some(self.width),
            height: custom.then_some(self.height),
            k: custom.then_some(self.k),
            overline_wins: custom.then_some(self.overline_wins),
            forbidden: self.forbidden,
        }
    }

    /// The rules a Gomocup manager names with `INFO rule` (a bit mask: 1
    /// exactly five, 2 a continuous game, which changes nothing here, 4
    /// renju; 8, caro, is not played), on a `width`×`height` board.
    pub fn from_gomocup(rule: u32, width: u8, height: u8) -> Result<Variant, VariantError> {
        if rule & 8 != 0 {
            return Err(VariantError::GomocupRule(rule));
        }
        if rule & 4 != 0 {
            if (width, height) != (15, 15) {
                return Err(VariantError::RenjuSize { width, height });
            }
            return Ok(Variant::renju(ForbiddenPolicy::Lose));
        }
        let exact = rule & 1 != 0;
        match (width == height, exact) {
            (true, false) if width >= 5 => Variant::freestyle(width),
            (true, true) if width >= 5 => Variant::standard(width),
            _ => Variant::custom(width, height, 5, !exact),
        }
    }

    /// The `INFO rule` value that tells a Gomocup engine these rules.
    pub fn gomocup_rule(&self) -> u32 {
        match (self.forbidden, self.overline_wins) {
            (Some(_), _) => 4,
            (None, false) => 1,
            (None, true) => 0,
        }
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
    fn every_variant_is_made_again_from_its_spec() {
        for v in [
            Variant::freestyle(19).unwrap(),
            Variant::standard(7).unwrap(),
            Variant::renju(ForbiddenPolicy::Lose),
            Variant::tictactoe(),
            Variant::custom(7, 4, 4, true).unwrap(),
        ] {
            assert_eq!(Variant::from_spec(v.rule_set(), &v.spec()), Ok(v));
            let forbidden = v.forbidden_policy();
            let stored = Variant::from_stored(
                v.rule_set(),
                v.width(),
                v.height(),
                v.k(),
                v.overline_wins_for_both(),
                forbidden,
            );
            assert_eq!(stored, Ok(v));
        }
    }

    #[test]
    fn gomocup_rules_round_trip() {
        for v in [
            Variant::freestyle(15).unwrap(),
            Variant::standard(20).unwrap(),
            Variant::renju(ForbiddenPolicy::Lose),
        ] {
            assert_eq!(
                Variant::from_gomocup(v.gomocup_rule(), v.width(), v.height()),
                Ok(v)
            );
        }
        assert!(Variant::from_gomocup(8, 15, 15).is_err());
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
