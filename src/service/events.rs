//! Live updates: after every committed change the game's new state is
//! published to whoever follows the game (server-sent events, long polls).
//! Each game keeps its last few states, so a client that reconnects with
//! the last version it saw gets exactly the states it missed.
//!
//! This lives in one process. Changes made by other instances sharing a
//! PostgreSQL database reach it through the store (see `relay`), and a
//! follower that missed a state is sent it from the store (every state is
//! kept there a day), so what lives here is only the fast path.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio::sync::broadcast;

use super::Game;

/// States kept per game for clients that reconnect.
const KEPT: usize = 32;

/// One published state.
#[derive(Debug)]
pub struct GameEvent {
    pub game: Game,
    /// The state as the HTTP layer renders it, made once for every listener.
    rendered: OnceLock<String>,
}

impl GameEvent {
    /// An event for a state read from the store rather than published.
    pub fn new(game: Game) -> GameEvent {
        GameEvent {
            game,
            rendered: OnceLock::new(),
        }
    }

    pub fn version(&self) -> i64 {
        self.game.version
    }

    /// The rendering of this state, made by `render` the first time only.
    pub fn rendered(&self, render: impl FnOnce(&Game) -> String) -> &str {
        self.rendered.get_or_init(|| render(&self.game))
    }
}

struct Channel {
    sender: broadcast::Sender<Arc<GameEvent>>,
    recent: VecDeque<Arc<GameEvent>>,
    /// When the game last had a follower: its recent states are kept a
    /// while after the last one leaves, for reconnects.
    followed_at: Instant,
}

/// How long a game's recent states outlive its last follower.
const KEEP_UNFOLLOWED: Duration = Duration::from_secs(300);

/// The followers of every game, and of every player's games.
#[derive(Clone, Default)]
pub struct Events {
    channels: Arc<Mutex<HashMap<String, Channel>>>,
    /// Per player: every state of every game they sit in (their own event
    /// stream: pairings, invitations, offers, their turn).
    players: Arc<Mutex<HashMap<String, broadcast::Sender<Arc<GameEvent>>>>>,
    /// Set once the server is stopping: every follower is let go, and a
    /// new one at once.
    closed: Arc<std::sync::atomic::AtomicBool>,
}

impl std::fmt::Debug for Events {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Events")
    }
}

/// A follower: the states it missed (newer than the version it gave), then
/// every new one.
pub struct Subscription {
    pub missed: Vec<Arc<GameEvent>>,
    pub receiver: broadcast::Receiver<Arc<GameEvent>>,
}

impl Events {
    /// Follows `game_id`; `after` is the last version the follower saw.
    pub fn subscribe(&self, game_id: &str, after: Option<i64>) -> Subscription {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        if self.is_closed() {
            // A receiver whose sender is gone: the follower ends at once.
            return Subscription {
                missed: Vec::new(),
                receiver: broadcast::channel(1).1,
            };
        }
        let channel = channels
            .entry(game_id.to_string())
            .or_insert_with(|| Channel {
                sender: broadcast::channel(KEPT).0,
                recent: VecDeque::new(),
                followed_at: Instant::now(),
            });
        channel.followed_at = Instant::now();
        let missed = match after {
            Some(after) => channel
                .recent
                .iter()
                .filter(|e| e.version() > after)
                .cloned()
                .collect(),
            None => Vec::new(),
        };
        Subscription {
            missed,
            receiver: channel.sender.subscribe(),
        }
    }

    /// Lets every follower go (the server is stopping): event streams and
    /// WebSockets end, telling their clients to reconnect, and long polls
    /// answer with the state as it is.
    pub fn close_all(&self) {
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        // Dropping the senders closes every receiver.
        channels.clear();
        self.players
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Follows every game player `id` sits in, from now on.
    pub fn subscribe_player(&self, id: &str) -> broadcast::Receiver<Arc<GameEvent>> {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if self.is_closed() {
            return broadcast::channel(1).1;
        }
        players
            .entry(id.to_string())
            .or_insert_with(|| broadcast::channel(KEPT).0)
            .subscribe()
    }

    /// Whether player `id` follows their games here.
    pub fn player_followed(&self, id: &str) -> bool {
        let players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        players
            .get(id)
            .is_some_and(|sender| sender.receiver_count() > 0)
    }

    /// Tells the players seated in `game` who follow their games here;
    /// `event` makes the event (once, shared) if anybody does.
    fn publish_to_players(&self, game: &Game, event: &mut impl FnMut() -> Arc<GameEvent>) {
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        for seat in [&game.black, &game.white] {
            let Some(id) = seat.player_id() else { continue };
            if let Some(sender) = players.get(id) {
                if sender.receiver_count() == 0 {
                    players.remove(id);
                } else {
                    let _ = sender.send(event());
                }
            }
        }
    }

    /// Whether [`close_all`](Self::close_all) was called.
    pub fn is_closed(&self) -> bool {
        self.closed.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The newest version published to game `id`'s followers (0 when none
    /// yet), if it has any.
    pub fn followed_version(&self, id: &str) -> Option<i64> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        let channel = channels.get(id)?;
        (channel.sender.receiver_count() > 0)
            .then(|| channel.recent.back().map_or(0, |e| e.version()))
    }

    /// The games that have followers now.
    pub fn followed_games(&self) -> Vec<String> {
        let channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        channels
            .iter()
            .filter(|(_, channel)| channel.sender.receiver_count() > 0)
            .map(|(id, _)| id.clone())
            .collect()
    }

    /// Publishes a committed state to the game's followers, unless a state
    /// as new was published already (by the instance that wrote it and by
    /// the relay of the store's change notices, whichever came first).
    pub fn publish(&self, game: &Game) {
        // Made only if somebody follows, and only once.
        let mut made: Option<Arc<GameEvent>> = None;
        let mut event = || {
            made.get_or_insert_with(|| Arc::new(GameEvent::new(game.clone())))
                .clone()
        };
        // A player's stream may hear a state twice (here and from the
        // relay): it keeps the newest version of each game it sent.
        self.publish_to_players(game, &mut event);
        let mut channels = self.channels.lock().unwrap_or_else(|e| e.into_inner());
        let Some(channel) = channels.get_mut(&game.id) else {
            return;
        };
        if channel
            .recent
            .back()
            .is_some_and(|e| e.version() >= game.version)
        {
            return;
        }
        if channel.sender.receiver_count() > 0 {
            channel.followed_at = Instant::now();
        } else if channel.followed_at.elapsed() > KEEP_UNFOLLOWED {
            channels.remove(&game.id);
            return;
        }
        if channel.recent.len() == KEPT {
            channel.recent.pop_front();
        }
        let event = event();
        channel.recent.push_back(event.clone());
        // No receiver now is fine: the state is kept for a reconnect.
        let _ = channel.sender.send(event);
    }
}
