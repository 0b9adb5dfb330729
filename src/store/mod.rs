//! Persistence: players, games and moves in SQL through sqlx.
//!
//! The store knows rows, not rules: the service decides what a game means and
//! hands the store the rows to write, one write transaction per action. Write
//! transactions start with `BEGIN IMMEDIATE`, so two actions on one game are
//! strictly one after the other and the loser of a race sees the winner's
//! result.

mod games;
pub mod idempotency;
mod players;
mod writer;

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{SqlStr, SqliteConnection, SqlitePool};

pub use writer::BatchObserver;
use writer::Writer;

pub use games::{
    GameFilter, GameRow, MoveRow, NewGame, count_by_status, delete_moves_from, game_with_players,
    insert_game, insert_move, list_games, moves, next_deadline, update_game, update_game_with_move,
};
pub use players::{
    NewPlayer, PlayerRow, ScoreChange, apply_score, ensure_computer, insert_player, leaderboard,
    player_by_id, player_by_token_hash, rename_player,
};

/// A store failure: the database could not be reached or refused a statement.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("could not apply the database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error("unsupported database URL {0:?}: use sqlite:PATH (PostgreSQL is not available yet)")]
    UnsupportedUrl(String),
    #[error("the write batch holding this write failed to commit: {0}")]
    Batch(Arc<sqlx::Error>),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// The database behind gobang.
#[derive(Clone, Debug)]
pub struct Store {
    pool: SqlitePool,
    writer: Arc<Writer>,
}

impl Store {
    /// Opens (creating if missing) and migrates the database at `url`
    /// (`sqlite:gobang.db`, `sqlite::memory:`, or a plain file path).
    pub async fn open(url: &str) -> Result<Store> {
        let options = if url.starts_with("sqlite:") {
            SqliteConnectOptions::from_str(url)?
        } else if url.contains("://") {
            return Err(StoreError::UnsupportedUrl(url.to_string()));
        } else {
            SqliteConnectOptions::new().filename(url)
        };
        let options = options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Normal)
            .busy_timeout(Duration::from_secs(10))
            .foreign_keys(true)
            // Checkpoints run beside the writer (see `writer`), not in its commits.
            .pragma("wal_autocheckpoint", "0")
            // Statement journals (a statement's undo within a transaction of
            // many) in memory, not in temporary files written per statement.
            .pragma("temp_store", "memory");
        let pool = SqlitePoolOptions::new()
            .max_connections(8)
            .min_connections(1)
            // A file that answered a moment ago still does: a test query
            // before each use would cost a trip to the connection's thread.
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await?;
        migrator().run(&pool).await?;
        Ok(Store {
            writer: Arc::new(Writer::start(options).await?),
            pool,
        })
    }

    /// Runs `job`'s statements in one write, with other writes (see
    /// [`writer`]): its answer once committed, or its error with its
    /// changes undone. Callers write
    /// `store.write(move |tx| Box::pin(async move { … })).await`.
    pub async fn write<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(
                &'c mut Conn,
            )
                -> futures_util::future::BoxFuture<'c, std::result::Result<T, E>>
            + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.writer.write(job).await
    }

    /// [`Store::write`] for a job that changes nothing when it refuses (its
    /// inner error) and fails after a change only when the database does
    /// (its outer error: then the whole batch is rolled back and every write
    /// in it fails). One statement fewer than [`Store::write`].
    pub async fn write_unguarded<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(
                &'c mut Conn,
            )
                -> futures_util::future::BoxFuture<'c, Result<std::result::Result<T, E>>>
            + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        self.writer.write_unguarded(job).await
    }

    /// Commits the writes still waiting in a batch, so that a read sees
    /// them: for a writer whose version check failed.
    pub async fn settle(&self) {
        self.writer.settle().await
    }

    /// Reports each committed write batch to `observer`.
    pub fn observe_batches(&self, observer: Arc<dyn BatchObserver>) {
        self.writer.observe(observer);
    }

    /// A connection for reading.
    pub async fn read(&self) -> Result<sqlx::pool::PoolConnection<sqlx::Sqlite>> {
        Ok(self.pool.acquire().await?)
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<()> {
        sqlx::query("SELECT 1").execute(&self.pool).await?;
        Ok(())
    }

    /// Closes every connection (after the last write has been committed).
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }
}

