//! The OpenAPI document is the contract: served, browsable, and committed.

use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::spawn_app;

#[tokio::test]
async fn the_committed_spec_is_what_the_code_generates() {
    let committed = include_str!("../../openapi/openapi.json");
    let generated = gobang::api::openapi_json();
    assert!(
        committed.trim_end() == generated.trim_end(),
        "openapi/openapi.json is stale: run `cargo run -- openapi > openapi/openapi.json`"
    );
}

#[tokio::test]
async fn the_spec_and_swagger_ui_are_served() {
    let app = spawn_app().await;
    let spec: Value = app.get("/openapi.json").await.json().await.unwrap();
    assert!(spec["openapi"].as_str().unwrap().starts_with("3.1"));
    for path in [
        "/v1/players",
        "/v1/players/{id}",
        "/v1/leaderboard",
        "/v1/games",
        "/v1/games/{id}",
        "/v1/games/{id}/join",
        "/v1/games/{id}/moves",
        "/v1/games/{id}/undo",
        "/v1/games/{id}/redo",
        "/v1/games/{id}/ai-move",
        "/v1/games/{id}/hint",
        "/v1/games/{id}/resign",
        "/v1/games/{id}/events",
        "/v1/games/{id}/ws",
        "/v1/games/{id}/accept",
        "/v1/games/{id}/decline",
        "/v1/games/{id}/cancel",
        "/v1/games/{id}/takeback",
        "/v1/games/{id}/takeback/accept",
        "/v1/games/{id}/takeback/decline",
        "/v1/games/{id}/draw",
        "/v1/games/{id}/draw/accept",
        "/v1/games/{id}/draw/decline",
        "/v1/games/{id}/rematch",
        "/v1/games/{id}/rematch/accept",
        "/v1/games/{id}/rematch/decline",
        "/v1/games/{id}/claim",
        "/healthz",
    ] {
        assert!(
            spec["paths"].get(path).is_some(),
            "{path} is missing from the spec"
        );
    }
    let docs = app.get("/docs/").await;
    assert_eq!(docs.status(), StatusCode::OK);
    assert!(docs.text().await.unwrap().contains("swagger"));
}

#[test]
fn every_body_has_an_example_and_every_operation_its_errors() {
    let spec: Value = serde_json::from_str(&gobang::api::openapi_json()).unwrap();
    let schemas = &spec["components"]["schemas"];
    let example_of = |reference: &Value| -> bool {
        match reference.get("$ref").and_then(Value::as_str) {
            Some(r) => {
                let name = r.rsplit('/').next().unwrap();
                schemas[name].get("example").is_some()
            }
            None => true,
        }
    };
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2') || s == "101"),
                "{method} {path}"
            );
            for (status, response) in responses {
                for (media, content) in response["content"].as_object().into_iter().flatten() {
                    assert!(
                        example_of(&content["schema"]),
                        "{method} {path} {status} {media} has no example"
                    );
                }
            }
            if let Some(body) = op.get("requestBody") {
                // Whatever it reads, a body may be malformed, too large, of
                // another type, or not what the operation takes.
                for status in ["400", "413", "415", "422"] {
                    assert!(
                        responses.contains_key(status),
                        "{method} {path} takes a body but documents no {status}"
                    );
                }
                for content in body["content"].as_object().unwrap().values() {
                    let schema = &content["schema"];
                    let schema = schema
                        .get("oneOf")
                        .and_then(|o| o.as_array()?.iter().find(|s| s.get("$ref").is_some()))
                        .unwrap_or(schema);
                    assert!(
                        example_of(schema),
                        "{method} {path} request body has no example"
                    );
                }
            }
            if path.starts_with("/v1/games/{id}") || path == "/v1/players/{id}" {
                assert!(
                    responses.contains_key("404"),
                    "{method} {path} documents no 404"
                );
            }
        }
    }
}

/// A picture's body is documented as bytes of its media type, so a client
/// generated from the document reads it as a file, not as JSON numbers.
#[test]
fn a_picture_is_documented_as_bytes_of_its_media_type() {
    let spec: Value = serde_json::from_str(&gobang::api::openapi_json()).unwrap();
    let mut pictures = Vec::new();
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for (status, response) in op["responses"].as_object().unwrap() {
                for (media, content) in response["content"].as_object().into_iter().flatten() {
                    if media.starts_with("image/") {
                        let schema = &content["schema"];
                        assert_eq!(schema["type"], "string", "{method} {path} {status} {media}");
                        if !media.ends_with("+xml") {
                            assert_eq!(
                                schema["contentMediaType"],
                                media.as_str(),
                                "{method} {path} {status} {media}"
                            );
                        }
                        pictures.push(media.clone());
                    }
                }
            }
        }
    }
    for media in ["image/png", "image/gif", "image/svg+xml"] {
        assert!(pictures.iter().any(|m| m == media), "no {media} response");
    }
}

