//! A game as the service sees it: rules, seats, the position with its move
//! record, status and result; built from stored rows and turned back into them.

use chrono::{DateTime, Utc};

use super::error::{Result, ServiceError};
use crate::engine::Level;
use crate::rules::{Color, ForbiddenPolicy, Outcome, Point, Position, RuleSet, Variant, WinReason};
use crate::store::{GameRow, PlayerRow};

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Anyone may join.
    Open,
    Human {
        id: String,
        name: String,
    },
    Computer {
        id: String,
        name: String,
        level: Level,
    },
}

impl Seat {
    pub fn player_id(&self) -> Option<&str> {
        match self {
            Seat::Open => None,
            Seat::Human { id, .. } | Seat::Computer { id, .. } => Some(id),
        }
    }

    pub fn level(&self) -> Option<Level> {
        match self {
            Seat::Computer { level, .. } => Some(*level),
            _ => None,
        }
    }

    pub fn is_computer(&self) -> bool {
        matches!(self, Seat::Computer { .. })
    }

    pub(super) fn from_player(row: PlayerRow) -> Result<Seat> {
        match row.level {
            Some(level) if row.kind == "computer" => Ok(Seat::Computer {
                id: row.id,
                name: row.name,
                level: level.parse().map_err(|_| {
                    ServiceError::Internal(format!("unknown stored level {level:?}"))
                })?,
            }),
            _ => Ok(Seat::Human {
                id: row.id,
                name: row.name,
            }),
        }
    }
}

/// How the seats are filled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One person holds both seats on one device (unscored).
    Local,
    /// A person against a computer level.
    Ai,
    /// Two people, each on their own device (or an open seat).
    Online,
    /// Two computer levels.
    AiVsAi,
}

impl Mode {
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Local => "local",
            Mode::Ai => "ai",
            Mode::Online => "online",
            Mode::AiVsAi => "ai_vs_ai",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Waiting,
    InProgress,
    Finished,
}

impl Status {
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Waiting => "waiting",
            Status::InProgress => "in_progress",
            Status::Finished => "finished",
        }
    }

    pub fn parse(s: &str) -> Option<Status> {
        [Status::Waiting, Status::InProgress, Status::Finished]
            .into_iter()
            .find(|status| status.as_str() == s)
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reason {
    Five,
    Forbidden,
    Resign,
    BoardFull,
}

impl Reason {
    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Forbidden => "forbidden",
            Reason::Resign => "resign",
            Reason::BoardFull => "board_full",
        }
    }

    fn parse(s: &str) -> Option<Reason> {
        [
            Reason::Five,
            Reason::Forbidden,
            Reason::Resign,
            Reason::BoardFull,
        ]
        .into_iter()
        .find(|r| r.as_str() == s)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    pub winner: Option<Color>,
    pub reason: Reason,
    pub winning_line: Vec<Point>,
}

