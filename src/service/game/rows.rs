//! A game and its stored rows: the game is rebuilt from its row and the
//! seated players' rows by replaying its compact move record, and turned
//! back into the row to write.

use super::{
    Clock, Declines, Game, GameResult, Offer, OfferKind, Reason, Seat, SeatRating, Status,
};
use crate::rules::{Color, ForbiddenPolicy, Opening, Point, Position, Variant};
use crate::service::error::{Result, ServiceError};
use crate::store::{GameRow, PlayerRow};

impl Game {
    /// Rebuilds a game from its row and the seated players' rows (`None`
    /// for an open seat).
    pub(in crate::service) fn from_rows(
        row: GameRow,
        black: Option<PlayerRow>,
        white: Option<PlayerRow>,
    ) -> Result<Game> {
        let corrupt = |what: String| ServiceError::Internal(format!("game {}: {what}", row.id));
        let variant = variant_of(&row).map_err(|e| corrupt(e.to_string()))?;
        let seat = |player: Option<PlayerRow>| player.map_or(Ok(Seat::Open), Seat::from_player);
        let mut position = Position::new(variant);
        let stored = decode_record(&row.record)
            .ok_or_else(|| corrupt(format!("record {:?}", row.record)))?;
        for (n, &point) in stored.iter().enumerate() {
            position
                .play(point)
                .map_err(|e| corrupt(format!("stored move {} at {point}: {e}", n + 1)))?;
        }
        for _ in row.ply as usize..stored.len() {
            position.undo();
        }
        let status = Status::parse(&row.status)
            .ok_or_else(|| corrupt(format!("status {:?}", row.status)))?;
        let result = match (&row.reason, status) {
            (Some(reason), Status::Finished) => Some(GameResult {
                winner: match row.winner.as_deref() {
                    Some("black") => Some(Color::Black),
                    Some("white") => Some(Color::White),
                    _ => None,
                },
                reason: Reason::parse(reason)
                    .ok_or_else(|| corrupt(format!("reason {reason:?}")))?,
                winning_line: row
                    .winning_line
                    .as_deref()
                    .map(serde_json::from_str::<Vec<[u8; 2]>>)
                    .transpose()
                    .map_err(|e| corrupt(format!("winning line: {e}")))?
                    .unwrap_or_default()
                    .into_iter()
                    .map(|[x, y]| Point::new(x, y))
                    .collect(),
            }),
            _ => None,
        };
        let color = |name: &str| match name {
            "black" => Ok(Color::Black),
            "white" => Ok(Color::White),
            other => Err(corrupt(format!("colour {other:?}"))),
        };
        let offer = match (&row.offer_kind, &row.offer_by, row.offer_at) {
            (Some(kind), Some(by), Some(at)) => Some(Offer {
                kind: OfferKind::parse(kind).ok_or_else(|| corrupt(format!("offer {kind:?}")))?,
                by: color(by)?,
                at,
            }),
            _ => None,
        };
        let clock = match (
            row.clock_main_ms,
            row.clock_floor_ms,
            row.black_clock_ms,
            row.white_clock_ms,
        ) {
            (Some(main_ms), Some(floor_ms), Some(black), Some(white)) => Some(Clock {
                main_ms,
                floor_ms,
                remaining_ms: [black, white],
            }),
            _ => None,
        };
        let invited = row.invited.as_deref().map(color).transpose()?;
        let declines = Declines::decode(&row.declines)
            .ok_or_else(|| corrupt(format!("declines {:?}", row.declines)))?;
        let opening = Opening::with_log(
            row.opening_rule
                .parse()
                .map_err(|e: crate::rules::OpeningError| corrupt(e.to_string()))?,
            row.opening_log
                .parse()
                .map_err(|e: crate::rules::OpeningError| corrupt(e.to_string()))?,
        );
        Ok(Game {
            id: row.id,
            variant,
            black: seat(black)?,
            white: seat(white)?,
            created_by: row.created_by,
            status,
            result,
            position,
            stored,
            new_records: Vec::new(),
            scored: row.scored,
            version: row.version,
            seed: row.seed as u64,
            created_at: row.created_at,
            updated_at: row.updated_at,
            turn_started_at: row.turn_started_at,
            invited,
            offer,
            declines,
            clock,
            thinking_ms: [row.black_thinking_ms, row.white_thinking_ms],
            idle_limit_ms: row.idle_limit_ms,
            rematch_of: row.rematch_of,
            rematch_id: row.rematch_id,
            spawned: None,
            opening,
            rated: row.rated,
            seat_ratings: [
                seat_rating(row.black_rating, row.black_deviation),
                seat_rating(row.white_rating, row.white_deviation),
            ],
        })
    }

