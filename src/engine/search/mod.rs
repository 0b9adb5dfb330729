//! The searching levels: immediate wins and blocks, victory by continuous
//! fours (VCF), threat-space search with threes (VCT), then alpha-beta (PVS)
//! with iterative deepening, a transposition table, pruning (reverse
//! futility, razoring, null move, move count, late move reductions), and
//! threat-first move ordering with killers and history.
//!
//! Here the searcher and the search below the root (negamax and its
//! leaves); what a node sees and the moves it lists are in [`scan`]; the
//! root's deepening, its decision and its helper threads in [`root`]; what
//! a stone threatens and the threat-space searches over it in [`threats`];
//! the transposition table in [`table`].

mod root;
mod scan;
mod table;
mod threats;

use std::collections::HashMap;
use std::sync::Arc;

use foldhash::fast::FixedState;

use super::board::{SearchBoard, Sums, side};
use super::eval::{ShapeValues, Weights};
use super::time::TimeManager;
use super::{Limits, SplitMix64};
use crate::rules::board::PADDED;
use crate::rules::{Color, Position, Variant};
use scan::{Listed, Scan};
pub(super) use table::Table;
use table::{EXACT, LOWER, UPPER, table_cut};
use threats::{Threat, ThreatTables};

const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses in a known number of plies.
const WIN_THRESHOLD: i32 = WIN - 1000;
const INFINITY: i32 = WIN + 1;
const MAX_PLY: usize = 64;
/// From this move on in a quiet node, moves that threaten nothing are
/// searched shallower first (late move reductions).
///
/// Not kept, against full-strength Rapfi at 200 ms in renju (12-07, a
/// sixteenth machine, four 208-game matches each paired game by game with
/// one of this search played just before it, in turn): from the third move
/// (2), 41.0%, +0.3 points (95% ±3.4) over 832 pairs, as black -2.5
/// (±5.4), as white +3.1 (±4.0); depth p50 9, p90 12.
const LMR_FROM: usize = 3;
/// Reverse futility pruning: a quiet node this many plies from the leaves
/// or fewer whose static value beats beta by this much a ply is cut.
///
/// Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms, three
/// 208-game matches each paired game by game with one of this search the
/// same day, which scored 48.6%): up to 8 plies from the leaves (Rapfi
/// sets no limit), +0.2 points (95% ±4.6) over 624 pairs, as black +3.0
/// (±7.1), as white -2.7 (±5.7).
const FUTILITY_DEPTH: i32 = 4;
const FUTILITY_MARGIN: i32 = 600;
/// Razoring: a quiet node one or two plies from the leaves whose static
/// value is this much a ply below alpha is searched as a leaf.
const RAZOR_MARGIN: i32 = 400;
/// Null move pruning: a quiet node this many plies from the leaves or
/// more whose static value beats beta, where the side to move could pass
/// and a search this many plies shallower (and a ply more for each six of
/// its depth) still beats beta, is cut.
///
/// Against Rapfi STRENGTH 60 at 200 ms (12-06, a slow day, the host
/// taking time from the machine), each 208-game match paired game by
/// game with one of the search without it played next to it: in renju
/// five matches, 53.4, 52.6, 53.8, 50.2 and 57.5% against 44.5, 49.8,
/// 54.6, 51.9 and 48.3%, +3.7 points (95% ±3.8) over 1,040 pairs, as
/// black +3.6 (±5.5), as white +3.8 (±5.1); in freestyle one, 62.3%
/// against 53.4%, +8.9 (±6.7) over 208 pairs. Together +4.6 (±3.3) over
/// 1,248 pairs; in renju at the same depth (p50 9, p90 11) and rate.
/// Measured with the books of the search before it. With the books this
/// search wrote (12-06, a fourth machine, paired with the search before
/// it and its books): freestyle +8.7 (±7.2) over 208 pairs, the same
/// gain; renju -2.4 (±5.6) over 416 pairs, none that matches can show
/// (the renju book it wrote may be a little worse than the last).
const NULL_DEPTH: i32 = 5;
const NULL_REDUCTION: i32 = 4;
/// The history of a point stays within this either way.
///
/// At 200 ms nearly every late quiet move's point has a history above zero
/// (the median about 270), so the ordering's clamp to ±200 gives most of
/// them the whole 200. Tried and dropped in renju (against Rapfi STRENGTH
/// 60 at 200 ms, two 208-game matches each paired game by game with three
/// of this search the same day, which scored 51.7%): the history kept
/// within ±1024 by moving it toward the limit by a share of the distance
/// left (the bonus over the limit, as Stockfish's and Rapfi's are kept),
/// and a fifth of it counted in the ordering instead of clamped: 45.7 and
/// 46.9%, -5.4 points (95% ±4.1) over 416 pairs, as black -1.8 (±5.8), as
/// white -9.0 (±5.8).
const HISTORY_LIMIT: i32 = 1 << 20;

/// How many plies shallower the `n`th move (from 0) of a quiet node `depth`
/// plies from the leaves is searched first, if it is quiet: at least one,
/// more the later the move and the deeper the node, always leaving a ply.
///
/// Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms, two
/// 208-game matches each paired game by game with one of this search the
/// same day, which scored 47.8 and 46.9%): a third more reduction (1.0
/// ln(depth) ln(n) instead of 0.75), 50.5 and 44.7%, +0.2 points (95%
/// ±5.8) over 416 pairs, as black +2.6 (±8.5), as white -2.2 (±7.8);
/// depth p50/p90 10/12 and 9/11 where this search reaches 9/11.
fn reduction(depth: i32, n: usize) -> i32 {
    let r = f64::from(depth).ln() * (n as f64).ln() * 0.75;
    (r as i32).clamp(1, (depth - 2).max(1))
}

