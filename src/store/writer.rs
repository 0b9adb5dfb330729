//! Group commit: the writes of many requests in one SQLite transaction.
//!
//! SQLite has one writer at a time, and most of a small write's cost is
//! the transaction around it (taking the write lock, appending the changed
//! pages to the WAL at commit). So the writers queue here, in the process,
//! one at a time on one connection, each inside a savepoint of a shared
//! transaction; the transaction is committed when nobody else is waiting
//! (or the batch is full), and only then is each writer told its commit
//! succeeded. A writer's own changes are undone alone (its savepoint rolled
//! back) when it fails or gives up; the batch goes on without it.
//!
//! Nobody is answered before the commit that holds their write, so a client
//! is never told of a change that a crash could lose. A reader on another
//! connection does not see a write until its batch is committed; a writer
//! whose version check failed against an uncommitted write asks for the
//! batch to be committed ([`Writer::settle`]) before it reads again.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use sqlx::pool::PoolConnection;
use sqlx::{Sqlite, SqliteConnection, SqlitePool};
use tokio::sync::{Mutex, OwnedMutexGuard, oneshot};

use super::{Result, StoreError};

/// More writers than this wait for the next batch, so that no writer waits
/// on an endless batch.
const MAX_BATCH: usize = 128;

/// What a batch's commit said, to each writer in it.
type Outcome = std::result::Result<(), Arc<sqlx::Error>>;

/// Reports on each committed batch, for metrics.
pub trait BatchObserver: Send + Sync + std::fmt::Debug {
    fn committed(&self, writes: usize, seconds: f64);
}

#[derive(Default)]
struct State {
    /// The writers' connection, taken from the pool when first needed.
    conn: Option<PoolConnection<Sqlite>>,
    /// A batch transaction is open.
    open: bool,
    /// A writer left without releasing or rolling back its savepoint.
    dirty: bool,
    /// The writers whose changes are in the open batch, waiting for its commit.
    members: Vec<oneshot::Sender<Outcome>>,
}

#[derive(Debug)]
pub(super) struct Writer {
    pool: SqlitePool,
    state: Arc<Mutex<State>>,
    /// Writers holding or waiting for the turn.
    queued: Arc<AtomicUsize>,
    observer: std::sync::OnceLock<Arc<dyn BatchObserver>>,
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("State")
            .field("open", &self.open)
            .field("members", &self.members.len())
            .finish()
    }
}

async fn execute(conn: &mut SqliteConnection, sql: &'static str) -> Result<()> {
    sqlx::raw_sql(sql).execute(conn).await?;
    Ok(())
}

impl State {
    fn conn(&mut self) -> &mut SqliteConnection {
        self.conn.as_mut().expect("the writers' connection is open")
    }

    /// Undoes what a writer that gave up left in its savepoint.
    async fn clean(&mut self) -> Result<()> {
        if self.dirty {
            let conn = self.conn();
            execute(conn, "ROLLBACK TO SAVEPOINT write").await?;
            self.dirty = false;
        }
        Ok(())
    }

    /// Opens a savepoint for the next writer, in a new batch if none is open.
    async fn open_savepoint(&mut self, pool: &SqlitePool) -> Result<()> {
        if self.open
            && let Err(e) = self.clean().await
        {
            // The batch cannot be trusted: its writers are told, and the
            // connection closed, rolling it back.
            self.fail(e);
        }
        if self.conn.is_none() {
            self.conn = Some(pool.acquire().await?);
        }
        if !self.open {
            if let Err(e) = execute(self.conn(), "BEGIN IMMEDIATE").await {
                self.discard_connection();
                return Err(e);
            }
            self.open = true;
        }
        if let Err(e) = execute(self.conn(), "SAVEPOINT write").await {
            self.fail(e);
            return Err(StoreError::Corrupt(
                "could not open a savepoint for a write".into(),
            ));
        }
        Ok(())
    }

    /// Closes the connection (SQLite rolls back whatever it had open) rather
    /// than give it back to the pool in an unknown state.
    fn discard_connection(&mut self) {
        if let Some(conn) = self.conn.take() {
            drop(conn.detach());
        }
        self.open = false;
        self.dirty = false;
    }

