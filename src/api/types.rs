//! The JSON of the HTTP contract: request bodies, responses, and how the
//! service's values are shown.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::engine::Candidate;
use crate::rules::{Color, ForbiddenKind, Point};
use crate::service::{Game, MoveRecord, OfferKind, Seat, Status, Thought};
use crate::store::PlayerRow;

use super::opening::OpeningView;

/// A point in both spellings: `x`, `y` 0-based from the top-left, and the
/// renju `name` (column letter from the left, row number from the bottom).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"x": 7, "y": 7, "name": "h8"}))]
pub struct PointView {
    pub x: u8,
    pub y: u8,
    pub name: String,
}

impl PointView {
    pub fn new(p: Point, height: u8) -> Self {
        PointView {
            x: p.x,
            y: p.y,
            name: p.name(height).to_string(),
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ada"}))]
pub struct CreatePlayer {
    /// 1–40 characters.
    pub name: String,
}

/// A new player and their secret token, shown this once.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "p_8fk2m9x1c4v7b3n6q0z5w2e8r1t4y7u0", "name": "Ada", "token": "gbt_4f1c…"}))]
pub struct PlayerCreated {
    pub id: String,
    pub name: String,
    /// Send as `Authorization: Bearer <token>`. Stored only as a hash: keep it.
    pub token: String,
}

/// A player and their cumulative record.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "p_8fk2m9x1c4v7b3n6q0z5w2e8r1t4y7u0", "name": "Ada", "kind": "human", "level": null,
    "score": 2, "wins": 3, "losses": 1, "draws": 0, "abandoned": 0, "games": 4, "created_at": "2026-11-22T10:00:00Z"}))]
pub struct PlayerView {
    pub id: String,
    pub name: String,
    /// `human` or `computer`.
    pub kind: String,
    /// The computer level, for computer players.
    pub level: Option<String>,
    /// +1 a win, −1 a loss, 0 a draw, −3 an abandoned game.
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub abandoned: i64,
    pub games: i64,
    pub created_at: DateTime<Utc>,
}

impl From<PlayerRow> for PlayerView {
    fn from(p: PlayerRow) -> Self {
        PlayerView {
            id: p.id,
            name: p.name,
            kind: p.kind,
            level: p.level,
            score: p.score,
            wins: p.wins,
            losses: p.losses,
            draws: p.draws,
            abandoned: p.abandoned,
            games: p.games,
            created_at: p.created_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"players": [
    {"id": "ai-expert", "name": "Computer (expert)", "kind": "computer", "level": "expert", "score": 12,
     "wins": 13, "losses": 1, "draws": 0, "abandoned": 0, "games": 14, "created_at": "2026-11-22T09:00:00Z"},
    {"id": "p_8fk2m9x1c4v7b3n6", "name": "Ada", "kind": "human", "level": null, "score": 2,
     "wins": 3, "losses": 1, "draws": 0, "abandoned": 0, "games": 4, "created_at": "2026-11-22T10:00:00Z"}],
    "next_cursor": "323a702d3866"}))]
