//! Persistence: players, games and moves in SQL through sqlx, on SQLite
//! (the embedded default, one file) or PostgreSQL (several instances on one
//! database).
//!
//! The store knows rows, not rules: the service decides what a game means and
//! hands the store the rows to write, one write transaction per action. The
//! service sees one interface whatever the database: a [`Store`] to write
//! and read through, and a [`Conn`] that every store function takes. Each
//! function's statements are written once and run on either backend (see
//! [`on_backend`]); where the two dialects differ, the function says so.
//!
//! On SQLite, writes go through one writer thread (see `writer`), so two
//! actions on one game are strictly one after the other. On PostgreSQL each
//! write is a transaction of its own; the version-checked updates make a
//! race between two instances end the same way (the loser sees the winner's
//! version). Either way a game's every state is kept for a day
//! (`game_versions`, written by a trigger), and on PostgreSQL every change is
//! announced to every instance (see [`Store::watch_changes`]).

mod changes;
mod games;
pub mod idempotency;
mod players;
mod ratings;
mod rows;
mod seeks;
mod writer;

use std::str::FromStr;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::pool::PoolConnection;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{
    PgConnection, PgPool, Postgres, SqlStr, Sqlite, SqliteConnection, SqlitePool, Transaction,
};

pub use changes::{Change, ChangeObserver};
pub use writer::BatchObserver;
use writer::Writer;

pub use games::{
    GameFilter, GameRow, MoveRow, NewGame, count_by_status, delete_moves_from, game_version_time,
    game_versions, game_with_players, insert_game, insert_move, list_games, moves, next_deadline,
    player_states_since, prune_game_versions, update_game, update_game_with_move,
};
pub use players::{
    NewPlayer, PlayerRow, ScoreChange, apply_score, ensure_computer, head_to_head, insert_player,
    leaderboard, player_by_id, player_by_token_hash, rename_player,
};
pub use ratings::{
    RatingChangeRow, RatingRow, delete_rating, delete_rating_changes, insert_rating_change,
    put_rating, rating_changes_of_game, rating_history, rating_leaderboard, rating_of, ratings_of,
};
use rows::column;
pub use seeks::{
    SeekRow, end_seek, expire_computer_seeks, insert_seek, last_opponents, lock_pool, seek_by_id,
    seeks_due_to_the_computer, set_seek_game, touch_seek, waiting_seeks,
};

/// A store failure: the database could not be reached or refused a statement.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    #[error("could not apply the database migrations: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    #[error(
        "unsupported database URL {0:?}: use sqlite:PATH (or a plain file path) or postgres://USER@HOST/DATABASE"
    )]
    UnsupportedUrl(String),
    #[error("the write batch holding this write failed to commit: {0}")]
    Batch(Arc<sqlx::Error>),
    #[error("stored data is inconsistent: {0}")]
    Corrupt(String),
}

pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// Which database a URL names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Sqlite,
    Postgres,
}

impl Kind {
    /// The backend for `url`: `postgres://` or `postgresql://` is
    /// PostgreSQL; `sqlite:` or a path without a scheme is SQLite.
    pub fn of(url: &str) -> Result<Kind> {
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Kind::Postgres)
        } else if url.starts_with("sqlite:") || !url.contains("://") {
            Ok(Kind::Sqlite)
        } else {
            Err(StoreError::UnsupportedUrl(url.to_string()))
        }
    }
}

