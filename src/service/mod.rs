//! Use cases: what each request means. A use case loads what it needs, asks
//! the rules whether the action is legal and the engine for moves (on the
//! blocking pool), and writes the result in one transaction.

mod analysis;
mod cache;
mod computer;
mod cursor;
mod error;
mod events;
mod game;
mod games;
mod idempotency;
mod offers;
mod online;
mod opening;
mod persist;
mod pictures;
mod play;
mod players;
mod ratings;
mod records;
mod relay;
mod replies;
mod seeks;

pub use analysis::PositionInput;
pub use computer::{Computer, ComputerConfig, ThinkingBudget, Thought, paid_by};
pub use error::{Result, ServiceError};
pub use events::{Events, GameEvent, Subscription};
pub use game::{
    Clock, Declines, Game, GameResult, Mode, MoveRecord, Offer, OfferKind, Reason, Seat,
    SeatRating, Status,
};
pub use games::{GameList, GameSpec, SeatSpec};
pub use offers::GameOffer;
pub use online::{OnlineConfig, RematchOutcome};
pub use opening::OpeningRequest;
pub use play::{PlayOutcome, PointInput};
pub use players::{HeadToHead, NewlyCreated, PlayerName, Token, computer_id};
pub use ratings::{
    CATEGORIES, PROVISIONAL_DEVIATION, Rating, RatingBoard, RatingHistory, category, check_category,
};
pub use records::ImportRequest;
pub use seeks::{ComputerFallback, MAX_COMPUTER_AFTER, SEEK_TTL, Seek, SeekSpec, SeekStatus};

use std::sync::Arc;

use tokio::sync::Notify;

use crate::metrics::Metrics;
use crate::store::{self, BatchObserver, Store};

/// Everything a request needs: the store, the computer, the followers of
/// games and the settings of online play.
#[derive(Clone, Debug)]
pub struct Service {
    store: Store,
    computer: Computer,
    events: Events,
    online: OnlineConfig,
    /// Rung when a timed game is written, so the clock watcher looks again.
    clocks_changed: Arc<Notify>,
    caches: cache::Caches,
    metrics: Arc<Metrics>,
}

impl Service {
    /// A service over `store`; makes sure the computer players exist.
    pub async fn new(
        store: Store,
        computer: ComputerConfig,
        online: OnlineConfig,
    ) -> Result<Service> {
        let metrics = Metrics::shared();
        store.observe_batches(Arc::new(BatchMetrics(metrics.clone())));
        let service = Service {
            store,
            computer: Computer::new(computer, metrics.clone()),
            events: Events::default(),
            online,
            clocks_changed: Arc::new(Notify::new()),
            caches: cache::Caches::default(),
            metrics,
        };
        service.ensure_computer_players().await?;
        service.relay_changes();
        Ok(service)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn computer(&self) -> &Computer {
        &self.computer
    }

    pub fn events(&self) -> &Events {
        &self.events
    }

    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.metrics
    }

    /// Brings the games-by-status gauges up to date (before a scrape).
    pub async fn count_games(&self) -> Result<()> {
        let mut conn = self.store.read().await?;
        for (status, count) in store::count_by_status(&mut conn).await? {
            self.metrics
                .games
                .get_or_create(&crate::metrics::StatusLabels { status })
                .set(count);
        }
        Ok(())
    }

    /// Whether the database answers.
    pub async fn health(&self) -> Result<()> {
        Ok(self.store.ping().await?)
    }
}

/// The time now, to the microsecond: as precise as either database keeps
/// it, so a game reads back from the store exactly as it was written.
fn now() -> chrono::DateTime<chrono::Utc> {
    use chrono::SubsecRound;
    chrono::Utc::now().trunc_subsecs(6)
}

/// A fresh random id with a prefix, e.g. `g_5kq2…`.
fn random_id(prefix: &str) -> String {
    const ALPHABET: &[u8] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let bytes: [u8; 16] = rand::random();
    let body: String = bytes
        .iter()
        .map(|b| ALPHABET[(*b & 31) as usize] as char)
        .collect();
    format!("{prefix}{body}")
}

/// The store's write batches, reported as metrics.
#[derive(Debug)]
struct BatchMetrics(Arc<Metrics>);

impl BatchObserver for BatchMetrics {
    fn committed(&self, writes: usize, seconds: f64) {
        self.0.write_batch.observe(writes as f64);
        self.0.commit_seconds.observe(seconds);
    }
}
