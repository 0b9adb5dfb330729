//! Moves played and the computer's thinking: move records, hints, a created game.

use chrono::{DateTime, Utc};
use serde::Serialize;
use utoipa::ToSchema;

use super::{GameView, PointView};
use crate::engine::{Candidate, Decision};
use crate::service::{MoveRecord, Thought};

/// What the computer spent on a move, and what it saw.
#[derive(Debug, Serialize, ToSchema)]
pub struct ComputerInfo {
    pub level: String,
    pub time_ms: u64,
    /// Search depth reached, in plies.
    pub depth: u32,
    /// Positions searched; 0 when the move came from the expert's opening
    /// book (its depth and score are then those of the search that wrote
    /// the book).
    pub nodes: u64,
    /// The evaluation of its move for the side that plays it: higher is
    /// better; in the millions, a win found.
    pub score: i64,
    /// Plies to a forced win for the side that plays it, when one was found.
    pub forced_win_in: Option<u32>,
    /// Plies to a forced loss for the side that plays it, when the search
    /// proved one (it then plays the move that holds out longest).
    pub forced_loss_in: Option<u32>,
    /// The line the computer expects, starting with its move: the best
    /// reply, its answer, and so on, as far as its search saw.
    pub pv: Vec<PointView>,
}

impl ComputerInfo {
    pub fn new(t: &Thought, height: u8) -> Self {
        let d = &t.decision;
        ComputerInfo {
            level: t.level.to_string(),
            time_ms: t.elapsed.as_millis() as u64,
            depth: d.depth,
            nodes: d.nodes,
            score: d.score(),
            forced_win_in: d.forced_win_in,
            forced_loss_in: d.forced_loss_in,
            pv: d.pv.iter().map(|&p| PointView::new(p, height)).collect(),
        }
    }
}

/// One move of the record.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    /// 1-based.
    pub ply: usize,
    /// `black` or `white`.
    pub color: &'static str,
    pub point: PointView,
    pub played_at: DateTime<Utc>,
    /// Time from getting the turn to playing.
    pub thinking_ms: i64,
    /// For a move the computer just chose: how.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub computer: Option<ComputerInfo>,
}

impl MoveView {
    pub fn new(record: &MoveRecord, height: u8, thought: Option<&Thought>) -> Self {
        MoveView {
            ply: record.ply,
            color: record.color.as_str(),
            point: PointView::new(record.point, height),
            played_at: record.played_at,
            thinking_ms: record.thinking_ms,
            computer: thought.map(|t| ComputerInfo::new(t, height)),
        }
    }
}

/// The moves a request played and the game after them.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"moves": [
    {"ply": 1, "color": "black", "point": {"x": 7, "y": 7, "name": "h8"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 5012},
    {"ply": 2, "color": "white", "point": {"x": 7, "y": 6, "name": "h9"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 3,
     "computer": {"level": "intermediate", "time_ms": 3, "depth": 1, "nodes": 41, "score": 230,
       "forced_win_in": null, "forced_loss_in": null, "pv": [{"x": 7, "y": 6, "name": "h9"}]}}],
    "game": {"id": "g_2h7k9m3p5r8t1v4x", "rules": "freestyle", "width": 15, "height": 15, "k": 5, "overline_wins": true,
             "forbidden_policy": null, "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6", "name": "Ada", "level": null},
             "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
             "mode": "ai", "board": ["...............", "...............", "...............", "...............", "...............",
             "...............", ".......O.......", ".......X.......", "...............", "...............", "...............",
             "...............", "...............", "...............", "..............."],
             "ply": 2, "to_move": "black", "status": "in_progress", "result": null, "last_move": {"x": 7, "y": 6, "name": "h9"},
             "forbidden": [], "can_undo": true, "can_redo": false, "invited": null, "offer": null,
             "declined": {"black": {"takeback": 0, "draw": 0, "rematch": 0}, "white": {"takeback": 0, "draw": 0, "rematch": 0}},
             "clock": null, "thinking_ms": {"black": 5012, "white": 3}, "claimable_at": null, "rematch_of": null, "rematch_id": null,
             "version": 3,
             "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:05Z"}}))]
