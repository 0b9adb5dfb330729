//! The OpenAPI document: every operation, and what the annotations alone
//! do not say (bearer auth, rate limits and idempotency keys on every
//! operation, the exact formats the server checks, links from a new game to
//! what can be done with it), and the methods each documented path answers.

use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use super::{analysis, events, games, metrics, online, opening, pictures, players, records, seeks};

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
        players::rename,
        events::player_events,
        events::player_websocket,
        players::get_player,
        seeks::create_seek,
        seeks::get_seek,
        seeks::cancel_seek,
        players::rating_history,
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
        analysis::analyse,
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
        super::healthz,
        metrics::metrics,
    ),
    modifiers(&BearerAuth, &RateLimited, &Exact),
    tags(
        (name = "players", description = "Players, their tokens and scores"),
        (name = "games", description = "Games, moves and the computer"),
        (name = "analysis", description = "The computer's view of any position, without a game"),
        (name = "records", description = "Games kept and shown: records in SGF, PSQ, move lists and JSON, out and in; pictures of the board"),
        (name = "online", description = "Two people on two devices: invitations, takebacks, draw offers, rematches, abandonment"),
        (name = "seeks", description = "Quick pairing: find an opponent for the game you want"),
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

/// The methods each documented path answers, from the OpenAPI document.
static METHODS: std::sync::LazyLock<Vec<(Vec<String>, String)>> = std::sync::LazyLock::new(|| {
    ApiDoc::openapi()
        .paths
        .paths
        .iter()
        .map(|(path, item)| {
            let methods: Vec<&str> = [
                ("GET", item.get.is_some()),
                ("POST", item.post.is_some()),
                ("PUT", item.put.is_some()),
                ("PATCH", item.patch.is_some()),
                ("DELETE", item.delete.is_some()),
            ]
            .into_iter()
            .filter_map(|(m, there)| there.then_some(m))
            .collect();
            (
                path.trim_matches('/')
                    .split('/')
                    .map(String::from)
                    .collect(),
                methods.join(", "),
            )
        })
        .collect()
});

/// The methods `path` answers, if it is a documented path.
pub(super) fn allowed_methods(path: &str) -> Option<&'static str> {
    let segments: Vec<&str> = path.trim_matches('/').split('/').collect();
    METHODS.iter().find_map(|(template, methods)| {
        (template.len() == segments.len()
            && template
                .iter()
                .zip(&segments)
                .all(|(t, s)| t == s || (t.starts_with('{') && !s.is_empty())))
        .then_some(methods.as_str())
    })
}

/// What the server checks that the annotations do not say: the formats of
/// `If-Match` and `Idempotency-Key`, the 422 every operation with input and
/// the 400, 413 and 415 every operation with a body may answer, the event
/// stream's events, the optional body of a new game, and links from a new
/// game to what can be done with it (so a generated client, or a stateful
/// fuzzer, can play a game from the document alone).
struct Exact;

