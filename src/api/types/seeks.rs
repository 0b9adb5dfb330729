//! Quick pairing: a seek asked for, and a seek as it stands.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::ClockRequest;
use crate::service::Seek;

/// The game wanted: rules and board as for a new game, an opening rule, a
/// clock, rated or not; and what the seeker accepts of an opponent.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": "renju", "opening": "rif", "clock": {"main_ms": 300000, "floor_ms": 30000},
    "rated": true, "rating_range": {"min": 1400, "max": 1800}}))]
pub struct CreateSeek {
    /// `freestyle` (default), `standard`, `renju`, `tictactoe` or `custom`.
    pub rules: Option<String>,
    /// As for a new game (`POST /v1/games`).
    pub board_size: Option<u32>,
    /// Custom rules: board width, 3–26.
    pub width: Option<u32>,
    /// Custom rules: board height, 3–26.
    pub height: Option<u32>,
    /// Custom rules: stones in a row to win.
    pub k: Option<u32>,
    /// Custom rules: whether more than k in a row wins.
    pub overline_wins: Option<bool>,
    /// Renju: `reject` (default) or `lose`.
    pub forbidden: Option<String>,
    /// `free` (default), `rif`, `yamaguchi`, `swap2` or `swap1`.
    pub opening: Option<String>,
    /// A clock (default: none).
    pub clock: Option<ClockRequest>,
    /// Whether the game changes the players' ratings (default false).
    pub rated: Option<bool>,
    /// The opponents' ratings you accept, in the game's category (default:
    /// any). Your own rating must be inside theirs too.
    pub rating_range: Option<RatingRange>,
    /// `black` or `white` to play that colour; default either.
    #[schema(pattern = "^(black|white|any)$")]
    pub colour: Option<String>,
    /// Play the computer if nobody comes within `after_s` seconds (while
    /// you keep asking after the seek).
    pub computer: Option<SeekComputer>,
}

/// "Play the computer if nobody comes in time."
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"after_s": 30}))]
pub struct SeekComputer {
    /// Seconds to wait for a person first, 1–300.
    #[schema(minimum = 1, maximum = 300)]
    pub after_s: u64,
    /// `beginner`, `intermediate`, `advanced` or `expert`; by default the
    /// level whose rating in the game's category is closest to yours
    /// (`intermediate` until the levels have ratings there).
    pub level: Option<String>,
}

/// When the computer takes a seek nobody came to.
#[derive(Debug, Serialize, ToSchema)]
pub struct SeekComputerView {
    pub after_s: u64,
    /// The level asked for (absent: the closest rated).
    pub level: Option<&'static str>,
    /// When the computer takes the seek if nobody has come.
    pub at: DateTime<Utc>,
}

/// A range of ratings, both ends included.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RatingRange {
    #[schema(minimum = 0, maximum = 10000)]
    pub min: f64,
    #[schema(minimum = 0, maximum = 10000)]
    pub max: f64,
}

/// A seek: waiting in the pool, paired (with its game), cancelled, or
/// expired (nobody asked after it for a minute).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "s_3kq2m8x1c4v7b3n6q0z5w2e8r1t4y7u0", "status": "paired",
    "game_id": "g_5kq2m8x1c4v7b3n6q0z5w2e8r1t4y7u0", "rules": "renju", "width": 15, "height": 15,
    "opening": "rif", "clock": {"main_ms": 300000, "floor_ms": 30000}, "rated": true,
    "rating": 1500.0, "rating_range": {"min": 1400.0, "max": 1800.0}, "colour": "any",
    "created_at": "2026-11-22T10:00:00Z", "expires_at": "2026-11-22T10:01:00Z"}))]
pub struct SeekView {
    pub id: String,
    /// `waiting`, `paired`, `cancelled` or `expired`.
    pub status: &'static str,
    /// Once paired: the game, already begun (`GET /v1/games/{game_id}`).
    pub game_id: Option<String>,
    pub rules: &'static str,
    pub width: u8,
    pub height: u8,
    pub opening: &'static str,
    pub clock: Option<SeekClock>,
    pub rated: bool,
    /// Your rating in the game's category when you asked (1500 when new).
    pub rating: f64,
    pub rating_range: Option<RatingRange>,
    /// `black`, `white` or `any`.
    pub colour: &'static str,
    pub created_at: DateTime<Utc>,
    /// While waiting: when the seek expires unless you ask after it again
    /// (`GET /v1/seeks/{id}` keeps it alive).
    pub expires_at: DateTime<Utc>,
    /// Whether (and when) the computer plays you if nobody comes.
    pub computer: Option<SeekComputerView>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeekClock {
    pub main_ms: i64,
    pub floor_ms: i64,
}

impl From<Seek> for SeekView {
    fn from(s: Seek) -> Self {
        SeekView {
            id: s.id,
            status: s.status.as_str(),
            game_id: s.game_id,
            rules: s.spec.variant.rule_set().as_str(),
            width: s.spec.variant.width(),
            height: s.spec.variant.height(),
            opening: s.spec.opening.as_str(),
            clock: s
                .spec
                .clock
                .map(|(main_ms, floor_ms)| SeekClock { main_ms, floor_ms }),
            rated: s.spec.rated,
            rating: s.rating,
            rating_range: s
                .spec
                .rating_range
                .map(|(min, max)| RatingRange { min, max }),
            colour: s.spec.colour.map_or("any", |c| c.as_str()),
            computer: s.spec.computer.map(|c| SeekComputerView {
                after_s: c.after.as_secs(),
                level: c.level.map(|l| l.as_str()),
                at: s.created_at
                    + chrono::TimeDelta::from_std(c.after).unwrap_or(chrono::TimeDelta::zero()),
            }),
            created_at: s.created_at,
            expires_at: s.expires_at,
        }
    }
}

/// How long to wait for a pairing.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
pub struct SeekWaitQuery {
    /// Seconds to wait, 1–30, for the seek to be paired (or end) before
    /// answering; default 0 (answer at once).
    #[param(minimum = 0, maximum = 30)]
    pub wait: Option<u64>,
}
