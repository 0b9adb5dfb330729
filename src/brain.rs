//! `gobang brain`: the Gomocup engine protocol on stdin/stdout, so the
//! engine can play in any Gomocup manager against any Gomocup engine.
//! Coordinates are `x,y`, 0-based, x from the left, y from the top.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use crate::engine::{self, Level, Limits, Memory, OpeningAction};
use crate::rules::{Decision, Opening, OpeningRule, Point, Position, Variant};

/// The protocol state: the board as the manager describes it.
pub struct Brain {
    level: Level,
    width: u8,
    height: u8,
    rule: u32,
    timeout_turn: Duration,
    time_left: Option<Duration>,
    /// Stones in the order they were placed, with their owner (true: ours).
    stones: Vec<(Point, bool)>,
    seed: u64,
    /// The stones of a SWAP2BOARD command, in order, until its DONE.
    swap2: Option<Vec<Point>>,
    /// What its searches found, for the next ones.
    memory: Memory,
    /// The last move's timings, until its answer is written.
    turn: Option<Turn>,
    /// The last answer's timing, until the next turn learns from it.
    answered: Option<Answered>,
    /// Time held back from every search besides the margin, learnt from
    /// answers that reached the manager late or nearly so (a loaded or
    /// throttled machine, a slow pipe): it grows by what such an answer
    /// lacked, and shrinks by a sixteenth after each answer in good time
    /// that thought for at least half its turn: a machine that stalled once
    /// may stall again, so the time is given back slowly.
    reserve: Duration,
}

/// An answer written: how long it took by the brain's clock, against what.
struct Answered {
    took: Duration,
    /// The manager's deadline for it: the turn, or the match time left if less.
    deadline: Duration,
    /// The match time left the manager told before the move, if it did:
    /// what it tells before the next shows how long it measured the move.
    time_left: Option<Duration>,
}

/// What an answer should reach the manager with in hand: one that came
/// closer to its deadline makes the brain hold back the difference.
const KEEP_IN_HAND: Duration = Duration::from_millis(10);

/// Where a move's time went, kept until its answer is out: a move that took
/// longer than the brain gave itself is reported on standard error, so
/// that a manager's complaint of a late move can be traced.
struct Turn {
    /// When its command was read.
    asked: Instant,
    /// What the brain gave the move ([`Brain::budget`]: the turn less its margin).
    budget: Duration,
    /// Reading the position, before the search started.
    setup: Duration,
    /// The search alone.
    search: Duration,
    depth: u32,
    nodes: u64,
    /// How long the thread had waited for a processor when the command
    /// was read, where the system tells (Linux).
    waited: Option<Duration>,
}

/// How long this thread has waited for a processor since it started, from
/// the scheduler's statistics (Linux; `None` elsewhere).
fn processor_wait() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

impl Turn {
    /// A line for standard error if the move, answer written, took longer
    /// than its budget.
    fn report(&self, turn: Duration) -> Option<String> {
        let took = self.asked.elapsed();
        (took > self.budget).then(|| {
            let ms = |d: Duration| d.as_secs_f64() * 1000.0;
            let waited = match (self.waited, processor_wait()) {
                (Some(before), Some(now)) => format!(
                    "; it waited {:.1} ms of it for a processor",
                    ms(now.saturating_sub(before))
                ),
                _ => String::new(),
            };
            format!(
                "gobang brain: slow move: {:.1} ms from command to answer, against {:.0} ms \
                 given to it (the turn allows {:.0} ms): {:.1} ms reading the position, \
                 {:.1} ms searching (depth {}, {} nodes), {:.1} ms answering{waited}",
                ms(took),
                ms(self.budget),
                ms(turn),
                ms(self.setup),
                ms(self.search),
                self.depth,
                self.nodes,
                ms(took.saturating_sub(self.setup + self.search)),
            )
        })
    }
}

impl Brain {
    /// Searches with `threads` threads (Lazy SMP), as many as the machine
    /// has processors at most: more would only take turns on them.
    pub fn set_threads(&mut self, threads: usize) {
        let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.memory.set_threads(threads.clamp(1, processors));
    }

    pub fn new(level: Level) -> Brain {
        Brain {
            level,
            width: 15,
            height: 15,
            rule: 0,
            timeout_turn: Duration::from_secs(5),
            time_left: None,
            stones: Vec::new(),
            seed: 1,
            swap2: None,
            memory: Memory::new(),
            turn: None,
            answered: None,
            reserve: Duration::ZERO,
        }
    }

