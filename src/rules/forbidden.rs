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
const REACH: usize = 5;
const CENTRE: usize = REACH;
const SPAN: usize = 2 * REACH + 1;

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

/// What black's stone at `index` (already on `cells`) makes, if forbidden.
fn judge_placed(cells: &mut Cells, index: usize, work: &mut Work) -> Option<ForbiddenKind> {
    let mut lines = DIRECTIONS.map(|step| line(cells, index, step));

    let mut overline = false;
    for l in &lines {
        let (start, end) = black_run(l, CENTRE);
        match end - start + 1 {
            5 => return None,
            6.. => overline = true,
            _ => {}
        }
    }
    if overline {
        return Some(ForbiddenKind::Overline);
    }

    let mut fours = 0;
    let mut has_four = [false; 4];
    for (d, l) in lines.iter_mut().enumerate() {
        let n = fours_on_line(l);
        has_four[d] = n > 0;
        fours += n;
    }
    if fours >= 2 {
        return Some(ForbiddenKind::DoubleFour);
    }

    // Threes: first the cheap shape test on every line, and only when two or
    // more lines have the shape, the recursive test of the completing points.
    let mut candidates = [([0usize; 4], 0usize); 4];
    let mut lines_with_shape = 0;
    for d in 0..4 {
        if has_four[d] {
            continue;
        }
        candidates[d] = straight_four_points(&mut lines[d]);
        if candidates[d].1 > 0 {
            lines_with_shape += 1;
        }
    }
    if lines_with_shape < 2 {
        return None;
    }
    let mut threes = 0;
    for (d, &(slots, n)) in candidates.iter().enumerate() {
        let step = DIRECTIONS[d];
        let real_three = slots[..n].iter().any(|&slot| {
            let q = (index as isize + (slot as isize - CENTRE as isize) * step as isize) as usize;
            // A stone that makes a five at the same time does not count: by
            // the RIF definition a three becomes a straight four "without at
            // the same time a five in a row being made".
            if makes_five(cells, q) {
                return false;
            }
            judge(cells, q, work).is_none()
        });
        if real_three {
            threes += 1;
            if threes >= 2 {
                return Some(ForbiddenKind::DoubleThree);
            }
        }
    }
    None
}

/// Whether a black stone on the empty point `index` would make exactly five
/// on some line.
fn makes_five(cells: &Cells, index: usize) -> bool {
    DIRECTIONS.iter().any(|&step| {
        let run = |forward: bool| {
            let mut i = index;
            let mut n = 0;
            loop {
                i = if forward { i + step } else { i - step };
                if cells[i] != Cell::Black {
                    return n;
                }
                n += 1;
            }
        };
        run(false) + run(true) + 1 == 5
    })
}

/// Whether black may play the empty point `index`; the board is left as found.
fn judge(cells: &mut Cells, index: usize, work: &mut Work) -> Option<ForbiddenKind> {
    debug_assert_eq!(cells[index], Cell::Empty);
    if !work.spend() {
        // Out of work: any answer will do, the caller throws it away.
        return None;
    }
    cells[index] = Cell::Black;
    let verdict = judge_placed(cells, index, work);
    cells[index] = Cell::Empty;
    verdict
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

/// Whether black may play the empty point `index` of `cells`, for the
/// engine, which keeps its own copy of the board in the same layout. The
/// answer is the referee's, unless the recursion needs more than
/// [`Work::engine`] judgements: then the point is called forbidden, so the
/// engine never plays a forbidden point.
pub(crate) fn forbidden_at(cells: &Cells, index: usize) -> Option<ForbiddenKind> {
    if cells[index] != Cell::Empty || !may_be_forbidden(cells, index) {
        return None;
    }
    let mut scratch = *cells;
    let mut work = Work::engine();
    let verdict = judge(&mut scratch, index, &mut work);
    if work.exhausted {
        return Some(verdict.unwrap_or(ForbiddenKind::DoubleThree));
    }
    verdict
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
