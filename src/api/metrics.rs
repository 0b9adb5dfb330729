//! `GET /metrics`, and the middleware that counts and times every request
//! (and logs the slow ones at warn, in the request's span so with its id).

use std::time::{Duration, Instant};

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpResponse, get, web};

use super::error::Result;
use crate::metrics::{RequestLabels, RouteLabels};
use crate::service::Service;

/// Requests slower than this are logged at warn (long polls, which wait
/// on purpose, are not).
#[derive(Clone, Copy, Debug)]
pub struct SlowRequest(pub Duration);

/// Counts and times a request by its route pattern (ids left out, so the
/// series stay few).
pub async fn observe(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> std::result::Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let service = req.app_data::<web::Data<Service>>().cloned();
    let slow = req.app_data::<SlowRequest>().copied();
    let method = req.method().to_string();
    // A long poll (a seek's `?wait=`, a game's `?wait_for_version=`) is
    // slow because it was asked to be.
    let long_poll = req.query_string().split('&').any(|pair| {
        (pair.starts_with("wait=") && pair != "wait=0") || pair.starts_with("wait_for_version=")
    });
    let response = next.call(req).await?;
    let elapsed = started.elapsed();
    let route = response
        .request()
        .match_pattern()
        .unwrap_or_else(|| "unmatched".into());
    let status = response.status().as_u16();
    if let Some(service) = service {
        let counts = service.metrics();
        counts
            .requests
            .get_or_create(&RequestLabels {
                method: method.clone(),
                route: route.clone(),
                status,
            })
            .inc();
        counts
            .request_seconds
            .get_or_create(&RouteLabels {
                method: method.clone(),
                route: route.clone(),
            })
            .observe(elapsed.as_secs_f64());
    }
    if let Some(SlowRequest(threshold)) = slow
        && elapsed > threshold
        && !long_poll
    {
        tracing::warn!(
            %method,
            %route,
            status,
            ms = elapsed.as_millis() as u64,
            "slow request"
        );
    }
    Ok(response)
}

/// Metrics in the Prometheus text format (OpenMetrics 1.0): requests by
/// route and status, latencies, moves played, games by status, live
/// followers, the engine's searches and thinking time, database write
/// batches and commit times, rate-limit refusals. For a scraper: not
/// rate-limited.
#[utoipa::path(
    tag = "operations",
    responses(
        (status = 200, description = "The metrics", content_type = "application/openmetrics-text; version=1.0.0; charset=utf-8", body = String),
    )
)]
#[get("/metrics")]
pub async fn metrics(service: web::Data<Service>) -> Result<HttpResponse> {
    service.count_games().await?;
    Ok(HttpResponse::Ok()
        .content_type("application/openmetrics-text; version=1.0.0; charset=utf-8")
        .body(service.metrics().render()))
}
