//! Game use cases: create, read, list, join, play, undo, redo, resign, and
//! the computer's moves and hints.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::cursor;
use super::error::{Result, ServiceError};
use super::game::{Clock, Game, GameResult, Mode, MoveRecord, NewGame, Reason, Seat, Status, side};
use super::online::{GameOffer, ask};
use super::opening::opening_error;
use super::players::{NewlyCreated, PlayerName, computer_id, create_player_in};
use super::{Service, Thought, random_id};
use crate::engine::Level;
use crate::rules::{
    Color, Decision, OpeningRule, Phase, PlayError, Point, PointError, Variant, parse_point,
};
use crate::store::{self, Conn, GameFilter, PlayerRow, ScoreChange};

/// Who should sit in a seat of a new game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatSpec {
    /// The caller.
    Me,
    /// Anyone may join later.
    Open,
    /// A given player.
    Player(String),
    /// A computer level.
    Computer(Level),
}

/// A new game: its rules, who sits where, and its clock.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub variant: Variant,
    pub black: SeatSpec,
    pub white: SeatSpec,
    /// Main time and floor in ms, for a timed online game.
    pub clock: Option<(i64, i64)>,
    /// How the first stones are placed and colours chosen.
    pub opening: OpeningRule,
}

/// A point as a client sent it: a name like `h8`, or coordinates that may
/// be anything a JSON number can be.
#[derive(Clone, Debug)]
pub enum PointInput {
    Name(String),
    Xy(i64, i64),
}

/// What an action did: the game after it, and the moves it played (with the
/// computer's thinking for its moves).
#[derive(Clone, Debug)]
pub struct PlayOutcome {
    pub game: Game,
    pub moves: Vec<(MoveRecord, Option<Thought>)>,
}

/// One page of games.
#[derive(Clone, Debug)]
pub struct GameList {
    pub games: Vec<Game>,
    pub next_cursor: Option<String>,
}

/// What a game looked like before an action, to know what to write.
struct Before {
    version: i64,
    stored: Vec<Point>,
    scored: bool,
    result: Option<GameResult>,
}

impl Before {
    fn of(game: &Game) -> Before {
        Before {
            version: game.version,
            stored: game.stored.clone(),
            scored: game.scored,
            result: game.result.clone(),
        }
    }
}

/// Loads a whole game, or says there is none.
async fn load(conn: &mut Conn, id: &str) -> Result<Game> {
    let (row, black, white) =
        store::game_with_players(conn, id)
            .await?
            .ok_or_else(|| ServiceError::NotFound {
                what: "game",
                id: id.to_string(),
            })?;
    Game::from_rows(row, black, white)
}

/// Writes what an action changed: the game row (one version up), the move
/// record, and the scores when the result came or went.
async fn write_game(
    tx: &mut Conn,
    before: &Before,
    game: &mut Game,
    now: DateTime<Utc>,
) -> Result<()> {
    game.version = before.version + 1;
    game.updated_at = now;
    // First, so that this game can point to it (rolled back with the rest
    // if this game moved on meanwhile).
    if let Some(spawned) = &game.spawned {
        store::insert_game(tx, &spawned.to_row()).await?;
    }
    if !store::update_game(tx, &game.to_row(), before.version).await? {
        return Err(ServiceError::VersionMismatch {
            expected: before.version,
            current: before.version + 1,
        });
    }
    let common = before
        .stored
        .iter()
        .zip(&game.stored)
        .take_while(|(a, b)| a == b)
        .count();
    if common < before.stored.len() {
        store::delete_moves_from(tx, &game.id, common as i64 + 1).await?;
    }
    for record in std::mem::take(&mut game.new_records) {
        debug_assert!(record.ply > common);
        let row = store::MoveRow {
            ply: record.ply as i64,
            x: record.point.x as i64,
            y: record.point.y as i64,
            color: record.color.as_str().to_string(),
            played_at: record.played_at,
            thinking_ms: record.thinking_ms,
        };
        store::insert_move(tx, &game.id, &row).await?;
    }
    match (before.scored, game.scored) {
        (true, false) => apply_result(tx, game, before.result.as_ref(), -1).await?,
        (false, true) => apply_result(tx, game, game.result.as_ref(), 1).await?,
        _ => {}
    }
    Ok(())
}