impl Modify for Exact {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::path::{Operation, ParameterIn};
        use utoipa::openapi::schema::{ObjectBuilder, Schema};
        use utoipa::openapi::{
            ContentBuilder, Ref, RefOr, Required, ResponseBuilder, Type, link::LinkBuilder,
        };
        let problem = |description: &str| -> RefOr<utoipa::openapi::Response> {
            ResponseBuilder::new()
                .description(description)
                .content(
                    "application/problem+json",
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Problem")))
                        .build(),
                )
                .build()
                .into()
        };
        let text = |pattern: &str, max: Option<usize>| -> RefOr<Schema> {
            let mut schema = ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(pattern));
            if let Some(max) = max {
                schema = schema.max_length(Some(max));
            }
            RefOr::T(Schema::Object(schema.build()))
        };
        let game_ops: Vec<(String, String)> = openapi
            .paths
            .paths
            .iter()
            .filter(|(path, _)| path.starts_with("/v1/games/{id}"))
            .flat_map(|(path, item)| {
                [("get", &item.get), ("post", &item.post)]
                    .into_iter()
                    .filter_map(|(method, op)| {
                        let id = op.as_ref()?.operation_id.clone()?;
                        Some((format!("{method} {path}"), id))
                    })
                    .collect::<Vec<_>>()
            })
            .collect();
        if let Some(components) = openapi.components.as_mut() {
            exact_bodies(&mut components.schemas);
        }
        for (path, item) in openapi.paths.paths.iter_mut() {
            let operations: [(&str, &mut Option<Operation>); 2] =
                [("get", &mut item.get), ("post", &mut item.post)];
            for (method, operation) in operations {
                let Some(operation) = operation else { continue };
                let mut has_input = operation.request_body.is_some();
                for parameter in operation.parameters.iter_mut().flatten() {
                    has_input = true;
                    let RefOr::T(parameter) = parameter else {
                        continue;
                    };
                    if parameter.parameter_in != ParameterIn::Header {
                        continue;
                    }
                    match parameter.name.as_str() {
                        "If-Match" => {
                            parameter.schema = Some(text(r#"^(\*|(W/)?"?[0-9]{1,18}"?)$"#, None));
                        }
                        "Idempotency-Key" => {
                            parameter.schema = Some(text("^[!-~]{1,255}$", Some(255)));
                        }
                        _ => {}
                    }
                }
                let responses = &mut operation.responses.responses;
                // A picture's bytes are a string of that media type, not
                // the array of numbers utoipa derives from `Vec<u8>`: a
                // generated client reads them as a file.
                for response in responses.values_mut() {
                    let RefOr::T(response) = response else {
                        continue;
                    };
                    for (media_type, content) in response.content.iter_mut() {
                        let RefOr::T(content) = content else { continue };
                        if media_type.starts_with("image/") && !media_type.ends_with("+xml") {
                            content.schema = Some(RefOr::T(Schema::Object(
                                ObjectBuilder::new()
                                    .schema_type(Type::String)
                                    .content_media_type(media_type.as_str())
                                    .build(),
                            )));
                        }
                    }
                }
                if has_input {
                    responses.entry("422".into()).or_insert_with(|| {
                        problem("VALIDATION: a parameter, header or body the server cannot take; the detail says which and why")
                    });
                }
                if operation.request_body.is_some() {
                    responses
                        .entry("400".into())
                        .or_insert_with(|| problem("MALFORMED_JSON: the body is not valid JSON"));
                    responses.entry("413".into()).or_insert_with(|| {
                        problem("PAYLOAD_TOO_LARGE: the body is over the server's limit (16 KiB for JSON); the detail gives its size and the limit")
                    });
                    responses.entry("415".into()).or_insert_with(|| {
                        problem("UNSUPPORTED_MEDIA_TYPE: the body is not in a type this operation reads (JSON, unless it says otherwise)")
                    });
                }
                if path == "/v1/games" && method == "post" {
                    // Every field has a default: no body is a game against the computer.
                    if let Some(RefOr::T(body)) = &mut operation.request_body {
                        body.required = Some(Required::False);
                    }
                    if let Some(RefOr::T(created)) = responses.get_mut("201") {
                        for (name, target) in &game_ops {
                            created.links.insert(
                                name.replace(['/', ' ', '{', '}', '-', '.'], "_"),
                                RefOr::T(
                                    LinkBuilder::new()
                                        .operation_id(target)
                                        .parameter("id", "$response.body#/game/id")
                                        .build(),
                                ),
                            );
                        }
                    }
                }
                if path == "/v1/games/{id}/events" {
                    let event = ObjectBuilder::new()
                        .schema_type(Type::Object)
                        .property(
                            "event",
                            ObjectBuilder::new()
                                .schema_type(Type::String)
                                .enum_values(Some(["state"])),
                        )
                        .property("id", ObjectBuilder::new().schema_type(Type::String))
                        .property(
                            "data",
                            ObjectBuilder::new()
                                .schema_type(Type::String)
                                .description(Some("The game state (GameView) as JSON")),
                        )
                        .required("data")
                        .build();
                    if let Some(RefOr::T(ok)) = responses.get_mut("200")
                        && let Some(RefOr::T(content)) = ok.content.get_mut("text/event-stream")
                    {
                        content.schema = Some(RefOr::T(Schema::Object(event)));
                    }
                }
            }
        }
    }
}