    /// Gets the engine ready for the rules and size set so far, while the
    /// manager waits for START's OK rather than on the first move's clock.
    fn prepare(&self) {
        if let Ok(variant) = self.variant() {
            engine::prepare(variant);
        }
    }

    fn variant(&self) -> Result<Variant, String> {
        Variant::from_gomocup(self.rule, self.width, self.height).map_err(|e| e.to_string())
    }

    /// The position the stones make; black is whoever has as many stones as
    /// the other side or one more, with the side to move being us.
    fn position(&self) -> Result<Position, String> {
        let variant = self.variant()?;
        let ours = self.stones.iter().filter(|(_, mine)| *mine).count();
        let theirs = self.stones.len() - ours;
        // We are to move: if the counts are equal we are black.
        let we_are_black = ours == theirs;
        let mut rows = vec![vec!['.'; self.width as usize]; self.height as usize];
        for &(p, mine) in &self.stones {
            let black = mine == we_are_black;
            rows[p.y as usize][p.x as usize] = if black { 'X' } else { 'O' };
        }
        let rows: Vec<String> = rows.into_iter().map(|r| r.into_iter().collect()).collect();
        Position::from_rows(variant, &rows).map_err(|e| e.to_string())
    }

    fn budget(&self) -> Duration {
        let mut budget = self.timeout_turn;
        if let Some(left) = self.time_left {
            // Spread what is left of the match over the moves still to come.
            budget = budget.min(left / 15);
        }
        // Answer before the manager's deadline, whatever the machine does
        // meanwhile: the search stops a tenth short of what it is given
        // (its own margin), and answers within a few milliseconds of that.
        // The reserve, learnt from late answers, comes off as well, up to
        // half of the turn.
        //
        // Not shown to gain in renju (against Rapfi STRENGTH 60 at 200 ms,
        // two 208-game matches each paired game by game with three of this
        // margin the same day, which scored 51.7%): 10 ms or a
        // twentieth kept in hand, with new iterations started until nine
        // tenths of the search's limit (190 ms given, stopping at 171 and
        // starting none after 154, as Rapfi stops at 170 and 153): 53.8 and
        // 50.0%, +0.2 points (95% ±4.0) over 416 pairs, the moves that ran
        // to the clock 164 ms on average instead of 153. Two games at once
        // on two processors took its longest moves to 191 and 193 ms, and
        // one to 230 ms in a match of another change made with it: too
        // close to the turn for what it bought.
        budget
            .saturating_sub(Duration::from_millis(20).min(budget / 10))
            .saturating_sub(self.reserve.min(budget / 2))
            .max(Duration::from_millis(5))
    }

    /// The manager's deadline for the move to come: its turn, or what is
    /// left of the match if less.
    fn deadline(&self) -> Duration {
        self.time_left
            .map_or(self.timeout_turn, |left| left.min(self.timeout_turn))
    }

    /// Called when an answer is out (before the manager's next command):
    /// reports a move past its budget (a line for standard error) and
    /// keeps its timing for the next turn.
    fn answered(&mut self) -> Option<String> {
        let turn = self.turn.take()?;
        self.answered = Some(Answered {
            took: turn.asked.elapsed(),
            deadline: self.deadline(),
            time_left: self.time_left,
        });
        turn.report(self.timeout_turn)
    }

    /// Learns from the last answer how late it reached the manager: as
    /// late as the brain's own clock says, or as the manager says where
    /// it told the match time left before and after it, whichever is
    /// later (the manager's clock also counts the pipe and the time this
    /// process took to wake up). An answer with less than [`KEEP_IN_HAND`]
    /// to spare makes the reserve grow by what it lacked.
    fn learn_from_last_answer(&mut self) {
        let Some(last) = self.answered.take() else {
            return;
        };
        let managers = match (last.time_left, self.time_left) {
            (Some(before), Some(now)) => before.saturating_sub(now),
            _ => Duration::ZERO,
        };
        let measured = last.took.max(managers);
        let lacked = (measured + KEEP_IN_HAND).saturating_sub(last.deadline);
        if lacked > Duration::ZERO {
            self.reserve += lacked;
        } else if measured >= last.deadline / 2 {
            // Only an answer that thought for long shows the machine calmer.
            self.reserve -= self.reserve / 16;
        }
    }

    fn limits(&mut self) -> Limits {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        Limits {
            time: self.budget(),
            nodes: None,
            seed: self.seed,
            candidates: 1,
        }
    }