/// Counts (`sign` 1) or takes back (`sign` -1) a result in both players' scores.
async fn apply_result(
    tx: &mut Conn,
    game: &Game,
    result: Option<&GameResult>,
    sign: i64,
) -> Result<()> {
    let Some(result) = result else { return Ok(()) };
    for color in [Color::Black, Color::White] {
        let Some(id) = game.seat(color).player_id() else {
            continue;
        };
        let change = match result.winner {
            None => ScoreChange::Draw,
            Some(w) if w == color => ScoreChange::Win,
            Some(_) if result.reason == Reason::Abandoned => ScoreChange::Abandoned,
            Some(_) => ScoreChange::Loss,
        };
        store::apply_score(tx, id, change, sign).await?;
    }
    Ok(())
}

/// Ends the game with `result`; scored unless one person held both seats.
/// Offers made during the game lapse.
pub(super) fn finish(game: &mut Game, result: GameResult) {
    game.status = Status::Finished;
    game.scored = game.mode() != Mode::Local && result.reason.was_played();
    game.result = Some(result);
    game.offer = None;
}

/// Ends a game whose side to move ran out of time: the clock stopped at
/// the deadline.
fn lose_on_time(game: &mut Game, now: DateTime<Utc>) {
    let loser = game.turn().actor;
    let flag_fall = game.deadline().map_or(now, |deadline| deadline.min(now));
    game.end_turn(flag_fall);
    finish(
        game,
        GameResult {
            winner: Some(loser.opponent()),
            reason: Reason::Timeout,
            winning_line: Vec::new(),
        },
    );
}

fn check_version(game: &Game, if_match: Option<i64>) -> Result<()> {
    match if_match {
        Some(expected) if expected != game.version => Err(ServiceError::VersionMismatch {
            expected,
            current: game.version,
        }),
        _ => Ok(()),
    }
}

fn point_name(game: &Game, p: Point) -> String {
    p.name(game.variant.height()).to_string()
}

/// The point a client named, checked against the board.
pub(super) fn resolve_point(game: &Game, input: &PointInput) -> Result<Point> {
    let (w, h) = (game.variant.width(), game.variant.height());
    match input {
        PointInput::Name(name) => parse_point(name, w, h).map_err(|e| match e {
            PointError::Syntax { .. } => ServiceError::Validation(e.to_string()),
            _ => ServiceError::OutOfBoard(e.to_string()),
        }),
        PointInput::Xy(x, y) => {
            if (0..w as i64).contains(x) && (0..h as i64).contains(y) {
                Ok(Point::new(*x as u8, *y as u8))
            } else {
                Err(ServiceError::OutOfBoard(format!(
                    "({x}, {y}) is off the {w}×{h} board (x goes from 0 to {}, y from 0 to {})",
                    w - 1,
                    h - 1
                )))
            }
        }
    }
}

/// Why a move may not be played, for the person who tried.
pub(super) fn play_error(game: &Game, e: PlayError) -> ServiceError {
    match e {
        PlayError::Occupied { point, by } => ServiceError::Occupied {
            point,
            point_name: point_name(game, point),
            by,
        },
        PlayError::Forbidden { point, kind } => ServiceError::Forbidden {
            point,
            point_name: point_name(game, point),
            kind,
        },
        PlayError::GameOver => ServiceError::GameOver,
        PlayError::OutOfBoard(e) => ServiceError::OutOfBoard(e.to_string()),
    }
}

