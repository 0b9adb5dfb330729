//! Acting on a loaded game: who may act, the point a client named, a move
//! or an opening decision applied with its checks, the end of a game. Pure
//! changes to a [`Game`] that every use case shares; nothing here reads or
//! writes the store.

use chrono::{DateTime, Utc};

use super::computer::Thought;
use super::error::{Result, ServiceError};
use super::game::{Game, GameResult, Mode, MoveRecord, Seat, Status, side};
use crate::rules::{
    Color, Decision, OpeningError, Phase, PlayError, Point, PointError, parse_point,
};
use crate::store::PlayerRow;

/// A point as a client sent it: a name like `h8`, or coordinates that may
/// be anything a JSON number can be.
#[derive(Clone, Debug)]
pub enum PointInput {
    Name(String),
    Xy(i64, i64),
}

/// What an action did: the game after it, and the moves it played (with the
/// computer's thinking for its moves).
#[derive(Clone, Debug)]
pub struct PlayOutcome {
    pub game: Game,
    pub moves: Vec<(MoveRecord, Option<Thought>)>,
}

/// Ends the game with `result`; scored unless one person held both seats.
/// Offers made during the game lapse.
pub(super) fn finish(game: &mut Game, result: GameResult) {
    game.status = Status::Finished;
    game.scored = game.mode() != Mode::Local && result.reason.was_played();
    game.result = Some(result);
    game.offer = None;
}

pub(super) fn point_name(game: &Game, p: Point) -> String {
    p.name(game.variant.height()).to_string()
}

/// The point a client named, checked against the board.
pub(super) fn resolve_point(game: &Game, input: &PointInput) -> Result<Point> {
    let (w, h) = (game.variant.width(), game.variant.height());
    match input {
        PointInput::Name(name) => parse_point(name, w, h).map_err(|e| match e {
            PointError::Syntax { .. } => ServiceError::Validation(e.to_string()),
            _ => ServiceError::OutOfBoard(e.to_string()),
        }),
        PointInput::Xy(x, y) => {
            if (0..w as i64).contains(x) && (0..h as i64).contains(y) {
                Ok(Point::new(*x as u8, *y as u8))
            } else {
                Err(ServiceError::OutOfBoard(format!(
                    "({x}, {y}) is off the {w}×{h} board (x goes from 0 to {}, y from 0 to {})",
                    w - 1,
                    h - 1
                )))
            }
        }
    }
}

/// Why a move may not be played, for the person who tried.
pub(super) fn play_error(game: &Game, e: PlayError) -> ServiceError {
    match e {
        PlayError::Occupied { point, by } => ServiceError::Occupied {
            point,
            point_name: point_name(game, point),
            by,
        },
        PlayError::Forbidden { point, kind } => ServiceError::Forbidden {
            point,
            point_name: point_name(game, point),
            kind,
        },
        PlayError::GameOver => ServiceError::GameOver,
        PlayError::OutOfBoard(e) => ServiceError::OutOfBoard(e.to_string()),
    }
}

/// Plays `p` for the side to move and records it, with the time the turn
/// took (or `thought_ms`, the computer's own measure). In the opening the
/// stone must be one the opening allows.
pub(super) fn apply_move(
    game: &mut Game,
    p: Point,
    thought_ms: Option<i64>,
    now: DateTime<Utc>,
) -> Result<MoveRecord> {
    game.opening
        .check_stone(&game.position, p)
        .map_err(|e| opening_error(game, e))?;
    let color = game.position.to_move();
    // In the opening the player acting may place the other colour's stone.
    let actor = game.turn().actor;
    // The turn ends with this move (an illegal one leaves this copy unsaved).
    let elapsed = game.end_turn(now);
    let outcome = game.position.play(p).map_err(|e| play_error(game, e))?;
    let ply = game.position.moves().len();
    let record = MoveRecord {
        ply,
        color,
        point: p,
        played_at: now,
        thinking_ms: thought_ms.unwrap_or(elapsed),
    };
    game.stored.truncate(ply - 1);
    game.stored.push(p);
    game.new_records.push(record.clone());
    if let Some(clock) = &mut game.clock {
        let left = &mut clock.remaining_ms[side(actor)];
        *left = (*left).max(clock.floor_ms);
    }
    // Moving on answers any offer still open.
    game.offer = None;
    if let Some(outcome) = outcome {
        finish(game, GameResult::from_outcome(&outcome));
    }
    Ok(record)
}

