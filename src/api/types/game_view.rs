//! A game as the API shows it: the whole state, and the summary in listings.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{OpeningView, PointView};
use crate::rules::{Color, ForbiddenKind, Point};
use crate::service::{Game, OfferKind, Seat, SeatRating, Status};

/// Who sits in a seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// `human`, `computer` or `open`.
    pub kind: &'static str,
    pub player_id: Option<String>,
    pub name: Option<String>,
    /// The computer level, for computer seats.
    pub level: Option<String>,
    /// The player's rating in the game's rating category when they sat
    /// down (absent for an open seat).
    pub rating: Option<SeatRatingView>,
}

/// A rating beside a name.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"rating": 1662.3, "deviation": 290.3, "provisional": true}))]
pub struct SeatRatingView {
    pub rating: f64,
    pub deviation: f64,
    /// Not yet known well enough to rank: shown as `1662?`.
    pub provisional: bool,
}

impl SeatView {
    fn of(seat: &Seat, rating: Option<SeatRating>) -> Self {
        let (kind, player_id, name, level) = match seat {
            Seat::Open => ("open", None, None, None),
            Seat::Human { id, name } => ("human", Some(id.clone()), Some(name.clone()), None),
            Seat::Computer { id, name, level } => (
                "computer",
                Some(id.clone()),
                Some(name.clone()),
                Some(level.to_string()),
            ),
        };
        SeatView {
            kind,
            player_id,
            name,
            level,
            rating: rating.map(|r| SeatRatingView {
                rating: r.rating,
                deviation: r.deviation,
                provisional: r.provisional(),
            }),
        }
    }

