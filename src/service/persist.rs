//! Loading and saving games: an action runs on the game as loaded and is
//! written in one transaction only if the game is still at that version
//! (else it is tried again on the newer game), with the move record and
//! the scores; followers are told after the commit.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::Service;
use super::error::{Result, ServiceError};
use super::game::{Game, GameResult, MoveRecord, Reason};
use super::play::finish;
use super::ratings;
use crate::rules::{Color, Point};
use crate::store::{self, Conn, ScoreChange, StoreError};

/// How long every state of a game is kept for followers that missed some.
const STATES_KEPT: chrono::TimeDelta = chrono::TimeDelta::days(1);

/// What a game looked like before an action, to know what to write.
#[derive(Clone)]
struct Before {
    version: i64,
    stored: Vec<Point>,
    scored: bool,
    result: Option<GameResult>,
}

impl Before {
    fn of(game: &Game) -> Before {
        Before {
            version: game.version,
            stored: game.stored.clone(),
            scored: game.scored,
            result: game.result.clone(),
        }
    }
}

/// The most states a resumed player's stream is sent from the store.
pub const MISSED_STATES: i64 = 1000;

/// Loads a whole game, or says there is none.
pub(super) async fn load(conn: &mut Conn, id: &str) -> Result<Game> {
    let (row, black, white) =
        store::game_with_players(conn, id)
            .await?
            .ok_or_else(|| ServiceError::NotFound {
                what: "game",
                id: id.to_string(),
            })?;
    Game::from_rows(row, black, white)
}

/// Stores a game just made (with the ratings its players sit down with).
pub(super) async fn insert_game(tx: &mut Conn, game: &mut Game) -> Result<()> {
    ratings::note_seat_ratings(tx, game).await?;
    store::insert_game(tx, &game.to_row()).await?;
    Ok(())
}

/// Writes what an action changed: the game row (one version up), the move
/// record, and the scores when the result came or went.
async fn write_game(
    tx: &mut Conn,
    before: &Before,
    game: &mut Game,
    now: DateTime<Utc>,
) -> Result<()> {
    game.version = before.version + 1;
    game.updated_at = now;
    // First, so that this game can point to it (rolled back with the rest
    // if this game moved on meanwhile).
    if let Some(spawned) = &mut game.spawned {
        insert_game(tx, spawned).await?;
    }
    // A seat taken by this action (a join, an accepted invitation).
    ratings::note_seat_ratings(tx, game).await?;
    // The commonest write, one move played and nothing else, in one trip.
    if let [record] = game.new_records.as_slice()
        && record.ply == before.stored.len() + 1
        && before.scored == game.scored
    {
        let row = move_row(record);
        if !store::update_game_with_move(tx, &game.to_row(), before.version, &row).await? {
            return Err(ServiceError::VersionMismatch {
                expected: before.version,
                current: before.version + 1,
            });
        }
        game.new_records.clear();
        return prune_now_and_then(tx, now).await;
    }
    if !store::update_game(tx, &game.to_row(), before.version).await? {
        return Err(ServiceError::VersionMismatch {
            expected: before.version,
            current: before.version + 1,
        });
    }
    // The stored moves this action left as they were: the common prefix,
    // up to the first move played now (which may replay the very point that
    // was taken back: its record is new all the same).
    let common = before
        .stored
        .iter()
        .zip(&game.stored)
        .take_while(|(a, b)| a == b)
        .count();
    let kept = game
        .new_records
        .first()
        .map_or(common, |first| common.min(first.ply - 1));
    if kept < before.stored.len() {
        store::delete_moves_from(tx, &game.id, kept as i64 + 1).await?;
    }
    for record in std::mem::take(&mut game.new_records) {
        debug_assert!(record.ply > kept);
        store::insert_move(tx, &game.id, &move_row(&record)).await?;
    }
    match (before.scored, game.scored) {
        (true, false) => {
            apply_result(tx, game, before.result.as_ref(), -1).await?;
            if game.rated {
                ratings::unrate(tx, &game.id, now).await?;
            }
        }
        (false, true) => {
            apply_result(tx, game, game.result.as_ref(), 1).await?;
            if game.rated
                && let Some(result) = &game.result
            {
                ratings::rate(tx, game, result, now).await?;
            }
        }
        _ => {}
    }
    prune_now_and_then(tx, now).await
}

/// Once in about a thousand writes, forgets the game states older than a
/// day (kept for followers that missed some).
async fn prune_now_and_then(tx: &mut Conn, now: DateTime<Utc>) -> Result<()> {
    if rand::random::<u16>() < 64 {
        store::prune_game_versions(tx, now - STATES_KEPT).await?;
    }
    Ok(())
}