/// `url` fit for a log: a password in it is replaced by `***`.
pub fn redacted(url: &str) -> String {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return url.to_string();
    };
    let rest = &url[scheme_end..];
    let authority_end = rest.find('/').unwrap_or(rest.len());
    match rest[..authority_end].rfind('@') {
        Some(at) => match rest[..at].find(':') {
            Some(colon) => format!(
                "{}{}:***{}",
                &url[..scheme_end],
                &rest[..colon],
                &rest[at..]
            ),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// The database behind gobang.
#[derive(Clone, Debug)]
pub struct Store {
    backend: Arc<Backend>,
}

#[derive(Debug)]
enum Backend {
    Sqlite {
        pool: SqlitePool,
        writer: Writer,
    },
    Postgres {
        pool: PgPool,
        observer: OnceLock<Arc<dyn BatchObserver>>,
        /// The runtime the store was opened on, where every connection is
        /// made (see [`pg_acquire`]).
        home: tokio::runtime::Handle,
    },
}

/// How a write job ended, for [`Store::finish_postgres`].
enum Ending<T> {
    Commit(T),
    Rollback(T),
}

impl Store {
    /// Opens (creating if missing) and migrates the database at `url`:
    /// `sqlite:gobang.db`, `sqlite::memory:`, a plain file path, or
    /// `postgres://user@host/database` (which must exist).
    pub async fn open(url: &str) -> Result<Store> {
        let backend = match Kind::of(url)? {
            Kind::Sqlite => open_sqlite(url).await?,
            Kind::Postgres => open_postgres(url).await?,
        };
        Ok(Store {
            backend: Arc::new(backend),
        })
    }

    /// Which database this is.
    pub fn kind(&self) -> Kind {
        match *self.backend {
            Backend::Sqlite { .. } => Kind::Sqlite,
            Backend::Postgres { .. } => Kind::Postgres,
        }
    }

    /// Runs `job`'s statements in one write transaction: its answer once
    /// committed, or its error with its changes undone. Callers write
    /// `store.write(move |tx| Box::pin(async move { … })).await`.
    pub async fn write<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, std::result::Result<T, E>>
            + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        match &*self.backend {
            Backend::Sqlite { writer, .. } => writer.write(job).await,
            Backend::Postgres {
                pool,
                observer,
                home,
            } => {
                let started = Instant::now();
                let pool = pool.clone();
                let tx = on_home(home, async move { pool.begin().await }).await?;
                let mut tx = Conn(Inner::PgTx(tx));
                let result = std::panic::AssertUnwindSafe(job(&mut tx))
                    .catch_unwind()
                    .await;
                let ending = match result {
                    Ok(Ok(value)) => Ending::Commit(Ok(value)),
                    Ok(Err(e)) => Ending::Rollback(Err(e)),
                    Err(_) => {
                        Ending::Rollback(Err(StoreError::Corrupt("a write panicked".into()).into()))
                    }
                };
                finish_postgres(tx, ending, observer, started).await
            }
        }
    }

    /// [`Store::write`] for a job that changes nothing when it refuses (its
    /// inner error) and fails after a change only when the database does
    /// (its outer error: on SQLite the whole batch is then rolled back and
    /// every write in it fails). One statement fewer than [`Store::write`]
    /// on SQLite; the same on PostgreSQL.
    pub async fn write_unguarded<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, Result<std::result::Result<T, E>>>
            + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        match &*self.backend {
            Backend::Sqlite { writer, .. } => writer.write_unguarded(job).await,
            Backend::Postgres { .. } => {
                self.write(move |tx| {
                    Box::pin(async move {
                        match job(tx).await {
                            Ok(result) => result,
                            Err(e) => Err(E::from(e)),
                        }
                    })
                })
                .await
            }
        }
    }

    /// Commits the writes still waiting in a batch, so that a read sees
    /// them: for a writer whose version check failed. (PostgreSQL answers a
    /// write only once it is committed: nothing waits.)
    pub async fn settle(&self) {
        if let Backend::Sqlite { writer, .. } = &*self.backend {
            writer.settle().await
        }
    }

    /// Reports each committed write batch (on PostgreSQL, each write) to
    /// `observer`.
    pub fn observe_batches(&self, observer: Arc<dyn BatchObserver>) {
        match &*self.backend {
            Backend::Sqlite { writer, .. } => writer.observe(observer),
            Backend::Postgres { observer: slot, .. } => {
                let _ = slot.set(observer);
            }
        }
    }

    /// Tells `observer` of every change to a game committed by any instance
    /// sharing this database (PostgreSQL: LISTEN/NOTIFY), this one included.
    /// SQLite has one instance, which knows its own changes: nothing to do.
    pub fn watch_changes(&self, observer: Arc<dyn ChangeObserver>) {
        if let Backend::Postgres { pool, home, .. } = &*self.backend {
            home.spawn(changes::listen(pool.clone(), observer));
        }
    }

    /// A connection for reading.
    pub async fn read(&self) -> Result<Conn> {
        Ok(Conn(match &*self.backend {
            Backend::Sqlite { pool, .. } => Inner::SqlitePooled(pool.acquire().await?),
            Backend::Postgres { pool, home, .. } => {
                let pool = pool.clone();
                Inner::PgPooled(on_home(home, async move { pool.acquire().await }).await?)
            }
        }))
    }

    /// Whether the database answers.
    pub async fn ping(&self) -> Result<()> {
        let mut conn = self.read().await?;
        on_backend!(conn, c => sqlx::query("SELECT 1").execute(c).await.map(drop)?);
        Ok(())
    }

    /// Closes every connection (after the last write has been committed).
    pub async fn close(&self) {
        match &*self.backend {
            Backend::Sqlite { pool, writer } => {
                writer.close().await;
                pool.close().await;
            }
            Backend::Postgres { pool, .. } => pool.close().await,
        }
    }
}