pub struct Leaderboard {
    /// Players who finished at least one game, best score first.
    pub players: Vec<PlayerView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct PageQuery {
    /// Page size, 1–100 (default 20).
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GameListQuery {
    /// Only games this player sits in.
    pub player: Option<String>,
    /// `waiting`, `in_progress` or `finished`.
    pub status: Option<String>,
    /// Page size, 1–100 (default 20).
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    pub cursor: Option<String>,
}

/// Who sits in a seat of a new game: `"me"`, `"open"`, `{"player_id": "…"}`
/// or `{"ai": "<level>"}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum SeatRequest {
    /// `"me"` (the caller) or `"open"` (anyone may join).
    #[schema(example = "me")]
    Named(String),
    /// Another player, by id: an invitation, and the game waits until
    /// they accept it (`POST /v1/games/{id}/accept`) or decline it.
    Player { player_id: String },
    /// A computer level: `beginner`, `intermediate`, `advanced` or `expert`.
    Computer { ai: String },
}

/// A new game. Everything is optional: the default is freestyle on 15×15,
/// you as black against the intermediate computer.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": "freestyle", "board_size": 15, "black": "me", "white": {"ai": "intermediate"}}))]
pub struct CreateGame {
    /// `freestyle` (default), `standard`, `renju`, `tictactoe` or `custom`.
    pub rules: Option<String>,
    /// Side of the square board for freestyle and standard, 5–26 (default 15).
    pub board_size: Option<u32>,
    /// Custom rules: board width, 3–26.
    pub width: Option<u32>,
    /// Custom rules: board height, 3–26.
    pub height: Option<u32>,
    /// Custom rules: stones in a row to win, 3 to the longer side.
    pub k: Option<u32>,
    /// Custom rules: whether more than k in a row wins (default false).
    pub overline_wins: Option<bool>,
    /// Renju: `reject` (default; a forbidden move is refused) or `lose`
    /// (tournament rule: black loses by playing it).
    pub forbidden: Option<String>,
    /// Default `"me"`.
    pub black: Option<SeatRequest>,
    /// Default `{"ai": "intermediate"}`.
    pub white: Option<SeatRequest>,
    /// A clock, for games between two people (default: none).
    pub clock: Option<ClockRequest>,
    /// The opening rule: `free` (default: black begins, in renju at the
    /// centre), `rif` or `yamaguchi` (renju's tournament rules: swap after
    /// stone 3, black offers fifth moves), `swap2` or `swap1` (the first
    /// player places three stones, the other chooses a colour). The seat
    /// `black` is the tentative black / first player.
    pub opening: Option<String>,
}

/// A game clock: each side has `main_ms`; after each of its moves a side
/// with less than `floor_ms` left gets `floor_ms` again; at zero it loses
/// on time.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"main_ms": 300000, "floor_ms": 60000}))]
pub struct ClockRequest {
    /// Each side's main time, 1 s to 24 h, in ms.
    pub main_ms: u64,
    /// Default 60 s (or the main time, if shorter); at most the main time.
    pub floor_ms: Option<u64>,
}

/// A move: `{"at": "h8"}` or `{"x": 7, "y": 7}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"at": "h8"}))]
pub struct MoveRequest {
    /// The point's renju name, e.g. `h8`.
    pub at: Option<String>,
    /// 0-based from the left.
    pub x: Option<i64>,
    /// 0-based from the top.
    pub y: Option<i64>,
}

/// Optional settings for `ai-move`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"level": "intermediate", "time_ms": 500}))]
pub struct AiMoveRequest {
    /// In a local game, the level that plays (default intermediate); in
    /// other games the computer seat's own level plays.
    pub level: Option<String>,
    /// Thinking time, capped by the server's limit.
    pub time_ms: Option<u64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GameQuery {
    /// Long poll: answer once the version is greater than this.
    pub wait_for_version: Option<i64>,
    /// Long poll: seconds to wait at most, 1–30 (default 30).
    pub timeout: Option<u64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct HintQuery {
    /// The level that looks (default intermediate).
    pub level: Option<String>,
    /// How many candidates, 1–10 (default 5).
    pub count: Option<usize>,
    /// Thinking time, capped by the server's limit.
    pub time_ms: Option<u64>,
}

/// Who sits in a seat.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeatView {
    /// `human`, `computer` or `open`.
    pub kind: &'static str,
    pub player_id: Option<String>,
    pub name: Option<String>,
    /// The computer level, for computer seats.
    pub level: Option<String>,
}

impl From<&Seat> for SeatView {
    fn from(seat: &Seat) -> Self {
        match seat {
            Seat::Open => SeatView {
                kind: "open",
                player_id: None,
                name: None,
                level: None,
            },
            Seat::Human { id, name } => SeatView {
                kind: "human",
                player_id: Some(id.clone()),
                name: Some(name.clone()),
                level: None,
            },
            Seat::Computer { id, name, level } => SeatView {
                kind: "computer",
                player_id: Some(id.clone()),
                name: Some(name.clone()),
                level: Some(level.to_string()),
            },
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
                black: (&game.black).into(),
                white: (&game.white).into(),
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

/// What the computer spent on a move.
#[derive(Debug, Serialize, ToSchema)]
pub struct ComputerInfo {
    pub level: String,
    pub time_ms: u64,
    /// Search depth reached, in plies.
    pub depth: u32,
    pub nodes: u64,
}

impl From<&Thought> for ComputerInfo {
    fn from(t: &Thought) -> Self {
        ComputerInfo {
            level: t.level.to_string(),
            time_ms: t.elapsed.as_millis() as u64,
            depth: t.decision.depth,
            nodes: t.decision.nodes,
        }
    }
}

/// One move of the record.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    /// 1-based.
    pub ply: usize,
    /// `black` or `white`.
    pub color: &'static str,
    pub point: PointView,
    pub played_at: DateTime<Utc>,
    /// Time from getting the turn to playing.
    pub thinking_ms: i64,
    /// For a move the computer just chose: how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerInfo>,
}

impl MoveView {
    pub fn new(record: &MoveRecord, height: u8, thought: Option<&Thought>) -> Self {
        MoveView {
            ply: record.ply,
            color: record.color.as_str(),
            point: PointView::new(record.point, height),
            played_at: record.played_at,
            thinking_ms: record.thinking_ms,
            computer: thought.map(ComputerInfo::from),
        }
    }
}

/// The moves a request played and the game after them.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"moves": [
    {"ply": 1, "color": "black", "point": {"x": 7, "y": 7, "name": "h8"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 5012},
    {"ply": 2, "color": "white", "point": {"x": 7, "y": 6, "name": "h9"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 3,
     "computer": {"level": "intermediate", "time_ms": 3, "depth": 1, "nodes": 41}}],
    "game": {"id": "g_2h7k9m3p5r8t1v4x", "rules": "freestyle", "width": 15, "height": 15, "k": 5, "overline_wins": true,
             "forbidden_policy": null, "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6", "name": "Ada", "level": null},
             "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
             "mode": "ai", "board": ["...............", "...............", "...............", "...............", "...............",
             "...............", ".......O.......", ".......X.......", "...............", "...............", "...............",
             "...............", "...............", "...............", "..............."],
             "ply": 2, "to_move": "black", "status": "in_progress", "result": null, "last_move": {"x": 7, "y": 6, "name": "h9"},
             "forbidden": [], "can_undo": true, "can_redo": false, "invited": null, "offer": null,
             "declined": {"black": {"takeback": 0, "draw": 0, "rematch": 0}, "white": {"takeback": 0, "draw": 0, "rematch": 0}},
             "clock": null, "thinking_ms": {"black": 5012, "white": 3}, "claimable_at": null, "rematch_of": null, "rematch_id": null,
             "version": 3,
             "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:05Z"}}))]
