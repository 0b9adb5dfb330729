//! Game and move rows.

use chrono::{DateTime, Utc};

use super::players::player_prefixed;
use super::rows::Columns;
use super::{Conn, PlayerRow, Raw, Result, StoreError, column, on_backend};

/// A game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    pub id: String,
    pub rules: String,
    pub width: i64,
    pub height: i64,
    pub k: i64,
    pub overline_wins: bool,
    pub forbidden_policy: Option<String>,
    pub black_id: Option<String>,
    pub white_id: Option<String>,
    pub created_by: String,
    pub status: String,
    pub ply: i64,
    pub record: String,
    pub winner: Option<String>,
    pub reason: Option<String>,
    pub winning_line: Option<String>,
    pub scored: bool,
    pub version: i64,
    pub seed: i64,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub turn_started_at: DateTime<Utc>,
    pub invited: Option<String>,
    pub offer_kind: Option<String>,
    pub offer_by: Option<String>,
    pub offer_at: Option<DateTime<Utc>>,
    pub declines: String,
    pub clock_main_ms: Option<i64>,
    pub clock_floor_ms: Option<i64>,
    pub black_clock_ms: Option<i64>,
    pub white_clock_ms: Option<i64>,
    pub deadline_ms: Option<i64>,
    pub black_thinking_ms: i64,
    pub white_thinking_ms: i64,
    pub idle_limit_ms: Option<i64>,
    pub rematch_of: Option<String>,
    pub rematch_id: Option<String>,
    pub opening_rule: String,
    pub opening_log: String,
    pub rated: bool,
    pub black_rating: Option<f64>,
    pub black_deviation: Option<f64>,
    pub white_rating: Option<f64>,
    pub white_deviation: Option<f64>,
}

/// A move as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRow {
    pub ply: i64,
    pub x: i64,
    pub y: i64,
    pub color: String,
    pub played_at: DateTime<Utc>,
    pub thinking_ms: i64,
}

/// A game to create: the row as it starts.
pub type NewGame = GameRow;

/// Which games to list.
#[derive(Clone, Debug, Default)]
pub struct GameFilter<'a> {
    pub player_id: Option<&'a str>,
    pub status: Option<&'a str>,
    /// Continue after this (created_at, id).
    pub after: Option<(DateTime<Utc>, &'a str)>,
    pub limit: i64,
}

/// Every column of a game, as the games table (and game_versions) has
/// them, named after table alias `g`.
macro_rules! game_columns {
    () => {
        "g.id, g.rules, g.width, g.height, g.k, g.overline_wins, g.forbidden_policy, g.black_id, g.white_id,
         g.created_by, g.status, g.ply, g.record, g.winner, g.reason, g.winning_line, g.scored, g.version, g.seed,
         g.created_at, g.updated_at, g.turn_started_at, g.invited, g.offer_kind, g.offer_by, g.offer_at,
         g.declines, g.clock_main_ms, g.clock_floor_ms, g.black_clock_ms, g.white_clock_ms, g.deadline_ms,
         g.black_thinking_ms, g.white_thinking_ms, g.idle_limit_ms, g.rematch_of, g.rematch_id,
         g.opening_rule, g.opening_log, g.rated, g.black_rating, g.black_deviation, g.white_rating,
         g.white_deviation"
    };
}

/// A game's columns and its players' (`b_…` and `w_…`), from `$table`
/// (games or game_versions) as `g`, followed by the rest of the statement.
macro_rules! select_games_with_players {
    ($table:literal, $rest:literal) => {
        concat!(
            "SELECT ",
            game_columns!(),
            ",
                b.id AS b_id, b.name AS b_name, b.kind AS b_kind, b.level AS b_level, b.score AS b_score,
                b.wins AS b_wins, b.losses AS b_losses, b.draws AS b_draws, b.abandoned AS b_abandoned,
                b.games AS b_games, b.created_at AS b_created_at,
                w.id AS w_id, w.name AS w_name, w.kind AS w_kind, w.level AS w_level, w.score AS w_score,
                w.wins AS w_wins, w.losses AS w_losses, w.draws AS w_draws, w.abandoned AS w_abandoned,
                w.games AS w_games, w.created_at AS w_created_at
             FROM ",
            $table,
            " g
             LEFT JOIN players b ON b.id = g.black_id
             LEFT JOIN players w ON w.id = g.white_id ",
            $rest
        )
    };
}

