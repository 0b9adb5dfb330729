//! Building the server apart from running it: `build` opens the database,
//! binds the listener (port 0 picks a free one, as tests do) and hands back
//! a server that `run_until_stopped` runs.

use std::net::TcpListener;
use std::time::Duration;

use actix_cors::Cors;
use actix_web::dev::{Server, ServerHandle, Service as _};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::{App, HttpMessage, HttpServer, web};
use tracing_actix_web::{DefaultRootSpanBuilder, RequestId, RootSpanBuilder, TracingLogger};

use crate::api::{self, Limits, RateLimitConfig, SlowRequest};
use crate::service::{ComputerConfig, OnlineConfig, Service, paid_by};
use crate::store::Store;

/// Everything the server is configured with.
#[derive(Clone, Debug)]
pub struct Settings {
    pub address: String,
    /// 0 picks a free port.
    pub port: u16,
    /// `sqlite:gobang.db`, or a file path.
    pub database_url: String,
    /// Origins allowed to call from browsers; `*` allows any.
    pub cors_origins: Vec<String>,
    pub computer: ComputerConfig,
    pub online: OnlineConfig,
    /// HTTP worker threads (default: one per core).
    pub workers: Option<usize>,
    /// Budgets of requests per caller.
    pub rate_limits: RateLimitConfig,
    /// Requests slower than this are logged at warn.
    pub slow_request: Duration,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            address: "127.0.0.1".into(),
            port: 8080,
            database_url: "sqlite:gobang.db".into(),
            cors_origins: Vec::new(),
            computer: ComputerConfig::default(),
            online: OnlineConfig::default(),
            workers: None,
            rate_limits: RateLimitConfig::default(),
            slow_request: Duration::from_secs(1),
        }
    }
}

pub type StartError = Box<dyn std::error::Error + Send + Sync>;

/// A bound, ready server.
pub struct Application {
    port: u16,
    server: Server,
    service: Service,
    /// Ends timed games when a clock runs out.
    clock_watcher: tokio::task::JoinHandle<()>,
    /// Gives the computer the seeks nobody came to in time.
    seek_watcher: tokio::task::JoinHandle<()>,
}

/// The per-request log span, with the ids handlers fill in.
struct GobangRootSpan;

impl RootSpanBuilder for GobangRootSpan {
    fn on_request_start(request: &actix_web::dev::ServiceRequest) -> tracing::Span {
        tracing_actix_web::root_span!(
            request,
            game_id = tracing::field::Empty,
            player_id = tracing::field::Empty
        )
    }

    fn on_request_end<B: actix_web::body::MessageBody>(
        span: tracing::Span,
        outcome: &Result<actix_web::dev::ServiceResponse<B>, actix_web::Error>,
    ) {
        DefaultRootSpanBuilder::on_request_end(span, outcome);
    }
}

fn cors(origins: &[String]) -> Cors {
    let cors = Cors::default()
        .allowed_methods(["GET", "POST", "OPTIONS"])
        .allowed_headers([
            header::AUTHORIZATION,
            header::CONTENT_TYPE,
            header::IF_MATCH,
            header::ACCEPT,
            HeaderName::from_static("idempotency-key"),
        ])
        .expose_headers([
            header::ETAG,
            header::LOCATION,
            HeaderName::from_static("x-request-id"),
            HeaderName::from_static("idempotent-replayed"),
            header::RETRY_AFTER,
            HeaderName::from_static("ratelimit"),
            HeaderName::from_static("ratelimit-policy"),
        ])
        .max_age(3600);
    if origins.iter().any(|o| o == "*") {
        cors.allow_any_origin()
    } else {
        origins
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin))
    }
}

impl Application {
    pub async fn build(settings: Settings) -> Result<Application, StartError> {
        let store = Store::open(&settings.database_url).await?;
        let service =
            Service::new(store, settings.computer.clone(), settings.online.clone()).await?;
        let listener = TcpListener::bind((settings.address.as_str(), settings.port))?;
        let port = listener.local_addr()?.port();
        let data = web::Data::new(service.clone());
        let origins = settings.cors_origins.clone();
        let limits = Limits::new(&settings.rate_limits);
        let slow = SlowRequest(settings.slow_request);
        let mut server = HttpServer::new(move || {
            let limits = limits.clone();
            App::new()
                .app_data(limits.clone())
                .app_data(slow)
                // Innermost: retries answered from the first answer (inside
                // the rate limits, so a refused request leaves its key free).
                .wrap(actix_web::middleware::from_fn(api::idempotency::handle))
                // A refusal still gets its request id, CORS headers and log
                // line.
                .wrap_fn(move |req, srv| {
                    let payer = limits.payer(&req);
                    let call = match limits.check(&req) {
                        None => futures_util::future::Either::Left(srv.call(req)),
                        Some(refusal) => {
                            futures_util::future::Either::Right(req.into_response(refusal))
                        }
                    };
                    async move {
                        match call {
                            futures_util::future::Either::Left(response) => {
                                // The computer's thinking is paid by the caller.
                                let response = match payer {
                                    Some(payer) => paid_by(payer, response).await?,
                                    None => response.await?,
                                };
                                Ok(response.map_into_boxed_body())
                            }
                            futures_util::future::Either::Right(refused) => Ok(refused),
                        }
                    }
                })
                .wrap_fn(|req, srv| {
                    let response = srv.call(req);
                    async move {
                        let mut response = response.await?;
                        let id = response
                            .request()
                            .extensions()
                            .get::<RequestId>()
                            .map(|id| id.to_string());
                        if let Some(value) = id.and_then(|id| HeaderValue::from_str(&id).ok()) {
                            response
                                .headers_mut()
                                .insert(HeaderName::from_static("x-request-id"), value);
                        }
                        Ok(response)
                    }
                })
                .wrap(cors(&origins))
                // Counts and times every answer, refusals and preflights
                // included, inside the request's log span.
                .wrap(actix_web::middleware::from_fn(api::metrics::observe))
                .wrap(TracingLogger::<GobangRootSpan>::new())
                .app_data(data.clone())
                .configure(api::configure)
        })
        .shutdown_timeout(10)
        // SIGTERM and Ctrl-C are handled in `run_until_stopped`: followers
        // are let go first, so that the graceful stop is not held up.
        .disable_signals()
        .keep_alive(Duration::from_secs(30));
        if let Some(workers) = settings.workers {
            server = server.workers(workers);
        }
        let server = server.listen(listener)?.run();
        let clock_watcher = tokio::spawn(service.clone().watch_clocks());
        let seek_watcher = tokio::spawn(service.clone().watch_seeks());
        Ok(Application {
            port,
            server,
            service,
            clock_watcher,
            seek_watcher,
        })
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// A handle to stop the server (gracefully with `stop(true)`).
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// Serves until stopped (Ctrl-C, SIGTERM or the handle), then closes the
    /// database after the last committed write.
    pub async fn run_until_stopped(self) -> std::io::Result<()> {
        let handle = self.server.handle();
        let service = self.service.clone();
        let stopper = tokio::spawn(async move {
            stop_signal().await;
            tracing::info!(
                "stopping: no new connections; event streams told to reconnect; finishing requests under way"
            );
            service.events().close_all();
            handle.stop(true).await;
        });
        let result = self.server.await;
        stopper.abort();
        self.clock_watcher.abort();
        self.seek_watcher.abort();
        self.service.store().close().await;
        result
    }
}

/// Ctrl-C, or SIGTERM (what a process manager or a rolling deploy sends).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut terminate) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = terminate.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
