//! The root of a search: the immediate wins, blocks and threat wins
//! first, then iterative deepening over the root's moves, the decision and
//! what it reports (the score, a forced win or loss, the line, the
//! candidates), and Lazy SMP helpers searching beside it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{INFINITY, Searcher, Table, WIN, WIN_THRESHOLD};
use crate::engine::board::SearchBoard;
use crate::engine::{Candidate, Decision, Limits};
use crate::rules::Position;

/// The best of a root iteration's scored moves, in the order searched:
/// the first of those with the highest score. A move whose score raised
/// alpha has its exact score; a later move whose null-window search
/// failed low has a bound, at most alpha, which may tie the exact score
/// without being worth it (taking the last of equal scores played moves
/// for wins they did not have).
fn first_best(scored: &[(usize, i32)]) -> Option<(usize, i32)> {
    scored.iter().fold(None, |best, &(i, s)| match best {
        Some((_, b)) if b >= s => best,
        _ => Some((i, s)),
    })
}

/// How long a search with helpers waits for their decisions once it has its
/// own: a helper told to stop stops within 16 nodes, some microseconds.
const HELPERS_AWAITED: std::time::Duration = std::time::Duration::from_millis(3);

/// The decision of a search and its helpers (Lazy SMP): the search's own,
/// unless a helper finished a deeper iteration of deepening than it did
/// and it found no forced win (a win's depth counts its plies, not an
/// iteration's). The nodes are all the threads'.
fn deepest(main: Option<Decision>, helpers: Vec<Option<Decision>>) -> Option<Decision> {
    let mut best = main?;
    let nodes = best.nodes + helpers.iter().flatten().map(|d| d.nodes).sum::<u64>();
    if best.forced_win_in.is_none() {
        for helper in helpers.into_iter().flatten() {
            if helper.depth > best.depth {
                best = helper;
            }
        }
    }
    best.nodes = nodes;
    Some(best)
}

impl Searcher {
    /// Chooses a move for the side to move.
    pub fn run(mut self) -> Option<Decision> {
        self.decide()
    }

    /// Chooses a move, and gives back the transposition table for the
    /// next search of the same game.
    pub fn run_keeping(mut self) -> (Option<Decision>, Arc<Table>) {
        let decision = self.decide();
        (decision, self.table)
    }

