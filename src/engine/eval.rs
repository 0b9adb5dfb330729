//! The static evaluation: what each side could make with one more stone
//! on the empty points near the stones, by shape, weighted, and by class
//! (the point's four line patterns in any order), valued beyond what its
//! shapes make. The weights and class values are fitted to the outcomes of
//! gobang's own games (`gobang tune`, see `crate::tune`): renju's for each
//! side to move, and one set for every rule set without forbidden points
//! (fitted on 15×15 freestyle; tic-tac-toe and k in a row use it too).

use std::sync::OnceLock;

use super::board::{SHAPE_CODES, SearchBoard, shape_lines};
use super::patterns::{Pattern, Tally};
use crate::rules::{Color, Position, Variant};

/// Shapes counted for each side on each empty point: the six line
/// patterns below a five, then the combinations of a point's four lines.
/// The side to move's open four and double four are never counted (it wins
/// by them, and the search says so before it evaluates), so their weights
/// are never fitted and never used.
pub const SHAPES: usize = 13;
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
    "four and three",
    "open three and three",
    "three and three",
    "two open twos",
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
///
/// Renju's two sets fitted to Rapfi's judgment instead (`gobang tune
/// --from-record --outcome 0` on 5,870 positions of two 208-game matches
/// against Rapfi STRENGTH 60, each judged by the evaluation Rapfi reported
/// there; held-out log loss 0.6585 to 0.5547 with black to move, 0.5977 to
/// 0.5379 with white): against STRENGTH 60 at 200 ms, two matches each
/// paired game by game with one of these weights the same day (44.0 and
/// 50.7%), 40.4 and 39.9%: -7.2 points (95% ±5.9) over 416 pairs, as black
/// 0.0 (±9.2), as white -14.4 (±7.3), at 0.7 million positions a second
/// where these weights searched 1.0.
///
/// Nor fitted to the results of the expert's own positions against
/// full-strength Rapfi (`--from-record --judge first --outcome 1`, 6,762
/// positions of two 208-game matches at 200 ms, the tempos kept): two
/// matches each paired game by game with one of these weights played just
/// after it, -4.3 points (95% ±4.7) over 416 pairs, as white -5.8 (±5.5).
pub const RENJU_BLACK: Weights = Weights {
    mine: [
        10, -47, 49, 82, 351, 4800, 30000, 7834, 1186, 735, 353, 96, 46,
    ],
    theirs: [
        20, -48, 42, 64, 409, -398, 1511, 932, -197, 335, 232, 138, 30,
    ],
    tempo: 590,
};

/// Renju with white to move.
pub const RENJU_WHITE: Weights = Weights {
    mine: [
        24, -54, 57, 209, 400, 4800, 30000, 11313, -415, 639, 227, 172, 111,
    ],
    theirs: [
        13, -59, 9, 38, 379, 1728, -556, 1736, -669, 593, 260, 137, 62,
    ],
    tempo: -148,
};

/// Every rule set without forbidden points.
pub const FREE: Weights = Weights {
    mine: [
        18, 14, 36, 208, 355, 4800, 30000, 8202, 187, 702, 249, 123, 50,
    ],
    theirs: [18, 0, 36, 111, 289, -1527, 2866, 1639, 55, 592, 237, 90, 41],
    tempo: 212,
};

/// A set of weights by the name of its constant, with its class values
/// (see [`ClassValues`]): the file in `src/engine/eval` that `gobang tune
/// --classes` writes them to, and that file's text, compiled in.
struct Named {
    name: &'static str,
    weights: &'static Weights,
    class_file: &'static str,
    classes: &'static str,
    threat_file: &'static str,
    threats: &'static str,
}

macro_rules! named {
    ($name:literal, $weights:expr, $class_file:literal, $threat_file:literal) => {
        Named {
            name: $name,
            weights: $weights,
            class_file: $class_file,
            classes: include_str!(concat!("eval/", $class_file)),
            threat_file: $threat_file,
            threats: include_str!(concat!("eval/", $threat_file)),
        }
    };
}

