//! Black's forbidden points in renju, by the international (RIF) rules.
//!
//! A black move is forbidden when it makes an overline (six or more), two or
//! more fours (a double-four, including two fours on one line), or two or more
//! threes (a double-three) — unless it makes exactly five, which always wins.
//! A four is a line where one more black stone makes exactly five. A three is a
//! line that one more black stone turns into a straight four (two points that
//! each make exactly five), where that stone neither makes a five at the same
//! time nor is itself forbidden: the definition is recursive, and this module
//! follows it to the end.

use std::fmt;

use super::Point;
use super::board::{Board, Cell, DIRECTIONS, PADDED};

/// Why a point is forbidden for black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ForbiddenKind {
    DoubleThree,
    DoubleFour,
    Overline,
}

impl ForbiddenKind {
    /// `double_three`, `double_four` or `overline`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ForbiddenKind::DoubleThree => "double_three",
            ForbiddenKind::DoubleFour => "double_four",
            ForbiddenKind::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbiddenKind::DoubleThree => "double-three",
            ForbiddenKind::DoubleFour => "double-four",
            ForbiddenKind::Overline => "overline",
        })
    }
}

type Cells = [Cell; PADDED];

/// Half the length of the window looked at along a line: five points of a
/// five through the centre, plus the point beyond it for the overline test.
pub(crate) const REACH: usize = 5;
pub(crate) const CENTRE: usize = REACH;
pub(crate) const SPAN: usize = 2 * REACH + 1;

/// The cells along one line through `index`, centre at `CENTRE`; everything
/// from the first wall outwards reads as wall.
#[inline]
fn line(cells: &Cells, index: usize, step: usize) -> [Cell; SPAN] {
    let mut out = [Cell::Wall; SPAN];
    out[CENTRE] = cells[index];
    let mut i = index;
    for slot in (0..CENTRE).rev() {
        i -= step;
        let c = cells[i];
        if c == Cell::Wall {
            break;
        }
        out[slot] = c;
    }
    let mut i = index;
    for slot in out.iter_mut().skip(CENTRE + 1) {
        i += step;
        let c = cells[i];
        if c == Cell::Wall {
            break;
        }
        *slot = c;
    }
    out
}

/// Length of the black run through slot `at` of a line.
#[inline]
fn black_run(line: &[Cell; SPAN], at: usize) -> (usize, usize) {
    let mut start = at;
    while start > 0 && line[start - 1] == Cell::Black {
        start -= 1;
    }
    let mut end = at;
    while end + 1 < SPAN && line[end + 1] == Cell::Black {
        end += 1;
    }
    (start, end)
}

/// The empty slots of `line` that would make exactly five through the centre.
/// At most two exist (proof: their fives must each avoid the other's point).
fn five_points(line: &mut [Cell; SPAN]) -> ([usize; 2], usize) {
    let mut found = [0; 2];
    let mut n = 0;
    for slot in 1..SPAN - 1 {
        if line[slot] != Cell::Empty || slot.abs_diff(CENTRE) > 4 {
            continue;
        }
        line[slot] = Cell::Black;
        let (start, end) = black_run(line, slot);
        line[slot] = Cell::Empty;
        if end - start + 1 == 5 && start <= CENTRE && CENTRE <= end {
            found[n] = slot;
            n += 1;
            if n == 2 {
                break;
            }
        }
    }
    (found, n)
}

/// How many fours the centre stone makes along this line: 0, 1 (a four or a
/// straight four) or 2 (two fours on one line).
fn fours_on_line(line: &mut [Cell; SPAN]) -> usize {
    let (points, n) = five_points(line);
    // Two five-points exactly five apart are the ends of one straight four.
    if n == 2 && points[1] - points[0] == 5 {
        1
    } else {
        n
    }
}

/// The points of this line where one more black stone makes a straight four
/// through the centre: the candidates for a three.
fn straight_four_points(line: &mut [Cell; SPAN]) -> ([usize; 4], usize) {
    let mut found = [0; 4];
    let mut n = 0;
    for slot in CENTRE - 3..=CENTRE + 3 {
        if line[slot] != Cell::Empty {
            continue;
        }
        line[slot] = Cell::Black;
        let (points, count) = five_points(line);
        line[slot] = Cell::Empty;
        if count == 2 && points[1] - points[0] == 5 && points[0] < slot && slot < points[1] {
            found[n] = slot;
            n += 1;
        }
    }
    (found, n)
}

/// What a black stone at the centre of a line makes along it: all the
/// forbidden test reads of one line before it follows a three's points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineFacts {
    /// The black run through the centre is exactly five.
    five: bool,
    /// It is six or more.
    overline: bool,
    /// Fours through the centre (0, 1, or 2 on one line); not counted
    /// past a five or an overline.
    fours: u8,
    /// The slots `CENTRE - 3 + bit` where one more black stone makes a
    /// straight four through the centre (the candidates for a three);
    /// none on a line that holds a four.
    three_points: u8,
}

