//! `POST /v1/analysis`: the computer's view of any position, without a game.

use actix_web::{HttpResponse, post, web};

use super::body;
use super::error::{ApiError, Problem, Result};
use super::games::{candidate_count, parse_level, time_budget, variant_of};
use super::types::{Analysis, AnalysisRequest, CandidateView, ComputerInfo, CreateGame};
use crate::engine::Level;
use crate::service::{PositionInput, Service};

/// Analyse a position: the best candidates with their scores, the
/// evaluation (a forced win or loss in N plies when found), the depth and
/// the line the computer expects. Nothing is stored; the computer's
/// thinking time counts against the caller's budget like a hint's.
#[utoipa::path(
    tag = "analysis",
    request_body = AnalysisRequest,
    security((), ("bearer" = [])),
    responses(
        (status = 200, description = "The analysis", body = Analysis),
        (status = 422, description = "VALIDATION: bad rules, a move that cannot be played, a board of the wrong size, a finished game", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "ENGINE_BUSY, with Retry-After", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/analysis")]
pub async fn analyse(
    service: web::Data<Service>,
    body: body::Json<AnalysisRequest>,
) -> Result<HttpResponse> {
    let body = body.into_inner();
    let variant = variant_of(&CreateGame {
        rules: body.rules,
        board_size: body.board_size,
        width: body.width,
        height: body.height,
        k: body.k,
        overline_wins: body.overline_wins,
        forbidden: body.forbidden,
        ..CreateGame::default()
    })?;
    let input = match (body.moves, body.board) {
        (Some(moves), None) => PositionInput::Moves(moves),
        (None, Some(rows)) => PositionInput::Board(rows),
        _ => {
            return Err(ApiError::validation(
                "give the position as exactly one of `moves` (point names in the order played) or `board` (rows, top first)",
            ));
        }
    };
    let count = candidate_count(body.count)?;
    let level = body
        .level
        .as_deref()
        .map(parse_level)
        .transpose()?
        .unwrap_or(Level::Expert);
    let budget = time_budget(body.time_ms)?;
    let (position, thought) = service
        .analyse(variant, input, level, budget, count)
        .await?;
    let height = variant.height();
    Ok(HttpResponse::Ok().json(Analysis {
        to_move: position.to_move().as_str(),
        candidates: CandidateView::best(&thought.decision, count, height),
        computer: ComputerInfo::new(&thought, height),
    }))
}
