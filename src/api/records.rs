//! Records over HTTP: a game as SGF, PSQ, a move list or JSON
//! (`GET /v1/games/{id}/record`), and a record loaded as a new game
//! (`POST /v1/games/import`).

use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use futures_util::StreamExt;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::auth::{MaybeCaller, record_game};
use super::body;
use super::error::{ApiError, Problem, Result};
use super::games::{created, rules_named, seat_spec, variant_spec};
use super::types::{CreateGame, GameCreated, SeatRequest};
use crate::records::{self, Format, JsonRecord, MAX_RECORD_BYTES, ReadRecord};
use crate::service::{ImportRequest, SeatSpec, Service, ServiceError};

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct RecordQuery {
    /// `sgf`, `psq`, `moves` or `json`; overrides `Accept`.
    #[param(pattern = "^(sgf|psq|moves|json)$")]
    pub format: Option<String>,
}

/// The format a client asked for: `?format=`, else the first type in
/// `Accept` that is a record format, else SGF.
fn negotiate(req: &HttpRequest, format: Option<&str>) -> Result<Format> {
    if let Some(format) = format {
        return format.parse().map_err(ApiError::validation);
    }
    let Some(accept) = req
        .headers()
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
    else {
        return Ok(Format::Sgf);
    };
    let mut wildcard = false;
    for media in accept.split(',') {
        let media = media.split(';').next().unwrap_or("").trim();
        if let Some(format) = Format::from_media_type(media) {
            return Ok(format);
        }
        wildcard |= media == "*/*" || media == "application/*" || media == "text/*";
    }
    if wildcard {
        return Ok(Format::Sgf);
    }
    Err(ApiError::new(
        StatusCode::NOT_ACCEPTABLE,
        "NOT_ACCEPTABLE",
        "No record format fits Accept",
        "records come as application/x-go-sgf, application/x-piskvork-psq, text/plain (a move list) or application/json; or name one with ?format=",
    ))
}

/// `attachment`, with the name in ASCII and in full (RFC 6266).
fn disposition(name: &str) -> String {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = name
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}")
}

/// A game's record, to keep or to open in another program: SGF (FF[4],
/// GM[4]), Piskvork's PSQ, the move list (`h8 i9 …`) or gobang's JSON, by
/// `?format=` or `Accept` (SGF when neither says).
#[utoipa::path(
    tag = "records",
    params(("id" = String, Path, description = "Game id"), RecordQuery),
    responses(
        (status = 200, description = "The record, with a file name in Content-Disposition", content(
            (String = "application/x-go-sgf"),
            (String = "application/x-piskvork-psq"),
            (String = "text/plain"),
            (RecordJson = "application/json"),
        )),
        (status = 304, description = "Not modified (If-None-Match)"),
        (status = 404, description = "NOT_FOUND", body = Problem, content_type = "application/problem+json"),
        (status = 406, description = "NOT_ACCEPTABLE: Accept names no record format", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "VALIDATION: an unknown format", body = Problem, content_type = "application/problem+json"),
    )
)]
#[get("/v1/games/{id}/record")]
pub async fn export_record(
    service: web::Data<Service>,
    req: HttpRequest,
    id: web::Path<String>,
    query: web::Query<RecordQuery>,
) -> Result<HttpResponse> {
    record_game(&req, &id);
    let format = negotiate(&req, query.format.as_deref())?;
    let (game, record) = service.record(&id).await?;
    let tag = format!("\"{}-{}\"", game.version, format.as_str());
    let fresh = super::not_modified(&req, &tag);
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag))
        .insert_header((header::VARY, "Accept"))
        .insert_header((header::CACHE_CONTROL, "no-cache"));
    if fresh {
        return Ok(response.finish());
    }
    let disposition = disposition(&records::file_name(&record, format));
    Ok(response
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(format.content_type()),
        ))
        .insert_header((header::CONTENT_DISPOSITION, disposition))
        .body(record.write(format)))
}

