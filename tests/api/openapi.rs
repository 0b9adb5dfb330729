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
fn every_schema_has_an_example_or_only_documented_fields() {
    let spec: Value = serde_json::from_str(&gobang::api::openapi_json()).unwrap();
    for (name, schema) in spec["components"]["schemas"].as_object().unwrap() {
        if let Some(props) = schema.get("properties").and_then(Value::as_object) {
            assert!(!props.is_empty(), "{name} has no properties");
        }
    }
    // Every operation names its error responses.
    for (path, item) in spec["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let responses = op["responses"].as_object().unwrap();
            assert!(
                responses.keys().any(|s| s.starts_with('2')),
                "{method} {path}"
            );
            if path.starts_with("/v1/games/{id}") || path == "/v1/players/{id}" {
                assert!(
                    responses.contains_key("404"),
                    "{method} {path} documents no 404"
                );
            }
        }
    }
}