pub struct MovesPlayed {
    /// Your move, then the computer's reply when it played one.
    pub moves: Vec<MoveView>,
    pub game: GameView,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"game_id": "g_2h7k9m3p5r8t1v4x", "version": 3, "moves": [
    {"ply": 1, "color": "black", "point": {"x": 7, "y": 7, "name": "h8"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 5012},
    {"ply": 2, "color": "white", "point": {"x": 7, "y": 6, "name": "h9"}, "played_at": "2026-11-22T10:00:05Z", "thinking_ms": 3}]}))]
pub struct MoveList {
    pub game_id: String,
    pub version: i64,
    pub moves: Vec<MoveView>,
}

/// Who you are in a game you just created.
#[derive(Debug, Serialize, ToSchema)]
pub struct You {
    pub player_id: String,
    /// Only when a guest player was just made for you: keep it, it is shown once.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
}

/// A new game: its state, the computer's opening move if it plays black,
/// and who you are.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "game": {"id": "g_2h7k9m3p5r8t1v4x", "rules": "freestyle", "width": 15, "height": 15, "k": 5, "overline_wins": true,
             "forbidden_policy": null, "seats": {"black": {"kind": "human", "player_id": "p_8fk2m9x1c4v7b3n6", "name": "Guest 93q2cz", "level": null},
             "white": {"kind": "computer", "player_id": "ai-intermediate", "name": "Computer (intermediate)", "level": "intermediate"}},
             "mode": "ai", "board": ["...............", "...............", "...............", "...............", "...............",
             "...............", "...............", "...............", "...............", "...............", "...............",
             "...............", "...............", "...............", "..............."],
             "ply": 0, "to_move": "black", "status": "in_progress", "result": null, "last_move": null, "forbidden": [],
             "can_undo": false, "can_redo": false, "invited": null, "offer": null,
             "declined": {"black": {"takeback": 0, "draw": 0, "rematch": 0}, "white": {"takeback": 0, "draw": 0, "rematch": 0}},
             "clock": null, "thinking_ms": {"black": 0, "white": 0}, "claimable_at": null, "rematch_of": null, "rematch_id": null,
             "version": 1, "created_at": "2026-11-22T10:00:00Z", "updated_at": "2026-11-22T10:00:00Z"},
    "moves": [],
    "you": {"player_id": "p_8fk2m9x1c4v7b3n6", "token": "gbt_7b4226abd17ced825b70cd28aee04cbe96ecb8a0a0200652"}}))]
pub struct GameCreated {
    pub game: GameView,
    pub moves: Vec<MoveView>,
    pub you: You,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CandidateView {
    pub x: u8,
    pub y: u8,
    pub name: String,
    /// Higher is better for the side to move; each listed candidate's
    /// score is its own search's value, not only a bound below the best's.
    pub score: i64,
}

impl CandidateView {
    /// The first `count` of a decision's candidates, best first.
    pub fn best(decision: &Decision, count: usize, height: u8) -> Vec<Self> {
        decision
            .candidates
            .iter()
            .take(count)
            .map(|c| CandidateView::new(c, height))
            .collect()
    }

    pub fn new(c: &Candidate, height: u8) -> Self {
        CandidateView {
            x: c.point.x,
            y: c.point.y,
            name: c.point.name(height).to_string(),
            score: c.score,
        }
    }
}

/// The computer's view of the position: best candidates first.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"game_id": "g_2h7k9m3p5r8t1v4x", "version": 7, "to_move": "black",
    "candidates": [{"x": 6, "y": 7, "name": "g8", "score": 999997}, {"x": 10, "y": 7, "name": "k8", "score": 999997}],
    "forced_win_in": 3, "computer": {"level": "expert", "time_ms": 2, "depth": 3, "nodes": 57, "score": 999997,
    "forced_win_in": 3, "forced_loss_in": null,
    "pv": [{"x": 6, "y": 7, "name": "g8"}, {"x": 10, "y": 7, "name": "k8"}, {"x": 5, "y": 7, "name": "f8"}]}}))]
pub struct Hint {
    pub game_id: String,
    pub version: i64,
    /// `black` or `white`: whom the hint is for.
    pub to_move: &'static str,
    pub candidates: Vec<CandidateView>,
    /// Plies to a forced win for the side to move, when one was found.
    pub forced_win_in: Option<u32>,
    pub computer: ComputerInfo,
}
