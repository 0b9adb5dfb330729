//! Ratings per player and category, and what each rated game changed.

use chrono::{DateTime, Utc};

use super::rows::Columns;
use super::{Conn, Result, column, on_backend};

/// A player's rating in one category.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRow {
    pub player_id: String,
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games counted.
    pub games: i64,
    pub updated_at: DateTime<Utc>,
}

/// What one rated game did to one player's rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingChangeRow {
    pub game_id: String,
    pub player_id: String,
    pub category: String,
    /// (rating, deviation, volatility) before the game.
    pub before: (f64, f64, f64),
    /// … and after it.
    pub after: (f64, f64, f64),
    pub at: DateTime<Utc>,
}

fn rating<R: Columns>(row: &R) -> Result<RatingRow> {
    Ok(RatingRow {
        player_id: column(row, "player_id")?,
        category: column(row, "category")?,
        rating: column(row, "rating")?,
        deviation: column(row, "deviation")?,
        volatility: column(row, "volatility")?,
        games: column(row, "games")?,
        updated_at: column(row, "updated_at")?,
    })
}

fn change<R: Columns>(row: &R) -> Result<RatingChangeRow> {
    Ok(RatingChangeRow {
        game_id: column(row, "game_id")?,
        player_id: column(row, "player_id")?,
        category: column(row, "category")?,
        before: (
            column(row, "rating_before")?,
            column(row, "deviation_before")?,
            column(row, "volatility_before")?,
        ),
        after: (
            column(row, "rating")?,
            column(row, "deviation")?,
            column(row, "volatility")?,
        ),
        at: column(row, "at")?,
    })
}

/// Player `player_id`'s rating in `category`, if they have one.
pub async fn rating_of(
    conn: &mut Conn,
    player_id: &str,
    category: &str,
) -> Result<Option<RatingRow>> {
    on_backend!(conn, c => {
        sqlx::query(
            "SELECT player_id, category, rating, deviation, volatility, games, updated_at
             FROM ratings WHERE player_id = $1 AND category = $2",
        )
        .bind(player_id)
        .bind(category)
        .fetch_optional(c)
        .await?
        .as_ref()
        .map(rating)
        .transpose()
    })
}

/// Every rating of player `player_id`, by category.
pub async fn ratings_of(conn: &mut Conn, player_id: &str) -> Result<Vec<RatingRow>> {
    on_backend!(conn, c => {
        sqlx::query(
            "SELECT player_id, category, rating, deviation, volatility, games, updated_at
             FROM ratings WHERE player_id = $1 ORDER BY category",
        )
        .bind(player_id)
        .fetch_all(c)
        .await?
        .iter()
        .map(rating)
        .collect()
    })
}

/// Stores a rating (made or changed).
pub async fn put_rating(conn: &mut Conn, r: &RatingRow) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO ratings (player_id, category, rating, deviation, volatility, games, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)
             ON CONFLICT (player_id, category) DO UPDATE SET
                 rating = excluded.rating, deviation = excluded.deviation,
                 volatility = excluded.volatility, games = excluded.games,
                 updated_at = excluded.updated_at",
        )
        .bind(&r.player_id)
        .bind(&r.category)
        .bind(r.rating)
        .bind(r.deviation)
        .bind(r.volatility)
        .bind(r.games)
        .bind(r.updated_at)
        .execute(c)
        .await?;
    });
    Ok(())
}

/// Forgets player `player_id`'s rating in `category` (no rated game left).
pub async fn delete_rating(conn: &mut Conn, player_id: &str, category: &str) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("DELETE FROM ratings WHERE player_id = $1 AND category = $2")
            .bind(player_id)
            .bind(category)
            .execute(c)
            .await?;
    });
    Ok(())
}

pub async fn insert_rating_change(conn: &mut Conn, ch: &RatingChangeRow) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO rating_changes (game_id, player_id, category, rating_before, deviation_before,
                                         volatility_before, rating, deviation, volatility, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
        )
        .bind(&ch.game_id)
        .bind(&ch.player_id)
        .bind(&ch.category)
        .bind(ch.before.0)
        .bind(ch.before.1)
        .bind(ch.before.2)
        .bind(ch.after.0)
        .bind(ch.after.1)
        .bind(ch.after.2)
        .bind(ch.at)
        .execute(c)
        .await?;
    });
    Ok(())
}

const CHANGE_COLUMNS: &str = "game_id, player_id, category, rating_before, deviation_before, \
     volatility_before, rating, deviation, volatility, at";

/// What game `game_id` changed, player by player.
pub async fn rating_changes_of_game(
    conn: &mut Conn,
    game_id: &str,
) -> Result<Vec<RatingChangeRow>> {
    on_backend!(conn, c => {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes WHERE game_id = $1 ORDER BY player_id"
        )))
        .bind(game_id)
        .fetch_all(c)
        .await?
        .iter()
        .map(change)
        .collect()
    })
}

pub async fn delete_rating_changes(conn: &mut Conn, game_id: &str) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("DELETE FROM rating_changes WHERE game_id = $1")
            .bind(game_id)
            .execute(c)
            .await?;
    });
    Ok(())
}

/// Player `player_id`'s rating history in `category`, newest first, before
/// `before` when given.
pub async fn rating_history(
    conn: &mut Conn,
    player_id: &str,
    category: &str,
    before: Option<DateTime<Utc>>,
    limit: i64,
) -> Result<Vec<RatingChangeRow>> {
    on_backend!(conn, c => {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {CHANGE_COLUMNS} FROM rating_changes
             WHERE player_id = $1 AND category = $2 AND ($3 IS NULL OR at < $3)
             ORDER BY at DESC LIMIT $4"
        )))
        .bind(player_id)
        .bind(category)
        .bind(before)
        .bind(limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(change)
        .collect()
    })
}

/// The best-rated players of `category` (with at most `max_deviation`),
/// from rank `offset` on.
pub async fn rating_leaderboard(
    conn: &mut Conn,
    category: &str,
    max_deviation: f64,
    offset: i64,
    limit: i64,
) -> Result<Vec<RatingRow>> {
    on_backend!(conn, c => {
        sqlx::query(
            "SELECT player_id, category, rating, deviation, volatility, games, updated_at
             FROM ratings
             WHERE category = $1 AND deviation <= $2
             ORDER BY rating DESC, player_id ASC LIMIT $3 OFFSET $4",
        )
        .bind(category)
        .bind(max_deviation)
        .bind(limit)
        .bind(offset)
        .fetch_all(c)
        .await?
        .iter()
        .map(rating)
        .collect()
    })
}