/// Every set of weights, with the class and threat values that go with it.
/// Freestyle values the position with threat masks too (fitted on 2,000
/// games of its own, seed 7; class values fitted again on top of them
/// predicted no better, so they stay as fitted before; see the README).
/// Renju has two of each: the expert playing black values the position with
/// the threat masks and the class values fitted on top of them (`as-black/`),
/// and playing white without threat values, with the class values fitted
/// before them (renju's white has no threat values: with them, fitted with
/// the rest, white scored 6.6 points less against Rapfi STRENGTH 60 over 624
/// paired games; where the expert plays black alone, +2.5 points over
/// 1,248, see the README). White's class values were also fitted on games
/// where black searched three times as many nodes as white (`gobang tune
/// --black-nodes`), as the expert's white games against a stronger engine
/// are: -5.5 points over 416 pairs, so white keeps those fitted on even
/// games.
///
/// Nor did Rapfi's judgment teach better threat values (`gobang tune
/// --from-record --outcome 0 --threats`, 11,514 positions of four renju
/// matches against Rapfi, judged by the evaluation it reported): white's
/// masks fitted for the first time and black's fitted again (held-out log
/// loss 0.5572 to 0.5362 and 0.5528 to 0.5451 for white's search, 0.5603 to
/// 0.5332 and 0.5594 to 0.5470 for black's), against STRENGTH 60 at 200 ms,
/// paired game by game with two matches of the values in use the same day
/// (44.0 and 50.7%): 47.4 and 39.9%, -3.7 points (95% ±5.9) over 416 pairs,
/// as black -2.4 (±8.9), as white -5.0 (±7.7), white's search at 0.8
/// million positions a second where it searched 1.0 without masks. White's
/// class values fitted to that judgment alone (17,784 positions of six
/// such matches; held-out log loss 0.6259 to 0.5629 with black to move,
/// 0.5959 to 0.5501 with white), paired with the same two matches: 43.0 and
/// 40.9%, -5.4 points (±5.7) over 416 pairs, as white -13.5 (±7.8), as black
/// (played as before, the matches' noise) +2.6 (±8.3). A closer fit to a
/// stronger engine's judgment made white's search play worse.
const NAMED: [Named; SETS] = [
    named!("FREE", &FREE, "free.txt", "free-threats.txt"),
    named!(
        "RENJU_BLACK",
        &RENJU_BLACK,
        "renju-black.txt",
        "renju-black-threats.txt"
    ),
    named!(
        "RENJU_WHITE",
        &RENJU_WHITE,
        "renju-white.txt",
        "renju-white-threats.txt"
    ),
    named!(
        "RENJU_BLACK",
        &RENJU_BLACK,
        "as-black/renju-black.txt",
        "as-black/renju-black-threats.txt"
    ),
    named!(
        "RENJU_WHITE",
        &RENJU_WHITE,
        "as-black/renju-white.txt",
        "as-black/renju-white-threats.txt"
    ),
];

/// The sets of weights in [`NAMED`].
const SETS: usize = 5;

/// The class and threat values of each set of weights, in the order of
/// [`NAMED`], read once (the tables are part of the source: a test reads
/// each).
fn values() -> &'static [(ClassValues, ThreatValues); SETS] {
    static TABLES: OnceLock<[(ClassValues, ThreatValues); SETS]> = OnceLock::new();
    TABLES.get_or_init(|| {
        NAMED.each_ref().map(|named| {
            let bad = |what: &str, e: String| format!("the {what} values of {}: {e}", named.name);
            (
                ClassValues::parse(named.classes).unwrap_or_else(|e| panic!("{}", bad("class", e))),
                ThreatValues::parse(named.threats)
                    .unwrap_or_else(|e| panic!("{}", bad("threat", e))),
            )
        })
    })
}

/// An evaluation never reaches the scores of won and lost positions.
pub const LIMIT: i32 = 500_000;