fn game<R: Columns>(row: &R) -> Result<GameRow> {
    Ok(GameRow {
        id: column(row, "id")?,
        rules: column(row, "rules")?,
        width: column(row, "width")?,
        height: column(row, "height")?,
        k: column(row, "k")?,
        overline_wins: column(row, "overline_wins")?,
        forbidden_policy: column(row, "forbidden_policy")?,
        black_id: column(row, "black_id")?,
        white_id: column(row, "white_id")?,
        created_by: column(row, "created_by")?,
        status: column(row, "status")?,
        ply: column(row, "ply")?,
        record: column(row, "record")?,
        winner: column(row, "winner")?,
        reason: column(row, "reason")?,
        winning_line: column(row, "winning_line")?,
        scored: column(row, "scored")?,
        version: column(row, "version")?,
        seed: column(row, "seed")?,
        created_at: column(row, "created_at")?,
        updated_at: column(row, "updated_at")?,
        turn_started_at: column(row, "turn_started_at")?,
        invited: column(row, "invited")?,
        offer_kind: column(row, "offer_kind")?,
        offer_by: column(row, "offer_by")?,
        offer_at: column(row, "offer_at")?,
        declines: column(row, "declines")?,
        clock_main_ms: column(row, "clock_main_ms")?,
        clock_floor_ms: column(row, "clock_floor_ms")?,
        black_clock_ms: column(row, "black_clock_ms")?,
        white_clock_ms: column(row, "white_clock_ms")?,
        deadline_ms: column(row, "deadline_ms")?,
        black_thinking_ms: column(row, "black_thinking_ms")?,
        white_thinking_ms: column(row, "white_thinking_ms")?,
        idle_limit_ms: column(row, "idle_limit_ms")?,
        rematch_of: column(row, "rematch_of")?,
        rematch_id: column(row, "rematch_id")?,
        opening_rule: column(row, "opening_rule")?,
        opening_log: column(row, "opening_log")?,
        rated: column(row, "rated")?,
        black_rating: column(row, "black_rating")?,
        black_deviation: column(row, "black_deviation")?,
        white_rating: column(row, "white_rating")?,
        white_deviation: column(row, "white_deviation")?,
    })
}

pub async fn insert_game(conn: &mut Conn, g: &NewGame) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO games (id, rules, width, height, k, overline_wins, forbidden_policy, black_id, white_id,
                                created_by, status, ply, record, winner, reason, winning_line, scored, version, seed,
                                created_at, updated_at, turn_started_at, invited, offer_kind, offer_by, offer_at, declines,
                                clock_main_ms, clock_floor_ms, black_clock_ms, white_clock_ms, deadline_ms,
                                black_thinking_ms, white_thinking_ms, idle_limit_ms, rematch_of, rematch_id,
                                opening_rule, opening_log, rated, black_rating, black_deviation, white_rating,
                                white_deviation)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
                     $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36, $37, $38, $39, $40,
                     $41, $42, $43, $44)",
        )
        .bind(&g.id)
        .bind(&g.rules)
        .bind(g.width)
        .bind(g.height)
        .bind(g.k)
        .bind(g.overline_wins)
        .bind(&g.forbidden_policy)
        .bind(&g.black_id)
        .bind(&g.white_id)
        .bind(&g.created_by)
        .bind(&g.status)
        .bind(g.ply)
        .bind(&g.record)
        .bind(&g.winner)
        .bind(&g.reason)
        .bind(&g.winning_line)
        .bind(g.scored)
        .bind(g.version)
        .bind(g.seed)
        .bind(g.created_at)
        .bind(g.updated_at)
        .bind(g.turn_started_at)
        .bind(&g.invited)
        .bind(&g.offer_kind)
        .bind(&g.offer_by)
        .bind(g.offer_at)
        .bind(&g.declines)
        .bind(g.clock_main_ms)
        .bind(g.clock_floor_ms)
        .bind(g.black_clock_ms)
        .bind(g.white_clock_ms)
        .bind(g.deadline_ms)
        .bind(g.black_thinking_ms)
        .bind(g.white_thinking_ms)
        .bind(g.idle_limit_ms)
        .bind(&g.rematch_of)
        .bind(&g.rematch_id)
        .bind(&g.opening_rule)
        .bind(&g.opening_log)
        .bind(g.rated)
        .bind(g.black_rating)
        .bind(g.black_deviation)
        .bind(g.white_rating)
        .bind(g.white_deviation)
        .execute(c)
        .await?;
    });
    Ok(())
}

