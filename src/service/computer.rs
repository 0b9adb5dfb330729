//! Running the engine for the server: on the blocking pool, never on an
//! async worker, with at most a configured number of searches at once and a
//! time budget no request can exceed.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use super::error::{Result, ServiceError};
use crate::engine::{self, Decision, Level, Limits, OpeningAction};
use crate::metrics::Metrics;
use crate::rules::{Opening, Position};

/// How the server lets the computer think.
#[derive(Clone, Debug)]
pub struct ComputerConfig {
    /// Searches running at once; more requests wait.
    pub max_concurrent: usize,
    /// How long a request waits for a free search before a 503.
    pub queue_timeout: Duration,
    /// Thinking time per move when a request names none.
    pub default_budget: Duration,
    /// The most thinking time a request may ask for.
    pub max_budget: Duration,
}

impl Default for ComputerConfig {
    fn default() -> Self {
        ComputerConfig {
            max_concurrent: std::thread::available_parallelism().map_or(2, |n| n.get()),
            queue_timeout: Duration::from_secs(10),
            default_budget: Duration::from_secs(1),
            max_budget: Duration::from_secs(5),
        }
    }
}

/// Who pays for the computer's thinking in a request: its caller's share
/// of thinking time, set around the request by the layer that knows the
/// caller ([`paid_by`]). Searches outside any request are free.
pub trait ThinkingBudget: Send + Sync {
    /// Takes `ms` milliseconds from the share; `Err(seconds to wait)` when
    /// it has not that much left.
    fn spend(&self, ms: u64) -> std::result::Result<(), u64>;
    /// The share per minute, for the message.
    fn per_minute_ms(&self) -> u64;
}

tokio::task_local! {
    static PAYER: Arc<dyn ThinkingBudget>;
}

/// Runs `work` (a request) with its searches paid from `payer`.
pub async fn paid_by<F: std::future::Future>(payer: Arc<dyn ThinkingBudget>, work: F) -> F::Output {
    PAYER.scope(payer, work).await
}

/// A finished search, with the time it took.
#[derive(Clone, Debug)]
pub struct Thought {
    pub level: Level,
    pub decision: Decision,
    pub elapsed: Duration,
}

#[derive(Clone, Debug)]
pub struct Computer {
    config: ComputerConfig,
    permits: Arc<Semaphore>,
    metrics: Arc<Metrics>,
}

impl Computer {
    pub fn new(config: ComputerConfig, metrics: Arc<Metrics>) -> Computer {
        let permits = Arc::new(Semaphore::new(config.max_concurrent.max(1)));
        Computer {
            config,
            permits,
            metrics,
        }
    }

    pub fn config(&self) -> &ComputerConfig {
        &self.config
    }

    /// The budget for a request asking for `requested` (capped by configuration).
    pub fn budget(&self, requested: Option<Duration>) -> Duration {
        requested
            .unwrap_or(self.config.default_budget)
            .min(self.config.max_budget)
    }

    /// Runs `work` on the blocking pool once a search slot is free (a 503
    /// ENGINE_BUSY after the queue timeout), its `budget` paid first by the
    /// request's payer (a 429 when that is spent, nothing searched).
    async fn run<T: Send + 'static>(
        &self,
        budget: Duration,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T> {
        let ms = budget.as_millis() as u64;
        if let Ok(Err(retry_after_secs)) = PAYER.try_with(|payer| payer.spend(ms)) {
            self.metrics.refuse("thinking");
            return Err(ServiceError::ThinkingBudget {
                per_minute_ms: PAYER.try_with(|p| p.per_minute_ms()).unwrap_or(0),
                retry_after_secs,
            });
        }
        let wait = self.config.queue_timeout;
        self.metrics.engine_queued.inc();
        let permit = tokio::time::timeout(wait, self.permits.clone().acquire_owned()).await;
        self.metrics.engine_queued.dec();
        let permit = permit
            .map_err(|_| ServiceError::EngineBusy {
                retry_after_secs: wait.as_secs().max(1),
            })?
            .map_err(|_| ServiceError::Internal("the engine pool is closed".into()))?;
        let metrics = self.metrics.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            metrics.engine_running.inc();
            let started = Instant::now();
            let answer = work();
            metrics
                .engine_seconds
                .observe(started.elapsed().as_secs_f64());
            metrics.engine_running.dec();
            answer
        })
        .await
        .map_err(|e| ServiceError::Internal(format!("the engine task failed: {e}")))
    }

    /// Thinks about `position` at `level`, scoring its best `candidates`
    /// moves exactly (one to play a move); `None` when there is no move.
    pub async fn think(
        &self,
        position: Position,
        level: Level,
        budget: Duration,
        seed: u64,
        candidates: usize,
    ) -> Result<Option<Thought>> {
        let limits = Limits {
            candidates,
            ..Limits::timed(budget, seed)
        };
        self.run(budget, move || {
            let started = Instant::now();
            let decision = engine::think(&position, level, &limits)?;
            Some(Thought {
                level,
                decision,
                elapsed: started.elapsed(),
            })
        })
        .await
    }

    /// The computer's action in the opening phase of `position`, with the
    /// time it took; `None` when the opening asks for an ordinary move.
    pub async fn decide_opening(
        &self,
        position: Position,
        opening: Opening,
        level: Level,
        budget: Duration,
        seed: u64,
    ) -> Result<Option<(OpeningAction, Duration)>> {
        let limits = Limits::timed(budget, seed);
        self.run(budget, move || {
            let started = Instant::now();
            engine::decide_opening(&position, &opening, level, &limits)
                .map(|action| (action, started.elapsed()))
        })
        .await
    }
}