impl GameResult {
    pub(super) fn from_outcome(outcome: &Outcome) -> GameResult {
        match outcome {
            Outcome::Draw => GameResult {
                winner: None,
                reason: Reason::BoardFull,
                winning_line: Vec::new(),
            },
            Outcome::Win {
                winner,
                reason,
                line,
            } => GameResult {
                winner: Some(*winner),
                reason: match reason {
                    WinReason::Row => Reason::Five,
                    WinReason::Forbidden(_) => Reason::Forbidden,
                },
                winning_line: line.clone(),
            },
        }
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// 1-based.
    pub ply: usize,
    pub color: Color,
    pub point: Point,
    pub played_at: DateTime<Utc>,
    pub thinking_ms: i64,
}

/// A game, loaded whole.
#[derive(Clone, Debug)]
pub struct Game {
    pub id: String,
    pub variant: Variant,
    pub black: Seat,
    pub white: Seat,
    pub created_by: String,
    pub status: Status,
    pub result: Option<GameResult>,
    /// The position, with the moves that can be redone.
    pub position: Position,
    /// Every stored move: those on the board, then those that can be redone.
    pub stored: Vec<Point>,
    /// Moves played by the action under way, to add to the move record.
    pub(super) new_records: Vec<MoveRecord>,
    /// Whether the result is counted in the players' scores.
    pub scored: bool,
    pub version: i64,
    pub seed: u64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub turn_started_at: DateTime<Utc>,
}

impl Game {
    pub fn seat(&self, color: Color) -> &Seat {
        match color {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }

    pub(super) fn seat_mut(&mut self, color: Color) -> &mut Seat {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }

    pub fn mode(&self) -> Mode {
        match (&self.black, &self.white) {
            (Seat::Computer { .. }, Seat::Computer { .. }) => Mode::AiVsAi,
            (Seat::Computer { .. }, _) | (_, Seat::Computer { .. }) => Mode::Ai,
            (Seat::Human { id: b, .. }, Seat::Human { id: w, .. }) if b == w => Mode::Local,
            _ => Mode::Online,
        }
    }

    /// The side to move, while the game is being played.
    pub fn to_move(&self) -> Option<Color> {
        (self.status == Status::InProgress).then(|| self.position.to_move())
    }

    /// The seats `player_id` holds.
    pub fn seats_of(&self, player_id: &str) -> Vec<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| self.seat(c).player_id() == Some(player_id))
            .collect()
    }

    /// Whether undo would do anything for a player of this game.
    pub fn can_undo(&self) -> bool {
        match self.mode() {
            Mode::Local => self.position.can_undo(),
            Mode::Ai => self.undo_count().is_some(),
            Mode::Online | Mode::AiVsAi => false,
        }
    }

    pub fn can_redo(&self) -> bool {
        matches!(self.mode(), Mode::Local | Mode::Ai) && self.position.can_redo()
    }

    /// Against the computer, how many moves one undo takes back: back to the
    /// person's last move, so the person is to move again.
    pub(super) fn undo_count(&self) -> Option<usize> {
        let human = [Color::Black, Color::White]
            .into_iter()
            .find(|&c| !self.seat(c).is_computer())?;
        let moves = self.position.moves().len();
        // The last move of the human's colour; everything from it on goes.
        (0..moves)
            .rev()
            .find(|&i| Color::of_ply(i) == human)
            .map(|i| moves - i)
    }

    /// Rebuilds a game from its row and the seated players' rows (`None`
    /// for an open seat).
    pub(super) fn from_rows(
        row: GameRow,
        black: Option<PlayerRow>,
        white: Option<PlayerRow>,
    ) -> Result<Game> {
        let corrupt = |what: String| ServiceError::Internal(format!("game {}: {what}", row.id));
        let variant = variant_of(&row).map_err(|e| corrupt(e.to_string()))?;
        let seat = |player: Option<PlayerRow>| player.map_or(Ok(Seat::Open), Seat::from_player);
        let mut position = Position::new(variant);
        let stored = decode_record(&row.record)
            .ok_or_else(|| corrupt(format!("record {:?}", row.record)))?;
        for (n, &point) in stored.iter().enumerate() {
            position
                .play(point)
                .map_err(|e| corrupt(format!("stored move {} at {point}: {e}", n + 1)))?;
        }
        for _ in row.ply as usize..stored.len() {
            position.undo();
        }
        let status = Status::parse(&row.status)
            .ok_or_else(|| corrupt(format!("status {:?}", row.status)))?;
        let result = match (&row.reason, status) {
            (Some(reason), Status::Finished) => Some(GameResult {
                winner: match row.winner.as_deref() {
                    Some("black") => Some(Color::Black),
                    Some("white") => Some(Color::White),
                    _ => None,
                },
                reason: Reason::parse(reason)
                    .ok_or_else(|| corrupt(format!("reason {reason:?}")))?,
                winning_line: row
                    .winning_line
                    .as_deref()
                    .map(serde_json::from_str::<Vec<[u8; 2]>>)
                    .transpose()
                    .map_err(|e| corrupt(format!("winning line: {e}")))?
                    .unwrap_or_default()
                    .into_iter()
                    .map(|[x, y]| Point::new(x, y))
                    .collect(),
            }),
            _ => None,
        };
        Ok(Game {
            id: row.id,
            variant,
            black: seat(black)?,
            white: seat(white)?,
            created_by: row.created_by,
            status,
            result,
            position,
            stored,
            new_records: Vec::new(),
            scored: row.scored,
            version: row.version,
            seed: row.seed as u64,
            created_at: row.created_at,
            updated_at: row.updated_at,
            turn_started_at: row.turn_started_at,
        })
    }