/// The migrations in `migrations/`, compiled into the binary.
const MIGRATIONS: [(i64, &str, &str); 4] = [
    (1, "init", include_str!("../../migrations/0001_init.sql")),
    (
        2,
        "online",
        include_str!("../../migrations/0002_online.sql"),
    ),
    (
        3,
        "openings",
        include_str!("../../migrations/0003_openings.sql"),
    ),
    (
        4,
        "idempotency",
        include_str!("../../migrations/0004_idempotency.sql"),
    ),
];

fn migrator() -> Migrator {
    migrator_through(i64::MAX)
}

/// The migrations up to `version`.
fn migrator_through(version: i64) -> Migrator {
    Migrator::with_migrations(
        MIGRATIONS
            .into_iter()
            .filter(|&(v, _, _)| v <= version)
            .map(|(version, description, sql)| {
                Migration::new(
                    version,
                    description.into(),
                    MigrationType::Simple,
                    SqlStr::from_static(sql),
                    false,
                )
            })
            .collect(),
    )
}

/// Reads a column that the schema guarantees, naming the column on failure.
fn column<'r, T>(row: &'r sqlx::sqlite::SqliteRow, name: &str) -> Result<T>
where
    T: sqlx::Decode<'r, sqlx::Sqlite> + sqlx::Type<sqlx::Sqlite>,
{
    use sqlx::Row;
    Ok(row.try_get(name)?)
}

/// Every store function takes a connection, so the same code runs inside a
/// write transaction or on a plain read connection.
pub type Conn = SqliteConnection;

#[cfg(test)]
mod tests {
    use super::*;

    /// A database made by the first release, with a game under way, keeps
    /// everything when the later migrations run, and gains what they add.
    #[tokio::test]
    async fn a_database_of_the_first_release_is_migrated_without_loss() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("old.db").display());
        let options = SqliteConnectOptions::from_str(&url)
            .unwrap()
            .create_if_missing(true);
        let pool = SqlitePool::connect_with(options).await.unwrap();
        migrator_through(1).run(&pool).await.unwrap();
        for statement in [
            "INSERT INTO players (id, name, kind, token_hash, created_at)
             VALUES ('p_a', 'A', 'human', 'ha', '2026-01-01T00:00:00Z'),
                    ('p_b', 'B', 'human', 'hb', '2026-01-01T00:00:00Z')",
            "INSERT INTO games (id, rules, width, height, k, overline_wins, black_id, white_id, created_by,
                                status, ply, record, version, seed, created_at, updated_at, turn_started_at)
             VALUES ('g_old', 'freestyle', 15, 15, 5, 1, 'p_a', 'p_b', 'p_a', 'in_progress', 2, 'hhhgii',
                     4, 7, '2026-01-01T00:00:00Z', '2026-01-01T00:01:00Z', '2026-01-01T00:01:00Z')",
            "INSERT INTO moves (game_id, ply, x, y, color, played_at, thinking_ms) VALUES
                ('g_old', 1, 7, 7, 'black', '2026-01-01T00:00:10Z', 10000),
                ('g_old', 2, 7, 6, 'white', '2026-01-01T00:00:30Z', 20000),
                ('g_old', 3, 8, 8, 'black', '2026-01-01T00:00:40Z', 5000)",
        ] {
            sqlx::query(statement).execute(&pool).await.unwrap();
        }
        pool.close().await;

        let store = Store::open(&url).await.unwrap();
        let mut conn = store.read().await.unwrap();
        let (game, black, white) = game_with_players(&mut conn, "g_old")
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (game.ply, game.record.as_str(), game.version),
            (2, "hhhgii", 4)
        );
        assert_eq!(black.unwrap().name, "A");
        assert_eq!(white.unwrap().name, "B");
        // Thinking totals from the moves on the board (the third can be redone).
        assert_eq!(
            (game.black_thinking_ms, game.white_thinking_ms),
            (10000, 20000)
        );
        assert_eq!(game.idle_limit_ms, Some(600_000));
        assert_eq!(game.declines, "000000");
        assert_eq!(
            (game.invited, game.offer_kind, game.clock_main_ms),
            (None, None, None)
        );
        assert_eq!(moves(&mut conn, "g_old", 3).await.unwrap().len(), 3);
        assert_eq!(
            (game.opening_rule.as_str(), game.opening_log.as_str()),
            ("free", "")
        );
    }
}