    /// The game row as it should now be stored.
    pub(in crate::service) fn to_row(&self) -> GameRow {
        let policy = self.variant.forbidden_policy().map(|p| match p {
            ForbiddenPolicy::Reject => "reject".to_string(),
            ForbiddenPolicy::Lose => "lose".to_string(),
        });
        GameRow {
            id: self.id.clone(),
            rules: self.variant.rule_set().as_str().to_string(),
            width: self.variant.width() as i64,
            height: self.variant.height() as i64,
            k: self.variant.k() as i64,
            overline_wins: self.variant.overline_wins_for_both(),
            forbidden_policy: policy,
            black_id: self.black.player_id().map(str::to_string),
            white_id: self.white.player_id().map(str::to_string),
            created_by: self.created_by.clone(),
            status: self.status.as_str().to_string(),
            ply: self.position.moves().len() as i64,
            record: encode_record(&self.stored),
            winner: self
                .result
                .as_ref()
                .and_then(|r| r.winner)
                .map(|c| c.as_str().to_string()),
            reason: self.result.as_ref().map(|r| r.reason.as_str().to_string()),
            winning_line: self
                .result
                .as_ref()
                .filter(|r| !r.winning_line.is_empty())
                .map(|r| {
                    serde_json::to_string(
                        &r.winning_line
                            .iter()
                            .map(|p| [p.x, p.y])
                            .collect::<Vec<_>>(),
                    )
                    .expect("points serialize")
                }),
            scored: self.scored,
            version: self.version,
            seed: self.seed as i64,
            created_at: self.created_at,
            updated_at: self.updated_at,
            turn_started_at: self.turn_started_at,
            invited: self.invited.map(|c| c.as_str().to_string()),
            offer_kind: self.offer.as_ref().map(|o| o.kind.as_str().to_string()),
            offer_by: self.offer.as_ref().map(|o| o.by.as_str().to_string()),
            offer_at: self.offer.as_ref().map(|o| o.at),
            declines: self.declines.encode(),
            clock_main_ms: self.clock.map(|c| c.main_ms),
            clock_floor_ms: self.clock.map(|c| c.floor_ms),
            black_clock_ms: self.clock.map(|c| c.remaining_ms[0]),
            white_clock_ms: self.clock.map(|c| c.remaining_ms[1]),
            deadline_ms: self.deadline().map(|d| d.timestamp_millis()),
            black_thinking_ms: self.thinking_ms[0],
            white_thinking_ms: self.thinking_ms[1],
            idle_limit_ms: self.idle_limit_ms,
            rematch_of: self.rematch_of.clone(),
            rematch_id: self.rematch_id.clone(),
            opening_rule: self.opening.rule().as_str().to_string(),
            opening_log: self.opening.log().to_string(),
            rated: self.rated,
            black_rating: self.seat_ratings[0].map(|r| r.rating),
            black_deviation: self.seat_ratings[0].map(|r| r.deviation),
            white_rating: self.seat_ratings[1].map(|r| r.rating),
            white_deviation: self.seat_ratings[1].map(|r| r.deviation),
        }
    }
}

fn seat_rating(rating: Option<f64>, deviation: Option<f64>) -> Option<SeatRating> {
    Some(SeatRating {
        rating: rating?,
        deviation: deviation?,
    })
}

/// The variant a stored game is played under.
fn variant_of(row: &GameRow) -> Result<Variant, crate::rules::VariantError> {
    let size = |n: i64| u8::try_from(n).unwrap_or(u8::MAX);
    Variant::from_stored(
        row.rules.parse()?,
        size(row.width),
        size(row.height),
        size(row.k),
        row.overline_wins,
        row.forbidden_policy.as_deref().map(|p| match p {
            "lose" => ForbiddenPolicy::Lose,
            _ => ForbiddenPolicy::Reject,
        }),
    )
}

/// Points as two letters each, `'a' + x` then `'a' + y`.
fn encode_record(points: &[Point]) -> String {
    points
        .iter()
        .flat_map(|p| [(b'a' + p.x) as char, (b'a' + p.y) as char])
        .collect()
}

fn decode_record(text: &str) -> Option<Vec<Point>> {
    let bytes = text.as_bytes();
    if !bytes.len().is_multiple_of(2) {
        return None;
    }
    bytes
        .chunks(2)
        .map(|pair| {
            let coordinate = |b: u8| b.checked_sub(b'a').filter(|&c| c < 26);
            Some(Point::new(coordinate(pair[0])?, coordinate(pair[1])?))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip_and_reject_garbage() {
        let points = vec![Point::new(0, 0), Point::new(25, 7), Point::new(7, 7)];
        let text = encode_record(&points);
        assert_eq!(text, "aazhhh");
        assert_eq!(decode_record(&text), Some(points));
        assert_eq!(decode_record("a"), None);
        assert_eq!(decode_record("a{"), None);
        assert_eq!(decode_record(""), Some(vec![]));
    }
}