impl Weights {
    /// The weights for `mover` to move under `variant`'s rules.
    pub fn for_mover(variant: &Variant, mover: Color) -> &'static Weights {
        Weights::named(variant, mover).1
    }

    /// The weights for `mover` to move under `variant`'s rules, as what
    /// each side's stone on a point is worth by the point's shape code, in
    /// a search for `player` (the side to move at its root).
    pub fn by_shape(variant: &Variant, mover: Color, player: Color) -> &'static ShapeValues {
        static TABLES: OnceLock<[ShapeValues; SETS]> = OnceLock::new();
        let tables = TABLES.get_or_init(|| {
            let values = values();
            std::array::from_fn(|n| ShapeValues::new(NAMED[n].weights, &values[n].0, &values[n].1))
        });
        &tables[Weights::which(variant, mover, player)]
    }

    /// The name of the constant [`Weights::for_mover`] gives.
    pub fn name(variant: &Variant, mover: Color) -> &'static str {
        Weights::named(variant, mover).0
    }

    fn named(variant: &Variant, mover: Color) -> (&'static str, &'static Weights) {
        // The weights are the same whichever side the search plays.
        let named = &NAMED[Weights::which(variant, mover, Color::White)];
        (named.name, named.weights)
    }

    /// The file `gobang tune --classes` writes the class values of the
    /// weights for `mover` under `variant`'s rules to, for a search by
    /// `player`.
    pub fn class_file(variant: &Variant, mover: Color, player: Color) -> &'static str {
        NAMED[Weights::which(variant, mover, player)].class_file
    }

    /// The file `gobang tune --threats` writes the threat values of the
    /// weights for `mover` under `variant`'s rules to, for a search by
    /// `player`.
    pub fn threat_file(variant: &Variant, mover: Color, player: Color) -> &'static str {
        NAMED[Weights::which(variant, mover, player)].threat_file
    }

    /// Which of [`NAMED`] values positions with `mover` to move under
    /// `variant`'s rules in a search for `player`.
    fn which(variant: &Variant, mover: Color, player: Color) -> usize {
        match (variant.forbidden_policy(), player, mover) {
            (None, _, _) => 0,
            (Some(_), Color::White, Color::Black) => 1,
            (Some(_), Color::White, Color::White) => 2,
            (Some(_), Color::Black, Color::Black) => 3,
            (Some(_), Color::Black, Color::White) => 4,
        }
    }

    /// One side's weights (`mine` or `theirs`) as a table by line pattern
    /// and by combination.
    fn table(side: &[i32; SHAPES]) -> ShapeTable {
        let mut lines = [0; 9];
        for (n, slot) in lines.iter_mut().enumerate() {
            if let Some(s) = line_shape(Pattern::from_u8(n as u8)) {
                *slot = side[s];
            }
        }
        let mut combinations = [0; COMBINATIONS];
        combinations.copy_from_slice(&side[FIRST_COMBINATION..]);
        ShapeTable {
            lines,
            combinations,
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

/// Weights by shape code (see [`SHAPE_CODES`]): what the side to move's
/// stone on a point of that shape is worth, what the opponent's is worth
/// against it, and the tempo — the evaluation the search sums point by point
/// — with the value of the position's threat mask (see [`ThreatValues`]).
///
/// A shape's entry in `mine` and `theirs` also holds the threat kind a stone
/// of that shape makes (see [`threat_kinds`]), which the search reads with
/// the value in one look-up: [`ShapeValues::split`] parts them.
pub struct ShapeValues {
    pub mine: Box<[i32]>,
    pub theirs: Box<[i32]>,
    pub tempo: i32,
    pub threats: Box<[i32; MASKS]>,
}

/// The bits below a [`ShapeValues`] entry's value that hold its threat kind.
const KIND_SHIFT: u32 = THREAT_KINDS as u32;

impl ShapeValues {
    fn new(weights: &Weights, classes: &ClassValues, threats: &ThreatValues) -> ShapeValues {
        // Where no mask is worth anything (renju's white),
        // no kind is held either, so the search spends nothing on masks
        // (black's suspect points judged in white's nodes cost a fifth of
        // the positions a second).
        let in_use = threats.in_use();
        let kinds = threat_kinds();
        let by_code = |side: &[i32; SHAPES], by_class: &[i32; CLASSES]| -> Box<[i32]> {
            let table = Weights::table(side);
            (0..SHAPE_CODES)
                .map(|code| {
                    let value = table.value(&shape_lines(code)) + by_class[class_of(code)];
                    value << KIND_SHIFT | if in_use { i32::from(kinds[code]) } else { 0 }
                })
                .collect()
        };
        ShapeValues {
            mine: by_code(&weights.mine, &classes.mine),
            theirs: by_code(&weights.theirs, &classes.theirs),
            tempo: weights.tempo,
            threats: Box::new(threats.0),
        }
    }

    /// An entry of `mine` or `theirs` as its value and its threat kind.
    #[inline]
    pub fn split(entry: i32) -> (i32, u8) {
        (entry >> KIND_SHIFT, (entry & ((1 << KIND_SHIFT) - 1)) as u8)
    }
}

/// A point's four line patterns in any order: the classes of points the
/// evaluation's table tells apart (four of nine patterns, repeats allowed).
pub const CLASSES: usize = 495;

/// The classes: of each shape code, and the shape code of each class with
/// its patterns strongest first.
struct Classes {
    of: Box<[u16]>,
    sorted: Vec<usize>,
}

fn classes() -> &'static Classes {
    static CLASSES_: OnceLock<Classes> = OnceLock::new();
    CLASSES_.get_or_init(|| {
        let mut by_sorted = vec![u16::MAX; SHAPE_CODES];
        let mut sorted_codes = Vec::with_capacity(CLASSES);
        let of = (0..SHAPE_CODES)
            .map(|code| {
                let sorted = sorted_code(code);
                if by_sorted[sorted] == u16::MAX {
                    by_sorted[sorted] = sorted_codes.len() as u16;
                    sorted_codes.push(sorted);
                }
                by_sorted[sorted]
            })
            .collect();
        Classes {
            of,
            sorted: sorted_codes,
        }
    })
}

/// The class of a shape code (see [`SHAPE_CODES`]).
pub fn class_of(code: usize) -> usize {
    usize::from(classes().of[code])
}

/// The shape code with the same patterns, strongest on direction 0.
fn sorted_code(code: usize) -> usize {
    let mut lines = shape_lines(code);
    lines.sort_by(|a, b| b.cmp(a));
    lines.iter().rev().fold(0, |c, &p| c * 9 + p as usize)
}

/// Reads a file of values by name, a name and its `N` values a line
/// (`form` says so in an error), blank lines and `#` comments skipped:
/// `set` gets each line's name, as its index among `names`, and values.
fn read_named<const N: usize>(
    text: &str,
    names: impl Iterator<Item = String>,
    form: &str,
    mut set: impl FnMut(usize, [i32; N]),
) -> Result<(), String> {
    let index: std::collections::HashMap<String, usize> =
        names.enumerate().map(|(n, name)| (name, n)).collect();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = || format!("line {}: not `{form}`: {line:?}", n + 1);
        let mut words = line.split_whitespace();
        let at = *words.next().and_then(|w| index.get(w)).ok_or_else(bad)?;
        let mut values = [0; N];
        for value in &mut values {
            *value = words.next().and_then(|w| w.parse().ok()).ok_or_else(bad)?;
        }
        if words.next().is_some() {
            return Err(bad());
        }
        set(at, values);
    }
    Ok(())
}

