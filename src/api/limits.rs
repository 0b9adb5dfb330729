//! Rate limits: budgets of reads, writes and guest players per caller (its
//! token, or without one its address), refused with 429 `RATE_LIMITED`,
//! `Retry-After` and the IETF `RateLimit-Policy` / `RateLimit` headers.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use std::collections::HashMap;
use std::sync::Mutex;

use actix_web::dev::ServiceRequest;
use actix_web::http::{Method, StatusCode, header};
use actix_web::{HttpRequest, HttpResponse, web};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::auth::Client;
use super::error::ApiError;
use crate::service::{Service, ThinkingBudget};

/// The budgets; `enabled: false` turns every one off.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateLimitConfig {
    pub enabled: bool,
    /// GET requests per caller per minute.
    pub reads_per_minute: u32,
    /// Other requests per caller per minute.
    pub writes_per_minute: u32,
    /// Players made without a token (a new player, or a guest made by a
    /// new game or an import), per address per hour.
    pub guests_per_hour: u32,
    /// Event streams (SSE and WebSocket) open at once per address.
    pub streams_per_address: u32,
    /// Milliseconds of the computer's thinking per caller per minute
    /// (a search is charged the most it may think).
    pub thinking_ms_per_minute: u32,
}

impl Default for RateLimitConfig {
    /// Generous: a person playing, a page following games or a bot playing
    /// its games never meets them.
    fn default() -> Self {
        RateLimitConfig {
            enabled: true,
            reads_per_minute: 1200,
            writes_per_minute: 300,
            guests_per_hour: 60,
            streams_per_address: 100,
            thinking_ms_per_minute: 60_000,
        }
    }
}

impl RateLimitConfig {
    /// No limits (load tests, a deployment behind its own gateway).
    pub fn off() -> Self {
        RateLimitConfig {
            enabled: false,
            ..RateLimitConfig::default()
        }
    }
}

/// One budget: its name in the headers, its quota, its window in seconds.
struct Budget {
    name: &'static str,
    quota: u32,
    window: u64,
    limiter: DefaultKeyedRateLimiter<String>,
}

impl Budget {
    fn new(name: &'static str, quota: u32, window: Duration) -> Budget {
        let quota = NonZeroU32::new(quota.max(1)).expect("at least one");
        let per = window / quota.get();
        let limiter = RateLimiter::keyed(
            Quota::with_period(per)
                .expect("a period over zero")
                .allow_burst(quota),
        );
        Budget {
            name,
            quota: quota.get(),
            window: window.as_secs(),
            limiter,
        }
    }

    /// `Err(seconds to wait)` when `key` has used its budget.
    fn check(&self, key: &str) -> Result<(), u64> {
        self.limiter
            .check_key(&key.to_string())
            .map_err(|not_until| {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
            })
    }
}

/// Every budget, shared by the server's workers.
#[derive(Clone)]
pub struct Limits {
    inner: Option<Arc<Budgets>>,
    streams: Option<Arc<Streams>>,
}

/// Event streams open per address.
struct Streams {
    most: u32,
    open: Mutex<HashMap<String, u32>>,
}

/// One open event stream, counted against its address while it lives.
pub struct StreamPermit {
    streams: Option<(Arc<Streams>, String)>,
}

impl StreamPermit {
    pub fn unlimited() -> StreamPermit {
        StreamPermit { streams: None }
    }
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        if let Some((streams, address)) = self.streams.take() {
            let mut open = streams.open.lock().expect("never poisoned");
            if let Some(n) = open.get_mut(&address) {
                *n -= 1;
                if *n == 0 {
                    open.remove(&address);
                }
            }
        }
    }
}

struct Budgets {
    reads: Budget,
    writes: Budget,
    guests: Budget,
    thinking: Budget,
    checks: AtomicU64,
}

impl Limits {
    pub fn new(config: &RateLimitConfig) -> Limits {
        if !config.enabled {
            return Limits {
                inner: None,
                streams: None,
            };
        }
        let minute = Duration::from_secs(60);
        Limits {
            inner: Some(Arc::new(Budgets {
                reads: Budget::new("reads", config.reads_per_minute, minute),
                writes: Budget::new("writes", config.writes_per_minute, minute),
                guests: Budget::new("guests", config.guests_per_hour, minute * 60),
                thinking: Budget::new("thinking", config.thinking_ms_per_minute, minute),
                checks: AtomicU64::new(0),
            })),
            streams: Some(Arc::new(Streams {
                most: config.streams_per_address.max(1),
                open: Mutex::default(),
            })),
        }
    }

    /// Who pays for the computer's thinking in `req`: its caller (token, or
    /// address without one).
    pub fn payer(&self, req: &ServiceRequest) -> Option<Arc<dyn ThinkingBudget>> {
        let budgets = self.inner.as_ref()?;
        Some(Arc::new(Payer {
            budgets: budgets.clone(),
            key: client_key(req).0,
        }))
    }

