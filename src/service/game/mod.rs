//! A game as the service sees it: rules, seats, the position with its move
//! record, status and result; built from stored rows and turned back into them.

use chrono::{DateTime, Utc};

use super::error::{Result, ServiceError};
use crate::engine::Level;
use crate::rules::{
    Color, Opening, OpeningRule, Outcome, Point, Position, Turn, Variant, WinReason,
};
use crate::store::PlayerRow;

mod rows;

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
    /// The side to move ran out of time.
    Timeout,
    /// The side to move walked away and the opponent claimed the win.
    Abandoned,
    DrawAgreed,
    /// The invited player declined; nothing was played.
    Declined,
    /// The creator called off a game still waiting for a player.
    Cancelled,
}

impl Reason {
    const ALL: [Reason; 9] = [
        Reason::Five,
        Reason::Forbidden,
        Reason::Resign,
        Reason::BoardFull,
        Reason::Timeout,
        Reason::Abandoned,
        Reason::DrawAgreed,
        Reason::Declined,
        Reason::Cancelled,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Reason::Five => "five",
            Reason::Forbidden => "forbidden",
            Reason::Resign => "resign",
            Reason::BoardFull => "board_full",
            Reason::Timeout => "timeout",
            Reason::Abandoned => "abandoned",
            Reason::DrawAgreed => "draw_agreed",
            Reason::Declined => "declined",
            Reason::Cancelled => "cancelled",
        }
    }

    fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Whether a game ended this way was played at all.
    pub const fn was_played(self) -> bool {
        !matches!(self, Reason::Declined | Reason::Cancelled)
    }
}

/// What one player of an online game may ask the other for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OfferKind {
    /// Take moves back to the asker's last turn.
    Takeback,
    /// End the game drawn.
    Draw,
    /// A new game, same players, colours swapped (after the end).
    Rematch,
}

impl OfferKind {
    pub const ALL: [OfferKind; 3] = [OfferKind::Takeback, OfferKind::Draw, OfferKind::Rematch];

    pub const fn as_str(self) -> &'static str {
        match self {
            OfferKind::Takeback => "takeback",
            OfferKind::Draw => "draw",
            OfferKind::Rematch => "rematch",
        }
    }

    fn parse(s: &str) -> Option<OfferKind> {
        OfferKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    const fn index(self) -> usize {
        match self {
            OfferKind::Takeback => 0,
            OfferKind::Draw => 1,
            OfferKind::Rematch => 2,
        }
    }
}

/// An offer waiting for the other player's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: Color,
    pub at: DateTime<Utc>,
}

/// How many offers of each kind each side has had declined; at
/// [`Declines::LIMIT`] that side may not make that offer again in the game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Declines([[u8; 3]; 2]);

impl Declines {
    pub const LIMIT: u8 = 3;

    pub fn get(&self, by: Color, kind: OfferKind) -> u8 {
        self.0[side(by)][kind.index()]
    }

    pub(super) fn swap_sides(&mut self) {
        self.0.swap(0, 1);
    }

    pub(super) fn add(&mut self, by: Color, kind: OfferKind) {
        let count = &mut self.0[side(by)][kind.index()];
        *count = count.saturating_add(1);
    }

    /// Six digits: black's takebacks, draws, rematches, then white's.
    fn encode(&self) -> String {
        self.0
            .iter()
            .flatten()
            .map(|&n| char::from(b'0' + n.min(9)))
            .collect()
    }

    fn decode(text: &str) -> Option<Declines> {
        let digits: Vec<u8> = text
            .bytes()
            .map(|b| b.checked_sub(b'0').filter(|&d| d <= 9))
            .collect::<Option<_>>()?;
        let [b0, b1, b2, w0, w1, w2] = digits[..] else {
            return None;
        };
        Some(Declines([[b0, b1, b2], [w0, w1, w2]]))
    }
}

/// A timed game's clock. Each side has a main time; when a side has less
/// than the floor left after its move, it is given the floor again; at zero
/// it loses on time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub main_ms: i64,
    pub floor_ms: i64,
    /// Each side's time left (black, white) when its current or next turn
    /// began.
    pub remaining_ms: [i64; 2],
}

impl Clock {
    pub fn new(main_ms: i64, floor_ms: i64) -> Clock {
        Clock {
            main_ms,
            floor_ms,
            remaining_ms: [main_ms; 2],
        }
    }
}

