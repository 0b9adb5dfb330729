//! Opening rules: how the first stones of a game are placed and who plays
//! which colour. Under `free` black simply begins; the tournament rules let
//! one player place the first stones and the other choose a colour
//! (`swap1`, `swap2`), and in renju's `rif` and `yamaguchi` rules black
//! also offers fifth moves for white to choose from.
//!
//! The stones stay in the [`Position`]; what is not a stone — a swap, a
//! declared count, the offered fifth moves, the choice to place two more —
//! is an [`OpeningLog`] entry with the number of stones on the board when
//! it was made. [`Opening::turn`] derives the phase and who acts from the
//! two, so taking a stone or a decision back needs no other bookkeeping.
//! Who acts is a colour of the seats: a swap exchanges the seats' players,
//! so the tentative black of `rif` is whoever sits in black's seat before
//! the swap decision.

mod names;
mod symmetry;

use std::fmt;
use std::str::FromStr;

pub use names::{NamedOpening, OPENINGS, OpeningKind};
pub use symmetry::{Symmetry, equivalent};

use super::{Color, PlayError, Point, Position, RuleSet, Variant};

/// The opening rules a game can be played under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OpeningRule {
    /// No protocol: black begins (in renju at the centre).
    #[default]
    Free,
    /// Renju's RIF rule: tentative black places stones 1–3 in the centre,
    /// white may swap, white plays 4, black offers two fifth moves, white
    /// chooses one and plays 6.
    Rif,
    /// As RIF, but black declares with stone 3 how many fifth moves it will
    /// offer.
    Yamaguchi,
    /// The first player places three stones; the second plays white, takes
    /// black, or places two more and lets the first choose.
    Swap2,
    /// The first player places three stones; the second chooses a colour.
    Swap1,
}

impl OpeningRule {
    pub const ALL: [OpeningRule; 5] = [
        OpeningRule::Free,
        OpeningRule::Rif,
        OpeningRule::Yamaguchi,
        OpeningRule::Swap2,
        OpeningRule::Swap1,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            OpeningRule::Free => "free",
            OpeningRule::Rif => "rif",
            OpeningRule::Yamaguchi => "yamaguchi",
            OpeningRule::Swap2 => "swap2",
            OpeningRule::Swap1 => "swap1",
        }
    }

    /// Whether games under `variant` can open this way.
    ///
    /// ```
    /// use gobang::rules::{ForbiddenPolicy, OpeningRule, Variant};
    /// assert!(OpeningRule::Rif.check_fits(&Variant::renju(ForbiddenPolicy::Reject)).is_ok());
    /// assert!(OpeningRule::Swap2.check_fits(&Variant::tictactoe()).is_err());
    /// ```
    pub fn check_fits(self, variant: &Variant) -> Result<(), OpeningError> {
        let square_with_centre =
            variant.width() == variant.height() && variant.width() % 2 == 1 && variant.width() >= 7;
        let fits = match self {
            OpeningRule::Free => true,
            OpeningRule::Rif | OpeningRule::Yamaguchi => {
                square_with_centre && variant.rule_set() != RuleSet::TicTacToe
            }
            OpeningRule::Swap2 | OpeningRule::Swap1 => {
                variant.rule_set() != RuleSet::TicTacToe && variant.area() >= 25
            }
        };
        if fits {
            Ok(())
        } else {
            Err(OpeningError::NotForVariant {
                rule: self,
                variant: *variant,
            })
        }
    }
}

impl fmt::Display for OpeningRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OpeningRule {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        OpeningRule::ALL
            .into_iter()
            .find(|r| r.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| OpeningError::UnknownRule(s.to_string()))
    }
}

/// An opening action that is not a stone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The player asked keeps their colour (`false`) or takes the other.
    Swap(bool),
    /// Yamaguchi: how many fifth moves black will offer.
    Declare(u8),
    /// Black's fifth-move offers.
    Offer(Vec<Point>),
    /// Swap2: the second player will place two more stones (white, then
    /// black) and let the first choose a colour.
    PlaceTwo,
}

impl Decision {
    /// The action's name in the protocol: `swap`, `declare`, `offer`, `place`.
    pub const fn action(&self) -> &'static str {
        match self {
            Decision::Swap(_) => "swap",
            Decision::Declare(_) => "declare",
            Decision::Offer(_) => "offer",
            Decision::PlaceTwo => "place",
        }
    }
}

