//! The web client's files as the server serves them: types, caching, the
//! content security policy. (What the page does is in `browser`.)

use reqwest::StatusCode;
use reqwest::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};

use crate::helpers::spawn_app;

fn header<'a>(response: &'a reqwest::Response, name: &str) -> &'a str {
    response
        .headers()
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header"))
        .to_str()
        .unwrap()
}

#[tokio::test]
async fn the_page_is_served_at_the_root_and_at_every_address_it_links_to() {
    let app = spawn_app().await;
    for path in ["/", "/g/g_abc123", "/games", "/leaderboard", "/me"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(
            header(&response, "content-type"),
            "text/html; charset=utf-8"
        );
        let csp = header(&response, "content-security-policy");
        assert!(
            csp.contains("script-src 'self'") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert!(!csp.contains("unsafe-inline"));
        assert_eq!(header(&response, "x-frame-options"), "DENY");
        assert_eq!(header(&response, "cache-control"), "no-cache");
        let html = response.text().await.unwrap();
        assert!(html.contains("<script type=\"module\" src=\"/assets/"));
        assert!(!html.contains("{{ASSETS}}"));
    }
    // Not every address is the page: unknown ones are still API errors.
    let missing = app.get("/nope").await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "content-type"), "application/problem+json");
}

#[tokio::test]
async fn the_embedded_board_may_be_framed_by_any_site() {
    let app = spawn_app().await;
    let response = app.get("/embed/g_abc123").await;
    assert_eq!(response.status(), StatusCode::OK);
    assert!(header(&response, "content-security-policy").contains("frame-ancestors *"));
    assert!(response.headers().get("x-frame-options").is_none());
    assert!(response.text().await.unwrap().contains("embed.js"));
}

#[tokio::test]
async fn assets_have_their_types_are_cached_for_good_and_revalidate() {
    let app = spawn_app().await;
    let html = app.get("/").await.text().await.unwrap();
    let script = html
        .split('"')
        .find(|s| s.starts_with("/assets/") && s.ends_with("/app.js"))
        .expect("the page names its script")
        .to_string();
    let build = script.split('/').nth(2).unwrap().to_string();
    for (file, kind) in [
        ("app.js", "text/javascript; charset=utf-8"),
        ("board.js", "text/javascript; charset=utf-8"),
        ("app.css", "text/css; charset=utf-8"),
        ("icon.svg", "image/svg+xml"),
    ] {
        let response = app.get(&format!("/assets/{build}/{file}")).await;
        assert_eq!(response.status(), StatusCode::OK, "{file}");
        assert_eq!(header(&response, CONTENT_TYPE.as_str()), kind);
        assert_eq!(
            header(&response, CACHE_CONTROL.as_str()),
            "public, max-age=31536000, immutable"
        );
        assert_eq!(header(&response, "x-content-type-options"), "nosniff");
    }
    // A page from another build gets today's file, not cached for good.
    let old = app.get("/assets/0123456789ab/app.js").await;
    assert_eq!(old.status(), StatusCode::OK);
    assert_eq!(header(&old, CACHE_CONTROL.as_str()), "no-cache");
    // Revalidation answers 304 without a body.
    let first = app.get(&script).await;
    let tag = header(&first, ETAG.as_str()).to_string();
    let again = app
        .client
        .get(app.url(&script))
        .header(IF_NONE_MATCH, &tag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(again.bytes().await.unwrap().is_empty());
    // A file the client does not have is a clear 404.
    let missing = app.get(&format!("/assets/{build}/nope.js")).await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
    assert_eq!(header(&missing, "content-type"), "application/problem+json");
}
