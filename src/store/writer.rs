//! Group commit: the writes of many requests in one SQLite transaction, on
//! a thread of their own.
//!
//! SQLite has one writer at a time, so writes queue anyway; the question is
//! what a write costs while the others wait. Here a write is a job handed
//! to the writer thread, which runs the jobs one after the other on its own
//! connection, each inside a savepoint of one transaction, and commits when
//! no job is left waiting (or the batch is full). Only then is each job's
//! caller answered. On its own thread, the writer is never kept waiting by
//! the HTTP work of the server's workers between two statements of a job,
//! and one commit serves a whole burst.
//!
//! A job that fails has its savepoint rolled back and its error returned at
//! once; the batch goes on without it. Nobody is told of a success before
//! the commit that holds it, so a crash can lose nothing a client was told.
//! A reader on another connection does not see a write until its batch is
//! committed: a writer whose version check failed against a write still in
//! a batch asks for a commit ([`Writer::settle`]) before it reads again.

use std::panic::AssertUnwindSafe;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use futures_util::FutureExt;
use futures_util::future::BoxFuture;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection, SqliteConnection};
use tokio::sync::{mpsc, oneshot};

use super::{Conn, Raw, Result, StoreError};

/// Jobs beyond this wait for the next batch, so that no caller waits on an
/// endless one.
const MAX_BATCH: usize = 256;

/// What a batch's commit said, to each job in it.
type Outcome = std::result::Result<(), Arc<sqlx::Error>>;

/// Reports on each committed batch, for metrics.
pub trait BatchObserver: Send + Sync + std::fmt::Debug {
    fn committed(&self, writes: usize, seconds: f64);
}

/// How a job ended, for the batch.
enum Step {
    /// Its changes (if any) stay.
    Keep,
    /// Its changes are to be undone (back to its savepoint).
    Undo,
    /// The database failed under it: the whole batch is rolled back.
    Poison(StoreError),
}

/// A write's statements.
type Work = Box<dyn for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, Step> + Send>;

struct Job {
    work: Work,
    /// Runs inside a savepoint of its own (else it promises to change
    /// nothing when it refuses, and to fail only with the database).
    guarded: bool,
    /// Told how the batch holding the job ended.
    done: oneshot::Sender<Outcome>,
}

enum Command {
    Write(Job),
    /// Commit what is open, close the connection, stop.
    Close(oneshot::Sender<()>),
}

/// The handle to the writer thread.
#[derive(Debug)]
pub(super) struct Writer {
    commands: mpsc::UnboundedSender<Command>,
    observer: Arc<OnceLock<Arc<dyn BatchObserver>>>,
}

fn shared(e: StoreError) -> Arc<sqlx::Error> {
    Arc::new(match e {
        StoreError::Database(e) => e,
        other => sqlx::Error::Protocol(other.to_string()),
    })
}

async fn execute(conn: &mut SqliteConnection, sql: &'static str) -> Result<()> {
    sqlx::raw_sql(sql).execute(conn).await?;
    Ok(())
}

/// The writer's connection under its [`Conn`].
fn sqlite(conn: &mut Conn) -> &mut SqliteConnection {
    match conn.raw() {
        Raw::Sqlite(c) => c,
        Raw::Postgres(_) => unreachable!("the SQLite writer holds a SQLite connection"),
    }
}

impl Writer {
    /// Connects (failing here if the database cannot be opened) and starts
    /// the writer thread.
    pub(super) async fn start(options: SqliteConnectOptions) -> Result<Writer> {
        let conn = options.connect().await?;
        let (commands, receiver) = mpsc::unbounded_channel();
        let observer: Arc<OnceLock<Arc<dyn BatchObserver>>> = Arc::default();
        let thread = Thread {
            conn: Some(Conn::sqlite(conn)),
            options,
            observer: observer.clone(),
        };
        std::thread::Builder::new()
            .name("gobang-writer".into())
            .spawn(move || {
                let runtime = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                    .expect("a runtime for the writer thread");
                runtime.block_on(thread.run(receiver));
            })
            .map_err(|e| StoreError::Corrupt(format!("could not start the writer thread: {e}")))?;
        Ok(Writer { commands, observer })
    }