/// The update of a game row's changing part, if still at version `$13`.
macro_rules! update_game_sql {
    () => {
        "UPDATE games SET black_id = $2, white_id = $3, status = $4, ply = $5, winner = $6, reason = $7,
                          winning_line = $8, scored = $9, version = $10, updated_at = $11, turn_started_at = $12,
                          record = $14, invited = $15, offer_kind = $16, offer_by = $17, offer_at = $18,
                          declines = $19, black_clock_ms = $20, white_clock_ms = $21, deadline_ms = $22,
                          black_thinking_ms = $23, white_thinking_ms = $24, rematch_id = $25,
                          opening_log = $26, black_rating = $27, black_deviation = $28,
                          white_rating = $29, white_deviation = $30
         WHERE id = $1 AND version = $13"
    };
}

/// Binds `$1` to `$30` of [`update_game_sql`] to `query`.
macro_rules! bind_update {
    ($query:expr, $g:expr, $expected_version:expr) => {{
        let g: &GameRow = $g;
        $query
            .bind(&g.id)
            .bind(&g.black_id)
            .bind(&g.white_id)
            .bind(&g.status)
            .bind(g.ply)
            .bind(&g.winner)
            .bind(&g.reason)
            .bind(&g.winning_line)
            .bind(g.scored)
            .bind(g.version)
            .bind(g.updated_at)
            .bind(g.turn_started_at)
            .bind($expected_version)
            .bind(&g.record)
            .bind(&g.invited)
            .bind(&g.offer_kind)
            .bind(&g.offer_by)
            .bind(g.offer_at)
            .bind(&g.declines)
            .bind(g.black_clock_ms)
            .bind(g.white_clock_ms)
            .bind(g.deadline_ms)
            .bind(g.black_thinking_ms)
            .bind(g.white_thinking_ms)
            .bind(&g.rematch_id)
            .bind(&g.opening_log)
            .bind(g.black_rating)
            .bind(g.black_deviation)
            .bind(g.white_rating)
            .bind(g.white_deviation)
    }};
}

/// Binds a move's ply, point, colour, time and thinking time to `query`.
macro_rules! bind_move {
    ($query:expr, $m:expr) => {{
        let m: &MoveRow = $m;
        $query
            .bind(m.ply)
            .bind(m.x)
            .bind(m.y)
            .bind(&m.color)
            .bind(m.played_at)
            .bind(m.thinking_ms)
    }};
}

/// Writes the changing part of a game row, only if it is still at
/// `expected_version`; returns whether it was.
pub async fn update_game(conn: &mut Conn, g: &GameRow, expected_version: i64) -> Result<bool> {
    let changed = on_backend!(conn, c => {
        bind_update!(sqlx::query(update_game_sql!()), g, expected_version)
            .execute(c)
            .await?
            .rows_affected()
    });
    Ok(changed == 1)
}