fn move_row(record: &MoveRecord) -> store::MoveRow {
    store::MoveRow {
        ply: record.ply as i64,
        x: record.point.x as i64,
        y: record.point.y as i64,
        color: record.color.as_str().to_string(),
        played_at: record.played_at,
        thinking_ms: record.thinking_ms,
    }
}

/// Counts (`sign` 1) or takes back (`sign` -1) a result in both players' scores.
async fn apply_result(
    tx: &mut Conn,
    game: &Game,
    result: Option<&GameResult>,
    sign: i64,
) -> Result<()> {
    let Some(result) = result else { return Ok(()) };
    // Players in the order of their ids, whatever their seats: two games
    // ending at once on PostgreSQL lock their players' rows in one order,
    // never each waiting for the other.
    let mut seats = [Color::Black, Color::White];
    seats.sort_by_key(|&color| game.seat(color).player_id());
    for color in seats {
        let Some(id) = game.seat(color).player_id() else {
            continue;
        };
        let change = match result.winner {
            None => ScoreChange::Draw,
            Some(w) if w == color => ScoreChange::Win,
            Some(_) if result.reason == Reason::Abandoned => ScoreChange::Abandoned,
            Some(_) => ScoreChange::Loss,
        };
        store::apply_score(tx, id, change, sign).await?;
    }
    Ok(())
}

/// Ends a game whose side to move ran out of time: the clock stopped at
/// the deadline.
fn lose_on_time(game: &mut Game, now: DateTime<Utc>) {
    let loser = game.turn().actor;
    let flag_fall = game.deadline().map_or(now, |deadline| deadline.min(now));
    game.end_turn(flag_fall);
    finish(
        game,
        GameResult {
            winner: Some(loser.opponent()),
            reason: Reason::Timeout,
            winning_line: Vec::new(),
        },
    );
}

pub(super) fn check_version(game: &Game, if_match: Option<i64>) -> Result<()> {
    match if_match {
        Some(expected) if expected != game.version => Err(ServiceError::VersionMismatch {
            expected,
            current: game.version,
        }),
        _ => Ok(()),
    }
}

impl Service {
    /// Runs `action` on game `id` and saves what it changed in one write
    /// transaction. The game is loaded and the action checked outside the
    /// write lock; the write applies only if the game is still at the
    /// version loaded (else, without `If-Match`, the action is tried again on
    /// the newer game). So two racing actions can never both apply, and the
    /// lock is held for the writes alone.
    pub(super) async fn act<T>(
        &self,
        id: &str,
        if_match: Option<i64>,
        mut action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<T>,
    ) -> Result<(Game, T)> {
        let (game, value) = self
            .act_maybe(id, if_match, |game, now| action(game, now).map(Some))
            .await?
            .expect("an action that always changes the game");
        Ok((game, value))
    }

    /// [`Service::act`] for an action whose answer is the game after it.
    pub(super) async fn change(
        &self,
        id: &str,
        if_match: Option<i64>,
        action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<()>,
    ) -> Result<Game> {
        Ok(self.act(id, if_match, action).await?.0)
    }

    /// [`Service::act`] for an action that may find nothing to do
    /// (`Ok(None)`: nothing is written). A game whose clock has run out is
    /// first ended on time, whatever the action.
    pub(super) async fn act_maybe<T>(
        &self,
        id: &str,
        if_match: Option<i64>,
        mut action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<Option<T>>,
    ) -> Result<Option<(Game, T)>> {
        const ATTEMPTS: usize = 16;
        let mut attempt = 0;
        // A cached game is a guess at the stored one: whatever it leads to
        // other than a write is checked on the stored game.
        let mut trust_cache = true;
        loop {
            attempt += 1;
            let cached = trust_cache.then(|| self.caches.game(id)).flatten();
            let from_cache = cached.is_some();
            let mut game = match cached {
                Some(game) => game,
                None => self.game(id).await?,
            };
            let mut recheck = || {
                self.caches.forget_game(id);
                trust_cache = false;
            };
            let now = super::now();
            if game.out_of_time(now) {
                let before = Before::of(&game);
                lose_on_time(&mut game, now);
                match self.save(&before, &mut game, now).await {
                    Ok(()) => continue,
                    Err(ServiceError::VersionMismatch { .. }) => {
                        self.store.settle().await;
                        recheck();
                        continue;
                    }
                    Err(e) => return Err(e),
                }
            }
            let before = Before::of(&game);
            let outcome = check_version(&game, if_match).and_then(|()| action(&mut game, now));
            let value = match outcome {
                Ok(Some(value)) => value,
                Ok(None) | Err(_) if from_cache => {
                    recheck();
                    continue;
                }
                Ok(None) => return Ok(None),
                Err(e) => return Err(e),
            };
            match self.save(&before, &mut game, now).await {
                Ok(()) => return Ok(Some((game, value))),
                Err(ServiceError::VersionMismatch { .. })
                    if if_match.is_none() && attempt < ATTEMPTS =>
                {
                    // The newer game may still be in a write batch.
                    self.store.settle().await;
                    recheck();
                    continue;
                }
                Err(ServiceError::VersionMismatch { expected, .. }) => {
                    self.caches.forget_game(id);
                    self.store.settle().await;
                    let current = self.game(id).await?.version;
                    return Err(ServiceError::VersionMismatch { expected, current });
                }
                Err(e) => {
                    self.caches.forget_game(id);
                    return Err(e);
                }
            }
        }
    }

