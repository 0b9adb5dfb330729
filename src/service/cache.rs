//! What a request would otherwise read from the store every time: the
//! player behind a token, and the games being played.
//!
//! Both are safe to be out of date. A token always belongs to the same
//! player, and what is cached of a player is who they are (their counts
//! are read afresh where shown); a rename forgets what this instance kept
//! of the player (another instance shows the old name for at most a
//! minute). A cached game is only the starting point
//! of an action: the write still checks the stored version, and an action
//! that fails or finds nothing to do on a cached game is tried again on
//! the stored one before anybody is told (so another instance's writes are
//! never hidden). Bounded, least recently used first out.

use std::num::NonZeroUsize;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use lru::LruCache;

use super::game::Game;
use crate::store::PlayerRow;

/// How long a token's player is trusted without asking the store.
const TOKEN_TTL: Duration = Duration::from_secs(60);
const TOKENS: usize = 50_000;
const GAMES: usize = 10_000;

#[derive(Clone, Debug)]
pub(super) struct Caches {
    tokens: Arc<Mutex<LruCache<String, (PlayerRow, Instant)>>>,
    games: Arc<Mutex<LruCache<String, Game>>>,
}

impl Default for Caches {
    fn default() -> Self {
        let bound = |n: usize| NonZeroUsize::new(n).expect("a positive bound");
        Caches {
            tokens: Arc::new(Mutex::new(LruCache::new(bound(TOKENS)))),
            games: Arc::new(Mutex::new(LruCache::new(bound(GAMES)))),
        }
    }
}

impl Caches {
    pub(super) fn player(&self, token_hash: &str) -> Option<PlayerRow> {
        let mut tokens = self
            .tokens
            .lock()
            .expect("the token cache is never poisoned");
        match tokens.get(token_hash) {
            Some((player, at)) if at.elapsed() < TOKEN_TTL => Some(player.clone()),
            Some(_) => {
                tokens.pop(token_hash);
                None
            }
            None => None,
        }
    }

    pub(super) fn keep_player(&self, token_hash: String, player: &PlayerRow) {
        let mut tokens = self
            .tokens
            .lock()
            .expect("the token cache is never poisoned");
        tokens.put(token_hash, (player.clone(), Instant::now()));
    }

    /// Forgets what is kept of player `id` (after a rename): their tokens'
    /// entries and the games they sit in. Rare, so a walk over both.
    pub(super) fn forget_player(&self, id: &str) {
        let mut tokens = self
            .tokens
            .lock()
            .expect("the token cache is never poisoned");
        let stale: Vec<String> = tokens
            .iter()
            .filter(|(_, (player, _))| player.id == id)
            .map(|(hash, _)| hash.clone())
            .collect();
        for hash in stale {
            tokens.pop(&hash);
        }
        drop(tokens);
        let mut games = self.games.lock().expect("the game cache is never poisoned");
        let stale: Vec<String> = games
            .iter()
            .filter(|(_, game)| {
                [&game.black, &game.white]
                    .iter()
                    .any(|seat| seat.player_id() == Some(id))
            })
            .map(|(game_id, _)| game_id.clone())
            .collect();
        for game_id in stale {
            games.pop(&game_id);
        }
    }

    pub(super) fn game(&self, id: &str) -> Option<Game> {
        let mut games = self.games.lock().expect("the game cache is never poisoned");
        games.get(id).cloned()
    }

    /// Keeps `game` as just written (or read), unless a newer version is kept.
    pub(super) fn keep_game(&self, game: &Game) {
        let mut games = self.games.lock().expect("the game cache is never poisoned");
        match games.get(&game.id) {
            Some(kept) if kept.version > game.version => {}
            _ => {
                games.put(game.id.clone(), game.clone());
            }
        }
    }

    /// Forgets game `id` if what is kept is older than `version` (another
    /// instance changed it).
    pub(super) fn forget_game_before(&self, id: &str, version: i64) {
        let mut games = self.games.lock().expect("the game cache is never poisoned");
        if games.peek(id).is_some_and(|game| game.version < version) {
            games.pop(id);
        }
    }

    /// Forgets every game (changes by other instances may have gone unheard).
    pub(super) fn forget_games(&self) {
        self.games
            .lock()
            .expect("the game cache is never poisoned")
            .clear();
    }

    pub(super) fn forget_game(&self, id: &str) {
        let mut games = self.games.lock().expect("the game cache is never poisoned");
        games.pop(id);
    }
}
