//! The computer players: levels by name, each choosing a move for the side to
//! move in a [`Position`]. Pure and synchronous; a search is bounded by the
//! [`Limits`] it is given and is reproducible for a given seed.

mod board;
pub mod book;
pub mod eval;
mod evaluators;
mod opening;
mod patterns;
mod random;
mod search;
mod solve;
mod time;

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use crate::rules::{Point, Position, Variant};

pub use opening::{OpeningAction, decide as decide_opening};
pub use random::SplitMix64;

/// The computer levels, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    /// Scores every point by the runs through it, like the original browser
    /// games; a random first reply next to the opponent's first stone.
    Beginner,
    /// Sees the threats of the next move: fives, fours, open threes and
    /// their combinations, for both sides, one move ahead.
    Intermediate,
    /// A short threat-aware search: wins by continuous fours, a few plies
    /// of alpha-beta.
    Advanced,
    /// The full search: VCF and VCT, deep alpha-beta with a transposition
    /// table, within the time budget; small boards are solved exactly.
    Expert,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [
        Level::Beginner,
        Level::Intermediate,
        Level::Advanced,
        Level::Expert,
    ];

    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Advanced => "advanced",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name that is not one of [`Level::ALL`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown computer level {0:?}: use {levels}", levels = Level::ALL.map(Level::as_str).join(", "))]
pub struct UnknownLevel(pub String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// How much a search may spend, and the seed of its random choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget for the move.
    pub time: Duration,
    /// Node budget; a node-limited search is reproducible move for move.
    pub nodes: Option<u64>,
    pub seed: u64,
    /// How many of the best moves a search scores exactly, best first (a
    /// hint's or an analysis's candidates). One for play: each more is
    /// searched in full instead of only shown worse than the best, which
    /// costs depth. The candidates past these carry upper bounds.
    pub candidates: usize,
}

impl Limits {
    /// A wall-clock budget and a seed, no node limit, one move scored.
    pub fn timed(time: Duration, seed: u64) -> Limits {
        Limits {
            time,
            nodes: None,
            seed,
            candidates: 1,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time: Duration::from_secs(1),
            nodes: None,
            seed: 0,
            candidates: 1,
        }
    }
}

/// A point the computer considered, with its score (higher is better for
/// the side to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    pub point: Point,
    pub score: i64,
}

/// The computer's choice and how it got there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub point: Point,
    /// The best candidates, best first (the chosen point among them). A
    /// search scores the first [`Limits::candidates`] exactly; the scores
    /// of those after them are upper bounds.
    pub candidates: Vec<Candidate>,
    /// Search depth reached in plies (1 for the one-move evaluators).
    pub depth: u32,
    pub nodes: u64,
    /// Plies to a forced win found for the side to move, if any.
    pub forced_win_in: Option<u32>,
    /// Plies to a forced loss of the side to move against best play, if
    /// the search proved one (it then plays the move that loses slowest).
    pub forced_loss_in: Option<u32>,
    /// The line the computer expects: its move, the best reply, and so on
    /// (as far as the search saw; only the move for the one-move levels).
    pub pv: Vec<Point>,
}

impl Decision {
    /// A decision with nothing to tell beyond its candidates, best first.
    pub(crate) fn from_candidates(
        candidates: Vec<Candidate>,
        depth: u32,
        nodes: u64,
    ) -> Option<Decision> {
        let point = candidates.first()?.point;
        Some(Decision {
            point,
            candidates,
            depth,
            nodes,
            forced_win_in: None,
            forced_loss_in: None,
            pv: vec![point],
        })
    }

    /// The chosen move's score (higher is better for the side to move).
    pub fn score(&self) -> i64 {
        self.candidates
            .iter()
            .find(|c| c.point == self.point)
            .map_or(0, |c| c.score)
    }

    /// The thinking in one line, as `gobang brain` shows it to Gomocup
    /// managers: depth, evaluation (`+W5` a forced win in 5 plies, `-L4` a
    /// forced loss in 4), nodes, and the expected line (`height` names the
    /// points).
    pub fn summary(&self, height: u8) -> String {
        let eval = match (self.forced_win_in, self.forced_loss_in) {
            (Some(plies), _) => format!("+W{plies}"),
            (None, Some(plies)) => format!("-L{plies}"),
            (None, None) => self.score().to_string(),
        };
        let pv: Vec<String> = self.pv.iter().map(|p| p.name(height).to_string()).collect();
        format!(
            "depth {} | eval {eval} | nodes {} | pv {}",
            self.depth,
            self.nodes,
            pv.join(" ")
        )
    }
}

