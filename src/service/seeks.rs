//! Quick pairing: a player asks for a game with given settings and is put
//! in a pool; the server pairs two compatible seeks (the same settings,
//! each inside the other's rating range, colours that agree), preferring
//! close ratings and long waits and not the same two players a third time
//! in a row while anybody else waits, and starts their online game.
//!
//! The pool is in the store, so every instance pairs from it, and pairing
//! is one write: the partner's seek is taken only if it is still waiting
//! (a version check on its status), so no seek ever gets two games.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

use super::error::{Result, ServiceError};
use super::game::{Clock, Game, NewGame, Seat};
use super::games::{GameSpec, SeatSpec};
use super::players::computer_id;
use super::ratings::category;
use super::{Service, random_id};
use crate::engine::Level;
use crate::rules::{Color, ForbiddenPolicy, OpeningRule, RuleSet, Variant};
use crate::store::{self, Conn, PlayerRow, SeekRow};

/// A seek nobody asked after for this long expires.
pub const SEEK_TTL: TimeDelta = TimeDelta::seconds(60);

/// Compatible seeks looked at per pairing (the longest waiting).
const CANDIDATES: i64 = 50;

/// What a seeker asks for.
#[derive(Clone, Debug)]
pub struct SeekSpec {
    pub variant: Variant,
    pub opening: OpeningRule,
    /// Main time and floor in ms.
    pub clock: Option<(i64, i64)>,
    pub rated: bool,
    /// The opponents' ratings accepted (in the game's category).
    pub rating_range: Option<(f64, f64)>,
    /// The colour wanted, if any.
    pub colour: Option<Color>,
    /// Play the computer if nobody comes in time.
    pub computer: Option<ComputerFallback>,
}

/// "Play the computer if nobody comes within `after`."
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputerFallback {
    pub after: Duration,
    /// The level; by default the one whose rating in the game's category is
    /// closest to the seeker's.
    pub level: Option<Level>,
}

/// The longest a seek may wait before the computer takes it.
pub const MAX_COMPUTER_AFTER: Duration = Duration::from_secs(300);

/// A seek as shown.
#[derive(Clone, Debug)]
pub struct Seek {
    pub id: String,
    pub player_id: String,
    pub spec: SeekSpec,
    /// The seeker's rating in the game's category when they asked.
    pub rating: f64,
    pub status: SeekStatus,
    pub game_id: Option<String>,
    pub created_at: DateTime<Utc>,
    /// When it expires unless asked after again (while waiting).
    pub expires_at: DateTime<Utc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeekStatus {
    Waiting,
    Paired,
    Cancelled,
    Expired,
}

impl SeekStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            SeekStatus::Waiting => "waiting",
            SeekStatus::Paired => "paired",
            SeekStatus::Cancelled => "cancelled",
            SeekStatus::Expired => "expired",
        }
    }

    fn parse(s: &str) -> Option<SeekStatus> {
        [
            SeekStatus::Waiting,
            SeekStatus::Paired,
            SeekStatus::Cancelled,
            SeekStatus::Expired,
        ]
        .into_iter()
        .find(|status| status.as_str() == s)
    }
}

/// The settings of a seek as one comparable key: two seeks pair only if
/// their keys are equal.
fn settings_key(spec: &SeekSpec) -> String {
    let v = &spec.variant;
    let forbidden = match v.forbidden_policy() {
        None => "-",
        Some(ForbiddenPolicy::Reject) => "reject",
        Some(ForbiddenPolicy::Lose) => "lose",
    };
    let (main, floor) = spec.clock.unwrap_or((0, 0));
    format!(
        "{}/{}x{}/k{}/o{}/f{}/{}/c{}+{}/r{}",
        v.rule_set().as_str(),
        v.width(),
        v.height(),
        v.k(),
        u8::from(v.overline_wins_for_both()),
        forbidden,
        spec.opening.as_str(),
        main,
        floor,
        u8::from(spec.rated),
    )
}