pub struct MovesPlayed {
    /// Your move, then the computer's reply when it played one.
    pub moves: Vec<MoveView>,
    pub game: GameView,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"game_id": "g_2h7k9m3p5r8t1v4x", "version": 3, "moves": [
    {"ply": 1, "color": "black", "point": {"x": 7, "y": 7, "name": "h8"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 5012},
    {"ply": 2, "color": "white", "point": {"x": 7, "y": 6, "name": "h9"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 3}]}))]
pub struct MoveList {
    pub game_id: String,
    pub version: i64,
    pub moves: Vec<MoveView>,
}

/// Who you are in a game you just created.
#[derive(Debug, Serialize, ToSchema)]
pub struct You {
    pub player_id: String,
    /// Only when a guest player was just made for you: keep it, it is shown once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// A new game: its state, the computer's opening move if it plays black,
/// and who you are.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "game": {"id": "g_2h7k9m3p5r8t1v4x", "rules": "freestyle", "width": 15, "height": 15, "k": 5, "overline_wins": true,
             "forbidden_policy": null, "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6", "name": "Guest 93q2cz", "level": null},
             "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
             "mode": "ai", "board": ["...............", "...............", "...............", "...............", "...............",
             "...............", "...............", "...............", "...............", "...............", "...............",
             "...............", "...............", "...............", "..............."],
             "ply": 0, "to_move": "black", "status": "in_progress", "result": null, "last_move": null, "forbidden": [],
             "can_undo": false, "can_redo": false, "invited": null, "offer": null,
             "declined": {"black": {"takeback": 0, "draw": 0, "rematch": 0}, "white": {"takeback": 0, "draw": 0, "rematch": 0}},
             "clock": null, "thinking_ms": {"black": 0, "white": 0}, "claimable_at": null, "rematch_of": null, "rematch_id": null,
             "version": 1, "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:00Z"},
    "moves": [],
    "you": {"player_id": "p_8fk2m9x1c4v7b3n6", "token": "gbt_7b4226abd17ced825b70cd28aee04cbe96ecb8a0a0200652"}}))]
pub struct GameCreated {
    pub game: GameView,
    pub moves: Vec<MoveView>,
    pub you: You,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CandidateView {
    pub x: u8,
    pub y: u8,
    pub name: String,
    /// Higher is better for the side to move.
    pub score: i64,
}

impl CandidateView {
    pub fn new(c: &Candidate, height: u8) -> Self {
        CandidateView {
            x: c.point.x,
            y: c.point.y,
            name: c.point.name(height).to_string(),
            score: c.score,
        }
    }
}

/// The computer's view of the position: best candidates first.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"game_id": "g_2h7k9m3p5r8t1v4x", "version": 7, "to_move": "black",
    "candidates": [{"x": 6, "y": 7, "name": "g8", "score": 999997}, {"x": 10, "y": 7, "name": "k8", "score": 999997}],
    "forced_win_in": 3, "computer": {"level": "expert", "time_ms": 2, "depth": 3, "nodes": 57}}))]
pub struct Hint {
    pub game_id: String,
    pub version: i64,
    /// `black` or `white`: whom the hint is for.
    pub to_move: &'static str,
    pub candidates: Vec<CandidateView>,
    /// Plies to a forced win for the side to move, when one was found.
    pub forced_win_in: Option<u32>,
    pub computer: ComputerInfo,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "database": "ok"}))]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// `ok` when the database answered.
    pub database: &'static str,
}
