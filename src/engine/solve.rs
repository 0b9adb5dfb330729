//! Exact play on small boards: every move searched to the end of the game,
//! so the result is the game-theoretic one (tic-tac-toe is never lost).

use std::collections::HashMap;

use super::board::SearchBoard;
use super::patterns::Pattern;
use super::time::TimeManager;
use super::{Candidate, Decision, Limits};
use crate::rules::{Color, Position};

/// Boards with at most this many empty points are solved exactly.
pub const SOLVABLE_EMPTIES: usize = 12;

struct Solver {
    board: SearchBoard,
    memo: HashMap<u64, i32>,
    nodes: u64,
    clock: TimeManager,
    stopped: bool,
}

fn makes_row(board: &SearchBoard, color: Color, i: usize) -> bool {
    (0..4).any(|d| board.pattern(color, d, i) == Pattern::Five)
}

impl Solver {
    /// The value for the side to move: positive wins (sooner is larger),
    /// negative loses, 0 draws.
    fn value(&mut self) -> i32 {
        self.nodes += 1;
        if self.stopped || self.clock.must_stop(self.nodes) {
            self.stopped = true;
            return 0;
        }
        if let Some(&v) = self.memo.get(&self.board.hash) {
            return v;
        }
        let me = self.board.to_move;
        let empties = self.moves();
        let left = empties.len() as i32;
        let value = if empties.is_empty() {
            0
        } else if empties.iter().any(|&i| makes_row(&self.board, me, i)) {
            100 + left
        } else {
            let mut best = -1000;
            for i in empties {
                self.board.make(i);
                best = best.max(-self.value());
                self.board.unmake();
            }
            best
        };
        if !self.stopped {
            self.memo.insert(self.board.hash, value);
        }
        value
    }

    /// The line from `first` on, each side playing its best (soonest win,
    /// latest loss), to the end of the game.
    fn line(&mut self, first: usize) -> Vec<usize> {
        let mut line = Vec::new();
        let mut made = 0;
        let mut next = Some(first);
        while let Some(i) = next {
            line.push(i);
            if makes_row(&self.board, self.board.to_move, i) {
                break;
            }
            self.board.make(i);
            made += 1;
            next = self.best_move();
        }
        for _ in 0..made {
            self.board.unmake();
        }
        line
    }

    /// The side to move's best move by value, if it has one.
    fn best_move(&mut self) -> Option<usize> {
        let scored = self.scored_moves();
        let best = scored
            .iter()
            .fold(None::<(usize, i32)>, |best, &(i, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((i, v)),
            });
        best.filter(|_| !self.stopped).map(|(i, _)| i)
    }

    /// The points the side to move may play.
    fn moves(&self) -> Vec<usize> {
        let me = self.board.to_move;
        self.board
            .points
            .iter()
            .copied()
            .filter(|&i| self.board.is_empty(i) && self.board.legal(i, me))
            .collect()
    }

    /// Each move of the side to move with its exact value (1000: it makes
    /// the row).
    fn scored_moves(&mut self) -> Vec<(usize, i32)> {
        let me = self.board.to_move;
        self.moves()
            .into_iter()
            .map(|i| {
                let value = if makes_row(&self.board, me, i) {
                    1000
                } else {
                    self.board.make(i);
                    let v = -self.value();
                    self.board.unmake();
                    v
                };
                (i, value)
            })
            .collect()
    }
}

/// The best move by exhaustive search, with every move's exact value;
/// `None` when the search cannot finish within `limits`.
pub fn solve(position: &Position, limits: &Limits) -> Option<Decision> {
    let mut solver = Solver {
        board: SearchBoard::new(position),
        memo: HashMap::new(),
        nodes: 0,
        clock: TimeManager::new(limits.time, limits.nodes),
        stopped: false,
    };
    let mut scored = solver.scored_moves();
    if solver.stopped {
        return None;
    }
    scored.sort_by_key(|&(_, v)| -v);
    let &(best, value) = scored.first()?;
    let empties = solver.board.points.len() - solver.board.stones;
    Some(Decision {
        point: SearchBoard::point(best),
        candidates: scored
            .iter()
            .take(10)
            .map(|&(i, v)| Candidate {
                point: SearchBoard::point(i),
                score: v as i64,
            })
            .collect(),
        depth: empties as u32,
        nodes: solver.nodes,
        forced_win_in: (value > 0).then(|| {
            // Values count the empty points left when the row is made.
            if value == 1000 {
                1
            } else {
                (empties as i32 - (value - 100) + 1) as u32
            }
        }),
        forced_loss_in: (value < 0).then(|| (empties as i32 - (-value - 100) + 1) as u32),
        pv: solver
            .line(best)
            .into_iter()
            .map(SearchBoard::point)
            .collect(),
    })
}