/// Plays `p` for the side to move and records it, with the time the turn
/// took (or `thought_ms`, the computer's own measure). In the opening the
/// stone must be one the opening allows.
pub(super) fn apply_move(
    game: &mut Game,
    p: Point,
    thought_ms: Option<i64>,
    now: DateTime<Utc>,
) -> Result<MoveRecord> {
    game.opening
        .check_stone(&game.position, p)
        .map_err(|e| opening_error(game, e))?;
    let color = game.position.to_move();
    // The turn ends with this move (an illegal one leaves this copy unsaved).
    let elapsed = game.end_turn(now);
    let outcome = game.position.play(p).map_err(|e| play_error(game, e))?;
    let ply = game.position.moves().len();
    let record = MoveRecord {
        ply,
        color,
        point: p,
        played_at: now,
        thinking_ms: thought_ms.unwrap_or(elapsed),
    };
    game.stored.truncate(ply - 1);
    game.stored.push(p);
    game.new_records.push(record.clone());
    if let Some(clock) = &mut game.clock {
        let left = &mut clock.remaining_ms[side(color)];
        *left = (*left).max(clock.floor_ms);
    }
    // Moving on answers any offer still open.
    game.offer = None;
    if let Some(outcome) = outcome {
        finish(game, GameResult::from_outcome(&outcome));
    }
    Ok(record)
}

/// Who sits in a seat, for messages.
pub(super) fn seat_name(seat: &Seat) -> &str {
    match seat {
        Seat::Open => "nobody yet",
        Seat::Human { name, .. } | Seat::Computer { name, .. } => name,
    }
}

/// The seat colours `caller` holds, or why they may not act.
pub(super) fn seats_of(game: &Game, caller: &PlayerRow) -> Result<Vec<Color>> {
    let seats = game.seats_of(&caller.id);
    if seats.is_empty() {
        return Err(ServiceError::NotAPlayer);
    }
    Ok(seats)
}

pub(super) fn require_in_progress(game: &Game) -> Result<()> {
    match game.status {
        Status::Waiting => Err(ServiceError::NotStarted),
        Status::Finished => Err(ServiceError::GameOver),
        Status::InProgress => Ok(()),
    }
}

/// The seat `caller` acts for now, or why they may not act: the side to
/// move, or in the opening whoever the opening waits for.
pub(super) fn require_turn(game: &Game, caller: &PlayerRow) -> Result<Color> {
    let seats = seats_of(game, caller)?;
    require_in_progress(game)?;
    let turn = game.turn();
    let actor = turn.actor;
    if seats.contains(&actor) {
        return Ok(actor);
    }
    let what = match turn.phase {
        Phase::Move | Phase::Done => format!("{actor}'s turn"),
        phase => format!("the opening's {} phase, for {actor}", phase.as_str()),
    };
    Err(ServiceError::NotYourTurn(match game.seat(actor) {
        Seat::Computer { .. } => format!(
            "it is {what} and the computer plays {actor}: POST /v1/games/{}/ai-move",
            game.id
        ),
        Seat::Human { name, .. } => format!("it is {what} ({name} plays {actor})"),
        Seat::Open => format!("it is {what}"),
    }))
}

impl Service {
    /// Runs `action` on game `id` and saves what it changed in one write
    /// transaction. The game is loaded and the action checked outside the
    /// write lock; the write applies only if the game is still at the
    /// version loaded (else, without `If-Match`, the action is tried again on
    /// the newer game). So two racing actions can never both apply, and the
    /// lock is held for the writes alone.
    pub(super) async fn act<T>(
        &self,
        id: &str,
        if_match: Option<i64>,
        mut action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<T>,
    ) -> Result<(Game, T)> {
        let (game, value) = self
            .act_maybe(id, if_match, |game, now| action(game, now).map(Some))
            .await?
            .expect("an action that always changes the game");
        Ok((game, value))
    }

