//! Two people on two devices: invitations, takebacks and draw offers (with
//! the three-declines limit), rematches, claims against a player who walked
//! away, and the watcher that ends timed games when a clock runs out, with
//! nobody calling the API.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::error::{Result, ServiceError};
use super::game::{Clock, Game, GameResult, Mode, NewGame, Offer, OfferKind, Reason, Status};
use super::offers::{GameOffer, ask, check_can_offer, online_seat, pending_for};
use super::play::{PlayOutcome, finish, require_in_progress, seat_name, seats_of};
use super::{Service, random_id};
use crate::rules::Color;
use crate::store::{self, PlayerRow};

/// Settings of online play.
#[derive(Clone, Debug)]
pub struct OnlineConfig {
    /// How long the side to move may be idle in an untimed online game
    /// before the opponent may claim the win.
    pub idle_limit: Duration,
}

impl Default for OnlineConfig {
    fn default() -> Self {
        OnlineConfig {
            idle_limit: Duration::from_secs(600),
        }
    }
}

/// What proposing a rematch did.
#[derive(Clone, Debug)]
pub enum RematchOutcome {
    /// The proposal waits for the opponent (the finished game, with it).
    Proposed(Game),
    /// Against the computer (or in a local game) the new game starts at once.
    Created(PlayOutcome),
}

/// The longest the clock watcher sleeps without looking again.
const MAX_NAP: Duration = Duration::from_secs(30);

/// Whether a finished game can have a rematch.
fn check_rematch_available(game: &Game) -> Result<()> {
    let Some(result) = &game.result else {
        return Err(ServiceError::RematchUnavailable(
            "a rematch can be proposed once the game is over".into(),
        ));
    };
    if !result.reason.was_played() {
        return Err(ServiceError::RematchUnavailable(
            "this game was never played: create a new one".into(),
        ));
    }
    if let Some(id) = &game.rematch_id {
        return Err(ServiceError::RematchUnavailable(format!(
            "this game already has its rematch: /v1/games/{id}"
        )));
    }
    Ok(())
}

/// The rematch of a finished game: same rules, clock and players, colours
/// swapped. It becomes `game.spawned`, written with `game`.
fn spawn_rematch(game: &mut Game, created_by: &str, now: DateTime<Utc>) -> Game {
    let rematch = Game::create(
        random_id("g_"),
        NewGame {
            variant: game.variant,
            black: game.white.clone(),
            white: game.black.clone(),
            created_by: created_by.to_string(),
            invited: None,
            clock: game.clock.map(|c| Clock::new(c.main_ms, c.floor_ms)),
            idle_limit_ms: game.idle_limit_ms,
            rematch_of: Some(game.id.clone()),
            opening: game.opening.rule(),
            rated: game.rated,
        },
        now,
    );
    game.rematch_id = Some(rematch.id.clone());
    game.offer = None;
    game.spawned = Some(Box::new(rematch.clone()));
    rematch
}

