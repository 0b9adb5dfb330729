//! The opening's own actions: a swap of colours, Yamaguchi's declared
//! count, black's fifth-move offers, white's choice among them, and
//! placing several opening stones at once; for a person through
//! `POST …/opening`, and for the computer when its seat is asked.

use chrono::{DateTime, Utc};

use super::Service;
use super::error::{Result, ServiceError};
use super::game::{Game, MoveRecord};
use super::play::{
    PlayOutcome, PointInput, apply_move, decide, opening_error, require_turn, resolve_point,
};
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
}