/// Builds, ahead of the first move, what every search under `variant`
/// needs (its line-pattern tables, what a stone makes by shape, the
/// evaluation's values, the expert's opening book), so that the first
/// move's time goes to thinking. Optional: a search builds them itself
/// when they are missing.
pub fn prepare(variant: Variant) {
    board::SearchBoard::new(&Position::new(variant));
    search::prepare(&variant);
    book::prepare(&variant);
}

/// The move `level` chooses for the side to move, or `None` when the game is
/// over or no point may be played.
///
/// ```
/// use gobang::engine::{think, Level, Limits};
/// use gobang::rules::{Point, Position, Variant};
/// let mut game = Position::new(Variant::freestyle(15).unwrap());
/// for x in 3..7 {
///     game.play(Point::new(x, 7)).unwrap();
///     game.play(Point::new(x, 9)).unwrap();
/// }
/// // Black has four in a row on row 7 and completes it.
/// let decision = think(&game, Level::Beginner, &Limits::default()).unwrap();
/// assert!(decision.point == Point::new(7, 7) || decision.point == Point::new(2, 7));
/// ```
pub fn think(position: &Position, level: Level, limits: &Limits) -> Option<Decision> {
    think_remembering(position, level, limits, None)
}

/// What the computer keeps between its moves: the searching levels'
/// transposition table, so that a search starts from what the last ones
/// found (a position's value does not depend on the game it came from, only
/// on the rules, so one memory serves game after game under one rule set).
/// `gobang brain` and the arena's players keep one; the server searches
/// afresh, so that a game's moves do not depend on which games came before.
///
/// It also holds how many threads a search may use (one unless told):
/// the server's searches, which keep no memory, use one each.
#[derive(Default)]
pub struct Memory {
    table: Option<Arc<search::Table>>,
    variant: Option<Variant>,
    threads: usize,
}

impl Memory {
    pub fn new() -> Memory {
        Memory::default()
    }

    /// Searches with `threads` threads in all (at least one): the others
    /// help the search through the transposition table (Lazy SMP).
    pub fn set_threads(&mut self, threads: usize) {
        self.threads = threads.max(1);
    }

    pub fn threads(&self) -> usize {
        self.threads.max(1)
    }

    /// A search's table: the kept one if it is for these rules (a
    /// position's value depends on the rules; its key does not).
    fn take(&mut self, variant: Variant) -> Option<Arc<search::Table>> {
        if self.variant != Some(variant) {
            self.variant = Some(variant);
            self.table = None;
        }
        self.table.take()
    }
}

/// A search with `config`, keeping its table in `memory` when given one.
fn search(
    position: &Position,
    config: search::SearchConfig,
    limits: &Limits,
    memory: Option<&mut Memory>,
) -> Option<Decision> {
    match memory {
        None => search::Searcher::new(position, config, limits, None).run(),
        Some(memory) => {
            let table = memory.take(*position.variant());
            let (decision, table) = search::Searcher::new(position, config, limits, table)
                .run_with_helpers(position, limits, memory.threads());
            memory.table = Some(table);
            decision
        }
    }
}

/// [`think`], with what the computer kept from the earlier moves of the
/// game (see [`Memory`]).
pub fn think_remembering(
    position: &Position,
    level: Level,
    limits: &Limits,
    memory: Option<&mut Memory>,
) -> Option<Decision> {
    if position.is_over() {
        return None;
    }
    match level {
        Level::Beginner => evaluators::line_scoring(position, limits.seed),
        Level::Intermediate => {
            let config = search::SearchConfig {
                max_depth: 1,
                width: 12,
                vcf_depth: 0,
                vct_depth: 0,
                leaf_vcf_depth: 0,
                table_bits: 10,
            };
            search(position, config, limits, memory)
        }
        Level::Advanced => {
            // A short look-ahead: it sees forced wins near at hand and misses
            // deeper plans, as a club player would.
            let config = search::SearchConfig {
                max_depth: 3,
                width: 8,
                vcf_depth: 5,
                vct_depth: 0,
                leaf_vcf_depth: 0,
                table_bits: 14,
            };
            let limits = Limits {
                time: limits.time.min(Duration::from_millis(500)),
                ..*limits
            };
            search(position, config, &limits, memory)
        }
        Level::Expert => {
            if let Some(decision) = book::lookup(position) {
                return Some(decision);
            }
            expert(position, limits, memory)
        }
    }
}