    /// Answers SWAP2BOARD: with no stones, the three opening stones; with
    /// three, `SWAP` (we take black), a move (we stay white and play it) or
    /// two more stones; with five, `SWAP` (we keep black) or white's move
    /// (we take white). Either way `SWAP` means "I play black".
    fn swap2(&mut self, stones: Vec<Point>) -> String {
        let variant = match self.variant() {
            Ok(v) => v,
            Err(e) => return format!("ERROR {e}"),
        };
        let mut position = Position::new(variant);
        for &p in &stones {
            if let Err(e) = position.play(p) {
                return format!("ERROR stone {p}: {e}");
            }
        }
        let mut opening = Opening::new(OpeningRule::Swap2);
        match stones.len() {
            0 | 3 => {}
            5 => opening.record(3, Decision::PlaceTwo),
            n => return format!("ERROR SWAP2BOARD takes 0, 3 or 5 stones, not {n}"),
        }
        let limits = self.limits();
        let Some(action) = engine::decide_opening(&position, &opening, self.level, &limits) else {
            return "ERROR no opening decision to make".into();
        };
        let list = |points: &[Point]| {
            points
                .iter()
                .map(|p| format!("{},{}", p.x, p.y))
                .collect::<Vec<_>>()
                .join(" ")
        };
        // We play black when we place the first stones or answer SWAP.
        let ours = |black: bool| {
            stones
                .iter()
                .enumerate()
                .map(|(n, &p)| (p, (n % 2 == 0) == black))
                .collect::<Vec<_>>()
        };
        match action {
            OpeningAction::Stones(placed) => {
                self.stones = placed
                    .iter()
                    .enumerate()
                    .map(|(n, &p)| (p, n % 2 == 0))
                    .collect();
                list(&placed)
            }
            OpeningAction::Decide {
                decision: Decision::PlaceTwo,
                then,
            } => {
                self.stones = ours(false);
                self.stones.extend([(then[0], true), (then[1], false)]);
                list(&then)
            }
            OpeningAction::Decide {
                decision: Decision::Swap(swap),
                ..
            } => {
                // The chooser after three stones is white unless it swaps;
                // after five, the first player is black unless it swaps.
                let black = if stones.len() == 3 { swap } else { !swap };
                self.stones = ours(black);
                if black { "SWAP".into() } else { self.think() }
            }
            OpeningAction::Decide { .. } => "ERROR unexpected opening decision".into(),
        }
    }

    fn think(&mut self) -> String {
        // The turn's time runs from its command: building the position
        // comes out of it.
        let asked = Instant::now();
        let waited = processor_wait();
        self.learn_from_last_answer();
        let position = match self.position() {
            Ok(p) => p,
            Err(e) => return format!("ERROR {e}"),
        };
        let mut limits = self.limits();
        let budget = limits.time;
        let setup = asked.elapsed();
        limits.time = limits.time.saturating_sub(setup);
        let decision =
            engine::think_remembering(&position, self.level, &limits, Some(&mut self.memory));
        self.turn = Some(Turn {
            asked,
            budget,
            setup,
            search: asked.elapsed().saturating_sub(setup),
            depth: decision.as_ref().map_or(0, |d| d.depth),
            nodes: decision.as_ref().map_or(0, |d| d.nodes),
            waited,
        });
        match decision {
            Some(decision) => {
                self.stones.push((decision.point, true));
                // What Gomocup managers show of an engine's thinking.
                format!(
                    "MESSAGE {}\n{},{}",
                    decision.summary(self.height),
                    decision.point.x,
                    decision.point.y
                )
            }
            None => "ERROR no move to play".into(),
        }
    }

    fn parse_point(&self, text: &str) -> Option<Point> {
        let mut parts = text.trim().split(',');
        let x: u8 = parts.next()?.trim().parse().ok()?;
        let y: u8 = parts.next()?.trim().parse().ok()?;
        (x < self.width && y < self.height).then_some(Point::new(x, y))
    }