/// A class's name: its patterns, strongest first (`OpenThree+Two+None+None`).
pub fn class_name(class: usize) -> String {
    shape_lines(classes().sorted[class])
        .iter()
        .map(|p| format!("{p:?}"))
        .collect::<Vec<_>>()
        .join("+")
}

/// What a class is worth beyond what its lines and combination make, to
/// the side to move (`mine`) and against it (`theirs`): fitted by class
/// where the shape weights share one value among many.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassValues {
    pub mine: [i32; CLASSES],
    pub theirs: [i32; CLASSES],
}

impl ClassValues {
    pub const ZERO: ClassValues = ClassValues {
        mine: [0; CLASSES],
        theirs: [0; CLASSES],
    };

    /// Reads `name mine theirs` lines (classes not listed are worth 0).
    pub fn parse(text: &str) -> Result<ClassValues, String> {
        let mut values = ClassValues::ZERO;
        read_named(
            text,
            (0..CLASSES).map(class_name),
            "class mine theirs",
            |class, [mine, theirs]| {
                values.mine[class] = mine;
                values.theirs[class] = theirs;
            },
        )?;
        Ok(values)
    }

    /// The lines [`ClassValues::parse`] reads, classes worth 0 left out.
    pub fn to_text(&self) -> String {
        (0..CLASSES)
            .filter(|&c| self.mine[c] != 0 || self.theirs[c] != 0)
            .map(|c| format!("{} {} {}\n", class_name(c), self.mine[c], self.theirs[c]))
            .collect()
    }