/// The settings a key stands for (without the seeker's own range and colour).
fn settings_of(key: &str) -> Option<SeekSpec> {
    let parts: Vec<&str> = key.split('/').collect();
    let [rules, board, k, overline, forbidden, opening, clock, rated] = parts[..] else {
        return None;
    };
    let rules: RuleSet = rules.parse().ok()?;
    let (width, height) = board.split_once('x')?;
    let forbidden = match forbidden.strip_prefix('f')? {
        "-" => None,
        "reject" => Some(ForbiddenPolicy::Reject),
        "lose" => Some(ForbiddenPolicy::Lose),
        _ => return None,
    };
    let variant = Variant::from_stored(
        rules,
        width.parse().ok()?,
        height.parse().ok()?,
        k.strip_prefix('k')?.parse().ok()?,
        overline.strip_prefix('o')? == "1",
        forbidden,
    )
    .ok()?;
    let (main, floor) = clock.strip_prefix('c')?.split_once('+')?;
    let (main, floor): (i64, i64) = (main.parse().ok()?, floor.parse().ok()?);
    Some(SeekSpec {
        variant,
        opening: opening.parse().ok()?,
        clock: (main > 0).then_some((main, floor)),
        rated: rated.strip_prefix('r')? == "1",
        rating_range: None,
        colour: None,
        computer: None,
    })
}

fn colour_name(colour: Option<Color>) -> &'static str {
    colour.map_or("any", Color::as_str)
}

fn seek_of(row: SeekRow, now: DateTime<Utc>) -> Result<Seek> {
    let corrupt = |what: &str| ServiceError::Internal(format!("stored seek {}: {what}", row.id));
    let settings = settings_of(&row.settings).ok_or_else(|| corrupt("settings"))?;
    let colour = match row.colour.as_str() {
        "black" => Some(Color::Black),
        "white" => Some(Color::White),
        _ => None,
    };
    let mut status = SeekStatus::parse(&row.status).ok_or_else(|| corrupt("status"))?;
    let expires_at = row.seen_at + SEEK_TTL;
    if status == SeekStatus::Waiting && expires_at <= now {
        status = SeekStatus::Expired;
    }
    let full_range = row.rating_min <= 0.0 && row.rating_max >= 10_000.0;
    let computer = match row.computer_at {
        Some(at) => Some(ComputerFallback {
            after: (at - row.created_at).to_std().unwrap_or_default(),
            level: row
                .computer_level
                .as_deref()
                .map(str::parse)
                .transpose()
                .map_err(|_| corrupt("computer level"))?,
        }),
        None => None,
    };
    Ok(Seek {
        id: row.id,
        player_id: row.player_id,
        spec: SeekSpec {
            rating_range: (!full_range).then_some((row.rating_min, row.rating_max)),
            colour,
            computer,
            ..settings
        },
        rating: row.rating,
        status,
        game_id: row.game_id,
        created_at: row.created_at,
        expires_at,
    })
}

/// Whether two seeks may be paired (their settings are already equal).
fn compatible(a: &SeekRow, b: &SeekRow) -> bool {
    let in_range = |rating: f64, of: &SeekRow| (of.rating_min..=of.rating_max).contains(&rating);
    in_range(b.rating, a) && in_range(a.rating, b) && !(a.colour != "any" && a.colour == b.colour)
}

/// The colours of a pairing: as asked where asked, else at random.
fn colours(mine: &SeekRow, theirs: &SeekRow) -> Color {
    match (mine.colour.as_str(), theirs.colour.as_str()) {
        ("black", _) | (_, "white") => Color::Black,
        ("white", _) | (_, "black") => Color::White,
        _ => {
            if rand::random::<bool>() {
                Color::Black
            } else {
                Color::White
            }
        }
    }
}

