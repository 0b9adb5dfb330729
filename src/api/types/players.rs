//! Players: creating one, a player's card, the leaderboard.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::store::PlayerRow;

#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"name": "Ada"}))]
pub struct CreatePlayer {
    /// 1–40 characters, no control characters; spaces around it are dropped.
    #[schema(
        max_length = 40,
        pattern = "^[^\\u0000-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u001F\\u007F-\\u009F][^\\u0000-\\u001F\\u007F-\\u009F]*$"
    )]
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
