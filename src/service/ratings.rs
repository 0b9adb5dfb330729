//! Glicko-2 ratings per category of game, changed by rated games in the
//! transaction that ends them (and changed back by the one that reopens
//! them), each game a rating period of its own as on online servers.

use chrono::{DateTime, Utc};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::error::Result;
use super::game::{Game, GameResult, SeatRating};
use crate::rules::{Color, RuleSet, Variant};
use crate::store::{self, Conn, RatingChangeRow, RatingRow};

/// A rating whose deviation is above this is provisional: not yet known
/// well enough to rank (left out of the rating leaderboard by default).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// The rating categories, in the order listings show them.
pub const CATEGORIES: [&str; 6] = [
    "freestyle-15",
    "freestyle-19",
    "standard",
    "renju",
    "tictactoe",
    "custom",
];

/// The category a game's rules are rated in: being strong at one says
/// little about another. Freestyle on boards other than 15×15 and 19×19,
/// and custom rules, are pooled as `custom`.
pub fn category(variant: &Variant) -> &'static str {
    match (variant.rule_set(), variant.width()) {
        (RuleSet::Freestyle, 15) => "freestyle-15",
        (RuleSet::Freestyle, 19) => "freestyle-19",
        (RuleSet::Standard, _) => "standard",
        (RuleSet::Renju, _) => "renju",
        (RuleSet::TicTacToe, _) => "tictactoe",
        _ => "custom",
    }
}

/// A newcomer's rating.
fn initial(player_id: &str, category: &str, now: DateTime<Utc>) -> RatingRow {
    let start = Glicko2Rating::new();
    RatingRow {
        player_id: player_id.to_string(),
        category: category.to_string(),
        rating: start.rating,
        deviation: start.deviation,
        volatility: start.volatility,
        games: 0,
        updated_at: now,
    }
}

fn glicko(row: &RatingRow) -> Glicko2Rating {
    Glicko2Rating {
        rating: row.rating,
        deviation: row.deviation,
        volatility: row.volatility,
    }
}

/// Rates game `game`'s result for both players (a rated game just ended).
pub(super) async fn rate(
    tx: &mut Conn,
    game: &Game,
    result: &GameResult,
    now: DateTime<Utc>,
) -> Result<()> {
    let (Some(black), Some(white)) = (game.black.player_id(), game.white.player_id()) else {
        return Ok(());
    };
    let category = category(&game.variant);
    // In the order of the players' ids (see persist::apply_result).
    let mut ids = [black, white];
    ids.sort();
    let mut rows = Vec::new();
    for id in ids {
        let row = store::rating_of(tx, id, category)
            .await?
            .unwrap_or_else(|| initial(id, category, now));
        rows.push(row);
    }
    let (black_row, white_row) = if rows[0].player_id == black {
        (&rows[0], &rows[1])
    } else {
        (&rows[1], &rows[0])
    };
    let outcome = match result.winner {
        Some(Color::Black) => Outcomes::WIN,
        Some(Color::White) => Outcomes::LOSS,
        None => Outcomes::DRAW,
    };
    let (new_black, new_white) = glicko2(
        &glicko(black_row),
        &glicko(white_row),
        &outcome,
        &Glicko2Config::new(),
    );
    let updates = [(black_row, new_black), (white_row, new_white)];
    let mut updates = updates.to_vec();
    updates.sort_by(|a, b| a.0.player_id.cmp(&b.0.player_id));
    for (before, after) in updates {
        store::put_rating(
            tx,
            &RatingRow {
                rating: after.rating,
                deviation: after.deviation,
                volatility: after.volatility,
                games: before.games + 1,
                updated_at: now,
                ..before.clone()
            },
        )
        .await?;
        store::insert_rating_change(
            tx,
            &RatingChangeRow {
                game_id: game.id.clone(),
                player_id: before.player_id.clone(),
                category: category.to_string(),
                before: (before.rating, before.deviation, before.volatility),
                after: (after.rating, after.deviation, after.volatility),
                at: now,
            },
        )
        .await?;
    }
    Ok(())
}