/// A decision and the number of stones on the board when it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub ply: usize,
    pub decision: Decision,
}

/// The decisions of a game's opening, in order. Written as `;`-separated
/// entries: the ply, then `s1`/`s0` (swap or not), `d` and a count, `o` and
/// the offered points as two letters each (`a` = 0), or `p` (place two).
///
/// ```
/// use gobang::rules::{Decision, OpeningLog, Point};
/// let log: OpeningLog = "3s1;4ohfjj".parse().unwrap();
/// assert_eq!(log.entries()[1].decision, Decision::Offer(vec![Point::new(7, 5), Point::new(9, 9)]));
/// assert_eq!(log.to_string(), "3s1;4ohfjj");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OpeningLog(Vec<Entry>);

impl OpeningLog {
    pub fn entries(&self) -> &[Entry] {
        &self.0
    }

    fn at(&self, ply: usize) -> impl Iterator<Item = &Decision> {
        self.0
            .iter()
            .filter(move |e| e.ply == ply)
            .map(|e| &e.decision)
    }

    fn swap_at(&self, ply: usize) -> Option<bool> {
        self.at(ply).find_map(|d| match d {
            Decision::Swap(swapped) => Some(*swapped),
            _ => None,
        })
    }

    fn placed_two(&self) -> bool {
        self.at(3).any(|d| *d == Decision::PlaceTwo)
    }
}

impl fmt::Display for OpeningLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, entry) in self.0.iter().enumerate() {
            if n > 0 {
                f.write_str(";")?;
            }
            write!(f, "{}", entry.ply)?;
            match &entry.decision {
                Decision::Swap(swapped) => write!(f, "s{}", u8::from(*swapped))?,
                Decision::Declare(count) => write!(f, "d{count}")?,
                Decision::Offer(points) => {
                    f.write_str("o")?;
                    for p in points {
                        write!(f, "{}{}", (b'a' + p.x) as char, (b'a' + p.y) as char)?;
                    }
                }
                Decision::PlaceTwo => f.write_str("p")?,
            }
        }
        Ok(())
    }
}

impl FromStr for OpeningLog {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let bad = || OpeningError::Log(s.to_string());
        let mut entries = Vec::new();
        for part in s.split(';').filter(|p| !p.is_empty()) {
            let digits = part.bytes().take_while(u8::is_ascii_digit).count();
            let ply: usize = part[..digits].parse().map_err(|_| bad())?;
            let rest = &part[digits..];
            let decision = match rest.as_bytes().first() {
                Some(b's') => match &rest[1..] {
                    "0" => Decision::Swap(false),
                    "1" => Decision::Swap(true),
                    _ => return Err(bad()),
                },
                Some(b'd') => Decision::Declare(rest[1..].parse().map_err(|_| bad())?),
                Some(b'o') => {
                    let bytes = &rest.as_bytes()[1..];
                    if !bytes.len().is_multiple_of(2) {
                        return Err(bad());
                    }
                    Decision::Offer(
                        bytes
                            .chunks(2)
                            .map(|c| {
                                let coordinate = |b: u8| b.checked_sub(b'a').filter(|&v| v < 26);
                                Some(Point::new(coordinate(c[0])?, coordinate(c[1])?))
                            })
                            .collect::<Option<_>>()
                            .ok_or_else(bad)?,
                    )
                }
                Some(b'p') if rest.len() == 1 => Decision::PlaceTwo,
                _ => return Err(bad()),
            };
            entries.push(Entry { ply, decision });
        }
        Ok(OpeningLog(entries))
    }
}

/// What the opening waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Opening stones placed by one player, whatever their colour: `left`
    /// more to place.
    Place { left: u8 },
    /// Yamaguchi: black declares how many fifth moves it will offer.
    Declare,
    /// A player keeps their colour or swaps.
    Swap,
    /// Swap2's second player: play white, take black, or place two more.
    SwapOrPlace,
    /// Black offers `count` fifth moves.
    Offer { count: u8 },
    /// White chooses one of the offered fifth moves (which is played).
    Choose,
    /// An ordinary move of the side to move, still inside the opening.
    Move,
    /// The opening is over: ordinary play.
    Done,
}

