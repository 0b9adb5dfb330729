//! `gobang arena`: plays two contenders — computer levels or external
//! Gomocup engines — against each other from balanced openings, colours
//! alternating, refereed by the rules (an illegal or forbidden move or a
//! timeout loses), and reports the score with an Elo estimate.

pub mod record;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

use crate::engine::{self, Level, Limits, Memory};
use crate::rules::{
    Color, Decision, OPENINGS, Opening, OpeningRule, Outcome, Phase, Point, Position, Variant,
};

/// One side of a match.
#[derive(Clone, Debug)]
pub enum Contender {
    Level(Level),
    /// A Gomocup engine started with this shell command.
    External(String),
}

impl std::fmt::Display for Contender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Contender::Level(l) => write!(f, "{l}"),
            Contender::External(c) => write!(f, "`{c}`"),
        }
    }
}

impl std::str::FromStr for Contender {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.strip_prefix("cmd:") {
            Some(command) => Ok(Contender::External(command.to_string())),
            None => s
                .parse()
                .map(Contender::Level)
                .map_err(|e: engine::UnknownLevel| {
                    format!("{e}; or give an external Gomocup engine as cmd:<command>")
                }),
        }
    }
}

/// The 26 standard renju openings (first three stones) on 15×15.
pub fn standard_openings() -> Vec<Vec<Point>> {
    OPENINGS.iter().map(|o| o.stones(15).to_vec()).collect()
}

pub struct MatchConfig {
    pub first: Contender,
    pub second: Contender,
    pub games: usize,
    pub variant: Variant,
    pub time_per_move: Duration,
    pub seed: u64,
    /// `free` plays from the 26 standard openings; any other rule has the
    /// contenders make the opening themselves (external engines: swap2
    /// only, through SWAP2BOARD).
    pub opening_rule: OpeningRule,
}

impl MatchConfig {
    /// Whether the contenders can play this match's opening rule.
    pub fn check(&self) -> Result<(), String> {
        self.opening_rule
            .check_fits(&self.variant)
            .map_err(|e| e.to_string())?;
        let external = [&self.first, &self.second]
            .iter()
            .any(|c| matches!(c, Contender::External(_)));
        if external && !matches!(self.opening_rule, OpeningRule::Free | OpeningRule::Swap2) {
            return Err(format!(
                "the {} opening needs decisions the Gomocup protocol cannot ask an external engine for: use free or swap2",
                self.opening_rule
            ));
        }
        Ok(())
    }
}

/// How one game ended, from the first contender's side.
#[derive(Clone, Debug)]
pub struct GameReport {
    pub first_is_black: bool,
    pub opening: usize,
    pub moves: Vec<Point>,
    /// 1 win, 0.5 draw, 0 loss for the first contender.
    pub score: f64,
    pub reason: String,
    /// Every move a contender chose after the opening, in order (the last
    /// one may have lost the game on time or as illegal, and then is not
    /// in `moves`).
    pub turns: Vec<Turn>,
}

/// One move a contender chose, and which contender.
#[derive(Clone, Debug)]
pub struct Turn {
    /// Whether the first contender chose it.
    pub by_first: bool,
    pub chosen: Chosen,
}

/// The match result.
pub struct MatchReport {
    pub games: Vec<GameReport>,
}

/// The first contender's wins, losses and draws in `games`.
fn tally<'a>(games: impl Iterator<Item = &'a GameReport>) -> (usize, usize, usize) {
    games.fold((0, 0, 0), |(w, l, d), g| {
        if g.score == 1.0 {
            (w + 1, l, d)
        } else if g.score == 0.0 {
            (w, l + 1, d)
        } else {
            (w, l, d + 1)
        }
    })
}