    /// Ends the open batch without committing: its writers are told.
    fn fail(&mut self, error: StoreError) {
        tracing::error!(%error, writes = self.members.len(), "a write batch failed");
        self.discard_connection();
        let error = Arc::new(match error {
            StoreError::Database(e) => e,
            other => sqlx::Error::Protocol(other.to_string()),
        });
        for member in std::mem::take(&mut self.members) {
            let _ = member.send(Err(error.clone()));
        }
    }

    /// Commits the open batch and tells its writers how it went.
    async fn flush(&mut self, observer: Option<&Arc<dyn BatchObserver>>) {
        if !self.open {
            return;
        }
        let started = Instant::now();
        let outcome = match self.clean().await {
            Ok(()) => execute(self.conn(), "COMMIT").await,
            Err(e) => Err(e),
        };
        match outcome {
            Ok(()) => {
                self.open = false;
                let members = std::mem::take(&mut self.members);
                if let Some(observer) = observer {
                    observer.committed(members.len(), started.elapsed().as_secs_f64());
                }
                for member in members {
                    let _ = member.send(Ok(()));
                }
            }
            Err(e) => self.fail(e),
        }
    }
}

impl Writer {
    pub(super) fn new(pool: SqlitePool) -> Writer {
        Writer {
            pool,
            state: Arc::default(),
            queued: Arc::default(),
            observer: std::sync::OnceLock::new(),
        }
    }

    pub(super) fn observe(&self, observer: Arc<dyn BatchObserver>) {
        let _ = self.observer.set(observer);
    }

    /// Waits for the turn, and opens a savepoint for this writer (in a new
    /// batch if none is open).
    pub(super) async fn begin(&self) -> Result<WriteTx> {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut state = self.state.clone().lock_owned().await;
        let observer = self.observer.get().cloned();
        match state.open_savepoint(&self.pool).await {
            Ok(()) => Ok(WriteTx {
                state: Some(state),
                queued: self.queued.clone(),
                observer,
            }),
            Err(e) => {
                leave(state, &self.queued, observer);
                Err(e)
            }
        }
    }

    /// Commits the open batch now, if there is one: after it, every write
    /// made so far can be read on any connection.
    pub(super) async fn settle(&self) {
        self.queued.fetch_add(1, Ordering::SeqCst);
        let mut state = self.state.lock().await;
        self.queued.fetch_sub(1, Ordering::SeqCst);
        state.flush(self.observer.get()).await;
    }

    /// Commits what is open and gives the connection back to the pool.
    pub(super) async fn close(&self) {
        let mut state = self.state.lock().await;
        state.flush(self.observer.get()).await;
        state.discard_connection();
    }
}

/// One writer's turn: its changes, in a savepoint of the batch, are kept
/// by [`WriteTx::commit`] and undone if it is dropped.
pub struct WriteTx {
    state: Option<OwnedMutexGuard<State>>,
    queued: Arc<AtomicUsize>,
    observer: Option<Arc<dyn BatchObserver>>,
}

impl WriteTx {
    /// Keeps this writer's changes and returns once they are committed.
    /// (Its savepoint stays open: the batch's commit keeps what is inside
    /// every savepoint, and a later writer's rollback goes back only to its
    /// own, the most recent; a release would cost one more statement.)
    pub async fn commit(mut self) -> Result<()> {
        let mut state = self.state.take().expect("held until commit or drop");
        let (sender, receiver) = oneshot::channel();
        state.members.push(sender);
        let others = self.queued.fetch_sub(1, Ordering::SeqCst) - 1;
        if others == 0 || state.members.len() >= MAX_BATCH {
            state.flush(self.observer.as_ref()).await;
        }
        drop(state);
        match receiver.await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(e)) => Err(StoreError::Batch(e)),
            Err(_) => Err(StoreError::Corrupt(
                "a write batch ended without a word".into(),
            )),
        }
    }
}

/// Passes the turn on: the next writer undoes a savepoint left dirty, or,
/// when nobody waits, a task does and commits the batch for the writers
/// already in it.
fn leave(
    mut state: OwnedMutexGuard<State>,
    queued: &AtomicUsize,
    observer: Option<Arc<dyn BatchObserver>>,
) {
    let others = queued.fetch_sub(1, Ordering::SeqCst) - 1;
    if others == 0 && state.open {
        tokio::spawn(async move { state.flush(observer.as_ref()).await });
    }
}