impl Phase {
    pub const fn as_str(self) -> &'static str {
        match self {
            Phase::Place { .. } => "place",
            Phase::Declare => "declare",
            Phase::Swap => "swap",
            Phase::SwapOrPlace => "swap_or_place",
            Phase::Offer { .. } => "offer",
            Phase::Choose => "choose",
            Phase::Move => "move",
            Phase::Done => "done",
        }
    }

    /// Whether the phase is answered with a stone on the board.
    pub const fn takes_a_stone(self) -> bool {
        matches!(
            self,
            Phase::Place { .. } | Phase::Choose | Phase::Move | Phase::Done
        )
    }

    /// The actions allowed in this phase, by their protocol names.
    pub const fn actions(self) -> &'static [&'static str] {
        match self {
            Phase::Place { .. } => &["move", "place"],
            Phase::Declare => &["declare"],
            Phase::Swap => &["swap"],
            Phase::SwapOrPlace => &["swap", "place"],
            Phase::Offer { .. } => &["offer"],
            Phase::Choose => &["choose"],
            Phase::Move | Phase::Done => &["move"],
        }
    }

    /// What the player acting should send, for messages.
    fn hint(self) -> String {
        match self {
            Phase::Place { left } => format!(
                "place the next opening stone ({left} to go) as a move, or all of them with {{\"place\": [...]}}"
            ),
            Phase::Declare => "declare how many fifth moves black will offer: {\"declare\": N}".into(),
            Phase::Swap => "decide on the colours: {\"swap\": true} or {\"swap\": false}".into(),
            Phase::SwapOrPlace => "play white ({\"swap\": false}), take black ({\"swap\": true}), or place two more stones ({\"place\": [white, black]})".into(),
            Phase::Offer { count } => format!("offer {count} fifth move(s): {{\"offer\": [...]}}"),
            Phase::Choose => "choose one of the offered fifth moves: {\"choose\": point}".into(),
            Phase::Move | Phase::Done => "play a move".into(),
        }
    }
}

/// The phase of the opening and which seat acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    pub phase: Phase,
    /// The seat whose player acts (for stones, not always the stone's colour).
    pub actor: Color,
}

/// Largest count of fifth moves a Yamaguchi black may declare.
pub const MAX_DECLARED: u8 = 10;

/// A game's opening: its rule and the decisions made so far.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Opening {
    rule: OpeningRule,
    log: OpeningLog,
}

impl Opening {
    pub fn new(rule: OpeningRule) -> Opening {
        Opening {
            rule,
            log: OpeningLog::default(),
        }
    }

    pub fn with_log(rule: OpeningRule, log: OpeningLog) -> Opening {
        Opening { rule, log }
    }

    pub fn rule(&self) -> OpeningRule {
        self.rule
    }

    pub fn log(&self) -> &OpeningLog {
        &self.log
    }

    /// What the opening waits for in `position`, and from whom.
    ///
    /// ```
    /// use gobang::rules::{Color, ForbiddenPolicy, Opening, OpeningRule, Phase, Point, Position, Variant};
    /// let mut game = Position::new(Variant::renju(ForbiddenPolicy::Reject));
    /// let opening = Opening::new(OpeningRule::Rif);
    /// for p in [Point::new(7, 7), Point::new(7, 6), Point::new(8, 6)] {
    ///     assert_eq!(opening.turn(&game).actor, Color::Black);
    ///     game.play(p).unwrap();
    /// }
    /// let turn = opening.turn(&game);
    /// assert_eq!((turn.phase, turn.actor), (Phase::Swap, Color::White));
    /// ```
    pub fn turn(&self, position: &Position) -> Turn {
        let ply = position.moves().len();
        let to_move = position.to_move();
        let by = |phase, actor| Turn { phase, actor };
        let log = &self.log;
        match self.rule {
            _ if ply < 3 && self.rule != OpeningRule::Free => by(
                Phase::Place {
                    left: 3 - ply as u8,
                },
                Color::Black,
            ),
            OpeningRule::Free => by(Phase::Done, to_move),
            OpeningRule::Rif | OpeningRule::Yamaguchi => match ply {
                3 if self.rule == OpeningRule::Yamaguchi && self.declared().is_none() => {
                    by(Phase::Declare, Color::Black)
                }
                3 if log.swap_at(3).is_none() => by(Phase::Swap, Color::White),
                3 => by(Phase::Move, to_move),
                4 if self.offered().is_empty() => by(
                    Phase::Offer {
                        count: self.declared().unwrap_or(2),
                    },
                    Color::Black,
                ),
                4 => by(Phase::Choose, Color::White),
                _ => by(Phase::Done, to_move),
            },
            OpeningRule::Swap1 => match ply {
                3 if log.swap_at(3).is_none() => by(Phase::Swap, Color::White),
                _ => by(Phase::Done, to_move),
            },
            OpeningRule::Swap2 => match ply {
                3 if log.placed_two() => by(Phase::Place { left: 2 }, Color::White),
                3 if log.swap_at(3).is_none() => by(Phase::SwapOrPlace, Color::White),
                4 if log.placed_two() => by(Phase::Place { left: 1 }, Color::White),
                5 if log.placed_two() && log.swap_at(5).is_none() => by(Phase::Swap, Color::Black),
                _ => by(Phase::Done, to_move),
            },
        }
    }