/// Commits or rolls back a PostgreSQL write; its answer.
async fn finish_postgres<T, E: From<StoreError>>(
    tx: Conn,
    ending: Ending<std::result::Result<T, E>>,
    observer: &OnceLock<Arc<dyn BatchObserver>>,
    started: Instant,
) -> std::result::Result<T, E> {
    let Inner::PgTx(tx) = tx.0 else {
        unreachable!("a PostgreSQL write runs in a PostgreSQL transaction")
    };
    match ending {
        Ending::Commit(value) => {
            tx.commit().await.map_err(StoreError::from)?;
            if let Some(observer) = observer.get() {
                observer.committed(1, started.elapsed().as_secs_f64());
            }
            value
        }
        Ending::Rollback(value) => {
            // Dropping the transaction would roll it back too, later.
            let _ = tx.rollback().await;
            value
        }
    }
}

async fn open_sqlite(url: &str) -> Result<Backend> {
    let options = if url.starts_with("sqlite:") {
        SqliteConnectOptions::from_str(url)?
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
    migrator(Kind::Sqlite).run(&pool).await?;
    Ok(Backend::Sqlite {
        writer: Writer::start(options).await?,
        pool,
    })
}

/// Connections each PostgreSQL-backed instance keeps at most
/// (`GOBANG_PG_CONNECTIONS`, default 16): with several instances, their sum
/// stays under the server's `max_connections`.
fn postgres_connections() -> u32 {
    std::env::var("GOBANG_PG_CONNECTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(16)
}

async fn open_postgres(url: &str) -> Result<Backend> {
    let options = PgConnectOptions::from_str(url)?;
    let pool = PgPoolOptions::new()
        .max_connections(postgres_connections())
        .min_connections(1)
        .acquire_timeout(Duration::from_secs(10))
        .connect_with(options)
        .await?;
    // Instances starting together take turns: sqlx's migrator holds an
    // advisory lock on PostgreSQL while it runs.
    migrator(Kind::Postgres).run(&pool).await?;
    Ok(Backend::Postgres {
        pool,
        observer: OnceLock::new(),
        home: tokio::runtime::Handle::current(),
    })
}

/// Runs `connect` (taking a connection from the pool, which may open one)
/// on the store's home runtime. A PostgreSQL connection's socket belongs to
/// the runtime that opened it, and the HTTP server runs a runtime per
/// worker thread: a connection opened on a worker would stop working for
/// every other worker once that one stops (as each does on a graceful
/// stop, while others still finish their requests). The home runtime lives
/// as long as the store.
async fn on_home<T, F>(home: &tokio::runtime::Handle, connect: F) -> Result<T>
where
    F: std::future::Future<Output = std::result::Result<T, sqlx::Error>> + Send + 'static,
    T: Send + 'static,
{
    match home.spawn(connect).await {
        Ok(connection) => Ok(connection?),
        // The store's runtime stopped, or the task panicked.
        Err(_) => Err(StoreError::Database(sqlx::Error::WorkerCrashed)),
    }
}

/// One migration, the same change in each dialect, kept side by side in
/// `migrations/sqlite/` and `migrations/postgres/`.
struct Step {
    version: i64,
    description: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

macro_rules! step {
    ($version:literal, $description:literal, $file:literal) => {
        Step {
            version: $version,
            description: $description,
            sqlite: include_str!(concat!("../../migrations/sqlite/", $file)),
            postgres: include_str!(concat!("../../migrations/postgres/", $file)),
        }
    };
}

/// The migrations, compiled into the binary.
const MIGRATIONS: [Step; 9] = [
    step!(1, "init", "0001_init.sql"),
    step!(2, "online", "0002_online.sql"),
    step!(3, "openings", "0003_openings.sql"),
    step!(4, "idempotency", "0004_idempotency.sql"),
    step!(5, "game versions", "0005_game_versions.sql"),
    step!(6, "ratings", "0006_ratings.sql"),
    step!(7, "seeks", "0007_seeks.sql"),
    step!(8, "seat ratings", "0008_seat_ratings.sql"),
    step!(9, "seek computer", "0009_seek_computer.sql"),
];

fn migrator(kind: Kind) -> Migrator {
    migrator_through(kind, i64::MAX)
}

/// The migrations up to `version`.
fn migrator_through(kind: Kind, version: i64) -> Migrator {
    Migrator::with_migrations(
        MIGRATIONS
            .iter()
            .filter(|step| step.version <= version)
            .map(|step| {
                let sql = match kind {
                    Kind::Sqlite => step.sqlite,
                    Kind::Postgres => step.postgres,
                };
                Migration::new(
                    step.version,
                    step.description.into(),
                    MigrationType::Simple,
                    SqlStr::from_static(sql),
                    false,
                )
            })
            .collect(),
    )
}

/// A connection every store function takes, so the same code runs inside a
/// write transaction or on a plain read connection, on either database.
pub struct Conn(Inner);

enum Inner {
    /// The SQLite writer's own connection.
    Sqlite(SqliteConnection),
    SqlitePooled(PoolConnection<Sqlite>),
    PgPooled(PoolConnection<Postgres>),
    PgTx(Transaction<'static, Postgres>),
}

impl std::fmt::Debug for Conn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self.0 {
            Inner::Sqlite(_) | Inner::SqlitePooled(_) => "Conn(sqlite)",
            Inner::PgPooled(_) | Inner::PgTx(_) => "Conn(postgres)",
        })
    }
}

/// The connection under a [`Conn`], for a store function to run its
/// statements on.
pub(crate) enum Raw<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

impl Conn {
    fn sqlite(conn: SqliteConnection) -> Conn {
        Conn(Inner::Sqlite(conn))
    }

    pub(crate) fn raw(&mut self) -> Raw<'_> {
        match &mut self.0 {
            Inner::Sqlite(c) => Raw::Sqlite(c),
            Inner::SqlitePooled(c) => Raw::Sqlite(c),
            Inner::PgPooled(c) => Raw::Postgres(c),
            Inner::PgTx(c) => Raw::Postgres(c),
        }
    }

    /// The SQLite writer's connection back, to close it.
    fn into_sqlite(self) -> Option<SqliteConnection> {
        match self.0 {
            Inner::Sqlite(c) => Some(c),
            _ => None,
        }
    }
}

/// Runs `$body` on the connection under `$conn`, named `$c`, whichever the
/// database: the statements are written once and compiled for each
/// backend. Where the dialects differ, use `Raw` directly.
macro_rules! on_backend {
    ($conn:expr, $c:ident => $body:expr) => {
        match $conn.raw() {
            $crate::store::Raw::Sqlite($c) => $body,
            $crate::store::Raw::Postgres($c) => $body,
        }
    };
}
pub(crate) use on_backend;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_logged_url_shows_no_password() {
        assert_eq!(
            redacted("postgres://gobang:s3cret@db.internal:5432/gobang"),
            "postgres://gobang:***@db.internal:5432/gobang"
        );
        assert_eq!(
            redacted("postgres://postgres@127.0.0.1/test"),
            "postgres://postgres@127.0.0.1/test"
        );
        assert_eq!(redacted("sqlite:gobang.db"), "sqlite:gobang.db");
    }

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
        migrator_through(Kind::Sqlite, 1).run(&pool).await.unwrap();
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
