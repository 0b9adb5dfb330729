//! The time manager: owns the budget of one search. The search asks it
//! whether to go on; it never reads the clock itself.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

pub struct TimeManager {
    start: Instant,
    /// Hard limit: the search stops here with the best move so far.
    hard: Duration,
    /// Soft limit: no new iteration starts after it.
    soft: Duration,
    node_limit: Option<u64>,
    /// Set by another thread when this search's answer is no longer
    /// wanted (a Lazy SMP helper's, once the search it helps has decided).
    told_to_stop: Option<Arc<AtomicBool>>,
}

impl TimeManager {
    /// A budget of `time` (the answer must come within it), or of `nodes`
    /// alone when given (reproducible: the clock is not consulted).
    pub fn new(time: Duration, nodes: Option<u64>) -> TimeManager {
        // Keep a margin for setting up and answering: a tenth of the budget,
        // at most 50 ms.
        let margin = (time / 10).min(Duration::from_millis(50));
        let hard = time.saturating_sub(margin);
        TimeManager {
            start: Instant::now(),
            hard,
            soft: hard * 4 / 5,
            node_limit: nodes,
            told_to_stop: None,
        }
    }

    /// The search also stops once `flag` is set.
    pub fn stop_when(&mut self, flag: Arc<AtomicBool>) {
        self.told_to_stop = Some(flag);
    }

    #[inline]
    fn told(&self) -> bool {
        self.told_to_stop
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Whether a running search must stop after `nodes` nodes.
    #[inline]
    pub fn must_stop(&self, nodes: u64) -> bool {
        match self.node_limit {
            Some(limit) => nodes >= limit || (nodes.is_multiple_of(16) && self.told()),
            // The clock (and the flag) is read every 16 nodes (a few
            // microseconds): read at every node it took 2% of the search's
            // time.
            None => nodes.is_multiple_of(16) && (self.told() || self.start.elapsed() >= self.hard),
        }
    }

    /// Whether another iteration of deepening may start.
    pub fn may_deepen(&self, nodes: u64) -> bool {
        match self.node_limit {
            Some(limit) => nodes < limit,
            None => self.start.elapsed() < self.soft,
        }
    }
}
