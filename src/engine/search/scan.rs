//! What a node sees before it searches: the scan of the empty points near
//! the stones (the static value, the threat mask, the fives, fours and
//! threes of both sides), read from the sums the board keeps or point by
//! point, and the moves it lists and ranks for searching.

use super::threats::wins_by_fours;
use super::{MAX_PLY, Searcher};
use crate::engine::board::{COUNTS, kinds_of, side};
use crate::engine::eval::{self, ShapeValues};
use crate::rules::Color;
use crate::rules::board::PADDED;

/// A point a scan lists: its ordering score and what the ranking reads of
/// the two sides' threats there, in 12 bytes (the whole threats were 32
/// a point, written for every point of every interior node).
#[derive(Clone, Copy)]
pub(super) struct Listed {
    pub(super) score: i32,
    pub(super) point: u16,
    /// It neither threatens (a four or an open three) nor takes a point
    /// where the opponent would make a four.
    pub(super) quiet: bool,
    /// It answers an opponent's three: it makes a four, or takes a point
    /// where the opponent would make one.
    answers_three: bool,
    /// It makes an open three and no four (the VCT's attacks).
    pub(super) makes_three: bool,
}

impl Listed {
    pub(super) fn point(&self) -> usize {
        usize::from(self.point)
    }
}

/// The points of interest of the side to move.
pub(super) struct Scan {
    pub(super) my_five: Option<usize>,
    pub(super) their_fives: Vec<usize>,
    pub(super) my_winning_four: Option<usize>,
    /// The opponent can make an open four next move (they have a three).
    pub(super) their_three: bool,
    /// The side to move can make a four.
    pub(super) my_four: bool,
    /// The side to move's legal points, with what the ordering needs of
    /// them; empty in a scan for a leaf, which needs only the rest.
    pub(super) moves: Vec<Listed>,
    pub(super) evaluation: i32,
    /// The threat mask the evaluation valued (see `eval::ThreatValues`).
    pub(super) mask: u16,
}

impl Searcher {
    /// Looks at every empty point near a stone, and lists the moves.
    pub(super) fn scan(&mut self) -> Scan {
        let mut scan = self.scan_values();
        self.list_moves(&mut scan);
        scan
    }

    /// Keeps a scan's move list, done with, for a later scan to fill.
    pub(super) fn spare(&mut self, scan: &mut Scan) {
        if scan.moves.capacity() > 0 {
            self.spare_lists.push(std::mem::take(&mut scan.moves));
        }
    }

    /// [`Searcher::scan`] without the move list: the evaluation and the
    /// threats, all a leaf needs (most nodes are leaves), and all that an
    /// interior node needs before it knows it goes on to its moves (42% of
    /// those in `engine_speed -- --nodes 100000` stop first: a five, a
    /// forced block, a futility cut, razoring).
    pub(super) fn scan_values(&mut self) -> Scan {
        match self.scan_sums() {
            Some(scan) => scan,
            None => self.scan_points(),
        }
    }

    /// [`Searcher::scan_values`] from the sums the board keeps: black's
    /// suspect points judged (a forbidden one's part taken out), the
    /// points holding fives and fours read from their bits.
    #[inline]
    pub(super) fn scan_sums(&self) -> Option<Scan> {
        let me = self.me();
        let them = me.opponent();
        let share = self.board.sums(me)?;
        let weights = self.weights[side(me)];
        let (mut net, mut mine, mut theirs) = (share.net, share.mine, share.theirs);
        // Each of black's forbidden points: its value and its kinds out of
        // black's sums, or, with white to move, black's threats there
        // that need black to play them.
        if self.board.has_forbidden() {
            for i in share.suspects {
                let black = self.board.shape(Color::Black, i);
                if me == Color::Black {
                    if self.board.legal(i, me) {
                        continue;
                    }
                    let (value, kind) = ShapeValues::split(weights.mine[black]);
                    net -= value;
                    mine = mine.wrapping_sub(COUNTS[usize::from(kind)]);
                } else {
                    // Judged only where black's kind there counts.
                    let (_, kind) = ShapeValues::split(weights.theirs[black]);
                    let kind = kind & eval::SUSPECT_KINDS;
                    if kind != 0 && !self.board.legal(i, them) {
                        theirs = theirs.wrapping_sub(COUNTS[usize::from(kind)]);
                    }
                }
            }
        }
        let their_fives = share.their_fives.collect();
        let their_three = share
            .their_winning_fours
            .into_iter()
            .any(|i| self.board.legal(i, them));
        let mut my_fives = share.my_fives;
        let my_five = my_fives.find(|&i| self.board.legal(i, me));
        let mut my_winning_fours = share.my_winning_fours;
        let my_winning_four = my_winning_fours.find(|&i| self.board.legal(i, me));
        let mut my_fours = share.my_fours;
        let my_four = my_fours.any(|i| self.board.legal(i, me));
        let mask = eval::threat_mask(their_three, kinds_of(mine), kinds_of(theirs));
        Some(Scan {
            my_five,
            their_fives,
            my_winning_four,
            their_three,
            my_four,
            moves: Vec::new(),
            evaluation: (net + weights.tempo + weights.threats[usize::from(mask)])
                .clamp(-eval::LIMIT, eval::LIMIT),
            mask,
        })
    }