/// Notes, for each seat taken whose rating is not noted yet, its player's
/// rating in the game's category as it is now (a newcomer's where they have
/// none): the rating they sat down with, shown beside their name. Called
/// before every write of a game; does nothing once both are noted.
pub(super) async fn note_seat_ratings(tx: &mut Conn, game: &mut Game) -> Result<()> {
    let category = category(&game.variant);
    let missing: Vec<(usize, String)> = [&game.black, &game.white]
        .into_iter()
        .enumerate()
        .filter(|(side, _)| game.seat_ratings[*side].is_none())
        .filter_map(|(side, seat)| Some((side, seat.player_id()?.to_string())))
        .collect();
    for (side, id) in missing {
        let id = id.as_str();
        let row = match store::rating_of(tx, id, category).await? {
            Some(row) => row,
            None => initial(id, category, game.updated_at),
        };
        game.seat_ratings[side] = Some(SeatRating {
            rating: row.rating,
            deviation: row.deviation,
        });
    }
    Ok(())
}

/// Takes back what game `game_id` did to its players' ratings (its end was
/// undone). A rating changed by other games since keeps their changes: this
/// game's change is subtracted, not the old rating restored.
pub(super) async fn unrate(tx: &mut Conn, game_id: &str, now: DateTime<Utc>) -> Result<()> {
    for change in store::rating_changes_of_game(tx, game_id).await? {
        let Some(current) = store::rating_of(tx, &change.player_id, &change.category).await? else {
            continue;
        };
        if current.games <= 1 {
            // This was their only rated game in the category.
            store::delete_rating(tx, &change.player_id, &change.category).await?;
            continue;
        }
        store::put_rating(
            tx,
            &RatingRow {
                rating: current.rating - (change.after.0 - change.before.0),
                deviation: current.deviation - (change.after.1 - change.before.1),
                volatility: current.volatility - (change.after.2 - change.before.2),
                games: current.games - 1,
                updated_at: now,
                ..current
            },
        )
        .await?;
    }
    store::delete_rating_changes(tx, game_id).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use skillratings::glicko2::glicko2_rating_period;

    use super::*;

    /// Glickman's worked example ("Example of the Glicko-2 system", 2013):
    /// a 1500 (RD 200, σ 0.06) player beats a 1400 (30), loses to a 1550
    /// (100) and to a 1700 (300): r' = 1464.06, RD' = 151.52, σ' = 0.05999.
    #[test]
    fn the_worked_example_of_the_glicko2_paper_is_reproduced() {
        let rating = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(
            &rating(1500.0, 200.0),
            &[
                (rating(1400.0, 30.0), Outcomes::WIN),
                (rating(1550.0, 100.0), Outcomes::LOSS),
                (rating(1700.0, 300.0), Outcomes::LOSS),
            ],
            &config,
        );
        // The paper rounds its intermediate values (μ' = −0.2069 and so
        // on); carried at full precision r' is 1464.05: the same to a
        // hundredth of a point.
        assert!((after.rating - 1464.06).abs() < 0.015, "{after:?}");
        assert_eq!(format!("{:.2}", after.deviation), "151.52");
        // σ' = 0.059996, which the paper gives cut to 0.05999.
        assert!((after.volatility - 0.05999).abs() < 0.00001, "{after:?}");
    }

    #[test]
    fn categories_keep_kinds_of_game_apart() {
        let freestyle = |n| Variant::freestyle(n).unwrap();
        assert_eq!(category(&freestyle(15)), "freestyle-15");
        assert_eq!(category(&freestyle(19)), "freestyle-19");
        assert_eq!(category(&freestyle(13)), "custom");
        assert_eq!(category(&Variant::standard(15).unwrap()), "standard");
        assert_eq!(
            category(&Variant::renju(crate::rules::ForbiddenPolicy::Reject)),
            "renju"
        );
        assert_eq!(category(&Variant::tictactoe()), "tictactoe");
        assert_eq!(category(&Variant::custom(7, 6, 4, true).unwrap()), "custom");
        for c in [15, 19, 13].map(|n| category(&freestyle(n))) {
            assert!(CATEGORIES.contains(&c));
        }
    }
}

