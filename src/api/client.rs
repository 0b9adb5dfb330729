//! The web client: the static files under `web/`, built into the binary and
//! served at `/` (and `/g/{id}` for a shared game, `/embed/{id}` for a board
//! in another site's `<iframe>`). The page uses nothing but the public API.
//!
//! Assets live under `/assets/{build}/…`, where `{build}` is a hash of all of
//! them: they are cached for good, and a new binary's page asks for new ones.

use std::sync::LazyLock;

use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpRequest, HttpResponse, get, web};
use sha2::{Digest, Sha256};

use super::error::ApiError;

struct Asset {
    name: &'static str,
    content_type: &'static str,
    body: &'static [u8],
}

macro_rules! assets {
    ($($name:literal => $type:expr),* $(,)?) => {
        &[$(Asset {
            name: $name,
            content_type: $type,
            body: include_bytes!(concat!("../../web/", $name)),
        }),*]
    };
}

const JS: &str = "text/javascript; charset=utf-8";

static ASSETS: &[Asset] = assets![
    "app.js" => JS,
    "api.js" => JS,
    "board.js" => JS,
    "embed.js" => JS,
    "game.js" => JS,
    "home.js" => JS,
    "i18n.js" => JS,
    "lists.js" => JS,
    "live.js" => JS,
    "session.js" => JS,
    "ui.js" => JS,
    "app.css" => "text/css; charset=utf-8",
    "icon.svg" => "image/svg+xml",
];

const INDEX: &str = include_str!("../../web/index.html");
const EMBED: &str = include_str!("../../web/embed.html");

/// What the page may load and where it may be shown. Nothing inline, nothing
/// from elsewhere; the API is the same origin.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/// The embedded board may be framed by any site.
const CSP_EMBED: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors *";

/// The hash of every asset: the `{build}` in their addresses.
static BUILD: LazyLock<String> = LazyLock::new(|| {
    let mut hash = Sha256::new();
    for asset in ASSETS {
        hash.update(asset.name.as_bytes());
        hash.update(asset.body);
    }
    hash.update(INDEX.as_bytes());
    hash.update(EMBED.as_bytes());
    let digest = hash.finalize();
    digest[..6].iter().map(|b| format!("{b:02x}")).collect()
});

/// The two pages, with the build's asset addresses filled in.
static PAGES: LazyLock<(String, String)> = LazyLock::new(|| {
    (
        INDEX.replace("{{ASSETS}}", &BUILD),
        EMBED.replace("{{ASSETS}}", &BUILD),
    )
});

fn etag() -> String {
    format!("\"web-{}\"", *BUILD)
}

/// Whether the client already holds this build.
fn fresh(req: &HttpRequest) -> bool {
    super::not_modified(req, &etag())
}

fn page(req: &HttpRequest, body: &'static str, csp: &'static str) -> HttpResponse {
    let mut response = if fresh(req) {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::CONTENT_SECURITY_POLICY, csp))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "same-origin"))
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .insert_header((header::ETAG, etag()));
    if csp == CSP {
        response.insert_header((header::X_FRAME_OPTIONS, "DENY"));
    }
    if fresh(req) {
        return response.finish();
    }
    response.content_type("text/html; charset=utf-8").body(body)
}

/// The web client.
#[get("/")]
pub async fn index(req: HttpRequest) -> HttpResponse {
    page(&req, &PAGES.0, CSP)
}

/// The client's own pages: a shared game, the player's games, the
/// leaderboard, the score card. The page itself reads the address.
#[get("/{page:(g/[A-Za-z0-9_-]{1,64}|games|leaderboard|me)}")]
pub async fn client_page(req: HttpRequest) -> HttpResponse {
    page(&req, &PAGES.0, CSP)
}

/// A live board for another site's `<iframe>`: no controls.
#[get("/embed/{id}")]
pub async fn embed(req: HttpRequest, _id: web::Path<String>) -> HttpResponse {
    page(&req, &PAGES.1, CSP_EMBED)
}

/// A file of the client. The current build's files are cached for good;
/// another build's name (a page from before an upgrade) gets today's file,
/// revalidated.
#[get("/assets/{build}/{name}")]
pub async fn client_file(
    req: HttpRequest,
    path: web::Path<(String, String)>,
) -> Result<HttpResponse, ApiError> {
    let (build, name) = path.into_inner();
    let asset = ASSETS
        .iter()
        .find(|a| a.name == name)
        .ok_or_else(|| ApiError::not_found(format!("no such file of the web client: {name}")))?;
    let cache = if build == *BUILD {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    let mut response = if fresh(&req) {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::CACHE_CONTROL, cache))
        .insert_header((header::ETAG, etag()))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"));
    if fresh(&req) {
        return Ok(response.finish());
    }
    Ok(response
        .insert_header((
            header::CONTENT_TYPE,
            HeaderValue::from_static(asset.content_type),
        ))
        .body(asset.body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_the_pages_import_is_served() {
        let served: Vec<&str> = ASSETS.iter().map(|a| a.name).collect();
        let mut sources: Vec<&str> = ASSETS
            .iter()
            .filter(|a| a.content_type == JS)
            .map(|a| std::str::from_utf8(a.body).expect("the client is UTF-8"))
            .collect();
        sources.push(INDEX);
        sources.push(EMBED);
        for source in sources {
            for line in source.lines() {
                let quoted = line
                    .split(['\'', '"'])
                    .filter(|s| s.starts_with("./") || s.starts_with("/assets/{{ASSETS}}/"));
                for target in quoted {
                    let file = target.rsplit('/').next().unwrap_or(target);
                    assert!(
                        served.contains(&file),
                        "{file} is imported by the client but not served (add it to ASSETS)"
                    );
                }
            }
        }
    }
}
