//! Records in and out: a game written as a record, and a record replayed
//! through the rules into a new game (save and load).

use super::Service;
use super::error::{Result, ServiceError};
use super::game::{Game, GameResult, MoveRecord, Reason, Seat, Status};
use super::games::{GameSpec, SeatSpec, caller_or_guest};
use super::play::{PlayOutcome, apply_move, finish, point_name};
use super::players::NewlyCreated;
use crate::records::{Ending, GameRecord, ReadPoint, ReadRecord, RecordMove, RecordResult};
use crate::rules::{OpeningRule, Point, RuleSet, Variant, VariantSpec, parse_point};
use crate::store::{self, MoveRow, PlayerRow};

/// What `POST /v1/games/import` asks for: the record as read, and the
/// creation fields that complete or override what the file says.
#[derive(Clone, Debug)]
pub struct ImportRequest {
    pub record: ReadRecord,
    /// Rules named in the request (else the file's, else freestyle).
    pub rules: Option<RuleSet>,
    /// Options named in the request; when `rules` is given these alone
    /// apply.
    pub spec: VariantSpec,
    pub black: SeatSpec,
    pub white: SeatSpec,
}

fn ending(reason: Reason) -> Option<Ending> {
    Some(match reason {
        Reason::Five => Ending::Five,
        Reason::Forbidden => Ending::Forbidden,
        Reason::Resign => Ending::Resign,
        Reason::BoardFull => Ending::BoardFull,
        Reason::Timeout => Ending::Timeout,
        Reason::Abandoned => Ending::Abandoned,
        Reason::DrawAgreed => Ending::DrawAgreed,
        Reason::Declined | Reason::Cancelled => return None,
    })
}

fn seat_name(seat: &Seat) -> String {
    match seat {
        Seat::Open => "?".into(),
        Seat::Human { name, .. } | Seat::Computer { name, .. } => name.clone(),
    }
}

impl Game {
    /// This game as a record: `moves` are its move records, in order.
    pub fn record(&self, moves: &[MoveRecord]) -> GameRecord {
        GameRecord {
            variant: self.variant,
            opening: self.opening.rule(),
            black: seat_name(&self.black),
            white: seat_name(&self.white),
            moves: moves
                .iter()
                .map(|m| RecordMove {
                    point: m.point,
                    thinking_ms: Some(m.thinking_ms),
                })
                .collect(),
            result: self.result.as_ref().and_then(|r| {
                Some(RecordResult {
                    winner: r.winner,
                    ending: ending(r.reason)?,
                })
            }),
            date: Some(self.created_at.date_naive()),
        }
    }
}

/// The rules an import plays by: the request's, else the file's, with the
/// board the file gives.
fn import_variant(request: &ImportRequest) -> Result<Variant> {
    let invalid = |e: crate::rules::VariantError| ServiceError::ImportInvalid(e.to_string());
    let file = &request.record;
    let variant = match request.rules {
        Some(rules) => Variant::from_spec(rules, &request.spec).map_err(invalid)?,
        None => {
            let rules = file.rules.unwrap_or(RuleSet::Freestyle);
            let mut spec = VariantSpec {
                forbidden: file.spec.forbidden.filter(|_| rules == RuleSet::Renju),
                ..VariantSpec::default()
            };
            if let Some((w, h)) = file.size {
                match rules {
                    RuleSet::Custom => {
                        spec.width = Some(w);
                        spec.height = Some(h);
                        spec.k = file.spec.k;
                        spec.overline_wins = file.spec.overline_wins;
                    }
                    RuleSet::Freestyle | RuleSet::Standard if w == h => spec.board_size = Some(w),
                    RuleSet::Freestyle | RuleSet::Standard => {
                        return Err(ServiceError::ImportInvalid(format!(
                            "the record's board is {w}×{h}, and {} is played on square boards: import it with \"rules\": \"custom\"",
                            rules.as_str()
                        )));
                    }
                    _ => {}
                }
            }
            Variant::from_spec(rules, &spec).map_err(invalid)?
        }
    };
    if let Some((w, h)) = file.size
        && (w, h) != (variant.width(), variant.height())
    {
        return Err(ServiceError::ImportInvalid(format!(
            "the record's board is {w}×{h} but {} here is {}×{}: name rules that fit the record",
            variant.rule_set().as_str(),
            variant.width(),
            variant.height()
        )));
    }
    Ok(variant)
}

