//! The computer's view of any position, no game needed.

use std::time::Duration;

use super::error::{Result, ServiceError};
use super::{Service, Thought};
use crate::engine::Level;
use crate::rules::{Outcome, Point, Position, Variant};

/// A position to analyse: the moves that made it, or its board.
#[derive(Clone, Debug)]
pub enum PositionInput {
    /// Points in the order played, black first.
    Moves(Vec<String>),
    /// Rows, top first: `.` empty, `X` black, `O` white.
    Board(Vec<String>),
}

impl Service {
    /// The computer's analysis of the position `input` describes under
    /// `variant`: the best `count` candidates with their scores, the
    /// evaluation, the depth and the line it expects. Bounded like every
    /// search (thinking-time budget, the server's cap, ENGINE_BUSY when
    /// every slot is taken).
    pub async fn analyse(
        &self,
        variant: Variant,
        input: PositionInput,
        level: Level,
        budget: Option<Duration>,
        count: usize,
    ) -> Result<(Position, Thought)> {
        let position = position_of(variant, input)?;
        let budget = self.computer.budget(budget);
        let seed = 0x5EED ^ position.board().points().count() as u64;
        let thought = self
            .computer
            .think(position.clone(), level, budget, seed, count)
            .await?
            .ok_or_else(|| ServiceError::Validation("no point may be played here".into()))?;
        Ok((position, thought))
    }
}

fn position_of(variant: Variant, input: PositionInput) -> Result<Position> {
    let position = match input {
        PositionInput::Moves(moves) => {
            let mut position = Position::new(variant);
            for (n, name) in moves.iter().enumerate() {
                let invalid =
                    |why: String| ServiceError::Validation(format!("moves[{n}] ({name:?}): {why}"));
                let p: Point = crate::rules::parse_point(name, variant.width(), variant.height())
                    .map_err(|e| invalid(e.to_string()))?;
                if position.is_over() {
                    return Err(invalid("the game was over before this move".into()));
                }
                position.play(p).map_err(|e| invalid(e.to_string()))?;
            }
            position
        }
        PositionInput::Board(rows) => Position::from_rows(variant, &rows)
            .map_err(|e| ServiceError::Validation(format!("board: {e}")))?,
    };
    if let Some(outcome) = position.outcome() {
        let how = match outcome {
            Outcome::Win { winner, .. } => format!("{winner} has won"),
            Outcome::Draw => "the board is full".into(),
        };
        return Err(ServiceError::Validation(format!(
            "{how}: there is nothing to analyse"
        )));
    }
    if let Some((color, line)) = position.row_on_board() {
        let height = variant.height();
        let names: Vec<String> = line.iter().map(|p| p.name(height).to_string()).collect();
        return Err(ServiceError::Validation(format!(
            "{color} already has a row ({}): there is nothing to analyse",
            names.join(" ")
        )));
    }
    Ok(position)
}
