//! The static evaluation: what each side could make with one more stone
//! on the empty points near the stones, by shape, weighted. The weights
//! are fitted to the outcomes of gobang's own games (`gobang tune`, see
//! `crate::tune`): renju's for each side to move, and one set for every rule
//! set without forbidden points (fitted on 15×15 freestyle; tic-tac-toe and
//! k in a row use it too).

use super::board::SearchBoard;
use super::patterns::Pattern;
use crate::rules::{Color, Point, Position, Variant};

/// Shapes counted for each side on each empty point: the six line
/// patterns below a five, then the combinations of a point's four lines.
/// The side to move's open four and double four are never counted (it wins
/// by them, and the search says so before it evaluates), so their weights
/// are never fitted and never used.
pub const SHAPES: usize = 9;
/// The side to move's shapes, the opponent's, and a constant (the tempo).
pub const FEATURES: usize = 2 * SHAPES + 1;

pub const SHAPE_NAMES: [&str; SHAPES] = [
    "two",
    "open two",
    "three",
    "open three",
    "four",
    "open four",
    "double four",
    "four-three",
    "double three",
];

/// The weights of the evaluation: what each shape is worth to the side to
/// move (`mine`) and against it (`theirs`, subtracted), and the tempo.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weights {
    pub mine: [i32; SHAPES],
    pub theirs: [i32; SHAPES],
    pub tempo: i32,
}

/// Renju with black to move (black's forbidden points change what every
/// shape is worth, and to whom).
pub const RENJU_BLACK: Weights = Weights {
    mine: [30, 38, 98, 286, 601, 4800, 30000, 9458, 1062],
    theirs: [-3, 45, 134, 208, 686, -2056, 3126, 857, -392],
    tempo: 178,
};

/// Renju with white to move.
pub const RENJU_WHITE: Weights = Weights {
    mine: [11, 50, 136, 310, 735, 4800, 30000, 13319, -65],
    theirs: [36, 20, 87, 140, 547, 1044, 83, 1477, -608],
    tempo: 283,
};

/// Every rule set without forbidden points.
pub const FREE: Weights = Weights {
    mine: [17, 49, 140, 298, 562, 4800, 30000, 9348, -143],
    theirs: [19, 33, 130, 194, 497, -3592, 4914, 1518, -158],
    tempo: 323,
};

/// An evaluation never reaches the scores of won and lost positions.
pub const LIMIT: i32 = 500_000;

impl Weights {
    /// The weights for `mover` to move under `variant`'s rules.
    pub fn for_mover(variant: &Variant, mover: Color) -> &'static Weights {
        Weights::named(variant, mover).1
    }

    /// The name of the constant [`Weights::for_mover`] gives.
    pub fn name(variant: &Variant, mover: Color) -> &'static str {
        Weights::named(variant, mover).0
    }

    fn named(variant: &Variant, mover: Color) -> (&'static str, &'static Weights) {
        match (variant.forbidden_policy(), mover) {
            (None, _) => ("FREE", &FREE),
            (Some(_), Color::Black) => ("RENJU_BLACK", &RENJU_BLACK),
            (Some(_), Color::White) => ("RENJU_WHITE", &RENJU_WHITE),
        }
    }

    /// One side's weights (`mine` or `theirs`) as a table by line pattern
    /// and by combination.
    pub fn table(side: &[i32; SHAPES]) -> ShapeTable {
        let mut lines = [0; 9];
        for (n, slot) in lines.iter_mut().enumerate() {
            if let Some(s) = line_shape(Pattern::from_u8(n as u8)) {
                *slot = side[s];
            }
        }
        ShapeTable {
            lines,
            combinations: [side[6], side[7], side[8]],
        }
    }

    /// The weights as one vector, in the order of [`features`].
    pub fn vector(&self) -> [f64; FEATURES] {
        let mut v = [0.0; FEATURES];
        for s in 0..SHAPES {
            v[s] = self.mine[s] as f64;
            v[SHAPES + s] = -self.theirs[s] as f64;
        }
        v[2 * SHAPES] = self.tempo as f64;
        v
    }

    /// Weights from a vector in the order of [`features`], rounded.
    pub fn from_vector(v: &[f64; FEATURES]) -> Weights {
        let mut w = Weights {
            mine: [0; SHAPES],
            theirs: [0; SHAPES],
            tempo: v[2 * SHAPES].round() as i32,
        };
        for s in 0..SHAPES {
            w.mine[s] = v[s].round() as i32;
            w.theirs[s] = -v[SHAPES + s].round() as i32;
        }
        w
    }
}

