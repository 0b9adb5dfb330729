//! What an operator watches: counters, gauges and histograms in the
//! Prometheus text format (OpenMetrics), served at `GET /metrics`.
//!
//! One [`Metrics`] per server, shared by every layer that reports: the API
//! (requests, refusals, live followers), the service (moves, the engine)
//! and the store's writer (commit batches, through the observer the
//! service installs). It depends on nothing else in gobang.

use std::sync::Arc;

use prometheus_client::encoding::{EncodeLabelSet, text};
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::{Registry, Unit};

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RequestLabels {
    pub method: String,
    /// The route's pattern (`/v1/games/{id}/moves`), so ids do not multiply series.
    pub route: String,
    pub status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct RouteLabels {
    pub method: String,
    pub route: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct BudgetLabels {
    /// `reads`, `writes`, `guests`, `thinking` or `streams`.
    pub budget: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct TransportLabels {
    /// `sse` or `websocket`.
    pub transport: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct StatusLabels {
    pub status: String,
}

/// Every metric gobang reports.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    pub requests: Family<RequestLabels, Counter>,
    pub request_seconds: Family<RouteLabels, Histogram>,
    pub moves: Counter,
    pub games: Family<StatusLabels, Gauge>,
    pub followers: Family<TransportLabels, Gauge>,
    pub engine_running: Gauge,
    pub engine_queued: Gauge,
    pub engine_seconds: Histogram,
    pub write_batch: Histogram,
    pub commit_seconds: Histogram,
    pub refused: Family<BudgetLabels, Counter>,
}

/// Seconds from 0.5 ms to about 30 s.
fn latency() -> Histogram {
    Histogram::new(exponential_buckets(0.0005, 2.5, 13))
}

impl Default for Metrics {
    fn default() -> Self {
        let mut registry = Registry::with_prefix("gobang");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests answered, by route and status",
            requests.clone(),
        );
        let request_seconds =
            Family::<RouteLabels, Histogram>::new_with_constructor(latency as fn() -> Histogram);
        registry.register_with_unit(
            "http_request_duration",
            "Time from a request's arrival to its response head",
            Unit::Seconds,
            request_seconds.clone(),
        );
        let moves = Counter::default();
        registry.register(
            "moves",
            "Moves played (by people and the computer)",
            moves.clone(),
        );
        let games = Family::<StatusLabels, Gauge>::default();
        registry.register("games", "Stored games by status", games.clone());
        let followers = Family::<TransportLabels, Gauge>::default();
        registry.register(
            "live_followers",
            "Event streams open, by transport",
            followers.clone(),
        );
        let engine_running = Gauge::default();
        registry.register(
            "engine_searches_running",
            "Searches thinking now",
            engine_running.clone(),
        );
        let engine_queued = Gauge::default();
        registry.register(
            "engine_searches_queued",
            "Searches waiting for a free slot",
            engine_queued.clone(),
        );
        let engine_seconds = Histogram::new(exponential_buckets(0.001, 2.0, 14));
        registry.register_with_unit(
            "engine_think",
            "Thinking time of each search",
            Unit::Seconds,
            engine_seconds.clone(),
        );
        let write_batch = Histogram::new(exponential_buckets(1.0, 2.0, 8));
        registry.register(
            "store_write_batch_size",
            "Writes committed together in one transaction",
            write_batch.clone(),
        );
        let commit_seconds = Histogram::new(exponential_buckets(0.0001, 2.5, 12));
        registry.register_with_unit(
            "store_commit",
            "Time to commit a write batch",
            Unit::Seconds,
            commit_seconds.clone(),
        );
        let refused = Family::<BudgetLabels, Counter>::default();
        registry.register(
            "rate_limited",
            "Requests refused for going over a budget, by budget",
            refused.clone(),
        );
        Metrics {
            registry,
            requests,
            request_seconds,
            moves,
            games,
            followers,
            engine_running,
            engine_queued,
            engine_seconds,
            write_batch,
            commit_seconds,
            refused,
        }
    }
}

impl Metrics {
    pub fn shared() -> Arc<Metrics> {
        Arc::new(Metrics::default())
    }

    /// Everything in the text format.
    pub fn render(&self) -> String {
        let mut out = String::new();
        text::encode(&mut out, &self.registry).expect("writing to a String cannot fail");
        out
    }

    /// Counts a refusal for going over `budget`.
    pub fn refuse(&self, budget: &'static str) {
        self.refused.get_or_create(&BudgetLabels { budget }).inc();
    }

    /// A gauge that counts one more now and one less when the guard drops.
    pub fn follower(self: &Arc<Self>, transport: &'static str) -> FollowerGuard {
        self.followers
            .get_or_create(&TransportLabels { transport })
            .inc();
        FollowerGuard {
            metrics: self.clone(),
            transport,
        }
    }
}

/// One live follower, counted while it lives.
#[derive(Debug)]
pub struct FollowerGuard {
    metrics: Arc<Metrics>,
    transport: &'static str,
}

impl Drop for FollowerGuard {
    fn drop(&mut self) {
        self.metrics
            .followers
            .get_or_create(&TransportLabels {
                transport: self.transport,
            })
            .dec();
    }
}
