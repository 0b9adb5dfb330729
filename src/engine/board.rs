//! The engine's board: the stones, each empty point's pattern along each
//! line for each side (kept up to date move by move), a Zobrist hash, and
//! how close each point is to a stone.

use std::sync::{Arc, OnceLock};

use super::patterns::{BLOCKED, EMPTY, OWN, Pattern, PatternTable};
use super::random::SplitMix64;
use crate::rules::board::{Cell, DIRECTIONS, PADDED, STRIDE};
use crate::rules::forbidden::forbidden_at;
use crate::rules::{Board, Color, Point, Position};

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

const POWERS_OF_THREE: [usize; 16] = {
    let mut p = [1usize; 16];
    let mut n = 1;
    while n < 16 {
        p[n] = p[n - 1] * 3;
        n += 1;
    }
    p
};

#[derive(Clone)]
pub struct SearchBoard {
    pub width: u8,
    pub height: u8,
    cells: [Cell; PADDED],
    /// `patterns[side][direction][index]`: what a stone of `side` on the empty
    /// point `index` would make along `direction`.
    patterns: Box<[[[u8; PADDED]; 4]; 2]>,
    tables: [Arc<PatternTable>; 2],
    /// Stones within two points, for candidate moves.
    near: [u8; PADDED],
    /// Black's points are checked against renju's forbidden rules.
    renju: bool,
    pub hash: u64,
    pub to_move: Color,
    pub stones: usize,
    pub history: Vec<usize>,
    /// Indices of the playing area, row by row.
    pub points: Vec<usize>,
}

impl SearchBoard {
    pub fn new(position: &Position) -> SearchBoard {
        let variant = position.variant();
        let k = variant.k();
        let tables = [
            PatternTable::get(k, variant.overline_wins(Color::Black)),
            PatternTable::get(k, variant.overline_wins(Color::White)),
        ];
        let board: &Board = position.board();
        let points: Vec<usize> = board.points().map(Board::index).collect();
        let mut engine = SearchBoard {
            width: variant.width(),
            height: variant.height(),
            cells: Board::empty(variant.width(), variant.height()).cells,
            patterns: Box::new([[[0; PADDED]; 4]; 2]),
            tables,
            near: [0; PADDED],
            renju: variant.forbidden_policy().is_some(),
            hash: 0,
            to_move: Color::Black,
            stones: 0,
            history: Vec::with_capacity(points.len()),
            points,
        };
        for &i in &engine.points.clone() {
            engine.refresh(i);
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

    /// Whether `i` is a point of the board (not the wall around it).
    #[inline]
    pub fn points_contains(&self, i: usize) -> bool {
        i < PADDED && self.cells[i] != Cell::Wall
    }

    #[inline]
    pub fn near(&self, i: usize) -> bool {
        self.near[i] > 0
    }

    #[inline]
    pub fn pattern(&self, color: Color, direction: usize, i: usize) -> Pattern {
        Pattern::from_u8(self.patterns[side(color)][direction][i])
    }

    pub fn is_full(&self) -> bool {
        self.stones == self.points.len()
    }

    /// Whether `color` may play the empty point `i` (renju's forbidden points
    /// for black); a five is always allowed.
    pub fn legal(&self, i: usize, color: Color) -> bool {
        if !self.renju || color == Color::White {
            return true;
        }
        let mut fours = 0;
        let mut threes = 0;
        for d in 0..4 {
            match self.pattern(color, d, i) {
                Pattern::Five => return true,
                Pattern::Overline => return forbidden_at(&self.cells, i).is_none(),
                Pattern::OpenFour => fours += 2,
                Pattern::Four => fours += 1,
                Pattern::OpenThree => threes += 1,
                _ => {}
            }
        }
        if fours >= 2 || threes >= 2 {
            forbidden_at(&self.cells, i).is_none()
        } else {
            true
        }
    }

    fn place(&mut self, i: usize, color: Color) {
        self.cells[i] = Cell::stone(color);
        self.hash ^= zobrist()[side(color)][i];
        self.stones += 1;
        self.touch_near(i, 1);
        self.refresh_lines(i);
    }

    /// Plays `i` for the side to move.
    pub fn make(&mut self, i: usize) {
        let color = self.to_move;
        self.place(i, color);
        self.history.push(i);
        self.to_move = color.opponent();
    }

    /// Takes back the last move made.
    pub fn unmake(&mut self) {
        let i = self.history.pop().expect("a move to take back");
        let color = self.to_move.opponent();
        self.cells[i] = Cell::Empty;
        self.hash ^= zobrist()[side(color)][i];
        self.stones -= 1;
        self.touch_near(i, -1);
        self.refresh_lines(i);
        self.to_move = color;
    }

    fn touch_near(&mut self, i: usize, delta: i8) {
        for dy in -2isize..=2 {
            for dx in -2isize..=2 {
                let j = i as isize + dy * STRIDE as isize + dx;
                if (0..PADDED as isize).contains(&j) {
                    let n = &mut self.near[j as usize];
                    *n = n.wrapping_add_signed(delta);
                }
            }
        }
    }

    /// Recomputes the patterns of the points whose windows hold `i`.
    fn refresh_lines(&mut self, i: usize) {
        let reach = self.tables[0].reach;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            self.refresh_direction(i, d);
            for sign in [-1isize, 1] {
                let mut j = i as isize;
                for _ in 0..reach {
                    j += sign * step as isize;
                    if self.cells[j as usize] == Cell::Wall {
                        break;
                    }
                    self.refresh_direction(j as usize, d);
                }
            }
        }
    }

    fn refresh(&mut self, i: usize) {
        for d in 0..4 {
            self.refresh_direction(i, d);
        }
    }

    fn refresh_direction(&mut self, i: usize, d: usize) {
        if self.cells[i] != Cell::Empty {
            self.patterns[0][d][i] = 0;
            self.patterns[1][d][i] = 0;
            return;
        }
        for color in [Color::Black, Color::White] {
            let key = self.window_key(i, d, color);
            self.patterns[side(color)][d][i] = self.tables[side(color)].lookup(key) as u8;
        }
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
