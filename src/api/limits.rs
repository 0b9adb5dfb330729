//! Rate limits: budgets of reads, writes and guest players per caller (its
//! token, or without one its address), refused with 429 `RATE_LIMITED`,
//! `Retry-After` and the IETF `RateLimit-Policy` / `RateLimit` headers.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use actix_web::HttpResponse;
use actix_web::dev::ServiceRequest;
use actix_web::http::{Method, StatusCode, header};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

use super::auth::Client;
use super::error::ApiError;

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
}

struct Budgets {
    reads: Budget,
    writes: Budget,
    guests: Budget,
    checks: AtomicU64,
}

impl Limits {
    pub fn new(config: &RateLimitConfig) -> Limits {
        if !config.enabled {
            return Limits { inner: None };
        }
        let minute = Duration::from_secs(60);
        Limits {
            inner: Some(Arc::new(Budgets {
                reads: Budget::new("reads", config.reads_per_minute, minute),
                writes: Budget::new("writes", config.writes_per_minute, minute),
                guests: Budget::new("guests", config.guests_per_hour, minute * 60),
                checks: AtomicU64::new(0),
            })),
        }
    }

    /// The refusal for `req`, if it is over a budget.
    pub fn check(&self, req: &ServiceRequest) -> Option<HttpResponse> {
        let budgets = self.inner.as_ref()?;
        let path = req.path();
        // Health checks and the page's own files are not counted.
        if path == "/healthz" || path.starts_with("/assets/") {
            return None;
        }
        if budgets.checks.fetch_add(1, Ordering::Relaxed) % 10_000 == 9_999 {
            for budget in [&budgets.reads, &budgets.writes, &budgets.guests] {
                budget.limiter.retain_recent();
            }
        }
        let (key, has_token, address) = match Client::of(req.request()) {
            Client::Token(token) => (format!("t:{token}"), true, None),
            Client::Address(address) => (format!("a:{address}"), false, Some(address)),
        };
        let reading = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
        let budget = if reading {
            &budgets.reads
        } else {
            &budgets.writes
        };
        if let Err(wait) = budget.check(&key) {
            return Some(refusal(
                budget,
                wait,
                if has_token { "token" } else { "address" },
            ));
        }
        let makes_guest = *req.method() == Method::POST
            && !has_token
            && matches!(path, "/v1/players" | "/v1/games" | "/v1/games/import");
        if makes_guest
            && let Some(address) = address
            && let Err(wait) = budgets.guests.check(&address)
        {
            return Some(refusal(&budgets.guests, wait, "address"));
        }
        None
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
