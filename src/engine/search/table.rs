//! The transposition table: what each position searched was worth, to
//! what depth and bound, and its best move, kept across the searches of a
//! game. Each position has one slot, and a new entry replaces the old.
//!
//! Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms, two
//! 208-game matches each paired game by game with one of the table above the
//! same day, which scored 50.8% over 416 games): buckets of two slots, the
//! first keeping the deepest entry of the search (an entry of an earlier
//! move's search giving way to any), the second taking the rest, both
//! probed: -3.5 points (95% ±5.3) over 416 pairs, as black -2.6 (±8.0), as
//! white -4.3 (±7.1).

use super::{Searcher, WIN_THRESHOLD};
use crate::engine::board::SearchBoard;
use crate::rules::Point;

/// The score a table entry settles a node with, if it was searched deep
/// enough and its bound decides the window.
pub(super) fn table_cut(entry: Option<Entry>, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
    let e = entry.filter(|e| i32::from(e.depth) >= depth)?;
    match e.bound {
        EXACT => Some(e.score),
        LOWER if e.score >= beta => Some(e.score),
        UPPER if e.score <= alpha => Some(e.score),
        _ => None,
    }
}

/// What the table holds of one position: its hash (to tell it from the
/// others of its slot), best move, the depth searched, the bound (0: an
/// empty slot) and the score.
#[derive(Clone, Copy, Default)]
pub(in crate::engine) struct Entry {
    hash: u64,
    pub(super) best: u16,
    depth: i8,
    pub(super) bound: u8,
    pub(super) score: i32,
}

pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;

impl Searcher {
    /// The slot of the position on the board: the hash's high bits.
    fn slot(&self) -> usize {
        self.slot_of(self.board.hash)
    }

    fn slot_of(&self, hash: u64) -> usize {
        (hash >> (64 - self.config.table_bits)) as usize
    }

    /// Asks the processor to fetch the slot of the position with `hash`
    /// ahead of its probe: the table is larger than its caches, and a probe
    /// waiting on memory was a twentieth of the search's time.
    #[inline]
    pub(super) fn prefetch(&self, hash: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            let entry: *const Entry = &self.table[self.slot_of(hash)];
            // SAFETY: a prefetch reads nothing the program sees and cannot
            // fault; `entry` points into the table, and SSE, which the
            // instruction needs, is part of every x86_64 processor.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(entry.cast()) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = hash;
    }

    /// Keeps what a node `ply` plies from the root found. A win or loss is
    /// kept as plies from this node, so that it holds whatever the root
    /// (the table outlives one search).
    pub(super) fn store(&mut self, depth: i32, score: i32, bound: u8, best: usize, ply: usize) {
        let slot = self.slot();
        let ply = ply as i32;
        let score = match score {
            s if s > WIN_THRESHOLD => s + ply,
            s if s < -WIN_THRESHOLD => s - ply,
            s => s,
        };
        self.table[slot] = Entry {
            hash: self.board.hash,
            best: best as u16,
            depth: depth.clamp(0, 127) as i8,
            bound,
            score,
        };
    }

    /// What the table holds of this node, `ply` plies from the root.
    pub(super) fn probe(&self, ply: usize) -> Option<Entry> {
        let mut e = self.table[self.slot()];
        let ply = ply as i32;
        e.score = match e.score {
            s if s > WIN_THRESHOLD => s - ply,
            s if s < -WIN_THRESHOLD => s + ply,
            s => s,
        };
        (e.bound != 0 && e.hash == self.board.hash).then_some(e)
    }

    /// The principal variation from `first`: the best moves the
    /// transposition table holds, as far as `length` plies (or the five).
    pub(super) fn table_line(&mut self, first: usize, length: usize) -> Vec<Point> {
        let mut line = vec![first];
        let mut made = 0;
        let mut i = first;
        while line.len() <= length {
            if self.fives_and_fours(self.me(), i).0 > 0 {
                break;
            }
            self.board.make(i);
            made += 1;
            let Some(entry) = self.probe(made) else { break };
            i = usize::from(entry.best);
            if line.len() == length
                || !self.board.points_contains(i)
                || !self.board.is_empty(i)
                || !self.board.legal(i, self.me())
            {
                break;
            }
            line.push(i);
        }
        for _ in 0..made {
            self.board.unmake();
        }
        line.into_iter().map(SearchBoard::point).collect()
    }
}