/// A player's rating in a category, as shown.
#[derive(Clone, Debug, PartialEq)]
pub struct Rating {
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    pub games: i64,
    /// Not yet known well enough to rank (deviation above
    /// [`PROVISIONAL_DEVIATION`]).
    pub provisional: bool,
}

impl From<RatingRow> for Rating {
    fn from(r: RatingRow) -> Self {
        Rating {
            provisional: r.deviation > PROVISIONAL_DEVIATION,
            category: r.category,
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
            games: r.games,
        }
    }
}

/// One page of the rating leaderboard of a category.
#[derive(Clone, Debug)]
pub struct RatingBoard {
    pub players: Vec<(crate::store::PlayerRow, Rating)>,
    pub next_cursor: Option<String>,
}

/// One page of a player's rating history, newest first.
#[derive(Clone, Debug)]
pub struct RatingHistory {
    pub changes: Vec<RatingChangeRow>,
    pub next_cursor: Option<String>,
}

/// Checks a category name.
pub fn check_category(name: &str) -> Result<&'static str> {
    CATEGORIES.into_iter().find(|c| *c == name).ok_or_else(|| {
        super::ServiceError::Validation(format!(
            "no rating category {name:?}: use one of {}",
            CATEGORIES.join(", ")
        ))
    })
}

impl super::Service {
    /// Player `id`'s ratings, by category.
    pub async fn ratings(&self, id: &str) -> Result<Vec<Rating>> {
        let mut conn = self.store.read().await?;
        Ok(store::ratings_of(&mut conn, id)
            .await?
            .into_iter()
            .map(Rating::from)
            .collect())
    }

    /// Player `id`'s rating history in `category`, newest first.
    pub async fn rating_history(
        &self,
        id: &str,
        category: &str,
        limit: i64,
        cursor: Option<&str>,
    ) -> Result<RatingHistory> {
        let category = check_category(category)?;
        self.player(id).await?;
        let before = cursor
            .map(super::cursor::decode)
            .transpose()?
            .map(|(micros, _)| {
                DateTime::from_timestamp_micros(micros).ok_or_else(|| {
                    super::ServiceError::Validation("cursor is not one this server returned".into())
                })
            })
            .transpose()?;
        let mut conn = self.store.read().await?;
        let mut changes = store::rating_history(&mut conn, id, category, before, limit + 1).await?;
        let next_cursor = if changes.len() as i64 > limit {
            changes.truncate(limit as usize);
            changes
                .last()
                .map(|last| super::cursor::encode(last.at.timestamp_micros(), &last.game_id))
        } else {
            None
        };
        Ok(RatingHistory {
            changes,
            next_cursor,
        })
    }

    /// The best-rated players of `category`; provisional ratings only when
    /// asked for.
    pub async fn rating_leaderboard(
        &self,
        category: &str,
        provisional: bool,
        limit: i64,
        cursor: Option<&str>,
    ) -> Result<RatingBoard> {
        let category = check_category(category)?;
        // The cursor is the rank to go on from (ratings change between
        // pages); any cursor a client can write reads as one.
        let offset = match cursor.map(super::cursor::decode).transpose()? {
            Some((offset, _)) => offset.max(0),
            None => 0,
        };
        let max_deviation = if provisional {
            f64::INFINITY
        } else {
            PROVISIONAL_DEVIATION
        };
        let mut conn = self.store.read().await?;
        let mut rows =
            store::rating_leaderboard(&mut conn, category, max_deviation, offset, limit + 1)
                .await?;
        let next_cursor = if rows.len() as i64 > limit {
            rows.truncate(limit as usize);
            Some(super::cursor::encode(offset + limit, category))
        } else {
            None
        };
        let mut players = Vec::new();
        for row in rows {
            let player = store::player_by_id(&mut conn, &row.player_id)
                .await?
                .ok_or_else(|| {
                    store::StoreError::Corrupt(format!(
                        "a rating of player {} who does not exist",
                        row.player_id
                    ))
                })?;
            players.push((player, Rating::from(row)));
        }
        Ok(RatingBoard {
            players,
            next_cursor,
        })
    }
}
