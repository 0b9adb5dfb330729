//! The engine's board: the stones, each empty point's pattern along each
//! line for each side (kept up to date move by move), a Zobrist hash, and
//! how close each point is to a stone.

mod forbidden;
mod sums;

use std::cell::Cell as Slot;
use std::sync::OnceLock;

use super::patterns::{BLOCKED, EMPTY, OWN, Pattern, PatternTable};
use super::random::SplitMix64;
use crate::rules::board::{Cell, DIRECTIONS, PADDED, STRIDE};
use crate::rules::forbidden::{LineFacts, REACH};
use crate::rules::{Board, Color, Point, Position};
pub use sums::{COUNTS, FIVE, FOUR, Sums, WINNING_FOUR, kinds_of};

/// What a passed turn adds to the hash (see [`SearchBoard::pass`]).
const PASS_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// Random keys for hashing positions, the same in every run.
fn zobrist() -> &'static [[u64; PADDED]; 2] {
    static KEYS: OnceLock<Box<[[u64; PADDED]; 2]>> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = SplitMix64::new(0x60BA_2026);
        let mut keys = Box::new([[0u64; PADDED]; 2]);
        for side in keys.iter_mut() {
            for key in side.iter_mut() {
                *key = rng.next_u64();
            }
        }
        keys
    })
}

pub const fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

const WORDS: usize = PADDED.div_ceil(64);

/// The forbidden-test verdicts kept hold 2^VERDICT_BITS entries.
const VERDICT_BITS: u32 = 15;

const POWERS_OF_THREE: [usize; 16] = {
    let mut p = [1usize; 16];
    let mut n = 1;
    while n < 16 {
        p[n] = p[n - 1] * 3;
        n += 1;
    }
    p
};

/// How many shapes a point can have: its four lines' patterns (nine each)
/// as one base-9 number, direction 0 the lowest digit.
pub const SHAPE_CODES: usize = 9 * 9 * 9 * 9;
const POWERS_OF_NINE: [i32; 4] = [1, 9, 81, 729];

/// Whether a black stone making `shape` might be forbidden, by shape code:
/// the first of its lines (in direction order) of five stones or more
/// decides, allowed if it is a five and suspect if an overline; without
/// one, only two fours or two open threes are suspect. The referee's test
/// judges the suspects.
fn may_be_forbidden(shape: usize) -> bool {
    static SUSPECT: OnceLock<Box<[bool]>> = OnceLock::new();
    let suspect = SUSPECT.get_or_init(|| {
        (0..SHAPE_CODES)
            .map(|code| {
                let (mut fours, mut threes) = (0, 0);
                for p in shape_lines(code) {
                    match p {
                        Pattern::Five => return false,
                        Pattern::Overline => return true,
                        Pattern::OpenFour => fours += 2,
                        Pattern::Four => fours += 1,
                        Pattern::OpenThree => threes += 1,
                        _ => {}
                    }
                }
                fours >= 2 || threes >= 2
            })
            .collect()
    });
    suspect[shape]
}

/// The four line patterns a shape code stands for.
pub fn shape_lines(code: usize) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| Pattern::from_u8((code / POWERS_OF_NINE[d] as usize % 9) as u8))
}

/// What a stone of each colour adds to both sides' window keys at once
/// (see `SearchBoard::keys`), by colour and by the slot it lies in of a
/// window over `reach` cells a side: own for its side, blocked for the
/// other, each at its power of three in that side's key, which looks
/// `tables[side].reach` cells a side (renju's white looks one cell less
/// than black, its table a ninth the size), or nothing past it.
fn key_increments(tables: &[&PatternTable; 2], reach: usize) -> [[u64; 16]; 2] {
    let mut increments = [[0; 16]; 2];
    for color in [Color::Black, Color::White] {
        for slot in 0..2 * reach {
            for (s, table) in tables.iter().enumerate() {
                let digit = if s == side(color) { OWN } else { BLOCKED };
                let margin = reach - table.reach;
                if (margin..margin + 2 * table.reach).contains(&slot) {
                    increments[side(color)][slot] +=
                        (u64::from(digit) * POWERS_OF_THREE[slot - margin] as u64) << (32 * s);
                }
            }
        }
    }
    increments
}

