//! What a use case can refuse, and why. The HTTP layer gives each a status
//! and a stable code; the messages here are written for the person calling.

use super::OfferKind;
use crate::rules::{Color, ForbiddenKind, Point};
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ServiceError {
    #[error("no {what} with id {id:?}")]
    NotFound { what: &'static str, id: String },
    #[error("{0}")]
    Validation(String),
    /// A position the game has not reached.
    #[error("{0}")]
    PlyNotPlayed(String),
    #[error("{0}")]
    OutOfBoard(String),
    /// A record that cannot be imported: its format, or a move the rules
    /// refuse (the message names the move).
    #[error("{0}")]
    ImportInvalid(String),
    #[error("{point_name} is already taken by {by}: choose an empty point")]
    Occupied {
        point: Point,
        point_name: String,
        by: Color,
    },
    #[error("{point_name} is forbidden for black ({kind}): choose another point")]
    Forbidden {
        point: Point,
        point_name: String,
        kind: ForbiddenKind,
    },
    #[error("{0}")]
    NotYourTurn(String),
    #[error("the game is over; start a new one (or undo, in local and computer games)")]
    GameOver,
    #[error("the game has not started: it is waiting for a player to join the open seat")]
    NotStarted,
    #[error("{0}")]
    NothingToUndo(String),
    #[error("there is nothing to redo")]
    NothingToRedo,
    #[error("{0}")]
    NotOnline(String),
    #[error("{0}")]
    OfferPending(String),
    #[error("{0}")]
    NoOffer(String),
    #[error(
        "your opponent has declined three of your {} in this game: you cannot ask again",
        kind_plural(*.kind)
    )]
    OfferLimit { kind: OfferKind },
    #[error("{0}")]
    NoInvitation(String),
    #[error("{0}")]
    AlreadyStarted(String),
    #[error("{0}")]
    RematchUnavailable(String),
    #[error("{0}")]
    ClaimNotAllowed(String),
    #[error(
        "your opponent's turn has lasted less than the idle time: you can claim the win in {retry_after_secs} s if they still have not moved"
    )]
    ClaimTooEarly { retry_after_secs: u64 },
    #[error("{0}")]
    SeatUnavailable(String),
    #[error("{0}")]
    HintNotAllowed(String),
    /// The opening waits for a decision (swap, declare, offer), not a stone.
    #[error("{0}")]
    OpeningDecisionRequired(String),
    /// An opening action the opening does not wait for now.
    #[error("{0}")]
    OpeningWrongPhase(String),
    #[error("{0}")]
    OutsideOpeningZone(String),
    /// A fifth move that black did not offer.
    #[error("{0}")]
    NotOffered(String),
    #[error("{0}")]
    SymmetricOffers(String),
    #[error("the game is at version {current}, not {expected}: reload it and try again")]
    VersionMismatch { expected: i64, current: i64 },
    #[error(
        "a bearer token is required: send \"Authorization: Bearer <token>\" with the token you got when the player was created"
    )]
    Unauthorized,
    #[error("that token belongs to no player: use the token returned when your player was created")]
    BadToken,
    #[error("you are not a player of this game")]
    NotAPlayer,
    #[error("the computer is busy with other games; try again in a moment")]
    EngineBusy { retry_after_secs: u64 },
    #[error(
        "you have used your share of the computer's thinking time ({per_minute_ms} ms a minute): try again in {retry_after_secs} s"
    )]
    ThinkingBudget {
        per_minute_ms: u64,
        retry_after_secs: u64,
    },
    #[error("internal error")]
    Store(#[from] StoreError),
    #[error("internal error: {0}")]
    Internal(String),
}

pub type Result<T, E = ServiceError> = std::result::Result<T, E>;

fn kind_plural(kind: OfferKind) -> &'static str {
    match kind {
        OfferKind::Takeback => "takeback requests",
        OfferKind::Draw => "draw offers",
        OfferKind::Rematch => "rematch proposals",
    }
}