    pub(super) fn observe(&self, observer: Arc<dyn BatchObserver>) {
        let _ = self.observer.set(observer);
    }

    /// Runs `job` in the writer's transaction; its answer once committed
    /// (an error at once, with its changes undone).
    pub(super) async fn write<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(&'c mut Conn) -> BoxFuture<'c, std::result::Result<T, E>>
            + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (result_tx, result_rx) = oneshot::channel();
        let work: Work = Box::new(move |conn| {
            Box::pin(async move {
                let result = job(conn).await;
                let step = if result.is_ok() {
                    Step::Keep
                } else {
                    Step::Undo
                };
                let _ = result_tx.send(result);
                step
            })
        });
        self.submit(work, true, result_rx).await
    }

    /// [`Writer::write`] for a job that makes no change when it refuses (its
    /// inner error) and fails after a change only when the database does
    /// (its outer error, which rolls back the whole batch and fails every
    /// job in it). It needs no savepoint: one statement fewer, for the
    /// writes that matter most (a move).
    pub(super) async fn write_unguarded<T, E, F>(&self, job: F) -> std::result::Result<T, E>
    where
        F: for<'c> FnOnce(
                &'c mut Conn,
            ) -> BoxFuture<
                'c,
                std::result::Result<std::result::Result<T, E>, StoreError>,
            > + Send
            + 'static,
        T: Send + 'static,
        E: From<StoreError> + Send + 'static,
    {
        let (result_tx, result_rx) = oneshot::channel();
        let work: Work = Box::new(move |conn| {
            Box::pin(async move {
                match job(conn).await {
                    Ok(result) => {
                        let _ = result_tx.send(result);
                        Step::Keep
                    }
                    Err(e) => Step::Poison(e),
                }
            })
        });
        self.submit(work, false, result_rx).await
    }

    async fn submit<T, E: From<StoreError>>(
        &self,
        work: Work,
        guarded: bool,
        result_rx: oneshot::Receiver<std::result::Result<T, E>>,
    ) -> std::result::Result<T, E> {
        let (done, committed) = oneshot::channel();
        let gone = || StoreError::Corrupt("the writer thread has stopped".into());
        self.commands
            .send(Command::Write(Job {
                work,
                guarded,
                done,
            }))
            .map_err(|_| gone())?;
        match result_rx.await {
            Ok(Err(e)) => Err(e),
            Ok(Ok(value)) => match committed.await {
                Ok(Ok(())) => Ok(value),
                Ok(Err(e)) => Err(StoreError::Batch(e).into()),
                Err(_) => Err(gone().into()),
            },
            // The job never ran (no transaction could be opened) or panicked.
            Err(_) => match committed.await {
                Ok(Err(e)) => Err(StoreError::Batch(e).into()),
                _ => Err(StoreError::Corrupt("a write failed without a word".into()).into()),
            },
        }
    }

    /// Returns once every write handed over so far is committed.
    pub(super) async fn settle(&self) {
        let _ = self
            .write(|_| Box::pin(async { Ok::<_, StoreError>(()) }))
            .await;
    }

    /// Commits what is open and closes the writer's connection.
    pub(super) async fn close(&self) {
        let (ack, closed) = oneshot::channel();
        if self.commands.send(Command::Close(ack)).is_ok() {
            let _ = closed.await;
        }
    }
}