/// The points of [`SearchBoard::nearby`].
pub struct Nearby<'a> {
    words: &'a [u64],
    /// The word being visited, by its place in `words`.
    word: usize,
    /// Its points not yet visited.
    bits: u64,
}

impl Iterator for Nearby<'_> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.bits == 0 {
            self.word += 1;
            self.bits = *self.words.get(self.word)?;
        }
        let i = self.word * 64 + self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some(i)
    }
}

/// A point's patterns along one direction and its shapes, as they were
/// before a move.
#[derive(Clone, Copy)]
struct Saved {
    index: u16,
    direction: u8,
    patterns: [u8; 2],
    shapes: [u16; 2],
}

#[derive(Clone)]
pub struct SearchBoard {
    pub width: u8,
    pub height: u8,
    cells: [Cell; PADDED],
    /// `patterns[side][direction][index]`: what a stone of `side` on the empty
    /// point `index` would make along `direction`.
    patterns: Box<[[[u8; PADDED]; 4]; 2]>,
    /// `shapes[side][index]`: the four patterns of `index` as a shape code
    /// (see [`SHAPE_CODES`]), kept with them, so that what a point is worth
    /// is one table lookup.
    shapes: Box<[[u16; PADDED]; 2]>,
    /// `keys[direction][index]`: the base-3 keys of the window around
    /// `index` along `direction` as each side sees it, black's in the low
    /// 32 bits and white's in the high, kept up to date stone by stone (a
    /// stone changes one digit of each window it lies in, both sides' with
    /// one addition).
    keys: Box<[[u64; PADDED]; 4]>,
    tables: [&'static PatternTable; 2],
    /// The cells a side of `keys`' windows: the more either table looks.
    reach: usize,
    /// What a stone adds to `keys` (see [`key_increments`]).
    increments: [[u64; 16]; 2],
    /// The empty points within two points of a stone, as bits by index:
    /// the scans of the search visit these and skip the rest of the board.
    nearby: [u64; WORDS],
    /// The empty points of the playing area, as bits by index.
    empty: [u64; WORDS],
    /// `nearby` as it was before each move, for [`Self::unmake`]: a stone
    /// taken back leaves no trace to undo it by (a point may be near
    /// several stones), and the words are fewer than the points it touched.
    nearby_undo: Vec<[u64; WORDS]>,
    /// The words of `nearby` the playing area reaches.
    words: usize,
    /// Black's points are checked against renju's forbidden rules.
    renju: bool,
    /// Verdicts of the referee's forbidden test, by position and point:
    /// the search asks of the same suspect point several times in a node
    /// (the scan for each side's threats and its moves, the threat
    /// searches) and again at each iteration of deepening. Each entry is
    /// the key (hash and point) with its lowest bit the verdict.
    verdicts: Box<[Slot<u64>]>,
    /// What a black stone makes along a line by black's window key, for
    /// the forbidden test (renju; empty otherwise).
    forbidden_facts: &'static [LineFacts],
    pub hash: u64,
    pub to_move: Color,
    pub stones: usize,
    pub history: Vec<usize>,
    /// What each move made changed in `patterns` and `shapes`, so that
    /// taking it back restores them without looking anything up, and
    /// where each move's changes start.
    undo: Vec<Saved>,
    undo_marks: Vec<usize>,
    /// Indices of the playing area, row by row.
    pub points: Vec<usize>,
    /// The evaluation's sums, for a search that keeps them.
    sums: Option<Box<Sums>>,
}

impl SearchBoard {
    pub fn new(position: &Position) -> SearchBoard {
        let variant = position.variant();
        let k = variant.k();
        let tables = PatternTable::pair(
            k,
            [Color::Black, Color::White].map(|color| variant.overline_wins(color)),
        );
        let reach = tables[0].reach.max(tables[1].reach);
        let board: &Board = position.board();
        let points: Vec<usize> = board.points().map(Board::index).collect();
        let mut engine = SearchBoard {
            width: variant.width(),
            height: variant.height(),
            cells: Board::empty(variant.width(), variant.height()).cells,
            patterns: Box::new([[[0; PADDED]; 4]; 2]),
            shapes: Box::new([[0; PADDED]; 2]),
            keys: Box::new([[0; PADDED]; 4]),
            tables,
            reach,
            increments: key_increments(&tables, reach),
            nearby: [0; WORDS],
            empty: [0; WORDS],
            nearby_undo: Vec::new(),
            words: points.last().map_or(0, |&i| i / 64 + 1),
            renju: variant.forbidden_policy().is_some(),
            verdicts: if variant.forbidden_policy().is_some() {
                (0..1 << VERDICT_BITS).map(|_| Slot::new(0)).collect()
            } else {
                Box::default()
            },
            forbidden_facts: if variant.forbidden_policy().is_some() {
                // Black's windows must reach as far as the referee's lines.
                assert_eq!(tables[side(Color::Black)].reach, REACH);
                assert_eq!(reach, REACH);
                forbidden::facts_by_key()
            } else {
                &[]
            },
            hash: 0,
            to_move: Color::Black,
            stones: 0,
            history: Vec::with_capacity(points.len()),
            // Sized by replaying the position's stones below, kept for the
            // search after.
            undo: Vec::new(),
            undo_marks: Vec::new(),
            points,
            sums: None,
        };
        for &i in &engine.points {
            engine.empty[i / 64] |= 1 << (i % 64);
        }
        for &i in &engine.points.clone() {
            for d in 0..4 {
                for color in [Color::Black, Color::White] {
                    let key = engine.window_key(i, d, color);
                    engine.keys[d][i] |= (key as u64) << (32 * side(color));
                    engine.patterns[side(color)][d][i] =
                        engine.tables[side(color)].lookup(key) as u8;
                }
            }
            for s in 0..2 {
                engine.shapes[s][i] = (0..4)
                    .map(|d| i32::from(engine.patterns[s][d][i]) * POWERS_OF_NINE[d])
                    .sum::<i32>() as u16;
            }
        }
        // Replay in an order that alternates colours, so `to_move` ends right.
        let mut black: Vec<usize> = Vec::new();
        let mut white: Vec<usize> = Vec::new();
        for p in board.points() {
            match board.get(p) {
                Some(Color::Black) => black.push(Board::index(p)),
                Some(Color::White) => white.push(Board::index(p)),
                None => {}
            }
        }
        for n in 0..black.len().max(white.len()) {
            if let Some(&b) = black.get(n) {
                engine.place(b, Color::Black);
            }
            if let Some(&w) = white.get(n) {
                engine.place(w, Color::White);
            }
        }
        engine.to_move = position.to_move();
        engine.history.clear();
        engine.undo.clear();
        engine.undo_marks.clear();
        engine.nearby_undo.clear();
        engine
    }

