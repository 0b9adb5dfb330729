//! What a stone threatens (fives, fours, open threes, by shape code), and
//! the threat-space searches over it: victory by continuous fours (VCF),
//! with threes (VCT), and the root's refutation of the opponent's VCF.

use std::sync::OnceLock;

use super::Searcher;
use crate::engine::board::{FIVE, FOUR, SHAPE_CODES, SearchBoard, WINNING_FOUR, shape_lines};
use crate::engine::patterns::{Pattern, Tally};
use crate::rules::board::DIRECTIONS;
use crate::rules::{Color, Point};

/// Per-direction weights of what a stone makes, for move ordering (the
/// evaluation's are fitted: `eval::Weights`).
///
/// Measured against fitted alternatives (renju, on positions of the
/// expert's games against Rapfi STRENGTH 60): a policy fitted to the moves
/// the expert's search chose with a 300 ms turn (a softmax over a point's
/// line patterns and strongest combination for both sides, and its distance
/// from and line to the last two moves; 568 positions) ranked the chosen
/// move first in 37% of 243 held-out positions and among its first three in
/// 58%, where this ordering (without the history) did in 40% and 60%. The
/// evaluation's own point values (the side's plus the opponent's,
/// `eval::ShapeValues`) did worse than this ordering on the root moves of 99
/// searches at 200 ms: 27% and 47%, against 34% and 55%. So a policy fitted
/// over these features is not where the ordering, or the reductions driven
/// by it, would gain.
const WEIGHT: [i32; 9] = [0, 2, 6, 6, 50, 60, 800, 20_000, 0];

/// What a stone of one side on one point makes, over the four lines.
#[derive(Clone, Copy)]
pub(super) struct Threat {
    pub(super) value: i32,
    fives: u8,
    pub(super) fours: u8,
    pub(super) open_threes: u8,
}

/// What a stone makes, by shape code, built once and held by each search.
pub(super) struct ThreatTables {
    pub(super) threats: Box<[Threat]>,
    /// The fives (high four bits) and fours (an open four counting two)
    /// alone, a byte a shape: the threat searches read only these, on
    /// every point they visit.
    fives_and_fours: Box<[u8]>,
    /// The board's flags of each shape (a five, a four, a winning four),
    /// for the sums it keeps (see `board::Sums`).
    pub(super) flags: Box<[u8]>,
}

impl ThreatTables {
    /// [`ThreatTables::fives_and_fours`] of a shape, as (fives, fours).
    #[inline]
    pub(super) fn fives_and_fours_of(&self, shape: usize) -> (u8, u8) {
        let byte = self.fives_and_fours[shape];
        (byte >> 4, byte & 0xF)
    }

    pub(super) fn get() -> &'static ThreatTables {
        static TABLES: OnceLock<ThreatTables> = OnceLock::new();
        TABLES.get_or_init(|| {
            let threats: Box<[Threat]> = (0..SHAPE_CODES).map(Threat::of_shape).collect();
            let fives_and_fours = threats
                .iter()
                .map(|t| {
                    assert!(t.fives < 16 && t.fours < 16, "four bits each");
                    t.fives << 4 | t.fours
                })
                .collect();
            let flags = threats
                .iter()
                .map(|t| {
                    let flag = |on: bool, flag: u8| if on { flag } else { 0 };
                    flag(t.fives > 0, FIVE)
                        | flag(t.fours > 0, FOUR)
                        | flag(wins_by_fours(t.fours), WINNING_FOUR)
                })
                .collect();
            ThreatTables {
                threats,
                fives_and_fours,
                flags,
            }
        })
    }
}

impl Threat {
    fn of_shape(shape: usize) -> Threat {
        let lines = shape_lines(shape);
        let tally = Tally::of(&lines);
        let mut t = Threat {
            value: lines.iter().map(|&p| WEIGHT[p as usize]).sum(),
            fives: tally.fives,
            fours: tally.fours,
            open_threes: tally.open_threes,
        };
        if t.fours >= 2 {
            t.value += 5000;
        } else if t.fours == 1 && t.open_threes >= 1 {
            t.value += 2500;
        } else if t.open_threes >= 2 {
            t.value += 1200;
        }
        t
    }

    /// A move that wins next turn unless the opponent has a five.
    fn is_winning_four(&self) -> bool {
        wins_by_fours(self.fours)
    }
}

