//! Player rows: identity, token hash and cumulative score.

use chrono::{DateTime, Utc};

use super::rows::Columns;
use super::{Conn, Result, column, on_backend};

/// A player as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    pub id: String,
    pub name: String,
    pub kind: String,
    pub level: Option<String>,
    pub score: i64,
    pub wins: i64,
    pub losses: i64,
    pub draws: i64,
    pub abandoned: i64,
    pub games: i64,
    pub created_at: DateTime<Utc>,
}

/// A player to create.
pub struct NewPlayer<'a> {
    pub id: &'a str,
    pub name: &'a str,
    pub token_hash: &'a str,
    pub created_at: DateTime<Utc>,
}

/// What one finished game does to one player's record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreChange {
    Win,
    Loss,
    Draw,
    /// Walked away from a game the opponent then claimed.
    Abandoned,
}

/// A SELECT of every player column, followed by the rest of the statement.
macro_rules! select_players {
    ($rest:literal) => {
        concat!(
            "SELECT id, name, kind, level, score, wins, losses, draws, abandoned, games, created_at FROM players ",
            $rest
        )
    };
}

fn player<R: Columns>(row: &R) -> Result<PlayerRow> {
    player_prefixed(row, "")
}

/// A player read from columns named with `prefix` (for joins).
pub(super) fn player_prefixed<R: Columns>(row: &R, prefix: &str) -> Result<PlayerRow> {
    let name = |column: &str| format!("{prefix}{column}");
    Ok(PlayerRow {
        id: column(row, &name("id"))?,
        name: column(row, &name("name"))?,
        kind: column(row, &name("kind"))?,
        level: column(row, &name("level"))?,
        score: column(row, &name("score"))?,
        wins: column(row, &name("wins"))?,
        losses: column(row, &name("losses"))?,
        draws: column(row, &name("draws"))?,
        abandoned: column(row, &name("abandoned"))?,
        games: column(row, &name("games"))?,
        created_at: column(row, &name("created_at"))?,
    })
}

pub async fn insert_player(conn: &mut Conn, new: NewPlayer<'_>) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO players (id, name, kind, token_hash, created_at) VALUES ($1, $2, 'human', $3, $4)",
        )
        .bind(new.id)
        .bind(new.name)
        .bind(new.token_hash)
        .bind(new.created_at)
        .execute(c)
        .await?;
    });
    Ok(())
}

/// Makes sure the computer player for `level` exists.
pub async fn ensure_computer(
    conn: &mut Conn,
    id: &str,
    name: &str,
    level: &str,
    now: DateTime<Utc>,
) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO players (id, name, kind, level, created_at) VALUES ($1, $2, 'computer', $3, $4)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(name)
        .bind(level)
        .bind(now)
        .execute(c)
        .await?;
    });
    Ok(())
}

pub async fn player_by_id(conn: &mut Conn, id: &str) -> Result<Option<PlayerRow>> {
    on_backend!(conn, c => {
        sqlx::query(select_players!("WHERE id = $1"))
            .bind(id)
            .fetch_optional(c)
            .await?
            .as_ref()
            .map(player)
            .transpose()
    })
}

/// Gives the human player `id` a new name; whether there is such a player.
pub async fn rename_player(conn: &mut Conn, id: &str, name: &str) -> Result<bool> {
    let changed = on_backend!(conn, c => {
        sqlx::query("UPDATE players SET name = $2 WHERE id = $1 AND kind = 'human'")
            .bind(id)
            .bind(name)
            .execute(c)
            .await?
            .rows_affected()
    });
    Ok(changed == 1)
}

pub async fn player_by_token_hash(conn: &mut Conn, token_hash: &str) -> Result<Option<PlayerRow>> {
    on_backend!(conn, c => {
        sqlx::query(select_players!("WHERE token_hash = $1"))
            .bind(token_hash)
            .fetch_optional(c)
            .await?
            .as_ref()
            .map(player)
            .transpose()
    })
}

/// Players who have finished at least one game, best score first, starting
/// after `after` (score, id) when given.
pub async fn leaderboard(
    conn: &mut Conn,
    after: Option<(i64, &str)>,
    limit: i64,
) -> Result<Vec<PlayerRow>> {
    let (score, id) = after.unwrap_or((i64::MAX, ""));
    on_backend!(conn, c => {
        sqlx::query(select_players!(
            "WHERE games > 0 AND (score < $1 OR (score = $1 AND id > $2)) ORDER BY score DESC, id ASC LIMIT $3"
        ))
        .bind(score)
        .bind(id)
        .bind(limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(player)
        .collect()
    })
}

/// Adds (`sign` = 1) or takes back (`sign` = -1) one game's effect on a player.
pub async fn apply_score(conn: &mut Conn, id: &str, change: ScoreChange, sign: i64) -> Result<()> {
    let (score, wins, losses, draws, abandoned) = match change {
        ScoreChange::Win => (1, 1, 0, 0, 0),
        ScoreChange::Loss => (-1, 0, 1, 0, 0),
        ScoreChange::Draw => (0, 0, 0, 1, 0),
        ScoreChange::Abandoned => (-3, 0, 0, 0, 1),
    };
    on_backend!(conn, c => {
        sqlx::query(
            "UPDATE players SET score = score + $2, wins = wins + $3, losses = losses + $4,
                    draws = draws + $5, abandoned = abandoned + $7, games = games + $6
             WHERE id = $1",
        )
        .bind(id)
        .bind(score * sign)
        .bind(wins * sign)
        .bind(losses * sign)
        .bind(draws * sign)
        .bind(sign)
        .bind(abandoned * sign)
        .execute(c)
        .await?;
    });
    Ok(())
}

/// Finished, scored games between players `a` and `b`: (games, a's wins,
/// a's losses, draws).
pub async fn head_to_head(conn: &mut Conn, a: &str, b: &str) -> Result<(i64, i64, i64, i64)> {
    let (games, wins, losses, draws): (i64, Option<i64>, Option<i64>, Option<i64>) = on_backend!(conn, c => {
        sqlx::query_as(
            "SELECT COUNT(*),
                        SUM(CASE WHEN (winner = 'black' AND black_id = $1) OR (winner = 'white' AND white_id = $1)
                                 THEN 1 ELSE 0 END),
                        SUM(CASE WHEN (winner = 'black' AND black_id = $2) OR (winner = 'white' AND white_id = $2)
                                 THEN 1 ELSE 0 END),
                        SUM(CASE WHEN winner IS NULL THEN 1 ELSE 0 END)
                 FROM games
                 WHERE status = 'finished' AND scored
                   AND ((black_id = $1 AND white_id = $2) OR (black_id = $2 AND white_id = $1))",
        )
        .bind(a)
        .bind(b)
        .fetch_one(c)
        .await?
    });
    Ok((
        games,
        wins.unwrap_or(0),
        losses.unwrap_or(0),
        draws.unwrap_or(0),
    ))
}
