//! Changes to games, announced to every instance sharing a PostgreSQL
//! database: the trigger that keeps each game state (migration 0005) also
//! sends `NOTIFY gobang_games, '<game id> <version> <deadline ms or ->
//! <black id or -> <white id or ->'`,
//! which PostgreSQL delivers to every listener once the write is committed
//! (and never for one rolled back). Each instance listens on a connection
//! of its own and hands what it hears to its [`ChangeObserver`].

use std::sync::Arc;
use std::time::Duration;

use sqlx::PgPool;
use sqlx::postgres::PgListener;

const CHANNEL: &str = "gobang_games";

/// A committed change to a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub game_id: String,
    /// The game's version after the change.
    pub version: i64,
    /// When its side to move runs out of time (Unix ms), if it is timed.
    pub deadline_ms: Option<i64>,
    /// The players in its seats (black, white).
    pub players: [Option<String>; 2],
}

impl Change {
    fn parse(payload: &str) -> Option<Change> {
        let mut parts = payload.split(' ');
        let game_id = parts.next()?.to_string();
        let version = parts.next()?.parse().ok()?;
        let deadline_ms = match parts.next()? {
            "-" => None,
            ms => Some(ms.parse().ok()?),
        };
        let mut player = || match parts.next() {
            None | Some("-") => None,
            Some(id) => Some(id.to_string()),
        };
        let players = [player(), player()];
        Some(Change {
            game_id,
            version,
            deadline_ms,
            players,
        })
    }
}

/// Hears of every committed change to a game, whichever instance made it.
pub trait ChangeObserver: Send + Sync {
    fn changed(&self, change: Change);

    /// Changes may have gone unheard (the listening connection was lost
    /// and is back): whatever is kept of the games may be out of date.
    fn missed(&self);
}

/// Listens until the pool is closed, connecting again after a failure.
pub(super) async fn listen(pool: PgPool, observer: Arc<dyn ChangeObserver>) {
    loop {
        match listen_once(&pool, observer.as_ref()).await {
            Err(sqlx::Error::PoolClosed) => return,
            Err(e) => {
                tracing::warn!(error = %e, "lost the database's change notifications; listening again");
                observer.missed();
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
            Ok(()) => return,
        }
    }
}

async fn listen_once(pool: &PgPool, observer: &dyn ChangeObserver) -> sqlx::Result<()> {
    let mut listener = PgListener::connect_with(pool).await?;
    listener.listen(CHANNEL).await?;
    loop {
        match listener.try_recv().await? {
            Some(notification) => match Change::parse(notification.payload()) {
                Some(change) => observer.changed(change),
                None => tracing::warn!(
                    payload = notification.payload(),
                    "a change notification that does not parse"
                ),
            },
            // The connection was lost and is back: what was sent meanwhile
            // was not heard.
            None => observer.missed(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_notification_reads_as_a_change() {
        assert_eq!(
            Change::parse("g_abc 12 1790000000000 p_a -"),
            Some(Change {
                game_id: "g_abc".into(),
                version: 12,
                deadline_ms: Some(1_790_000_000_000),
                players: [Some("p_a".into()), None],
            })
        );
        assert_eq!(
            Change::parse("g_abc 3 -").map(|c| c.deadline_ms),
            Some(None)
        );
        assert_eq!(Change::parse("g_abc x -"), None);
        assert_eq!(Change::parse("g_abc"), None);
    }
}
