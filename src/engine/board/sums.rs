//! The evaluation's sums over the points near a stone, kept move by move:
//! what a search's scan of every such point would add up, so that a node
//! reads its value and its threats without visiting the points.
//!
//! Each point near a stone adds, for each side to move, its own shape's
//! value less the opponent's shape's value against it, and the threat kind
//! of each (counted, so that taking a point away takes its kind away only
//! when no other point has it). Which points hold a five, a four or a
//! winning four for each side, and which of black's might be forbidden, are
//! kept as bits. A move changes the points on its four lines and brings new
//! points near; each change takes the point's old part out and puts its
//! new part in. Taking the move back restores the sums as they were.
//!
//! Black's forbidden points (renju) are not known here: a point is added as
//! if black may play it, and the scan takes out the few suspects the
//! referee's test forbids (see `SearchBoard::legal`).

use super::{Nearby, SearchBoard, WORDS, may_be_forbidden, side};
use crate::engine::eval::ShapeValues;
use crate::rules::Color;

/// A shape's flag (see [`Sums::with`]): a stone there makes a five.
pub const FIVE: u8 = 1;
/// A stone there makes a four.
pub const FOUR: u8 = 2;
/// A stone there makes two fours or an open four: a win, unless blocked by
/// a five.
pub const WINNING_FOUR: u8 = 4;

/// Each threat kind's count takes 16 bits of a `u64`: by a point's kinds
/// as bits (the evaluation's kinds, at most four), the counts it adds.
pub const COUNTS: [u64; 16] = {
    let mut counts = [0u64; 16];
    let mut kinds = 0;
    while kinds < 16 {
        let mut k = 0;
        while k < 4 {
            if kinds >> k & 1 != 0 {
                counts[kinds] += 1 << (16 * k);
            }
            k += 1;
        }
        kinds += 1;
    }
    counts
};

fn count_of(kind: u8) -> u64 {
    COUNTS[usize::from(kind & 0xF)]
}

/// The kinds whose counts are above zero, as bits.
pub fn kinds_of(counts: u64) -> u8 {
    (0..4)
        .filter(|k| counts >> (16 * k) & 0xFFFF != 0)
        .fold(0, |kinds, k| kinds | 1 << k)
}

/// The sums of one position, saved before each move.
#[derive(Clone, Copy)]
struct State {
    /// By side to move: its shapes' values less the opponent's.
    net: [i32; 2],
    /// By side to move: the counts of its own shapes' threat kinds.
    mine: [u64; 2],
    /// By side to move: the counts of the opponent's kinds against it.
    theirs: [u64; 2],
    /// By side: the points where a stone makes a five, a four, a winning
    /// four.
    fives: [[u64; WORDS]; 2],
    fours: [[u64; WORDS]; 2],
    winning_fours: [[u64; WORDS]; 2],
    /// Black's points that might be forbidden (renju only).
    suspects: [u64; WORDS],
}

/// What a scan reads of the sums for one side to move.
pub struct Share<'a> {
    /// Its shapes' values less the opponent's, black's forbidden points
    /// still counted.
    pub net: i32,
    pub mine: u64,
    pub theirs: u64,
    pub my_fives: Nearby<'a>,
    pub my_fours: Nearby<'a>,
    pub my_winning_fours: Nearby<'a>,
    pub their_fives: Nearby<'a>,
    pub their_winning_fours: Nearby<'a>,
    pub suspects: Nearby<'a>,
}