    /// How many stones are on the board when this opening is over (as far
    /// as the decisions so far tell): moves before it are the opening's.
    pub fn end_ply(&self) -> usize {
        match self.rule {
            OpeningRule::Free => 0,
            OpeningRule::Rif | OpeningRule::Yamaguchi => 5,
            OpeningRule::Swap1 => 3,
            OpeningRule::Swap2 if self.log.placed_two() => 5,
            OpeningRule::Swap2 => 3,
        }
    }

    /// Yamaguchi: the count black declared.
    pub fn declared(&self) -> Option<u8> {
        self.log.at(3).find_map(|d| match d {
            Decision::Declare(n) => Some(*n),
            _ => None,
        })
    }

    /// The fifth moves black offered, if it has.
    pub fn offered(&self) -> &[Point] {
        self.log
            .at(4)
            .find_map(|d| match d {
                Decision::Offer(points) => Some(points.as_slice()),
                _ => None,
            })
            .unwrap_or(&[])
    }

    /// Whether the players have swapped colours an odd number of times.
    pub fn swapped(&self) -> bool {
        self.log
            .entries()
            .iter()
            .filter(|e| e.decision == Decision::Swap(true))
            .count()
            % 2
            == 1
    }

    /// The named opening the first three stones make, if any.
    pub fn name(&self, position: &Position) -> Option<&'static NamedOpening> {
        let variant = position.variant();
        if variant.width() != variant.height() {
            return None;
        }
        NamedOpening::of(position.moves(), variant.width())
    }

    /// How far from the centre (in both directions) the next stone may be,
    /// if the rules limit it: renju's first stone at the centre, RIF and
    /// Yamaguchi's second within one point and third within two.
    pub fn zone(&self, position: &Position) -> Option<u8> {
        let ply = position.moves().len();
        match self.rule {
            OpeningRule::Rif | OpeningRule::Yamaguchi if ply < 3 => Some(ply as u8),
            _ if ply == 0 && position.variant().rule_set() == RuleSet::Renju => Some(0),
            _ => None,
        }
    }

    /// Whether `p` lies in the zone the next stone must keep to.
    pub fn in_zone(&self, position: &Position, p: Point) -> bool {
        let variant = position.variant();
        self.zone(position).is_none_or(|radius| {
            let (cx, cy) = (variant.width() / 2, variant.height() / 2);
            p.x.abs_diff(cx) <= radius && p.y.abs_diff(cy) <= radius
        })
    }

    /// Whether the side to act may put a stone on `p` now (as a move, a
    /// placed opening stone, or the chosen fifth move).
    pub fn check_stone(&self, position: &Position, p: Point) -> Result<(), OpeningError> {
        let turn = self.turn(position);
        if !turn.phase.takes_a_stone() {
            return Err(OpeningError::DecisionRequired { phase: turn.phase });
        }
        position.check(p)?;
        let height = position.variant().height();
        if !self.in_zone(position, p) {
            return Err(OpeningError::OutsideZone {
                stone: position.moves().len() + 1,
                point: p.name(height).to_string(),
                radius: self.zone(position).unwrap_or(0),
            });
        }
        if turn.phase == Phase::Choose && !self.offered().contains(&p) {
            return Err(OpeningError::NotOffered {
                point: p.name(height).to_string(),
                offered: self.offered_names(height),
            });
        }
        Ok(())
    }

    fn offered_names(&self, height: u8) -> Vec<String> {
        self.offered()
            .iter()
            .map(|p| p.name(height).to_string())
            .collect()
    }

    /// Whether the side to act may make `decision` now.
    pub fn check_decision(
        &self,
        position: &Position,
        decision: &Decision,
    ) -> Result<(), OpeningError> {
        let phase = self.turn(position).phase;
        let height = position.variant().height();
        let name = |p: Point| p.name(height).to_string();
        match (decision, phase) {
            (Decision::Swap(_), Phase::Swap | Phase::SwapOrPlace) => Ok(()),
            (Decision::Declare(n), Phase::Declare) => {
                if (1..=MAX_DECLARED).contains(n) {
                    Ok(())
                } else {
                    Err(OpeningError::DeclaredCount { count: *n })
                }
            }
            (Decision::Offer(points), Phase::Offer { count }) => {
                if points.len() != count as usize {
                    return Err(OpeningError::OfferCount {
                        expected: count,
                        got: points.len(),
                    });
                }
                for (i, &p) in points.iter().enumerate() {
                    position.check(p)?;
                    if let Some(kind) = position.board().forbidden_kind(p)
                        && position.variant().forbidden_policy().is_some()
                    {
                        return Err(PlayError::Forbidden { point: p, kind }.into());
                    }
                    for &q in &points[..i] {
                        if q == p {
                            return Err(OpeningError::SameOffer { point: name(p) });
                        }
                        if equivalent(position.board(), q, p) {
                            return Err(OpeningError::SymmetricOffers {
                                first: name(q),
                                second: name(p),
                            });
                        }
                    }
                }
                Ok(())
            }
            (Decision::PlaceTwo, Phase::SwapOrPlace) => Ok(()),
            _ => Err(OpeningError::NotNow {
                action: decision.action(),
                phase,
            }),
        }
    }

    /// Records `decision`, made with `ply` stones on the board (checked
    /// first with [`check_decision`](Self::check_decision)).
    pub fn record(&mut self, ply: usize, decision: Decision) {
        self.log.0.push(Entry { ply, decision });
    }

    /// Whether the last decision was made with `ply` stones on the board
    /// (after the last stone), so that it is what an undo takes back.
    pub fn decided_at(&self, ply: usize) -> bool {
        self.log.0.last().is_some_and(|e| e.ply == ply)
    }

    /// Takes back the last decision if it was made with `ply` stones on the
    /// board (after the last stone).
    pub fn take_back(&mut self, ply: usize) -> Option<Decision> {
        if self.log.0.last()?.ply == ply {
            self.log.0.pop().map(|e| e.decision)
        } else {
            None
        }
    }
}