    /// [`Service::act`] for an action whose answer is the game after it.
    pub(super) async fn change(
        &self,
        id: &str,
        if_match: Option<i64>,
        action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<()>,
    ) -> Result<Game> {
        Ok(self.act(id, if_match, action).await?.0)
    }

    /// [`Service::act`] for an action that may find nothing to do
    /// (`Ok(None)`: nothing is written). A game whose clock has run out is
    /// first ended on time, whatever the action.
    pub(super) async fn act_maybe<T>(
        &self,
        id: &str,
        if_match: Option<i64>,
        mut action: impl FnMut(&mut Game, DateTime<Utc>) -> Result<Option<T>>,
    ) -> Result<Option<(Game, T)>> {
        const ATTEMPTS: usize = 16;
        let mut attempt = 0;
        loop {
            attempt += 1;
            let mut game = self.game(id).await?;
            let now = Utc::now();
            if game.out_of_time(now) {
                let before = Before::of(&game);
                lose_on_time(&mut game, now);
                match self.save(&before, &mut game, now).await {
                    Ok(()) | Err(ServiceError::VersionMismatch { .. }) => continue,
                    Err(e) => return Err(e),
                }
            }
            check_version(&game, if_match)?;
            let before = Before::of(&game);
            let Some(value) = action(&mut game, now)? else {
                return Ok(None);
            };
            match self.save(&before, &mut game, now).await {
                Ok(()) => return Ok(Some((game, value))),
                Err(ServiceError::VersionMismatch { .. })
                    if if_match.is_none() && attempt < ATTEMPTS =>
                {
                    continue;
                }
                Err(ServiceError::VersionMismatch { expected, .. }) => {
                    let current = self.game(id).await?.version;
                    return Err(ServiceError::VersionMismatch { expected, current });
                }
                Err(e) => return Err(e),
            }
        }
    }

    /// Writes an action's changes if the game is still at the version it was
    /// loaded at, then tells the game's followers (and the clock watcher).
    async fn save(&self, before: &Before, game: &mut Game, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.store.write().await?;
        write_game(&mut tx, before, game, now).await?;
        tx.commit().await?;
        let spawned = game.spawned.take();
        self.events.publish(game);
        if let Some(spawned) = spawned {
            self.events.publish(&spawned);
        }
        if game.clock.is_some() {
            self.clocks_changed.notify_one();
        }
        Ok(())
    }

    pub async fn game(&self, id: &str) -> Result<Game> {
        let mut conn = self.store.read().await?;
        load(&mut conn, id).await
    }