/// Copies the WAL back into the database file now and then, on a
/// connection of its own, so that a commit never waits for it (SQLite's
/// automatic checkpoint, which would run inside a commit, is off). Passive
/// (never waiting for the writer or readers) as a rule; but SQLite starts
/// the WAL file over only when no reader is using it, which a busy server's
/// readers rarely allow, so once it has grown past `LARGE` a truncating
/// checkpoint waits a moment for the readers and starts it over. Ends with
/// the writer thread.
async fn checkpoints(options: SqliteConnectOptions) {
    const EVERY: std::time::Duration = std::time::Duration::from_millis(500);
    /// WAL pages (of 4 KiB): 64 MiB.
    const LARGE: i64 = 16_384;
    let mut conn = None;
    loop {
        tokio::time::sleep(EVERY).await;
        if conn.is_none() {
            conn = options.connect().await.ok();
        }
        let Some(c) = conn.as_mut() else { continue };
        let passive: std::result::Result<(i64, i64, i64), _> =
            sqlx::query_as("PRAGMA wal_checkpoint(PASSIVE)")
                .fetch_one(&mut *c)
                .await;
        let result = match passive {
            Ok((_, pages, _)) if pages > LARGE => {
                execute(c, "PRAGMA wal_checkpoint(TRUNCATE)").await
            }
            Ok(_) => Ok(()),
            Err(e) => Err(e.into()),
        };
        if let Err(e) = result {
            tracing::warn!(error = %e, "a checkpoint failed; trying again");
            conn = None;
        }
    }
}

/// The writer thread's side.
struct Thread {
    conn: Option<Conn>,
    options: SqliteConnectOptions,
    observer: Arc<OnceLock<Arc<dyn BatchObserver>>>,
}

impl Thread {
    async fn run(mut self, mut commands: mpsc::UnboundedReceiver<Command>) {
        tokio::spawn(checkpoints(self.options.clone()));
        while let Some(first) = commands.recv().await {
            let mut next = Some(first);
            let mut batch = Vec::new();
            let mut open = false;
            let mut broken = None;
            let mut closing = None;
            let started = Instant::now();
            while let Some(command) = next.take() {
                match command {
                    Command::Close(ack) => {
                        closing = Some(ack);
                        break;
                    }
                    Command::Write(job) => {
                        if !open {
                            match self.begin().await {
                                Ok(()) => open = true,
                                Err(e) => {
                                    let _ = job.done.send(Err(shared(e)));
                                    break;
                                }
                            }
                        }
                        if let Err(e) = self.step(job.work, job.guarded).await {
                            broken = Some(e);
                        }
                        batch.push(job.done);
                    }
                }
                if broken.is_none() && batch.len() < MAX_BATCH {
                    next = commands.try_recv().ok();
                }
            }
            if open {
                self.end(batch, broken, started).await;
            }
            if let Some(ack) = closing {
                self.close().await;
                let _ = ack.send(());
                return;
            }
        }
        self.close().await;
    }

    async fn close(&mut self) {
        if let Some(conn) = self.conn.take().and_then(Conn::into_sqlite) {
            let _ = conn.close().await;
        }
    }

    fn conn(&mut self) -> &mut SqliteConnection {
        sqlite(self.conn.as_mut().expect("connected before a batch"))
    }

    /// Opens a batch, connecting again first if the last one was lost.
    async fn begin(&mut self) -> Result<()> {
        if self.conn.is_none() {
            self.conn = Some(Conn::sqlite(self.options.connect().await?));
        }
        if let Err(e) = execute(self.conn(), "BEGIN IMMEDIATE").await {
            self.conn = None;
            return Err(e);
        }
        Ok(())
    }

    /// Runs one job in its savepoint; an error here means the batch cannot
    /// be trusted.
    async fn step(&mut self, work: Work, guarded: bool) -> Result<()> {
        if guarded {
            execute(self.conn(), "SAVEPOINT write").await?;
        }
        // A job that panics is a job that failed: its changes are undone.
        let conn = self.conn.as_mut().expect("connected before a batch");
        let step = AssertUnwindSafe(work(conn))
            .catch_unwind()
            .await
            .unwrap_or_else(|_| {
                if guarded {
                    Step::Undo
                } else {
                    Step::Poison(StoreError::Corrupt("a write panicked".into()))
                }
            });
        match step {
            Step::Keep => Ok(()),
            // Kept savepoints are never released: the commit keeps what is
            // in them, and a rollback goes back only to the latest one.
            Step::Undo if guarded => execute(self.conn(), "ROLLBACK TO SAVEPOINT write").await,
            Step::Undo => Err(StoreError::Corrupt(
                "an unguarded write asked to be undone".into(),
            )),
            Step::Poison(e) => Err(e),
        }
    }