    /// Writes an action's changes if the game is still at the version it was
    /// loaded at, then tells the game's followers (and the clock watcher).
    async fn save(&self, before: &Before, game: &mut Game, now: DateTime<Utc>) -> Result<()> {
        let played = game.new_records.len() as u64;
        let (before_owned, mut owned) = (before.clone(), game.clone());
        *game = if game.spawned.is_none() {
            // The version-checked update comes first: a game that moved on
            // meanwhile is refused before anything changed, so the write
            // needs no savepoint of its own (see `Store::write_unguarded`).
            self.store
                .write_unguarded(move |tx| {
                    Box::pin(async move {
                        match write_game(tx, &before_owned, &mut owned, now).await {
                            Ok(()) => Ok(Ok(owned)),
                            Err(refused @ ServiceError::VersionMismatch { .. }) => Ok(Err(refused)),
                            Err(ServiceError::Store(e)) => Err(e),
                            Err(other) => Err(StoreError::Corrupt(other.to_string())),
                        }
                    })
                })
                .await?
        } else {
            self.store
                .write(move |tx| {
                    Box::pin(async move {
                        write_game(tx, &before_owned, &mut owned, now).await?;
                        Ok::<_, ServiceError>(owned)
                    })
                })
                .await?
        };
        self.metrics.moves.inc_by(played);
        let spawned = game.spawned.take();
        self.caches.keep_game(game);
        self.events.publish(game);
        if let Some(spawned) = spawned {
            self.events.publish(&spawned);
        }
        if game.clock.is_some() {
            self.clocks_changed.notify_one();
        }
        Ok(())
    }

    pub async fn game(&self, id: &str) -> Result<Game> {
        let mut conn = self.store.read().await?;
        load(&mut conn, id).await
    }

    /// Game `id`'s states after version `after` through `through`, oldest
    /// first, from the store (which keeps each state a day): for a follower
    /// that missed some. Fewer (or none) when some are no longer kept.
    pub async fn states_between(&self, id: &str, after: i64, through: i64) -> Result<Vec<Game>> {
        if through <= after {
            return Ok(Vec::new());
        }
        let mut conn = self.store.read().await?;
        store::game_versions(&mut conn, id, after, through)
            .await?
            .into_iter()
            .map(|(row, black, white)| Game::from_rows(row, black, white))
            .collect()
    }

    /// The states of the games player `player` sits in written since the
    /// state `(game, version)` was, oldest first, that one excluded: what a
    /// player's stream missed. `None` when that state is no longer kept (a
    /// day), or when more than [`MISSED_STATES`] came since: too much to
    /// replay, the client reads its games instead.
    pub async fn player_states_since(
        &self,
        player: &str,
        (game, version): (&str, i64),
    ) -> Result<Option<Vec<Game>>> {
        let mut conn = self.store.read().await?;
        let Some(since) = store::game_version_time(&mut conn, game, version).await? else {
            return Ok(None);
        };
        let missed =
            store::player_states_since(&mut conn, player, since, MISSED_STATES + 1).await?;
        if missed.len() as i64 > MISSED_STATES {
            return Ok(None);
        }
        missed
            .into_iter()
            .filter(|(row, _, _)| !(row.id == game && row.version <= version))
            .map(|(row, black, white)| Game::from_rows(row, black, white))
            .collect::<Result<Vec<_>>>()
            .map(Some)
    }

    /// The game once its version is past `after`, or as it is after
    /// `timeout` (long polling).
    pub async fn wait_for_change(&self, id: &str, after: i64, timeout: Duration) -> Result<Game> {
        // Subscribe before reading, so a change between the two is not missed.
        let mut subscription = self.events.subscribe(id, None);
        let game = self.game(id).await?;
        if game.version > after {
            return Ok(game);
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            match tokio::time::timeout_at(deadline, subscription.receiver.recv()).await {
                Ok(Ok(event)) if event.version() > after => return Ok(event.game.clone()),
                Ok(Ok(_)) => continue,
                // Fell behind, or timed out: the stored state is the answer.
                Ok(Err(_)) | Err(_) => return self.game(id).await,
            }
        }
    }
}
