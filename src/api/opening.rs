//! The opening over HTTP: its state in every game view, and `POST
//! /v1/games/{id}/opening` for the actions that are not ordinary moves.

use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::auth::{Caller, IfMatch, record_game};
use super::body;
use super::error::{ApiError, Problem, Result};
use super::games::{moves_played, with_etag};
use super::types::{MovesPlayed, PointView};
use crate::rules::{Decision, MAX_DECLARED, OpeningError, Phase};
use crate::service::{Game, OpeningRequest, PointInput, Service, Status};

/// A point in a request: a name like `"h8"` or `{"x": 7, "y": 7}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum PointRequest {
    #[schema(example = "h8")]
    Name(String),
    Xy {
        x: i64,
        y: i64,
    },
}

impl From<PointRequest> for PointInput {
    fn from(p: PointRequest) -> Self {
        match p {
            PointRequest::Name(name) => PointInput::Name(name),
            PointRequest::Xy { x, y } => PointInput::Xy(x, y),
        }
    }
}

/// One opening action; give exactly one field.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"swap": true}))]
pub struct OpeningBody {
    /// Phases `swap` and `swap_or_place`: `true` to exchange colours with
    /// the other player, `false` to keep them.
    pub swap: Option<bool>,
    /// Phase `declare` (Yamaguchi): how many fifth moves black will offer, 1–10.
    #[schema(minimum = 1, maximum = 10)]
    pub declare: Option<u8>,
    /// Phase `offer`: black's fifth moves, as many as `opening.offer_count`
    /// (1–10), no two the same up to a symmetry of the position.
    #[schema(min_items = 1, max_items = 10)]
    pub offer: Option<Vec<PointRequest>>,
    /// Phase `choose`: the offered fifth move white takes (played as move 5).
    pub choose: Option<PointRequest>,
    /// Phase `place`: opening stones in order (up to `opening.stones_left`);
    /// phase `swap_or_place`: swap2's two more stones, white's then black's.
    pub place: Option<Vec<PointRequest>>,
}

impl OpeningBody {
    fn into_request(self) -> Result<OpeningRequest> {
        // The ranges the document states, checked before the game is
        // looked at: a body out of range is refused as such whatever the
        // game's version or phase.
        if let Some(count) = self.declare
            && !(1..=MAX_DECLARED).contains(&count)
        {
            return Err(ApiError::validation(
                OpeningError::DeclaredCount { count }.to_string(),
            ));
        }
        if let Some(offer) = &self.offer
            && !(1..=usize::from(MAX_DECLARED)).contains(&offer.len())
        {
            return Err(ApiError::validation(format!(
                "offer from 1 to {MAX_DECLARED} fifth moves, not {}",
                offer.len()
            )));
        }
        let points = |list: Vec<PointRequest>| list.into_iter().map(PointInput::from).collect();
        match self {
            OpeningBody {
                swap: Some(swap),
                declare: None,
                offer: None,
                choose: None,
                place: None,
            } => Ok(OpeningRequest::Swap(swap)),
            OpeningBody {
                swap: None,
                declare: Some(count),
                offer: None,
                choose: None,
                place: None,
            } => Ok(OpeningRequest::Declare(count)),
            OpeningBody {
                swap: None,
                declare: None,
                offer: Some(offer),
                choose: None,
                place: None,
            } => Ok(OpeningRequest::Offer(points(offer))),
            OpeningBody {
                swap: None,
                declare: None,
                offer: None,
                choose: Some(choose),
                place: None,
            } => Ok(OpeningRequest::Choose(choose.into())),
            OpeningBody {
                swap: None,
                declare: None,
                offer: None,
                choose: None,
                place: Some(place),
            } => Ok(OpeningRequest::Place(points(place))),
            _ => Err(ApiError::validation(
                "give exactly one of swap, declare, offer, choose or place",
            )),
        }
    }
}

/// A named standard opening.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "D3", "name": "Sosei", "kanji": "疎星", "kind": "direct"}))]
pub struct OpeningNameView {
    /// `D1`–`D13` or `I1`–`I13`.
    pub id: &'static str,
    pub name: &'static str,
    pub kanji: &'static str,
    /// `direct` or `indirect`.
    pub kind: &'static str,
}

/// An opening decision that was made.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"ply": 3, "action": "swap", "swap": true}))]
pub struct DecisionView {
    /// Stones on the board when it was made.
    pub ply: usize,
    /// `swap`, `declare`, `offer` or `place` (swap2's two more).
    pub action: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swap: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Vec<PointView>>,
}