/// Request bodies whose fields go together in ways the derived schemas do
/// not say: an opening action is exactly one field, a point is `at` or
/// both `x` and `y`; none of those fields may be `null`.
fn exact_bodies(
    schemas: &mut std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    >,
) {
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{Schema, SchemaType, Type};
    /// `T | null` becomes `T`.
    fn not_null(schema: &mut RefOr<Schema>) {
        match schema {
            RefOr::T(Schema::Object(object)) => {
                if let SchemaType::Array(types) = &object.schema_type {
                    let types: Vec<Type> = types
                        .iter()
                        .filter(|t| **t != Type::Null)
                        .cloned()
                        .collect();
                    if let [only] = types.as_slice() {
                        object.schema_type = SchemaType::Type(only.clone());
                    }
                }
            }
            RefOr::T(Schema::Array(array)) => {
                if let SchemaType::Array(types) = &array.schema_type
                    && types.contains(&Type::Array)
                {
                    array.schema_type = SchemaType::Type(Type::Array);
                }
            }
            RefOr::T(Schema::OneOf(one_of)) => {
                let kept: Vec<RefOr<Schema>> = one_of
                    .items
                    .iter()
                    .filter(|item| {
                        !matches!(item, RefOr::T(Schema::Object(o))
                            if o.schema_type == SchemaType::Type(Type::Null))
                    })
                    .cloned()
                    .collect();
                if let [only] = kept.as_slice() {
                    *schema = only.clone();
                }
            }
            _ => {}
        }
    }
    let mut patch = |name: &str, extra: Option<(&str, serde_json::Value)>, one_field: bool| {
        let Some(RefOr::T(Schema::Object(object))) = schemas.get_mut(name) else {
            return;
        };
        object.properties.values_mut().for_each(not_null);
        if one_field {
            object.min_properties = Some(1);
            object.max_properties = Some(1);
        }
        if let Some((key, value)) = extra {
            object
                .extensions
                .get_or_insert_with(Default::default)
                .insert(key.into(), value);
        }
    };
    patch("OpeningBody", None, true);
    patch(
        "MoveRequest",
        Some((
            "oneOf",
            serde_json::json!([
                {"required": ["at"], "maxProperties": 1},
                {"required": ["x", "y"], "maxProperties": 2}
            ]),
        )),
        false,
    );
    new_game_ranges(schemas);
    point_forms(schemas);
}

/// How a request writes a point, as the server reads it
/// ([`crate::rules::parse_point`]): a column letter and a row number
/// (`h8`), or the coordinates `7,7` (in parentheses if wished), spaces
/// around either. (The server also takes other white space around them.)
const POINT_NAME: &str = r"^ *([A-Za-z][0-9]{1,3}|[0-9]+ *, *[0-9]+|\( *[0-9]+ *, *[0-9]+ *\)) *$";

/// A point in a request, named or by its coordinates: written as the server
/// reads it ([`POINT_NAME`]), and no coordinate past the largest board.
/// (Whether it lies on the game's own board is the game's to say: 422 with
/// its size.)
fn point_forms(
    schemas: &mut std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    >,
) {
    use crate::rules::MAX_SIDE;
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{Object, Schema};
    fn point(object: &mut Object) {
        for (name, field) in object.properties.iter_mut() {
            let RefOr::T(Schema::Object(field)) = field else {
                continue;
            };
            match name.as_str() {
                "at" => field.pattern = Some(POINT_NAME.into()),
                "x" | "y" => {
                    field.minimum = Some(0.into());
                    field.maximum = Some((u64::from(MAX_SIDE) - 1).into());
                }
                _ => {}
            }
        }
    }
    if let Some(RefOr::T(Schema::Object(mv))) = schemas.get_mut("MoveRequest") {
        point(mv);
    }
    if let Some(RefOr::T(Schema::OneOf(forms))) = schemas.get_mut("PointRequest") {
        for form in forms.items.iter_mut() {
            match form {
                RefOr::T(Schema::Object(o)) if o.properties.is_empty() => {
                    o.pattern = Some(POINT_NAME.into());
                }
                RefOr::T(Schema::Object(o)) => point(o),
                _ => {}
            }
        }
    }
}