    /// [`Searcher::run_keeping`] with `threads` threads in all (Lazy SMP):
    /// `threads - 1` helpers search the same position through the same
    /// table, each with its own seed and every other one a ply ahead, and
    /// what they store there (values, bounds, best moves) lets this search
    /// cut and order sooner. The helpers stop when this search has decided;
    /// its decision is the answer unless a helper finished a deeper
    /// iteration (see [`deepest`]). Its nodes are all the threads'.
    ///
    /// The answer waits for no helper longer than [`HELPERS_AWAITED`]: a
    /// helper kept off its processor (by the machine, or a burst of other
    /// work) would otherwise hold the move past its time. Such a helper
    /// finishes on its own a moment later, its decision unread.
    pub fn run_with_helpers(
        mut self,
        position: &Position,
        limits: &Limits,
        threads: usize,
    ) -> (Option<Decision>, Arc<Table>) {
        if threads <= 1 {
            return self.run_keeping();
        }
        let decided = Arc::new(AtomicBool::new(false));
        let (send, helped) = std::sync::mpsc::channel();
        for n in 1..threads {
            let limits = Limits {
                seed: limits.seed ^ (n as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                ..*limits
            };
            let (position, config) = (position.clone(), self.config);
            let (table, decided, send) = (self.table.clone(), decided.clone(), send.clone());
            // Each helper sets itself up on its own thread, so that this
            // search starts at once.
            std::thread::spawn(move || {
                let mut helper = Searcher::new(&position, config, &limits, Some(table));
                // A helper is there for what it stores in the table, and
                // for its decision only if it got deeper (see `deepest`).
                helper.clock.stop_when(decided);
                helper.first_depth = 1 + (n % 2) as i32;
                // The answer may have gone without it: nobody to tell.
                let _ = send.send(helper.decide());
            });
        }
        drop(send);
        let decision = self.decide();
        decided.store(true, Ordering::Relaxed);
        let until = std::time::Instant::now() + HELPERS_AWAITED;
        let mut helpers = Vec::with_capacity(threads - 1);
        while helpers.len() < threads - 1 {
            let left = until.saturating_duration_since(std::time::Instant::now());
            match helped.recv_timeout(left) {
                Ok(decision) => helpers.push(decision),
                Err(_) => break,
            }
        }
        (deepest(decision, helpers), self.table)
    }

    pub(super) fn decide(&mut self) -> Option<Decision> {
        let me = self.me();
        let scan = self.scan();
        // The root's static value, for "improving" two plies down.
        self.evals[0] = scan.evaluation;
        let decide =
            |point: usize, candidates: Vec<Candidate>, depth: u32, nodes: u64, win: Option<u32>| {
                Some(Decision {
                    point: SearchBoard::point(point),
                    candidates,
                    depth,
                    nodes,
                    forced_win_in: win,
                    forced_loss_in: None,
                    pv: vec![SearchBoard::point(point)],
                })
            };
        let listed = |moves: &[(usize, i32)]| -> Vec<Candidate> {
            moves
                .iter()
                .take(10)
                .map(|&(i, s)| Candidate {
                    point: SearchBoard::point(i),
                    score: s as i64,
                })
                .collect()
        };
        if scan.moves.is_empty() {
            // Nothing near a stone (an empty board) or only forbidden points near.
            let centre = crate::rules::Point::new(self.board.width / 2, self.board.height / 2);
            let i = SearchBoard::index(centre);
            let i = if self.board.is_empty(i) && self.board.legal(i, me) {
                i
            } else {
                *self
                    .board
                    .points
                    .iter()
                    .find(|&&i| self.board.is_empty(i) && self.board.legal(i, me))?
            };
            return decide(i, listed(&[(i, 0)]), 0, 1, None);
        }
        if let Some(i) = scan.my_five {
            return decide(i, listed(&[(i, WIN - 1)]), 1, self.nodes, Some(1));
        }
        // A four of the opponent's with one legal block: the block is the
        // move, but it is still searched on the move's time (no more than
        // any move's), for what it is worth and how the game goes on: the
        // table then holds the positions after it for the next search of
        // the game, and the evaluation and line report the truth rather
        // than nothing.
        let forced = match scan.their_fives.as_slice() {
            [block] if self.board.legal(*block, me) => Some(*block),
            _ => None,
        };
        if scan.their_fives.is_empty() {
            if let Some((first, plies)) = self.vcf(self.config.vcf_depth) {
                let line = self.vcf_line(first, plies);
                return decide(
                    first,
                    listed(&[(first, WIN - plies as i32)]),
                    plies,
                    self.nodes,
                    Some(plies),
                )
                .map(|d| Decision { pv: line, ..d });
            }
            // Not kept, against full-strength Rapfi at 200 ms in renju (12-07,
            // a fifteenth machine, 208-game matches each paired game by game
            // with one of this search, in turn, which scored 39.3% over seven):
            // a deeper threat-space search here, on a fifth of the root's
            // time counted apart (meant to leave the deepening after it to
            // search node for node as before): fours (their block forced)
            // and threes that truly threaten a winning four, every defence of
            // a three tried (the points where the attacker would make a four
            // or five, and the defender's fours, each blocked and the three
            // answered again), the bounds deepening from one three and one
            // four to six of each. It proved no more of `examples/data/rapfi-wins.txt` at
            // 1 s (42 of 163, as this search does here) and scored 40.5%
            // over four matches, +0.8 points (95% ±3.5) over 832 pairs, as
            // black -0.1 (±5.6), as white +1.8 (±4.2). With, where the
            // opponent would win by those threats were it to move (looked for
            // on 5% of the time), 15% of the time set aside to check the
            // deepening's best moves against them, the first of six after
            // which the opponent has none played: 39.9% over three matches,
            // +1.0 (±4.2) over 624 pairs, as black +4.0 (±7.0), as white -1.9
            // (±4.4); -0.2 (±4.1) against the first three matches of the
            // threat search alone.
            if self.config.vct_depth > 0
                && let Some(i) = self.vct(self.config.vct_depth)
            {
                return decide(
                    i,
                    listed(&[(i, WIN_THRESHOLD)]),
                    self.config.vct_depth * 2,
                    self.nodes,
                    None,
                );
            }
        }

        // Iterative deepening, keeping the best move of the last finished iteration.
        let mut best: Vec<(usize, i32)> = match forced {
            Some(block) => vec![(block, 0)],
            None => scan.moves.iter().map(|m| (m.point(), m.score)).collect(),
        };
        best.sort_by_key(|&(_, s)| -s);
        // Equal first choices are told apart by the seed, so games vary.
        let ties = best.iter().take_while(|&&(_, s)| s == best[0].1).count();
        if ties > 1 {
            let pick = self.rng.below(ties);
            best.swap(0, pick);
        }
        // The move the table holds for this position goes first, and stays
        // among the root's moves at every depth: the game's last search
        // met the position two plies down and may have seen deeper there
        // than this search's first iterations will (a win through a quiet
        // move that the root's ordering leaves out of its width, and that
        // only the table's entries below it show). A fresh table holds
        // none: searches of a position alone are unchanged.
        let table_move = self
            .probe(0)
            .and_then(|e| best.iter().position(|&(i, _)| i == usize::from(e.best)))
            .map(|at| {
                best[..=at].rotate_right(1);
                best[0].0
            });
        let mut depth_reached = 0;
        // Refute the opponent's continuous fours before anything else.
        let safe = if self.config.leaf_vcf_depth > 0 && scan.their_fives.is_empty() {
            let moves = self.candidates(&scan, 0, table_move);
            Some(self.safe_root_moves(moves))
        } else {
            None
        };
        for depth in self.first_depth..=self.config.max_depth {
            if depth > self.first_depth && !self.clock.may_deepen(self.nodes) {
                break;
            }
            let root_moves = {
                let mut moves = self.candidates(&scan, 0, Some(best[0].0));
                if moves.len() < best.len().min(self.config.width)
                    && !scan.their_three
                    && scan.their_fives.is_empty()
                {
                    moves = best
                        .iter()
                        .take(self.config.width)
                        .map(|&(i, _)| i)
                        .collect();
                }
                if let Some(i) = table_move
                    && !moves.contains(&i)
                {
                    moves.insert(moves.len().min(1), i);
                }
                if let Some(safe) = &safe {
                    moves.retain(|i| safe.contains(i));
                    if moves.is_empty() {
                        moves = safe.clone();
                    }
                }
                moves
            };
            let mut scored: Vec<(usize, i32)> = Vec::with_capacity(root_moves.len());
            // The highest scores so far, highest first, as many as the
            // moves to score exactly.
            let mut top: Vec<i32> = Vec::with_capacity(self.exact + 1);
            // Every root move is searched to the iteration's depth.
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at
            // 200 ms, three 208-game matches each paired game by game with
            // one of this search the same day, which scored 48.6%):
            // aspiration windows, the first move searched from depth 5 in a
            // window 160 either side of its last score, widened by half
            // again on the side it failed (the full window past 4000):
            // -2.0 points (95% ±4.8) over 624 pairs, as black -1.1 (±7.4),
            // as white -2.9 (±6.3).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at
            // 200 ms, a 208-game match paired game by game with one of this
            // search the same day, on a fast day where it scored 51.0%):
            // the root's quiet moves from the fourth on, where no five or
            // three of the opponent's is to be answered, searched a ply or
            // more shallower first (as below the root), -8.2 points (95%
            // ±7.7) over 208 pairs, as white -12.5 (±10.6).
            for (n, &i) in root_moves.iter().enumerate() {
                self.board.make(i);
                let score = if n < self.exact {
                    -self.negamax(depth - 1, -INFINITY, INFINITY, 1)
                } else {
                    // Only a move better than the last of the moves to
                    // score exactly needs its exact score: a null window
                    // shows the others worse (their scores are bounds).
                    let alpha = top[self.exact - 1];
                    let probe = -self.negamax(depth - 1, -alpha - 1, -alpha, 1);
                    if probe > alpha {
                        -self.negamax(depth - 1, -INFINITY, -alpha, 1)
                    } else {
                        probe
                    }
                };
                self.board.unmake();
                if self.stopped {
                    break;
                }
                scored.push((i, score));
                top.insert(top.partition_point(|&s| s >= score), score);
                top.truncate(self.exact);
            }
            if self.stopped && scored.len() < root_moves.len() {
                // A partly searched iteration still counts where it is
                // sound (see `first_best`): the first move is the old
                // best's, so a move scoring above it is the better one.
                if let Some((i, s)) = first_best(&scored)
                    && (s > WIN_THRESHOLD
                        || (root_moves[0] == best[0].0 && i != best[0].0 && s > scored[0].1))
                {
                    best.retain(|&(j, _)| j != i);
                    best.insert(0, (i, s));
                }
                break;
            }
            scored.sort_by_key(|&(_, s)| -s);
            best = scored;
            depth_reached = depth as u32;
            if best[0].1 > WIN_THRESHOLD {
                break;
            }
            if best[0].1 < -WIN_THRESHOLD {
                // Lost against best play: keep the move that loses slowest.
                break;
            }
        }
        let nodes = self.nodes;
        // A win may also come from a partly searched iteration (kept above).
        let forced = (best[0].1 > WIN_THRESHOLD).then(|| (WIN - best[0].1) as u32);
        let lost = (best[0].1 < -WIN_THRESHOLD).then(|| (WIN + best[0].1) as u32);
        let pv = self.table_line(best[0].0, (depth_reached as usize).max(1));
        decide(
            best[0].0,
            listed(&best),
            depth_reached.max(1),
            nodes,
            forced,
        )
        .map(|d| Decision {
            forced_loss_in: lost,
            pv,
            ..d
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A move that only tied the best score scored a bound, not a value:
    /// the first of equal scores is the one searched exactly.
    #[test]
    fn of_equal_root_scores_the_first_searched_is_the_best() {
        let win = WIN - 21;
        assert_eq!(
            first_best(&[(5, 100), (7, win), (9, win), (11, 40)]),
            Some((7, win))
        );
        assert_eq!(first_best(&[(5, 100), (7, 300)]), Some((7, 300)));
        assert_eq!(first_best(&[]), None);
    }

    /// Of a search's decision and its helpers', the deepest iteration's
    /// answers, the search's own on a tie or where it found a forced win;
    /// the nodes are everyone's.
    #[test]
    fn the_deepest_finished_iteration_answers_for_the_threads() {
        let decision = |x: u8, depth: u32, nodes: u64, win: Option<u32>| Decision {
            point: crate::rules::Point::new(x, 0),
            candidates: Vec::new(),
            depth,
            nodes,
            forced_win_in: win,
            forced_loss_in: None,
            pv: Vec::new(),
        };
        let chosen = |main, helpers| {
            let d: Decision = deepest(Some(main), helpers).unwrap();
            (d.point.x, d.nodes)
        };
        let helpers = || {
            vec![
                Some(decision(2, 9, 20, None)),
                None,
                Some(decision(3, 10, 30, None)),
            ]
        };
        assert_eq!(chosen(decision(1, 9, 10, None), helpers()), (3, 60));
        assert_eq!(chosen(decision(1, 10, 10, None), helpers()), (1, 60));
        assert_eq!(chosen(decision(1, 3, 10, Some(3)), helpers()), (1, 60));
        assert!(deepest(None, helpers()).is_none());
    }
}
