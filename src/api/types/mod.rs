//! The JSON of the HTTP contract: request bodies, responses, and how the
//! service's values are shown.

use serde::Serialize;
use utoipa::ToSchema;

use crate::rules::Point;

use super::opening::OpeningView;

mod analysis;
mod game_view;
mod moves;
mod players;
mod requests;
mod seeks;

pub use analysis::*;
pub use game_view::*;
pub use moves::*;
pub use players::*;
pub use requests::*;
pub use seeks::*;

/// A point in both spellings: `x`, `y` 0-based from the top-left, and the
/// renju `name` (column letter from the left, row number from the bottom).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"x": 7, "y": 7, "name": "h8"}))]
pub struct PointView {
    pub x: u8,
    pub y: u8,
    pub name: String,
}

impl PointView {
    pub fn new(p: Point, height: u8) -> Self {
        PointView {
            x: p.x,
            y: p.y,
            name: p.name(height).to_string(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"status": "ok", "database": "ok"}))]
pub struct Health {
    /// `ok`.
    pub status: &'static str,
    /// `ok` when the database answered.
    pub database: &'static str,
}