/// How many moves of a quiet node `depth` plies from the leaves are
/// searched before the quiet ones are left out: more the deeper, and more
/// where the side to move is improving — half as many again without
/// forbidden points, twice as many with them (freestyle measured +42 Elo
/// over 208 games with two thirds where not improving instead of a half;
/// renju −25, so renju keeps the half). Renju at two thirds measured again
/// against Rapfi STRENGTH 60 at 200 ms, two 208-game matches each paired
/// game by game with one of this search the same day (47.8 and 46.9%):
/// 48.8 and 48.6%, +1.3 points (95% ±5.6) over 416 pairs, as black +7.5
/// (±8.2), as white -4.8 (±7.5); not shown to gain.
///
/// Nor shown to gain against full-strength Rapfi at 200 ms (12-07, two
/// 208-game matches each paired game by game with one of this search
/// played just after it, which scored 38.5 and 41.6%): no move count
/// pruning more than 5 plies from the leaves (as Stockfish's count grows
/// with the square of the depth, so that a quiet move ranked late near the
/// root is found given time): 39.4 and 38.9%, -0.8 points (95% ±5.2) over
/// 416 pairs, as black -1.9 (±8.3), as white +0.2 (±6.2).
fn late_move_count(depth: i32, improving: bool, forbidden: bool) -> usize {
    let all = 3.0 + f64::from(depth.max(0)).powf(1.32);
    let count = match (improving, forbidden) {
        (true, _) => all,
        (false, false) => all * 2.0 / 3.0,
        (false, true) => all / 2.0,
    };
    count as usize
}

/// Builds the tables every search reads (what a stone makes by shape, the
/// evaluation's values by shape), which a first search would otherwise
/// build on its own clock.
pub(super) fn prepare(variant: &Variant) {
    ThreatTables::get();
    for mover in [Color::Black, Color::White] {
        for player in [Color::Black, Color::White] {
            Weights::by_shape(variant, mover, player);
        }
    }
}

/// How a searching level searches.
#[derive(Clone, Copy, Debug)]
pub struct SearchConfig {
    pub max_depth: i32,
    /// Moves looked at in a quiet node, best first.
    pub width: usize,
    /// Attacker moves in a VCF line.
    pub vcf_depth: u32,
    /// Attacker moves in a VCT line (0: no VCT).
    pub vct_depth: u32,
    /// Attacker moves in the VCF tried at the leaves of the search (0: none).
    pub leaf_vcf_depth: u32,
    /// The transposition table holds 2^table_bits entries (16 bytes each):
    /// large for a deep search, small for a shallow one that would only pay
    /// for filling it.
    pub table_bits: u32,
}

pub struct Searcher {
    board: SearchBoard,
    config: SearchConfig,
    /// The evaluation's weights by the side to move: its own shapes' and
    /// the opponent's, by pattern, the tempo and the threat masks' values
    /// (renju's as the side to move at the root plays: see `eval::NAMED`).
    weights: [&'static ShapeValues; 2],
    clock: TimeManager,
    nodes: u64,
    stopped: bool,
    table: Arc<Table>,
    /// The first depth of the iterative deepening: 1, or 2 for every
    /// other helper, so that the threads do not all search alike.
    first_depth: i32,
    killers: [[usize; 2]; MAX_PLY],
    /// The static value of each node on the current line, by ply: whether
    /// the side to move is improving on its last turn.
    evals: [i32; MAX_PLY],
    /// By side and point: how often a move there cut a search off, less
    /// how often it was searched and something else did, weighted by depth.
    history: Vec<i32>,
    /// Positions (with the attacker) where no VCF was found, and the
    /// depth searched: a shallower failure says nothing about a deeper search.
    /// Keyed by Zobrist hashes, which need no strong hasher.
    ///
    /// Measured and not kept, for speed (12-07, a thirteenth machine): an
    /// array of as many slots as the transposition table, one a position by
    /// its key's high bits, the last failure replacing the one before. At
    /// 300,000 positions a move (`engine_speed -- --nodes 300000`, twice
    /// each, in turn) 1.13 million a second where this map searched 1.16;
    /// at 1,000,000 positions 1.04 and 1.14 million against 1.12 and 1.12.
    vcf_failed: HashMap<u64, u32, FixedState>,
    rng: SplitMix64,
    /// Move lists of scans done with, kept for the next scans to fill
    /// (a list a node would otherwise be allocated and freed).
    spare_lists: Vec<Vec<Listed>>,
    /// The same for the VCF's lists of fours.
    spare_fours: Vec<Vec<(usize, Threat)>>,
    /// How many of the best root moves get exact scores (at least one).
    exact: usize,
    tables: &'static ThreatTables,
    /// The ply of the pass being searched (usize::MAX for none): no side
    /// passes straight after the other.
    passed: usize,
}

impl Searcher {
    /// A search of `position`; `table` is a transposition table kept from
    /// earlier searches of the same game, or shared with the other threads
    /// searching it (none, or one of another size, starts afresh).
    pub fn new(
        position: &Position,
        config: SearchConfig,
        limits: &Limits,
        table: Option<Arc<Table>>,
    ) -> Searcher {
        // The budget counts from here: setting up (pattern tables on a first
        // search, the table's memory) is part of the move's time.
        let clock = TimeManager::new(limits.time, limits.nodes);
        let weights = [Color::Black, Color::White]
            .map(|mover| Weights::by_shape(position.variant(), mover, position.to_move()));
        let tables = ThreatTables::get();
        let mut board = SearchBoard::new(position);
        let renju = board.has_forbidden();
        board.keep_sums(Sums::with(weights, &tables.flags, renju));
        let history = vec![0; 2 * PADDED];
        let table = match table {
            Some(table) if table.len() == 1 << config.table_bits => table,
            _ => Arc::new(Table::new(config.table_bits)),
        };
        Searcher {
            board,
            config,
            weights,
            clock,
            nodes: 0,
            stopped: false,
            table,
            first_depth: 1,
            killers: [[0; 2]; MAX_PLY],
            evals: [0; MAX_PLY],
            history,
            vcf_failed: HashMap::with_hasher(FixedState::default()),
            rng: SplitMix64::new(limits.seed),
            spare_lists: Vec::new(),
            spare_fours: Vec::new(),
            exact: limits.candidates.max(1),
            tables,
            passed: usize::MAX,
        }
    }

    fn me(&self) -> Color {
        self.board.to_move
    }

    /// What a stone of `color` on `i` makes.
    #[inline]
    fn threat(&self, color: Color, i: usize) -> Threat {
        self.tables.threats[self.board.shape(color, i)]
    }

