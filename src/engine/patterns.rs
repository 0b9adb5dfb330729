//! Line patterns: what a stone on a point makes along one line — a five,
//! an open four, a four, an open three … — looked up in a table built once
//! per (k, overline rule) by dynamic programming over every window of cells.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// What a stone makes along one line, weakest first.
///
/// Finer patterns for the evaluation were tried (12-06): a lone stone
/// that can make an open two, open twos by how many points make an open
/// three of them, open threes by whether two points make an open four, each
/// a weight of its own fitted on top of the rest. The search was 6% slower
/// (38,416 shape codes instead of 6,561) and, against Rapfi STRENGTH 60,
/// scored 10.9 points less (±5.7, 416 paired renju games): see the README.
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
    pub k: usize,
    overline_wins: bool,
    table: Vec<u8>,
}

const UNKNOWN: u8 = u8::MAX;

/// The tables built so far, by (k, whether overlines win, reach). Each is
/// built once and kept for the process's life (a few a process at most),
/// so that a board reads it straight, not through a shared pointer.
type Tables = HashMap<(u8, bool, u8), &'static PatternTable>;

impl PatternTable {
    /// The tables for black and white (whether overlines win for each),
    /// each over the cells a side its patterns depend on (a board keeps one
    /// window key for both, over the more either needs, and each side's
    /// part of it over its own).
    pub fn pair(k: u8, overline_wins: [bool; 2]) -> [&'static PatternTable; 2] {
        overline_wins.map(|wins| Self::for_one(k, wins))
    }

    /// The table for k in a row, with or without overlines winning, over
    /// the fewest cells a side that tell its patterns.
    fn for_one(k: u8, overline_wins: bool) -> &'static PatternTable {
        Self::with_reach(k, overline_wins, Self::reach_for(k, overline_wins))
    }

    /// The cells a side a stone's patterns depend on: k, to see an
    /// overline past a row of k; k - 1 where overlines win, as every row
    /// of k through the point then lies within k - 1 cells of it, and a
    /// stone further on never makes a five that one nearer does not. Past
    /// seven cells a side the window would not fit in memory; longer rows
    /// are judged on what the nearest seven cells show.
    fn reach_for(k: u8, overline_wins: bool) -> u8 {
        let reach = if overline_wins { k - 1 } else { k };
        reach.min(7)
    }

    fn with_reach(k: u8, overline_wins: bool, reach: u8) -> &'static PatternTable {
        static TABLES: OnceLock<Mutex<Tables>> = OnceLock::new();
        let tables = TABLES.get_or_init(Default::default);
        let mut tables = tables.lock().unwrap_or_else(|e| e.into_inner());
        tables.entry((k, overline_wins, reach)).or_insert_with(|| {
            Box::leak(Box::new(PatternTable::build(
                k.into(),
                overline_wins,
                reach.into(),
            )))
        })
    }

    fn build(k: usize, overline_wins: bool, reach: usize) -> PatternTable {
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

    fn get(k: u8, overline_wins: bool) -> &'static PatternTable {
        PatternTable::for_one(k, overline_wins)
    }

    #[test]
    fn five_in_a_row_patterns_are_named_as_players_name_them() {
        let t = get(5, true);
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
        let exact = get(5, false);
        assert_eq!(exact.of("XXXXX", "."), Pattern::Overline);
        assert_eq!(exact.of(".XXXX", "."), Pattern::Five);
        // .XXX.X : filling the gap makes six, so only the left end makes five.
        assert_eq!(exact.of("..XXX", ".X"), Pattern::Four);
        let free = get(5, true);
        assert_eq!(free.of("..XXX", ".X"), Pattern::OpenFour);
    }

    #[test]
    fn where_overlines_win_the_cells_k_away_change_no_pattern() {
        for k in 3..=6u8 {
            let near = PatternTable::with_reach(k, true, k - 1);
            let far = PatternTable::with_reach(k, true, k);
            assert_eq!(
                (near.reach, far.reach),
                (usize::from(k - 1), usize::from(k))
            );
            for key in 0..far.table.len() {
                // Slot 0 and slot 2 * reach - 1 are the cells k away.
                let inner = key / 3 % 3usize.pow(2 * near.reach as u32);
                assert_eq!(near.byte(inner), far.byte(key), "k {k}, window {key}");
            }
        }
        // Where they lose, the cell k away tells an overline from a five.
        let exact = get(5, false);
        assert_eq!(exact.reach, 5);
        let pair = PatternTable::pair(5, [false, true]);
        assert_eq!(pair.map(|t| t.reach), [5, 4], "each its own");
        assert!(pair[1].overline_wins && !pair[0].overline_wins);
    }

    #[test]
    fn three_in_a_row_tables_fit_tictactoe() {
        let t = get(3, true);
        assert_eq!(t.of("X", "."), Pattern::Four, "one more makes three");
        assert_eq!(t.of(".X", ""), Pattern::Four);
        assert_eq!(t.of("O", "X"), Pattern::None, "the wall leaves no room");
        assert_eq!(t.of("XX", "O"), Pattern::Five);
    }
}