/// Whether a stone making `fours` fours (an open four counting two) wins
/// next turn unless the opponent has a five: two ways to five.
pub(super) fn wins_by_fours(fours: u8) -> bool {
    fours >= 2
}

/// What [`Searcher::gather_fours`] found.
enum Gathered {
    /// The attacker makes five here.
    Five(usize),
    /// The defender has a five to make: the attacker has no free four.
    Blocked,
    /// Neither has a five; the points where the attacker makes a four are
    /// listed, black's forbidden ones too (renju: a later block may lift
    /// the ban, and the list is passed on).
    Fours,
}

/// Up to two points where a side makes five (without allocating: the
/// VCF asks after every four it plays).
#[derive(Default)]
struct FivePoints {
    points: [usize; 2],
    len: usize,
}

impl FivePoints {
    fn as_slice(&self) -> &[usize] {
        &self.points[..self.len]
    }
}

impl Searcher {
    /// Victory by continuous fours for the side to move: every attacking
    /// move is a four, so every reply is forced. Returns the first move and
    /// the plies to the five.
    pub(super) fn vcf(&mut self, depth: u32) -> Option<(usize, u32)> {
        self.vcf_after(depth, None)
    }

    /// [`Searcher::vcf`], here `after` the attacker's four (on the point
    /// given, one of the fours listed, which were the attacker's before
    /// it) and the defender's block, if the VCF got here so.
    fn vcf_after(
        &mut self,
        depth: u32,
        after: Option<(&[(usize, Threat)], usize)>,
    ) -> Option<(usize, u32)> {
        if self.tick() {
            return None;
        }
        // A position that failed as deep before is not scanned again. (It
        // had no five for either side: the gathering below returns on
        // finding one, before a failure is kept.)
        let key = self.vcf_key();
        if self.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return None;
        }
        let mut fours = self.spare_fours.pop().unwrap_or_default();
        fours.clear();
        let gathered = match after {
            Some((before, four)) => self.gather_fours_after(before, four, &mut fours),
            None => self.gather_fours(&mut fours),
        };
        let found = match gathered {
            Gathered::Five(i) => Some((i, 1)),
            // The defender threatens five: no free four to play.
            Gathered::Blocked => None,
            Gathered::Fours if depth == 0 => None,
            Gathered::Fours => {
                // It reads no sums: the moves it makes and takes back
                // leave them.
                self.board.pause_sums();
                let found = self.vcf_among(depth, key, &mut fours);
                self.board.resume_sums();
                found
            }
        };
        self.spare_fours.push(fours);
        found
    }

    /// The attacker's (the side to move's) fives and fours near a stone
    /// (see [`Gathered`]), as the VCF starts from them: from the bits the
    /// board keeps where it keeps them (the search's node the VCF is asked
    /// at), else point by point. A five found first, in index order, of
    /// either side decides.
    fn gather_fours(&self, fours: &mut Vec<(usize, Threat)>) -> Gathered {
        let attacker = self.me();
        if let Some(mut share) = self.board.sums(attacker) {
            match (share.my_fives.next(), share.their_fives.next()) {
                (Some(i), theirs) if theirs.is_none_or(|j| i <= j) => return Gathered::Five(i),
                (_, Some(_)) => return Gathered::Blocked,
                _ => {}
            }
            fours.extend(share.my_fours.map(|i| (i, self.threat(attacker, i))));
            return Gathered::Fours;
        }
        self.gather_fours_near(fours)
    }

    /// [`Searcher::gather_fours`] point by point.
    fn gather_fours_near(&self, fours: &mut Vec<(usize, Threat)>) -> Gathered {
        let attacker = self.me();
        let defender = attacker.opponent();
        // A point where a stone makes four or five has a stone of that side
        // within two points on that line.
        for i in self.board.nearby() {
            let (my_fives, my_fours) = self.fives_and_fours(attacker, i);
            if my_fives > 0 {
                return Gathered::Five(i);
            }
            if self.fives_and_fours(defender, i).0 > 0 {
                return Gathered::Blocked;
            }
            if my_fours > 0 {
                fours.push((i, self.threat(attacker, i)));
            }
        }
        Gathered::Fours
    }

    /// [`Searcher::gather_fours`] after the attacker's four on `four` and
    /// the block it forced, from the attacker's fours before them
    /// (`before`): neither side has a five (the four's only five was
    /// blocked, and the block made none, or the VCF would not be here),
    /// the fours still standing are among those before, and new ones lie
    /// on the four's lines, within k - 1 points of it (the block, the
    /// defender's, only takes fours away).
    fn gather_fours_after(
        &self,
        before: &[(usize, Threat)],
        four: usize,
        fours: &mut Vec<(usize, Threat)>,
    ) -> Gathered {
        let attacker = self.me();
        let is_four = |i: usize| self.board.is_empty(i) && self.fives_and_fours(attacker, i).1 > 0;
        for &(i, _) in before {
            if is_four(i) {
                fours.push((i, self.threat(attacker, i)));
            }
        }
        let reach = self.board.k() - 1;
        for &step in DIRECTIONS.iter() {
            for sign in [-1isize, 1] {
                let mut j = four as isize;
                for _ in 0..reach {
                    j += sign * step as isize;
                    let ju = j as usize;
                    if !self.board.points_contains(ju) {
                        break;
                    }
                    if is_four(ju) && !before.iter().any(|&(i, _)| i == ju) {
                        fours.push((ju, self.threat(attacker, ju)));
                    }
                }
            }
        }
        Gathered::Fours
    }

    /// [`Searcher::vcf`] past its cache and the fours gathered, which
    /// neither side has a five among.
    fn vcf_among(
        &mut self,
        depth: u32,
        key: u64,
        fours: &mut [(usize, Threat)],
    ) -> Option<(usize, u32)> {
        let attacker = self.me();
        let defender = attacker.opponent();
        // Strongest first, equal ones by point (the order they were found).
        fours.sort_unstable_by_key(|&(i, t)| (-t.value, i));
        let fours: &[(usize, Threat)] = fours;
        for &(i, threat) in fours {
            if !self.board.legal(i, attacker) {
                continue;
            }
            if threat.is_winning_four() {
                return Some((i, 3));
            }
            // Neither side has a five to make (the gathering returns on
            // one), so after a stone the only fives are on the lines where
            // it made a four: the others need no looking along.
            let lines = self.four_lines(attacker, i);
            self.board.make(i);
            let blocks = self.five_points_along(i, attacker, lines);
            let plies = match blocks.as_slice() {
                [] => None,
                // The defender may not block there (renju): five next move.
                [q] if !self.board.legal(*q, defender) => Some(3),
                [q] => {
                    let q = *q;
                    let lines = self.four_lines(defender, q);
                    self.board.make(q);
                    let plies = if self.five_points_along(q, defender, lines).len == 0 {
                        self.vcf_after(depth - 1, Some((fours, i)))
                            .map(|(_, plies)| plies + 2)
                    } else {
                        None
                    };
                    self.board.unmake();
                    plies
                }
                // Two ways to five: the defender cannot stop both.
                [_, _, ..] => Some(3),
            };
            self.board.unmake();
            if let Some(plies) = plies {
                return Some((i, plies));
            }
            if self.stopped {
                return None;
            }
        }
        if !self.stopped {
            self.vcf_failed.insert(key, depth);
        }
        None
    }

    /// The VCF cache key: the stones and who attacks.
    fn vcf_key(&self) -> u64 {
        match self.me() {
            Color::Black => self.board.hash,
            Color::White => self.board.hash ^ 0x9E37_79B9_7F4A_7C15,
        }
    }

    /// Whether the opponent would win by continuous fours if it were their
    /// move now.
    fn opponent_vcf(&mut self, depth: u32) -> bool {
        let me = self.me();
        self.board.to_move = me.opponent();
        let found = self.vcf(depth).is_some();
        self.board.to_move = me;
        found
    }

    /// Of the root moves, those after which the opponent has no win by
    /// continuous fours (all of them if none does, or none is left).
    ///
    /// Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
    /// three 208-game matches each paired game by game with one of this
    /// search the same day, which scored 48.3%): the same for the
    /// opponent's win by threats, where the opponent would have one (by
    /// `vct` at the root's VCT depth) if it were their move: the root
    /// moves after which it still has one left out, in at most 20,000
    /// nodes (a move not judged by then kept). The opponent had such a
    /// win in 76 of 172 positions searched in 12 games, and moves were
    /// left out in 10: -1.1 points (95% ±4.6) over 624 pairs, as
    /// black -4.3 (±6.8), as white +2.1 (±6.0).
    pub(super) fn safe_root_moves(&mut self, moves: Vec<usize>) -> Vec<usize> {
        if !self.opponent_vcf(self.config.vcf_depth) {
            return moves;
        }
        let mut safe = Vec::new();
        for &i in &moves {
            self.board.make(i);
            if self.vcf(self.config.vcf_depth).is_none() {
                safe.push(i);
            }
            self.board.unmake();
            if self.stopped {
                break;
            }
        }
        if safe.is_empty() || self.stopped {
            moves
        } else {
            safe
        }
    }

    /// The first two empty points (in direction order, each line nearer
    /// end first) on the lines through `i` where `color` makes five: no
    /// caller needs more than to tell none, one, and two or more apart.
    fn five_points_through(&self, i: usize, color: Color) -> FivePoints {
        self.five_points_along(i, color, 0b1111)
    }

    /// The lines (a bit a direction) along which a stone of `color` on the
    /// empty point `i` would make a four (or an open four).
    fn four_lines(&self, color: Color, i: usize) -> u8 {
        (0..4)
            .filter(|&d| {
                matches!(
                    self.board.pattern(color, d, i),
                    Pattern::Four | Pattern::OpenFour
                )
            })
            .fold(0, |lines, d| lines | 1 << d)
    }

    /// [`Searcher::five_points_through`] along the lines in `lines` alone
    /// (a bit a direction).
    fn five_points_along(&self, i: usize, color: Color, lines: u8) -> FivePoints {
        let mut out = FivePoints::default();
        let reach = 5usize;
        for (d, &step) in DIRECTIONS.iter().enumerate() {
            if lines & 1 << d == 0 {
                continue;
            }
            for sign in [-1isize, 1] {
                let mut j = i as isize;
                for _ in 0..reach {
                    j += sign * step as isize;
                    let ju = j as usize;
                    if !self.board.points_contains(ju) {
                        break;
                    }
                    // A point lies on one line through `i`: no repeats.
                    if self.board.is_empty(ju) && self.board.pattern(color, d, ju) == Pattern::Five
                    {
                        out.points[out.len] = ju;
                        out.len += 1;
                        if out.len == 2 {
                            return out;
                        }
                    }
                }
            }
        }
        out
    }

    /// Threat-space search with threes: the attacker plays fours and open
    /// threes; after a three, every defence (blocking points and the
    /// defender's own fours) is tried. Returns the attacker's first move.
    ///
    /// Deeper threat searches do not pay here: a proof-number search over
    /// the same threats (a counter-four blocked, the three then defended
    /// again) proved 3, 13 and 38 of the 148 positions of
    /// `examples/data/forced-wins.txt` at 10^4, 10^5 and 10^6 positions
    /// looked at (about 4 µs each), where the main search proves 141 in
    /// 3 s: most of those wins need a quiet move, or more positions than
    /// that. Given 15% or 30% of the root's time it proved no more of them
    /// at 200 ms.
    pub(super) fn vct(&mut self, depth: u32) -> Option<usize> {
        if self.tick() || depth == 0 {
            return None;
        }
        if let Some((first, _)) = self.vcf(self.config.vcf_depth.min(6)) {
            return Some(first);
        }
        let attacker = self.me();
        let defender = attacker.opponent();
        let scan = self.scan();
        if !scan.their_fives.is_empty() {
            return None;
        }
        let mut threes: Vec<(usize, i32)> = scan
            .moves
            .iter()
            .filter(|m| m.makes_three)
            .map(|m| (m.point(), m.score))
            .collect();
        threes.sort_by_key(|&(_, s)| -s);
        threes.truncate(8);
        for (i, _) in threes {
            self.board.make(i);
            let mut defended = false;
            let defences = self.defences(attacker);
            for q in defences {
                if !self.board.legal(q, defender) {
                    continue;
                }
                self.board.make(q);
                let wins = self.vct(depth - 1).is_some();
                self.board.unmake();
                if !wins || self.stopped {
                    defended = true;
                    break;
                }
            }
            self.board.unmake();
            if !defended && !self.stopped {
                return Some(i);
            }
            if self.stopped {
                return None;
            }
        }
        None
    }

    /// The defender's replies to the attacker's three (defender to move):
    /// points where the attacker would make a four or five, and the
    /// defender's own fours.
    fn defences(&self, attacker: Color) -> Vec<usize> {
        let defender = attacker.opponent();
        let mut out = Vec::new();
        for i in self.board.nearby() {
            let (their_fives, their_fours) = self.fives_and_fours(attacker, i);
            let (my_fives, my_fours) = self.fives_and_fours(defender, i);
            if their_fives + their_fours + my_fives + my_fours > 0 {
                out.push(i);
            }
        }
        out
    }

    /// The line of a win by continuous fours found from here, starting
    /// with `first`: each four and the block it forces, to the five (or
    /// to the four the defender cannot stop).
    pub(super) fn vcf_line(&mut self, first: usize, plies: u32) -> Vec<Point> {
        let attacker = self.me();
        let mut line = Vec::new();
        let mut made = 0;
        let mut next = Some((first, plies));
        while let Some((i, plies)) = next.take() {
            line.push(i);
            if plies <= 1 {
                break;
            }
            self.board.make(i);
            made += 1;
            let blocks = self.five_points_through(i, attacker);
            let block = match *blocks.as_slice() {
                [block] if self.board.legal(block, attacker.opponent()) => block,
                // An open four: whichever end is blocked, the other makes five.
                [first_end, other_end, ..] if self.board.legal(first_end, attacker.opponent()) => {
                    line.push(first_end);
                    line.push(other_end);
                    break;
                }
                _ => break,
            };
            line.push(block);
            self.board.make(block);
            made += 1;
            next = self.vcf(self.config.vcf_depth);
        }
        for _ in 0..made {
            self.board.unmake();
        }
        line.into_iter().map(SearchBoard::point).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::random_walk;
    use super::*;
    use crate::rules::{ForbiddenPolicy, Position, Variant};

    /// After a four and the block it forces, the VCF lists the attacker's
    /// fours from those before and the four's lines alone: the same points
    /// a scan of the board finds, black's forbidden ones too, in every
    /// position of random walks where a four with one block is there to
    /// play (renju, freestyle, four in a row).
    #[test]
    fn the_fours_after_a_four_and_its_block_are_those_a_scan_finds() {
        let points = |fours: &[(usize, Threat)]| {
            let mut points: Vec<usize> = fours.iter().map(|&(i, _)| i).collect();
            points.sort_unstable();
            points
        };
        let (mut compared, mut forbidden_before) = (0, 0);
        for (variant, seed) in [
            (Variant::renju(ForbiddenPolicy::Reject), 7),
            (Variant::renju(ForbiddenPolicy::Reject), 8),
            (Variant::freestyle(15).unwrap(), 9),
            (Variant::custom(9, 9, 4, false).unwrap(), 10),
        ] {
            random_walk(&Position::new(variant), seed, |searcher, _, _| {
                let mut before = Vec::new();
                if !matches!(searcher.gather_fours_near(&mut before), Gathered::Fours) {
                    return;
                }
                let attacker = searcher.me();
                for &(four, _) in &before {
                    // Only a legal four is played; the others stay listed.
                    if !searcher.board.legal(four, attacker) {
                        forbidden_before += 1;
                        continue;
                    }
                    searcher.board.make(four);
                    let blocks = searcher.five_points_through(four, attacker);
                    if let [block] = *blocks.as_slice()
                        && searcher.board.legal(block, attacker.opponent())
                    {
                        let defender = attacker.opponent();
                        let lines = searcher.four_lines(defender, block);
                        searcher.board.make(block);
                        // The VCF goes on where the block made no five.
                        if searcher.five_points_along(block, defender, lines).len == 0 {
                            let mut near = Vec::new();
                            let gathered = searcher.gather_fours_near(&mut near);
                            assert!(
                                matches!(gathered, Gathered::Fours),
                                "a five after {four} and {block}"
                            );
                            let mut after = Vec::new();
                            searcher.gather_fours_after(&before, four, &mut after);
                            assert_eq!(points(&after), points(&near), "after {four} and {block}");
                            compared += 1;
                        }
                        searcher.board.unmake();
                    }
                    searcher.board.unmake();
                }
            });
        }
        assert!(compared > 100, "{compared} fours and blocks compared");
        assert!(forbidden_before > 0, "black's forbidden fours met");
    }
}
