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

use std::sync::atomic::{AtomicU64, Ordering};

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

/// What the table holds of one position: its best move, the depth
/// searched, the bound (0: an empty slot) and the score.
#[derive(Clone, Copy, Default)]
pub(in crate::engine) struct Entry {
    pub(super) best: u16,
    depth: i8,
    pub(super) bound: u8,
    pub(super) score: i32,
}

pub(super) const EXACT: u8 = 1;
pub(super) const LOWER: u8 = 2;
pub(super) const UPPER: u8 = 3;

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.best)
            | u64::from(self.depth as u8) << 16
            | u64::from(self.bound) << 24
            | u64::from(self.score as u32) << 32
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            best: data as u16,
            depth: (data >> 16) as u8 as i8,
            bound: (data >> 24) as u8,
            score: (data >> 32) as u32 as i32,
        }
    }
}

/// The table: a slot a position, chosen by its hash's high bits, shared by
/// the threads searching one position (Lazy SMP) and kept from one search
/// of a game to the next. A slot is two words read and written without a
/// lock: the entry, and the position's hash mixed with it. Two threads
/// writing one slot at once may leave one's entry with the other's hash;
/// the mix then matches neither position, and the slot reads as empty.
pub(in crate::engine) struct Table {
    slots: Box<[[AtomicU64; 2]]>,
}

impl Table {
    /// An empty table of 2^`bits` slots (16 bytes each).
    pub(in crate::engine) fn new(bits: u32) -> Table {
        Table {
            slots: (0..1usize << bits)
                .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
                .collect(),
        }
    }

    pub(in crate::engine) fn len(&self) -> usize {
        self.slots.len()
    }

    fn load(&self, slot: usize, hash: u64) -> Option<Entry> {
        let [check, data] = &self.slots[slot];
        let data = data.load(Ordering::Relaxed);
        let entry = Entry::unpack(data);
        (entry.bound != 0 && check.load(Ordering::Relaxed) ^ data == hash).then_some(entry)
    }

    fn save(&self, slot: usize, hash: u64, entry: Entry) {
        let data = entry.pack();
        let [check, word] = &self.slots[slot];
        check.store(hash ^ data, Ordering::Relaxed);
        word.store(data, Ordering::Relaxed);
    }
}

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
            let entry: *const [AtomicU64; 2] = &self.table.slots[self.slot_of(hash)];
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
        let entry = Entry {
            best: best as u16,
            depth: depth.clamp(0, 127) as i8,
            bound,
            score,
        };
        self.table.save(slot, self.board.hash, entry);
    }

    /// What the table holds of this node, `ply` plies from the root.
    pub(super) fn probe(&self, ply: usize) -> Option<Entry> {
        let mut e = self.table.load(self.slot(), self.board.hash)?;
        let ply = ply as i32;
        e.score = match e.score {
            s if s > WIN_THRESHOLD => s - ply,
            s if s < -WIN_THRESHOLD => s + ply,
            s => s,
        };
        Some(e)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entry_reads_back_as_stored_under_its_hash_alone() {
        let table = Table::new(4);
        let entry = Entry {
            best: 300,
            depth: -3,
            bound: UPPER,
            score: -(WIN_THRESHOLD + 7),
        };
        table.save(5, 0xDEAD_BEEF_0123_4567, entry);
        let read = table.load(5, 0xDEAD_BEEF_0123_4567).expect("stored");
        assert_eq!(
            (read.best, read.depth, read.bound, read.score),
            (300, -3, UPPER, -(WIN_THRESHOLD + 7))
        );
        assert!(
            table.load(5, 0xDEAD_BEEF_0123_4568).is_none(),
            "another position"
        );
        assert!(table.load(6, 0).is_none(), "an empty slot, even for hash 0");
    }

    /// Two threads writing one slot at once can leave one's hash word with
    /// the other's entry: that slot then answers neither position.
    #[test]
    fn a_slot_torn_between_two_writers_reads_as_empty() {
        let table = Table::new(4);
        let (first, second) = (0x1111_2222_3333_4444u64, 0x5555_6666_7777_8888u64);
        let entry = |score| Entry {
            best: 1,
            depth: 5,
            bound: EXACT,
            score,
        };
        table.save(2, first, entry(10));
        // The second writer's entry lands, its hash word does not.
        table.slots[2][1].store(entry(-20).pack(), Ordering::Relaxed);
        assert!(table.load(2, first).is_none());
        assert!(table.load(2, second).is_none());
    }
}
