//! The 26 standard renju openings: the first three stones (black at the
//! centre, white next to it, black within two points of the centre) by
//! name, in every orientation of the board.

use super::symmetry::Symmetry;
use crate::rules::Point;

/// Whether white's first stone stands straight or diagonally next to the
/// centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpeningKind {
    Direct,
    Indirect,
}

impl OpeningKind {
    pub const fn as_str(self) -> &'static str {
        match self {
            OpeningKind::Direct => "direct",
            OpeningKind::Indirect => "indirect",
        }
    }
}

/// One of the 26 named openings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NamedOpening {
    /// `D1`–`D13` (direct) or `I1`–`I13` (indirect).
    pub id: &'static str,
    pub name: &'static str,
    pub kanji: &'static str,
    pub kind: OpeningKind,
    /// Stones 2 and 3 relative to the centre, y down, in the orientation
    /// where white's stone is above (direct) or above right (indirect).
    offsets: [(i8, i8); 2],
}

const fn named(
    id: &'static str,
    name: &'static str,
    kanji: &'static str,
    second: (i8, i8),
    third: (i8, i8),
) -> NamedOpening {
    NamedOpening {
        id,
        name,
        kanji,
        kind: if second.0 == 0 {
            OpeningKind::Direct
        } else {
            OpeningKind::Indirect
        },
        offsets: [second, third],
    }
}

/// The 26, in their customary order (direct, then indirect).
pub const OPENINGS: [NamedOpening; 26] = [
    named("D1", "Kansei", "寒星", (0, -1), (0, -2)),
    named("D2", "Keigetsu", "渓月", (0, -1), (1, -2)),
    named("D3", "Sosei", "疎星", (0, -1), (2, -2)),
    named("D4", "Kagetsu", "花月", (0, -1), (1, -1)),
    named("D5", "Zangetsu", "残月", (0, -1), (2, -1)),
    named("D6", "Ugetsu", "雨月", (0, -1), (1, 0)),
    named("D7", "Kinsei", "金星", (0, -1), (2, 0)),
    named("D8", "Shogetsu", "松月", (0, -1), (0, 1)),
    named("D9", "Kyugetsu", "丘月", (0, -1), (1, 1)),
    named("D10", "Shingetsu", "新月", (0, -1), (2, 1)),
    named("D11", "Zuisei", "瑞星", (0, -1), (0, 2)),
    named("D12", "Sangetsu", "山月", (0, -1), (1, 2)),
    named("D13", "Yusei", "遊星", (0, -1), (2, 2)),
    named("I1", "Chosei", "長星", (1, -1), (2, -2)),
    named("I2", "Kyogetsu", "峡月", (1, -1), (2, -1)),
    named("I3", "Kosei", "恒星", (1, -1), (2, 0)),
    named("I4", "Suigetsu", "水月", (1, -1), (2, 1)),
    named("I5", "Ryusei", "流星", (1, -1), (2, 2)),
    named("I6", "Ungetsu", "雲月", (1, -1), (1, 0)),
    named("I7", "Hogetsu", "浦月", (1, -1), (1, 1)),
    named("I8", "Rangetsu", "嵐月", (1, -1), (1, 2)),
    named("I9", "Gingetsu", "銀月", (1, -1), (0, 1)),
    named("I10", "Myojo", "明星", (1, -1), (0, 2)),
    named("I11", "Shagetsu", "斜月", (1, -1), (-1, 1)),
    named("I12", "Meigetsu", "名月", (1, -1), (-1, 2)),
    named("I13", "Suisei", "彗星", (1, -1), (-2, 2)),
];

impl NamedOpening {
    /// The three stones of this opening on a `side`×`side` board (odd, at
    /// least 5), in its customary orientation.
    pub fn stones(&self, side: u8) -> [Point; 3] {
        let c = (side / 2) as i8;
        let at = |(dx, dy): (i8, i8)| Point::new((c + dx) as u8, (c + dy) as u8);
        [
            Point::new(c as u8, c as u8),
            at(self.offsets[0]),
            at(self.offsets[1]),
        ]
    }

    /// The opening the first three moves of a game on a `side`×`side` board
    /// make, in any of the eight orientations.
    ///
    /// ```
    /// use gobang::rules::{NamedOpening, Point};
    /// // h8, i9, j10 on 15×15: Chosei, the indirect opening along the diagonal.
    /// let moves = [Point::new(7, 7), Point::new(8, 6), Point::new(9, 5)];
    /// assert_eq!(NamedOpening::of(&moves, 15).unwrap().name, "Chosei");
    /// ```
    pub fn of(moves: &[Point], side: u8) -> Option<&'static NamedOpening> {
        if moves.len() < 3 || side.is_multiple_of(2) || side < 5 {
            return None;
        }
        OPENINGS.iter().find(|opening| {
            let stones = opening.stones(side);
            Symmetry::ALL
                .iter()
                .any(|s| (0..3).all(|i| s.apply(stones[i], side) == moves[i]))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_openings_are_the_same_up_to_symmetry() {
        for (i, a) in OPENINGS.iter().enumerate() {
            for s in Symmetry::ALL {
                let moved = a.stones(15).map(|p| s.apply(p, 15));
                assert_eq!(NamedOpening::of(&moved, 15).unwrap().id, a.id);
            }
            for b in &OPENINGS[i + 1..] {
                assert_ne!(a.stones(15), b.stones(15));
            }
        }
    }
}