/// One side's weights looked up by pattern, for the search's scan (which
/// has already counted each point's fours and open threes).
#[derive(Clone, Copy, Debug)]
pub struct ShapeTable {
    lines: [i32; 9],
    /// Double four, four-three, double three.
    combinations: [i32; 3],
}

impl ShapeTable {
    /// The value of a point whose lines make `lines`, with `fours` fours
    /// (an open four counting two) and `open_threes` open threes.
    #[inline]
    pub fn value(&self, lines: &[Pattern; 4], fours: u8, open_threes: u8) -> i32 {
        let mut v = lines.iter().map(|&p| self.lines[p as usize]).sum::<i32>();
        if let Some(c) = combination(fours, open_threes) {
            v += self.combinations[c - 6];
        }
        v
    }
}

/// The shape a line pattern counts as (none for nothing, fives, overlines).
#[inline]
fn line_shape(p: Pattern) -> Option<usize> {
    match p {
        Pattern::Two => Some(0),
        Pattern::OpenTwo => Some(1),
        Pattern::Three => Some(2),
        Pattern::OpenThree => Some(3),
        Pattern::Four => Some(4),
        Pattern::OpenFour => Some(5),
        _ => None,
    }
}

/// The combination a point's lines make: two fours (an open four counts
/// two), a four and an open three, or two open threes.
#[inline]
fn combination(fours: u8, open_threes: u8) -> Option<usize> {
    if fours >= 2 {
        Some(6)
    } else if fours == 1 && open_threes >= 1 {
        Some(7)
    } else if open_threes >= 2 {
        Some(8)
    } else {
        None
    }
}

/// The patterns a stone of `color` on the empty point `i` makes.
#[inline]
pub fn lines(board: &SearchBoard, color: Color, i: usize) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| board.pattern(color, d, i))
}

/// The points the evaluation looks at: empty points near a stone (the
/// middle of an empty board).
pub fn counted(board: &SearchBoard, i: usize) -> bool {
    if !board.is_empty(i) {
        return false;
    }
    if board.stones == 0 {
        i == SearchBoard::index(Point::new(board.width / 2, board.height / 2))
    } else {
        board.near(i)
    }
}

/// What the evaluation counts in a quiet position, side to move first:
/// how many of each shape each side could make (the side to move only on
/// points it may play), and 1 for the tempo. `None` where a tactical search
/// decides the position (either side has a four, or the side to move a
/// winning four), which a static weight should not be fitted to.
pub fn features(position: &Position) -> Option<[i32; FEATURES]> {
    let board = SearchBoard::new(position);
    let me = board.to_move;
    let them = me.opponent();
    let mut x = [0; FEATURES];
    x[2 * SHAPES] = 1;
    for &i in &board.points {
        if !counted(&board, i) {
            continue;
        }
        let mine = lines(&board, me, i);
        let theirs = lines(&board, them, i);
        if mine.contains(&Pattern::Five) || theirs.contains(&Pattern::Five) {
            return None;
        }
        count(&mut x[SHAPES..2 * SHAPES], &theirs);
        if board.legal(i, me) && count(&mut x[..SHAPES], &mine) {
            return None;
        }
    }
    Some(x)
}

/// Adds a point's shapes to `x`; whether they make a winning four.
fn count(x: &mut [i32], lines: &[Pattern; 4]) -> bool {
    let (mut fours, mut open_threes) = (0u8, 0u8);
    for &p in lines {
        if let Some(s) = line_shape(p) {
            x[s] += 1;
        }
        match p {
            Pattern::OpenFour => fours += 2,
            Pattern::Four => fours += 1,
            Pattern::OpenThree => open_threes += 1,
            _ => {}
        }
    }
    if let Some(c) = combination(fours, open_threes) {
        x[c] += 1;
    }
    fours >= 2
}

/// The evaluation of a quiet position for the side to move: the weights
/// applied to the [`features`].
pub fn evaluate(weights: &Weights, x: &[i32; FEATURES]) -> i32 {
    let v = weights.vector();
    let sum: f64 = v.iter().zip(x).map(|(w, &n)| w * n as f64).sum();
    (sum as i32).clamp(-LIMIT, LIMIT)
}