    /// How many fives and fours (an open four counting two) a stone of
    /// `color` on `i` makes: what the threat searches need, without the rest.
    #[inline]
    fn fives_and_fours(&self, color: Color, i: usize) -> (u8, u8) {
        self.tables.fives_and_fours_of(self.board.shape(color, i))
    }

    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if !self.stopped && self.clock.must_stop(self.nodes) {
            self.stopped = true;
        }
        self.stopped
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.tick() {
            return 0;
        }
        if self.board.is_full() {
            return 0;
        }
        // The table before the scan: a position it holds deep enough needs
        // no scan. (No position the scan settles, with a five to make, a
        // five that cannot be stopped or a winning four, is ever stored, nor
        // a leaf, so the checks below could not have answered first.)
        let early = depth > 0 && ply < MAX_PLY - 1;
        let mut tt = None;
        if early {
            tt = self.probe(ply);
            if let Some(score) = table_cut(tt, depth, alpha, beta) {
                return score;
            }
        }
        let scan = self.scan_values();
        // Wins and losses score WIN less the plies from the root to the
        // five, counting the root's move as the first (as VCF counts).
        if scan.my_five.is_some() {
            return WIN - ply as i32 - 1;
        }
        match scan.their_fives.len() {
            0 => {}
            1 if self.board.legal(scan.their_fives[0], self.me()) => {}
            _ => return -(WIN - ply as i32 - 2),
        }
        if scan.their_fives.is_empty() && scan.my_winning_four.is_some() {
            return WIN - ply as i32 - 3;
        }
        // Tried without gain (against Rapfi STRENGTH 60 at 200 ms, 208
        // games, this search scoring 38.5% in renju, 35.6% in a rerun, and
        // 50.2% in freestyle the same day): a four-three or a double three
        // that no four of the opponent's can interrupt scored as a win in 5
        // here (30.5% and 42.8%), and, alone, a node facing the opponent's
        // four-three searching only the moves that take its point, stop a
        // four or an open three of theirs, or make a four (renju 33.2%).
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // two 208-game matches each paired game by game with two of this
        // search the same day, which scored 53.6%): a leaf at or above beta
        // where the opponent could make a four and would win by continuous
        // fours if it were their move (its static value not the side to
        // move's to keep, as it must spend the move answering) searched a
        // ply deeper, its moves neither pruned nor their leaves extended
        // again: 54.8 and 56.2%, +1.9 points (95% ±5.7) over 416 pairs, as
        // black +3.8 (±8.2), as white 0.0 (±7.8). Measured again later the
        // same day (12-05 night) against three other matches of this search
        // (54.1, 48.1 and 52.9%): 50.5, 49.0 and 46.6%, -3.0 (±4.6) over
        // 624 pairs, as black +4.0 (±7.0), as white -9.9 (±6.0).
        if (depth <= 0 && scan.their_fives.is_empty()) || ply >= MAX_PLY - 1 {
            return self.leaf(&scan, ply, beta);
        }
        // Here at the horizon only to make a forced block: it lists its
        // moves below like any interior node.
        let mut scan = scan;
        if !early {
            tt = self.probe(ply);
            if let Some(score) = table_cut(tt, depth, alpha, beta) {
                return score;
            }
        }
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // two 208-game matches each paired game by game with one of this
        // search the same day, on a fast day where it scored 51.4%): the
        // static value for the pruning below refined by the table's entry
        // where its bound says the truth lies beyond it (its score if
        // exact, the higher of the two if a lower bound, the lower if an
        // upper; not a win or a loss), as Rapfi does: -6.4 points (95%
        // ±5.7) over 416 pairs, as white -11.3 (±7.7).
        //
        // Not kept, against full-strength Rapfi at 200 ms in renju (12-07,
        // a sixteenth machine, four 208-game matches each paired game by
        // game with one of this search played just before it, in turn,
        // which scored 40.0%): a correction history, as Stockfish corrects
        // its static evaluation. What the search of a node found its static
        // value missed (a node not facing a four, its result not a win or a
        // loss and its bound on the side away from the static value), kept
        // as a running average by the side to move and the hash of its own
        // stones, and by the hash of the opponent's (2^14 slots each, each
        // search moving them depth/32 of the way, half at most), and the
        // mean of the two added to every node's static value, leaves too
        // (300 at most either way): 39.2%, -0.8 points (95% ±3.4) over 832
        // pairs, as black +2.0 (±5.4), as white -3.6 (±4.0); the same depth
        // (p50 10, p90 12) and rate.
        let eval = scan.evaluation;
        self.evals[ply] = eval;
        let improving = ply >= 2 && eval > self.evals[ply - 2];
        // Nothing forces the side to move: no five to block, no three to
        // stop, and the window is not about a win or a loss.
        let quiet_node = scan.their_fives.is_empty() && !scan.their_three;
        if quiet_node && beta - alpha == 1 && alpha.abs() < WIN_THRESHOLD {
            // Reverse futility: far enough above beta that a shallow search
            // would not bring it down.
            if depth <= FUTILITY_DEPTH
                && eval - FUTILITY_MARGIN * (depth - i32::from(improving)) >= beta
            {
                self.spare(&mut scan);
                return eval;
            }
            // Razoring: far enough below alpha that only a tactic would
            // lift it, and the leaf looks for the tactic.
            if depth <= 2 && eval + RAZOR_MARGIN * depth < alpha {
                self.spare(&mut scan);
                return self.leaf(&scan, ply, beta);
            }
            // Null move: a position good enough that the opponent, given a
            // free move, still cannot bring it below beta in a shallower
            // search. Five in a row knows no zugzwang, so passing is never
            // better than moving.
            if depth >= NULL_DEPTH && eval >= beta && ply > 0 && self.passed != ply - 1 {
                let saved = self.passed;
                self.passed = ply;
                self.board.pass();
                let r = NULL_REDUCTION + depth / 6;
                let score = -self.negamax(depth - r, -beta, -beta + 1, ply + 1);
                self.board.pass();
                self.passed = saved;
                if self.stopped {
                    return 0;
                }
                if score >= beta && score < WIN_THRESHOLD {
                    self.spare(&mut scan);
                    return score;
                }
            }
        }
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // two 208-game matches each paired game by game with one of this
        // search the same day, which scored 47.8% over 416 games): internal
        // iterative reduction, a node with an open window 4 or more plies
        // from the leaves that the table knows no move for searched a ply
        // shallower (as Rapfi reduces such a node by a third of a ply):
        // -4.8 points (95% ±5.8) over 416 pairs, as black -1.0 (±8.9), as
        // white -8.7 (±7.3).
        //
        //
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // two 208-game matches each paired game by game with two of this
        // search the same day, which scored 46.4%): a node with an open
        // window whose table entry came from a search shallower by four
        // plies or more searched shallower by 0.28 of a ply for each ply of
        // the difference, three at most (Rapfi's reduction for a principal
        // variation's table move not chosen for some iterations): 42.3 and
        // 45.2%, -2.6 points (95% ±4.0) over 416 pairs, as black -2.2
        // (±6.0), as white -3.1 (±5.4).
        // Measured and not kept, for speed: the table's move searched
        // before the node lists its moves where the entry is a lower bound
        // (the move cut the node off before), the list made only if it does
        // not cut again. Node for node the same search with the list made
        // first; made after, it ranks the rest with the history the staged
        // move's search left. Of the 407,000 nodes that reached their moves
        // in `engine_speed -- --nodes 100000`, only 29,700 had such an
        // entry (it cut 86% of the time), and the runs took 1,947-1,971 ms
        // against 1,940-1,966 for this search, alternating (a match on the
        // other processor).
        // The moves are listed only now, that the node is sure to need them.
        self.list_moves(&mut scan);
        let list = std::mem::take(&mut scan.moves);
        let moves = self.ranked(&scan, list, ply, tt.map(|e| e.best as usize));
        if moves.is_empty() {
            self.spare_lists.push(moves);
            return scan.evaluation;
        }
        // A forced block costs no depth.
        //
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // three 208-game matches each paired game by game with one of this
        // search the same day, which scored 44.7%): a node facing an open
        // three (and no four) also searched at its own depth, at most twice
        // on a line: +2.9 points (95% ±4.7) over 624 pairs, as black -1.3
        // (±7.2), as white +7.1 (±6.0), with the compiled-in book. Only
        // where white is to move, three more matches against the same
        // three: +1.5 (±4.4), as white +2.2 (±5.1) (black's games, played
        // as before, +0.8: the noise of a match this size).
        // Only where the search plays white (its black play node for node
        // unchanged), with the renju book it wrote, two matches paired with
        // two of this search the same day (45.7%): -7.3 points (95% ±5.4)
        // over 416 pairs, as white -7.5 (±6.6), and as black, where only
        // the book differed, -7.2 (±8.4).
        // Measured again on this search (12-05 night, the book compiled
        // in), at most twice on a line, paired with two matches of this
        // search (48.1 and 52.9%): 50.7 and 48.6%, -0.8 (±5.8) over 416
        // pairs, as black +3.4 (±8.4), as white -5.0 (±7.9); depth p50 8
        // where this search reaches 10, and two moves at depth 4 and 5 of
        // 200 and 208 ms, the search spread over the extended lines.
        //
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // four 208-game matches each paired game by game with one of this
        // search the same day, which scored 44.6%): singular extensions of
        // the table's move. At 6 plies or more from the leaves, where the
        // table's move was found at least as good as its score (not a win)
        // by a search at most two plies shallower, the node's other moves
        // searched at half the depth with a null window 10 points a ply
        // below that score (the table neither settling nor keeping that
        // search); all failing low, the table's move searched a ply deeper;
        // the window beating beta, the node cut off (multi-cut); else a ply
        // shallower where the table's score beat beta; lines extended to
        // twice the root's depth at most. +3.4 points (95% ±4.6) over 624
        // pairs with the books compiled in, then -2.6 (±8.3) over 208 with
        // books written by that search: +1.9 (±4.1) over all 832, as black
        // +2.3 (±6.3), as white +1.4 (±5.1); a median depth of 8 reached at
        // 200 ms where this search reaches 9.
        //
        // Not shown to gain against full-strength Rapfi at 200 ms (12-06 on
        // a fifth machine, two 208-game matches a rule set each paired game
        // by game with one of this search): every third forced block on a
        // line searched a ply deeper than its node (about a third of a ply
        // a block, after Rapfi's extension of a reply to a four), renju
        // -0.5 points (95% ±5.7) over 416 pairs, as black -2.4 (±9.2);
        // freestyle -2.9 (±4.9), as black -6.0 (±8.4); depth p50 9 where
        // this search reaches 10 in renju.
        let next_depth = if scan.their_fives.is_empty() {
            depth - 1
        } else {
            depth
        };
        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = moves[0].point();
        let late = late_move_count(depth, improving, self.board.has_forbidden());
        // The moves searched here that did not cut the search off, for
        // the history (a node has fewer than this, its width, but a node
        // facing a three may have more: the rest go unrecorded).
        let mut failed = [0usize; 32];
        let mut failures = 0;
        for (n, m) in moves.iter().enumerate() {
            let (i, quiet) = (m.point(), m.quiet);
            // Move count pruning: quiet moves past a count that grows with
            // the depth are not searched once a move that does not lose is
            // in hand (on the principal variation too).
            if quiet_node && quiet && n >= late && best > -WIN_THRESHOLD {
                continue;
            }
            // Late quiet moves are searched a ply shallower first: the
            // threat-first ordering puts the moves that matter in front.
            //
            // Tried without gain in renju (against Rapfi STRENGTH 60 at
            // 200 ms, 208 games, this search scoring 35.6% the same day),
            // after Rapfi's reductions:
            // - a quiet move within four points of the side's last move, when
            //   that move made a four or an open three, reduced a ply less
            //   (27.4%);
            // - a move making an open three and nothing else reduced like a
            //   quiet one, a ply less (31.2%);
            // - in an expected cut node, quiet moves other than the killers
            //   reduced one ply more (30.8%) or two (26.9%);
            // - in a node facing a three, counter-fours more than four points
            //   from both last moves left out below depth 4, and searched two
            //   plies shallower first above it (33.4%).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // 208-game matches each paired game by game with one of this
            // search the same day, which scored 45.0% over 1,248 games): in a
            // node facing a three, the defences from the third on searched a
            // ply shallower first (as Rapfi reduces every move after its
            // first), +4.3 points (95% ±3.8) over 832 pairs with the renju
            // book compiled in, then -2.8 (±5.7) over 416 with a book written
            // by that search: +1.9 (±3.2) over all 1,248. From the second
            // defence on, -2.9 (±7.3) over 208.
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // 208-game matches each paired game by game with one of this
            // search the same day): fail-high reductions, where a quiet node
            // with a null window (beta not a win or a loss) has a static value
            // at least 110 a ply above beta, every move that makes no four and
            // takes no point of the opponent's four searched a ply shallower.
            // With the books compiled in, +2.9 points (95% ±4.0) over 832
            // pairs (this search 44.6% on a slow day); then with books written
            // by that search, on a fast day (this search 48.9% over 1,248
            // games), +1.4 (±3.4) over 1,248 pairs, as black +0.2 (±5.0), as
            // white +2.6 (±4.6): 50.4% against 48.9%, depth p90 12 where this
            // search reaches 11. At 150 a ply, with its own renju book, -4.6
            // (±4.9) over 624 pairs. Together with the defence reductions
            // above (renju alone, with the book they wrote), on a slow day
            // (this search 47.6% over 624 games): -7.6 (±4.8) over 624
            // pairs, as black -7.5 (±7.5), as white -7.7 (±6.0).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // two 208-game matches each paired game by game with one of this
            // search the same day, which scored 48.3% over 832 games): the
            // reduction a ply less in a node with an open window, and a ply
            // more (where it was more than one) in a null-window node where
            // the side to move is not improving, as Rapfi and Stockfish
            // reduce: -0.7 points (95% ±5.7) over 416 pairs, as black -0.7
            // (±8.9), as white -0.7 (±7.0).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // two 208-game matches each paired game by game with one of this
            // search the same day, which scored 47.8% over 416 games): a
            // reduced move whose shallower search beat alpha by more than 340
            // and 110 a ply of its reduction searched again a ply deeper than
            // the others, once on a line (Rapfi's and Stockfish's deeper
            // search after a reduction): -0.5 points (95% ±5.6) over 416
            // pairs, as black +4.8 (±8.8), as white -5.8 (±6.8).
            //
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
            // two 208-game matches each paired game by game with two of this
            // search the same day, which scored 51.9%, both with the brain's
            // 10 ms margin tried there): a reduced move whose point's history
            // was 512 or more (about the top quarter of such moves at 200 ms)
            // reduced a ply less, and one below zero a ply more (as Rapfi
            // adjusts its reductions by a move's history): 48.6 and 52.9%,
            // -1.2 points (95% ±4.3) over 416 pairs, as black +4.3 (±6.1), as
            // white -6.7 (±6.1); depth p50 9 where this search reached 10.
            //
            // Tried and dropped in renju (against Rapfi STRENGTH 60 at 200 ms,
            // three 208-game matches each paired game by game with one of this
            // search the same day, which scored 51.8% over 624 games): Rapfi's
            // pruning as a package, with the renju book it wrote. Move count
            // pruning for every move in every node (not only quiet moves in
            // quiet nodes), moves making no open two or three for either side
            // left out below 5 plies from the leaves, and every move after the
            // first reduced by 0.5625 ln(depth) ln(n + 1), rounded, a ply more
            // off the principal variation where not improving and a ply less
            // on it. Depth p50/p90 rose from 7/11 to 10/14, but it scored
            // 28.4%: -23.3 points (95% ±4.8) over 624 pairs, as black -22.6
            // (±7.6), as white -24.0 (±6.0). Depth bought by pruning threats
            // loses to a tactical engine.
            //
            // Not kept, against full-strength Rapfi (12-07, a twelfth
            // machine, the fifth renju book, each 208-game match paired game
            // by game with the match of this search played just after it):
            // in renju, facing a three, a counter-four more than 4 points
            // from the opponent's last move and more than 5 from one's own
            // (Rapfi's distracting defence) left out below 4 plies from the
            // leaves once a move that does not lose is in hand, and searched
            // two plies shallower first above: at 200 ms 40.9, 48.3 and
            // 41.1%, +4.6 points (95% ±3.7) over 624 pairs (+2.0, ±3.8, with
            // the match just before each), but at 1 s 13.5% where this search
            // scored 26.9% just after, -13.5 (±10.8) over 52 pairs. Measured
            // again at 200 ms (12-08, an eighteenth machine, the counter-four
            // also taking no point of the opponent's four, never the first
            // move): 41.3, 46.6 and 41.1%, +0.8 (±4.2) over 624 pairs with the
            // three matches of this search played among them (42.2%), as
            // black +0.6 (±6.5), as white +1.0 (±5.3). A plain
            // four (no open three, not a winning four) of the side to move's,
            // or a block of the opponent's plain four, late in a quiet node
            // searched a ply shallower first as a quiet move is: 41.8 and
            // 39.9% at 200 ms, 0.0 (±5.2) over 416 pairs. In a node facing a
            // three, every answer from the third on a ply shallower first (as
            // tried against STRENGTH 60 above): 40.9%, -0.2 (±7.0) over 208
            // pairs. The three together: 36.5%, -1.9 (±6.2) paired with the
            // match just before it.
            //
            // Not kept, against full-strength Rapfi at 1 s in renju (12-07, a
            // fourteenth machine, each 104-game match paired game by game with
            // one of this search, which scored 25.0 and 18.3%): late in a
            // quiet node, a move making an open three (and no four) searched
            // a ply shallower first, and in a node facing a three every
            // answer from the third on. It proved more of the wins Rapfi
            // announced against this search (22 of the first 78 positions of
            // `examples/data/rapfi-wins.txt` at 1 s, two at once, where this
            // search proves 17) but scored 18.3 and 21.6%, -1.7 points (95%
            // ±6.4) over 208 pairs, as black -1.9 (±11.4), as white -1.4
            // (±6.1).
            let reduced = quiet_node && n >= LMR_FROM && depth >= 3 && quiet;
            // The child probes the table first: its slot is fetched while
            // the move is made.
            if next_depth > 0 {
                self.prefetch(self.board.hash_after(i));
            }
            self.board.make(i);
            let score = if n == 0 {
                -self.negamax(next_depth, -beta, -alpha, ply + 1)
            } else {
                let mut probe = alpha + 1;
                if reduced {
                    let r = reduction(depth, n);
                    probe = -self.negamax(next_depth - r, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha {
                    probe = -self.negamax(next_depth, -alpha - 1, -alpha, ply + 1);
                }
                if probe > alpha && probe < beta {
                    -self.negamax(next_depth, -beta, -alpha, ply + 1)
                } else {
                    probe
                }
            };
            self.board.unmake();
            if self.stopped {
                return 0;
            }
            if score < beta && failures < failed.len() {
                failed[failures] = i;
                failures += 1;
            }
            if score > best {
                best = score;
                best_move = i;
            }
            // Not shown to gain in renju (against Rapfi STRENGTH 60 at
            // 200 ms, three 208-game matches each paired game by game with
            // one of this search the same day, on a fast day where it scored
            // 51.0%): in a node with an open window 3 to 11 plies from the
            // leaves, each move raising alpha to a score nearer even than
            // 2000 making the moves after it a ply shallower (Rapfi's
            // alpha-improvement reduction), the node's entry kept at the
            // depth reduced: -2.6 points (95% ±4.4) over 624 pairs, as black
            // +4.2 (±6.2), as white -9.5 (±6.1).
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if ply < MAX_PLY && self.killers[ply][0] != i {
                    self.killers[ply][1] = self.killers[ply][0];
                    self.killers[ply][0] = i;
                }
                // The move that cut gains, the moves searched before it lose.
                //
                // Not shown to gain in renju (against Rapfi STRENGTH 60 at
                // 200 ms, two 208-game matches each paired game by game with
                // two of this search the same day, which scored 53.6%): the
                // same kept for each move as the reply to the opponent's last
                // (a continuation history, by side, last move and point, in
                // 16 bits) and added to the ordering like the history,
                // clamped to ±200: 50.2 and 50.6%, -3.2 points (95% ±5.8)
                // over 416 pairs, as black +0.5 (±8.1), as white -7.0 (±8.2).
                let mine = side(self.me()) * PADDED;
                let bonus = depth * depth;
                self.history[mine + i] = (self.history[mine + i] + bonus).min(HISTORY_LIMIT);
                for &j in &failed[..failures] {
                    self.history[mine + j] = (self.history[mine + j] - bonus).max(-HISTORY_LIMIT);
                }
                break;
            }
        }
        // Tried and dropped (renju, against Rapfi STRENGTH 60 at 200 ms,
        // three 208-game matches each paired game by game with one of this
        // search the same day, which scored 48.6%): where every move
        // searched loses and the width left moves out, the others searched
        // until one does not lose, so that a loss shown by some moves alone
        // is not taken for a loss. No announced win went unwon (0 of 624
        // games, against 3), but it scored 44.2%: -4.4 points (95% ±3.9),
        // as white -9.1 (±5.1).
        self.spare_lists.push(moves);
        let bound = if best <= original_alpha {
            UPPER
        } else if best >= beta {
            LOWER
        } else {
            EXACT
        };
        self.store(depth, best, bound, best_move, ply);
        best
    }