impl MatchReport {
    pub fn wins(&self) -> usize {
        tally(self.games.iter()).0
    }
    pub fn losses(&self) -> usize {
        tally(self.games.iter()).1
    }
    pub fn draws(&self) -> usize {
        tally(self.games.iter()).2
    }
    /// The first contender's wins, losses and draws in the games it played
    /// as `color`: a match's two halves, which in gomoku differ far more
    /// than the whole shows.
    pub fn record_as(&self, color: Color) -> (usize, usize, usize) {
        tally(
            self.games
                .iter()
                .filter(|g| g.first_is_black == (color == Color::Black)),
        )
    }
    /// The first contender's mean score per game.
    pub fn score(&self) -> f64 {
        self.games.iter().map(|g| g.score).sum::<f64>() / self.games.len().max(1) as f64
    }

    /// The Elo difference (first minus second) and its 95% interval, from
    /// a Wilson score interval on the mean score (draws count a half), so a
    /// clean sweep still gets an honest lower bound.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games.len().max(1) as f64;
        let p = self.score();
        let z = 1.96f64;
        let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
        let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
        let elo = |s: f64| {
            let s = s.clamp(0.5 / n, 1.0 - 0.5 / n);
            -400.0 * (1.0 / s - 1.0).log10()
        };
        (elo(p), elo(centre - half), elo(centre + half))
    }

    /// Move-time percentiles over the match of the first contender's moves
    /// (`first`) or the second's: (p50, p99, max).
    pub fn move_times(&self, first: bool) -> (Duration, Duration, Duration) {
        let mut all: Vec<Duration> = self
            .games
            .iter()
            .flat_map(|g| &g.turns)
            .filter(|turn| turn.by_first == first)
            .map(|turn| turn.chosen.thought)
            .collect();
        all.sort();
        let at = |q: f64| {
            all.get(((all.len() as f64 * q) as usize).min(all.len().saturating_sub(1)))
                .copied()
        };
        (
            at(0.5).unwrap_or_default(),
            at(0.99).unwrap_or_default(),
            all.last().copied().unwrap_or_default(),
        )
    }
}

/// How long the arena waits after an engine's answer before its next
/// command: some engines drop a command that arrives while they are still
/// finishing their answer.
const PAUSE_AFTER_ANSWER: Duration = Duration::from_millis(30);

/// What a contender's first move of a game may take beyond the others'
/// limit: its start-up.
const FIRST_MOVE_GRACE: Duration = Duration::from_secs(1);

/// A running external engine, spoken to as Piskvork speaks to it.
struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// The moves the engine holds, in the order they were played; `None`
    /// when it must be told the whole position again.
    known: Option<Vec<Point>>,
    /// When the engine last answered.
    answered: Option<Instant>,
    /// The engine's time left for the match (`INFO time_left`).
    time_left: Duration,
    /// The text of the `MESSAGE` lines it sent since it was last asked to
    /// move.
    said: Vec<String>,
}

/// What to tell an engine that holds `known` so that it holds the
/// position made by `moves` and is to move: `BEGIN` on an empty board,
/// `TURN` with the opponent's move when that is the only move it has not
/// seen, else `BOARD` with every stone in the order played (1 its own, 2
/// the opponent's).
fn turn_commands(known: Option<&[Point]>, position: &Position) -> Vec<String> {
    let moves = position.moves();
    match (moves.split_last(), known) {
        (None, _) => vec!["BEGIN".into()],
        (Some((last, before)), Some(known)) if before == known => {
            vec![format!("TURN {},{}", last.x, last.y)]
        }
        _ => {
            let me = position.to_move();
            let board = position.board();
            let mut commands = vec!["BOARD".to_string()];
            commands.extend(moves.iter().map(|p| {
                let who = if board.get(*p) == Some(me) { 1 } else { 2 };
                format!("{},{},{who}", p.x, p.y)
            }));
            commands.push("DONE".into());
            commands
        }
    }
}

fn parse_move(answer: &str) -> Result<Point, String> {
    let (x, y) = answer
        .split_once(',')
        .ok_or(format!("not a move: {answer:?}"))?;
    match (x.trim().parse::<u8>(), y.trim().parse::<u8>()) {
        (Ok(x), Ok(y)) => Ok(Point::new(x, y)),
        _ => Err(format!("not a move: {answer:?}")),
    }
}