/// Index of a side in per-side arrays.
pub(super) const fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
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
    /// When the side to move got the turn.
    pub turn_started_at: DateTime<Utc>,
    /// A seat whose named player has not yet accepted the invitation.
    pub invited: Option<Color>,
    /// The offer waiting for an answer.
    pub offer: Option<Offer>,
    pub declines: Declines,
    /// Timed games only.
    pub clock: Option<Clock>,
    /// Each side's total thinking time (black, white), turns under way not
    /// included.
    pub thinking_ms: [i64; 2],
    /// Online games without a clock: how long the side to move may be idle
    /// before the opponent can claim the win.
    pub idle_limit_ms: Option<i64>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// The rematch of this game, once agreed.
    pub rematch_id: Option<String>,
    /// A game the action under way creates (a rematch), written with it.
    pub(super) spawned: Option<Box<Game>>,
    /// The opening rule and the opening decisions made.
    pub opening: Opening,
    /// Whether the result changes the players' ratings.
    pub rated: bool,
    /// Each seated player's rating in the game's category when they sat
    /// down (black, white); see `ratings::note_seat_ratings`.
    pub seat_ratings: [Option<SeatRating>; 2],
}

/// A player's rating as shown beside their name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatRating {
    pub rating: f64,
    pub deviation: f64,
}

impl SeatRating {
    /// Not yet known well enough to rank (shown with a `?`).
    pub fn provisional(&self) -> bool {
        self.deviation > super::ratings::PROVISIONAL_DEVIATION
    }
}

/// The seats and settings of a game about to be created.
pub(super) struct NewGame {
    pub variant: Variant,
    pub black: Seat,
    pub white: Seat,
    pub created_by: String,
    pub invited: Option<Color>,
    pub clock: Option<Clock>,
    pub idle_limit_ms: Option<i64>,
    pub rematch_of: Option<String>,
    pub opening: OpeningRule,
    pub rated: bool,
}

impl Game {
    /// A game with no moves yet, started unless a seat is open or an
    /// invitation is unanswered.
    pub(super) fn create(id: String, new: NewGame, now: DateTime<Utc>) -> Game {
        let waiting = new.black == Seat::Open || new.white == Seat::Open || new.invited.is_some();
        Game {
            id,
            variant: new.variant,
            black: new.black,
            white: new.white,
            created_by: new.created_by,
            status: if waiting {
                Status::Waiting
            } else {
                Status::InProgress
            },
            result: None,
            position: Position::new(new.variant),
            stored: Vec::new(),
            new_records: Vec::new(),
            scored: false,
            version: 1,
            seed: rand::random::<u64>() >> 1,
            created_at: now,
            updated_at: now,
            turn_started_at: now,
            invited: new.invited,
            offer: None,
            declines: Declines::default(),
            clock: new.clock,
            thinking_ms: [0; 2],
            idle_limit_ms: new.idle_limit_ms,
            rematch_of: new.rematch_of,
            rematch_id: None,
            spawned: None,
            opening: Opening::new(new.opening),
            rated: new.rated,
            seat_ratings: [None; 2],
        }
    }

    /// Both seats are taken: the game begins, black's turn from `now`.
    pub(super) fn start(&mut self, now: DateTime<Utc>) {
        self.status = Status::InProgress;
        self.invited = None;
        self.turn_started_at = now;
    }

    /// A side's time left at `now`: the running clock counts down from when
    /// the turn began.
    pub fn time_left_ms(&self, color: Color, now: DateTime<Utc>) -> Option<i64> {
        let clock = self.clock?;
        let stored = clock.remaining_ms[side(color)];
        Some(if self.actor() == Some(color) {
            (stored - (now - self.turn_started_at).num_milliseconds()).max(0)
        } else {
            stored
        })
    }

    /// When the side to move runs out of time, in a timed game in progress.
    pub fn deadline(&self) -> Option<DateTime<Utc>> {
        let clock = self.clock?;
        let to_move = self.actor()?;
        Some(
            self.turn_started_at
                + chrono::Duration::milliseconds(clock.remaining_ms[side(to_move)]),
        )
    }

    /// Whether the side to move has run out of time by `now`.
    pub fn out_of_time(&self, now: DateTime<Utc>) -> bool {
        self.deadline().is_some_and(|deadline| deadline <= now)
    }

    /// When the player waiting may claim the win because the side to move
    /// has been idle too long: online games in progress without a clock.
    pub fn claimable_at(&self) -> Option<DateTime<Utc>> {
        let limit = self.idle_limit_ms?;
        (self.mode() == Mode::Online && self.clock.is_none() && self.status == Status::InProgress)
            .then(|| self.turn_started_at + chrono::Duration::milliseconds(limit))
    }

    /// Ends the turn under way at `now`: its time goes to the side to move's
    /// total (and off its clock), and the next turn starts now. Returns the
    /// time the turn took.
    pub(super) fn end_turn(&mut self, now: DateTime<Utc>) -> i64 {
        let elapsed = (now - self.turn_started_at).num_milliseconds().max(0);
        if let Some(to_move) = self.actor() {
            self.thinking_ms[side(to_move)] += elapsed;
            if let Some(clock) = &mut self.clock {
                let left = &mut clock.remaining_ms[side(to_move)];
                *left = (*left - elapsed).max(0);
            }
        }
        self.turn_started_at = now;
        elapsed
    }

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