    /// What the class values add to an evaluation of `counts` (see
    /// [`Features::classes`]).
    pub fn applied(&self, counts: &[(u16, u16)]) -> f64 {
        counts
            .iter()
            .map(|&(k, n)| {
                let k = usize::from(k);
                let value = match k.checked_sub(CLASSES) {
                    None => self.mine[k],
                    Some(theirs) => -self.theirs[theirs],
                };
                f64::from(value) * f64::from(n)
            })
            .sum()
    }

    /// The class values that go with [`Weights::for_mover`] in a search
    /// for `player`.
    pub fn for_mover(variant: &Variant, mover: Color, player: Color) -> &'static ClassValues {
        &values()[Weights::which(variant, mover, player)].0
    }
}

/// The threats a stone on a point can make, strongest only (see
/// [`threat_kind`]); a position's threat mask says which of them each side
/// has anywhere, and whether the side to move faces an open three.
pub const THREAT_KINDS: usize = 4;
const THREAT_KIND_NAMES: [&str; THREAT_KINDS] = ["four-three", "four", "three-three", "three"];
/// Bits of a threat mask: the first says the opponent has an open three
/// (a point where they would make an open four or two fours), then the
/// side to move's [`THREAT_KINDS`], then the opponent's.
pub const MASK_BITS: usize = 1 + 2 * THREAT_KINDS;
pub const MASKS: usize = 1 << MASK_BITS;
/// The opponent's open three, in a threat mask.
pub const FACING_THREE: u16 = 1;
/// The kinds whose points may be forbidden to black (two threes, or two
/// fours), as bits of [`threat_kinds`]: a position's mask counts them for
/// black only where black may play.
pub const SUSPECT_KINDS: u8 = 0b0101;

/// The strongest threat a stone making `lines` makes, as an index into
/// [`THREAT_KINDS`]: a four with another four or an open three; a four; two
/// open threes, or an open three with a three or an open two; an open three.
fn threat_kind(lines: &[Pattern; 4]) -> Option<usize> {
    let Tally {
        fours,
        open_threes,
        threes,
        open_twos,
        ..
    } = Tally::of(lines);
    match (fours, open_threes) {
        (2.., _) | (1, 1..) => Some(0),
        (1, 0) => Some(1),
        (0, 2..) => Some(2),
        (0, 1) if threes + open_twos >= 1 => Some(2),
        (0, 1) => Some(3),
        _ => None,
    }
}

/// By shape code (see [`SHAPE_CODES`]): the bit of the threat kind a stone
/// there makes (bit n for kind n), or 0.
pub fn threat_kinds() -> &'static [u8] {
    static KINDS: OnceLock<Box<[u8]>> = OnceLock::new();
    KINDS.get_or_init(|| {
        (0..SHAPE_CODES)
            .map(|code| threat_kind(&shape_lines(code)).map_or(0, |k| 1 << k))
            .collect()
    })
}

/// A threat mask from its parts: whether the side to move faces an open
/// three, and the kinds each side has (bits of [`threat_kinds`]).
#[inline]
pub fn threat_mask(facing_three: bool, mine: u8, theirs: u8) -> u16 {
    u16::from(facing_three) | u16::from(mine) << 1 | u16::from(theirs) << (1 + THREAT_KINDS)
}

/// A threat mask's name: its parts joined by `+` (`facing-three+four+their-three`),
/// or `none`.
pub fn mask_name(mask: usize) -> String {
    let mut parts = Vec::new();
    if mask as u16 & FACING_THREE != 0 {
        parts.push("facing-three".to_owned());
    }
    for (k, name) in THREAT_KIND_NAMES.iter().enumerate() {
        if mask >> (1 + k) & 1 != 0 {
            parts.push((*name).to_owned());
        }
    }
    for (k, name) in THREAT_KIND_NAMES.iter().enumerate() {
        if mask >> (1 + THREAT_KINDS + k) & 1 != 0 {
            parts.push(format!("their-{name}"));
        }
    }
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join("+")
    }
}

