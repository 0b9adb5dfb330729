//! The computer takes its turns: in a game against the computer, after
//! each action of the person, it moves (or makes its opening decision)
//! while the game waits for its seat.

use std::time::Duration;

use super::Service;
use super::computer::Thought;
use super::error::{Result, ServiceError};
use super::game::{Game, Mode, MoveRecord, Status};
use super::play::{PlayOutcome, apply_move, decide};
use crate::engine::{Decision as EngineDecision, Level, OpeningAction};
use crate::rules::Phase;

impl Service {
    /// In a game against the computer, plays the computer's moves (and
    /// opening decisions) while it is to act. Stops quietly if someone else
    /// changed the game meanwhile.
    pub(super) async fn computer_replies(&self, outcome: &mut PlayOutcome) -> Result<()> {
        while outcome.game.mode() == Mode::Ai && outcome.game.status == Status::InProgress {
            let Some(level) = outcome.game.seat(outcome.game.turn().actor).level() else {
                break;
            };
            let budget = self.computer.budget(None);
            match self.computer_acts(&outcome.game, level, budget).await {
                Ok((game, moves)) => {
                    outcome.game = game;
                    outcome.moves.extend(moves);
                }
                Err(ServiceError::VersionMismatch { .. }) => {
                    outcome.game = self.game(&outcome.game.id).await?;
                    break;
                }
                // The person's action stands; the computer moves when asked
                // (`ai-move`) once the caller has thinking time again.
                Err(ServiceError::ThinkingBudget { .. }) => break,
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The computer acts for the seat the game waits for: an opening action
    /// while the opening asks for one, else a move.
    pub(super) async fn computer_acts(
        &self,
        game: &Game,
        level: Level,
        budget: Duration,
    ) -> Result<(Game, Vec<(MoveRecord, Option<Thought>)>)> {
        let seed = self.seed_for(game);
        if !matches!(game.turn().phase, Phase::Move | Phase::Done) {
            return self.computer_opening(game, level, budget, seed).await;
        }
        let (game, record, thought) = self.computer_move(game, level, budget).await?;
        Ok((game, vec![(record, Some(thought))]))
    }

    /// A seed for the computer's choices at this point of `game`.
    pub(super) fn seed_for(&self, game: &Game) -> u64 {
        let step = game.position.moves().len() + game.opening.log().entries().len();
        game.seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Thinks for the side to move of `game` (outside any transaction), then
    /// plays the move if the game is still where it was.
    async fn computer_move(
        &self,
        game: &Game,
        level: Level,
        budget: Duration,
    ) -> Result<(Game, MoveRecord, Thought)> {
        let seed = self.seed_for(game);
        let thought = self
            .computer
            .think(game.position.clone(), level, budget, seed, 1)
            .await?
            .ok_or_else(|| {
                ServiceError::Internal("the computer found no move in a game in progress".into())
            })?;
        let point = thought.decision.point;
        let ms = thought.elapsed.as_millis() as i64;
        let (game, record) = self
            .act(&game.id, Some(game.version), |game, now| {
                apply_move(game, point, Some(ms), now)
            })
            .await?;
        Ok((game, record, thought))
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
                        forced_loss_in: None,
                        pv: Vec::new(),
                    },
                    elapsed: Duration::from_millis(record.thinking_ms.max(0) as u64),
                };
                (record, Some(thought))
            })
            .collect();
        Ok((game, moves))
    }
}