/// An opening action that may not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    #[error("unknown opening rule {0:?}: use free, rif, yamaguchi, swap2 or swap1")]
    UnknownRule(String),
    #[error(
        "the {rule} opening is not for {rules} on a {width}×{height} board: rif and yamaguchi need a square board with a centre, 7×7 or larger; swap1 and swap2 a five-in-a-row game",
        rules = variant.rule_set(),
        width = variant.width(),
        height = variant.height()
    )]
    NotForVariant { rule: OpeningRule, variant: Variant },
    #[error("the opening waits for a decision, not a stone: {}", phase.hint())]
    DecisionRequired { phase: Phase },
    #[error("{action} is not what the opening waits for now: {}", phase.hint())]
    NotNow { action: &'static str, phase: Phase },
    #[error(
        "{point} is outside the opening zone: stone {stone} goes {}",
        zone_text(*radius)
    )]
    OutsideZone {
        stone: usize,
        point: String,
        radius: u8,
    },
    #[error("{point} was not offered: choose one of {}", offered.join(", "))]
    NotOffered { point: String, offered: Vec<String> },
    #[error("offer exactly {expected} fifth move(s), not {got}")]
    OfferCount { expected: u8, got: usize },
    #[error("{point} is offered twice: offer different points")]
    SameOffer { point: String },
    #[error(
        "{first} and {second} are the same move up to a symmetry of the position: offer fifth moves that are not symmetric to each other"
    )]
    SymmetricOffers { first: String, second: String },
    #[error("declare from 1 to {MAX_DECLARED} fifth moves, not {count}")]
    DeclaredCount { count: u8 },
    #[error(transparent)]
    Play(#[from] PlayError),
    #[error("stored opening log {0:?} cannot be read")]
    Log(String),
}

fn zone_text(radius: u8) -> String {
    match radius {
        0 => "on the centre of the board".to_string(),
        r => format!("within {r} point(s) of the centre in both directions"),
    }
}