    /// Commits the batch (or, broken, rolls it back) and tells its jobs.
    async fn end(
        &mut self,
        batch: Vec<oneshot::Sender<Outcome>>,
        broken: Option<StoreError>,
        started: Instant,
    ) {
        let outcome = match broken {
            None => execute(self.conn(), "COMMIT").await,
            Some(e) => Err(e),
        };
        let outcome = match outcome {
            Ok(()) => {
                if let Some(observer) = self.observer.get() {
                    observer.committed(batch.len(), started.elapsed().as_secs_f64());
                }
                Ok(())
            }
            Err(e) => {
                tracing::error!(error = %e, writes = batch.len(), "a write batch failed");
                // Closing the connection rolls back whatever it had open.
                self.conn = None;
                Err(shared(e))
            }
        };
        for done in batch {
            let _ = done.send(outcome.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use std::str::FromStr;
    use std::sync::Mutex as StdMutex;

    use sqlx::SqlitePool;
    use sqlx::sqlite::{SqliteJournalMode, SqlitePoolOptions};

    use super::*;

    #[derive(Debug, Default)]
    struct Batches(StdMutex<Vec<usize>>);

    impl BatchObserver for Batches {
        fn committed(&self, writes: usize, _seconds: f64) {
            self.0.lock().unwrap().push(writes);
        }
    }

    async fn open(dir: &tempfile::TempDir) -> (SqlitePool, Writer) {
        let url = format!("sqlite:{}", dir.path().join("w.db").display());
        let options = SqliteConnectOptions::from_str(&url)
            .unwrap()
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal);
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.clone())
            .await
            .unwrap();
        sqlx::raw_sql("CREATE TABLE t (n INTEGER PRIMARY KEY)")
            .execute(&pool)
            .await
            .unwrap();
        (pool, Writer::start(options).await.unwrap())
    }

    async fn stored(pool: &SqlitePool) -> Vec<i64> {
        sqlx::query_scalar("SELECT n FROM t ORDER BY n")
            .fetch_all(pool)
            .await
            .unwrap()
    }

    async fn insert(conn: &mut Conn, n: i64) -> Result<()> {
        sqlx::query("INSERT INTO t (n) VALUES ($1)")
            .bind(n)
            .execute(sqlite(conn))
            .await?;
        Ok(())
    }

    /// Racing writes share batches; each one's changes are kept or undone
    /// alone: the successful ones are all stored once they are answered,
    /// the failed ones (an error of their own, a failed statement, a
    /// panic) leave nothing.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn racing_writes_share_batches_and_fail_alone() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, writer) = open(&dir).await;
        let writer = Arc::new(writer);
        let batches = Arc::new(Batches::default());
        writer.observe(batches.clone());
        let tasks: Vec<_> = (0..300i64)
            .map(|n| {
                let writer = writer.clone();
                tokio::spawn(async move {
                    writer
                        .write(move |conn| {
                            Box::pin(async move {
                                insert(conn, n).await?;
                                match n % 5 {
                                    0 => Err(StoreError::Corrupt("gives up".into())),
                                    // The second insert fails on the key.
                                    1 => insert(conn, n).await.map(|()| n),
                                    2 if n % 3 == 0 => panic!("a job that panics"),
                                    _ => Ok(n),
                                }
                            })
                        })
                        .await
                })
            })
            .collect();
        let mut kept = Vec::new();
        for task in tasks {
            if let Ok(Ok(n)) = task.await {
                kept.push(n);
            }
        }
        kept.sort();
        assert_eq!(kept.len(), 300 / 5 * 3 - 20);
        assert_eq!(stored(&pool).await, kept);
        let batches = batches.0.lock().unwrap().clone();
        assert!(
            batches.iter().any(|&n| n > 1),
            "racing writes should share a commit: {batches:?}"
        );
    }

    /// An answered write is visible to readers on other connections.
    #[tokio::test]
    async fn an_answered_write_is_visible_to_readers() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, writer) = open(&dir).await;
        for n in 0..3 {
            writer
                .write(move |conn| Box::pin(insert(conn, n)))
                .await
                .unwrap();
            assert_eq!(stored(&pool).await.len(), n as usize + 1);
        }
        writer.close().await;
        pool.close().await;
    }
}