/// Each field of a new game's settings on its own: the rule sets and
/// opening rules there are, the sides and row lengths any rule set can
/// take. (Which combinations go together is each rule set's to say; those
/// are answered 422 with what to change.)
fn new_game_ranges(
    schemas: &mut std::collections::BTreeMap<
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    >,
) {
    use crate::rules::{MAX_SIDE, OpeningRule, RuleSet};
    use utoipa::openapi::RefOr;
    use utoipa::openapi::schema::{Object, Schema, SchemaType, Type};
    fn field<'a>(object: &'a mut Object, name: &str) -> Option<&'a mut Object> {
        match object.properties.get_mut(name)? {
            RefOr::T(Schema::Object(field)) => Some(field),
            _ => None,
        }
    }
    /// An enumeration, `null` kept where the field may be null.
    fn one_of_names(field: &mut Object, names: &[&str]) {
        let mut values: Vec<serde_json::Value> = names.iter().map(|&n| n.into()).collect();
        if matches!(&field.schema_type, SchemaType::Array(types) if types.contains(&Type::Null)) {
            values.push(serde_json::Value::Null);
        }
        field.enum_values = Some(values);
    }
    fn range(field: &mut Object, min: u64, max: u64) {
        field.minimum = Some(min.into());
        field.maximum = Some(max.into());
    }
    for name in ["CreateGame", "AnalysisRequest"] {
        let Some(RefOr::T(Schema::Object(game))) = schemas.get_mut(name) else {
            continue;
        };
        let rules: Vec<&str> = RuleSet::ALL.iter().map(|r| r.as_str()).collect();
        let openings: Vec<&str> = OpeningRule::ALL.iter().map(|r| r.as_str()).collect();
        let side = u64::from(MAX_SIDE);
        if let Some(f) = field(game, "rules") {
            one_of_names(f, &rules);
        }
        if let Some(f) = field(game, "opening") {
            one_of_names(f, &openings);
        }
        if let Some(f) = field(game, "forbidden") {
            one_of_names(f, &["reject", "lose"]);
        }
        for name in ["board_size", "width", "height", "k"] {
            if let Some(f) = field(game, name) {
                range(f, 3, side);
            }
        }
    }
    if let Some(RefOr::T(Schema::Object(analysis))) = schemas.get_mut("AnalysisRequest") {
        // The position is given one way: its moves or its board.
        analysis
            .extensions
            .get_or_insert_with(Default::default)
            .insert(
                "oneOf".into(),
                serde_json::json!([{"required": ["moves"]}, {"required": ["board"]}]),
            );
        let rows = serde_json::json!({"type": "string", "pattern": "^[.+\\-XxOo]{1,26}$"});
        let names = serde_json::json!({"type": "string", "maxLength": 8, "pattern": POINT_NAME});
        for (name, items) in [("board", rows), ("moves", names)] {
            if let Some(f) = analysis.properties.get_mut(name) {
                let mut value = serde_json::to_value(&*f).expect("a schema serializes");
                value["items"] = items;
                value["type"] = "array".into();
                if let Ok(schema) = serde_json::from_value(value) {
                    *f = schema;
                }
            }
        }
    }
    if let Some(RefOr::T(Schema::Object(clock))) = schemas.get_mut("ClockRequest") {
        let main = &super::games::CLOCK_MAIN_MS;
        if let Some(f) = field(clock, "main_ms") {
            range(f, *main.start(), *main.end());
        }
        if let Some(f) = field(clock, "floor_ms") {
            range(f, 0, *main.end());
        }
    }
}
