//! A game as pictures show it: the board at any move, and every move for an
//! animation.

use super::error::{Result, ServiceError};
use super::game::{Game, Status};
use crate::pictures::Diagram;
use crate::rules::{Color, Position, RuleSet};

impl Game {
    /// The board after `ply` moves (default: as it stands), with the last
    /// move, the winning row when the game ended there, and black's
    /// forbidden points when black is to move in renju.
    pub fn diagram(&self, ply: Option<usize>) -> Result<Diagram> {
        let played = self.position.moves();
        let ply = ply.unwrap_or(played.len());
        if ply > played.len() {
            return Err(ServiceError::PlyNotPlayed(format!(
                "this game has {} moves on the board: ask for a ply from 0 to {}, not {ply}",
                played.len(),
                played.len()
            )));
        }
        let mut position = Position::new(self.variant);
        for &p in &played[..ply] {
            // The game's own moves replay.
            let _ = position.play(p);
        }
        let at_end = ply == played.len();
        let mut diagram = self.frame(&played[..ply], at_end);
        if !at_end || self.status == Status::InProgress {
            diagram.forbidden = position
                .forbidden_points()
                .into_iter()
                .map(|(p, _)| p)
                .collect();
        }
        Ok(diagram)
    }

    /// The board after each move from the empty board to now: an
    /// animation's frames.
    pub fn diagrams(&self) -> Vec<Diagram> {
        let played = self.position.moves();
        (0..=played.len())
            .map(|ply| self.frame(&played[..ply], ply == played.len()))
            .collect()
    }

    fn frame(&self, moves: &[crate::rules::Point], at_end: bool) -> Diagram {
        Diagram {
            width: self.variant.width(),
            height: self.variant.height(),
            cells: self.variant.rule_set() == RuleSet::TicTacToe,
            stones: moves
                .iter()
                .enumerate()
                .map(|(i, &p)| (p, Color::of_ply(i)))
                .collect(),
            last: moves.last().copied(),
            winning_line: match (&self.result, at_end) {
                (Some(result), true) => result.winning_line.clone(),
                _ => Vec::new(),
            },
            forbidden: Vec::new(),
        }
    }
}
