//! Line patterns: what a stone on a point makes along one line — a five,
//! an open four, a four, an open three … — looked up in a table built once
//! per (k, overline rule) by dynamic programming over every window of cells.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// What a stone makes along one line, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Pattern {
    None = 0,
    /// One stone away from a three.
    Two = 1,
    /// One stone away from an open three.
    OpenTwo = 2,
    /// One stone away from a four.
    Three = 3,
    /// One stone away from an open four (two ways to five).
    OpenThree = 4,
    /// One point makes five.
    Four = 5,
    /// Two or more points make five: an open four, or two fours on one line.
    OpenFour = 6,
    /// k in a row (exactly k where overlines do not win).
    Five = 7,
    /// More than k in a row where that does not win.
    Overline = 8,
}

impl Pattern {
    const ALL: [Pattern; 9] = [
        Pattern::None,
        Pattern::Two,
        Pattern::OpenTwo,
        Pattern::Three,
        Pattern::OpenThree,
        Pattern::Four,
        Pattern::OpenFour,
        Pattern::Five,
        Pattern::Overline,
    ];

    pub fn from_u8(n: u8) -> Pattern {
        Self::ALL[n as usize]
    }
}

/// How many of each threat a point's four line patterns make.
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub fives: u8,
    /// An open four counts two.
    pub fours: u8,
    pub open_threes: u8,
    pub threes: u8,
    pub open_twos: u8,
}

impl Tally {
    pub fn of(lines: &[Pattern; 4]) -> Tally {
        let mut t = Tally::default();
        for &p in lines {
            match p {
                Pattern::Five => t.fives += 1,
                Pattern::OpenFour => t.fours += 2,
                Pattern::Four => t.fours += 1,
                Pattern::OpenThree => t.open_threes += 1,
                Pattern::Three => t.threes += 1,
                Pattern::OpenTwo => t.open_twos += 1,
                _ => {}
            }
        }
        t
    }
}

/// What a window cell holds, from the point of view of the side playing.
pub const EMPTY: u32 = 0;
pub const OWN: u32 = 1;
pub const BLOCKED: u32 = 2;

/// The pattern of every window of `2 * reach` cells around a point.
#[derive(Debug)]
pub struct PatternTable {
    pub reach: usize,
    k: usize,
    overline_wins: bool,
    table: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

/// The tables built so far, by (k, whether overlines win). Each is built
/// once and kept for the process's life (a few a process at most), so that
/// a board reads it straight, not through a shared pointer.
type Tables = HashMap<(u8, bool), &'static PatternTable>;

impl PatternTable {
    /// The (shared) table for k in a row, with or without overlines winning.
    pub fn get(k: u8, overline_wins: bool) -> &'static PatternTable {
        static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
        let tables = TABLES.get_or_init(Default::default);
        let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
        tables
            .entry((k, overline_wins))
            .or_insert_with(|| Box::leak(Box::new(PatternTable::build(k as usize, overline_wins))))
    }

    fn build(k: usize, overline_wins: bool) -> PatternTable {
        // Past seven cells a side the window would not fit in memory; longer
        // rows are judged on what the nearest seven cells show.
        let reach = k.min(7);
        let size = 3usize.pow(2 * reach as u32);
        let mut table = PatternTable {
            reach,
            k,
            overline_wins,
            table: vec![UNKNOWN; size],
        };
        for key in 0..size {
            table.solve(key);
        }
        table
    }

    /// The window's cells, nearest-left last on the left side: slots
    /// `0..reach` are offsets `-reach..-1`, slots `reach..2*reach` are `+1..+reach`.
    fn cell(&self, key: usize, slot: usize) -> u32 {
        ((key / 3usize.pow(slot as u32)) % 3) as u32
    }

    fn solve(&mut self, key: usize) -> u8 {
        if self.table[key] != UNKNOWN {
            return self.table[key];
        }
        let reach = self.reach;
        let own = |slot: usize| self.cell(key, slot) == OWN;
        let mut left = 0;
        while left < reach && own(reach - 1 - left) {
            left += 1;
        }
        let mut right = 0;
        while right < reach && own(reach + right) {
            right += 1;
        }
        let run = left + right + 1;
        let result = if run == self.k || (run > self.k && self.overline_wins) {
            Pattern::Five
        } else if run > self.k {
            Pattern::Overline
        } else {
            let mut fives = 0;
            let mut best = Pattern::None;
            for slot in 0..2 * reach {
                if self.cell(key, slot) != EMPTY {
                    continue;
                }
                let next = key + 3usize.pow(slot as u32);
                match Pattern::from_u8(self.solve(next)) {
                    Pattern::Five => fives += 1,
                    Pattern::Overline => {}
                    p => best = best.max(p),
                }
            }
            match (fives, best) {
                (2.., _) => Pattern::OpenFour,
                (1, _) => Pattern::Four,
                (_, Pattern::OpenFour) => Pattern::OpenThree,
                (_, Pattern::Four) => Pattern::Three,
                (_, Pattern::OpenThree) => Pattern::OpenTwo,
                (_, Pattern::Three) => Pattern::Two,
                _ => Pattern::None,
            }
        };
        self.table[key] = result as u8;
        result as u8
    }