    /// The game row as it should now be stored.
    pub(super) fn to_row(&self) -> GameRow {
        let policy = self.variant.forbidden_policy().map(|p| match p {
            ForbiddenPolicy::Reject => "reject".to_string(),
            ForbiddenPolicy::Lose => "lose".to_string(),
        });
        GameRow {
            id: self.id.clone(),
            rules: self.variant.rule_set().as_str().to_string(),
            width: self.variant.width() as i64,
            height: self.variant.height() as i64,
            k: self.variant.k() as i64,
            overline_wins: self.variant.overline_wins_for_both(),
            forbidden_policy: policy,
            black_id: self.black.player_id().map(str::to_string),
            white_id: self.white.player_id().map(str::to_string),
            created_by: self.created_by.clone(),
            status: self.status.as_str().to_string(),
            ply: self.position.moves().len() as i64,
            record: encode_record(&self.stored),
            winner: self
                .result
                .as_ref()
                .and_then(|r| r.winner)
                .map(|c| c.as_str().to_string()),
            reason: self.result.as_ref().map(|r| r.reason.as_str().to_string()),
            winning_line: self
                .result
                .as_ref()
                .filter(|r| !r.winning_line.is_empty())
                .map(|r| {
                    serde_json::to_string(
                        &r.winning_line
                            .iter()
                            .map(|p| [p.x, p.y])
                            .collect::<Vec<_>>(),
                    )
                    .expect("points serialize")
                }),
            scored: self.scored,
            version: self.version,
            seed: self.seed as i64,
            created_at: self.created_at,
            updated_at: self.updated_at,
            turn_started_at: self.turn_started_at,
        }
    }
}

/// The variant a stored game is played under.
fn variant_of(row: &GameRow) -> Result<Variant, crate::rules::VariantError> {
    let size = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
    match row.rules.parse::<RuleSet>()? {
        RuleSet::Freestyle => Variant::freestyle(size(row.width)),
        RuleSet::Standard => Variant::standard(size(row.width)),
        RuleSet::Renju => Ok(Variant::renju(match row.forbidden_policy.as_deref() {
            Some("lose") => ForbiddenPolicy::Lose,
            _ => ForbiddenPolicy::Reject,
        })),
        RuleSet::TicTacToe => Ok(Variant::tictactoe()),
        RuleSet::Custom => Variant::custom(
            size(row.width),
            size(row.height),
            size(row.k),
            row.overline_wins,
        ),
    }
}

/// Points as two letters each, `'a' + x` then `'a' + y`.
fn encode_record(points: &[Point]) -> String {
    points
        .iter()
        .flat_map(|p| [(b'a' + p.x) as char, (b'a' + p.y) as char])
        .collect()
}

fn decode_record(text: &str) -> Option<Vec<Point>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks(2)
        .map(|pair| {
            let coordinate = |b: u8| b.checked_sub(b'a').filter(|&c| c < 26);
            Some(Point::new(coordinate(pair[0])?, coordinate(pair[1])?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_reject_garbage() {
        let points = vec![Point::new(0, 0), Point::new(25, 7), Point::new(7, 7)];
        let text = encode_record(&points);
        assert_eq!(text, "aazhhh");
        assert_eq!(decode_record(&text), Some(points));
        assert_eq!(decode_record("a"), None);
        assert_eq!(decode_record("a{"), None);
        assert_eq!(decode_record(""), Some(vec![]));
    }
}