    /// The value of a node searched no deeper: a win by continuous fours
    /// if there is one (the threat a quiet evaluation misses most), else
    /// the static value. A static value at or above `beta` already cuts
    /// the search off: a win would only cut it off too, so it is not
    /// looked for (more than half of the leaves' VCF work went there).
    ///
    /// Tried without gain in renju (against Rapfi STRENGTH 60 at 200 ms,
    /// 208 games, this search scoring 35.6% the same day): instead
    /// of the VCF, a quiescence search over the side to move's fours, each
    /// answered by its block and the position searched again, the static
    /// value standing when no four improves on it (Rapfi's search at depth
    /// 0): 28.8%, black's games falling from 50 won of 104 to 34. The VCF
    /// first and then such fours one or two deep: 37.0%.
    ///
    /// Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
    /// three 208-game matches each paired game by game with one of this
    /// search the same day, which scored 48.5% over 624 games): the static
    /// value averaged with the parent node's, seen from this side (as Rapfi
    /// averages its basic evaluation over the last two plies, so that a
    /// leaf's value swings less with whose turn it is): +0.6 points (95%
    /// ±4.8) over 624 pairs, as black +1.0 (±7.0), as white +0.3 (±6.5).
    fn leaf(&mut self, scan: &Scan, ply: usize, beta: i32) -> i32 {
        if scan.evaluation >= beta {
            return scan.evaluation;
        }
        if self.config.leaf_vcf_depth > 0
            && scan.their_fives.is_empty()
            && scan.my_four
            && let Some((_, plies)) = self.vcf(self.config.leaf_vcf_depth)
        {
            return WIN - ply as i32 - plies as i32;
        }
        scan.evaluation
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::engine::eval;
    use crate::rules::{ForbiddenPolicy, Point, Variant};

    /// A search four plies deep, ten moves wide, with VCF and no VCT, its
    /// table of 2^`table_bits` entries.
    pub(super) fn shallow(table_bits: u32) -> SearchConfig {
        SearchConfig {
            max_depth: 4,
            width: 10,
            vcf_depth: 8,
            vct_depth: 0,
            leaf_vcf_depth: 0,
            table_bits,
        }
    }

    /// Walks 1500 random steps from `position` on its middle six by six
    /// points, each step a move, or one taken back a third of the time and
    /// whenever 27 stones are down, and calls `visit` after each with the
    /// searcher (its board at the step), those points and the step.
    pub(super) fn random_walk(
        position: &Position,
        seed: u64,
        mut visit: impl FnMut(&mut Searcher, &[usize], usize),
    ) {
        let mut rng = SplitMix64::new(seed);
        let mut searcher = Searcher::new(position, shallow(10), &Limits::default(), None);
        let centre: Vec<usize> = (searcher.board.points.iter().copied())
            .filter(|&i| {
                let p = SearchBoard::point(i);
                (2..8).contains(&p.x) && (2..8).contains(&p.y)
            })
            .collect();
        for step in 0..1500 {
            let crowded = searcher.board.stones > 26;
            if !searcher.board.history.is_empty() && (crowded || rng.below(3) == 0) {
                searcher.board.unmake();
            } else {
                let empty: Vec<usize> = (centre.iter().copied())
                    .filter(|&i| searcher.board.is_empty(i))
                    .collect();
                searcher.board.make(empty[rng.below(empty.len())]);
            }
            visit(&mut searcher, &centre, step);
        }
    }

    /// The scan from the sums the board keeps finds what the scan point by
    /// point finds, in every position of random walks of moves made and
    /// taken back (renju's forbidden points met among them), for both
    /// sides to move: the value, the threat mask, the fives, fours and
    /// threes.
    #[test]
    fn the_kept_sums_scan_as_the_points_do() {
        let same = |a: &Scan, b: &Scan, at: &str| {
            assert_eq!(a.evaluation, b.evaluation, "evaluation {at}");
            assert_eq!(a.mask, b.mask, "mask {at}");
            assert_eq!(a.my_five, b.my_five, "my five {at}");
            assert_eq!(a.their_fives, b.their_fives, "their fives {at}");
            assert_eq!(a.my_winning_four, b.my_winning_four, "winning four {at}");
            assert_eq!(a.their_three, b.their_three, "their three {at}");
            assert_eq!(a.my_four, b.my_four, "my four {at}");
        };
        let mut forbidden_met = 0;
        for (variant, seed) in [
            (Variant::renju(ForbiddenPolicy::Reject), 3),
            (Variant::renju(ForbiddenPolicy::Reject), 4),
            (Variant::freestyle(15).unwrap(), 5),
            (Variant::custom(9, 9, 4, false).unwrap(), 6),
        ] {
            // Started from stones on the board too: the sums are summed
            // afresh when the search starts.
            let mut position = Position::new(variant);
            position.play(Point::new(4, 4)).unwrap();
            random_walk(&position, seed, |searcher, centre, step| {
                let kept = searcher.scan_sums().expect("sums kept");
                let counted = searcher.scan_points();
                same(&kept, &counted, &format!("at step {step} of walk {seed}"));
                if searcher.board.has_forbidden() {
                    forbidden_met += (centre.iter())
                        .filter(|&&i| {
                            searcher.board.is_empty(i) && !searcher.board.legal(i, Color::Black)
                        })
                        .count();
                }
            });
        }
        assert!(forbidden_met > 0, "the walks met forbidden points");
    }

    /// A search asked for three candidates searches each of its three best
    /// with a full window: the table holds each one's reply position as an
    /// exact value, its score negated. Asked for one, the others only show
    /// worse than the best (their replies fail high: lower bounds).
    #[test]
    fn the_candidates_asked_for_are_each_scored_exactly() {
        let config = shallow(16);
        let mut position = Position::new(Variant::freestyle(15).unwrap());
        for (x, y) in [(7, 7), (8, 8), (8, 6), (6, 8), (9, 7), (7, 9)] {
            position.play(Point::new(x, y)).unwrap();
        }
        let exact_replies = |candidates: usize| {
            let limits = Limits {
                time: std::time::Duration::from_secs(60),
                nodes: None,
                seed: 1,
                candidates,
            };
            let searcher = Searcher::new(&position, config, &limits, None);
            let (decision, table) = searcher.run_keeping();
            let decision = decision.unwrap();
            assert_eq!(decision.depth, 4, "the search went to its full depth");
            let mut probe = Searcher::new(&position, config, &limits, Some(table));
            decision
                .candidates
                .iter()
                .take(3)
                .map(|c| {
                    probe.board.make(SearchBoard::index(c.point));
                    let entry = probe.probe(1).expect("the reply position is in the table");
                    probe.board.unmake();
                    entry.bound == EXACT && i64::from(entry.score) == -c.score
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(exact_replies(3), [true, true, true]);
        assert!(exact_replies(1)[0]);
        assert!(exact_replies(1)[1..].contains(&false));
    }

    /// A four with one block is still searched: the block is played, and
    /// the decision says what comes of it and how, rather than nothing.
    #[test]
    fn a_forced_block_is_searched_for_what_follows() {
        let decide = |moves: &[(u8, u8)]| {
            let mut position = Position::new(Variant::freestyle(15).unwrap());
            for &(x, y) in moves {
                position.play(Point::new(x, y)).unwrap();
            }
            let limits = Limits {
                time: std::time::Duration::from_secs(60),
                nodes: Some(20_000),
                seed: 1,
                candidates: 1,
            };
            let searcher = Searcher::new(&position, shallow(12), &limits, None);
            searcher.run().unwrap()
        };
        // Black's four up the middle, blocked below; white's stones
        // threaten nothing.
        let four = [(7, 7), (0, 0), (7, 8), (0, 1), (7, 9), (7, 6), (7, 10)];
        let decision = decide(&four);
        assert_eq!(decision.point, Point::new(7, 11), "the block");
        assert!(decision.depth > 1 && decision.nodes > 1, "{decision:?}");
        assert!(decision.pv.len() > 1, "the line goes on: {decision:?}");
        assert_eq!(decision.forced_loss_in, None, "{decision:?}");
        // With an open three of black's besides (along the fourth row), the
        // block loses: black makes an open four next.
        let moves = [
            (7, 7),
            (0, 0),
            (7, 8),
            (0, 1),
            (7, 9),
            (7, 6),
            (10, 3),
            (0, 14),
            (11, 3),
            (14, 0),
            (12, 3),
            (14, 14),
            (7, 10),
        ];
        let decision = decide(&moves);
        assert_eq!(decision.point, Point::new(7, 11), "the block");
        assert_eq!(decision.forced_loss_in, Some(4), "{decision:?}");
    }

    /// A renju middle game, white to move.
    fn expert_position() -> Position {
        let mut position = Position::new(Variant::renju(ForbiddenPolicy::Lose));
        for name in "h8 h9 i10 j8 j9 h11 i8 k10 i7 i9 k7 j6 j7 l7 h7 g7 h5".split(' ') {
            let point = crate::rules::parse_point(name, 15, 15).unwrap();
            position.play(point).unwrap();
        }
        position
    }

    /// A helper stops within a few nodes of being told that the search it
    /// helps has decided, whatever its own budget.
    #[test]
    fn a_helper_stops_once_the_search_it_helps_has_decided() {
        let position = expert_position();
        let limits = Limits {
            time: std::time::Duration::from_secs(600),
            ..Limits::default()
        };
        let mut helper = Searcher::new(&position, crate::engine::EXPERT, &limits, None);
        helper.clock.stop_when(Arc::new(AtomicBool::new(true)));
        helper.first_depth = 2;
        helper.decide();
        assert!(helper.stopped);
        assert!(
            helper.nodes < 100,
            "{} nodes after being told",
            helper.nodes
        );
    }

    /// With helpers, the search shares one table with them and still
    /// decides as a search does: a legal move, searched to some depth, and
    /// the table it gives back holds the root's reply positions.
    #[test]
    fn a_search_with_helpers_decides_and_keeps_the_shared_table() {
        let position = expert_position();
        let limits = Limits {
            time: std::time::Duration::from_secs(600),
            nodes: Some(40_000),
            ..Limits::default()
        };
        let searcher = Searcher::new(&position, crate::engine::EXPERT, &limits, None);
        let (decision, table) = searcher.run_with_helpers(&position, &limits, 3);
        let decision = decision.expect("a move");
        assert!(position.board().get(decision.point).is_none());
        assert!(decision.depth >= 3, "depth {}", decision.depth);
        let mut probe = Searcher::new(&position, crate::engine::EXPERT, &limits, Some(table));
        probe.board.make(SearchBoard::index(decision.point));
        assert!(
            probe.probe(1).is_some(),
            "the reply to the move is in the table"
        );
    }

    /// A search of a game plays the move its table holds for the root: a
    /// win the game's last search found two plies down is played, though
    /// it starts with a quiet move the root's ordering leaves out of its
    /// width. From a renju game against Rapfi: white's h13 threatens h12,
    /// a four black may only block on h11, a double three for black. The
    /// expert searching this position afresh, its root's 24 moves without
    /// h13, judged every move lost.
    #[test]
    fn the_tables_move_for_the_root_is_searched_at_every_depth() {
        let expert = crate::engine::EXPERT;
        let mut position = Position::new(Variant::renju(ForbiddenPolicy::Reject));
        for (x, y) in [
            (7, 7),
            (7, 6),
            (9, 5),
            (8, 6),
            (8, 4),
            (8, 7),
            (6, 5),
            (8, 8),
            (8, 5),
            (7, 5),
            (6, 4),
            (6, 6),
            (9, 6),
            (5, 6),
            (4, 6),
            (8, 10),
            (8, 9),
        ] {
            position.play(Point::new(x, y)).unwrap();
        }
        let h13 = Point::new(7, 2);
        let limits = Limits {
            time: std::time::Duration::from_secs(60),
            nodes: Some(300_000),
            seed: 1,
            candidates: 1,
        };
        // A search wide enough to see h13 fills the table below the root
        // (the root's own entry is not kept) ...
        let wide = SearchConfig {
            width: 64,
            ..expert
        };
        let (found, table) = Searcher::new(&position, wide, &limits, None).run_keeping();
        let found = found.unwrap();
        assert_eq!((found.point, found.forced_win_in), (h13, Some(5)));
        // ... and the entry a search two plies up leaves for this position
        // names h13, as the game's had.
        let mut searcher = Searcher::new(&position, expert, &limits, Some(table));
        searcher.store(9, WIN - 5, LOWER, SearchBoard::index(h13), 0);
        let decision = searcher.run().unwrap();
        assert_eq!((decision.point, decision.forced_win_in), (h13, Some(5)));
    }

    /// The search evaluates a quiet position as the weights applied to the
    /// features `gobang tune` fits them on: a fitted weight means in the
    /// search what it meant in the fit.
    #[test]
    fn the_search_evaluates_with_the_features_the_tuner_fits() {
        let mut masks = std::collections::HashSet::new();
        let config = SearchConfig {
            max_depth: 1,
            width: 8,
            vcf_depth: 0,
            vct_depth: 0,
            leaf_vcf_depth: 0,
            table_bits: 8,
        };
        for variant in [
            Variant::freestyle(15).unwrap(),
            Variant::renju(ForbiddenPolicy::Reject),
        ] {
            let mut rng = SplitMix64::new(11);
            let mut checked = 0;
            for _ in 0..300 {
                let mut position = Position::new(variant);
                for _ in 0..1 + rng.below(40) {
                    let p = Point::new(3 + rng.below(9) as u8, 3 + rng.below(9) as u8);
                    if position.is_over() {
                        break;
                    }
                    if position.check(p).is_ok() && position.forbidden_kind(p).is_none() {
                        position.play(p).unwrap();
                    }
                }
                if position.is_over() {
                    continue;
                }
                let Some(features) = eval::features(&position) else {
                    continue;
                };
                let mut searcher = Searcher::new(&position, config, &Limits::default(), None);
                let mover = position.to_move();
                let scan = searcher.scan();
                assert_eq!(
                    scan.evaluation,
                    eval::evaluate(
                        Weights::for_mover(&variant, mover),
                        eval::ClassValues::for_mover(&variant, mover, mover),
                        eval::ThreatValues::for_mover(&variant, mover, mover),
                        &features
                    ),
                    "\n{}",
                    position.board()
                );
                // The masks are worked out only where they are valued.
                if eval::ThreatValues::for_mover(&variant, mover, mover).in_use() {
                    assert_eq!(scan.mask, features.mask, "\n{}", position.board());
                    masks.insert(scan.mask);
                }
                checked += 1;
            }
            assert!(checked > 50, "only {checked} quiet positions");
        }
        // Freestyle and renju's black value them: the masks compared were
        // many, not all the empty one.
        assert!(masks.len() > 10, "only {} threat masks", masks.len());
    }
}