#[derive(Clone)]
pub struct Sums {
    /// By side to move: the evaluation's values of its shapes and of the
    /// opponent's against it.
    weights: [&'static ShapeValues; 2],
    /// By shape code: [`FIVE`], [`FOUR`], [`WINNING_FOUR`].
    flags: &'static [u8],
    renju: bool,
    /// Paused this many times over (see [`SearchBoard::pause_sums`]).
    paused: u32,
    state: State,
    saved: Vec<State>,
}

impl Sums {
    /// Sums by the evaluation's `weights` (by side to move) and the threat
    /// `flags` by shape code, kept once [`SearchBoard::keep_sums`] is given
    /// them.
    pub fn with(weights: [&'static ShapeValues; 2], flags: &'static [u8], renju: bool) -> Sums {
        Sums {
            weights,
            flags,
            renju,
            paused: 0,
            state: State {
                net: [0; 2],
                mine: [0; 2],
                theirs: [0; 2],
                fives: [[0; WORDS]; 2],
                fours: [[0; WORDS]; 2],
                winning_fours: [[0; WORDS]; 2],
                suspects: [0; WORDS],
            },
            saved: Vec::new(),
        }
    }

    /// Adds (`sign` 1) or takes out (-1) a point's part, by its shapes
    /// for black and white.
    #[inline]
    fn count(&mut self, shapes: [u16; 2], sign: i32) {
        let [black, white] = shapes.map(usize::from);
        let s = &mut self.state;
        for (mover, own, other) in [(0, black, white), (1, white, black)] {
            let weights = self.weights[mover];
            let (mine, my_kind) = ShapeValues::split(weights.mine[own]);
            let (theirs, their_kind) = ShapeValues::split(weights.theirs[other]);
            s.net[mover] += sign * (mine - theirs);
            let (mine, theirs) = (count_of(my_kind), count_of(their_kind));
            if sign > 0 {
                s.mine[mover] = s.mine[mover].wrapping_add(mine);
                s.theirs[mover] = s.theirs[mover].wrapping_add(theirs);
            } else {
                s.mine[mover] = s.mine[mover].wrapping_sub(mine);
                s.theirs[mover] = s.theirs[mover].wrapping_sub(theirs);
            }
        }
    }

    /// A point near a stone changed its shapes from `old` to `new`: the
    /// parts of the shapes that changed taken out and put in anew.
    #[inline]
    fn change(&mut self, old: [u16; 2], new: [u16; 2]) {
        let s = &mut self.state;
        for (mover, own, other) in [(0, 0, 1), (1, 1, 0)] {
            let weights = self.weights[mover];
            if old[own] != new[own] {
                let (was, was_kind) = ShapeValues::split(weights.mine[usize::from(old[own])]);
                let (is, kind) = ShapeValues::split(weights.mine[usize::from(new[own])]);
                s.net[mover] += is - was;
                s.mine[mover] = s.mine[mover]
                    .wrapping_add(count_of(kind))
                    .wrapping_sub(count_of(was_kind));
            }
            if old[other] != new[other] {
                let (was, was_kind) = ShapeValues::split(weights.theirs[usize::from(old[other])]);
                let (is, kind) = ShapeValues::split(weights.theirs[usize::from(new[other])]);
                s.net[mover] -= is - was;
                s.theirs[mover] = s.theirs[mover]
                    .wrapping_add(count_of(kind))
                    .wrapping_sub(count_of(was_kind));
            }
        }
    }

    /// Sets a point's bits by its shapes (all clear for a stone).
    #[inline]
    fn mark(&mut self, i: usize, shapes: Option<[u16; 2]>) {
        let (word, bit) = (i / 64, 1u64 << (i % 64));
        let s = &mut self.state;
        for color in 0..2 {
            let flags = shapes.map_or(0, |shapes| self.flags[usize::from(shapes[color])]);
            let set = |bits: &mut [u64; WORDS], on: bool| {
                if on {
                    bits[word] |= bit;
                } else {
                    bits[word] &= !bit;
                }
            };
            set(&mut s.fives[color], flags & FIVE != 0);
            set(&mut s.fours[color], flags & FOUR != 0);
            set(&mut s.winning_fours[color], flags & WINNING_FOUR != 0);
        }
        if self.renju {
            let suspect = shapes.is_some_and(|shapes| may_be_forbidden(usize::from(shapes[0])));
            if suspect {
                s.suspects[word] |= bit;
            } else {
                s.suspects[word] &= !bit;
            }
        }
    }
}

fn bits(words: &[u64]) -> Nearby<'_> {
    Nearby {
        words,
        word: 0,
        bits: words[0],
    }
}

impl SearchBoard {
    /// Keeps [`Sums`] from here on, summed afresh over the points near a
    /// stone (none on an empty board).
    pub fn keep_sums(&mut self, mut sums: Sums) {
        if self.stones > 0 {
            let near = self.nearby;
            for i in bits(&near[..self.words]) {
                let shapes = [self.shapes[0][i], self.shapes[1][i]];
                sums.count(shapes, 1);
                sums.mark(i, Some(shapes));
            }
        }
        sums.saved.clear();
        self.sums = Some(Box::new(sums));
    }