/// [`update_game`] and [`insert_move`] of the move that made the change,
/// in one trip to the database: the move is stored only if the game was
/// still at `expected_version`; returns whether it was.
pub async fn update_game_with_move(
    conn: &mut Conn,
    g: &GameRow,
    expected_version: i64,
    m: &MoveRow,
) -> Result<bool> {
    // SQLite runs a list of statements in one call; PostgreSQL prepares one
    // statement, so there the update is a data-modifying WITH clause.
    let (changed, expected) = match conn.raw() {
        Raw::Sqlite(c) => {
            let query = sqlx::query(concat!(
                update_game_sql!(),
                ";
                 INSERT INTO moves (game_id, ply, x, y, color, played_at, thinking_ms)
                 SELECT $1, $31, $32, $33, $34, $35, $36 WHERE changes() = 1"
            ));
            let done = bind_move!(bind_update!(query, g, expected_version), m)
                .execute(c)
                .await?;
            (done.rows_affected(), 2)
        }
        Raw::Postgres(c) => {
            let query = sqlx::query(concat!(
                "WITH updated AS (",
                update_game_sql!(),
                " RETURNING id)
                 INSERT INTO moves (game_id, ply, x, y, color, played_at, thinking_ms)
                 SELECT id, $31, $32, $33, $34, $35, $36 FROM updated"
            ));
            let done = bind_move!(bind_update!(query, g, expected_version), m)
                .execute(c)
                .await?;
            (done.rows_affected(), 1)
        }
    };
    match changed {
        0 => Ok(false),
        n if n == expected => Ok(true),
        n => Err(StoreError::Corrupt(format!(
            "a game update with its move changed {n} rows, not {expected}"
        ))),
    }
}

/// A game and the players in its seats.
pub type GameWithPlayers = (GameRow, Option<PlayerRow>, Option<PlayerRow>);

fn game_with_players_of<R: Columns>(row: &R) -> Result<GameWithPlayers> {
    let game = game(row)?;
    let black = game
        .black_id
        .as_ref()
        .map(|_| player_prefixed(row, "b_"))
        .transpose()?;
    let white = game
        .white_id
        .as_ref()
        .map(|_| player_prefixed(row, "w_"))
        .transpose()?;
    Ok((game, black, white))
}

/// A game with the players in its seats, in one query.
pub async fn game_with_players(conn: &mut Conn, id: &str) -> Result<Option<GameWithPlayers>> {
    on_backend!(conn, c => {
        sqlx::query(select_games_with_players!("games", "WHERE g.id = $1"))
            .bind(id)
            .fetch_optional(c)
            .await?
            .as_ref()
            .map(game_with_players_of)
            .transpose()
    })
}

/// The states of game `id` after version `after`, through version
/// `through`, oldest first, with the players as they are now (states kept
/// a day: see [`prune_game_versions`]).
pub async fn game_versions(
    conn: &mut Conn,
    id: &str,
    after: i64,
    through: i64,
) -> Result<Vec<GameWithPlayers>> {
    on_backend!(conn, c => {
        sqlx::query(select_games_with_players!(
            "game_versions",
            "WHERE g.id = $1 AND g.version > $2 AND g.version <= $3 ORDER BY g.version"
        ))
        .bind(id)
        .bind(after)
        .bind(through)
        .fetch_all(c)
        .await?
        .iter()
        .map(game_with_players_of)
        .collect()
    })
}

/// When version `version` of game `id` was written, if that state is
/// still kept.
pub async fn game_version_time(
    conn: &mut Conn,
    id: &str,
    version: i64,
) -> Result<Option<DateTime<Utc>>> {
    Ok(on_backend!(conn, c => {
        sqlx::query_scalar("SELECT updated_at FROM game_versions WHERE id = $1 AND version = $2")
            .bind(id)
            .bind(version)
            .fetch_optional(c)
            .await?
    }))
}