    /// The name with its rating, as a text board shows it: `Ada (1523?)`.
    pub fn label(&self) -> String {
        let name = self.name.as_deref().unwrap_or("(open)");
        match &self.rating {
            Some(r) => format!(
                "{name} ({:.0}{})",
                r.rating,
                if r.provisional { "?" } else { "" }
            ),
            None => name.to_string(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Seats {
    pub black: SeatView,
    pub white: SeatView,
}

/// How a game ended.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResultView {
    /// `black`, `white`, or null for a draw.
    pub winner: Option<&'static str>,
    /// `five`, `forbidden`, `resign`, `board_full`, `timeout`, `abandoned`,
    /// `draw_agreed`, or for games never played `declined` (the invitation)
    /// and `cancelled`.
    pub reason: &'static str,
    /// The points of the winning row, in order (empty when none).
    pub winning_line: Vec<PointView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ForbiddenPoint {
    pub x: u8,
    pub y: u8,
    pub name: String,
    /// `double_three`, `double_four` or `overline`.
    pub kind: &'static str,
}

/// The whole state of a game.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "id": "g_2h7k9m3p5r8t1v4x6z0b2d5f7h9k1m3p", "rules": "freestyle", "width": 15, "height": 15, "k": 5,
    "overline_wins": true, "forbidden_policy": null,
    "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6q0z5w2e8r1t4y7u0", "name": "Ada", "level": null},
              "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
    "mode": "ai",
    "board": ["...............", "...............", "...............", "...............", "...............",
              "...............", ".......O.......", ".......X.......", "...............", "...............",
              "...............", "...............", "...............", "...............", "..............."],
    "ply": 2, "to_move": "black", "status": "in_progress", "result": null,
    "last_move": {"x": 7, "y": 6, "name": "h9"}, "forbidden": [], "can_undo": true, "can_redo": false,
    "invited": null, "offer": null,
    "declined": {"black": {"takeback": 0, "draw": 0, "rematch": 0}, "white": {"takeback": 0, "draw": 0, "rematch": 0}},
    "clock": null, "thinking_ms": {"black": 5012, "white": 3}, "claimable_at": null,
    "rematch_of": null, "rematch_id": null,
    "opening": {"rule": "free", "phase": "done", "to_act": "black", "actions": ["move"], "stones_left": null,
                "zone": null, "offer_count": null, "offered": [], "declared_count": null, "swapped": false,
                "name": null, "decisions": []},
    "version": 3,
    "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:05Z"
}))]
pub struct GameView {
    pub id: String,
    /// `freestyle`, `standard`, `renju`, `tictactoe` or `custom`.
    pub rules: &'static str,
    pub width: u8,
    pub height: u8,
    /// Stones in a row that win.
    pub k: u8,
    /// Whether more than k in a row wins (for white in renju: always).
    pub overline_wins: bool,
    /// Renju: `reject` or `lose`.
    pub forbidden_policy: Option<&'static str>,
    pub seats: Seats,
    /// `local`, `ai`, `online` or `ai_vs_ai`.
    pub mode: &'static str,
    /// Rows top first: `.` empty, `X` black, `O` white.
    pub board: Vec<String>,
    /// Moves on the board.
    pub ply: usize,
    /// `black` or `white` while the game is in progress.
    pub to_move: Option<&'static str>,
    /// `waiting`, `in_progress` or `finished`.
    pub status: &'static str,
    pub result: Option<ResultView>,
    pub last_move: Option<PointView>,
    /// Renju, black to move: the points black may not play.
    pub forbidden: Vec<ForbiddenPoint>,
    /// Online games: whether a takeback could be asked for now.
    pub can_undo: bool,
    pub can_redo: bool,
    /// The seat whose invited player has not yet accepted (`black` or
    /// `white`); the game starts when they accept.
    pub invited: Option<&'static str>,
    /// An offer waiting for the other player's answer.
    pub offer: Option<OfferView>,
    /// Offers each side has had declined; at 3 that side cannot make that
    /// offer again in this game.
    pub declined: PerSide<DeclinedView>,
    /// Timed games only.
    pub clock: Option<ClockView>,
    /// Each side's total thinking time (the turn under way not included).
    pub thinking_ms: PerSide<i64>,
    /// Online games without a clock: when the player waiting may claim the
    /// win if the side to move still has not moved.
    pub claimable_at: Option<DateTime<Utc>>,
    /// The game this one is a rematch of.
    pub rematch_of: Option<String>,
    /// This game's rematch, once agreed.
    pub rematch_id: Option<String>,
    /// The opening rule, its phase and who acts.
    pub opening: OpeningView,
    /// Whether the result changes the players' ratings (in `rating_category`).
    pub rated: bool,
    /// The category this game's rules are rated in: `freestyle-15`,
    /// `freestyle-19`, `standard`, `renju`, `tictactoe` or `custom`.
    pub rating_category: &'static str,
    /// Raised by every change; also the ETag.
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

/// A value for each side.
#[derive(Debug, Serialize, ToSchema)]
pub struct PerSide<T> {
    pub black: T,
    pub white: T,
}

/// An offer waiting for an answer.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"kind": "takeback", "by": "white", "made_at": "2026-11-22T10:02:00Z"}))]
pub struct OfferView {
    /// `takeback`, `draw` or `rematch`.
    pub kind: &'static str,
    /// `black` or `white`: who made it.
    pub by: &'static str,
    pub made_at: DateTime<Utc>,
}

/// How many offers of each kind a side has had declined.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeclinedView {
    pub takeback: u8,
    pub draw: u8,
    pub rematch: u8,
}

/// A timed game's clock.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"main_ms": 300000, "floor_ms": 60000, "black_ms": 287512, "white_ms": 300000,
    "running": "black", "deadline": "2026-11-22T10:04:47.512Z", "as_of": "2026-11-22T10:00:00Z"}))]
pub struct ClockView {
    pub main_ms: i64,
    pub floor_ms: i64,
    /// Black's time left at `as_of`.
    pub black_ms: i64,
    /// White's time left at `as_of`.
    pub white_ms: i64,
    /// The side whose clock is running, while the game is in progress.
    pub running: Option<&'static str>,
    /// When the running side runs out of time if it does not move.
    pub deadline: Option<DateTime<Utc>>,
    /// When this state was made: count down from here.
    pub as_of: DateTime<Utc>,
}

fn color_name(c: Color) -> &'static str {
    c.as_str()
}

impl From<&Game> for GameView {
    fn from(game: &Game) -> Self {
        GameView::build(game, true)
    }
}