/// What the whole position's threats are worth to the side to move, by
/// its threat mask: which threats each side has anywhere, rather than
/// how many points make them, as Rapfi's classical evaluation values them
/// (a second four-three point adds little to the first; an open three of
/// the opponent's changes what the side to move's own threats are worth).
#[derive(Clone, Debug, PartialEq)]
pub struct ThreatValues(pub [i32; MASKS]);

impl ThreatValues {
    pub const ZERO: ThreatValues = ThreatValues([0; MASKS]);

    /// Reads `mask value` lines, the mask by its [`mask_name`] (masks not
    /// listed are worth 0).
    pub fn parse(text: &str) -> Result<ThreatValues, String> {
        let mut values = ThreatValues::ZERO;
        read_named(
            text,
            (0..MASKS).map(mask_name),
            "mask value",
            |mask, [value]| {
                values.0[mask] = value;
            },
        )?;
        Ok(values)
    }

    /// The lines [`ThreatValues::parse`] reads, masks worth 0 left out.
    pub fn to_text(&self) -> String {
        (0..MASKS)
            .filter(|&m| self.0[m] != 0)
            .map(|m| format!("{} {}\n", mask_name(m), self.0[m]))
            .collect()
    }

    /// The threat values that go with [`Weights::for_mover`] in a search
    /// for `player`.
    pub fn for_mover(variant: &Variant, mover: Color, player: Color) -> &'static ThreatValues {
        &values()[Weights::which(variant, mover, player)].1
    }

    /// Whether any mask is worth anything: if none is, the search does not
    /// work out the masks at all.
    pub fn in_use(&self) -> bool {
        self.0.iter().any(|&v| v != 0)
    }

    /// What the threat values add to an evaluation of a position with `mask`.
    pub fn applied(&self, mask: u16) -> f64 {
        f64::from(self.0[usize::from(mask)])
    }
}

/// One side's weights by line pattern and by combination.
#[derive(Clone, Copy, Debug)]
struct ShapeTable {
    lines: [i32; 9],
    /// The combinations, in the order of [`SHAPE_NAMES`] from the double
    /// four on.
    combinations: [i32; COMBINATIONS],
}

/// The combinations of a point's lines the evaluation tells apart: the
/// shapes from the double four on.
const FIRST_COMBINATION: usize = 6;
const COMBINATIONS: usize = SHAPES - FIRST_COMBINATION;