    /// What the opening waits for, and from which seat.
    pub fn turn(&self) -> Turn {
        self.opening.turn(&self.position)
    }

    /// The seat whose player acts now, while the game is being played: the
    /// side to move, except in the opening, where one player may place
    /// stones of both colours or decide for the colours.
    pub fn actor(&self) -> Option<Color> {
        (self.status == Status::InProgress).then(|| self.turn().actor)
    }

    /// The players exchange seats (an opening's swap): with them go their
    /// clocks, thinking times and declined offers.
    pub(super) fn swap_seats(&mut self) {
        std::mem::swap(&mut self.black, &mut self.white);
        if let Some(clock) = &mut self.clock {
            clock.remaining_ms.swap(0, 1);
        }
        self.thinking_ms.swap(0, 1);
        self.declines.swap_sides();
    }

    /// The seats `player_id` holds.
    pub fn seats_of(&self, player_id: &str) -> Vec<Color> {
        [Color::Black, Color::White]
            .into_iter()
            .filter(|&c| self.seat(c).player_id() == Some(player_id))
            .collect()
    }

    /// Whether undo would do anything for a player of this game (online:
    /// whether a takeback could be asked for).
    pub fn can_undo(&self) -> bool {
        match self.mode() {
            Mode::Local => {
                self.position.can_undo() || self.opening.decided_at(self.position.moves().len())
            }
            Mode::Ai => self.undo_count().is_some(),
            Mode::Online => {
                self.status == Status::InProgress
                    && self.offer.is_none()
                    && [Color::Black, Color::White].into_iter().any(|c| {
                        self.moves_back_to_turn_of(c).is_some()
                            && self.declines.get(c, OfferKind::Takeback) < Declines::LIMIT
                    })
            }
            Mode::AiVsAi => false,
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
        self.moves_back_to_turn_of(human)
    }

    /// How many moves to take back so that `color` is to move again before
    /// its last move: that move and everything after it.
    /// Never into the opening: its stones and decisions stand once made
    /// (only a local game takes them back).
    pub(super) fn moves_back_to_turn_of(&self, color: Color) -> Option<usize> {
        let moves = self.position.moves().len();
        let floor = self.opening.end_ply();
        if self.turn().phase != crate::rules::Phase::Done {
            return None;
        }
        (floor..moves)
            .rev()
            .find(|&i| Color::of_ply(i) == color)
            .map(|i| moves - i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timed_game(now: DateTime<Utc>) -> Game {
        let human = |id: &str| Seat::Human {
            id: id.into(),
            name: id.into(),
        };
        Game::create(
            "g_test".into(),
            NewGame {
                variant: Variant::freestyle(15).unwrap(),
                black: human("a"),
                white: human("b"),
                created_by: "a".into(),
                invited: None,
                clock: Some(Clock::new(10_000, 3_000)),
                idle_limit_ms: Some(60_000),
                rematch_of: None,
                opening: OpeningRule::Free,
                rated: false,
            },
            now,
        )
    }

    #[test]
    fn the_clock_runs_for_the_side_to_move_only_and_its_turn_is_charged() {
        let start = Utc::now();
        let ms = chrono::Duration::milliseconds;
        let mut game = timed_game(start);
        assert_eq!(game.status, Status::InProgress);
        assert_eq!(
            game.time_left_ms(Color::Black, start + ms(4_000)),
            Some(6_000)
        );
        assert_eq!(
            game.time_left_ms(Color::White, start + ms(4_000)),
            Some(10_000)
        );
        assert_eq!(game.deadline(), Some(start + ms(10_000)));
        assert!(!game.out_of_time(start + ms(9_999)));
        assert!(game.out_of_time(start + ms(10_000)));
        assert_eq!(
            game.claimable_at(),
            None,
            "a timed game ends on time instead"
        );

        assert_eq!(game.end_turn(start + ms(4_000)), 4_000);
        assert_eq!(game.clock.unwrap().remaining_ms, [6_000, 10_000]);
        assert_eq!(game.thinking_ms, [4_000, 0]);
        assert_eq!(game.turn_started_at, start + ms(4_000));

        let mut untimed = timed_game(start);
        untimed.clock = None;
        assert_eq!(untimed.deadline(), None);
        assert_eq!(untimed.claimable_at(), Some(start + ms(60_000)));
    }

    #[test]
    fn declines_round_trip_and_reject_garbage() {
        let mut declines = Declines::default();
        declines.add(Color::White, OfferKind::Draw);
        declines.add(Color::White, OfferKind::Draw);
        declines.add(Color::Black, OfferKind::Rematch);
        assert_eq!(declines.encode(), "001020");
        assert_eq!(Declines::decode("001020"), Some(declines));
        assert_eq!(declines.get(Color::White, OfferKind::Draw), 2);
        assert_eq!(Declines::decode("00102"), None);
        assert_eq!(Declines::decode("00102x"), None);
    }
}
