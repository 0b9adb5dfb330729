//! HTTP: routes, request and response types, errors, auth and the OpenAPI
//! document. Handlers only translate between HTTP and service calls.

/// An action on a game (POST, bearer token, optional If-Match) that answers
/// with the game's new state: the handler and its OpenAPI description, which
/// differ only in these parts.
macro_rules! game_action {
    (
        tag = $tag:tt,
        $(#[doc = $doc:tt])*
        $name:ident, $path:tt, ok = $ok:tt, conflicts = $conflicts:tt,
        $method:ident($($arg:expr),*)
    ) => {
        $(#[doc = $doc])*
        #[utoipa::path(
            tag = $tag,
            params(("id" = String, Path, description = "Game id"), ("If-Match" = Option<String>, Header, description = "The version you expect")),
            security(("bearer" = [])),
            responses(
                (status = 200, description = $ok, body = GameView),
                (status = 401, description = "UNAUTHORIZED", body = Problem, content_type = "application/problem+json"),
                (status = 403, description = "NOT_A_PLAYER_OF_THIS_GAME", body = Problem, content_type = "application/problem+json"),
                (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
                (status = 409, description = $conflicts, body = Problem, content_type = "application/problem+json"),
                (status = 412, description = "VERSION_MISMATCH", body = Problem, content_type = "application/problem+json"),
            )
        )]
        #[post($path)]
        pub async fn $name(
            service: web::Data<Service>,
            req: HttpRequest,
            caller: Caller,
            if_match: IfMatch,
            id: web::Path<String>,
        ) -> Result<HttpResponse> {
            record_game(&req, &id);
            let game = service
                .$method(&caller.0, &id, $($arg,)* if_match.0)
                .await?;
            Ok($crate::api::games::with_etag(
                HttpResponse::Ok(),
                game.version,
                GameView::from(&game),
            ))
        }
    };
}

mod analysis;
mod auth;
mod body;
mod client;
mod document;
mod error;
mod events;
mod games;
pub mod idempotency;
mod limits;
pub mod metrics;
mod online;
mod opening;
mod pictures;
mod players;
mod records;
mod seeks;
mod types;

use actix_web::{HttpResponse, get, web};
use utoipa::OpenApi;
use utoipa_swagger_ui::SwaggerUi;

pub use document::{ApiDoc, openapi_json};
pub use error::{ApiError, Problem};
pub use limits::{Limits, RateLimitConfig};
pub use metrics::SlowRequest;

use crate::service::Service;

/// Largest JSON body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

/// Whether the client already holds the representation tagged `tag`
/// (`If-None-Match`, including `*`).
pub(crate) fn not_modified(req: &actix_web::HttpRequest, tag: &str) -> bool {
    req.headers()
        .get_all(actix_web::http::header::IF_NONE_MATCH)
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|v| v.trim() == tag || v.trim() == "*")
}

/// Liveness and database reachability.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "The server and its database answer", body = types::Health),
        (status = 503, description = "The database does not answer", body = types::Health),
    )
)]
#[get("/healthz")]
pub async fn healthz(service: web::Data<Service>) -> HttpResponse {
    match service.health().await {
        Ok(()) => HttpResponse::Ok().json(types::Health {
            status: "ok",
            database: "ok",
        }),
        Err(e) => {
            tracing::error!(error = %e, "health check failed");
            HttpResponse::ServiceUnavailable().json(types::Health {
                status: "degraded",
                database: "unreachable",
            })
        }
    }
}

/// No route: 405 with `Allow` for a known path asked with another method,
/// else 404.
async fn not_found(req: actix_web::HttpRequest) -> Result<HttpResponse, ApiError> {
    if let Some(methods) = document::allowed_methods(req.path()) {
        let error = ApiError::new(
            actix_web::http::StatusCode::METHOD_NOT_ALLOWED,
            "METHOD_NOT_ALLOWED",
            "Method not allowed",
            format!("{} answers {methods}, not {}", req.path(), req.method()),
        );
        let mut response = actix_web::ResponseError::error_response(&error);
        response.headers_mut().insert(
            actix_web::http::header::ALLOW,
            actix_web::http::header::HeaderValue::from_static(methods),
        );
        return Ok(response);
    }
    Err(ApiError::not_found(
        "no such endpoint: see /docs for the API",
    ))
}

/// Registers every route and the extractor settings.
pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.app_data(
        web::JsonConfig::default()
            .limit(BODY_LIMIT)
            .error_handler(error::json_error),
    )
    .app_data(web::PayloadConfig::default().limit(BODY_LIMIT))
    .app_data(web::QueryConfig::default().error_handler(error::query_error))
    .app_data(web::PathConfig::default().error_handler(error::path_error))
    // Routes are tried in this order, each path pattern a regex: the ones
    // called most come first.
    .service(healthz)
    .service(games::play)
    .service(metrics::metrics)
    .service(games::get_game)
    .service(records::import)
    .service(games::create_game)
    .service(games::list_moves)
    .service(events::events)
    .service(events::websocket)
    .service(players::create_player)
    .service(players::me)
    .service(players::rename)
    .service(events::player_events)
    .service(events::player_websocket)
    .service(players::get_player)
    .service(seeks::create_seek)
    .service(seeks::get_seek)
    .service(seeks::cancel_seek)
    .service(players::rating_history)
    .service(players::leaderboard)
    .service(games::list_games)
    .service(games::join)
    .service(games::undo)
    .service(games::redo)
    .service(games::ai_move)
    .service(games::hint)
    .service(analysis::analyse)
    .service(games::resign)
    .service(records::export_record)
    .service(pictures::board_svg)
    .service(pictures::board_png)
    .service(pictures::animation_gif)
    .service(opening::opening_action)
    .service(online::accept_invitation)
    .service(online::decline_invitation)
    .service(online::cancel)
    .service(online::request_takeback)
    .service(online::accept_takeback)
    .service(online::decline_takeback)
    .service(online::offer_draw)
    .service(online::accept_draw)
    .service(online::decline_draw)
    .service(online::decline_rematch)
    .service(online::claim_win)
    .service(online::propose_rematch)
    .service(online::accept_rematch)
    .service(client::index)
    .service(client::client_file)
    .service(client::client_page)
    .service(client::embed)
    .service(SwaggerUi::new("/docs/{_:.*}").url("/openapi.json", ApiDoc::openapi()))
    .service(web::redirect("/docs", "/docs/"))
    .default_service(web::to(not_found));
}