/// What a file upload may say in its address.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct ImportQuery {
    /// `sgf`, `psq`, `moves` or `json` (else from Content-Type, else from
    /// the file's first characters).
    #[param(pattern = "^(sgf|psq|moves|json)$")]
    pub format: Option<String>,
    /// Rules, when the file does not say (or to override it).
    pub rules: Option<String>,
    /// Board side, with `rules`.
    pub board_size: Option<u32>,
    /// Renju: `reject` or `lose`, with `rules`.
    pub forbidden: Option<String>,
    /// `me` (default) or a computer level.
    pub black: Option<String>,
    /// `me` (default) or a computer level.
    pub white: Option<String>,
}

/// gobang's own record as JSON (`format=json`), as `records::json` writes
/// it and `POST /v1/games/import` reads it: described here for the
/// document.
#[derive(ToSchema)]
#[schema(example = json!({"format": "gobang", "rules": "renju opening=rif", "width": 15, "height": 15,
    "black": "Ada", "white": "Computer (expert)",
    "moves": [{"at": "h8", "thinking_ms": 5012}, {"at": "i9", "thinking_ms": 180}, "j10"],
    "result": {"winner": "black", "reason": "five"}}))]
#[allow(dead_code)]
struct RecordJson {
    /// Always `gobang`.
    format: Option<String>,
    /// The rules: `freestyle`, `renju opening=rif`, …
    rules: Option<String>,
    width: Option<u8>,
    height: Option<u8>,
    black: Option<String>,
    white: Option<String>,
    moves: Vec<RecordJsonMove>,
    result: Option<RecordJsonResult>,
}

/// A move: its point's name, or the name and the thinking time.
#[derive(ToSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum RecordJsonMove {
    Name(String),
    Full {
        at: String,
        thinking_ms: Option<i64>,
    },
}

/// How the game ended.
#[derive(ToSchema)]
#[allow(dead_code)]
struct RecordJsonResult {
    /// `black`, `white`, or null for a draw.
    winner: Option<String>,
    /// `five`, `forbidden`, `resign`, `timeout`, `abandoned`, `draw_agreed`
    /// or `board_full`.
    reason: String,
}

/// A record inside a JSON request, with the usual creation fields.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"record": "(;FF[4]GM[4]SZ[15];B[hh];W[ig];B[ii])", "white": {"ai": "expert"}}))]
pub struct ImportBody {
    /// The file's text (SGF, PSQ or a move list), or a JSON record as
    /// `GET …/record?format=json` writes it.
    #[schema(value_type = Object)]
    pub record: serde_json::Value,
    /// `sgf`, `psq`, `moves` or `json` (default: from the text).
    pub format: Option<String>,
    /// Rules when the file does not say them (or to override it):
    /// `freestyle`, `standard`, `renju`, `tictactoe`, `custom`.
    pub rules: Option<String>,
    pub board_size: Option<u32>,
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub k: Option<u32>,
    pub overline_wins: Option<bool>,
    pub forbidden: Option<String>,
    /// Default `"me"`; or `{"ai": "<level>"}`.
    pub black: Option<SeatRequest>,
    /// Default `"me"`; or `{"ai": "<level>"}`.
    pub white: Option<SeatRequest>,
}

fn invalid(message: impl Into<String>) -> ApiError {
    ServiceError::ImportInvalid(message.into()).into()
}

fn read(text: &str, format: Option<Format>) -> Result<ReadRecord> {
    let format = format.unwrap_or_else(|| Format::sniff(text));
    records::read(text, format).map_err(|e| invalid(e.to_string()))
}

fn query_seat(seat: Option<&str>) -> Result<Option<SeatRequest>> {
    Ok(match seat {
        None | Some("me") => None,
        Some(level) => Some(SeatRequest::Computer { ai: level.into() }),
    })
}