    /// [`Searcher::scan_values`] point by point, where the board keeps no
    /// sums (or none yet: an empty board's scan looks at its centre).
    pub(super) fn scan_points(&mut self) -> Scan {
        let me = self.me();
        let them = me.opponent();
        let mut scan = Scan {
            my_five: None,
            their_fives: Vec::new(),
            my_winning_four: None,
            their_three: false,
            my_four: false,
            moves: Vec::new(),
            evaluation: 0,
            mask: 0,
        };
        let weights = self.weights[side(me)];
        let mut mine_total = 0;
        let mut theirs_total = 0;
        let (mut my_kinds, mut their_kinds) = (0u8, 0u8);
        // The fives and fours come from their byte table, which stays in
        // the processor's nearest cache: a leaf's scan needs nothing more,
        // and reads a point's whole threat only for a move list.
        for i in self.board.nearby() {
            let (my_shape, their_shape) = (self.board.shape(me, i), self.board.shape(them, i));
            let (my_fives, my_fours) = self.tables.fives_and_fours_of(my_shape);
            let (their_fives, their_fours) = self.tables.fives_and_fours_of(their_shape);
            if their_fives > 0 {
                scan.their_fives.push(i);
            }
            if wins_by_fours(their_fours) && self.board.legal(i, them) {
                scan.their_three = true;
            }
            let (their_value, their_kind) = ShapeValues::split(weights.theirs[their_shape]);
            theirs_total += their_value;
            // A threat of black's on a point black may not play is none.
            if their_kind & !their_kinds != 0
                && (their_kind & eval::SUSPECT_KINDS == 0 || self.board.legal(i, them))
            {
                their_kinds |= their_kind;
            }
            let legal = self.board.legal(i, me);
            if !legal {
                continue;
            }
            let (my_value, my_kind) = ShapeValues::split(weights.mine[my_shape]);
            mine_total += my_value;
            my_kinds |= my_kind;
            if my_fives > 0 {
                scan.my_five.get_or_insert(i);
            }
            if wins_by_fours(my_fours) {
                scan.my_winning_four.get_or_insert(i);
            }
            scan.my_four |= my_fours > 0;
        }
        // Tried without gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // 208 games, this evaluation scoring 35.6% the same day): black's
        // shapes valued a quarter more when the search plays white (30.3%),
        // and the opponent's a quarter more whichever side it plays
        // (33.7%). The first left the games as black as they were, and they
        // went 44-60 where the same play had gone 50-54: a match this size
        // moves by that much from noise alone.
        // Measured again later, paired game by game with this evaluation
        // the same day (208-game matches against Rapfi 0.43.02 STRENGTH 60
        // at 200 ms, this one scoring 54.6% over three): black's shapes
        // scaled by 5/4 when the search plays white, -5.6 points (95% ±5.9)
        // over 416 pairs, as white -14.2 (±8.4); by 4/5, -6.4 (±5.8), as
        // white -15.1 (±7.9). The weights were fitted for white to move
        // (`RENJU_WHITE`); moving black's either way off them costs white.
        let mask = eval::threat_mask(scan.their_three, my_kinds, their_kinds);
        scan.mask = mask;
        scan.evaluation =
            (mine_total - theirs_total + weights.tempo + weights.threats[usize::from(mask)])
                .clamp(-eval::LIMIT, eval::LIMIT);
        scan
    }