    pub fn point(index: usize) -> Point {
        Board::point_at(index)
    }

    pub fn index(p: Point) -> usize {
        Board::index(p)
    }

    #[inline]
    pub fn is_empty(&self, i: usize) -> bool {
        self.cells[i] == Cell::Empty
    }

    /// How many in a row win.
    #[inline]
    pub fn k(&self) -> usize {
        self.tables[0].k
    }

    /// Whether `i` is a point of the board (not the wall around it).
    #[inline]
    pub fn points_contains(&self, i: usize) -> bool {
        i < PADDED && self.cells[i] != Cell::Wall
    }

    #[inline]
    pub fn pattern(&self, color: Color, direction: usize, i: usize) -> Pattern {
        Pattern::from_u8(self.patterns[side(color)][direction][i])
    }

    /// The shape code of what a stone of `color` on the empty point `i`
    /// makes along its four lines.
    #[inline]
    pub fn shape(&self, color: Color, i: usize) -> usize {
        usize::from(self.shapes[side(color)][i])
    }

    /// The points a scan looks at, in index order (row by row): the empty
    /// points near a stone, or the centre of an empty board.
    #[inline]
    pub fn nearby(&self) -> Nearby<'_> {
        if self.stones == 0 {
            let centre = Board::index(Point::new(self.width / 2, self.height / 2));
            return Nearby {
                words: &[],
                word: centre / 64,
                bits: 1 << (centre % 64),
            };
        }
        Nearby {
            words: &self.nearby[..self.words],
            word: 0,
            bits: self.nearby[0],
        }
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.points.len()
    }