/// Load a game from a record (the other half of save and load): SGF, PSQ, a
/// move list or a JSON record, as the raw body (by Content-Type, `?format=`
/// or its first characters) or as `record` in a JSON body with the usual
/// creation fields. Every move is replayed through the rules; the new game
/// stands at the record's last move with every move undoable, to step
/// through, continue against the computer (`"white": {"ai": "expert"}`),
/// or play on. Without a token a guest player is made for you.
#[utoipa::path(
    tag = "records",
    params(ImportQuery),
    request_body(content(
        (ImportBody = "application/json"),
        (String = "application/x-go-sgf"),
        (String = "application/x-piskvork-psq"),
        (String = "text/plain"),
    ), description = "The record, at most 64 KiB"),
    security((), ("bearer" = [])),
    responses(
        (status = 201, description = "The new game", body = GameCreated),
        (status = 400, description = "MALFORMED_JSON", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "UNAUTHORIZED: a token that fits no player", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "IMPORT_INVALID (the move and why: off the board, occupied, forbidden, after the end; an unreadable file or one too large) or VALIDATION (rules or seats)", body = Problem, content_type = "application/problem+json"),
    )
)]
#[post("/v1/games/import")]
pub async fn import(
    service: web::Data<Service>,
    req: HttpRequest,
    caller: MaybeCaller,
    query: web::Query<ImportQuery>,
    mut payload: web::Payload,
) -> Result<HttpResponse> {
    // Room for a JSON envelope around the largest record.
    let limit = MAX_RECORD_BYTES * 2;
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| invalid(format!("the upload failed: {e}")))?;
        if body.len() + chunk.len() > limit {
            return Err(invalid(format!(
                "the file is too large: records of at most {MAX_RECORD_BYTES} bytes are imported"
            )));
        }
        body.extend_from_slice(&chunk);
    }
    let text = std::str::from_utf8(&body).map_err(|_| invalid("the file is not UTF-8 text"))?;
    if text.trim().is_empty() {
        return Err(invalid(
            "the body is empty: send the record (SGF, PSQ, a move list or JSON)",
        ));
    }
    let query = query.into_inner();
    let query_format = query
        .format
        .as_deref()
        .map(str::parse::<Format>)
        .transpose()
        .map_err(ApiError::validation)?;
    // A generic text type says nothing of the format: the file's first
    // characters do.
    let media = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(Format::from_media_type)
        .filter(|f| *f != Format::Moves);
    let envelope = (media == Some(Format::Json))
        .then(|| serde_json::from_str::<serde_json::Value>(text).ok())
        .flatten()
        .filter(|v| v.get("record").is_some());
    let (record, create) = if let Some(envelope) = envelope {
        let body: ImportBody = body::from_value(envelope)?;
        let format = body
            .format
            .as_deref()
            .map(str::parse::<Format>)
            .transpose()
            .map_err(ApiError::validation)?
            .or(query_format);
        let record = match body.record {
            serde_json::Value::String(text) => read(&text, format)?,
            serde_json::Value::Object(_) => {
                let json: JsonRecord = serde_json::from_value(body.record)
                    .map_err(|e| invalid(format!("JSON record: {e}")))?;
                records::from_json(json).map_err(|e| invalid(e.to_string()))?
            }
            _ => {
                return Err(ApiError::validation(
                    "record is the file's text, or a JSON record",
                ));
            }
        };
        let create = CreateGame {
            rules: body.rules,
            board_size: body.board_size,
            width: body.width,
            height: body.height,
            k: body.k,
            overline_wins: body.overline_wins,
            forbidden: body.forbidden,
            black: body.black,
            white: body.white,
            ..CreateGame::default()
        };
        (record, create)
    } else {
        let record = read(text, query_format.or(media))?;
        let create = CreateGame {
            rules: query.rules,
            board_size: query.board_size,
            forbidden: query.forbidden,
            black: query_seat(query.black.as_deref())?,
            white: query_seat(query.white.as_deref())?,
            ..CreateGame::default()
        };
        (record, create)
    };
    let request = ImportRequest {
        record,
        rules: rules_named(create.rules.as_deref())?,
        spec: variant_spec(&create)?,
        black: seat_spec(create.black, SeatSpec::Me)?,
        white: seat_spec(create.white, SeatSpec::Me)?,
    };
    let (outcome, guest) = service.import_game(caller.0, request).await?;
    Ok(created(&outcome, guest))
}