impl External {
    fn start(command: &str, variant: &Variant, time: Duration) -> Result<External, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            // What an engine says of itself (gobang's brain: its slow
            // moves) reaches whoever runs the match.
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {command}: {e}"))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        // The match time: enough for every move a side can make at the
        // time per move, so the time per move is what binds.
        let match_time = time * (variant.area() as u32 / 2 + 1);
        let mut engine = External {
            child,
            stdin,
            lines,
            known: Some(Vec::new()),
            answered: None,
            time_left: match_time,
            said: Vec::new(),
        };
        let size = if variant.width() == variant.height() {
            format!("START {}", variant.width())
        } else {
            format!("RECTSTART {},{}", variant.width(), variant.height())
        };
        engine.send(&size)?;
        let ok = engine.answer(Duration::from_secs(10))?;
        if !ok.eq_ignore_ascii_case("OK") {
            return Err(format!("{size} was answered {ok:?}, not OK"));
        }
        engine.send(&format!("INFO timeout_turn {}", time.as_millis()))?;
        engine.send(&format!("INFO timeout_match {}", match_time.as_millis()))?;
        engine.send("INFO max_memory 0")?;
        engine.send("INFO game_type 1")?;
        engine.send(&format!("INFO rule {}", variant.gomocup_rule()))?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        if let Some(answered) = self.answered.take() {
            std::thread::sleep(PAUSE_AFTER_ANSWER.saturating_sub(answered.elapsed()));
        }
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("the engine stopped listening: {e}"))
    }

    /// The next answer that is not a message or debug line (the messages
    /// are kept in `said`).
    fn answer(&mut self, wait: Duration) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = self
                .lines
                .recv_timeout(left)
                .map_err(|_| "no answer in time".to_string())?;
            let line = line.trim();
            let upper = line.to_ascii_uppercase();
            if upper.starts_with("MESSAGE") {
                self.said.push(line["MESSAGE".len()..].trim().to_string());
                continue;
            }
            if upper.starts_with("DEBUG") || upper.is_empty() {
                continue;
            }
            self.answered = Some(Instant::now());
            return Ok(line.to_string());
        }
    }

    /// Asks SWAP2BOARD with `stones` (0, 3 or 5); the answer's words.
    fn swap2(&mut self, stones: &[Point], time: Duration) -> Result<Vec<String>, String> {
        // After this the engine's board is its own business: the next
        // turn tells it the whole position.
        self.known = None;
        self.send("SWAP2BOARD")?;
        for p in stones {
            self.send(&format!("{},{}", p.x, p.y))?;
        }
        self.send("DONE")?;
        let answer = self.answer(time + Duration::from_millis(500))?;
        Ok(answer.split_whitespace().map(str::to_string).collect())
    }

    /// The engine's move in `position`, waiting for it as long as `limit`
    /// (its thinking time runs from its last command to its answer).
    fn choose(&mut self, position: &Position, limit: Duration) -> Result<Chosen, String> {
        let commands = turn_commands(self.known.as_deref(), position);
        self.known = None;
        self.said.clear();
        self.send(&format!("INFO time_left {}", self.time_left.as_millis()))?;
        let (last, before) = commands.split_last().expect("a turn has a command");
        for command in before {
            self.send(command)?;
        }
        self.send(last)?;
        let asked = Instant::now();
        let answer = self.answer(limit)?;
        let thought = asked.elapsed();
        self.time_left = self.time_left.saturating_sub(thought);
        let point = parse_move(&answer)?;
        let mut known = position.moves().to_vec();
        known.push(point);
        self.known = Some(known);
        Ok(Chosen {
            point,
            thought,
            said: std::mem::take(&mut self.said),
        })
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("END");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A contender's move, how long it thought, and what it said of it.
#[derive(Clone, Debug)]
pub struct Chosen {
    pub point: Point,
    pub thought: Duration,
    /// What it said of its thinking while it chose the move: an external
    /// engine's `MESSAGE` lines (their text), a level's line as `gobang
    /// brain` would send it.
    pub said: Vec<String>,
}

enum Player {
    /// A level, with what it kept from its earlier moves of the game.
    Level(Level, Memory),
    External(Box<External>),
}

impl Player {
    fn new(contender: &Contender, variant: &Variant, time: Duration) -> Result<Player, String> {
        Ok(match contender {
            Contender::Level(level) => Player::Level(*level, Memory::new()),
            Contender::External(command) => {
                Player::External(Box::new(External::start(command, variant, time)?))
            }
        })
    }

    /// The contender's move: `time` is its turn, `limit` how long an
    /// external engine's answer is waited for.
    fn choose(
        &mut self,
        position: &Position,
        time: Duration,
        limit: Duration,
        seed: u64,
    ) -> Result<Chosen, String> {
        match self {
            Player::Level(level, memory) => {
                let limits = Limits::timed(time, seed);
                let started = Instant::now();
                let height = position.variant().height();
                engine::think_remembering(position, *level, &limits, Some(memory))
                    .map(|d| Chosen {
                        point: d.point,
                        thought: started.elapsed(),
                        said: vec![d.summary(height)],
                    })
                    .ok_or_else(|| "no move".to_string())
            }
            Player::External(engine) => engine.choose(position, limit),
        }
    }

    /// This player's opening action in `position` (not an ordinary move).
    fn open(
        &mut self,
        position: &Position,
        opening: &Opening,
        time: Duration,
        seed: u64,
    ) -> Result<engine::OpeningAction, String> {
        use engine::OpeningAction;
        match self {
            Player::Level(level, _) => {
                let limits = Limits::timed(time, seed);
                engine::decide_opening(position, opening, *level, &limits)
                    .ok_or_else(|| "no opening action".to_string())
            }
            Player::External(engine) => {
                let words = engine.swap2(position.moves(), time)?;
                let points = words
                    .iter()
                    .map(|w| {
                        let (x, y) = w.split_once(',').ok_or(format!("not a move: {w:?}"))?;
                        match (x.trim().parse(), y.trim().parse()) {
                            (Ok(x), Ok(y)) => Ok(Point::new(x, y)),
                            _ => Err(format!("not a move: {w:?}")),
                        }
                    })
                    .collect::<Result<Vec<Point>, String>>();
                let swap = words.len() == 1 && words[0].eq_ignore_ascii_case("SWAP");
                // SWAP means "I play black"; a move, white's next.
                match (position.moves().len(), swap, points) {
                    (0, false, Ok(stones)) if stones.len() == 3 => {
                        Ok(OpeningAction::Stones(stones))
                    }
                    (3, true, _) => Ok(OpeningAction::decide(Decision::Swap(true), Vec::new())),
                    (3, false, Ok(stones)) if stones.len() == 1 => {
                        Ok(OpeningAction::decide(Decision::Swap(false), stones))
                    }
                    (3, false, Ok(stones)) if stones.len() == 2 => {
                        Ok(OpeningAction::decide(Decision::PlaceTwo, stones))
                    }
                    (5, true, _) => Ok(OpeningAction::decide(Decision::Swap(false), Vec::new())),
                    (5, false, Ok(stones)) if stones.len() == 1 => {
                        Ok(OpeningAction::decide(Decision::Swap(true), stones))
                    }
                    (_, _, Err(e)) => Err(e),
                    _ => Err(format!("not a SWAP2BOARD answer: {words:?}")),
                }
            }
        }
    }
}

/// Plays the opening with each player making its own decisions; returns
/// whether the first contender plays black after it, or why a player lost.
fn play_opening(
    config: &MatchConfig,
    position: &mut Position,
    players: (&mut Player, &mut Player),
    mut first_is_black: bool,
    seed: u64,
) -> Result<bool, (Color, String)> {
    use engine::OpeningAction;
    let (first, second) = players;
    let mut opening = Opening::new(config.opening_rule);
    loop {
        let turn = opening.turn(position);
        if matches!(turn.phase, Phase::Done) {
            return Ok(first_is_black);
        }
        let first_acts = (turn.actor == Color::Black) == first_is_black;
        let player = if first_acts {
            &mut *first
        } else {
            &mut *second
        };
        let foul = |e: String| (turn.actor, e);
        if turn.phase == Phase::Move {
            // Opening stones are not timed: the wait only bounds a hung
            // engine, and allows for its start-up.
            let limit = config.time_per_move + FIRST_MOVE_GRACE + Duration::from_millis(500);
            let p = player
                .choose(position, config.time_per_move, limit, seed)
                .map_err(foul)?
                .point;
            opening
                .check_stone(position, p)
                .map_err(|e| foul(e.to_string()))?;
            position.play(p).map_err(|e| foul(e.to_string()))?;
            continue;
        }
        let action = player
            .open(
                position,
                &opening,
                config.time_per_move,
                seed ^ position.moves().len() as u64,
            )
            .map_err(foul)?;
        let stones = match action {
            OpeningAction::Stones(stones) => stones,
            OpeningAction::Decide { decision, then } => {
                opening
                    .check_decision(position, &decision)
                    .map_err(|e| foul(e.to_string()))?;
                if decision == Decision::Swap(true) {
                    first_is_black = !first_is_black;
                }
                opening.record(position.moves().len(), decision);
                then
            }
        };
        for p in stones {
            opening
                .check_stone(position, p)
                .map_err(|e| foul(e.to_string()))?;
            position.play(p).map_err(|e| foul(e.to_string()))?;
        }
    }
}

/// Plays one game; `first_is_black` says which contender has black.
fn play_game(
    config: &MatchConfig,
    opening: &[Point],
    opening_index: usize,
    first_is_black: bool,
    seed: u64,
) -> GameReport {
    let variant = config.variant;
    let mut position = Position::new(variant);
    for &p in opening {
        if position.play(p).is_err() {
            break;
        }
    }
    let tolerance = config.time_per_move / 2 + Duration::from_millis(100);
    // Whether each contender (first, second) has answered a move yet: its
    // first answer may also carry its start-up (tables allocated, weights
    // read), which Gomocup managers do not count against the turn.
    let mut started = (false, false);
    let mut report = GameReport {
        first_is_black,
        opening: opening_index,
        moves: position.moves().to_vec(),
        score: 0.5,
        reason: String::new(),
        turns: Vec::new(),
    };
    let players = (
        Player::new(&config.first, &variant, config.time_per_move),
        Player::new(&config.second, &variant, config.time_per_move),
    );
    let (mut first, mut second) = match players {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => {
            report.reason = e;
            return report;
        }
    };
    let mut first_is_black = first_is_black;
    if config.opening_rule != OpeningRule::Free {
        match play_opening(
            config,
            &mut position,
            (&mut first, &mut second),
            first_is_black,
            seed,
        ) {
            Ok(black) => first_is_black = black,
            Err((loser, e)) => {
                // The seat that failed loses; who sits there is as now.
                report.score = if (loser == Color::Black) == first_is_black {
                    0.0
                } else {
                    1.0
                };
                report.reason = format!("{loser} failed in the opening: {e}");
                report.moves = position.moves().to_vec();
                return report;
            }
        }
        report.first_is_black = first_is_black;
        report.moves = position.moves().to_vec();
    }
    let score_for = |winner: Color| {
        if (winner == Color::Black) == first_is_black {
            1.0
        } else {
            0.0
        }
    };
    loop {
        let mover = position.to_move();
        let first_moves = (mover == Color::Black) == first_is_black;
        let player = if first_moves { &mut first } else { &mut second };
        let has_started = if first_moves {
            &mut started.0
        } else {
            &mut started.1
        };
        let grace = if *has_started {
            Duration::ZERO
        } else {
            FIRST_MOVE_GRACE
        };
        *has_started = true;
        // Longer than this is a loss on time whatever the answer: waiting
        // less would fail a first move still within its grace. The answer
        // is waited for a little longer, so that a late one is reported as
        // late rather than as missing.
        let limit = config.time_per_move + tolerance + grace;
        let choice = player.choose(
            &position,
            config.time_per_move,
            limit + Duration::from_millis(100),
            seed ^ position.moves().len() as u64,
        );
        let chosen = match choice {
            Ok(chosen) => chosen,
            Err(e) => {
                report.score = score_for(mover.opponent());
                report.reason = format!("{mover} failed: {e}");
                return report;
            }
        };
        let (point, took) = (chosen.point, chosen.thought);
        report.turns.push(Turn {
            by_first: first_moves,
            chosen,
        });
        if took > limit {
            report.score = score_for(mover.opponent());
            report.reason = format!("{mover} ran out of time ({} ms)", took.as_millis());
            return report;
        }
        match position.play(point) {
            Err(e) => {
                report.score = score_for(mover.opponent());
                report.reason = format!("{mover} played an illegal move {point}: {e}");
                return report;
            }
            Ok(None) => report.moves.push(point),
            Ok(Some(outcome)) => {
                report.moves.push(point);
                match outcome {
                    Outcome::Draw => {
                        report.score = 0.5;
                        report.reason = "board full".into();
                    }
                    Outcome::Win { winner, reason, .. } => {
                        report.score = score_for(winner);
                        report.reason = format!("{winner} won ({reason:?})");
                    }
                }
                return report;
            }
        }
    }
}

/// Plays the match on `threads` threads, calling `progress` after each game.
pub fn run(
    config: &MatchConfig,
    threads: usize,
    progress: &(dyn Fn(&[GameReport]) + Sync),
) -> MatchReport {
    let openings = standard_openings();
    let fits = |o: &Vec<Point>| {
        o.iter()
            .all(|p| p.x < config.variant.width() && p.y < config.variant.height())
    };
    let openings: Vec<Vec<Point>> =
        if config.variant.area() >= 49 && config.opening_rule == OpeningRule::Free {
            openings.into_iter().filter(fits).collect()
        } else {
            vec![Vec::new()]
        };
    // Each opening is played twice, colours swapped.
    let schedule: Vec<(usize, bool)> = (0..config.games)
        .map(|n| ((n / 2) % openings.len(), n % 2 == 0))
        .collect();
    let results = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(&(opening, first_is_black)) = schedule.get(n) else {
                        break;
                    };
                    let seed = config.seed.wrapping_add(n as u64 * 0x9E37_79B9);
                    let report =
                        play_game(config, &openings[opening], opening, first_is_black, seed);
                    let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
                    results.push(report);
                    progress(&results);
                }
            });
        }
    });
    MatchReport {
        games: results.into_inner().unwrap_or_else(|e| e.into_inner()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(moves: &[(u8, u8)]) -> Position {
        let mut position = Position::new(Variant::freestyle(15).unwrap());
        for &(x, y) in moves {
            position.play(Point::new(x, y)).unwrap();
        }
        position
    }

    #[test]
    fn a_turn_is_begin_turn_or_the_board_in_the_order_played() {
        let empty = position(&[]);
        assert_eq!(turn_commands(Some(&[]), &empty), ["BEGIN"]);
        // Played from the bottom right up: the board lists them so, not in
        // board order, and marks white's (the engine's, to move) as 1.
        let moves = [(9, 9), (3, 3), (7, 7)];
        let played = position(&moves);
        let told = [Point::new(9, 9), Point::new(3, 3)];
        assert_eq!(turn_commands(Some(&told), &played), ["TURN 7,7"]);
        let board = ["BOARD", "9,9,2", "3,3,1", "7,7,2", "DONE"];
        assert_eq!(turn_commands(None, &played), board);
        // An engine that holds another game is told the whole position.
        assert_eq!(turn_commands(Some(&[Point::new(1, 1)]), &played), board);
        assert_eq!(turn_commands(Some(&[]), &played), board);
    }
}