    /// Whether the rules forbid black some points (renju).
    #[inline]
    pub fn has_forbidden(&self) -> bool {
        self.renju
    }

    /// Whether `color` may play the empty point `i` (renju's forbidden points
    /// for black); a five is always allowed.
    #[inline]
    pub fn legal(&self, i: usize, color: Color) -> bool {
        if !self.renju || color == Color::White {
            return true;
        }
        !may_be_forbidden(self.shape(color, i)) || self.judged_allowed(i)
    }

    /// Whether black may play the suspect point `i`, by the referee's
    /// test, remembered for this position.
    fn judged_allowed(&self, i: usize) -> bool {
        // The position's hash with the point mixed in; the lowest bit
        // left for the verdict.
        let key = (self.hash ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)) & !1;
        let slot = &self.verdicts[(key >> (64 - VERDICT_BITS)) as usize];
        let entry = slot.get();
        if entry & !1 == key {
            return entry & 1 == 1;
        }
        let allowed = self.forbidden(i).is_none();
        slot.set(key | u64::from(allowed));
        allowed
    }

    fn place(&mut self, i: usize, color: Color) {
        self.cells[i] = Cell::stone(color);
        self.hash ^= zobrist()[side(color)][i];
        self.stones += 1;
        self.sums_before(i);
        self.mark_near(i);
        let mark = self.undo.len();
        self.shift_windows(i, color);
        self.sums_after(i, mark);
    }

    /// The hash of the position after the side to move plays `i`.
    #[inline]
    pub fn hash_after(&self, i: usize) -> u64 {
        self.hash ^ zobrist()[side(self.to_move)][i]
    }

    /// Plays `i` for the side to move.
    pub fn make(&mut self, i: usize) {
        let color = self.to_move;
        self.place(i, color);
        self.history.push(i);
        self.to_move = color.opponent();
    }

    /// Passes the turn (the search's null move): the same stones with the
    /// other side to move, the hash changed by a key of its own so that
    /// the table tells the two apart. Passing again undoes it.
    pub fn pass(&mut self) {
        self.to_move = self.to_move.opponent();
        self.hash ^= PASS_KEY;
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let i = self.history.pop().expect("a move to take back");
        let color = self.to_move.opponent();
        self.cells[i] = Cell::Empty;
        self.hash ^= zobrist()[side(color)][i];
        self.stones -= 1;
        self.empty[i / 64] |= 1 << (i % 64);
        self.nearby = self.nearby_undo.pop().expect("a move's points near");
        self.shift_keys(i, color);
        let mark = self.undo_marks.pop().expect("a move's changes");
        // Any order serves: a point's entries are one a direction, and
        // its shapes are the same in each.
        for saved in self.undo[mark..].iter().rev() {
            let (j, d) = (usize::from(saved.index), usize::from(saved.direction));
            let [black, white] = saved.patterns;
            self.patterns[0][d][j] = black;
            self.patterns[1][d][j] = white;
            let [black, white] = saved.shapes;
            self.shapes[0][j] = black;
            self.shapes[1][j] = white;
        }
        self.undo.truncate(mark);
        self.sums_restore();
        self.to_move = color;
    }

    /// A stone was placed on `i`: the empty points within two points of it
    /// join `nearby` (five rows of five bits; a row that leaves the board
    /// sideways runs into the wall around it, which is never empty).
    fn mark_near(&mut self, i: usize) {
        self.nearby_undo.push(self.nearby);
        self.empty[i / 64] &= !(1 << (i % 64));
        for dy in -2isize..=2 {
            let start = i as isize + dy * STRIDE as isize - 2;
            // Rows past the board's first or last are wall.
            if start < 0 || start as usize + 4 >= PADDED {
                continue;
            }
            let start = start as usize;
            let (word, shift) = (start / 64, start % 64);
            self.nearby[word] |= 0b11111 << shift;
            if shift > 59 {
                self.nearby[word + 1] |= 0b11111 >> (64 - shift);
            }
        }
        for (near, empty) in self.nearby.iter_mut().zip(&self.empty) {
            *near &= empty;
        }
    }

    /// Calls `f` with each point of every window holding `i` (the points
    /// up to the reach either way along each direction, to the wall), its
    /// direction, and the slot `i` is in of its window.
    #[inline]
    fn each_window(&mut self, i: usize, mut f: impl FnMut(&mut SearchBoard, usize, usize, usize)) {
        let reach = self.reach;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for sign in [-1isize, 1] {
                let mut j = i as isize;
                for m in 1..=reach {
                    j += sign * step as isize;
                    let ju = j as usize;
                    if self.cells[ju] == Cell::Wall {
                        break;
                    }
                    // `i` lies after `ju` (digit reach + m - 1) or before it
                    // (digit reach - m).
                    let slot = if sign < 0 { reach + m - 1 } else { reach - m };
                    f(self, d, ju, slot);
                }
            }
        }
    }

    /// A stone of `color` was placed on `i`: changes that digit of every
    /// window holding `i` and looks up the patterns of the empty points
    /// whose window it is, keeping what they were for [`Self::unmake`].
    ///
    /// [`Self::each_window`]'s walk written out, with the two pattern
    /// tables' bytes held in locals: through the closure, every lookup
    /// read them again from the board it had just written to.
    ///
    /// Measured and not kept, for speed: the patterns kept only at the
    /// points near a stone (the only ones read), a point looked up along
    /// its four lines once a move brings it near. The same search node for
    /// node (`engine_speed -- --nodes 100000`: the same moves, depths and
    /// 2,378,389 positions), but slower: 1,445, 1,468 and 1,433 ms against
    /// 1,375, 1,391 and 1,367 for this walk, runs alternating. The points a
    /// move brings near cost more lookups than the far points spared.
    fn shift_windows(&mut self, i: usize, color: Color) {
        self.undo_marks.push(self.undo.len());
        let increments = self.increments[side(color)];
        let reach = self.reach;
        let bytes = [self.tables[0].bytes(), self.tables[1].bytes()];
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            for sign in [-1isize, 1] {
                let mut j = i as isize;
                for m in 1..=reach {
                    j += sign * step as isize;
                    let ju = j as usize;
                    let cell = self.cells[ju];
                    if cell == Cell::Wall {
                        break;
                    }
                    let slot = if sign < 0 { reach + m - 1 } else { reach - m };
                    let keys = self.keys[d][ju] + increments[slot];
                    self.keys[d][ju] = keys;
                    if cell != Cell::Empty {
                        continue;
                    }
                    // The patterns of the empty point `ju` along `d`,
                    // saved first if either side's changed (a stone far
                    // along a line often changes nothing).
                    let new = [
                        bytes[0][keys as u32 as usize],
                        bytes[1][(keys >> 32) as usize],
                    ];
                    let old = [self.patterns[0][d][ju], self.patterns[1][d][ju]];
                    if new == old {
                        continue;
                    }
                    self.save(ju, d);
                    for s in 0..2 {
                        self.patterns[s][d][ju] = new[s];
                        let shape = i32::from(self.shapes[s][ju])
                            + (i32::from(new[s]) - i32::from(old[s])) * POWERS_OF_NINE[d];
                        self.shapes[s][ju] = shape as u16;
                    }
                }
            }
        }
        for d in 0..4 {
            self.save(i, d);
            self.patterns[0][d][i] = 0;
            self.patterns[1][d][i] = 0;
        }
        self.shapes[0][i] = 0;
        self.shapes[1][i] = 0;
    }

    /// Takes a stone of `color` on `i` out of the window keys (its
    /// patterns come back from the undo stack).
    fn shift_keys(&mut self, i: usize, color: Color) {
        let increments = self.increments[side(color)];
        self.each_window(i, |board, d, j, slot| {
            board.keys[d][j] -= increments[slot];
        });
    }

    #[inline]
    fn save(&mut self, i: usize, d: usize) {
        self.undo.push(Saved {
            index: i as u16,
            direction: d as u8,
            patterns: [self.patterns[0][d][i], self.patterns[1][d][i]],
            shapes: [self.shapes[0][i], self.shapes[1][i]],
        });
    }

    /// The base-3 key of the window around `i` along direction `d`.
    fn window_key(&self, i: usize, d: usize, color: Color) -> usize {
        let reach = self.tables[side(color)].reach;
        let step = DIRECTIONS[d];
        let own = Cell::stone(color);
        let code = |c: Cell| -> u32 {
            if c == own {
                OWN
            } else if c == Cell::Empty {
                EMPTY
            } else {
                BLOCKED
            }
        };
        // Walks `reach` cells away from `i`; from the first wall on, every
        // cell reads as blocked. Left of `i` the nearest cell is key digit
        // reach-1 counting down; right of it, digit reach counting up.
        let walk = |forward: bool| -> usize {
            let mut key = 0;
            let mut j = i;
            let mut blocked = false;
            for n in 0..reach {
                if !blocked {
                    j = if forward { j + step } else { j - step };
                    blocked = self.cells[j] == Cell::Wall;
                }
                let c = if blocked {
                    BLOCKED
                } else {
                    code(self.cells[j])
                };
                let slot = if forward { reach + n } else { reach - 1 - n };
                key += c as usize * POWERS_OF_THREE[slot];
            }
            key
        };
        walk(false) + walk(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Variant;

    /// The patterns kept move by move are the ones a full recomputation
    /// finds, and the points near a stone are the empty ones within two
    /// points of one.
    fn assert_patterns_fresh(board: &SearchBoard) {
        let near = |i: usize| {
            let (x, y) = ((i % STRIDE) as isize, (i / STRIDE) as isize);
            board.points.iter().any(|&j| {
                let (u, v) = ((j % STRIDE) as isize, (j / STRIDE) as isize);
                !board.is_empty(j) && (u - x).abs() <= 2 && (v - y).abs() <= 2
            })
        };
        let expected: Vec<usize> = if board.stones == 0 {
            vec![SearchBoard::index(Point::new(
                board.width / 2,
                board.height / 2,
            ))]
        } else {
            (board.points.iter().copied())
                .filter(|&i| board.is_empty(i) && near(i))
                .collect()
        };
        assert_eq!(board.nearby().collect::<Vec<_>>(), expected);
        for &i in &board.points {
            for d in 0..4 {
                for color in [Color::Black, Color::White] {
                    let key = board.window_key(i, d, color);
                    assert_eq!(
                        (board.keys[d][i] >> (32 * side(color))) as u32 as usize,
                        key,
                        "key at {i}, {d}"
                    );
                    let expected = if board.is_empty(i) {
                        board.tables[side(color)].lookup(key) as u8
                    } else {
                        0
                    };
                    assert_eq!(
                        board.patterns[side(color)][d][i],
                        expected,
                        "pattern at {i}, {d}"
                    );
                }
            }
            for color in [Color::Black, Color::White] {
                let lines = [0, 1, 2, 3].map(|d| board.pattern(color, d, i));
                assert_eq!(shape_lines(board.shape(color, i)), lines, "shape at {i}");
            }
        }
    }

    #[test]
    fn windows_kept_stone_by_stone_match_a_full_recomputation() {
        for variant in [
            Variant::freestyle(15).unwrap(),
            Variant::renju(crate::rules::ForbiddenPolicy::Reject),
            Variant::custom(7, 4, 4, false).unwrap(),
            Variant::custom(26, 9, 9, true).unwrap(),
        ] {
            let mut rng = SplitMix64::new(7);
            let mut position = Position::new(variant);
            // Built from a position with stones on it, too.
            for p in [Point::new(1, 1), Point::new(2, 2), Point::new(3, 1)] {
                position.play(p).unwrap();
            }
            let mut board = SearchBoard::new(&position);
            assert_patterns_fresh(&board);
            let mut empty: Vec<usize> = board
                .points
                .iter()
                .copied()
                .filter(|&i| board.is_empty(i))
                .collect();
            for n in 0..empty.len().min(60) {
                let i = empty.swap_remove(rng.below(empty.len()));
                board.make(i);
                if n % 7 == 3 {
                    board.unmake();
                    empty.push(i);
                }
                assert_patterns_fresh(&board);
            }
            while !board.history.is_empty() {
                board.unmake();
            }
            assert_patterns_fresh(&board);
            assert_eq!(board.hash, SearchBoard::new(&position).hash);
        }
    }

    /// A pass (the search's null move) hands the turn over with the stones
    /// as they are, under a hash of its own, and a second pass undoes it.
    #[test]
    fn a_pass_hands_the_turn_over_under_its_own_hash() {
        let mut position = Position::new(Variant::freestyle(15).unwrap());
        for (x, y) in [(7, 7), (7, 8), (8, 8)] {
            position.play(Point::new(x, y)).unwrap();
        }
        let mut board = SearchBoard::new(&position);
        let (hash, stones) = (board.hash, board.stones);
        assert_eq!(board.to_move, Color::White);
        let j = SearchBoard::index(Point::new(9, 9));
        let white_there = board.hash_after(j);
        board.pass();
        assert_eq!((board.to_move, board.stones), (Color::Black, stones));
        assert_ne!(board.hash, hash, "the same stones, the other side to move");
        let black_there_after_pass = board.hash_after(j);
        board.pass();
        assert_eq!((board.hash, board.to_move), (hash, Color::White));
        board.make(j);
        assert_eq!(board.hash, white_there);
        assert_ne!(white_there, black_there_after_pass);
    }

    /// The verdicts the board remembers are the referee's for the position
    /// at hand: asked again and again as moves are made and taken back
    /// (each position's asked at least twice), they agree with a fresh
    /// judgement point by point.
    #[test]
    fn remembered_verdicts_follow_the_position() {
        use crate::rules::ForbiddenPolicy;
        use crate::rules::forbidden::forbidden_at;
        let variant = Variant::renju(ForbiddenPolicy::Reject);
        let mut rng = SplitMix64::new(11);
        let mut board = SearchBoard::new(&Position::new(variant));
        let centre: Vec<usize> = (board.points.iter().copied())
            .filter(|&i| (4..11).contains(&(i % STRIDE)) && (4..11).contains(&(i / STRIDE)))
            .collect();
        let mut checked = 0;
        for step in 0..400 {
            if board.stones > 30 || (step % 3 == 2 && !board.history.is_empty()) {
                board.unmake();
            } else {
                let empty: Vec<usize> = centre
                    .iter()
                    .copied()
                    .filter(|&i| board.is_empty(i))
                    .collect();
                board.make(empty[rng.below(empty.len())]);
            }
            for _ in 0..2 {
                for &i in &board.points {
                    if board.is_empty(i) {
                        let fresh = forbidden_at(&board.cells, i);
                        // Judged from the windows as from the cells.
                        assert_eq!(board.forbidden(i), fresh, "at {i}");
                        let fresh = fresh.is_none();
                        assert_eq!(board.legal(i, Color::Black), fresh, "at {i}");
                        checked += usize::from(!fresh);
                    }
                }
            }
        }
        // The positions crowd enough to hold forbidden points.
        assert!(checked > 0);
    }

    /// The engine's legality test for black in renju agrees with the rules'
    /// forbidden points, point by point, on crowded random positions.
    #[test]
    fn the_engine_and_the_rules_agree_on_forbidden_points() {
        use crate::rules::ForbiddenPolicy;
        use proptest::prelude::*;
        let config = ProptestConfig {
            cases: 300,
            ..ProptestConfig::default()
        };
        // Stones crowd the centre, where threes and fours cross.
        let stones = proptest::collection::vec((3u8..12, 3u8..12), 10..70);
        proptest!(config, |(picks in stones)| {
            let mut position = Position::new(Variant::renju(ForbiddenPolicy::Reject));
            for (x, y) in picks {
                let p = Point::new(x, y);
                if position.is_over() {
                    break;
                }
                // Any empty point, forbidden or not: the position need not
                // come from a legal game.
                if position.board().get(p).is_none() {
                    let mut board = position.board().clone();
                    board.put(p, position.to_move());
                    if let Ok(next) = Position::from_board(*position.variant(), board) {
                        position = next;
                    }
                }
            }
            let engine = SearchBoard::new(&position);
            for p in position.board().points() {
                if position.board().get(p).is_some() {
                    continue;
                }
                let rules = position.board().forbidden_kind(p);
                prop_assert_eq!(engine.forbidden(Board::index(p)), rules, "at {}", p);
                let legal = engine.legal(Board::index(p), Color::Black);
                prop_assert_eq!(
                    legal,
                    rules.is_none(),
                    "at {} (rules: {:?})\n{}",
                    p,
                    rules,
                    position.board()
                );
            }
        });
    }
}