impl Service {
    /// Puts `caller` in the pool for a game as `spec` asks, and pairs them
    /// at once if a compatible seek waits. Returns the seek (paired, with
    /// its game, or waiting).
    pub async fn create_seek(&self, caller: &PlayerRow, spec: SeekSpec) -> Result<Seek> {
        if let Some((min, max)) = spec.rating_range
            && min > max
        {
            return Err(ServiceError::Validation(
                "rating_range: min must not be above max".into(),
            ));
        }
        spec.opening
            .check_fits(&spec.variant)
            .map_err(|e| ServiceError::Validation(e.to_string()))?;
        if let Some(fallback) = spec.computer
            && !(Duration::from_secs(1)..=MAX_COMPUTER_AFTER).contains(&fallback.after)
        {
            return Err(ServiceError::Validation(format!(
                "computer.after_s must be from 1 to {} seconds",
                MAX_COMPUTER_AFTER.as_secs()
            )));
        }
        let service = self.clone();
        let caller = caller.clone();
        let (seek, game) = self
            .store
            .write(move |tx| Box::pin(async move { service.seek_in(tx, &caller, spec).await }))
            .await?;
        if let Some(game) = game {
            // Both players hear of it on their games' channel (their own
            // event stream, and a long poll on their seek).
            self.events.publish(&game);
            if game.clock.is_some() {
                self.clocks_changed.notify_one();
            }
        }
        Ok(seek)
    }

    async fn seek_in(
        &self,
        tx: &mut Conn,
        caller: &PlayerRow,
        spec: SeekSpec,
    ) -> Result<(Seek, Option<Game>)> {
        let now = super::now();
        let rating = store::rating_of(tx, &caller.id, category(&spec.variant))
            .await?
            .map_or(1500.0, |r| r.rating);
        let (min, max) = spec.rating_range.unwrap_or((0.0, 10_000.0));
        let mut mine = SeekRow {
            id: random_id("s_"),
            player_id: caller.id.clone(),
            settings: settings_key(&spec),
            rating,
            rating_min: min,
            rating_max: max,
            colour: colour_name(spec.colour).to_string(),
            status: "waiting".into(),
            game_id: None,
            created_at: now,
            seen_at: now,
            computer_at: spec
                .computer
                .map(|c| now + TimeDelta::from_std(c.after).unwrap_or(SEEK_TTL)),
            computer_level: spec
                .computer
                .and_then(|c| c.level)
                .map(|l| l.as_str().to_string()),
        };
        store::lock_pool(tx, &mine.settings).await?;
        store::insert_seek(tx, &mine).await?;
        let waiting = store::waiting_seeks(tx, &mine, now - SEEK_TTL, CANDIDATES).await?;
        let recent = store::last_opponents(tx, &caller.id, 2).await?;
        let twice = |player: &str| recent.len() == 2 && recent.iter().all(|p| p == player);
        let mut candidates: Vec<&SeekRow> =
            waiting.iter().filter(|s| compatible(&mine, s)).collect();
        // Closer ratings first, ten points of difference forgiven for every
        // second waited; two players who just met twice in a row last.
        let score = |s: &SeekRow| {
            let waited = (now - s.created_at).num_milliseconds() as f64 / 1000.0;
            (s.rating - rating).abs() - 10.0 * waited
        };
        candidates.sort_by(|a, b| {
            twice(&a.player_id)
                .cmp(&twice(&b.player_id))
                .then(score(a).total_cmp(&score(b)))
        });
        for partner in candidates {
            // Taken only if still waiting: another pairing may have had it.
            if !store::end_seek(tx, &partner.id, "paired", None).await? {
                continue;
            }
            let game_id = random_id("g_");
            let Some(opponent) = store::player_by_id(tx, &partner.player_id).await? else {
                continue;
            };
            let mine_black = colours(&mine, partner) == Color::Black;
            let (me, them) = (
                Seat::from_player(caller.clone())?,
                Seat::from_player(opponent)?,
            );
            let (black, white) = if mine_black { (me, them) } else { (them, me) };
            let mut game = Game::create(
                game_id.clone(),
                NewGame {
                    variant: spec.variant,
                    black,
                    white,
                    created_by: caller.id.clone(),
                    invited: None,
                    clock: spec.clock.map(|(main, floor)| Clock::new(main, floor)),
                    idle_limit_ms: Some(self.online.idle_limit.as_millis() as i64),
                    rematch_of: None,
                    opening: spec.opening,
                    rated: spec.rated,
                },
                now,
            );
            super::persist::insert_game(tx, &mut game).await?;
            store::set_seek_game(tx, &partner.id, &game_id).await?;
            store::end_seek(tx, &mine.id, "paired", Some(&game_id)).await?;
            mine.status = "paired".into();
            mine.game_id = Some(game_id);
            return Ok((seek_of(mine, now)?, Some(game)));
        }
        Ok((seek_of(mine, now)?, None))
    }