    #[inline]
    pub fn lookup(&self, key: usize) -> Pattern {
        Pattern::from_u8(self.byte(key))
    }

    /// [`PatternTable::lookup`] as the pattern's byte, as a board keeps it.
    #[inline]
    pub fn byte(&self, key: usize) -> u8 {
        self.table[key]
    }

    /// The whole table as bytes by key, for a walk that looks up many.
    #[inline]
    pub fn bytes(&self) -> &[u8] {
        &self.table
    }

    /// The pattern for a window written as text, centre excluded: `X` own,
    /// `.` empty, anything else blocked; `left` nearest-last, `right` nearest-first.
    #[cfg(test)]
    fn of(&self, left: &str, right: &str) -> Pattern {
        let reach = self.reach;
        let code = |c: char| match c {
            'X' => OWN,
            '.' => EMPTY,
            _ => BLOCKED,
        };
        let mut key = 0usize;
        let left: Vec<char> = left.chars().collect();
        let right: Vec<char> = right.chars().collect();
        for slot in 0..reach {
            // Slot reach-1 is the nearest left cell.
            let from_centre = reach - 1 - slot;
            let c = left
                .len()
                .checked_sub(from_centre + 1)
                .map_or(BLOCKED, |i| code(left[i]));
            key += c as usize * 3usize.pow(slot as u32);
        }
        for offset in 0..reach {
            let c = right.get(offset).map_or(BLOCKED, |&ch| code(ch));
            key += c as usize * 3usize.pow((reach + offset) as u32);
        }
        self.lookup(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_in_a_row_patterns_are_named_as_players_name_them() {
        let t = PatternTable::get(5, true);
        assert_eq!(t.of("OXXXX", "O"), Pattern::Five);
        assert_eq!(t.of(".XXX", ".."), Pattern::OpenFour);
        assert_eq!(t.of("OXXX", ".."), Pattern::Four);
        assert_eq!(
            t.of("..X.X", "X.X"),
            Pattern::OpenFour,
            "two fours on one line"
        );
        assert_eq!(t.of("..X.X", "X.."), Pattern::Four);
        assert_eq!(t.of("..XX", "..."), Pattern::OpenThree);
        assert_eq!(t.of("..X.X", "..."), Pattern::OpenThree, "split three");
        assert_eq!(t.of("OXX", "..."), Pattern::Three);
        assert_eq!(t.of("...X", "...."), Pattern::OpenTwo);
        assert_eq!(
            t.of("OX", "..."),
            Pattern::Two,
            "two stones with room for just one five"
        );
        assert_eq!(t.of("O", "...."), Pattern::None, "a lone stone");
        assert_eq!(t.of("O", "...O"), Pattern::None, "no room for five");
    }

    #[test]
    fn where_overlines_do_not_win_they_are_not_fives() {
        let exact = PatternTable::get(5, false);
        assert_eq!(exact.of("XXXXX", "."), Pattern::Overline);
        assert_eq!(exact.of(".XXXX", "."), Pattern::Five);
        // .XXX.X : filling the gap makes six, so only the left end makes five.
        assert_eq!(exact.of("..XXX", ".X"), Pattern::Four);
        let free = PatternTable::get(5, true);
        assert_eq!(free.of("..XXX", ".X"), Pattern::OpenFour);
    }

    #[test]
    fn three_in_a_row_tables_fit_tictactoe() {
        let t = PatternTable::get(3, true);
        assert_eq!(t.of("X", "."), Pattern::Four, "one more makes three");
        assert_eq!(t.of(".X", ""), Pattern::Four);
        assert_eq!(t.of("O", "X"), Pattern::None, "the wall leaves no room");
        assert_eq!(t.of("XX", "O"), Pattern::Five);
    }
}