impl GameView {
    /// The view of `game`; black's forbidden points only when asked for,
    /// since they take some work to find.
    fn build(game: &Game, with_forbidden: bool) -> Self {
        let height = game.variant.height();
        let forbidden = if with_forbidden && game.status == Status::InProgress {
            game.position.forbidden_points()
        } else {
            Vec::new()
        };
        GameView {
            id: game.id.clone(),
            rules: game.variant.rule_set().as_str(),
            width: game.variant.width(),
            height,
            k: game.variant.k(),
            overline_wins: game.variant.overline_wins(Color::White),
            forbidden_policy: game.variant.forbidden_policy().map(|p| match p {
                crate::rules::ForbiddenPolicy::Reject => "reject",
                crate::rules::ForbiddenPolicy::Lose => "lose",
            }),
            seats: Seats {
                black: SeatView::of(&game.black, game.seat_ratings[0]),
                white: SeatView::of(&game.white, game.seat_ratings[1]),
            },
            mode: game.mode().as_str(),
            board: game.position.board().rows(),
            ply: game.position.moves().len(),
            to_move: game.to_move().map(color_name),
            status: game.status.as_str(),
            result: game.result.as_ref().map(|r| ResultView {
                winner: r.winner.map(color_name),
                reason: r.reason.as_str(),
                winning_line: r
                    .winning_line
                    .iter()
                    .map(|&p| PointView::new(p, height))
                    .collect(),
            }),
            last_move: game.position.last_move().map(|p| PointView::new(p, height)),
            forbidden: forbidden
                .into_iter()
                .map(|(p, kind): (Point, ForbiddenKind)| ForbiddenPoint {
                    x: p.x,
                    y: p.y,
                    name: p.name(height).to_string(),
                    kind: kind.as_str(),
                })
                .collect(),
            can_undo: game.can_undo(),
            can_redo: game.can_redo(),
            invited: game.invited.map(color_name),
            offer: game.offer.as_ref().map(|o| OfferView {
                kind: o.kind.as_str(),
                by: color_name(o.by),
                made_at: o.at,
            }),
            declined: PerSide {
                black: declined(game, Color::Black),
                white: declined(game, Color::White),
            },
            clock: game.clock.map(|clock| {
                let now = Utc::now();
                ClockView {
                    main_ms: clock.main_ms,
                    floor_ms: clock.floor_ms,
                    black_ms: game.time_left_ms(Color::Black, now).unwrap_or(0),
                    white_ms: game.time_left_ms(Color::White, now).unwrap_or(0),
                    running: game.actor().map(color_name),
                    deadline: game.deadline(),
                    as_of: now,
                }
            }),
            thinking_ms: PerSide {
                black: game.thinking_ms[0],
                white: game.thinking_ms[1],
            },
            claimable_at: game.claimable_at(),
            rematch_of: game.rematch_of.clone(),
            rematch_id: game.rematch_id.clone(),
            opening: OpeningView::from(game),
            rated: game.rated,
            rating_category: crate::service::category(&game.variant),
            version: game.version,
            created_at: game.created_at,
            updated_at: game.updated_at,
        }
    }
}

fn declined(game: &Game, by: Color) -> DeclinedView {
    DeclinedView {
        takeback: game.declines.get(by, OfferKind::Takeback),
        draw: game.declines.get(by, OfferKind::Draw),
        rematch: game.declines.get(by, OfferKind::Rematch),
    }
}

/// A game in a listing: the state without the board.
#[derive(Debug, Serialize, ToSchema)]
pub struct GameSummary {
    pub id: String,
    pub rules: &'static str,
    pub width: u8,
    pub height: u8,
    pub seats: Seats,
    pub mode: &'static str,
    pub ply: usize,
    pub to_move: Option<&'static str>,
    pub status: &'static str,
    pub result: Option<ResultView>,
    /// The seat whose invited player has not yet answered.
    pub invited: Option<&'static str>,
    pub version: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
}

impl From<&Game> for GameSummary {
    fn from(game: &Game) -> Self {
        let GameView {
            id,
            rules,
            width,
            height,
            seats,
            mode,
            ply,
            to_move,
            status,
            result,
            invited,
            version,
            created_at,
            updated_at,
            ..
        } = GameView::build(game, false);
        GameSummary {
            id,
            rules,
            width,
            height,
            seats,
            mode,
            ply,
            to_move,
            status,
            result,
            invited,
            version,
            created_at,
            updated_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"games": [{"id": "g_2h7k9m3p5r8t1v4x", "rules": "freestyle", "width": 15, "height": 15,
    "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6", "name": "Ada", "level": null},
              "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
    "mode": "ai", "ply": 12, "to_move": "black", "status": "in_progress", "result": null, "invited": null, "version": 13,
    "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:04:10Z"}], "next_cursor": null}))]
pub struct GameList {
    pub games: Vec<GameSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}