    /// Seek `id` of `caller`; with `wait`, once it is no longer waiting or
    /// after `wait` (long polling). Asking keeps a waiting seek alive.
    pub async fn seek(&self, caller: &PlayerRow, id: &str, wait: Duration) -> Result<Seek> {
        let seek = self.own_seek(caller, id).await?;
        if seek.status != SeekStatus::Waiting {
            return Ok(seek);
        }
        let now = super::now();
        let owned = id.to_string();
        self.store
            .write(move |tx| Box::pin(async move { store::touch_seek(tx, &owned, now).await }))
            .await?;
        if wait.is_zero() {
            return self.own_seek(caller, id).await;
        }
        // A pairing starts a game the caller sits in: it reaches their
        // games' channel, here or (through the store's change notices) from
        // another instance. Subscribed before reading, so none slips by.
        let mut games = self.events.subscribe_player(&caller.id);
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let seek = self.own_seek(caller, id).await;
            if !matches!(&seek, Ok(s) if s.status == SeekStatus::Waiting) {
                return seek;
            }
            // A cancel from another request is seen within a second.
            tokio::select! {
                heard = games.recv() => {
                    if let Err(tokio::sync::broadcast::error::RecvError::Closed) = heard {
                        // The server is stopping: the seek as it is.
                        return self.own_seek(caller, id).await;
                    }
                }
                () = tokio::time::sleep(Duration::from_secs(1)) => {}
                () = tokio::time::sleep_until(deadline) => return self.own_seek(caller, id).await,
            }
        }
    }

    /// Takes `caller`'s seek `id` out of the pool (if still waiting).
    pub async fn cancel_seek(&self, caller: &PlayerRow, id: &str) -> Result<Seek> {
        self.own_seek(caller, id).await?;
        let owned = id.to_string();
        self.store
            .write(move |tx| {
                Box::pin(async move { store::end_seek(tx, &owned, "cancelled", None).await })
            })
            .await?;
        self.own_seek(caller, id).await
    }

    /// Gives to the computer the seeks whose owners asked to play it if
    /// nobody came in time, as they fall due; runs until the task is
    /// dropped. Every instance runs one: a seek is taken once (its status
    /// checked in the write), whichever gets it.
    pub async fn watch_seeks(self) {
        let mut tidied = tokio::time::Instant::now();
        loop {
            tokio::time::sleep(Duration::from_secs(1)).await;
            let now = super::now();
            let due = async {
                let mut conn = self.store.read().await?;
                Ok::<_, ServiceError>(
                    store::seeks_due_to_the_computer(&mut conn, now, now - SEEK_TTL, 20).await?,
                )
            }
            .await;
            match due {
                Ok(rows) => {
                    for row in rows {
                        let id = row.id.clone();
                        if let Err(e) = self.give_to_the_computer(row).await {
                            tracing::error!(seek_id = %id, error = %e, "could not start a game against the computer for a seek");
                        }
                    }
                }
                Err(e) => {
                    tracing::error!(error = %e, "could not read the seeks due to the computer")
                }
            }
            // Seeks nobody asks after any more leave the computer's list.
            if tidied.elapsed() >= Duration::from_secs(60) {
                tidied = tokio::time::Instant::now();
                let before = now - SEEK_TTL;
                if let Err(e) = self
                    .store
                    .write(move |tx| {
                        Box::pin(async move { store::expire_computer_seeks(tx, before).await })
                    })
                    .await
                {
                    tracing::warn!(error = %e, "could not expire the seeks nobody asks after");
                }
            }
        }
    }

    /// Starts seek `row`'s game against the computer, unless it was paired
    /// (or cancelled) meanwhile; the computer moves first if it has black.
    async fn give_to_the_computer(&self, row: SeekRow) -> Result<()> {
        let service = self.clone();
        let game = self
            .store
            .write(move |tx| Box::pin(async move { service.computer_game_in(tx, row).await }))
            .await?;
        let Some(game) = game else {
            return Ok(());
        };
        self.events.publish(&game);
        if game.clock.is_some() {
            self.clocks_changed.notify_one();
        }
        // The computer's first move (or opening decision), beside the watcher.
        let service = self.clone();
        tokio::spawn(async move {
            let mut outcome = super::play::PlayOutcome {
                game,
                moves: Vec::new(),
            };
            if let Err(e) = service.computer_replies(&mut outcome).await {
                tracing::error!(game_id = %outcome.game.id, error = %e, "the computer could not open a game it was given");
            }
        });
        Ok(())
    }

    async fn computer_game_in(&self, tx: &mut Conn, row: SeekRow) -> Result<Option<Game>> {
        let now = super::now();
        // Taken only if still waiting: a person may have come meanwhile.
        if !store::end_seek(tx, &row.id, "paired", None).await? {
            return Ok(None);
        }
        let seek = seek_of(row.clone(), now)?;
        let player = store::player_by_id(tx, &row.player_id)
            .await?
            .ok_or_else(|| ServiceError::Internal(format!("seek {} has no player", row.id)))?;
        let level = match seek.spec.computer.and_then(|c| c.level) {
            Some(level) => level,
            None => closest_level(tx, category(&seek.spec.variant), row.rating).await?,
        };
        let seeker_black = match seek.spec.colour {
            Some(colour) => colour == Color::Black,
            None => rand::random::<bool>(),
        };
        let (black, white) = if seeker_black {
            (SeatSpec::Me, SeatSpec::Computer(level))
        } else {
            (SeatSpec::Computer(level), SeatSpec::Me)
        };
        let spec = GameSpec {
            variant: seek.spec.variant,
            black,
            white,
            clock: seek.spec.clock,
            opening: seek.spec.opening,
            rated: seek.spec.rated,
        };
        let mut game = self.new_game(tx, &player, spec, now).await?;
        super::persist::insert_game(tx, &mut game).await?;
        store::set_seek_game(tx, &row.id, &game.id).await?;
        Ok(Some(game))
    }

    async fn own_seek(&self, caller: &PlayerRow, id: &str) -> Result<Seek> {
        let mut conn = self.store.read().await?;
        let row = store::seek_by_id(&mut conn, id)
            .await?
            .filter(|row| row.player_id == caller.id)
            .ok_or_else(|| ServiceError::NotFound {
                what: "seek",
                id: id.to_string(),
            })?;
        seek_of(row, super::now())
    }
}