/// How the expert searches.
const EXPERT: search::SearchConfig = search::SearchConfig {
    max_depth: 40,
    // 24 rather than 18: against Rapfi STRENGTH 60 at 200 ms, renju
    // 38.0% (18: 28.4% the same day) and freestyle 55.3% (50.0%); 10
    // scored 15.4% in renju. Measured again on another day, 24 scored
    // 33.9% and 46.2%, and 30 no better (36.8% and 51.2% over two
    // matches each, 416 games): 208-game matches differ by up to 9
    // points from day to day.
    width: 24,
    vcf_depth: 16,
    vct_depth: 3,
    // 6 rather than 10: against Rapfi STRENGTH 60 at 200 ms in renju,
    // three 208-game matches each paired game by game with one of 6 the
    // same night (51.7% over 624): 10 scored 53.4, 48.3 and 50.0%, -1.1
    // points (95% ±4.6) over 624 pairs, as black +7.7 (±6.5), as white
    // -9.9 (±6.5). Nor was 4 shown to gain, though VCF searches, most at
    // the leaves, are 40 to 58% of a deep iteration's positions: three
    // matches each paired with one of 6 the same day (46.2, 53.4 and
    // 53.1%), 55.5, 51.4 and 45.2%, -0.2 points (95% ±4.5) over 624
    // pairs, as black -0.6 (±6.8), as white +0.3 (±5.9).
    // Nor 10 only where the expert plays black (black's games had gained
    // above), against full-strength Rapfi at 200 ms (12-06 on a fifth
    // machine, two 208-game matches a rule set each paired game by game
    // with one of 6): renju -0.2 points (95% ±5.2) over 416 pairs, as
    // black +0.5 (±8.5); freestyle -0.7 (±5.0), as black +0.5 (±8.4).
    leaf_vcf_depth: 6,
    // 18 rather than 20: against Rapfi STRENGTH 60 at 200 ms in renju, a
    // table four times the size (16 MB) scored 43.8% over 416 games, -5.4
    // points (95% ±5.5) paired game by game with two matches of 18 the
    // same day (a median 0.92 million positions a second against 0.96).
    // Measured again once the slot was fetched ahead of its probe, on a
    // fast day (this table 47.8 and 46.9%): 49.3 and 48.8%, +1.7 points
    // (95% ±5.9) over 416 pairs, as black +7.7 (±8.7), as white -4.3
    // (±7.7); not shown to gain.
    // Nor a table growing with the budget, one slot a position the search
    // can look at (1.3 million a second) to 2^22: 2^18 at 200 ms as here,
    // 2^21 at 1 s. Against full-strength Rapfi at 1 s in renju (12-07, a
    // thirteenth machine, three 104-game matches each paired game by game
    // with one of this table played just after it, which scored 21.6, 20.2
    // and 22.1%): 22.1, 24.0 and 19.7%, +0.6 points (95% ±5.0) over 312
    // pairs, as black +1.3 (±9.5), as white 0.0 (±3.1); a ply deeper (p50
    // 12, p90 14 against 11 and 13) at the same rate.
    table_bits: 18,
};

/// The expert's own thought, without its book: exact play near the end of
/// a small board, else the deep search (the book is written with it).
pub(crate) fn expert(
    position: &Position,
    limits: &Limits,
    memory: Option<&mut Memory>,
) -> Option<Decision> {
    let empties = position.variant().area() - position.board().stone_count();
    let mut limits = *limits;
    if empties <= solve::SOLVABLE_EMPTIES {
        // Solve exactly if that fits in half the budget; else search.
        let started = std::time::Instant::now();
        let half = Limits {
            time: limits.time / 2,
            nodes: limits.nodes.map(|n| n / 2),
            ..limits
        };
        if let Some(decision) = solve::solve(position, &half) {
            return Some(decision);
        }
        limits.time = limits.time.saturating_sub(started.elapsed());
        limits.nodes = limits.nodes.map(|n| n / 2);
    }
    search(position, EXPERT, &limits, memory)
}