impl Drop for WriteTx {
    fn drop(&mut self) {
        if let Some(mut state) = self.state.take() {
            state.dirty = true;
            leave(state, &self.queued, self.observer.clone());
        }
    }
}

impl std::ops::Deref for WriteTx {
    type Target = SqliteConnection;
    fn deref(&self) -> &SqliteConnection {
        self.state
            .as_ref()
            .and_then(|s| s.conn.as_deref())
            .expect("the writers' connection is open")
    }
}

impl std::ops::DerefMut for WriteTx {
    fn deref_mut(&mut self) -> &mut SqliteConnection {
        self.state.as_mut().expect("held").conn()
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;
    use std::sync::Mutex as StdMutex;

    use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};

    use super::*;

    #[derive(Debug, Default)]
    struct Batches(StdMutex<Vec<usize>>);

    impl BatchObserver for Batches {
        fn committed(&self, writes: usize, _seconds: f64) {
            self.0.lock().unwrap().push(writes);
        }
    }

    async fn pool(dir: &tempfile::TempDir) -> SqlitePool {
        let url = format!("sqlite:{}", dir.path().join("w.db").display());
        let options = SqliteConnectOptions::from_str(&url)
            .unwrap()
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options)
            .await
            .unwrap();
        sqlx::raw_sql("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .execute(&pool)
            .await
            .unwrap();
        pool
    }

    async fn stored(pool: &SqlitePool) -> Vec<i64> {
        sqlx::query_scalar("SELECT n FROM t ORDER BY n")
            .fetch_all(pool)
            .await
            .unwrap()
    }

    /// Writers racing share batches; each one's changes are kept or undone
    /// alone: committed ones are all stored once their commit returns,
    /// those that gave up (dropped, or failed on a statement) leave nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn racing_writers_share_batches_and_fail_alone() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir).await;
        let writer = Arc::new(Writer::new(pool.clone()));
        let batches = Arc::new(Batches::default());
        writer.observe(batches.clone());
        let tasks: Vec<_> = (0..200i64)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move {
                    let mut tx = writer.begin().await.unwrap();
                    sqlx::query("INSERT INTO t (n) VALUES ($1)")
                        .bind(n)
                        .execute(&mut *tx)
                        .await
                        .unwrap();
                    tokio::task::yield_now().await;
                    match n % 5 {
                        // Gives up: its row must go.
                        0 => None,
                        // Fails on a second statement (a duplicate key), then gives up.
                        1 => {
                            let duplicate = sqlx::query("INSERT INTO t (n) VALUES ($1)")
                                .bind(n)
                                .execute(&mut *tx)
                                .await;
                            assert!(duplicate.is_err());
                            None
                        }
                        _ => {
                            tx.commit().await.unwrap();
                            Some(n)
                        }
                    }
                })
            })
            .collect();
        let mut committed = Vec::new();
        for task in tasks {
            if let Some(n) = task.await.unwrap() {
                // Once told, it is there for any reader.
                committed.push(n);
            }
        }
        writer.settle().await;
        committed.sort();
        assert_eq!(stored(&pool).await, committed);
        let batches = batches.0.lock().unwrap().clone();
        assert_eq!(batches.iter().sum::<usize>(), committed.len());
        assert!(
            batches.iter().any(|&n| n > 1),
            "racing writers should share a commit: {batches:?}"
        );
    }

    /// A commit that returns means a reader on another connection sees it.
    #[tokio::test]
    async fn a_returned_commit_is_visible_to_readers() {
        let dir = tempfile::tempdir().unwrap();
        let pool = pool(&dir).await;
        let writer = Writer::new(pool.clone());
        for n in 0..3 {
            let mut tx = writer.begin().await.unwrap();
            sqlx::query("INSERT INTO t (n) VALUES ($1)")
                .bind(n)
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
            assert_eq!(stored(&pool).await.len(), n as usize + 1);
        }
        writer.close().await;
        pool.close().await;
    }
}
