//! The expert's opening book: for the positions that follow the 26 standard
//! openings on 15×15 (freestyle and renju), the move a long search of
//! gobang's own chose, so that the first moves of a game get the thought a
//! 200 ms budget cannot give them. `gobang book` writes a book, and can
//! teach it the positions where games played left it, and which of the
//! moves its search holds about as good to play by how their games went
//! ([`Results`]); the ones in `book/` are compiled in. A position is found
//! whatever its orientation (any of the board's eight symmetries) and
//! whatever the order its stones were played in.
//!
//! A book is text, one position a line:
//!
//! ```text
//! h8 h7 j9 : g6 12 g6=35 j7=20 g9=-4
//! ```
//!
//! the moves from the empty board, then the move chosen, the depth the
//! search reached, and its candidates with their scores (best first).
//! Lines starting with `#` say how the book was made; `# engine <hash>`
//! names the expert that wrote it (see [`engine_fingerprint`]).

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use super::{Candidate, Decision, Limits, expert};
use crate::rules::{Color, Point, Position, RuleSet, Symmetry, Variant, parse_point};

/// Books are for this board only (the standard openings' board).
const SIDE: u8 = 15;

/// Candidates kept for each position.
const CANDIDATES: usize = 5;

/// What a book holds for one position (in the book's orientation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The moves that reach the position, from the empty board.
    pub moves: Vec<Point>,
    pub best: Point,
    pub depth: u32,
    /// The search's candidates, best first, with their scores.
    pub candidates: Vec<Candidate>,
}

/// The rule sets with a book, and their text.
const BOOKS: [(RuleSet, &str); 2] = [
    (RuleSet::Freestyle, include_str!("book/freestyle.txt")),
    (RuleSet::Renju, include_str!("book/renju.txt")),
];

type Book = HashMap<Vec<u16>, (Entry, Symmetry)>;

/// The book for `variant`'s rules, if it has one: its entries by the
/// position's canonical key, each with the symmetry that takes the entry's
/// own position to the canonical one.
fn book(variant: &Variant) -> Option<&'static Book> {
    static BOOKS_READ: OnceLock<Vec<(RuleSet, Book)>> = OnceLock::new();
    if (variant.width(), variant.height(), variant.k()) != (SIDE, SIDE, 5) {
        return None;
    }
    let books = BOOKS_READ.get_or_init(|| {
        BOOKS
            .iter()
            .map(|&(rules, text)| {
                let variant = Variant::from_spec(rules, &Default::default())
                    .expect("a book's rule set has a 15×15 default");
                let entries = read(text, &variant).expect("a compiled-in book reads");
                let by_key = entries
                    .into_iter()
                    .filter_map(|e| {
                        let (key, symmetry) = canonical(&replay(&variant, &e.moves)?);
                        Some((key, (e, symmetry)))
                    })
                    .collect();
                (rules, by_key)
            })
            .collect()
    });
    books
        .iter()
        .find(|(rules, _)| *rules == variant.rule_set())
        .map(|(_, book)| book)
}

/// Reads the book for `variant`'s rules now rather than at the first
/// lookup (which would spend a move's time on it).
pub(super) fn prepare(variant: &Variant) {
    book(variant);
}

/// The position after `moves`, if they are all legal.
fn replay(variant: &Variant, moves: &[Point]) -> Option<Position> {
    let mut position = Position::new(*variant);
    for &p in moves {
        position.play(p).ok()?;
    }
    Some(position)
}

/// The key of the position's stones under `symmetry`: the points of
/// black's stones then white's, each sorted, as indices.
fn key_under(position: &Position, symmetry: Symmetry) -> Vec<u16> {
    let board = position.board();
    let mut key = Vec::with_capacity(position.moves().len() + 1);
    for color in [Color::Black, Color::White] {
        let mut stones: Vec<u16> = board
            .points()
            .filter(|&p| board.get(p) == Some(color))
            .map(|p| {
                let q = symmetry.apply(p, SIDE);
                u16::from(q.y) * u16::from(SIDE) + u16::from(q.x)
            })
            .collect();
        stones.sort_unstable();
        key.extend(stones);
        key.push(u16::MAX);
    }
    key
}

/// The least key of the position over the eight symmetries, and the
/// symmetry that gives it: one key for every orientation.
fn canonical(position: &Position) -> (Vec<u16>, Symmetry) {
    let (key, symmetries) = canonical_all(position);
    (key, symmetries[0])
}

/// The position's canonical key, and every symmetry that gives it (more
/// than one where the position is itself symmetric), in [`Symmetry::ALL`]'s
/// order.
fn canonical_all(position: &Position) -> (Vec<u16>, Vec<Symmetry>) {
    let keys: Vec<(Vec<u16>, Symmetry)> = Symmetry::ALL
        .iter()
        .map(|&s| (key_under(position, s), s))
        .collect();
    let least = keys.iter().map(|(k, _)| k).min().expect("eight symmetries");
    let symmetries = keys
        .iter()
        .filter(|(k, _)| k == least)
        .map(|&(_, s)| s)
        .collect();
    (least.clone(), symmetries)
}

/// `p` in the canonical orientation given by `symmetries` (see
/// [`canonical_all`]): the least of its images, so that moves the
/// position's own symmetry makes equal are one move.
fn canonical_point(symmetries: &[Symmetry], p: Point) -> Point {
    symmetries
        .iter()
        .map(|s| s.apply(p, SIDE))
        .min()
        .expect("a symmetry gives the canonical key")
}