/// Who sits in a seat, for messages.
pub(super) fn seat_name(seat: &Seat) -> &str {
    match seat {
        Seat::Open => "nobody yet",
        Seat::Human { name, .. } | Seat::Computer { name, .. } => name,
    }
}

/// The seat colours `caller` holds, or why they may not act.
pub(super) fn seats_of(game: &Game, caller: &PlayerRow) -> Result<Vec<Color>> {
    let seats = game.seats_of(&caller.id);
    if seats.is_empty() {
        return Err(ServiceError::NotAPlayer);
    }
    Ok(seats)
}

pub(super) fn require_in_progress(game: &Game) -> Result<()> {
    match game.status {
        Status::Waiting => Err(ServiceError::NotStarted),
        Status::Finished => Err(ServiceError::GameOver),
        Status::InProgress => Ok(()),
    }
}

/// The seat `caller` acts for now, or why they may not act: the side to
/// move, or in the opening whoever the opening waits for.
pub(super) fn require_turn(game: &Game, caller: &PlayerRow) -> Result<Color> {
    let seats = seats_of(game, caller)?;
    require_in_progress(game)?;
    let turn = game.turn();
    let actor = turn.actor;
    if seats.contains(&actor) {
        return Ok(actor);
    }
    let what = match turn.phase {
        Phase::Move | Phase::Done => format!("{actor}'s turn"),
        phase => format!("the opening's {} phase, for {actor}", phase.as_str()),
    };
    Err(ServiceError::NotYourTurn(match game.seat(actor) {
        Seat::Computer { .. } => format!(
            "it is {what} and the computer plays {actor}: POST /v1/games/{}/ai-move",
            game.id
        ),
        Seat::Human { name, .. } => format!("it is {what} ({name} plays {actor})"),
        Seat::Open => format!("it is {what}"),
    }))
}

/// In a local game, takes back the opening decision made after the last
/// stone, if there is one (a swap exchanges the seats back); what could be
/// redone is forgotten, as after a new move.
pub(super) fn take_back_decision(game: &mut Game) -> bool {
    let ply = game.position.moves().len();
    match game.opening.take_back(ply) {
        Some(decision) => {
            if decision == Decision::Swap(true) {
                game.swap_seats();
            }
            game.position.forget_redo();
            game.stored.truncate(ply);
            true
        }
        None => false,
    }
}

/// An opening refusal as the service words it, with point names.
pub(super) fn opening_error(game: &Game, e: OpeningError) -> ServiceError {
    match e {
        OpeningError::DecisionRequired { .. } => ServiceError::OpeningDecisionRequired(format!(
            "{e}: POST /v1/games/{}/opening",
            game.id
        )),
        OpeningError::NotNow { .. } => ServiceError::OpeningWrongPhase(e.to_string()),
        OpeningError::OutsideZone { .. } => ServiceError::OutsideOpeningZone(e.to_string()),
        OpeningError::NotOffered { .. } => ServiceError::NotOffered(e.to_string()),
        OpeningError::SymmetricOffers { .. } => ServiceError::SymmetricOffers(e.to_string()),
        OpeningError::Play(e) => play_error(game, e),
        OpeningError::Log(_) => ServiceError::Internal(e.to_string()),
        OpeningError::UnknownRule(_)
        | OpeningError::NotForVariant { .. }
        | OpeningError::OfferCount { .. }
        | OpeningError::SameOffer { .. }
        | OpeningError::DeclaredCount { .. } => ServiceError::Validation(e.to_string()),
    }
}

/// Makes `decision` for the seat that acts (checked first): its time goes
/// on that seat's clock, a swap exchanges the players' seats, and any offer
/// still open lapses.
pub(super) fn decide(game: &mut Game, decision: Decision, now: DateTime<Utc>) -> Result<()> {
    game.opening
        .check_decision(&game.position, &decision)
        .map_err(|e| opening_error(game, e))?;
    game.end_turn(now);
    if decision == Decision::Swap(true) {
        game.swap_seats();
    }
    game.opening.record(game.position.moves().len(), decision);
    game.offer = None;
    Ok(())
}