/// The states, written at `since` or later, of the games player `player`
/// sits in, in the order they were written; at most `limit`.
pub async fn player_states_since(
    conn: &mut Conn,
    player: &str,
    since: DateTime<Utc>,
    limit: i64,
) -> Result<Vec<GameWithPlayers>> {
    on_backend!(conn, c => {
        sqlx::query(select_games_with_players!(
            "game_versions",
            "WHERE g.updated_at >= $2 AND (g.black_id = $1 OR g.white_id = $1)
             ORDER BY g.updated_at, g.id, g.version LIMIT $3"
        ))
        .bind(player)
        .bind(since)
        .bind(limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(game_with_players_of)
        .collect()
    })
}

/// Forgets the game states written before `before`.
pub async fn prune_game_versions(conn: &mut Conn, before: DateTime<Utc>) -> Result<u64> {
    Ok(on_backend!(conn, c => {
        sqlx::query("DELETE FROM game_versions WHERE updated_at < $1")
            .bind(before)
            .execute(c)
            .await?
            .rows_affected()
    }))
}

/// How many games there are of each status.
pub async fn count_by_status(conn: &mut Conn) -> Result<Vec<(String, i64)>> {
    Ok(on_backend!(conn, c => {
        sqlx::query_as("SELECT status, COUNT(*) FROM games GROUP BY status")
            .fetch_all(c)
            .await?
    }))
}

/// Games newest first, by player and status.
pub async fn list_games(conn: &mut Conn, filter: &GameFilter<'_>) -> Result<Vec<GameRow>> {
    let (after_time, after_id) = match filter.after {
        Some((time, id)) => (Some(time), id),
        None => (None, ""),
    };
    on_backend!(conn, c => {
        sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games g
             WHERE ($1 IS NULL OR black_id = $1 OR white_id = $1)
               AND ($2 IS NULL OR status = $2)
               AND ($3 IS NULL OR created_at < $3 OR (created_at = $3 AND id < $4))
             ORDER BY created_at DESC, id DESC
             LIMIT $5"
        ))
        .bind(filter.player_id)
        .bind(filter.status)
        .bind(after_time)
        .bind(after_id)
        .bind(filter.limit)
        .fetch_all(c)
        .await?
        .iter()
        .map(game)
        .collect()
    })
}

/// The moves of a game up to `through_ply`, in order.
pub async fn moves(conn: &mut Conn, game_id: &str, through_ply: i64) -> Result<Vec<MoveRow>> {
    on_backend!(conn, c => {
        sqlx::query(
            "SELECT ply, x, y, color, played_at, thinking_ms FROM moves WHERE game_id = $1 AND ply <= $2 ORDER BY ply",
        )
        .bind(game_id)
        .bind(through_ply)
        .fetch_all(c)
        .await?
        .iter()
        .map(|row| {
            Ok(MoveRow {
                ply: column(row, "ply")?,
                x: column(row, "x")?,
                y: column(row, "y")?,
                color: column(row, "color")?,
                played_at: column(row, "played_at")?,
                thinking_ms: column(row, "thinking_ms")?,
            })
        })
        .collect()
    })
}

/// Forgets the moves that could have been redone (from `from_ply` on).
pub async fn delete_moves_from(conn: &mut Conn, game_id: &str, from_ply: i64) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply >= $2")
            .bind(game_id)
            .bind(from_ply)
            .execute(c)
            .await?;
    });
    Ok(())
}

pub async fn insert_move(conn: &mut Conn, game_id: &str, m: &MoveRow) -> Result<()> {
    on_backend!(conn, c => {
        let query = sqlx::query(
            "INSERT INTO moves (game_id, ply, x, y, color, played_at, thinking_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(game_id);
        bind_move!(query, m).execute(c).await?;
    });
    Ok(())
}

/// The timed game whose clock runs out first: its id and deadline (Unix ms).
pub async fn next_deadline(conn: &mut Conn) -> Result<Option<(String, i64)>> {
    Ok(on_backend!(conn, c => {
        sqlx::query_as(
            "SELECT id, deadline_ms FROM games WHERE deadline_ms IS NOT NULL ORDER BY deadline_ms LIMIT 1",
        )
        .fetch_optional(c)
        .await?
    }))
}
