//! Black's forbidden points judged from the windows the board keeps: the
//! referee's test (`rules::forbidden`), each line read with one lookup by
//! black's window key where the referee walks the cells (and copies the
//! board first). The verdicts are the referee's, point for point.

use std::sync::OnceLock;

use super::{POWERS_OF_THREE, SearchBoard};
use crate::engine::patterns::{EMPTY, OWN};
use crate::rules::ForbiddenKind;
use crate::rules::board::{Cell, STRIDE};
use crate::rules::forbidden::{CENTRE, LineFacts, Lines, REACH, SPAN, forbidden_by};

/// Each direction of `DIRECTIONS` as a step in x and y.
const UNITS: [(isize, isize); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// What a black stone makes along a line, by black's window key there:
/// renju's black looks `REACH` points a side, as the referee's lines do.
pub(super) fn facts_by_key() -> &'static [LineFacts] {
    static FACTS: OnceLock<Box<[LineFacts]>> = OnceLock::new();
    FACTS.get_or_init(|| {
        (0..POWERS_OF_THREE[2 * REACH])
            .map(|key| {
                let mut line = [Cell::Empty; SPAN];
                line[CENTRE] = Cell::Black;
                // Slots 0..REACH of a key are the offsets -REACH..-1, the
                // rest +1..+REACH; white and the wall block alike.
                for (slot, power) in POWERS_OF_THREE[..2 * REACH].iter().enumerate() {
                    let at = if slot < REACH { slot } else { slot + 1 };
                    line[at] = match (key / power % 3) as u32 {
                        EMPTY => Cell::Empty,
                        OWN => Cell::Black,
                        _ => Cell::White,
                    };
                }
                LineFacts::of(&mut line)
            })
            .collect()
    })
}

/// The lines of a board read by black's window keys, with the stones the
/// test places added to the keys they lie in.
struct KeyLines<'a> {
    board: &'a SearchBoard,
    placed: Vec<usize>,
}

impl Lines for KeyLines<'_> {
    #[inline]
    fn facts(&mut self, index: usize) -> [LineFacts; 4] {
        std::array::from_fn(|d| {
            // Black's key is the low half.
            let mut key = self.board.keys[d][index] as u32 as usize;
            for &stone in &self.placed {
                if let Some(slot) = slot_in_window(index, stone, d) {
                    key += POWERS_OF_THREE[slot];
                }
            }
            self.board.forbidden_facts[key]
        })
    }

    fn place(&mut self, index: usize) {
        self.placed.push(index);
    }

    fn unplace(&mut self, index: usize) {
        let last = self.placed.pop();
        debug_assert_eq!(last, Some(index));
    }
}

/// The slot of the point `stone` in the window around `index` along
/// direction `d`, if it lies in it (both points on the board, so no wall
/// lies between them).
fn slot_in_window(index: usize, stone: usize, d: usize) -> Option<usize> {
    let dx = (stone % STRIDE) as isize - (index % STRIDE) as isize;
    let dy = (stone / STRIDE) as isize - (index / STRIDE) as isize;
    let (ux, uy) = UNITS[d];
    // Points along the line are `k` steps away: ux is 1, -1 or 0.
    let k = if ux != 0 { dx * ux } else { dy };
    if k == 0 || k.unsigned_abs() > REACH || (dx, dy) != (k * ux, k * uy) {
        return None;
    }
    Some(if k < 0 {
        (REACH as isize + k) as usize
    } else {
        REACH + k as usize - 1
    })
}

impl SearchBoard {
    /// Why black may not play the empty point `i` (renju), judged from the
    /// windows: [`crate::rules::forbidden::forbidden_at`]'s answer.
    pub(super) fn forbidden(&self, i: usize) -> Option<ForbiddenKind> {
        forbidden_by(
            &mut KeyLines {
                board: self,
                placed: Vec::new(),
            },
            i,
        )
    }
}
