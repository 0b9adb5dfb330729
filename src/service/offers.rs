//! Takeback and draw offers in an online game: who may make one, and
//! whose answer one waits for (with the three-declines limit).

use chrono::{DateTime, Utc};

use super::error::{Result, ServiceError};
use super::game::{Declines, Game, Mode, Offer, OfferKind};
use super::play::{require_in_progress, seats_of};
use crate::rules::Color;
use crate::store::PlayerRow;

/// What a player may offer while the game is being played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameOffer {
    Takeback,
    Draw,
}

impl GameOffer {
    pub const fn kind(self) -> OfferKind {
        match self {
            GameOffer::Takeback => OfferKind::Takeback,
            GameOffer::Draw => OfferKind::Draw,
        }
    }
}

/// The caller offers a takeback or a draw in `game` (also what undo does in
/// an online game).
pub(super) fn ask(
    game: &mut Game,
    caller: &PlayerRow,
    offer: GameOffer,
    now: DateTime<Utc>,
) -> Result<()> {
    let kind = offer.kind();
    let me = online_seat(game, caller, kind)?;
    require_in_progress(game)?;
    check_can_offer(game, me, kind)?;
    if offer == GameOffer::Takeback && game.moves_back_to_turn_of(me).is_none() {
        return Err(ServiceError::NothingToUndo(if game.opening.end_ply() > 0 {
            "you have no move after the opening to take back: the opening's stones and decisions stand".into()
        } else {
            "you have no move on the board to take back".into()
        }));
    }
    game.offer = Some(Offer {
        kind,
        by: me,
        at: now,
    });
    Ok(())
}

pub(super) fn what(kind: OfferKind) -> &'static str {
    match kind {
        OfferKind::Takeback => "takeback request",
        OfferKind::Draw => "draw offer",
        OfferKind::Rematch => "rematch proposal",
    }
}

/// The colour the caller plays in an online game, or why they cannot make
/// or answer offers in it.
pub(super) fn online_seat(game: &Game, caller: &PlayerRow, kind: OfferKind) -> Result<Color> {
    let seats = seats_of(game, caller)?;
    if game.mode() != Mode::Online {
        return Err(ServiceError::NotOnline(match kind {
            OfferKind::Takeback => {
                "takeback requests are for online games; here POST …/undo takes moves back".into()
            }
            _ => format!("{}s are for games between two people", what(kind)),
        }));
    }
    Ok(seats[0])
}

/// Whether `me` may make an offer of `kind` now.
pub(super) fn check_can_offer(game: &Game, me: Color, kind: OfferKind) -> Result<()> {
    if let Some(offer) = &game.offer {
        return Err(ServiceError::OfferPending(if offer.by == me {
            format!("your {} is still waiting for an answer", what(offer.kind))
        } else {
            format!(
                "your opponent's {} is waiting for your answer: accept or decline it first",
                what(offer.kind)
            )
        }));
    }
    if game.declines.get(me, kind) >= Declines::LIMIT {
        return Err(ServiceError::OfferLimit { kind });
    }
    Ok(())
}

/// The opponent's offer of `kind` that `me` is answering.
pub(super) fn pending_for(game: &Game, me: Color, kind: OfferKind) -> Result<Offer> {
    match &game.offer {
        Some(offer) if offer.kind == kind && offer.by != me => Ok(offer.clone()),
        Some(offer) if offer.kind == kind => Err(ServiceError::NoOffer(format!(
            "this {} is your own: your opponent answers it",
            what(kind)
        ))),
        Some(offer) => Err(ServiceError::NoOffer(format!(
            "the offer waiting is a {}, not a {}",
            what(offer.kind),
            what(kind)
        ))),
        None => Err(ServiceError::NoOffer(format!(
            "there is no {} to answer",
            what(kind)
        ))),
    }
}
