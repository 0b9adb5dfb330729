//! Changes made by other instances sharing the database, heard through the
//! store (PostgreSQL LISTEN/NOTIFY), passed on to this instance: its game
//! cache forgets what is out of date, its followers get the new states (in
//! order, from the store), and its clock watcher looks again.

use std::sync::Arc;

use tokio::sync::mpsc;

use super::Service;
use super::error::Result;
use crate::store::{Change, ChangeObserver};

enum Heard {
    Changed(Change),
    Missed,
}

/// Hands what the store hears to the relay task, in order.
struct Relay(mpsc::UnboundedSender<Heard>);

impl ChangeObserver for Relay {
    fn changed(&self, change: Change) {
        let _ = self.0.send(Heard::Changed(change));
    }

    fn missed(&self) {
        let _ = self.0.send(Heard::Missed);
    }
}

impl Service {
    /// Starts passing on the changes of other instances (nothing to do on
    /// SQLite, which has one instance).
    pub(super) fn relay_changes(&self) {
        let (sender, mut heard) = mpsc::unbounded_channel();
        self.store.watch_changes(Arc::new(Relay(sender)));
        let service = self.clone();
        tokio::spawn(async move {
            while let Some(news) = heard.recv().await {
                if let Err(e) = service.pass_on(news).await {
                    tracing::warn!(error = %e, "could not pass on a change made by another instance");
                }
            }
        });
    }

    async fn pass_on(&self, news: Heard) -> Result<()> {
        match news {
            Heard::Changed(change) => {
                self.caches
                    .forget_game_before(&change.game_id, change.version);
                if change.deadline_ms.is_some() {
                    self.clocks_changed.notify_one();
                }
                let seated_followed = change
                    .players
                    .iter()
                    .flatten()
                    .any(|id| self.events.player_followed(id));
                if seated_followed && self.events.followed_version(&change.game_id).is_none() {
                    // Only its players follow it here: the state itself.
                    if let Some(game) = self
                        .states_between(&change.game_id, change.version - 1, change.version)
                        .await?
                        .pop()
                    {
                        self.events.publish(&game);
                    }
                    return Ok(());
                }
                self.catch_up_followers(&change.game_id, change.version)
                    .await
            }
            Heard::Missed => {
                self.caches.forget_games();
                self.clocks_changed.notify_one();
                for id in self.events.followed_games() {
                    let version = self.game(&id).await?.version;
                    self.catch_up_followers(&id, version).await?;
                }
                Ok(())
            }
        }
    }

    /// Publishes to game `id`'s followers on this instance every state
    /// they have not had, through `version`.
    async fn catch_up_followers(&self, id: &str, version: i64) -> Result<()> {
        let Some(published) = self.events.followed_version(id) else {
            return Ok(());
        };
        if published >= version {
            return Ok(());
        }
        // A follower that came after a gap is sent what it missed from the
        // store; from nothing, the state itself is enough.
        let after = if published == 0 {
            version - 1
        } else {
            published
        };
        for game in self.states_between(id, after, version).await? {
            self.events.publish(&game);
        }
        Ok(())
    }
}