/// The book's move for the side to move, as a decision (the stored search's
/// depth and candidates), if the book has the position and its move is
/// legal in it.
pub fn lookup(position: &Position) -> Option<Decision> {
    let book = book(position.variant())?;
    if position.board().stone_count() == 0 || position.is_over() {
        return None;
    }
    let (key, symmetries) = canonical_all(position);
    let symmetry = symmetries[0];
    let (entry, book_symmetry) = book.get(&key)?;
    // The entry's points go to the canonical orientation by its symmetry,
    // and from there to this position's by the inverse of this one's.
    let back = symmetry.inverse();
    let here = |p: Point| back.apply(book_symmetry.apply(p, SIDE), SIDE);
    let point = here(entry.best);
    if position.check(point).is_err() || position.forbidden_kind(point).is_some() {
        return None;
    }
    let mut candidates: Vec<Candidate> = entry
        .candidates
        .iter()
        .map(|c| Candidate {
            point: here(c.point),
            score: c.score,
        })
        .collect();
    // The move played leads, as a search's best does, also where results
    // chose a candidate the search scored a little lower (in a symmetric
    // position the candidate may be the same move in another orientation).
    let played = canonical_point(&symmetries, point);
    if let Some(i) = candidates
        .iter()
        .position(|c| canonical_point(&symmetries, c.point) == played)
    {
        let mut chosen = candidates.remove(i);
        chosen.point = point;
        candidates.insert(0, chosen);
    }
    Some(Decision {
        point,
        candidates,
        depth: entry.depth,
        nodes: 0,
        forced_win_in: None,
        forced_loss_in: None,
        pv: vec![point],
    })
}

fn parse(s: &str) -> Result<Point, String> {
    parse_point(s, SIDE, SIDE).map_err(|e| e.to_string())
}

