//! Request bodies and query strings of the game endpoints.

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GameListQuery {
    /// Only games this player sits in.
    pub player: Option<String>,
    /// `waiting`, `in_progress` or `finished`.
    #[param(pattern = "^(waiting|in_progress|finished)$")]
    pub status: Option<String>,
    /// Page size, 1–100 (default 20).
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
    /// The `next_cursor` of the previous page.
    #[param(pattern = "^-?[0-9]{1,18}\\.[0-9A-Za-z_-]{1,64}$")]
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
    /// Side of the square board: 5–26 for freestyle and standard (default
    /// 15), 15 for renju, 3 for tic-tac-toe; for custom, the width and height
    /// that `width` and `height` do not give.
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
    /// Whether the result changes the players' Glicko-2 ratings in the
    /// game's category (default false): for games between two people, or a
    /// person and a computer level.
    pub rated: Option<bool>,
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

/// The most thinking time a request may ask for (an hour; the server's own
/// cap is far lower): the `maximum` of every `time_ms` in the document.
pub const MAX_TIME_MS: u64 = 3_600_000;

/// Optional settings for `ai-move`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"level": "intermediate", "time_ms": 500}))]
pub struct AiMoveRequest {
    /// In a local game, the level that plays (default intermediate); in
    /// other games the computer seat's own level plays.
    #[schema(pattern = "^(beginner|intermediate|advanced|expert)$")]
    pub level: Option<String>,
    /// Thinking time in milliseconds, capped by the server's limit.
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub time_ms: Option<u64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct GameQuery {
    /// Long poll: answer once the version is greater than this.
    pub wait_for_version: Option<i64>,
    /// Long poll: seconds to wait at most, 1–30 (default 30).
    #[param(minimum = 1, maximum = 30)]
    pub timeout: Option<u64>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct HintQuery {
    /// The level that looks (default intermediate).
    #[param(pattern = "^(beginner|intermediate|advanced|expert)$")]
    pub level: Option<String>,
    /// How many candidates, 1–10 (default 5), each scored by its own search: more
    /// candidates share the thinking time, so each is searched less deep.
    #[param(minimum = 1, maximum = 10)]
    pub count: Option<usize>,
    /// Thinking time in milliseconds, capped by the server's limit.
    #[param(minimum = 1, maximum = 3_600_000)]
    pub time_ms: Option<u64>,
}