impl ShapeTable {
    /// The value of a point whose lines make `lines`.
    fn value(&self, lines: &[Pattern; 4]) -> i32 {
        let mut v = lines.iter().map(|&p| self.lines[p as usize]).sum::<i32>();
        if let Some(c) = combination(lines) {
            v += self.combinations[c - FIRST_COMBINATION];
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

/// The strongest combination a point's lines make, if any: two fours (an
/// open four counts two), a four and an open three, two open threes; then
/// a four with a three or an open two, an open three with a three or an
/// open two, two threes or a three and an open two, two open twos.
fn combination(lines: &[Pattern; 4]) -> Option<usize> {
    let Tally {
        fours,
        open_threes,
        threes,
        open_twos,
        ..
    } = Tally::of(lines);
    let builders = threes + open_twos;
    Some(match (fours, open_threes) {
        (2.., _) => 6,
        (1, 1..) => 7,
        (0, 2..) => 8,
        (1, 0) if builders >= 1 => 9,
        (0, 1) if builders >= 1 => 10,
        (0, 0) if threes >= 2 || (threes >= 1 && open_twos >= 1) => 11,
        (0, 0) if open_twos >= 2 => 12,
        _ => return None,
    })
}

/// The patterns a stone of `color` on the empty point `i` makes.
#[inline]
pub fn lines(board: &SearchBoard, color: Color, i: usize) -> [Pattern; 4] {
    [0, 1, 2, 3].map(|d| board.pattern(color, d, i))
}

/// What the evaluation counts in a quiet position, side to move first.
#[derive(Clone, Debug, PartialEq)]
pub struct Features {
    /// How many of each shape each side could make (the side to move only
    /// on points it may play), and 1 for the tempo.
    pub shapes: [i32; FEATURES],
    /// How many points of each class each side could play on, as (index,
    /// count) where the count is not 0: the side to move's classes are
    /// indices `0..CLASSES`, the opponent's `CLASSES..2 * CLASSES`.
    pub classes: Vec<(u16, u16)>,
    /// The position's threat mask (see [`ThreatValues`]).
    pub mask: u16,
}

/// The [`Features`] of a quiet position. `None` where a tactical search
/// decides the position (either side has a four, or the side to move a
/// winning four), which a static weight should not be fitted to.
pub fn features(position: &Position) -> Option<Features> {
    let board = SearchBoard::new(position);
    let me = board.to_move;
    let them = me.opponent();
    let mut x = [0; FEATURES];
    x[2 * SHAPES] = 1;
    let mut classes = vec![0u16; 2 * CLASSES];
    let kinds = threat_kinds();
    let (mut my_kinds, mut their_kinds, mut facing_three) = (0u8, 0u8, false);
    for i in board.nearby() {
        let mine = lines(&board, me, i);
        let theirs = lines(&board, them, i);
        if mine.contains(&Pattern::Five) || theirs.contains(&Pattern::Five) {
            return None;
        }
        count(&mut x[SHAPES..2 * SHAPES], &theirs);
        classes[CLASSES + class_of(board.shape(them, i))] += 1;
        let their_kind = kinds[board.shape(them, i)];
        if their_kind != 0 && (their_kind & SUSPECT_KINDS == 0 || board.legal(i, them)) {
            their_kinds |= their_kind;
            facing_three |= Tally::of(&theirs).fours >= 2;
        }
        if board.legal(i, me) {
            if count(&mut x[..SHAPES], &mine) {
                return None;
            }
            classes[class_of(board.shape(me, i))] += 1;
            my_kinds |= kinds[board.shape(me, i)];
        }
    }
    Some(Features {
        shapes: x,
        classes: (0..).zip(classes).filter(|&(_, n)| n > 0).collect(),
        mask: threat_mask(facing_three, my_kinds, their_kinds),
    })
}

/// Adds a point's shapes to `x`; whether they make a winning four.
fn count(x: &mut [i32], lines: &[Pattern; 4]) -> bool {
    for &p in lines {
        if let Some(s) = line_shape(p) {
            x[s] += 1;
        }
    }
    let c = combination(lines);
    if let Some(c) = c {
        x[c] += 1;
    }
    // The first combination is the double four.
    c == Some(FIRST_COMBINATION)
}

/// The evaluation of a quiet position for the side to move: the weights
/// the class values and the threat values applied to the [`features`].
pub fn evaluate(
    weights: &Weights,
    classes: &ClassValues,
    threats: &ThreatValues,
    x: &Features,
) -> i32 {
    let v = weights.vector();
    let shapes: f64 = v.iter().zip(&x.shapes).map(|(w, &n)| w * n as f64).sum();
    ((shapes + classes.applied(&x.classes) + threats.applied(x.mask)) as i32).clamp(-LIMIT, LIMIT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_class_is_four_line_patterns_in_any_order() {
        let classes: std::collections::HashSet<usize> = (0..SHAPE_CODES).map(class_of).collect();
        assert_eq!(classes.len(), CLASSES);
        assert_eq!(classes.iter().max(), Some(&(CLASSES - 1)));
        // The same patterns on other lines are the same class.
        let code = |lines: [usize; 4]| lines.iter().rev().fold(0, |c, &p| c * 9 + p);
        assert_eq!(class_of(code([4, 0, 2, 1])), class_of(code([1, 2, 0, 4])));
        assert_ne!(class_of(code([4, 0, 2, 1])), class_of(code([4, 0, 2, 2])));
        assert_eq!(
            class_name(class_of(code([4, 0, 2, 1]))),
            "OpenThree+OpenTwo+Two+None"
        );
    }

    #[test]
    fn a_threat_mask_names_each_sides_strongest_threats() {
        let code = |lines: [Pattern; 4]| lines.iter().rev().fold(0, |c, &p| c * 9 + p as usize);
        use Pattern::*;
        let kind = |lines| threat_kinds()[code(lines)];
        assert_eq!(kind([Four, OpenThree, None, None]), 0b0001, "a four-three");
        assert_eq!(kind([Four, Four, None, None]), 0b0001, "two fours");
        assert_eq!(kind([Four, Three, Two, None]), 0b0010, "a four");
        assert_eq!(
            kind([OpenThree, None, OpenThree, None]),
            0b0100,
            "two threes"
        );
        assert_eq!(
            kind([OpenThree, OpenTwo, None, None]),
            0b0100,
            "a three and a two"
        );
        assert_eq!(kind([None, OpenThree, Two, None]), 0b1000, "a three");
        assert_eq!(kind([OpenTwo, OpenTwo, Three, Three]), 0, "no threat");
        let mask = threat_mask(true, 0b0010, 0b1001);
        assert_eq!(
            mask_name(usize::from(mask)),
            "facing-three+four+their-four-three+their-three"
        );
        assert_eq!(mask_name(0), "none");
        let names: std::collections::HashSet<String> = (0..MASKS).map(mask_name).collect();
        assert_eq!(names.len(), MASKS, "every mask has a name of its own");
    }

    #[test]
    fn threat_values_read_back_as_written_and_the_tables_in_use_read() {
        let mut values = ThreatValues::ZERO;
        values.0[0] = 12;
        values.0[MASKS - 1] = -340;
        let text = values.to_text();
        assert_eq!(text.lines().count(), 2);
        assert_eq!(ThreatValues::parse(&text), Ok(values));
        assert!(
            ThreatValues::parse("four+facing-three 5").is_err(),
            "out of order"
        );
        assert!(ThreatValues::parse("four").is_err(), "no value");
        assert!(ThreatValues::parse("four 1 2").is_err(), "a value too many");
        for named in &NAMED {
            assert!(ThreatValues::parse(named.threats).is_ok(), "{}", named.name);
        }
    }

    /// In renju the expert values threat masks only when it plays black
    /// (as white they cost it points: see [`NAMED`]); each colour's values
    /// are its own, and the other rule sets have one set for both, which
    /// values the masks.
    #[test]
    fn renju_values_threat_masks_only_for_black() {
        let renju = Variant::renju(crate::rules::ForbiddenPolicy::Reject);
        let free = Variant::freestyle(15).unwrap();
        for mover in [Color::Black, Color::White] {
            assert_eq!(
                ThreatValues::for_mover(&renju, mover, Color::White),
                &ThreatValues::ZERO
            );
            assert_ne!(
                ThreatValues::for_mover(&renju, mover, Color::Black),
                &ThreatValues::ZERO
            );
            assert_ne!(
                ClassValues::for_mover(&renju, mover, Color::Black),
                ClassValues::for_mover(&renju, mover, Color::White)
            );
            assert_eq!(
                Weights::by_shape(&renju, mover, Color::Black).mine.len(),
                SHAPE_CODES
            );
            assert_ne!(
                ThreatValues::for_mover(&free, mover, Color::White),
                &ThreatValues::ZERO
            );
            assert!(std::ptr::eq(
                Weights::by_shape(&free, mover, Color::Black),
                Weights::by_shape(&free, mover, Color::White)
            ));
        }
    }

    #[test]
    fn class_values_read_back_as_written_and_the_tables_in_use_read() {
        let mut values = ClassValues::ZERO;
        values.mine[7] = 120;
        values.theirs[7] = -5;
        values.theirs[494] = 33;
        let text = values.to_text();
        assert_eq!(text.lines().count(), 2);
        assert_eq!(ClassValues::parse(&text), Ok(values));
        assert!(
            ClassValues::parse("Three+Four+None+None 1 2").is_err(),
            "not strongest first"
        );
        assert!(
            ClassValues::parse("Three+None+None+None 1").is_err(),
            "a value short"
        );
        assert!(
            ClassValues::parse("Three+None+None+None 1 2 3").is_err(),
            "a value too many"
        );
        for named in &NAMED {
            assert!(ClassValues::parse(named.classes).is_ok(), "{}", named.name);
        }
    }
}