    /// Answers one command line; `None` to say nothing, `Some(lines)` to
    /// answer. `board` collects the lines between BOARD and DONE.
    pub fn command(&mut self, line: &str, board: &mut Option<Vec<(Point, u32)>>) -> Option<String> {
        let line = line.trim();
        if self.swap2.is_some() {
            if line.eq_ignore_ascii_case("DONE") {
                let stones = self.swap2.take().unwrap_or_default();
                return Some(self.swap2(stones));
            }
            return match self.parse_point(line) {
                Some(p) => {
                    self.swap2.get_or_insert_default().push(p);
                    None
                }
                None => {
                    self.swap2 = None;
                    Some(format!("ERROR bad SWAP2BOARD line {line:?}"))
                }
            };
        }
        if let Some(rows) = board.as_mut() {
            if line.eq_ignore_ascii_case("DONE") {
                let rows = board.take().unwrap_or_default();
                self.stones = rows.into_iter().map(|(p, who)| (p, who == 1)).collect();
                return Some(self.think());
            }
            let mut parts = line.split(',');
            let parsed = (|| {
                let x: u8 = parts.next()?.trim().parse().ok()?;
                let y: u8 = parts.next()?.trim().parse().ok()?;
                let who: u32 = parts.next()?.trim().parse().ok()?;
                Some((Point::new(x, y), who))
            })();
            return match parsed {
                Some(entry) => {
                    rows.push(entry);
                    None
                }
                None => Some(format!("ERROR bad board line {line:?}")),
            };
        }
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        match word.to_ascii_uppercase().as_str() {
            "" => None,
            "START" => match rest.trim().parse::<u8>() {
                Ok(n) if (5..=26).contains(&n) => {
                    self.width = n;
                    self.height = n;
                    self.stones.clear();
                    self.prepare();
                    Some("OK".into())
                }
                _ => Some(format!("ERROR unsupported size {rest}")),
            },
            "RECTSTART" => {
                let size = rest
                    .split(',')
                    .map(|s| s.trim().parse::<u8>())
                    .collect::<Result<Vec<_>, _>>();
                match size.as_deref() {
                    Ok([w, h]) if (5..=26).contains(w) && (5..=26).contains(h) => {
                        self.width = *w;
                        self.height = *h;
                        self.stones.clear();
                        self.prepare();
                        Some("OK".into())
                    }
                    _ => Some(format!("ERROR unsupported size {rest}")),
                }
            }
            "RESTART" => {
                self.stones.clear();
                Some("OK".into())
            }
            "INFO" => {
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                let number = value.trim().parse::<u64>().ok();
                match (key.to_ascii_lowercase().as_str(), number) {
                    ("timeout_turn", Some(ms)) if ms > 0 => {
                        self.timeout_turn = Duration::from_millis(ms)
                    }
                    ("time_left", Some(ms)) => self.time_left = Some(Duration::from_millis(ms)),
                    // Not in the protocol's list, but sent by managers
                    // and understood by engines (Rapfi's name for it).
                    ("thread_num", Some(threads)) => self.set_threads(threads as usize),
                    ("rule", Some(rule)) => {
                        self.rule = rule as u32;
                        self.prepare();
                    }
                    _ => {}
                }
                None
            }
            "BEGIN" => Some(self.think()),
            "TURN" => match self.parse_point(rest) {
                Some(p) if !self.stones.iter().any(|(q, _)| *q == p) => {
                    self.stones.push((p, false));
                    Some(self.think())
                }
                _ => Some(format!("ERROR bad move {rest}")),
            },
            "BOARD" => {
                *board = Some(Vec::new());
                None
            }
            "SWAP2BOARD" => {
                self.swap2 = Some(Vec::new());
                None
            }
            "TAKEBACK" => match self.parse_point(rest) {
                Some(p) => {
                    self.stones.retain(|(q, _)| *q != p);
                    Some("OK".into())
                }
                None => Some(format!("ERROR bad point {rest}")),
            },
            "ABOUT" => Some(format!(
                "name=\"gobang\", version=\"{}\", author=\"the gobang team\", country=\"\"",
                env!("CARGO_PKG_VERSION")
            )),
            "END" => None,
            _ => Some(format!("UNKNOWN {word}")),
        }
    }
}