/// The computer level whose rating in `category` is closest to `rating`,
/// among the levels rated there by games against people; `intermediate`
/// while none is.
async fn closest_level(tx: &mut Conn, category: &str, rating: f64) -> Result<Level> {
    let mut best: Option<(f64, Level)> = None;
    for level in Level::ALL {
        if let Some(row) = store::rating_of(tx, &computer_id(level), category).await? {
            let distance = (row.rating - rating).abs();
            if best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, level));
            }
        }
    }
    Ok(best.map_or(Level::Intermediate, |(_, level)| level))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_read_back_as_they_were_written() {
        for (variant, opening, clock, rated) in [
            (
                Variant::freestyle(15).unwrap(),
                OpeningRule::Free,
                None,
                false,
            ),
            (
                Variant::renju(ForbiddenPolicy::Lose),
                OpeningRule::Yamaguchi,
                Some((300_000, 30_000)),
                true,
            ),
            (
                Variant::custom(7, 6, 4, true).unwrap(),
                OpeningRule::Free,
                None,
                true,
            ),
        ] {
            let spec = SeekSpec {
                variant,
                opening,
                clock,
                rated,
                rating_range: None,
                colour: None,
                computer: None,
            };
            let key = settings_key(&spec);
            let back = settings_of(&key).expect("a key reads back");
            assert_eq!(
                (back.variant, back.opening, back.clock, back.rated),
                (variant, opening, clock, rated),
                "{key}"
            );
        }
    }
}