/// A book's text (see the module's documentation), or the first line that
/// is not an entry, with what is wrong with it. Blank lines and lines
/// starting with `#` are skipped.
pub fn read(text: &str, variant: &Variant) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |what: &str| {
            format!(
                "line {}: {what}; an entry is `<moves> : <best> <depth> <point>=<score>…`",
                n + 1
            )
        };
        let (moves, rest) = line.split_once(':').ok_or_else(|| bad("no `:`"))?;
        let moves = moves
            .split_whitespace()
            .map(parse)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| bad(&e))?;
        let mut fields = rest.split_whitespace();
        let best = parse(fields.next().ok_or_else(|| bad("no move"))?).map_err(|e| bad(&e))?;
        let depth = fields
            .next()
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| bad("no depth"))?;
        let candidates = fields
            .map(|c| {
                let (p, s) = c
                    .split_once('=')
                    .ok_or_else(|| bad("a candidate without `=`"))?;
                Ok(Candidate {
                    point: parse(p).map_err(|e| bad(&e))?,
                    score: s.parse().map_err(|_| bad("a score that is not a number"))?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let Some(position) = replay(variant, &moves) else {
            return Err(bad("the moves are not a legal game"));
        };
        if position.check(best).is_err() || position.forbidden_kind(best).is_some() {
            return Err(bad("the move may not be played there"));
        }
        entries.push(Entry {
            moves,
            best,
            depth,
            candidates,
        });
    }
    Ok(entries)
}

/// The positions [`engine_fingerprint`] searches: three openings and two
/// positions of five stones with white to move, and two positions of four
/// stones with black to move (until these two, a change to how the expert
/// plays black alone, such as an evaluation by the colour it plays, left
/// the fingerprint as it was).
const FINGERPRINT_POSITIONS: [&str; 7] = [
    "h8 h9 h10",
    "h8 i9 j10",
    "h8 i9 i11",
    "h8 h9 j10 i10 g8",
    "h8 i9 g10 h10 i8",
    "h8 h9 j10 i10",
    "h8 i9 g10 h10",
];

/// Nodes the expert searches each of [`FINGERPRINT_POSITIONS`] for.
const FINGERPRINT_NODES: u64 = 3000;

/// What tells the expert that wrote a book from another: a hash of what
/// its search decides (the move, the depth, the candidates' scores) on a few
/// positions at a fixed node budget, which is the same on every machine. A
/// change to the evaluation, the ordering or the pruning changes it; one
/// that only makes the search faster does not. A book written by another
/// engine plays that engine's moves: the renju book written before the
/// expert's width went from 18 to 24 and its class values came in still
/// played, after `h8 h7 j10 g7`, a move that the expert's own 3-second
/// search now shows lost (the README gives what writing it again gained).
pub fn engine_fingerprint(variant: &Variant) -> String {
    // FNV-1a: a hash fixed by its definition, not by a library's version.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut add = |value: i64| {
        for byte in value.to_le_bytes() {
            hash = (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (n, moves) in FINGERPRINT_POSITIONS.iter().enumerate() {
        let moves: Vec<Point> = moves
            .split_whitespace()
            .map(|m| parse(m).expect("a fingerprint position's point"))
            .collect();
        let position = replay(variant, &moves).expect("a fingerprint position is legal");
        let limits = Limits {
            time: Duration::from_secs(3600),
            nodes: Some(FINGERPRINT_NODES),
            seed: n as u64,
            candidates: 1,
        };
        let Some(decision) = expert(&position, &limits, None) else {
            continue;
        };
        add(i64::from(decision.point.x) * 256 + i64::from(decision.point.y));
        add(i64::from(decision.depth));
        for c in &decision.candidates {
            add(c.score);
        }
    }
    format!("{hash:016x}")
}

/// The line of a book that names the engine that wrote it, by its
/// [`engine_fingerprint`].
pub fn engine_line(engine: &str) -> String {
    format!("{ENGINE_LINE}{engine}")
}

const ENGINE_LINE: &str = "# engine ";

/// The engines a book's text names (its [`engine_line`]s), in order.
fn engines_named(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| l.strip_prefix(ENGINE_LINE))
        .map(str::trim)
        .collect()
}

/// Why a book's text is not all the work of `engine` (an expert's
/// [`engine_fingerprint`]), if it is not: which engine wrote it, or that it
/// names none.
pub fn written_by_another(text: &str, engine: &str) -> Option<String> {
    let named = engines_named(text);
    if named.is_empty() {
        return Some(format!(
            "it does not name the expert that wrote it, so it may be another than this one ({engine})"
        ));
    }
    let others: Vec<&str> = named.into_iter().filter(|&e| e != engine).collect();
    (!others.is_empty()).then(|| {
        format!(
            "it was written by another expert ({}) than this one ({engine})",
            others.join(", ")
        )
    })
}

/// One entry as a line of a book.
pub fn write_entry(entry: &Entry) -> String {
    let moves: Vec<String> = entry
        .moves
        .iter()
        .map(|&p| p.name(SIDE).to_string())
        .collect();
    let candidates: Vec<String> = entry
        .candidates
        .iter()
        .map(|c| format!("{}={}", c.point.name(SIDE), c.score))
        .collect();
    format!(
        "{} : {} {} {}",
        moves.join(" "),
        entry.best.name(SIDE),
        entry.depth,
        candidates.join(" ")
    )
}

/// Games that teach a book which move to play where its search could not
/// tell the moves apart.
///
/// The games are played by two contenders of unequal strength, and a move
/// is judged by what its games scored *beyond what the contender that
/// played it scores with that colour in these games* (its excess): the
/// stronger contender's moves would otherwise look better for its strength
/// alone, and the weaker's worse.
pub struct Results {
    /// By a position's canonical key, and a move in the canonical
    /// orientation: the games that played it there.
    by_position: HashMap<Vec<u16>, HashMap<Point, Tally>>,
}

/// One game for [`Results`].
pub struct ResultGame {
    /// The moves from the empty board.
    pub moves: Vec<Point>,
    /// Black's score: 1 a win, 0.5 a draw, 0 a loss.
    pub black_score: f64,
    /// The first contender's colour (the one the book is for): the other
    /// contender played the other.
    pub first: Color,
}

impl ResultGame {
    /// `color`'s score in the game.
    fn score(&self, color: Color) -> f64 {
        match color {
            Color::Black => self.black_score,
            Color::White => 1.0 - self.black_score,
        }
    }
}

/// The games that played one move in one position.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    games: u32,
    /// The mover's points.
    points: f64,
    /// The mover's points less what its contender scores with its colour.
    excess: f64,
    /// The sum of each game's variance about that expectation.
    variance: f64,
}

impl Tally {
    /// The excess a game, counted over [`RESULT_PRIOR`] games more than it
    /// had (of no excess), so that a few games say little; and its
    /// variance.
    fn estimate(&self) -> (f64, f64) {
        let n = f64::from(self.games) + RESULT_PRIOR;
        (self.excess / n, self.variance / (n * n))
    }
}

/// An entry whose move the results changed: the old move and the new, each
/// with its games and the mover's points in them.
pub struct Change {
    pub entry: usize,
    pub old: (Point, (u32, f64)),
    pub new: (Point, (u32, f64)),
}

impl Change {
    /// The change as a line: the position's moves, the new move and the
    /// old, each with its games.
    pub fn describe(&self, entries: &[Entry]) -> String {
        let moves: Vec<String> = entries[self.entry]
            .moves
            .iter()
            .map(|p| p.name(SIDE).to_string())
            .collect();
        let (new, (new_games, new_points)) = self.new;
        let (old, (old_games, old_points)) = self.old;
        format!(
            "{}: {} ({new_points} of {new_games}) instead of {} ({old_points} of {old_games})",
            moves.join(" "),
            new.name(SIDE),
            old.name(SIDE)
        )
    }
}

/// Plies into a game whose positions [`Results`] counts: past the book's
/// reach a position is met too seldom to tell moves apart.
const RESULT_PLIES: usize = 12;

/// Games a move needs before its results can choose it.
const RESULT_GAMES: u32 = 4;

/// How much more (in its excess a game) a move's results must show than
/// those of the move the search chose.
const RESULT_MARGIN: f64 = 0.15;

/// How many standard deviations of the difference that must be: four games
/// against eighty are weighed as the few games they are.
const RESULT_Z: f64 = 2.5;

/// Games of no excess a move's results are counted as having besides its
/// own. Matches against an engine that answers alike at a given time
/// repeat their lines, so a move's games are fewer independent trials
/// than they look: four wins in four games move its estimate by two fifths
/// of what they would alone.
const RESULT_PRIOR: f64 = 6.0;

impl Results {
    pub fn new(variant: &Variant, games: &[ResultGame]) -> Results {
        // Each contender's points and games with each colour, by whether it
        // is the first contender and whether the colour is white.
        let slot =
            |first: bool, color: Color| usize::from(first) * 2 + usize::from(color == Color::White);
        let mut totals = [(0.0f64, 0u32); 4];
        for game in games {
            for color in [Color::Black, Color::White] {
                let total = &mut totals[slot(color == game.first, color)];
                total.0 += game.score(color);
                total.1 += 1;
            }
        }
        let expected = |first: bool, color: Color| {
            let (points, n) = totals[slot(first, color)];
            if n == 0 { 0.5 } else { points / f64::from(n) }
        };
        let mut by_position: HashMap<Vec<u16>, HashMap<Point, Tally>> = HashMap::new();
        for game in games {
            let mut position = Position::new(*variant);
            for (ply, &p) in game.moves.iter().enumerate().take(RESULT_PLIES) {
                // The opening's own stones are nobody's choice.
                if ply >= 3 {
                    let (key, symmetries) = canonical_all(&position);
                    let point = canonical_point(&symmetries, p);
                    let mover = position.to_move();
                    let mover_score = game.score(mover);
                    let expect = expected(mover == game.first, mover);
                    let tally = by_position
                        .entry(key)
                        .or_default()
                        .entry(point)
                        .or_default();
                    tally.games += 1;
                    tally.points += mover_score;
                    tally.excess += mover_score - expect;
                    tally.variance += expect * (1.0 - expect);
                }
                if position.play(p).is_err() {
                    break;
                }
            }
        }
        Results { by_position }
    }

    /// Plays, at each of `entries`, the move whose games went clearly best
    /// for its player (see [`RESULT_GAMES`], [`RESULT_MARGIN`],
    /// [`RESULT_Z`]) where the search does not
    /// score it more than `margin` below its own choice: a candidate by its
    /// stored score, another move by a search of `time` after it (then kept
    /// among the candidates with that score). The results only choose
    /// among moves the search holds about as good. Returns what changed.
    pub fn choose(
        &self,
        variant: &Variant,
        entries: &mut [Entry],
        margin: i64,
        time: Duration,
    ) -> Vec<Change> {
        let mut changed = Vec::new();
        for (n, entry) in entries.iter_mut().enumerate() {
            let Some(position) = replay(variant, &entry.moves) else {
                continue;
            };
            let (key, symmetries) = canonical_all(&position);
            let Some(played) = self.by_position.get(&key) else {
                continue;
            };
            let Some(chosen_score) = entry
                .candidates
                .iter()
                .find(|c| c.point == entry.best)
                .map(|c| c.score)
            else {
                continue;
            };
            // A decided position (a forced win or loss) is the search's to play.
            if chosen_score.abs() >= 900_000 {
                continue;
            }
            let here = |p: Point| symmetries[0].inverse().apply(p, SIDE);
            let canonical = |p: Point| canonical_point(&symmetries, p);
            let tally = |p: Point| played.get(&canonical(p)).copied().unwrap_or_default();
            let record = |p: Point| {
                let t = tally(p);
                (t.games, t.points)
            };
            let (chosen, chosen_variance) = tally(entry.best).estimate();
            let chosen_move = canonical(entry.best);
            let mut better: Vec<(Point, f64)> = played
                .iter()
                .filter(|&(&p, t)| t.games >= RESULT_GAMES && p != chosen_move)
                .filter_map(|(&p, t)| {
                    let (excess, variance) = t.estimate();
                    let gain = excess - chosen;
                    let clear = gain >= RESULT_MARGIN
                        && gain >= RESULT_Z * (variance + chosen_variance).sqrt();
                    clear.then_some((here(p), excess))
                })
                .collect();
            better.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            for (point, _) in better {
                if position.check(point).is_err() || position.forbidden_kind(point).is_some() {
                    continue;
                }
                // A candidate may be the same move in another orientation.
                let this_move = canonical(point);
                let same = |c: &&Candidate| canonical(c.point) == this_move;
                let score = match entry.candidates.iter().find(same) {
                    Some(c) => Some(c.score),
                    None => {
                        let mut after = position.clone();
                        after.play(point).ok().and_then(|_| {
                            let limits = Limits::timed(time, n as u64);
                            expert(&after, &limits, None)
                                .and_then(|d| d.candidates.first().map(|c| -c.score))
                        })
                    }
                };
                let Some(score) = score else {
                    continue;
                };
                if score < chosen_score - margin {
                    continue;
                }
                if !entry.candidates.iter().any(|c| same(&c)) {
                    let at = entry.candidates.partition_point(|c| c.score >= score);
                    entry.candidates.insert(at, Candidate { point, score });
                }
                changed.push(Change {
                    entry: n,
                    old: (entry.best, record(entry.best)),
                    new: (point, record(point)),
                });
                entry.best = point;
                break;
            }
        }
        changed
    }
}

/// How `gobang book` builds a book.
pub struct BookConfig {
    pub variant: Variant,
    /// Moves after each opening's stones the book reaches.
    pub plies: usize,
    /// Replies followed from each position: the search's best few, so that
    /// an opponent who does not play the best is still met.
    pub branch: usize,
    /// The side whose book this is, if one: where it is to move only its
    /// chosen move is followed, as it will play nothing else, while all
    /// `branch` replies of its opponent are.
    pub side: Option<Color>,
    /// Thinking time for each position.
    pub time: Duration,
    pub threads: usize,
    /// Positions already searched (an earlier book's entries): taken as they
    /// are and followed, not searched again, so that a book can be made
    /// deeper without repeating its hours.
    pub known: Vec<Entry>,
    /// Games played, each its moves from the empty board and the side that
    /// learns from it: where one left the book, the first position it
    /// reached with that side to move is searched too, so that the book
    /// also answers the replies its opponents chose and its own search did
    /// not follow.
    pub played: Vec<(Vec<Point>, Color)>,
}

/// The book's entry for `position` (reached by `moves`), searched for the
/// book's time (`n` seeds the search), and whether the search found it
/// decided: a forced win or loss.
fn search(
    config: &BookConfig,
    position: &Position,
    moves: &[Point],
    n: usize,
) -> Option<(Entry, bool)> {
    let limits = Limits::timed(config.time, n as u64);
    let decision = expert(position, &limits, None)?;
    let decided = decision.forced_win_in.is_some() || decision.forced_loss_in.is_some();
    let entry = Entry {
        moves: moves.to_vec(),
        best: decision.point,
        depth: decision.depth,
        candidates: decision.candidates.into_iter().take(CANDIDATES).collect(),
    };
    Some((entry, decided))
}

/// Searches every position within `plies` moves of the openings (each
/// position once, whatever its orientation), following the best `branch`
/// candidates of each (one where `side` is to move); calls `progress` with
/// the positions searched so far and the number known. A position with a
/// forced win or loss ends its branch (the search finds those at once).
/// Then searches where the `played` games left the book (see
/// [`BookConfig::played`]).
pub fn generate(
    config: &BookConfig,
    openings: &[Vec<Point>],
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<Entry> {
    let searched_before: HashMap<Vec<u16>, &Entry> = config
        .known
        .iter()
        .filter_map(|e| Some((canonical(&replay(&config.variant, &e.moves)?).0, e)))
        .collect();
    let mut seen: HashSet<Vec<u16>> = HashSet::new();
    let mut frontier: Vec<Vec<Point>> = Vec::new();
    for opening in openings {
        if let Some(position) = replay(&config.variant, opening)
            && seen.insert(canonical(&position).0)
        {
            frontier.push(opening.clone());
        }
    }
    let mut entries = Vec::new();
    let mut searched = 0;
    for ply in 0..config.plies {
        let found = search_all(config, &frontier, &searched_before, searched, progress);
        searched += found.len();
        let mut children = Vec::new();
        for (_, entry, decided) in found {
            if !decided && ply + 1 < config.plies {
                let to_move = Color::of_ply(entry.moves.len());
                let branch = if config.side == Some(to_move) {
                    1
                } else {
                    config.branch.max(1)
                };
                for c in entry.candidates.iter().take(branch) {
                    let mut moves = entry.moves.clone();
                    moves.push(c.point);
                    if let Some(position) = replay(&config.variant, &moves)
                        && !position.is_over()
                        && seen.insert(canonical(&position).0)
                    {
                        children.push(moves);
                    }
                }
            }
            if !decided {
                entries.push(entry);
            }
        }
        frontier = children;
    }
    // Known positions off the paths followed (another side's book) are kept.
    for entry in &config.known {
        if let Some(position) = replay(&config.variant, &entry.moves)
            && seen.insert(canonical(&position).0)
        {
            entries.push(entry.clone());
        }
    }
    // Where the games played left the book: the first position of each,
    // after its opening's stones and with its learner to move, that the
    // book has not met. Each game teaches one position at most, and one
    // that another game taught already is not searched again.
    let opening_stones = openings.iter().map(Vec::len).max().unwrap_or(0);
    let mut left = Vec::new();
    let mut taught = HashSet::new();
    for (game, learner) in &config.played {
        let mut position = Position::new(config.variant);
        for (n, &p) in game.iter().enumerate() {
            if position.play(p).is_err() || position.is_over() {
                break;
            }
            if n + 1 > opening_stones && position.to_move() == *learner {
                let (key, _) = canonical(&position);
                if !seen.contains(&key) {
                    if taught.insert(key) {
                        left.push(game[..=n].to_vec());
                    }
                    break;
                }
            }
        }
    }
    let found = search_all(config, &left, &searched_before, searched, progress);
    entries.extend(
        found
            .into_iter()
            .filter(|(_, _, decided)| !decided)
            .map(|(_, entry, _)| entry),
    );
    entries
}

/// Each of `positions` (moves from the empty board) searched, on the
/// book's threads, or taken from `searched_before`: with its index in
/// `positions` and whether it was found decided, in `positions`' order.
/// `progress` hears the count, after the `searched` of earlier rounds.
fn search_all(
    config: &BookConfig,
    positions: &[Vec<Point>],
    searched_before: &HashMap<Vec<u16>, &Entry>,
    searched: usize,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Vec<(usize, Entry, bool)> {
    let known = searched + positions.len();
    let next = AtomicUsize::new(0);
    let found: Mutex<Vec<(usize, Entry, bool)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    let Some(moves) = positions.get(n) else {
                        break;
                    };
                    let Some(position) = replay(&config.variant, moves) else {
                        continue;
                    };
                    let (entry, decided) = match searched_before.get(&canonical(&position).0) {
                        Some(&entry) => (entry.clone(), false),
                        None => match search(config, &position, moves, n) {
                            Some(searched) => searched,
                            None => continue,
                        },
                    };
                    let mut found = found.lock().unwrap_or_else(|e| e.into_inner());
                    found.push((n, entry, decided));
                    progress(searched + found.len(), known);
                }
            });
        }
    });
    let mut found = found.into_inner().unwrap_or_else(|e| e.into_inner());
    found.sort_by_key(|(n, _, _)| *n);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn variant(rules: RuleSet) -> Variant {
        Variant::from_spec(rules, &Default::default()).unwrap()
    }

    #[test]
    fn every_compiled_in_entry_is_a_legal_move_of_a_legal_game() {
        for (rules, text) in BOOKS {
            let entries = read(text, &variant(rules)).unwrap();
            assert!(entries.len() >= 26, "{rules}: {} entries", entries.len());
        }
    }

    /// A hint or an analysis shows first the move the book plays, even
    /// where its results chose a candidate scored below another (after
    /// `h8 i9 i8 g8 h7` renju's book plays h6 among five scored alike).
    #[test]
    fn the_book_move_leads_its_candidates_in_every_compiled_in_entry() {
        for (rules, text) in BOOKS {
            let v = variant(rules);
            for entry in read(text, &v).unwrap() {
                let position = replay(&v, &entry.moves).unwrap();
                let Some(decision) = lookup(&position) else {
                    continue;
                };
                assert_eq!(
                    decision.candidates.first().map(|c| c.point),
                    Some(decision.point),
                    "{rules}: {:?}",
                    entry.moves
                );
            }
        }
    }

    /// A book is written by the expert that plays it: a change to the
    /// expert's play (its fingerprint) needs the books rewritten.
    #[test]
    fn the_compiled_in_books_were_written_by_this_engine() {
        for (rules, text) in BOOKS {
            let engine = engine_fingerprint(&variant(rules));
            if let Some(other) = written_by_another(text, &engine) {
                panic!(
                    "src/engine/book/{rules}.txt: {other}. The expert's play has changed since \
                     the book was written, so the book plays another engine's moves: write it \
                     again with the command on its first line (about 8 minutes on 2 cores)."
                );
            }
        }
    }

    #[test]
    fn a_fingerprint_tells_the_rule_sets_apart_and_is_the_same_each_time() {
        let renju = engine_fingerprint(&variant(RuleSet::Renju));
        assert_eq!(renju.len(), 16);
        assert_eq!(renju, engine_fingerprint(&variant(RuleSet::Renju)));
        assert_ne!(renju, engine_fingerprint(&variant(RuleSet::Freestyle)));
        let text = format!(
            "# a book\n{}\nh8 h9 h10 : g9 14 g9=1\n",
            engine_line(&renju)
        );
        assert_eq!(engines_named(&text), [renju.as_str()]);
        assert_eq!(written_by_another(&text, &renju), None);
        let other = text.replace(&renju, "0123456789abcdef");
        let why = written_by_another(&other, &renju).expect("another engine");
        assert!(
            why.contains("0123456789abcdef") && why.contains(&renju),
            "{why}"
        );
        assert!(written_by_another("h8 h9 h10 : g9 14 g9=1\n", &renju).is_some());
    }

    #[test]
    fn a_position_is_found_in_any_orientation_and_move_order() {
        let v = variant(RuleSet::Renju);
        let (_, text) = BOOKS[1];
        let entry = read(text, &v).unwrap().remove(0);
        let stored = replay(&v, &entry.moves).unwrap();
        assert_eq!(lookup(&stored).unwrap().point, entry.best);
        for s in Symmetry::ALL {
            let turned: Vec<Point> = entry.moves.iter().map(|&p| s.apply(p, SIDE)).collect();
            let position = replay(&v, &turned).unwrap();
            let decision = lookup(&position).expect("found turned");
            assert!(
                crate::rules::equivalent(
                    position.board(),
                    decision.point,
                    s.apply(entry.best, SIDE)
                ),
                "{s:?}"
            );
        }
        // Black's stones in another order reach the same position.
        let mut reordered = entry.moves.clone();
        if reordered.len() >= 3 {
            reordered.swap(0, 2);
            let position = replay(&v, &reordered).unwrap();
            assert_eq!(lookup(&position).unwrap().point, entry.best);
        }
    }

    #[test]
    fn a_position_set_up_without_its_moves_is_found() {
        // As `gobang brain` builds a position from a Gomocup BOARD.
        let v = variant(RuleSet::Renju);
        let (_, text) = BOOKS[1];
        let entry = read(text, &v).unwrap().remove(0);
        let mut rows = vec![vec!['.'; 15]; 15];
        for (n, p) in entry.moves.iter().enumerate() {
            rows[p.y as usize][p.x as usize] = if n % 2 == 0 { 'X' } else { 'O' };
        }
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        let position = Position::from_rows(v, &rows).unwrap();
        assert!(position.moves().is_empty());
        assert_eq!(lookup(&position).unwrap().point, entry.best);
    }

    #[test]
    fn other_boards_and_rules_have_no_book() {
        let mut small = Position::new(Variant::freestyle(13).unwrap());
        small.play(Point::new(6, 6)).unwrap();
        assert!(lookup(&small).is_none());
        let mut standard = Position::new(variant(RuleSet::Standard));
        standard.play(Point::new(7, 7)).unwrap();
        assert!(lookup(&standard).is_none());
    }

    fn points(names: &str) -> Vec<Point> {
        names
            .split_whitespace()
            .map(|n| parse(n).unwrap())
            .collect()
    }

    /// An entry no search would write (deeper than the search goes), with
    /// one candidate, `best`.
    fn chosen(moves: Vec<Point>, best: &str, score: i64) -> Entry {
        let best = points(best)[0];
        Entry {
            moves,
            best,
            depth: 99,
            candidates: vec![Candidate { point: best, score }],
        }
    }

    /// `games` games of `moves` (each turned by the next of the board's
    /// symmetries, as games meet a position in any orientation), with
    /// black's score `black`.
    fn games_of(moves: &str, games: usize, black: f64) -> Vec<ResultGame> {
        games_by(moves, games, black, Color::Black)
    }

    /// The same, the first contender playing `first`.
    fn games_by(moves: &str, games: usize, black: f64, first: Color) -> Vec<ResultGame> {
        (0..games)
            .map(|n| {
                let symmetry = Symmetry::ALL[n % Symmetry::ALL.len()];
                let turned = points(moves)
                    .into_iter()
                    .map(|p| symmetry.apply(p, SIDE))
                    .collect();
                ResultGame {
                    moves: turned,
                    black_score: black,
                    first,
                }
            })
            .collect()
    }

    /// White to move after h8 h9 h10: the search chose g9 over g11 by a
    /// little, and i7 by more.
    fn near_equal() -> Entry {
        Entry {
            moves: points("h8 h9 h10"),
            best: points("g9")[0],
            depth: 14,
            candidates: vec![
                Candidate {
                    point: points("g9")[0],
                    score: -780,
                },
                Candidate {
                    point: points("g11")[0],
                    score: -900,
                },
                Candidate {
                    point: points("i7")[0],
                    score: -1500,
                },
            ],
        }
    }

    #[test]
    fn results_choose_among_moves_the_search_holds_about_as_good() {
        let v = variant(RuleSet::Renju);
        let time = Duration::from_millis(50);
        let mut games = games_of("h8 h9 h10 g9 i9", 6, 1.0); // g9: white lost 6
        games.extend(games_of("h8 h9 h10 g11 i9", 5, 0.0)); // g11: white won 5
        games.extend(games_of("h8 h9 h10 i7 i9", 8, 0.0)); // i7: white won 8
        let results = Results::new(&v, &games);

        // g11 is within the margin and went clearly better; i7 went better
        // still, but the search scores it too far below.
        let mut entries = vec![near_equal()];
        let changed = results.choose(&v, &mut entries, 400, time);
        assert_eq!(entries[0].best, points("g11")[0]);
        assert_eq!(changed.len(), 1);
        assert_eq!(changed[0].old, (points("g9")[0], (6, 0.0)));
        assert_eq!(changed[0].new, (points("g11")[0], (5, 5.0)));

        // A narrower margin leaves the search's choice.
        let mut entries = vec![near_equal()];
        assert!(results.choose(&v, &mut entries, 100, time).is_empty());
        assert_eq!(entries[0].best, points("g9")[0]);

        // Fewer games than it takes say nothing.
        let few = Results::new(&v, &games_of("h8 h9 h10 g11 i9", 3, 0.0));
        let mut entries = vec![near_equal()];
        assert!(few.choose(&v, &mut entries, 400, time).is_empty());
    }

    /// Games of `moves` that white won `won` and lost `lost` of, the first
    /// contender playing `first`.
    fn white_record(moves: &str, won: usize, lost: usize, first: Color) -> Vec<ResultGame> {
        let mut games = games_by(moves, won, 0.0, first);
        games.extend(games_by(moves, lost, 1.0, first));
        games
    }

    /// What the results choose after h8 h9 h10 (see [`near_equal`]) from
    /// `games`: the book's move, and how many moves changed.
    fn chosen_after(games: &[ResultGame]) -> (Point, usize) {
        let v = variant(RuleSet::Renju);
        let results = Results::new(&v, games);
        let mut entries = vec![near_equal()];
        let changed = results.choose(&v, &mut entries, 400, Duration::from_millis(50));
        (entries[0].best, changed.len())
    }

    #[test]
    fn results_weigh_a_move_by_what_its_player_usually_scores() {
        let (g9, g11) = (points("g9")[0], points("g11")[0]);
        // The book's side plays white after h8 h9 h10 (first: White) and
        // wins 3 of 10 with g9, as it wins 3 of 10 as white elsewhere; the
        // stronger opponent wins 6 of 10 with g11 there as white (first:
        // Black), as it does elsewhere.
        let mut games = white_record("h8 h9 h10 g9 i9", 3, 7, Color::White);
        games.extend(white_record("h8 h9 j10 g9 i9", 3, 7, Color::White));
        games.extend(white_record("h8 h9 h10 g11 i9", 6, 4, Color::Black));
        games.extend(white_record("h8 h9 j10 g11 i9", 6, 4, Color::Black));
        // g11's 6 of 10 against g9's 3 of 10 is its player's strength, not
        // the move's: the search's choice stands.
        assert_eq!(chosen_after(&games), (g9, 0));
        // Where g11 wins 12 of 12 for a player that wins 4 of 24
        // elsewhere, it is the move.
        let mut games = white_record("h8 h9 h10 g9 i9", 3, 7, Color::White);
        games.extend(white_record("h8 h9 h10 g11 i9", 12, 0, Color::Black));
        games.extend(white_record("h8 h9 j10 g11 i9", 4, 20, Color::Black));
        assert_eq!(chosen_after(&games), (g11, 1));
    }

    #[test]
    fn a_few_games_do_not_outvote_many() {
        let (g9, g11) = (points("g9")[0], points("g11")[0]);
        // g9 won 40 of 80 for its player; g11 won 4 of 4 for the other,
        // which wins half its games as white in all.
        let mut games = white_record("h8 h9 h10 g9 i9", 40, 40, Color::White);
        games.extend(white_record("h8 h9 h10 g11 i9", 4, 0, Color::Black));
        games.extend(white_record("h8 h9 j10 g11 i9", 4, 8, Color::Black));
        assert_eq!(chosen_after(&games), (g9, 0));
        // Ten of ten is enough.
        games.extend(white_record("h8 h9 h10 g11 i9", 6, 0, Color::Black));
        games.extend(white_record("h8 h9 j10 g11 i9", 0, 6, Color::Black));
        assert_eq!(chosen_after(&games), (g11, 1));
    }

    #[test]
    fn a_move_outside_the_candidates_is_searched_before_results_choose_it() {
        let v = variant(RuleSet::Renju);
        let time = Duration::from_millis(50);
        // White's a1, far from everything, went well in these games, where
        // the same contender's g9 went badly.
        let mut games = games_of("h8 h9 h10 a1 i9", 8, 0.0);
        games.extend(games_of("h8 h9 h10 g9 i9", 8, 1.0));
        let results = Results::new(&v, &games);
        // Against a choice the search held to be winning well, its own
        // search of a1 falls short: not taken.
        let mut winning = near_equal();
        winning.candidates[0].score = 5000;
        let mut entries = vec![winning];
        assert!(results.choose(&v, &mut entries, 0, time).is_empty());
        assert_eq!(entries[0].best, points("g9")[0]);
        // With any margin it is, and joins the candidates with its score.
        let mut entries = vec![near_equal()];
        let changed = results.choose(&v, &mut entries, 1_000_000, time);
        assert_eq!(changed.len(), 1);
        assert_eq!(entries[0].best, points("a1")[0]);
        assert_eq!(entries[0].candidates.len(), 4);
        assert!(
            entries[0]
                .candidates
                .iter()
                .any(|c| c.point == points("a1")[0])
        );
        assert!(
            entries[0]
                .candidates
                .windows(2)
                .all(|w| w[0].score >= w[1].score),
            "the candidates stay best first"
        );
    }

    #[test]
    fn a_book_is_extended_from_its_known_entries_following_one_move_of_its_side() {
        let v = variant(RuleSet::Renju);
        let opening = points("h8 h9 h10");
        // A known entry no search would write: deeper than the search goes.
        // Its move leaves no symmetry, so black's replies are all distinct.
        let known = Entry {
            moves: opening.clone(),
            best: points("i8")[0],
            depth: 99,
            candidates: vec![
                Candidate {
                    point: points("i8")[0],
                    score: 7,
                },
                Candidate {
                    point: points("g9")[0],
                    score: 6,
                },
            ],
        };
        // And one off the paths followed, which the new book keeps.
        let elsewhere = chosen(points("h8 i9 j10"), "j9", 5);
        let config = BookConfig {
            variant: v,
            plies: 3,
            branch: 2,
            side: Some(Color::White),
            time: Duration::from_millis(20),
            threads: 2,
            known: vec![known.clone(), elsewhere.clone()],
            played: Vec::new(),
        };
        let entries = generate(&config, std::slice::from_ref(&opening), &|_, _| {});
        // Taken as it was, not searched again.
        assert_eq!(entries[0], known);
        // White is to move there: only its chosen move is followed.
        let after_white = [opening.as_slice(), &points("i8")].concat();
        let at = |n: usize| {
            entries
                .iter()
                .filter(|e| e.moves.len() == n)
                .collect::<Vec<_>>()
        };
        let black_to_move = at(4);
        assert_eq!(black_to_move.len(), 1, "{entries:?}");
        assert_eq!(black_to_move[0].moves, after_white);
        // Black is to move there: its best two are followed.
        let white_again = at(5);
        assert_eq!(white_again.len(), 2, "{entries:?}");
        for (entry, reply) in white_again.iter().zip(&black_to_move[0].candidates) {
            assert_eq!(
                entry.moves,
                [after_white.as_slice(), &[reply.point]].concat()
            );
        }
        assert_eq!(entries.len(), 5);
        assert_eq!(entries[4], elsewhere);
    }

    #[test]
    fn where_a_game_played_left_the_book_its_position_is_searched_once() {
        let v = variant(RuleSet::Renju);
        let opening = points("h8 h9 h10");
        let game = |rest: &str| [opening.as_slice(), &points(rest)].concat();
        // A two-position book: the opening, white to move, answered i8, and
        // after it, black to move, answered j8.
        let known = chosen(opening.clone(), "i8", 7);
        let then = chosen(game("i8"), "j8", -7);
        let config = BookConfig {
            variant: v,
            plies: 2,
            branch: 1,
            side: None,
            time: Duration::from_millis(20),
            threads: 2,
            known: vec![known.clone(), then.clone()],
            played: vec![
                // Black learns: white left the book at once, with g9 for
                // the book's i8.
                (game("g9 j8 k8"), Color::Black),
                // The same position turned over (a mirror image by the
                // vertical line through h): searched once, not twice, and
                // this game teaches nothing more.
                (game("i9 f8 e8"), Color::Black),
                // White learns: it followed the book, and black's reply
                // was not the book's j8.
                (game("i8 g7 g6"), Color::White),
                // White learns from the first game: the position after
                // white's g9 has black to move and teaches white nothing;
                // the one after black's j8 does.
                (game("g9 j8 k8"), Color::White),
                // Never reached past its opening.
                (opening.clone(), Color::White),
            ],
        };
        let entries = generate(&config, std::slice::from_ref(&opening), &|_, _| {});
        assert_eq!(entries[..2], [known, then]);
        let learned: Vec<&Vec<Point>> = entries[2..].iter().map(|e| &e.moves).collect();
        assert_eq!(
            learned,
            [&game("g9"), &game("i8 g7"), &game("g9 j8")],
            "{entries:?}"
        );
        for entry in &entries[2..] {
            let position = replay(&v, &entry.moves).unwrap();
            assert!(position.check(entry.best).is_ok(), "{entry:?}");
            assert!(entry.depth > 0 && !entry.candidates.is_empty(), "{entry:?}");
        }
    }

    #[test]
    fn a_malformed_line_is_refused_with_its_number() {
        let v = variant(RuleSet::Freestyle);
        let e = read("# a book\nh8 h7 : j9 10 j9=3\nh8 h8 : j9 3\n", &v).unwrap_err();
        assert!(e.starts_with("line 3:"), "{e}");
        let e = read("h8 : h8 3\n", &v).unwrap_err();
        assert!(e.contains("may not be played"), "{e}");
        let e = read("h8 h7 j9\n", &v).unwrap_err();
        assert!(e.contains("no `:`"), "{e}");
    }

    #[test]
    fn an_entry_reads_back_as_written() {
        let v = variant(RuleSet::Freestyle);
        let entry = Entry {
            moves: vec![Point::new(7, 7), Point::new(7, 6)],
            best: Point::new(8, 8),
            depth: 11,
            candidates: vec![
                Candidate {
                    point: Point::new(8, 8),
                    score: 40,
                },
                Candidate {
                    point: Point::new(6, 6),
                    score: -3,
                },
            ],
        };
        assert_eq!(read(&write_entry(&entry), &v).unwrap(), vec![entry]);
    }
}