impl LineFacts {
    /// The facts of `line`, whose centre holds a black stone.
    pub(crate) fn of(line: &mut [Cell; SPAN]) -> LineFacts {
        debug_assert_eq!(line[CENTRE], Cell::Black);
        let (start, end) = black_run(line, CENTRE);
        let run = end - start + 1;
        let mut facts = LineFacts {
            five: run == 5,
            overline: run > 5,
            ..LineFacts::default()
        };
        if run >= 5 {
            return facts;
        }
        facts.fours = fours_on_line(line) as u8;
        if facts.fours == 0 {
            let (slots, n) = straight_four_points(line);
            for &slot in &slots[..n] {
                facts.three_points |= 1 << (slot + 3 - CENTRE);
            }
        }
        facts
    }
}

/// How the recursive test reads the board: the facts of the four lines
/// through an empty point for a black stone there, given the black stones
/// the test has placed so far (the point judged, then the points of its
/// threes, one a level).
pub(crate) trait Lines {
    /// The facts of the lines through the empty point `index`, in
    /// [`DIRECTIONS`] order, with a black stone there.
    fn facts(&mut self, index: usize) -> [LineFacts; 4];
    /// A black stone goes on `index` for the points judged after.
    fn place(&mut self, index: usize);
    /// The stone the last `place` put on `index` comes off.
    fn unplace(&mut self, index: usize);
}

/// The lines read off a copy of the cells, the stones placed on it.
struct CellLines<'a> {
    cells: &'a mut Cells,
}

impl Lines for CellLines<'_> {
    fn facts(&mut self, index: usize) -> [LineFacts; 4] {
        DIRECTIONS.map(|step| {
            let mut l = line(self.cells, index, step);
            l[CENTRE] = Cell::Black;
            LineFacts::of(&mut l)
        })
    }

    fn place(&mut self, index: usize) {
        self.cells[index] = Cell::Black;
    }

    fn unplace(&mut self, index: usize) {
        self.cells[index] = Cell::Empty;
    }
}

/// What black's stone at `index` makes, if forbidden, `facts` being its
/// lines' (see [`Lines::facts`]).
fn judge_lines(
    lines: &mut impl Lines,
    index: usize,
    facts: [LineFacts; 4],
    work: &mut Work,
) -> Option<ForbiddenKind> {
    if facts.iter().any(|f| f.five) {
        return None;
    }
    if facts.iter().any(|f| f.overline) {
        return Some(ForbiddenKind::Overline);
    }
    if facts.iter().map(|f| f.fours).sum::<u8>() >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }
    // Threes: the recursive test of the completing points only where two
    // or more lines have the shape.
    if facts.iter().filter(|f| f.three_points != 0).count() < 2 {
        return None;
    }
    lines.place(index);
    let mut threes = 0;
    let mut verdict = None;
    for (f, &step) in facts.iter().zip(&DIRECTIONS) {
        let real_three = (0..7)
            .filter(|bit| f.three_points >> bit & 1 == 1)
            .any(|bit| {
                let q = (index as isize + (bit as isize - 3) * step as isize) as usize;
                let at_q = lines.facts(q);
                // A stone that makes a five at the same time does not count: by
                // the RIF definition a three becomes a straight four "without at
                // the same time a five in a row being made".
                if at_q.iter().any(|f| f.five) {
                    return false;
                }
                judge_at(lines, q, at_q, work).is_none()
            });
        if real_three {
            threes += 1;
            if threes >= 2 {
                verdict = Some(ForbiddenKind::DoubleThree);
                break;
            }
        }
    }
    lines.unplace(index);
    verdict
}

/// [`judge_lines`], a judgement spent from `work` first.
fn judge_at(
    lines: &mut impl Lines,
    index: usize,
    facts: [LineFacts; 4],
    work: &mut Work,
) -> Option<ForbiddenKind> {
    if !work.spend() {
        // Out of work: any answer will do, the caller throws it away.
        return None;
    }
    judge_lines(lines, index, facts, work)
}

/// Whether black may play the empty point `index`; the board is left as found.
fn judge(cells: &mut Cells, index: usize, work: &mut Work) -> Option<ForbiddenKind> {
    debug_assert_eq!(cells[index], Cell::Empty);
    let mut lines = CellLines { cells };
    let facts = lines.facts(index);
    judge_at(&mut lines, index, facts, work)
}