    /// Fills `scan.moves`: the side to move's legal points near a stone,
    /// in the scan's order, with their ordering scores.
    pub(super) fn list_moves(&mut self, scan: &mut Scan) {
        let mut list = self
            .spare_lists
            .pop()
            .unwrap_or_else(|| Vec::with_capacity(64));
        list.clear();
        let me = self.me();
        let them = me.opponent();
        for i in self.board.nearby() {
            if !self.board.legal(i, me) {
                continue;
            }
            let (my_shape, their_shape) = (self.board.shape(me, i), self.board.shape(them, i));
            // Tried without gain in renju (against Rapfi STRENGTH 60 at
            // 200 ms, three 208-game matches each paired game by game with
            // one of this search the same day, which scored 45.4%): with
            // white to move, black's threat on a point black may not play
            // read as none, so that white's ordering leaves black's
            // forbidden points standing as traps rather than taking them:
            // -0.7 points (95% ±4.2) over 624 pairs, as white +1.4 (±5.9),
            // and 8% fewer positions a second (the referee's judgement of
            // every suspect point at every white node).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // three 208-game matches each paired game by game with one of
            // this search the same day, which scored 48.6%): a move taking a
            // point where the opponent would make an open three counted as
            // not quiet (neither reduced nor left out), as Rapfi counts it
            // important, with the renju book it wrote: -9.9 points (95% ±4.9)
            // over 624 pairs, as black -13.5 (±7.2), as white -6.2 (±6.6), at
            // a median depth of 8 where this search reaches 9.
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // two 208-game matches each paired game by game with three of
            // this search the same day, which scored 51.7%): the history
            // clamped to ±400 instead of ±200, so that it tells more of the
            // quiet moves apart (see `HISTORY_LIMIT`): 49.0 and 48.1%, -3.1
            // points (95% ±4.1) over 416 pairs, as black -2.1 (±6.2), as white
            // -4.2 (±5.4).
            //
            // Not shown to gain in renju (against full-strength Rapfi at
            // 200 ms, 12-08, an eighteenth machine): a point taking the
            // opponent's only four there (no open three of theirs, no four
            // or open three of the side's own) counted quiet, reduced and
            // left out late as quiet moves are (points taking a four of the
            // opponent's and threatening nothing are 29% of the moves a quiet
            // node with a null window searches): 39.9% over 208 games, -4.3
            // points (95% ±6.2) paired game by game with the match of this
            // search played just after it; depth p50 9, p90 11, as this
            // search.
            let (mine, theirs) = (
                self.tables.threats[my_shape],
                self.tables.threats[their_shape],
            );
            let score = mine.value * 5 / 4
                + theirs.value
                + self.history[side(me) * PADDED + i].clamp(-200, 200);
            list.push(Listed {
                score,
                point: i as u16,
                quiet: mine.fours == 0 && mine.open_threes == 0 && theirs.fours == 0,
                answers_three: mine.fours > 0 || theirs.fours > 0,
                makes_three: mine.open_threes > 0 && mine.fours == 0,
            });
        }
        scan.moves = list;
    }

    /// The moves worth searching here, best first.
    pub(super) fn candidates(&self, scan: &Scan, ply: usize, tt_move: Option<usize>) -> Vec<usize> {
        self.ranked(scan, scan.moves.clone(), ply, tt_move)
            .into_iter()
            .map(|m| m.point())
            .collect()
    }

    /// `moves`, the scan's list (taken from it or a copy), cut down to the
    /// moves worth searching here, best first. A move's `quiet` tells
    /// whether it is quiet: a point where the opponent would make an open
    /// three is quiet, as it stops a two, which the move count pruning and
    /// the reductions may leave for later.
    pub(super) fn ranked(
        &self,
        scan: &Scan,
        mut moves: Vec<Listed>,
        ply: usize,
        tt_move: Option<usize>,
    ) -> Vec<Listed> {
        if let [block] = scan.their_fives.as_slice()
            && self.board.legal(*block, self.me())
        {
            moves.clear();
            moves.push(Listed {
                score: 0,
                point: *block as u16,
                quiet: false,
                answers_three: true,
                makes_three: false,
            });
            return moves;
        }
        // Against a three: block it, or counter with a four.
        if scan.their_three {
            moves.retain(|m| m.answers_three);
        }
        // Tried without gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // three 208-game matches each paired game by game with one of this
        // search the same day, which scored 46.3%): the reply that last cut
        // the search off after the opponent's last move (a counter move,
        // by side and that move) ordered after the killers, 150 above its
        // own score: +0.5 points (95% ±4.6) over 624 pairs.
        for m in moves.iter_mut() {
            if Some(m.point()) == tt_move {
                m.score += 1 << 24;
            } else if ply < MAX_PLY && self.killers[ply].contains(&m.point()) {
                m.score += 300;
            }
        }
        let width = if scan.their_three {
            moves.len()
        } else {
            self.config.width
        }
        .max(1);
        // Best first, equal scores in the scan's order (by point): the
        // best `width` picked out first, and only they sorted.
        let key = |m: &Listed| (-m.score, m.point);
        if moves.len() > width {
            moves.select_nth_unstable_by_key(width - 1, key);
            moves.truncate(width);
        }
        moves.sort_unstable_by_key(key);
        moves
    }
}
