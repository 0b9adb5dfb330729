//! Players: creating one, a player's card, the leaderboard.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::GameSummary;
use crate::service::{HeadToHead, Rating, RatingHistory};
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
    /// On a category's rating leaderboard: the player's rating there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<RatingView>,
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
            rating: None,
        }
    }
}

/// A Glicko-2 rating in one category.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"category": "renju", "rating": 1662.3, "deviation": 290.3, "volatility": 0.06,
    "games": 1, "provisional": true}))]
pub struct RatingView {
    /// `freestyle-15`, `freestyle-19`, `standard`, `renju`, `tictactoe` or `custom`.
    pub category: String,
    pub rating: f64,
    /// The rating's uncertainty: about 95% sure the strength is within two
    /// deviations of the rating.
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted.
    pub games: i64,
    /// Deviation above 110: not yet known well enough to rank (shown with `?`).
    pub provisional: bool,
}

impl From<Rating> for RatingView {
    fn from(r: Rating) -> Self {
        RatingView {
            category: r.category,
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
            provisional: r.provisional,
        }
    }
}

/// A player's card: who they are, their cumulative score and their rating
/// in each category they have played rated games in.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "p_8fk2m9x1c4v7b3n6q0z5w2e8r1t4y7u0", "name": "Ada", "kind": "human", "level": null,
    "score": 2, "wins": 3, "losses": 1, "draws": 0, "abandoned": 0, "games": 4, "created_at": "2026-11-22T10:00:00Z",
    "ratings": [{"category": "renju", "rating": 1662.3, "deviation": 290.3, "volatility": 0.06, "games": 1, "provisional": true}],
    "recent_games": [], "recent_games_next_cursor": null}))]
pub struct PlayerProfile {
    /// Who they are and their cumulative record.
    #[serde(flatten)]
    pub player: PlayerView,
    /// By category; categories without a rated game are left out.
    pub ratings: Vec<RatingView>,
    /// Their newest games (up to 10), newest first.
    pub recent_games: Vec<GameSummary>,
    /// More of them: pass as `cursor` to `GET /v1/games?player=<id>`;
    /// absent when there are no more.
    pub recent_games_next_cursor: Option<String>,
    /// With `?vs=<player id>`: their finished games against that player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub head_to_head: Option<HeadToHeadView>,
}

/// Two players' finished games against each other, from this player's side.
#[derive(Debug, Serialize, ToSchema)]
pub struct HeadToHeadView {
    pub opponent_id: String,
    pub games: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
}

impl From<HeadToHead> for HeadToHeadView {
    fn from(h: HeadToHead) -> Self {
        HeadToHeadView {
            opponent_id: h.opponent_id,
            games: h.games,
            wins: h.wins,
            losses: h.losses,
            draws: h.draws,
        }
    }
}

impl PlayerProfile {
    pub fn new(
        p: PlayerRow,
        ratings: Vec<Rating>,
        recent_games: Vec<GameSummary>,
        recent_games_next_cursor: Option<String>,
        head_to_head: Option<HeadToHead>,
    ) -> Self {
        PlayerProfile {
            player: PlayerView::from(p),
            ratings: ratings.into_iter().map(RatingView::from).collect(),
            recent_games,
            recent_games_next_cursor,
            head_to_head: head_to_head.map(HeadToHeadView::from),
        }
    }
}

/// One rated game's change to a player's rating.
#[derive(Debug, Serialize, ToSchema)]
pub struct RatingChangeView {
    pub game_id: String,
    pub at: DateTime<Utc>,
    /// After the game.
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// `rating` minus the rating before the game.
    pub change: f64,
}

/// A player's rating history in one category, newest first (for a chart).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"player_id": "p_8fk2m9x1c4v7b3n6q0z5w2e8r1t4y7u0", "category": "renju", "changes": [
    {"game_id": "g_5kq2m8x1c4v7b3n6q0z5w2e8r1t4y7u0", "at": "2026-11-22T10:30:00Z", "rating": 1662.3,
     "deviation": 290.3, "volatility": 0.06, "change": 162.3}], "next_cursor": null}))]
pub struct RatingHistoryView {
    pub player_id: String,
    pub category: String,
    pub changes: Vec<RatingChangeView>,
    /// Pass as `cursor` for the next (older) page; absent on the last page.
    pub next_cursor: Option<String>,
}

impl RatingHistoryView {
    pub fn new(player_id: String, category: String, history: RatingHistory) -> Self {
        RatingHistoryView {
            player_id,
            category,
            changes: history
                .changes
                .into_iter()
                .map(|c| RatingChangeView {
                    game_id: c.game_id,
                    at: c.at,
                    rating: c.after.0,
                    deviation: c.after.1,
                    volatility: c.after.2,
                    change: c.after.0 - c.before.0,
                })
                .collect(),
            next_cursor: history.next_cursor,
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
    /// Players who finished at least one game, best score first; with a
    /// `category`, players rated in it, best rating first (each with its
    /// `rating`).
    pub players: Vec<PlayerView>,
    /// Pass as `cursor` for the next page; absent on the last page.
    pub next_cursor: Option<String>,
}