    /// The kept sums for `mover` to move, if they are kept and a stone is
    /// on the board (an empty board's scan looks at its centre alone).
    pub fn sums(&self, mover: Color) -> Option<Share<'_>> {
        let sums = (self.sums.as_deref()).filter(|sums| self.stones > 0 && sums.paused == 0)?;
        let (me, them) = (side(mover), side(mover.opponent()));
        let s = &sums.state;
        let words = self.words;
        Some(Share {
            net: s.net[me],
            mine: s.mine[me],
            theirs: s.theirs[me],
            my_fives: bits(&s.fives[me][..words]),
            my_fours: bits(&s.fours[me][..words]),
            my_winning_fours: bits(&s.winning_fours[me][..words]),
            their_fives: bits(&s.fives[them][..words]),
            their_winning_fours: bits(&s.winning_fours[them][..words]),
            suspects: bits(&s.suspects[..words]),
        })
    }

    /// Before a stone is placed on `i`: the sums saved for [`Self::unmake`],
    /// and `i`'s part taken out if it was near a stone.
    pub(super) fn sums_before(&mut self, i: usize) {
        let Some(sums) = self.sums.as_deref_mut().filter(|sums| sums.paused == 0) else {
            return;
        };
        sums.saved.push(sums.state);
        if self.nearby[i / 64] >> (i % 64) & 1 != 0 {
            sums.count([self.shapes[0][i], self.shapes[1][i]], -1);
            sums.mark(i, None);
        }
    }

    /// After a stone was placed on `i` (its changes from `mark` on in
    /// `undo`): each changed point that was near a stone before counted
    /// anew, and the points it brought near counted.
    pub(super) fn sums_after(&mut self, i: usize, mark: usize) {
        let Some(sums) = self.sums.as_deref_mut().filter(|sums| sums.paused == 0) else {
            return;
        };
        let before = self
            .nearby_undo
            .last()
            .expect("the points near before the move");
        let near = |bits: &[u64; WORDS], j: usize| bits[j / 64] >> (j % 64) & 1 != 0;
        // A point other than `i` lies on one line through it: its entry is
        // its only one, and holds its shapes before the move.
        for saved in &self.undo[mark..] {
            let j = usize::from(saved.index);
            if j == i || !near(before, j) {
                continue;
            }
            let shapes = [self.shapes[0][j], self.shapes[1][j]];
            sums.change(saved.shapes, shapes);
            sums.mark(j, Some(shapes));
        }
        for (w, (&now, &was)) in self.nearby.iter().zip(before).enumerate().take(self.words) {
            let mut new = now & !was;
            while new != 0 {
                let j = w * 64 + new.trailing_zeros() as usize;
                new &= new - 1;
                let shapes = [self.shapes[0][j], self.shapes[1][j]];
                sums.count(shapes, 1);
                sums.mark(j, Some(shapes));
            }
        }
    }

    /// Stops keeping the sums, for a search that makes moves and takes
    /// them all back without reading them (the threat searches, which read
    /// fives and fours alone, make most of the moves): the sums stay those
    /// of the position here, right again once the moves are taken back and
    /// [`Self::resume_sums`] called as often.
    pub fn pause_sums(&mut self) {
        if let Some(sums) = self.sums.as_deref_mut() {
            sums.paused += 1;
        }
    }

    /// Keeps the sums again after [`Self::pause_sums`].
    pub fn resume_sums(&mut self) {
        if let Some(sums) = self.sums.as_deref_mut() {
            sums.paused -= 1;
        }
    }

    /// A move taken back: the sums as they were before it.
    pub(super) fn sums_restore(&mut self) {
        if let Some(sums) = self.sums.as_deref_mut().filter(|sums| sums.paused == 0) {
            sums.state = sums.saved.pop().expect("the sums before a move");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_counts_pack_a_kind_to_sixteen_bits() {
        let counts = count_of(0b0001) * 3 + count_of(0b0100) + count_of(0b1000) * 300;
        assert_eq!(kinds_of(counts), 0b1101);
        assert_eq!(kinds_of(counts - count_of(0b0001) * 3), 0b1100);
        assert_eq!(kinds_of(0), 0);
        assert_eq!(count_of(0), 0);
    }
}