#[tokio::test]
async fn a_documented_path_asked_with_another_method_answers_405_with_allow() {
    let app = spawn_app().await;
    let (game, _) = app
        .local_game(serde_json::json!({"rules": "freestyle"}))
        .await;
    let put = app
        .client
        .put(app.url(&format!("/v1/games/{game}/moves")))
        .send()
        .await
        .unwrap();
    assert_eq!(put.headers()["allow"], "GET, POST");
    crate::helpers::assert_problem(put, StatusCode::METHOD_NOT_ALLOWED, "METHOD_NOT_ALLOWED").await;
    let delete = app
        .client
        .delete(app.url("/v1/leaderboard"))
        .send()
        .await
        .unwrap();
    assert_eq!(delete.status(), StatusCode::METHOD_NOT_ALLOWED);
    assert_eq!(delete.headers()["allow"], "GET");
    // A path the document does not have is still 404.
    let nowhere = app.client.put(app.url("/v1/nowhere")).send().await.unwrap();
    crate::helpers::assert_problem(nowhere, StatusCode::NOT_FOUND, "NOT_FOUND").await;
}

#[tokio::test]
async fn the_limits_the_document_states_are_the_ones_the_server_keeps() {
    let spec: Value = serde_json::from_str(&gobang::api::openapi_json()).unwrap();
    let app = spawn_app().await;
    let (game, _) = app
        .local_game(serde_json::json!({"rules": "freestyle"}))
        .await;
    // The hint's time_ms: its maximum is accepted, one more is refused.
    let hint = &spec["paths"]["/v1/games/{id}/hint"]["get"]["parameters"];
    let time_ms = hint
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "time_ms")
        .unwrap();
    let max = time_ms["schema"]["maximum"].as_u64().unwrap();
    let at_max = app
        .get(&format!(
            "/v1/games/{game}/hint?time_ms={max}&level=beginner"
        ))
        .await;
    assert_eq!(at_max.status(), StatusCode::OK);
    let over = app
        .get(&format!("/v1/games/{game}/hint?time_ms={}", max + 1))
        .await;
    crate::helpers::assert_problem(over, StatusCode::UNPROCESSABLE_ENTITY, "VALIDATION").await;
    // A new game links to every action on it, by the id it answers with.
    let links = &spec["paths"]["/v1/games"]["post"]["responses"]["201"]["links"];
    let moves = links
        .as_object()
        .unwrap()
        .values()
        .find(|l| l["operationId"] == "play")
        .expect("a link from a new game to its moves");
    assert_eq!(moves["parameters"]["id"], "$response.body#/game/id");
}

/// The document's spelling of a point is the server's: a name it states
/// is one the server reads (on a board large enough), and one it does not
/// state the server refuses as no point at all.
#[test]
fn the_documented_point_names_are_the_ones_the_server_reads() {
    use gobang::rules::{PointError, parse_point};
    let spec: Value = serde_json::from_str(&gobang::api::openapi_json()).unwrap();
    let schemas = &spec["components"]["schemas"];
    let at = schemas["MoveRequest"]["properties"]["at"]["pattern"]
        .as_str()
        .expect("a move's name has a pattern");
    let named = schemas["PointRequest"]["oneOf"][0]["pattern"].as_str();
    assert_eq!(named, Some(at), "a point is spelled alike everywhere");
    let pattern = regex_lite::Regex::new(at).unwrap();
    for name in [
        "h8", "H8", "a1", "z999", "7,7", "0,0", " 7 , 7 ", "(7,7)", "( 7, 7 )", "300,2", "", "h",
        "8h", "7,", ",7", "(7,7", "7,7)", "hh8", "h8h", "h1234", "7,7,7", "-1,2", "h 8",
    ] {
        let read = !matches!(parse_point(name, 26, 26), Err(PointError::Syntax { .. }));
        assert_eq!(
            pattern.is_match(name),
            read,
            "{name:?}: the document and the server disagree"
        );
    }
}
