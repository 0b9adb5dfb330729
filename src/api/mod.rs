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

mod auth;
mod client;
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
mod types;

use actix_web::{HttpResponse, get, web};
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_swagger_ui::SwaggerUi;

pub use error::{ApiError, Problem};
pub use limits::{Limits, RateLimitConfig};
pub use metrics::SlowRequest;

use crate::service::Service;

/// Largest JSON body accepted.
pub const BODY_LIMIT: usize = 16 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "gobang",
        description = "Five-in-a-row (freestyle, standard, renju), tic-tac-toe and k-in-a-row as a service: \
create games, play moves, play the computer, undo and redo, and keep every player's score.\n\n\
Points are `{\"x\": 7, \"y\": 7}` (0-based from the top-left) or names like `\"h8\"` \
(column letter from the left, row number from the bottom). Boards are arrays of rows, top row \
first: `.` empty, `X` black, `O` white. Every error is `application/problem+json` with a stable `code`.",
        license(name = "MIT"),
    ),
    paths(
        players::create_player,
        players::me,
        players::get_player,
        players::leaderboard,
        games::create_game,
        games::list_games,
        games::get_game,
        games::join,
        games::play,
        games::list_moves,
        games::undo,
        games::redo,
        games::ai_move,
        games::hint,
        games::resign,
        records::export_record,
        records::import,
        pictures::board_svg,
        pictures::board_png,
        pictures::animation_gif,
        opening::opening_action,
        events::events,
        events::websocket,
        online::accept_invitation,
        online::decline_invitation,
        online::cancel,
        online::request_takeback,
        online::accept_takeback,
        online::decline_takeback,
        online::offer_draw,
        online::accept_draw,
        online::decline_draw,
        online::decline_rematch,
        online::claim_win,
        online::propose_rematch,
        online::accept_rematch,
        healthz,
        metrics::metrics,
    ),
    modifiers(&BearerAuth, &RateLimited),
    tags(
        (name = "players", description = "Players, their tokens and scores"),
        (name = "games", description = "Games, moves and the computer"),
        (name = "records", description = "Games kept and shown: records in SGF, PSQ, move lists and JSON, out and in; pictures of the board"),
        (name = "online", description = "Two people on two devices: invitations, takebacks, draw offers, rematches, abandonment"),
        (name = "live", description = "Following a game as it changes: server-sent events, WebSocket, long polling"),
        (name = "operations", description = "Health and metrics, for operators"),
    )
)]
pub struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some("The token returned when the player was created"))
                    .build(),
            ),
        );
    }
}

/// Every operation may answer 429 when its caller is over a rate limit.
struct RateLimited;

impl Modify for RateLimited {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{
            ContentBuilder, HeaderBuilder, Ref, ResponseBuilder, Type, schema::ObjectBuilder,
        };
        let number = || ObjectBuilder::new().schema_type(Type::Integer).build();
        let text = || ObjectBuilder::new().schema_type(Type::String).build();
        let response = ResponseBuilder::new()
            .description(
                "RATE_LIMITED: the caller (its token, or its address without one) is over a budget: \
reads, writes, players made without a token, or the computer's thinking time (or, for the event \
streams, its address has the most streams open it may). Come back after Retry-After seconds. \
The budgets are the server's settings (`gobang serve --help`).",
            )
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(Some(number()))
                    .description(Some("Seconds to wait"))
                    .build(),
            )
            .header(
                "RateLimit-Policy",
                HeaderBuilder::new()
                    .schema(Some(text()))
                    .description(Some("The budget, e.g. `\"writes\";q=300;w=60`"))
                    .build(),
            )
            .header(
                "RateLimit",
                HeaderBuilder::new()
                    .schema(Some(text()))
                    .description(Some("What is left of it, e.g. `\"writes\";r=0;t=12`"))
                    .build(),
            )
            .content(
                "application/problem+json",
                ContentBuilder::new()
                    .schema(Some(Ref::from_schema_name("Problem")))
                    .build(),
            )
            .build();
        let idempotency_key = utoipa::openapi::path::ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(utoipa::openapi::path::ParameterIn::Header)
            .required(utoipa::openapi::Required::False)
            .description(Some(
                "Makes a retry safe: the same key with the same request answers with the first \
answer (and `Idempotent-Replayed: true`) without acting again; with another request it is 422 \
IDEMPOTENCY_KEY_REUSED; while the first is under way, 409 IDEMPOTENCY_KEY_IN_USE. Keys \
(1–255 characters, a UUID is ideal) belong to the caller and are kept 24 hours.",
            ))
            .schema(Some(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .min_length(Some(1))
                    .max_length(Some(255))
                    .build(),
            ))
            .build();
        // Health checks are never limited.
        for (_, item) in openapi
            .paths
            .paths
            .iter_mut()
            .filter(|(path, _)| !matches!(path.as_str(), "/healthz" | "/metrics"))
        {
            for operation in [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                operation
                    .responses
                    .responses
                    .entry("429".into())
                    .or_insert_with(|| response.clone().into());
            }
            if let Some(post) = &mut item.post {
                post.parameters
                    .get_or_insert_with(Vec::new)
                    .push(idempotency_key.clone().into());
            }
        }
    }
}

/// The OpenAPI document as pretty JSON (what `gobang openapi` prints and
/// `openapi/openapi.json` holds).
pub fn openapi_json() -> String {
    ApiDoc::openapi()
        .to_pretty_json()
        .expect("the OpenAPI document serializes")
}

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

async fn not_found() -> Result<HttpResponse, ApiError> {
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
    .service(players::get_player)
    .service(players::leaderboard)
    .service(games::list_games)
    .service(games::join)
    .service(games::undo)
    .service(games::redo)
    .service(games::ai_move)
    .service(games::hint)
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
