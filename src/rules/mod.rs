//! The rules of every game gobang serves: what is legal and who has won.
//!
//! Pure and synchronous: no HTTP, SQL, async or clock. The server, the
//! computer players, the Gomocup brain and the arena all stand on it.

pub(crate) mod board;
mod color;
mod error;
pub(crate) mod forbidden;
mod opening;
mod point;
mod position;
mod variant;

pub use board::Board;
pub use color::Color;
pub use error::{BoardTextError, PlayError, PointError, VariantError};
pub use forbidden::ForbiddenKind;
pub use opening::{
    Decision, Entry, MAX_DECLARED, NamedOpening, OPENINGS, Opening, OpeningError, OpeningKind,
    OpeningLog, OpeningRule, Phase, Symmetry, Turn, equivalent,
};
pub use point::{MAX_SIDE, Point, PointName, check_on_board, parse_point};
pub use position::{Outcome, Position, WinReason};
pub use variant::{ForbiddenPolicy, RuleSet, Variant, VariantSpec};