/// Runs the protocol until END or the end of input, searching with
/// `threads` threads until `INFO thread_num` says otherwise.
pub fn run(
    level: Level,
    threads: usize,
    input: impl BufRead,
    mut output: impl Write,
) -> std::io::Result<()> {
    let mut brain = Brain::new(level);
    brain.set_threads(threads);
    let mut board = None;
    for line in input.lines() {
        let line = line?;
        if line.trim().eq_ignore_ascii_case("END") {
            break;
        }
        if let Some(answer) = brain.command(&line, &mut board) {
            writeln!(output, "{answer}")?;
            output.flush()?;
        }
        if let Some(report) = brain.answered() {
            eprintln!("{report}");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(took_ms: u64, budget_ms: u64) -> Turn {
        Turn {
            asked: Instant::now() - Duration::from_millis(took_ms),
            budget: Duration::from_millis(budget_ms),
            setup: Duration::from_millis(2),
            search: Duration::from_millis(took_ms.saturating_sub(5)),
            depth: 7,
            nodes: 81_000,
            waited: None,
        }
    }

    /// `INFO thread_num` sets the threads of the brain's searches, as many
    /// as the machine has processors at most, and at least one.
    #[test]
    fn info_thread_num_sets_the_search_threads_up_to_the_processors() {
        let processors = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut brain = Brain::new(Level::Expert);
        let mut board = None;
        assert_eq!(brain.memory.threads(), 1);
        assert_eq!(brain.command("INFO THREAD_NUM 2", &mut board), None);
        assert_eq!(brain.memory.threads(), processors.min(2));
        brain.command("INFO thread_num 1000", &mut board);
        assert_eq!(brain.memory.threads(), processors);
        brain.command("INFO thread_num 0", &mut board);
        assert_eq!(brain.memory.threads(), 1);
    }

    /// The brain keeps 20 ms of its turn in hand, or a tenth of it if
    /// that is less, of the turn or of a fifteenth of the match time left.
    #[test]
    fn the_brain_keeps_twenty_ms_or_a_tenth_of_its_turn_in_hand() {
        let given = |turn_ms: u64, left_ms: Option<u64>| {
            let mut brain = Brain::new(Level::Expert);
            brain.timeout_turn = Duration::from_millis(turn_ms);
            brain.time_left = left_ms.map(Duration::from_millis);
            brain.budget().as_millis()
        };
        assert_eq!(given(200, None), 180);
        assert_eq!(given(1000, None), 980);
        assert_eq!(given(100, None), 90);
        assert_eq!(given(1000, Some(1500)), 90);
        assert_eq!(given(3, None), 5);
    }

    /// An answer the manager measured late, or that came closer to its
    /// deadline than the brain keeps in hand, makes the brain hold back
    /// what it lacked from the next searches; answers in good time that
    /// thought for at least half their turn let the reserve shrink again,
    /// a sixteenth at a time.
    #[test]
    fn late_answers_make_the_brain_hold_back_time() {
        let ms = Duration::from_millis;
        let mut brain = Brain::new(Level::Expert);
        brain.timeout_turn = ms(200);
        let match_left = ms(600_000);
        // By its own clock the answer took 170 ms; the manager took 230 ms
        // off the match (a slow pipe, a process slow to wake).
        brain.answered = Some(Answered {
            took: ms(170),
            deadline: ms(200),
            time_left: Some(match_left),
        });
        brain.time_left = Some(match_left - ms(230));
        brain.learn_from_last_answer();
        assert_eq!(
            brain.reserve,
            ms(40),
            "30 ms late and 10 ms to keep in hand"
        );
        assert_eq!(brain.budget(), ms(140));
        // Without the manager's figures, the brain's own clock counts: 195
        // ms leaves 5 ms in hand, 5 short of what it keeps.
        brain.time_left = None;
        brain.answered = Some(Answered {
            took: ms(195),
            deadline: ms(200),
            time_left: None,
        });
        brain.learn_from_last_answer();
        assert_eq!(brain.reserve, ms(45));
        // A quick answer says nothing of the machine.
        let answer = |took| {
            Some(Answered {
                took: ms(took),
                deadline: ms(200),
                time_left: None,
            })
        };
        brain.answered = answer(20);
        brain.learn_from_last_answer();
        assert_eq!(brain.reserve, ms(45));
        // One that thought for long, in good time: a sixteenth less each.
        for _ in 0..16 {
            brain.answered = answer(120);
            brain.learn_from_last_answer();
        }
        assert_eq!(brain.reserve.as_millis(), 16, "{:?}", brain.reserve);
        // At most half of the turn is held back.
        brain.reserve = ms(500);
        assert_eq!(brain.budget(), ms(80));
    }

    #[test]
    fn a_move_past_its_budget_says_where_its_time_went() {
        let report = turn(214, 170)
            .report(Duration::from_millis(200))
            .expect("a move past its budget is reported");
        assert!(
            report.starts_with("gobang brain: slow move: 21"),
            "{report}"
        );
        assert!(report.contains("against 170 ms given to it (the turn allows 200 ms)"));
        assert!(
            report
                .contains("2.0 ms reading the position, 209.0 ms searching (depth 7, 81000 nodes)")
        );
        assert!(turn(120, 170).report(Duration::from_millis(200)).is_none());
    }
}
