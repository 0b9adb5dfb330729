//! Seeks: players waiting to be paired.

use chrono::{DateTime, Utc};

use super::rows::Columns;
use super::{Conn, Raw, Result, column, on_backend};

/// A seek as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct SeekRow {
    pub id: String,
    pub player_id: String,
    pub settings: String,
    pub rating: f64,
    pub rating_min: f64,
    pub rating_max: f64,
    pub colour: String,
    pub status: String,
    pub game_id: Option<String>,
    pub created_at: DateTime<Utc>,
    pub seen_at: DateTime<Utc>,
    /// When nobody having come, the computer takes the seek.
    pub computer_at: Option<DateTime<Utc>>,
    /// The computer level asked for then (else the closest rated).
    pub computer_level: Option<String>,
}

const SEEK_COLUMNS: &str = "id, player_id, settings, rating, rating_min, rating_max, colour, status, game_id, created_at, seen_at, computer_at, computer_level";

fn seek<R: Columns>(row: &R) -> Result<SeekRow> {
    Ok(SeekRow {
        id: column(row, "id")?,
        player_id: column(row, "player_id")?,
        settings: column(row, "settings")?,
        rating: column(row, "rating")?,
        rating_min: column(row, "rating_min")?,
        rating_max: column(row, "rating_max")?,
        colour: column(row, "colour")?,
        status: column(row, "status")?,
        game_id: column(row, "game_id")?,
        created_at: column(row, "created_at")?,
        seen_at: column(row, "seen_at")?,
        computer_at: column(row, "computer_at")?,
        computer_level: column(row, "computer_level")?,
    })
}

/// Makes the pairings of one pool (`settings`) take turns until the end of
/// the write transaction, so that two seekers arriving together see each
/// other. SQLite's writes take turns anyway; on PostgreSQL, a transaction
/// advisory lock on the pool (two instances included).
pub async fn lock_pool(conn: &mut Conn, settings: &str) -> Result<()> {
    match conn.raw() {
        Raw::Sqlite(_) => {}
        Raw::Postgres(c) => {
            sqlx::query("SELECT pg_advisory_xact_lock(hashtext($1))")
                .bind(settings)
                .execute(c)
                .await?;
        }
    }
    Ok(())
}

pub async fn insert_seek(conn: &mut Conn, s: &SeekRow) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO seeks (id, player_id, settings, rating, rating_min, rating_max, colour, status,
                                game_id, created_at, seen_at, computer_at, computer_level)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
        )
        .bind(&s.id)
        .bind(&s.player_id)
        .bind(&s.settings)
        .bind(s.rating)
        .bind(s.rating_min)
        .bind(s.rating_max)
        .bind(&s.colour)
        .bind(&s.status)
        .bind(&s.game_id)
        .bind(s.created_at)
        .bind(s.seen_at)
        .bind(s.computer_at)
        .bind(&s.computer_level)
        .execute(c)
        .await?;
    });
    Ok(())
}

pub async fn seek_by_id(conn: &mut Conn, id: &str) -> Result<Option<SeekRow>> {
    on_backend!(conn, c => {
        sqlx::query(sqlx::AssertSqlSafe(format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1")))
            .bind(id)
            .fetch_optional(c)
            .await?
            .as_ref()
            .map(seek)
            .transpose()
    })
}

/// Waiting seeks that `mine` may be paired with: the same settings, by
/// another player, seen since `seen_after`, each rating inside the other's
/// range, colours that agree; oldest first (at most `limit`).
pub async fn waiting_seeks(
    conn: &mut Conn,
    mine: &SeekRow,
    seen_after: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<SeekRow>> {
    on_backend!(conn, c => {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SEEK_COLUMNS} FROM seeks
             WHERE settings = $1 AND status = 'waiting' AND player_id <> $2 AND seen_at >= $3
               AND rating >= $4 AND rating <= $5 AND rating_min <= $6 AND rating_max >= $6
               AND ($7 = 'any' OR colour <> $7)
             ORDER BY created_at LIMIT $8"
        )))
        .bind(&mine.settings)
        .bind(&mine.player_id)
        .bind(seen_after)
        .bind(mine.rating_min)
        .bind(mine.rating_max)
        .bind(mine.rating)
        .bind(&mine.colour)
        .bind(limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(seek)
        .collect()
    })
}

/// Waiting seeks, still asked after since `seen_after`, that are due to
/// the computer at `now`: the longest due first (at most `limit`).
pub async fn seeks_due_to_the_computer(
    conn: &mut Conn,
    now: DateTime<Utc>,
    seen_after: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<SeekRow>> {
    on_backend!(conn, c => {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT {SEEK_COLUMNS} FROM seeks
             WHERE status = 'waiting' AND computer_at <= $1 AND seen_at >= $2
             ORDER BY computer_at LIMIT $3"
        )))
        .bind(now)
        .bind(seen_after)
        .bind(limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(seek)
        .collect()
    })
}

/// Marks expired the waiting seeks for the computer nobody asked after
/// since `seen_before` (so that they leave its index); how many.
pub async fn expire_computer_seeks(conn: &mut Conn, seen_before: DateTime<Utc>) -> Result<u64> {
    Ok(on_backend!(conn, c => {
        sqlx::query(
            "UPDATE seeks SET status = 'expired'
             WHERE status = 'waiting' AND computer_at IS NOT NULL AND seen_at < $1",
        )
        .bind(seen_before)
        .execute(c)
        .await?
        .rows_affected()
    }))
}

/// Moves seek `id` from waiting to `status` (with its game, once paired);
/// whether it was waiting.
pub async fn end_seek(
    conn: &mut Conn,
    id: &str,
    status: &str,
    game_id: Option<&str>,
) -> Result<bool> {
    let changed = on_backend!(conn, c => {
        sqlx::query(
            "UPDATE seeks SET status = $2, game_id = $3 WHERE id = $1 AND status = 'waiting'",
        )
        .bind(id)
        .bind(status)
        .bind(game_id)
        .execute(c)
        .await?
        .rows_affected()
    });
    Ok(changed == 1)
}

/// Points paired seek `id` at its game (once the game is stored).
pub async fn set_seek_game(conn: &mut Conn, id: &str, game_id: &str) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("UPDATE seeks SET game_id = $2 WHERE id = $1")
            .bind(id)
            .bind(game_id)
            .execute(c)
            .await?;
    });
    Ok(())
}

/// Notes that the seeker asked after seek `id` at `now`.
pub async fn touch_seek(conn: &mut Conn, id: &str, now: DateTime<Utc>) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("UPDATE seeks SET seen_at = $2 WHERE id = $1 AND status = 'waiting'")
            .bind(id)
            .bind(now)
            .execute(c)
            .await?;
    });
    Ok(())
}

/// The opponents of player `player_id` in their last `n` games, newest first.
pub async fn last_opponents(conn: &mut Conn, player_id: &str, n: i64) -> Result<Vec<String>> {
    let rows: Vec<(Option<String>, Option<String>)> = on_backend!(conn, c => {
        sqlx::query_as(
            "SELECT black_id, white_id FROM games WHERE black_id = $1 OR white_id = $1
             ORDER BY created_at DESC LIMIT $2",
        )
        .bind(player_id)
        .bind(n)
        .fetch_all(c)
        .await?
    });
    Ok(rows
        .into_iter()
        .filter_map(|(black, white)| {
            if black.as_deref() == Some(player_id) {
                white
            } else {
                black
            }
        })
        .collect())
}
