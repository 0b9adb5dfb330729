//! Game use cases: create, read, list, join, play, undo, redo, resign, and
//! the computer's moves and hints.

use std::time::Duration;

use chrono::{DateTime, Utc};

use super::cursor;
use super::error::{Result, ServiceError};
use super::game::{Clock, Game, GameResult, Mode, MoveRecord, NewGame, Reason, Seat, Status};
use super::offers::{GameOffer, ask};
use super::persist::{check_version, load};
use super::play::{
    PlayOutcome, PointInput, apply_move, finish, require_in_progress, require_turn, resolve_point,
    seat_name, seats_of, take_back_decision,
};
use super::players::{NewlyCreated, PlayerName, computer_id, create_player_in};
use super::{Service, Thought, random_id};
use crate::engine::Level;
use crate::rules::{Color, OpeningRule, Point, Variant};
use crate::store::{self, Conn, GameFilter, PlayerRow};

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
    /// Whether the result changes the players' ratings: games between two
    /// people, or a person and a computer level.
    pub rated: bool,
}

/// One page of games.
#[derive(Clone, Debug)]
pub struct GameList {
    pub games: Vec<Game>,
    pub next_cursor: Option<String>,
}

impl Service {
    /// Creates a game; without a caller a guest player is made and returned.
    pub async fn create_game(
        &self,
        caller: Option<PlayerRow>,
        spec: GameSpec,
    ) -> Result<(PlayOutcome, Option<NewlyCreated>)> {
        let service = self.clone();
        let (game, guest) = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                    let (caller, guest) = caller_or_guest(tx, caller).await?;
                    let mut game = service.new_game(tx, &caller, spec, super::now()).await?;
                    super::persist::insert_game(tx, &mut game).await?;
                    Ok::<_, ServiceError>((game, guest))
                })
            })
            .await?;
        self.events.publish(&game);
        let mut outcome = PlayOutcome {
            game,
            moves: Vec::new(),
        };
        self.computer_replies(&mut outcome).await?;
        Ok((outcome, guest))
    }

    /// A new game as `spec` asks, with `caller` as its creator: the seats
    /// resolved and checked, not yet stored.
    pub(super) async fn new_game(
        &self,
        conn: &mut Conn,
        caller: &PlayerRow,
        spec: GameSpec,
        now: DateTime<Utc>,
    ) -> Result<Game> {
        let black = resolve_seat(conn, caller, &spec.black).await?;
        let white = resolve_seat(conn, caller, &spec.white).await?;
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
        let person_and_computer = black.is_computer() != white.is_computer();
        if spec.rated && !(two_people || person_and_computer) {
            return Err(ServiceError::Validation(
                "rated games are between two people, or a person and a computer level: seat another player (or \"open\", or a computer) opposite you".into(),
            ));
        }
        spec.opening
            .check_fits(&spec.variant)
            .map_err(|e| ServiceError::Validation(e.to_string()))?;
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
                rated: spec.rated,
            },
            now,
        );
        Ok(game)
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

    /// The computer's best `count` candidates for the side to move, each
    /// scored, nothing played.
    pub async fn hint(
        &self,
        id: &str,
        level: Option<Level>,
        budget: Option<Duration>,
        count: usize,
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
            .think(game.position.clone(), level, budget, seed, count)
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

/// The seat a spec stands for.
/// The caller, or a guest player made for a caller who sent no token (in
/// the same transaction as what they asked for).
pub(super) async fn caller_or_guest(
    conn: &mut Conn,
    caller: Option<PlayerRow>,
) -> Result<(PlayerRow, Option<NewlyCreated>)> {
    match caller {
        Some(player) => Ok((player, None)),
        None => {
            let suffix = random_id("");
            let name = PlayerName::parse(&format!("Guest {}", &suffix[..6]))?;
            let created = create_player_in(conn, &name).await?;
            Ok((created.player.clone(), Some(created)))
        }
    }
}

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
