//! The stones on the board, in a flat array with a wall around it so that
//! walking along a line never needs a bounds check.

use std::fmt;

use super::error::BoardTextError;
use super::point::MAX_SIDE;
use super::{Color, Point};

/// Cells per padded row: the widest board plus a wall on each side.
pub(crate) const STRIDE: usize = MAX_SIDE as usize + 2;
pub(crate) const PADDED: usize = STRIDE * STRIDE;
/// Index steps along the four line directions: →, ↓, ↘, ↙.
pub(crate) const DIRECTIONS: [usize; 4] = [1, STRIDE, STRIDE + 1, STRIDE - 1];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Cell {
    Empty,
    Black,
    White,
    Wall,
}

impl Cell {
    pub(crate) fn stone(color: Color) -> Cell {
        match color {
            Color::Black => Cell::Black,
            Color::White => Cell::White,
        }
    }
}

/// The stones on a `width`×`height` board.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    width: u8,
    height: u8,
    stones: u16,
    pub(crate) cells: [Cell; PADDED],
}

impl Board {
    /// An empty board; sizes beyond 26 are clamped to 26.
    pub fn empty(width: u8, height: u8) -> Board {
        let width = width.clamp(1, MAX_SIDE);
        let height = height.clamp(1, MAX_SIDE);
        let mut cells = [Cell::Wall; PADDED];
        for y in 0..height {
            for x in 0..width {
                cells[Self::index(Point::new(x, y))] = Cell::Empty;
            }
        }
        Board {
            width,
            height,
            stones: 0,
            cells,
        }
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// How many stones are on the board.
    pub fn stone_count(&self) -> usize {
        self.stones as usize
    }

    pub fn is_full(&self) -> bool {
        self.stone_count() == self.width as usize * self.height as usize
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x < self.width && p.y < self.height
    }

    /// The stone at `p`, if any (`None` also off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        match self.cells[Self::index(p)] {
            Cell::Black => Some(Color::Black),
            Cell::White => Some(Color::White),
            _ => None,
        }
    }

    pub(crate) const fn index(p: Point) -> usize {
        (p.y as usize + 1) * STRIDE + p.x as usize + 1
    }

    pub(crate) const fn point_at(index: usize) -> Point {
        Point::new((index % STRIDE - 1) as u8, (index / STRIDE - 1) as u8)
    }

    /// Puts a stone on an empty point of the board.
    pub(crate) fn put(&mut self, p: Point, color: Color) {
        let i = Self::index(p);
        debug_assert_eq!(self.cells[i], Cell::Empty);
        self.cells[i] = Cell::stone(color);
        self.stones += 1;
    }

    /// Takes a stone off the board.
    pub(crate) fn take(&mut self, p: Point) {
        let i = Self::index(p);
        debug_assert!(matches!(self.cells[i], Cell::Black | Cell::White));
        self.cells[i] = Cell::Empty;
        self.stones -= 1;
    }

    /// Every point of the board, row by row from the top.
    pub fn points(&self) -> impl Iterator<Item = Point> + use<> {
        let (width, height) = (self.width, self.height);
        (0..height).flat_map(move |y| (0..width).map(move |x| Point::new(x, y)))
    }

    /// Same-coloured stones touching `index` in direction `step`: how many
    /// backwards and how many forwards (not counting the stone at `index`).
    #[inline]
    pub(crate) fn run(&self, index: usize, step: usize, cell: Cell) -> (usize, usize) {
        let mut back = 0;
        let mut i = index - step;
        while self.cells[i] == cell {
            back += 1;
            i -= step;
        }
        let mut forward = 0;
        let mut i = index + step;
        while self.cells[i] == cell {
            forward += 1;
            i += step;
        }
        (back, forward)
    }

    /// Reads a text board, top row first: `.` empty, `X` black, `O` white
    /// (lower case and `x`/`o` accepted). All rows must be equally long.
    pub fn from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Board, BoardTextError> {
        let height = rows.len();
        let width = rows.first().map_or(0, |r| r.as_ref().chars().count());
        if !(1..=MAX_SIDE as usize).contains(&height) {
            return Err(BoardTextError::RowCount {
                found: height,
                expected: None,
            });
        }
        if !(1..=MAX_SIDE as usize).contains(&width) {
            return Err(BoardTextError::RowLength {
                row: 0,
                found: width,
                expected: None,
            });
        }
        let mut board = Board::empty(width as u8, height as u8);
        for (y, row) in rows.iter().enumerate() {
            let row = row.as_ref();
            let found = row.chars().count();
            if found != width {
                return Err(BoardTextError::RowLength {
                    row: y,
                    found,
                    expected: Some(width as u8),
                });
            }
            for (x, c) in row.chars().enumerate() {
                let color = match c {
                    '.' | '+' | '-' => continue,
                    'X' | 'x' => Color::Black,
                    'O' | 'o' => Color::White,
                    found => return Err(BoardTextError::Character { row: y, x, found }),
                };
                board.put(Point::new(x as u8, y as u8), color);
            }
        }
        Ok(board)
    }

    /// The board as text, one string a row, top row first: `.` empty, `X`
    /// black, `O` white.
    pub fn rows(&self) -> Vec<String> {
        (0..self.height)
            .map(|y| {
                (0..self.width)
                    .map(|x| match self.get(Point::new(x, y)) {
                        Some(c) => c.symbol(),
                        None => '.',
                    })
                    .collect()
            })
            .collect()
    }

    /// The board with renju coordinates around it, for people reading it in a
    /// terminal; `last` is drawn in lower case.
    ///
    /// ```
    /// use gobang::rules::{Board, Point};
    /// let board = Board::empty(5, 5);
    /// assert!(board.diagram(None).starts_with(" 5 . . . . .\n"));
    /// ```
    pub fn diagram(&self, last: Option<Point>) -> String {
        let mut out = String::new();
        for y in 0..self.height {
            out.push_str(&format!("{:>2}", self.height - y));
            for x in 0..self.width {
                let p = Point::new(x, y);
                let c = match self.get(p) {
                    Some(color) if Some(p) == last => color.symbol().to_ascii_lowercase(),
                    Some(color) => color.symbol(),
                    None => '.',
                };
                out.push(' ');
                out.push(c);
            }
            out.push('\n');
        }
        out.push_str("  ");
        for x in 0..self.width {
            out.push(' ');
            out.push((b'a' + x) as char);
        }
        out.push('\n');
        out
    }
}

impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.rows().join("\n"))
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board {}×{}\n{}", self.width, self.height, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_point_round_trip_on_the_largest_board() {
        let board = Board::empty(26, 26);
        for p in board.points() {
            assert_eq!(Board::point_at(Board::index(p)), p);
            assert_eq!(board.cells[Board::index(p)], Cell::Empty);
        }
        assert_eq!(
            board.cells.iter().filter(|c| **c == Cell::Empty).count(),
            26 * 26
        );
    }

    #[test]
    fn a_wall_surrounds_every_board() {
        let board = Board::empty(3, 5);
        assert_eq!(
            board.cells.iter().filter(|c| **c == Cell::Empty).count(),
            15
        );
        assert_eq!(board.rows(), vec!["...", "...", "...", "...", "..."]);
    }

    #[test]
    fn runs_stop_at_the_wall_and_at_other_colours() {
        let mut board = Board::empty(5, 5);
        for x in [0, 1, 3] {
            board.put(Point::new(x, 2), Color::Black);
        }
        board.put(Point::new(4, 2), Color::White);
        let i = Board::index(Point::new(2, 2));
        assert_eq!(board.run(i, 1, Cell::Black), (2, 1));
    }
}