    /// The game once its version is past `after`, or as it is after
    /// `timeout` (long polling).
    pub async fn wait_for_change(&self, id: &str, after: i64, timeout: Duration) -> Result<Game> {
        // Subscribe before reading, so a change between the two is not missed.
        let mut subscription = self.events.subscribe(id, None);
        let game = self.game(id).await?;
        if game.version > after {
            return Ok(game);
        }
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            match tokio::time::timeout_at(deadline, subscription.receiver.recv()).await {
                Ok(Ok(event)) if event.version() > after => return Ok(event.game.clone()),
                Ok(Ok(_)) => continue,
                // Fell behind, or timed out: the stored state is the answer.
                Ok(Err(_)) | Err(_) => return self.game(id).await,
            }
        }
    }

    /// Creates a game; without a caller a guest player is made and returned.
    pub async fn create_game(
        &self,
        caller: Option<PlayerRow>,
        spec: GameSpec,
    ) -> Result<(PlayOutcome, Option<NewlyCreated>)> {
        let mut tx = self.store.write().await?;
        let (caller, guest) = match caller {
            Some(player) => (player, None),
            None => {
                let suffix = random_id("");
                let name = PlayerName::parse(&format!("Guest {}", &suffix[..6]))?;
                let created = create_player_in(&mut tx, &name).await?;
                (created.player.clone(), Some(created))
            }
        };
        let black = resolve_seat(&mut tx, &caller, &spec.black).await?;
        let white = resolve_seat(&mut tx, &caller, &spec.white).await?;
        let caller_seated = [&black, &white]
            .iter()
            .any(|s| s.player_id() == Some(caller.id.as_str()));
        let both_computers = black.is_computer() && white.is_computer();
        if !caller_seated && !both_computers {
            return Err(ServiceError::Validation(
                "you must sit in one of the seats: use \"me\" for black or white (or two computer levels to watch them play)".into(),
            ));
        }
        if black == Seat::Open && white == Seat::Open {
            return Err(ServiceError::Validation(
                "at most one seat can be open".into(),
            ));
        }
        // A person named for a seat is invited: they accept or decline.
        let invited = [
            (Color::Black, &spec.black, &black),
            (Color::White, &spec.white, &white),
        ]
        .into_iter()
        .find(|(_, spec, seat)| {
            matches!(spec, SeatSpec::Player(_))
                && matches!(seat, Seat::Human { id, .. } if *id != caller.id)
        })
        .map(|(color, _, _)| color);
        let two_people = !black.is_computer() && !white.is_computer() && black != white;
        if spec.clock.is_some() && !two_people {
            return Err(ServiceError::Validation(
                "clocks are for games between two people: seat another player (or \"open\") opposite you".into(),
            ));
        }
        spec.opening
            .check_fits(&spec.variant)
            .map_err(|e| ServiceError::Validation(e.to_string()))?;
        let now = Utc::now();
        let game = Game::create(
            random_id("g_"),
            NewGame {
                variant: spec.variant,
                black,
                white,
                created_by: caller.id.clone(),
                invited,
                clock: spec.clock.map(|(main, floor)| Clock::new(main, floor)),
                idle_limit_ms: Some(self.online.idle_limit.as_millis() as i64),
                rematch_of: None,
                opening: spec.opening,
            },
            now,
        );
        store::insert_game(&mut tx, &game.to_row()).await?;
        tx.commit().await?;
        self.events.publish(&game);
        let mut outcome = PlayOutcome {
            game,
            moves: Vec::new(),
        };
        self.computer_replies(&mut outcome).await?;
        Ok((outcome, guest))
    }

    /// Games newest first, filtered by player and status.
    pub async fn list_games(
        &self,
        player_id: Option<&str>,
        status: Option<Status>,
        limit: i64,
        cursor: Option<&str>,
    ) -> Result<GameList> {
        let after = cursor
            .map(|c| {
                let (micros, id) = cursor::decode(c)?;
                let time = DateTime::from_timestamp_micros(micros).ok_or_else(|| {
                    ServiceError::Validation("cursor is not one this server returned".into())
                })?;
                Ok::<_, ServiceError>((time, id))
            })
            .transpose()?;
        let mut conn = self.store.read().await?;
        let filter = GameFilter {
            player_id,
            status: status.map(Status::as_str),
            after: after.as_ref().map(|(t, id)| (*t, id.as_str())),
            limit: limit + 1,
        };
        let rows = store::list_games(&mut conn, &filter).await?;
        let more = rows.len() as i64 > limit;
        let mut games = Vec::with_capacity(rows.len());
        for row in rows.into_iter().take(limit as usize) {
            games.push(load(&mut conn, &row.id).await?);
        }
        let next_cursor = more
            .then(|| games.last())
            .flatten()
            .map(|g| cursor::encode(g.created_at.timestamp_micros(), &g.id));
        Ok(GameList { games, next_cursor })
    }

    /// The game and the record of the moves on its board, in order.
    pub async fn moves(&self, id: &str) -> Result<(Game, Vec<MoveRecord>)> {
        let mut conn = self.store.read().await?;
        let game = load(&mut conn, id).await?;
        let rows = store::moves(&mut conn, id, game.position.moves().len() as i64).await?;
        let records = rows
            .into_iter()
            .map(|m| MoveRecord {
                ply: m.ply as usize,
                color: if m.color == "black" {
                    Color::Black
                } else {
                    Color::White
                },
                point: Point::new(m.x as u8, m.y as u8),
                played_at: m.played_at,
                thinking_ms: m.thinking_ms,
            })
            .collect();
        Ok((game, records))
    }

    /// Takes the open seat (or, for the invited player, accepts).
    pub async fn join(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<PlayOutcome> {
        let (game, ()) = self
            .act(id, if_match, |game, now| {
                if game.status != Status::Waiting {
                    return Err(ServiceError::SeatUnavailable(
                        "this game has no open seat".into(),
                    ));
                }
                if let Some(invited) = game.invited {
                    return match game.seat(invited) {
                        Seat::Human { id, .. } if *id == caller.id => {
                            game.start(now);
                            Ok(())
                        }
                        seat => Err(ServiceError::SeatUnavailable(format!(
                            "this game is an invitation to {}",
                            seat_name(seat)
                        ))),
                    };
                }
                if !game.seats_of(&caller.id).is_empty() {
                    return Err(ServiceError::SeatUnavailable(
                        "you already sit in this game".into(),
                    ));
                }
                let open = [Color::Black, Color::White]
                    .into_iter()
                    .find(|&c| *game.seat(c) == Seat::Open)
                    .ok_or_else(|| {
                        ServiceError::SeatUnavailable("this game has no open seat".into())
                    })?;
                *game.seat_mut(open) = Seat::Human {
                    id: caller.id.clone(),
                    name: caller.name.clone(),
                };
                game.start(now);
                Ok(())
            })
            .await?;
        let mut outcome = PlayOutcome {
            game,
            moves: Vec::new(),
        };
        self.computer_replies(&mut outcome).await?;
        Ok(outcome)
    }

    /// Plays the caller's move; against the computer, its reply follows.
    pub async fn play(
        &self,
        caller: &PlayerRow,
        id: &str,
        point: &PointInput,
        if_match: Option<i64>,
    ) -> Result<PlayOutcome> {
        let (game, record) = self
            .act(id, if_match, |game, now| {
                require_turn(game, caller)?;
                let p = resolve_point(game, point)?;
                apply_move(game, p, None, now)
            })
            .await?;
        let mut outcome = PlayOutcome {
            game,
            moves: vec![(record, None)],
        };
        self.computer_replies(&mut outcome).await?;
        Ok(outcome)
    }

    /// In a game against the computer, plays the computer's moves (and
    /// opening decisions) while it is to act. Stops quietly if someone else
    /// changed the game meanwhile.
    pub(super) async fn computer_replies(&self, outcome: &mut PlayOutcome) -> Result<()> {
        while outcome.game.mode() == Mode::Ai && outcome.game.status == Status::InProgress {
            let Some(level) = outcome.game.seat(outcome.game.turn().actor).level() else {
                break;
            };
            let budget = self.computer.budget(None);
            match self.computer_acts(&outcome.game, level, budget).await {
                Ok((game, moves)) => {
                    outcome.game = game;
                    outcome.moves.extend(moves);
                }
                Err(ServiceError::VersionMismatch { .. }) => {
                    outcome.game = self.game(&outcome.game.id).await?;
                    break;
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The computer acts for the seat the game waits for: an opening action
    /// while the opening asks for one, else a move.
    async fn computer_acts(
        &self,
        game: &Game,
        level: Level,
        budget: Duration,
    ) -> Result<(Game, Vec<(MoveRecord, Option<Thought>)>)> {
        let seed = self.seed_for(game);
        if !matches!(game.turn().phase, Phase::Move | Phase::Done) {
            return self.computer_opening(game, level, budget, seed).await;
        }
        let (game, record, thought) = self.computer_move(game, level, budget).await?;
        Ok((game, vec![(record, Some(thought))]))
    }

    /// A seed for the computer's choices at this point of `game`.
    pub(super) fn seed_for(&self, game: &Game) -> u64 {
        let step = game.position.moves().len() + game.opening.log().entries().len();
        game.seed ^ (step as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Thinks for the side to move of `game` (outside any transaction), then
    /// plays the move if the game is still where it was.
    async fn computer_move(
        &self,
        game: &Game,
        level: Level,
        budget: Duration,
    ) -> Result<(Game, MoveRecord, Thought)> {
        let seed = self.seed_for(game);
        let thought = self
            .computer
            .think(game.position.clone(), level, budget, seed)
            .await?
            .ok_or_else(|| {
                ServiceError::Internal("the computer found no move in a game in progress".into())
            })?;
        let point = thought.decision.point;
        let ms = thought.elapsed.as_millis() as i64;
        let (game, record) = self
            .act(&game.id, Some(game.version), |game, now| {
                apply_move(game, point, Some(ms), now)
            })
            .await?;
        Ok((game, record, thought))
    }

    /// The computer plays for the side to move: its own seat, or either side
    /// of a local game (at `level`, default intermediate).
    pub async fn ai_move(
        &self,
        caller: &PlayerRow,
        id: &str,
        level: Option<Level>,
        budget: Option<Duration>,
        if_match: Option<i64>,
    ) -> Result<PlayOutcome> {
        let game = self.game(id).await?;
        check_version(&game, if_match)?;
        let seats = game.seats_of(&caller.id);
        if seats.is_empty() && !(game.mode() == Mode::AiVsAi && game.created_by == caller.id) {
            return Err(ServiceError::NotAPlayer);
        }
        require_in_progress(&game)?;
        let to_move = game.turn().actor;
        let level = match (game.seat(to_move), game.mode()) {
            (
                Seat::Computer {
                    level: seat_level, ..
                },
                _,
            ) => match level {
                Some(asked) if asked != *seat_level => {
                    return Err(ServiceError::Validation(format!(
                        "{to_move} is played by the {seat_level} level here, not {asked}: leave level out"
                    )));
                }
                _ => *seat_level,
            },
            (_, Mode::Local) => level.unwrap_or(Level::Intermediate),
            _ => {
                return Err(ServiceError::NotYourTurn(format!(
                    "it is {to_move}'s turn, played by a person, not the computer"
                )));
            }
        };
        let budget = self.computer.budget(budget);
        let (game, moves) = self.computer_acts(&game, level, budget).await?;
        Ok(PlayOutcome { game, moves })
    }

    /// The computer's best candidates for the side to move, nothing played.
    pub async fn hint(
        &self,
        id: &str,
        level: Option<Level>,
        budget: Option<Duration>,
    ) -> Result<(Game, Thought)> {
        let game = self.game(id).await?;
        require_in_progress(&game)?;
        if game.mode() == Mode::Online {
            return Err(ServiceError::HintNotAllowed(
                "hints are off in online games while they are being played".into(),
            ));
        }
        let level = level.unwrap_or(Level::Intermediate);
        let budget = self.computer.budget(budget);
        let seed = game.seed ^ 0x5EED;
        let thought = self
            .computer
            .think(game.position.clone(), level, budget, seed)
            .await?
            .ok_or(ServiceError::GameOver)?;
        Ok((game, thought))
    }

    /// Takes back one move (local), or the computer's reply and the move
    /// before it (against the computer); reopens a finished game. In an
    /// online game it asks the opponent for a takeback.
    pub async fn undo(&self, caller: &PlayerRow, id: &str, if_match: Option<i64>) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            seats_of(game, caller)?;
            let count = match game.mode() {
                Mode::Online => return ask(game, caller, GameOffer::Takeback, now),
                Mode::AiVsAi => {
                    return Err(ServiceError::NothingToUndo(
                        "undo is for games a person plays".into(),
                    ));
                }
                _ if game.status == Status::Waiting => return Err(ServiceError::NotStarted),
                Mode::Local => usize::from(
                    game.position.can_undo()
                        || game.opening.decided_at(game.position.moves().len()),
                ),
                Mode::Ai => game.undo_count().unwrap_or(0),
            };
            if count == 0 {
                return Err(ServiceError::NothingToUndo(
                    if game.mode() == Mode::Ai && game.opening.end_ply() > 0 {
                        "there is no move of yours to take back: against the computer the opening's stones and decisions stand"
                    } else {
                        "there is no move of yours to take back"
                    }
                    .into(),
                ));
            }
            game.end_turn(now);
            // In a local game the last opening decision comes back first.
            if !(game.mode() == Mode::Local && take_back_decision(game)) {
                for _ in 0..count {
                    game.position.undo();
                }
            }
            if game.status == Status::Finished {
                game.status = Status::InProgress;
                game.result = None;
                game.scored = false;
            }
            Ok(())
        })
        .await
    }

    /// Plays again what undo took back (the same number of moves).
    pub async fn redo(&self, caller: &PlayerRow, id: &str, if_match: Option<i64>) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            seats_of(game, caller)?;
            match game.mode() {
                Mode::Online | Mode::AiVsAi => return Err(ServiceError::NothingToRedo),
                _ => {}
            }
            require_in_progress(game)?;
            if !game.position.can_redo() {
                return Err(ServiceError::NothingToRedo);
            }
            game.end_turn(now);
            let human = [Color::Black, Color::White]
                .into_iter()
                .find(|&c| !game.seat(c).is_computer());
            while let Some((_, outcome)) = game.position.redo() {
                if let Some(outcome) = outcome {
                    finish(game, GameResult::from_outcome(&outcome));
                    break;
                }
                // Against the computer, redo up to the person's next turn.
                if game.mode() == Mode::Local || Some(game.position.to_move()) == human {
                    break;
                }
            }
            Ok(())
        })
        .await
    }

    /// The caller gives up; the opponent wins. In a local game the side to
    /// move resigns.
    pub async fn resign(
        &self,
        caller: &PlayerRow,
        id: &str,
        if_match: Option<i64>,
    ) -> Result<Game> {
        self.change(id, if_match, |game, now| {
            let seats = seats_of(game, caller)?;
            require_in_progress(game)?;
            let loser = if seats.len() == 2 {
                game.turn().actor
            } else {
                seats[0]
            };
            game.end_turn(now);
            finish(
                game,
                GameResult {
                    winner: Some(loser.opponent()),
                    reason: Reason::Resign,
                    winning_line: Vec::new(),
                },
            );
            Ok(())
        })
        .await
    }
}

/// In a local game, takes back the opening decision made after the last
/// stone, if there is one (a swap exchanges the seats back); what could be
/// redone is forgotten, as after a new move.
fn take_back_decision(game: &mut Game) -> bool {
    let ply = game.position.moves().len();
    match game.opening.take_back(ply) {
        Some(decision) => {
            if decision == Decision::Swap(true) {
                game.swap_seats();
            }
            game.position.forget_redo();
            game.stored.truncate(ply);
            true
        }
        None => false,
    }
}

/// The seat a spec stands for.
async fn resolve_seat(conn: &mut Conn, caller: &PlayerRow, spec: &SeatSpec) -> Result<Seat> {
    let player = match spec {
        SeatSpec::Open => return Ok(Seat::Open),
        SeatSpec::Me => caller.clone(),
        SeatSpec::Player(id) => store::player_by_id(conn, id)
            .await?
            .ok_or_else(|| ServiceError::Validation(format!("no player with id {id:?} to seat")))?,
        SeatSpec::Computer(level) => store::player_by_id(conn, &computer_id(*level))
            .await?
            .ok_or_else(|| {
                ServiceError::Internal(format!("computer player for {level} is missing"))
            })?,
    };
    Seat::from_player(player)
}
