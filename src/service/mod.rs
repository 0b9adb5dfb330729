//! Use cases: what each request means. A use case loads what it needs, asks
//! the rules whether the action is legal and the engine for moves (on the
//! blocking pool), and writes the result in one transaction.

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
mod records;
mod replies;

pub use computer::{Computer, ComputerConfig, Thought};
pub use error::{Result, ServiceError};
pub use events::{Events, GameEvent, Subscription};
pub use game::{
    Clock, Declines, Game, GameResult, Mode, MoveRecord, Offer, OfferKind, Reason, Seat, Status,
};
pub use games::{GameList, GameSpec, SeatSpec};
pub use offers::GameOffer;
pub use online::{OnlineConfig, RematchOutcome};
pub use opening::OpeningRequest;
pub use play::{PlayOutcome, PointInput};
pub use players::{NewlyCreated, PlayerName, Token, computer_id};
pub use records::ImportRequest;

use std::sync::Arc;

use tokio::sync::Notify;

use crate::store::Store;

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
}

impl Service {
    /// A service over `store`; makes sure the computer players exist.
    pub async fn new(
        store: Store,
        computer: ComputerConfig,
        online: OnlineConfig,
    ) -> Result<Service> {
        let service = Service {
            store,
            computer: Computer::new(computer),
            events: Events::default(),
            online,
            clocks_changed: Arc::new(Notify::new()),
            caches: cache::Caches::default(),
        };
        service.ensure_computer_players().await?;
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

    /// Whether the database answers.
    pub async fn health(&self) -> Result<()> {
        Ok(self.store.ping().await?)
    }
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