impl Service {
    /// A game and its record.
    pub async fn record(&self, id: &str) -> Result<(Game, GameRecord)> {
        let (game, moves) = self.moves(id).await?;
        let record = game.record(&moves);
        Ok((game, record))
    }

    /// Replays a record into a new game at its last position, every move
    /// undoable. Nothing is stored unless every move is legal. Imported
    /// results never count in the scores.
    pub async fn import_game(
        &self,
        caller: Option<PlayerRow>,
        request: ImportRequest,
    ) -> Result<(PlayOutcome, Option<NewlyCreated>)> {
        let variant = import_variant(&request)?;
        let service = self.clone();
        let (game, guest) = self
            .store
            .write(move |tx| {
                Box::pin(async move {
                let (caller, guest) = caller_or_guest(tx, caller).await?;
                for seat in [&request.black, &request.white] {
                    if matches!(seat, SeatSpec::Open | SeatSpec::Player(_)) {
                        return Err(ServiceError::Validation(
                            "an imported game is played from where the record ends: its seats are \"me\" or a computer level (export it again for a friend to import)".into(),
                        ));
                    }
                }
                let spec = GameSpec {
                    variant,
                    black: request.black.clone(),
                    white: request.white.clone(),
                    clock: None,
                    // The record's moves are replayed as moves: its opening
                    // decisions are already in them.
                    opening: OpeningRule::Free,
                    // Its past moves were not played here.
                    rated: false,
                };
                let now = super::now();
                let mut game = service.new_game(tx, &caller, spec, now).await?;
                debug_assert_eq!(game.status, Status::InProgress);
                let (w, h) = (game.variant.width(), game.variant.height());
                for (i, m) in request.record.moves.iter().enumerate() {
                    let n = i + 1;
                    let refuse = |why: String| ServiceError::ImportInvalid(format!("move {n}: {why}"));
                    let point = match &m.point {
                        ReadPoint::Xy(x, y) if (0..w as i64).contains(x) && (0..h as i64).contains(y) => {
                            Point::new(*x as u8, *y as u8)
                        }
                        ReadPoint::Xy(x, y) => {
                            return Err(refuse(format!("({x}, {y}) is off the {w}×{h} board")));
                        }
                        ReadPoint::Name(name) => {
                            parse_point(name, w, h).map_err(|e| refuse(e.to_string()))?
                        }
                    };
                    if game.status == Status::Finished {
                        return Err(refuse(format!(
                            "{} comes after the game was already over at move {}",
                            point_name(&game, point),
                            n - 1
                        )));
                    }
                    let thinking = m.thinking_ms.unwrap_or(0).max(0);
                    apply_move(&mut game, point, Some(thinking), now).map_err(|e| {
                        refuse(match e {
                            ServiceError::Occupied { point_name, by, .. } => {
                                format!("{point_name} is already taken by {by}")
                            }
                            ServiceError::Forbidden {
                                point_name, kind, ..
                            } => format!("{point_name} is forbidden for black ({kind})"),
                            other => other.to_string(),
                        })
                    })?;
                }
                // A result the moves cannot show (a resignation, a timeout, a draw
                // agreed) comes from the record.
                if game.status == Status::InProgress
                    && let Some(result) = request.record.result
                {
                    let reason = match result.ending {
                        Ending::Resign => Some(Reason::Resign),
                        Ending::Timeout => Some(Reason::Timeout),
                        Ending::Abandoned => Some(Reason::Abandoned),
                        Ending::DrawAgreed | Ending::BoardFull if result.winner.is_none() => {
                            Some(Reason::DrawAgreed)
                        }
                        _ => None,
                    };
                    if let Some(reason) = reason {
                        finish(
                            &mut game,
                            GameResult {
                                winner: result.winner,
                                reason,
                                winning_line: Vec::new(),
                            },
                        );
                    }
                }
                // Nobody's score changes by loading a file.
                game.scored = false;
                super::persist::insert_game(tx, &mut game).await?;
                let records = std::mem::take(&mut game.new_records);
                for record in &records {
                    store::insert_move(
                        tx,
                        &game.id,
                        &MoveRow {
                            ply: record.ply as i64,
                            x: record.point.x as i64,
                            y: record.point.y as i64,
                            color: record.color.as_str().to_string(),
                            played_at: record.played_at,
                            thinking_ms: record.thinking_ms,
                        },
                    )
                    .await?;
                }
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
}