impl Service {
    /// Asks the opponent for a takeback or offers a draw.
    pub async fn offer(
        &self,
        caller: &PlayerRow,
        id: &str,
        offer: GameOffer,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, now| ask(game, caller, offer, now))
            .await
    }

    /// Accepts the opponent's takeback request (moves go back to the
    /// requester's last turn) or draw offer (the game ends drawn).
    pub async fn accept(
        &self,
        caller: &PlayerRow,
        id: &str,
        offer: GameOffer,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            let kind = offer.kind();
            let me = online_seat(game, caller, kind)?;
            let pending = pending_for(game, me, kind)?;
            require_in_progress(game)?;
            game.end_turn(now);
            game.offer = None;
            match offer {
                GameOffer::Takeback => {
                    let count = game.moves_back_to_turn_of(pending.by).ok_or_else(|| {
                        ServiceError::NothingToUndo("there is no move to take back".into())
                    })?;
                    for _ in 0..count {
                        game.position.undo();
                    }
                }
                GameOffer::Draw => finish(
                    game,
                    GameResult {
                        winner: None,
                        reason: Reason::DrawAgreed,
                        winning_line: Vec::new(),
                    },
                ),
            }
            Ok(())
        })
        .await
    }

    /// Declines the opponent's offer; the third declined offer of a kind is
    /// that player's last.
    pub async fn decline(
        &self,
        caller: &PlayerRow,
        id: &str,
        kind: OfferKind,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, _| {
            let me = online_seat(game, caller, kind)?;
            let offer = pending_for(game, me, kind)?;
            game.declines.add(offer.by, kind);
            game.offer = None;
            Ok(())
        })
        .await
    }

    /// Proposes a rematch of a finished game: same players, colours swapped.
    /// Against the computer (or alone) the new game starts at once.
    pub async fn rematch(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<RematchOutcome> {
        let (game, created) = self
            .act(id, if_match, |game, now| {
                let seats = game.seats_of(&caller.id);
                let watching_own = game.mode() == Mode::AiVsAi && game.created_by == caller.id;
                if seats.is_empty() && !watching_own {
                    return Err(ServiceError::NotAPlayer);
                }
                check_rematch_available(game)?;
                if game.mode() == Mode::Online {
                    let me = seats[0];
                    check_can_offer(game, me, OfferKind::Rematch)?;
                    game.offer = Some(Offer {
                        kind: OfferKind::Rematch,
                        by: me,
                        at: now,
                    });
                    Ok(None)
                } else {
                    Ok(Some(spawn_rematch(game, &caller.id, now)))
                }
            })
            .await?;
        Ok(match created {
            None => RematchOutcome::Proposed(game),
            Some(rematch) => {
                let mut outcome = PlayOutcome {
                    game: rematch,
                    moves: Vec::new(),
                };
                self.computer_replies(&mut outcome).await?;
                RematchOutcome::Created(outcome)
            }
        })
    }

    /// Accepts the opponent's rematch proposal: the new game, which starts
    /// at once.
    pub async fn accept_rematch(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        let (_, rematch) = self
            .act(id, if_match, |game, now| {
                let me = online_seat(game, caller, OfferKind::Rematch)?;
                let offer = pending_for(game, me, OfferKind::Rematch)?;
                check_rematch_available(game)?;
                let proposer = game
                    .seat(offer.by)
                    .player_id()
                    .unwrap_or(&caller.id)
                    .to_string();
                Ok(spawn_rematch(game, &proposer, now))
            })
            .await?;
        Ok(rematch)
    }

    /// The invited player accepts: the game begins.
    pub async fn accept_invitation(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            invitation_for(game, caller)?;
            game.start(now);
            Ok(())
        })
        .await
    }

    /// The invited player declines: the game ends unplayed and unscored.
    pub async fn decline_invitation(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, _| {
            invitation_for(game, caller)?;
            end_unplayed(game, Reason::Declined);
            Ok(())
        })
        .await
    }

    /// Calls off a game still waiting for a player (an open seat or an
    /// unanswered invitation): it ends unplayed and unscored.
    pub async fn cancel(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, _| {
            seats_of(game, caller)?;
            if game.status != Status::Waiting {
                return Err(ServiceError::AlreadyStarted(
                    "only a game still waiting for a player can be cancelled: resign instead"
                        .into(),
                ));
            }
            if game.invited.is_some() && game.created_by != caller.id {
                return Err(ServiceError::AlreadyStarted(
                    "this is an invitation to you: decline it instead".into(),
                ));
            }
            end_unplayed(game, Reason::Cancelled);
            Ok(())
        })
        .await
    }

    /// Claims the win in an online game whose side to move has been idle
    /// longer than the idle limit: the leaver scores −3, the claimer +1.
    pub async fn claim_win(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            let seats = seats_of(game, caller)?;
            if game.mode() != Mode::Online {
                return Err(ServiceError::NotOnline(
                    "the win can be claimed only in online games".into(),
                ));
            }
            require_in_progress(game)?;
            let me = seats[0];
            if game.turn().actor == me {
                return Err(ServiceError::ClaimNotAllowed(
                    "it is your turn: only the player waiting for a move can claim the win".into(),
                ));
            }
            if game.clock.is_some() {
                return Err(ServiceError::ClaimNotAllowed(
                    "this game is timed: it ends by itself when your opponent's clock runs out"
                        .into(),
                ));
            }
            let at = game.claimable_at().ok_or_else(|| {
                ServiceError::ClaimNotAllowed("this game has no idle limit".into())
            })?;
            if now < at {
                let wait_ms = (at - now).num_milliseconds().max(1) as u64;
                return Err(ServiceError::ClaimTooEarly {
                    retry_after_secs: wait_ms.div_ceil(1000),
                });
            }
            game.end_turn(now);
            finish(
                game,
                GameResult {
                    winner: Some(me),
                    reason: Reason::Abandoned,
                    winning_line: Vec::new(),
                },
            );
            Ok(())
        })
        .await
    }

    /// Ends timed games when their clock runs out, whether or not anyone is
    /// calling the API; runs until the task is dropped. Sleeps until the
    /// earliest deadline, and looks again whenever a timed game is written.
    pub async fn watch_clocks(self) {
        loop {
            let next = async {
                let mut conn = self.store.read().await?;
                Ok::<_, ServiceError>(store::next_deadline(&mut conn).await?)
            }
            .await;
            let nap = match next {
                Ok(Some((id, deadline_ms))) => {
                    let left = deadline_ms - Utc::now().timestamp_millis();
                    if left > 0 {
                        Duration::from_millis(left as u64).min(MAX_NAP)
                    } else {
                        match self.time_out(&id).await {
                            Ok(true) => continue,
                            // Stored to the millisecond, due a moment later.
                            Ok(false) => Duration::from_millis(1),
                            Err(e) => {
                                tracing::error!(game_id = %id, error = %e, "could not end a game on time");
                                Duration::from_secs(1)
                            }
                        }
                    }
                }
                Ok(None) => MAX_NAP,
                Err(e) => {
                    tracing::error!(error = %e, "could not read the clocks");
                    Duration::from_secs(1)
                }
            };
            tokio::select! {
                () = tokio::time::sleep(nap) => {}
                () = self.clocks_changed.notified() => {}
            }
        }
    }

    /// Ends game `id` on time if its side to move has run out; whether it did.
    async fn time_out(&self, id: &str) -> Result<bool> {
        if !self.game(id).await?.out_of_time(Utc::now()) {
            return Ok(false);
        }
        // Every action first ends a game whose clock has run out.
        self.act_maybe(id, None, |_, _| Ok(None::<()>)).await?;
        Ok(true)
    }
}

/// The caller's pending invitation in `game`, or why there is none.
fn invitation_for(game: &Game, caller: &PlayerRow) -> Result<Color> {
    seats_of(game, caller)?;
    match game.invited {
        Some(color) if game.seat(color).player_id() == Some(caller.id.as_str()) => Ok(color),
        Some(color) => Err(ServiceError::NoInvitation(format!(
            "you sent this invitation: {} accepts or declines it",
            seat_name(game.seat(color))
        ))),
        None => Err(ServiceError::NoInvitation(
            "this game is not waiting for you to accept an invitation".into(),
        )),
    }
}

/// Ends a game that never began.
fn end_unplayed(game: &mut Game, reason: Reason) {
    game.invited = None;
    finish(
        game,
        GameResult {
            winner: None,
            reason,
            winning_line: Vec::new(),
        },
    );
}