/// How many points the recursive three test may judge. The referee's
/// answer is unbounded; the engine's is bounded, so that no tangle of
/// threes can stall a search, and says "forbidden" when the bound is hit.
struct Work {
    left: Option<u32>,
    exhausted: bool,
}

impl Work {
    fn exact() -> Work {
        Work {
            left: None,
            exhausted: false,
        }
    }

    /// Far more than any position met in play needs (a few dozen at most).
    fn engine() -> Work {
        Work {
            left: Some(4096),
            exhausted: false,
        }
    }

    fn spend(&mut self) -> bool {
        match &mut self.left {
            None => true,
            Some(0) => {
                self.exhausted = true;
                false
            }
            Some(n) => {
                *n -= 1;
                true
            }
        }
    }
}

/// Why black may not play the empty point `index`, for the engine (which
/// reads the lines through `lines`: its own from the windows it keeps).
/// The answer is the referee's, unless the recursion needs more than
/// [`Work::engine`] judgements: then the point is called forbidden, so the
/// engine never plays a forbidden point.
pub(crate) fn forbidden_by(lines: &mut impl Lines, index: usize) -> Option<ForbiddenKind> {
    let mut work = Work::engine();
    let facts = lines.facts(index);
    let verdict = judge_at(lines, index, facts, &mut work);
    if work.exhausted {
        return Some(verdict.unwrap_or(ForbiddenKind::DoubleThree));
    }
    verdict
}

/// [`forbidden_by`] read off the cells of a board in the same layout: what
/// the engine's answer must be, for its tests.
#[cfg(test)]
pub(crate) fn forbidden_at(cells: &Cells, index: usize) -> Option<ForbiddenKind> {
    if cells[index] != Cell::Empty || !may_be_forbidden(cells, index) {
        return None;
    }
    let mut scratch = *cells;
    forbidden_by(
        &mut CellLines {
            cells: &mut scratch,
        },
        index,
    )
}

/// Could a black stone at `index` make anything forbidden at all? A cheap
/// count that rules out most points: a three needs two more black stones on
/// its line within reach, two fours on one line four more, an overline five.
fn may_be_forbidden(cells: &Cells, index: usize) -> bool {
    let mut lines_with_two = 0;
    for step in DIRECTIONS {
        let l = line(cells, index, step);
        let near = (CENTRE - 4..=CENTRE + 4)
            .filter(|&s| s != CENTRE && l[s] == Cell::Black)
            .count();
        let far = near
            + [0, SPAN - 1]
                .iter()
                .filter(|&&s| l[s] == Cell::Black)
                .count();
        if near >= 4 || far >= 5 {
            return true;
        }
        if near >= 2 {
            lines_with_two += 1;
        }
    }
    lines_with_two >= 2
}

impl Board {
    /// Why black may not play `p`, under renju rules; `None` if black may
    /// (also when `p` is taken or off the board).
    ///
    /// ```
    /// use gobang::rules::{Board, ForbiddenKind, Point};
    /// // Two open twos crossing at 7,7 make a double-three for black there.
    /// let board = Board::from_rows(&[
    ///     ".......", ".......", "...X...", "...X...", ".......", ".XX....", ".......",
    /// ]).unwrap();
    /// assert_eq!(board.forbidden_kind(Point::new(3, 5)), Some(ForbiddenKind::DoubleThree));
    /// ```
    pub fn forbidden_kind(&self, p: Point) -> Option<ForbiddenKind> {
        if !self.contains(p) || self.get(p).is_some() {
            return None;
        }
        let index = Board::index(p);
        if !may_be_forbidden(&self.cells, index) {
            return None;
        }
        let mut scratch = self.cells;
        judge(&mut scratch, index, &mut Work::exact())
    }

    /// Every point black may not play, under renju rules, row by row.
    pub fn forbidden_points(&self) -> Vec<(Point, ForbiddenKind)> {
        let mut scratch = self.cells;
        let mut out = Vec::new();
        for p in self.points() {
            let index = Board::index(p);
            if scratch[index] != Cell::Empty || !may_be_forbidden(&scratch, index) {
                continue;
            }
            if let Some(kind) = judge(&mut scratch, index, &mut Work::exact()) {
                out.push((p, kind));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize)]
    struct Case {
        board: Vec<String>,
    }

    #[test]
    fn the_engine_answer_is_the_referees_on_every_case() {
        let cases: Vec<Case> =
            serde_json::from_str(include_str!("../../tests/data/renju_forbidden_cases.json"))
                .unwrap();
        for case in cases {
            let board = Board::from_rows(&case.board).unwrap();
            for p in board.points() {
                let exact = board.forbidden_kind(p);
                let bounded = forbidden_at(&board.cells, Board::index(p));
                assert_eq!(exact, bounded, "{p}\n{board}");
            }
        }
    }
}