    /// A place for one more event stream from `req`'s address; 429 when
    /// the address has its most open already.
    pub fn open_stream(&self, req: &HttpRequest) -> Result<StreamPermit, ApiError> {
        let Some(streams) = &self.streams else {
            return Ok(StreamPermit { streams: None });
        };
        let address = req
            .peer_addr()
            .map(|a| a.ip().to_string())
            .unwrap_or_default();
        let mut open = streams.open.lock().expect("never poisoned");
        let n = open.entry(address.clone()).or_default();
        if *n >= streams.most {
            if let Some(service) = req.app_data::<web::Data<Service>>() {
                service.metrics().refuse("streams");
            }
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMITED",
                "Too many requests",
                format!(
                    "this address has {} event streams open, the most it may: close one (or follow several games from one page) and try again",
                    streams.most
                ),
            )
            .with_retry_after(5));
        }
        *n += 1;
        Ok(StreamPermit {
            streams: Some((streams.clone(), address)),
        })
    }

    /// The refusal for `req`, if it is over a budget (counted in the metrics).
    pub fn check(&self, req: &ServiceRequest) -> Option<HttpResponse> {
        let (budget, refusal) = self.refusal(req)?;
        if let Some(service) = req.app_data::<web::Data<Service>>() {
            service.metrics().refuse(budget);
        }
        Some(refusal)
    }

    fn refusal(&self, req: &ServiceRequest) -> Option<(&'static str, HttpResponse)> {
        let budgets = self.inner.as_ref()?;
        let path = req.path();
        // Health checks and the page's own files are not counted.
        if matches!(path, "/healthz" | "/metrics") || path.starts_with("/assets/") {
            return None;
        }
        if budgets.checks.fetch_add(1, Ordering::Relaxed) % 10_000 == 9_999 {
            for budget in [
                &budgets.reads,
                &budgets.writes,
                &budgets.guests,
                &budgets.thinking,
            ] {
                budget.limiter.retain_recent();
            }
        }
        let (key, address) = client_key(req);
        let has_token = address.is_none();
        let reading = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
        let budget = if reading {
            &budgets.reads
        } else {
            &budgets.writes
        };
        if let Err(wait) = budget.check(&key) {
            return Some((
                budget.name,
                refusal(budget, wait, if has_token { "token" } else { "address" }),
            ));
        }
        let makes_guest = *req.method() == Method::POST
            && !has_token
            && matches!(path, "/v1/players" | "/v1/games" | "/v1/games/import");
        if makes_guest
            && let Some(address) = address
            && let Err(wait) = budgets.guests.check(&address)
        {
            return Some((
                budgets.guests.name,
                refusal(&budgets.guests, wait, "address"),
            ));
        }
        None
    }
}

/// The key a caller's budgets are kept under, and its address when it
/// sent no token.
fn client_key(req: &ServiceRequest) -> (String, Option<String>) {
    match Client::of(req.request()) {
        Client::Token(token) => (format!("t:{token}"), None),
        Client::Address(address) => (format!("a:{address}"), Some(address)),
    }
}

/// A caller's share of the computer's thinking time.
struct Payer {
    budgets: Arc<Budgets>,
    key: String,
}

impl ThinkingBudget for Payer {
    fn spend(&self, ms: u64) -> Result<(), u64> {
        let budget = &self.budgets.thinking;
        let Some(cells) = NonZeroU32::new(ms.clamp(1, u64::from(u32::MAX)) as u32) else {
            return Ok(());
        };
        match budget.limiter.check_key_n(&self.key, cells) {
            Ok(Ok(())) => Ok(()),
            Ok(Err(not_until)) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                Err((wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1))
            }
            // More than a whole minute's share at once.
            Err(_) => Err(budget.window),
        }
    }

    fn per_minute_ms(&self) -> u64 {
        u64::from(self.budgets.thinking.quota)
    }
}

fn refusal(budget: &Budget, wait: u64, whose: &str) -> HttpResponse {
    let wait = wait.max(1);
    let window = if budget.window >= 3600 {
        format!("{} hour", budget.window / 3600)
    } else {
        format!("{} seconds", budget.window)
    };
    let error = ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "RATE_LIMITED",
        "Too many requests",
        format!(
            "this {whose} has used its {} budget ({} per {window}): try again in {wait} s",
            budget.name, budget.quota
        ),
    );
    let mut response = actix_web::ResponseError::error_response(&error);
    let headers = response.headers_mut();
    let value = |s: String| header::HeaderValue::from_str(&s).expect("ASCII");
    headers.insert(header::RETRY_AFTER, value(wait.to_string()));
    headers.insert(
        header::HeaderName::from_static("ratelimit-policy"),
        value(format!(
            "\"{}\";q={};w={}",
            budget.name, budget.quota, budget.window
        )),
    );
    headers.insert(
        header::HeaderName::from_static("ratelimit"),
        value(format!("\"{}\";r=0;t={wait}", budget.name)),
    );
    response
}
