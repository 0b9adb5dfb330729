//! A position analysed without a game: what is asked and what comes back.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{CandidateView, ComputerInfo};

/// A position and how long to look at it. The rules are given as for a new
/// game (freestyle 15×15 unless said); the position by exactly one of
/// `moves` (in the order played, black first) or `board`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"rules": "renju", "moves": ["h8", "h9", "j10"], "level": "expert", "time_ms": 500, "count": 3}))]
pub struct AnalysisRequest {
    /// `freestyle` (default), `standard`, `renju`, `tictactoe` or `custom`.
    pub rules: Option<String>,
    /// As for a new game: 5–26 for freestyle and standard (default 15).
    pub board_size: Option<u32>,
    /// Custom rules: board width, 3–26.
    pub width: Option<u32>,
    /// Custom rules: board height, 3–26.
    pub height: Option<u32>,
    /// Custom rules: stones in a row to win, 3 to the longer side.
    pub k: Option<u32>,
    /// Custom rules: whether more than k in a row wins (default false).
    pub overline_wins: Option<bool>,
    /// Renju: `reject` (default) or `lose`.
    pub forbidden: Option<String>,
    /// The moves that made the position, as point names (`h8`) in the
    /// order played, black first.
    #[schema(max_items = 676, inline)]
    #[serde(default, deserialize_with = "present")]
    pub moves: Option<Vec<String>>,
    /// The position's rows, top row first: `.` empty, `X` black, `O`
    /// white; the side to move follows from the stone counts.
    #[schema(max_items = 26, inline)]
    #[serde(default, deserialize_with = "present")]
    pub board: Option<Vec<String>>,
    /// The level that looks (default expert).
    #[schema(pattern = "^(beginner|intermediate|advanced|expert)$")]
    pub level: Option<String>,
    /// Thinking time in milliseconds, capped by the server's limit.
    #[schema(minimum = 1, maximum = 3_600_000)]
    pub time_ms: Option<u64>,
    /// How many candidates, 1–10 (default 5), each scored by its own search: more
    /// candidates share the thinking time, so each is searched less deep.
    #[schema(minimum = 1, maximum = 10)]
    pub count: Option<usize>,
}

/// A field that, when given, is a value: `null` is refused (leave the
/// field out instead), so that which of `moves` and `board` was given is
/// never in doubt.
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// The computer's view of a position: best candidates first, each with its
/// score; the evaluation, depth and expected line in `computer`.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"to_move": "white", "candidates": [{"x": 9, "y": 5, "name": "j10", "score": 120}],
    "computer": {"level": "expert", "time_ms": 498, "depth": 9, "nodes": 210344, "score": 120,
    "forced_win_in": null, "forced_loss_in": null,
    "pv": [{"x": 9, "y": 5, "name": "j10"}, {"x": 8, "y": 8, "name": "i7"}]}}))]
pub struct Analysis {
    /// `black` or `white`: whom the analysis is for.
    pub to_move: &'static str,
    pub candidates: Vec<CandidateView>,
    pub computer: ComputerInfo,
}
