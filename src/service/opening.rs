//! The opening's own actions: a swap of colours, Yamaguchi's declared
//! count, black's fifth-move offers, white's choice among them, and
//! placing several opening stones at once; for a person through
//! `POST …/opening`, and for the computer when its seat is asked.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::Service;
use super::computer::Thought;
use super::error::{Result, ServiceError};
use super::game::{Game, MoveRecord};
use super::games::{PlayOutcome, PointInput, apply_move, play_error, require_turn, resolve_point};
use crate::engine::{Decision as EngineDecision, Level, OpeningAction};
use crate::rules::{Decision, OpeningError, Phase, Point};
use crate::store::PlayerRow;

/// What a player asks of the opening.
#[derive(Clone, Debug)]
pub enum OpeningRequest {
    /// Keep the colours (`false`) or exchange them.
    Swap(bool),
    /// Yamaguchi: the number of fifth moves black will offer.
    Declare(u8),
    /// Black's fifth-move offers.
    Offer(Vec<PointInput>),
    /// White's choice among the offers (it is played as move 5).
    Choose(PointInput),
    /// Opening stones, in order: the first player's first stones, or swap2's
    /// two more (white, then black).
    Place(Vec<PointInput>),
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
fn decide(game: &mut Game, decision: Decision, now: DateTime<Utc>) -> Result<()> {
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

/// Places a person's opening stones in order; swap2's second player
/// announces its two first.
fn place(game: &mut Game, stones: &[Point], now: DateTime<Utc>) -> Result<Vec<MoveRecord>> {
    match game.turn().phase {
        Phase::SwapOrPlace if stones.len() == 2 => decide(game, Decision::PlaceTwo, now)?,
        Phase::SwapOrPlace => {
            return Err(ServiceError::Validation(format!(
                "place exactly two stones here (white's, then black's), not {}",
                stones.len()
            )));
        }
        Phase::Place { left } if stones.is_empty() || stones.len() > left as usize => {
            return Err(ServiceError::Validation(format!(
                "place from 1 to {left} opening stone(s) now, not {}",
                stones.len()
            )));
        }
        Phase::Place { .. } => {}
        phase => {
            return Err(opening_error(
                game,
                OpeningError::NotNow {
                    action: "place",
                    phase,
                },
            ));
        }
    }
    stones
        .iter()
        .map(|&p| apply_move(game, p, None, now))
        .collect()
}

impl Service {
    /// The caller's opening action in game `id`; against the computer, its
    /// answer follows.
    pub async fn opening(
        &self,
        caller: &PlayerRow,
        id: &str,
        request: &OpeningRequest,
        if_match: Option<i64>,
    ) -> Result<PlayOutcome> {
        let (game, records) = self
            .act(id, if_match, |game, now| {
                require_turn(game, caller)?;
                let points = |inputs: &[PointInput]| {
                    inputs
                        .iter()
                        .map(|input| resolve_point(game, input))
                        .collect::<Result<Vec<Point>>>()
                };
                match request {
                    OpeningRequest::Swap(swap) => {
                        decide(game, Decision::Swap(*swap), now).map(|()| Vec::new())
                    }
                    OpeningRequest::Declare(count) => {
                        decide(game, Decision::Declare(*count), now).map(|()| Vec::new())
                    }
                    OpeningRequest::Offer(inputs) => {
                        let offered = points(inputs)?;
                        decide(game, Decision::Offer(offered), now).map(|()| Vec::new())
                    }
                    OpeningRequest::Choose(input) => {
                        let phase = game.turn().phase;
                        if phase != Phase::Choose {
                            return Err(opening_error(
                                game,
                                OpeningError::NotNow {
                                    action: "choose",
                                    phase,
                                },
                            ));
                        }
                        let p = resolve_point(game, input)?;
                        apply_move(game, p, None, now).map(|record| vec![record])
                    }
                    OpeningRequest::Place(inputs) => {
                        let stones = points(inputs)?;
                        place(game, &stones, now)
                    }
                }
            })
            .await?;
        let mut outcome = PlayOutcome {
            game,
            moves: records.into_iter().map(|r| (r, None)).collect(),
        };
        self.computer_replies(&mut outcome).await?;
        Ok(outcome)
    }

    /// The computer's opening action for the seat asked, played if the game
    /// is still where it was.
    pub(super) async fn computer_opening(
        &self,
        game: &Game,
        level: Level,
        budget: Duration,
        seed: u64,
    ) -> Result<(Game, Vec<(MoveRecord, Option<Thought>)>)> {
        let (action, elapsed) = self
            .computer
            .decide_opening(
                game.position.clone(),
                game.opening.clone(),
                level,
                budget,
                seed,
            )
            .await?
            .ok_or_else(|| {
                ServiceError::Internal("the computer has no opening action to make".into())
            })?;
        let ms = elapsed.as_millis() as i64;
        let (game, records): (Game, Vec<MoveRecord>) = self
            .act(&game.id, Some(game.version), |game, now| {
                let stones = match &action {
                    OpeningAction::Stones(stones) => stones,
                    OpeningAction::Decide { decision, then } => {
                        decide(game, decision.clone(), now)?;
                        then
                    }
                };
                // The time it thought goes on the first stone, or went on
                // the decision.
                let mut time = Some(ms).filter(|_| matches!(action, OpeningAction::Stones(_)));
                stones
                    .iter()
                    .map(|&p| apply_move(game, p, Some(time.take().unwrap_or(0)), now))
                    .collect()
            })
            .await?;
        // Each stone the computer placed, with its level and time.
        let moves = records
            .into_iter()
            .map(|record| {
                let thought = Thought {
                    level,
                    decision: EngineDecision {
                        point: record.point,
                        candidates: Vec::new(),
                        depth: 0,
                        nodes: 0,
                        forced_win_in: None,
                    },
                    elapsed: Duration::from_millis(record.thinking_ms.max(0) as u64),
                };
                (record, Some(thought))
            })
            .collect();
        Ok((game, moves))
    }
}