/// The game's opening: its rule, what it waits for and from whom.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({
    "rule": "rif", "phase": "swap", "to_act": "white", "actions": ["swap"],
    "stones_left": null, "zone": null, "offer_count": null, "offered": [], "declared_count": null,
    "swapped": false, "name": {"id": "D3", "name": "Sosei", "kanji": "疎星", "kind": "direct"},
    "decisions": []
}))]
pub struct OpeningView {
    /// `free`, `rif`, `yamaguchi`, `swap2` or `swap1`.
    pub rule: &'static str,
    /// What the opening waits for: `place` (opening stones, of both
    /// colours, by one player), `declare`, `swap`, `swap_or_place`,
    /// `offer`, `choose`, `move` (an ordinary move inside the opening) or
    /// `done`.
    pub phase: &'static str,
    /// The seat whose player acts now (`black` or `white`), while the game
    /// is in progress; in the opening not always the colour of the next stone.
    pub to_act: Option<&'static str>,
    /// What that player may do: `move` (`POST …/moves`), or `place`,
    /// `swap`, `declare`, `offer`, `choose` (`POST …/opening`).
    pub actions: Vec<&'static str>,
    /// Phase `place`: opening stones still to place.
    pub stones_left: Option<u8>,
    /// How far from the centre the next stone may be (0: on it), when the
    /// rules limit it.
    pub zone: Option<u8>,
    /// Phase `offer`: how many fifth moves to offer.
    pub offer_count: Option<u8>,
    /// The fifth moves black offered.
    pub offered: Vec<PointView>,
    /// Yamaguchi: the count black declared.
    pub declared_count: Option<u8>,
    /// Whether the players exchanged colours (the seats show who is who now).
    pub swapped: bool,
    /// The standard opening the first three stones make, in any orientation.
    pub name: Option<OpeningNameView>,
    /// The decisions made, in order.
    pub decisions: Vec<DecisionView>,
}

impl From<&Game> for OpeningView {
    fn from(game: &Game) -> Self {
        let height = game.variant.height();
        let points = |list: &[crate::rules::Point]| {
            list.iter()
                .map(|&p| PointView::new(p, height))
                .collect::<Vec<_>>()
        };
        let in_progress = game.status == Status::InProgress;
        let turn = game.turn();
        let opening = &game.opening;
        OpeningView {
            rule: opening.rule().as_str(),
            phase: turn.phase.as_str(),
            to_act: in_progress.then(|| turn.actor.as_str()),
            actions: if in_progress {
                turn.phase.actions().to_vec()
            } else {
                Vec::new()
            },
            stones_left: match turn.phase {
                Phase::Place { left } => Some(left),
                _ => None,
            },
            zone: opening.zone(&game.position),
            offer_count: match turn.phase {
                Phase::Offer { count } => Some(count),
                _ => None,
            },
            offered: points(opening.offered()),
            declared_count: opening.declared(),
            swapped: opening.swapped(),
            name: opening.name(&game.position).map(|n| OpeningNameView {
                id: n.id,
                name: n.name,
                kanji: n.kanji,
                kind: n.kind.as_str(),
            }),
            decisions: opening
                .log()
                .entries()
                .iter()
                .map(|e| DecisionView {
                    ply: e.ply,
                    action: e.decision.action(),
                    swap: match e.decision {
                        Decision::Swap(swap) => Some(swap),
                        _ => None,
                    },
                    count: match e.decision {
                        Decision::Declare(n) => Some(n),
                        _ => None,
                    },
                    points: match &e.decision {
                        Decision::Offer(list) => Some(points(list)),
                        _ => None,
                    },
                })
                .collect(),
        }
    }
}

/// An opening action: `{"swap": true}`, `{"declare": 2}`, `{"offer":
/// ["h10", "j6"]}`, `{"choose": "h10"}` or `{"place": ["h8", "h9", "j10"]}`.
/// The game's `opening` says which the game waits for and from whom.
/// Against the computer its answer follows in the same request.
#[utoipa::path(
    tag = "games",
    params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect, e.g. \"3\"")),
    request_body = OpeningBody,
    security(("bearer" = [])),
    responses(
        (status = 200, description = "The stones placed (if any) and the game after the action", body = MovesPlayed),
        (status = 400, description = "MALFORMED_JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "OPENING_WRONG_PHASE (not what the opening waits for), NOT_YOUR_TURN (another player's decision), OCCUPIED, FORBIDDEN_MOVE, GAME_OVER or GAME_NOT_STARTED", body = Problem, content_type = "application/problem+json"),
        (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "SYMMETRIC_OFFERS, NOT_OFFERED, OUTSIDE_OPENING_ZONE, OUT_OF_BOARD or VALIDATION (wrong number of offers or stones, a declared count out of range, not exactly one action)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "ENGINE_BUSY (the computer's answer waits for a free search too long)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/{id}/opening")]
pub async fn opening_action(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: Caller,
    if_match: IfMatch,
    id: web::Path<String>,
    body: body::Json<OpeningBody>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let request = body.into_inner().into_request()?;
    let outcome = service
        .opening(&caller.0, &id, &request, if_match.0)
        .await?;
    Ok(with_etag(
        HttpResponse::Ok(),
        outcome.game.version,
        moves_played(&outcome),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The document bounds a declared count, and an offer's length, as the
    /// rules do, so that a client checking its request against the
    /// document is not refused for a count the document allowed.
    #[test]
    fn the_document_bounds_declared_counts_as_the_rules_do() {
        let schema = serde_json::to_value(<OpeningBody as utoipa::PartialSchema>::schema())
            .expect("a schema as JSON");
        let most = u64::from(crate::rules::MAX_DECLARED);
        let declare = &schema["properties"]["declare"];
        assert_eq!(declare["minimum"].as_u64(), Some(1), "{declare}");
        assert_eq!(declare["maximum"].as_u64(), Some(most), "{declare}");
        let offer = &schema["properties"]["offer"];
        assert_eq!(offer["minItems"].as_u64(), Some(1), "{offer}");
        assert_eq!(offer["maxItems"].as_u64(), Some(most), "{offer}");
    }
}
