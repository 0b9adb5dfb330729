//! The computer's opening play: as the player who places the first stones
//! it picks a balanced opening, as the chooser it takes the colour the
//! search prefers, as black it offers the fifth moves that leave white
//! least, as white it picks the offer that leaves black least. Every choice
//! is legal under the [`Opening`]; the expert weighs them by searching,
//! the weaker levels by their own shorter look or by chance.

use std::time::Duration;

use super::{Level, Limits, SplitMix64, think};
use crate::rules::{
    Color, Decision, OPENINGS, Opening, Phase, Point, Position, Symmetry, equivalent,
};

/// What the computer does in an opening phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningAction {
    /// Place these stones, in order (the opening's stones, or a move).
    Stones(Vec<Point>),
    /// Make this decision; `then` stones follow it (swap2's two more).
    Decide {
        decision: Decision,
        then: Vec<Point>,
    },
}

impl OpeningAction {
    /// A decision with the stones that follow it.
    pub fn decide(decision: Decision, then: Vec<Point>) -> OpeningAction {
        OpeningAction::Decide { decision, then }
    }
}

/// How far apart two evaluations must be, in the search's units (a little
/// under an open three), before one colour counts as better.
const MARGIN: i64 = 40;

/// The computer's action for the player who acts now in `position` under
/// `opening`, or `None` once the opening is over or the game ended.
pub fn decide(
    position: &Position,
    opening: &Opening,
    level: Level,
    limits: &Limits,
) -> Option<OpeningAction> {
    if position.is_over() {
        return None;
    }
    let turn = opening.turn(position);
    let mut rng = SplitMix64::new(limits.seed ^ 0x0BE1_0001);
    let judge = Judge {
        level,
        limits: *limits,
    };
    let action = match turn.phase {
        Phase::Done | Phase::Move => return None,
        Phase::Place { .. } if position.moves().len() < 3 => {
            OpeningAction::Stones(judge.first_stones(position, opening, &mut rng))
        }
        Phase::Place { .. } => OpeningAction::Stones(vec![judge.best_move(position)?]),
        Phase::Declare => OpeningAction::decide(
            Decision::Declare(judge.declared_count(position)),
            Vec::new(),
        ),
        Phase::Swap => OpeningAction::decide(
            Decision::Swap(judge.prefers_other_colour(position, turn.actor, &mut rng)),
            Vec::new(),
        ),
        Phase::SwapOrPlace => judge.swap_or_place(position, &mut rng)?,
        Phase::Offer { count } => OpeningAction::decide(
            Decision::Offer(judge.offers(position, count as usize)),
            Vec::new(),
        ),
        Phase::Choose => OpeningAction::Stones(vec![judge.choose(position, opening.offered())?]),
    };
    Some(action)
}

struct Judge {
    level: Level,
    limits: Limits,
}

impl Judge {
    /// Limits for one of `n` searches sharing the budget.
    fn share(&self, n: usize) -> Limits {
        Limits {
            time: (self.limits.time / n.max(1) as u32).max(Duration::from_millis(2)),
            nodes: self.limits.nodes.map(|nodes| nodes / n.max(1) as u64),
            seed: self.limits.seed,
            candidates: 1,
        }
    }

    /// The search's score for the side to move (positive: it is better).
    fn evaluate(&self, position: &Position, limits: &Limits) -> i64 {
        let level = match self.level {
            // The line evaluator scores points, not positions: look one
            // move ahead with the next level instead.
            Level::Beginner => Level::Intermediate,
            other => other,
        };
        if let Some(outcome) = position.outcome() {
            return match outcome.winner() {
                Some(winner) if winner == position.to_move() => 1_000_000,
                Some(_) => -1_000_000,
                None => 0,
            };
        }
        think(position, level, limits)
            .and_then(|d| d.candidates.first().map(|c| c.score))
            .unwrap_or(0)
    }

    fn best_move(&self, position: &Position) -> Option<Point> {
        think(position, self.level, &self.limits).map(|d| d.point)
    }

    /// The first three stones: one of the 26 standard openings (in a random
    /// orientation) that extends the stones already placed; the expert
    /// takes the one its search finds most even, the others one by chance.
    fn first_stones(
        &self,
        position: &Position,
        opening: &Opening,
        rng: &mut SplitMix64,
    ) -> Vec<Point> {
        let variant = position.variant();
        let side = variant.width().min(variant.height());
        let placed = position.moves();
        let orientation = Symmetry::ALL[rng.below(8)];
        let mut candidates: Vec<[Point; 3]> = OPENINGS
            .iter()
            .map(|o| o.stones(side).map(|p| orientation.apply(p, side)))
            .filter(|stones| stones[..placed.len()] == *placed)
            .collect();
        if candidates.is_empty() {
            // Stones a person placed that start no standard opening: carry on
            // with the nearest legal points to the centre.
            return self.fill(position, opening, 3 - placed.len());
        }
        let pick = if self.level == Level::Expert && candidates.len() > 1 {
            let limits = self.share(candidates.len());
            let mut best = (i64::MAX, 0);
            for (n, stones) in candidates.iter().enumerate() {
                let mut after = position.clone();
                for &p in &stones[placed.len()..] {
                    let _ = after.play(p);
                }
                let imbalance = self.evaluate(&after, &limits).abs();
                if imbalance < best.0 {
                    best = (imbalance, n);
                }
            }
            best.1
        } else {
            rng.below(candidates.len())
        };
        candidates.swap_remove(pick)[placed.len()..].to_vec()
    }

    /// `count` legal stones, nearest the centre first, each placed before the next.
    fn fill(&self, position: &Position, opening: &Opening, count: usize) -> Vec<Point> {
        let mut after = position.clone();
        let mut stones = Vec::new();
        for _ in 0..count {
            let Some(p) = nearest_legal(&after, opening) else {
                break;
            };
            if after.play(p).is_err() {
                break;
            }
            stones.push(p);
        }
        stones
    }

    /// Yamaguchi: how many fifth moves to offer. More offers give white
    /// more to choose from, so a tentative black whose opening favours
    /// black (which the other player would swap away from) declares more,
    /// and one that favours white fewer; two, as in RIF, when it is even.
    /// The weaker levels always declare two.
    fn declared_count(&self, position: &Position) -> u8 {
        if self.level != Level::Expert {
            return 2;
        }
        // White is to move: a negative score favours black.
        match self.evaluate(position, &self.limits) {
            s if s < -4 * MARGIN => 4,
            s if s < -MARGIN => 3,
            s if s > MARGIN => 1,
            _ => 2,
        }
    }

    /// Whether the player in `actor`'s seat would rather play the other colour.
    fn prefers_other_colour(
        &self,
        position: &Position,
        actor: Color,
        rng: &mut SplitMix64,
    ) -> bool {
        if self.level == Level::Beginner {
            return rng.below(2) == 1;
        }
        let score = self.evaluate(position, &self.limits);
        let better = if score >= 0 {
            position.to_move()
        } else {
            position.to_move().opponent()
        };
        better != actor
    }

    /// Swap2's second player: take black when black is clearly better, stay
    /// white when white is, else place two more stones and let the first
    /// player choose.
    fn swap_or_place(&self, position: &Position, rng: &mut SplitMix64) -> Option<OpeningAction> {
        let decide = |decision| OpeningAction::decide(decision, Vec::new());
        let score = if self.level == Level::Beginner {
            [-MARGIN - 1, 0, MARGIN + 1][rng.below(3)]
        } else {
            self.evaluate(position, &self.share(2))
        };
        if score < -MARGIN {
            return Some(decide(Decision::Swap(true)));
        }
        if score > MARGIN {
            return Some(decide(Decision::Swap(false)));
        }
        // White's best answer, then the black stone that evens it out most.
        let white = self.best_move(position)?;
        let mut after = position.clone();
        after.play(white).ok()?;
        let limits = self.share(8);
        let candidates = think(&after, self.level, &limits)?.candidates;
        let mut best = (i64::MAX, candidates.first()?.point);
        for c in candidates.iter().take(4) {
            let mut next = after.clone();
            if next.play(c.point).is_err() || next.is_over() {
                continue;
            }
            let imbalance = self.evaluate(&next, &limits).abs();
            if imbalance < best.0 {
                best = (imbalance, c.point);
            }
        }
        Some(OpeningAction::decide(
            Decision::PlaceTwo,
            vec![white, best.1],
        ))
    }

    /// Black's fifth-move offers: the points that leave white the least,
    /// no two symmetric to each other.
    fn offers(&self, position: &Position, count: usize) -> Vec<Point> {
        let mut pool: Vec<Point> = think(position, self.level, &self.share(2))
            .map(|d| d.candidates.into_iter().map(|c| c.point).collect())
            .unwrap_or_default();
        if self.level == Level::Expert {
            let limits = self.share(2 * pool.len().max(1));
            let mut scored: Vec<(i64, Point)> = pool
                .iter()
                .filter_map(|&p| {
                    let mut after = position.clone();
                    after.play(p).ok()?;
                    Some((self.evaluate(&after, &limits), p))
                })
                .collect();
            // Lowest for white (to move after the fifth) first.
            scored.sort_by_key(|&(score, _)| score);
            pool = scored.into_iter().map(|(_, p)| p).collect();
        }
        let mut offers: Vec<Point> = Vec::new();
        let board = position.board();
        let consider = |p: Point, offers: &mut Vec<Point>| {
            if offers.len() < count
                && position.check(p).is_ok()
                && board.forbidden_kind(p).is_none()
                && !offers.iter().any(|&q| q == p || equivalent(board, q, p))
            {
                offers.push(p);
            }
        };
        for p in pool {
            consider(p, &mut offers);
        }
        // Not enough distinct strong points: the nearest others.
        let mut by_distance: Vec<Point> = board.points().collect();
        let (cx, cy) = (board.width() / 2, board.height() / 2);
        by_distance.sort_by_key(|p| p.x.abs_diff(cx).max(p.y.abs_diff(cy)));
        for p in by_distance {
            consider(p, &mut offers);
        }
        offers
    }

    /// White's choice among the offered fifth moves: the one after which
    /// white (to move) stands best.
    fn choose(&self, position: &Position, offered: &[Point]) -> Option<Point> {
        let limits = self.share(offered.len());
        offered
            .iter()
            .filter_map(|&p| {
                let mut after = position.clone();
                after.play(p).ok()?;
                Some((self.evaluate(&after, &limits), p))
            })
            .max_by_key(|&(score, _)| score)
            .map(|(_, p)| p)
    }
}

/// The legal point for the next stone nearest the centre (within the
/// opening's zone).
fn nearest_legal(position: &Position, opening: &Opening) -> Option<Point> {
    let board = position.board();
    let (cx, cy) = (board.width() / 2, board.height() / 2);
    board
        .points()
        .filter(|&p| opening.check_stone(position, p).is_ok())
        .min_by_key(|p| (p.x.abs_diff(cx).max(p.y.abs_diff(cy)), p.y, p.x))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{ForbiddenPolicy, OpeningRule, Variant};

    fn limits() -> Limits {
        Limits {
            time: Duration::from_millis(200),
            nodes: Some(20_000),
            seed: 7,
            candidates: 1,
        }
    }

    /// Plays the whole opening with the computer in every role, checking
    /// each action against the rules.
    fn play_opening(rule: OpeningRule, variant: Variant, level: Level) -> (Position, Opening) {
        let mut position = Position::new(variant);
        let mut opening = Opening::new(rule);
        for _ in 0..20 {
            let Some(action) = decide(&position, &opening, level, &limits()) else {
                break;
            };
            match action {
                OpeningAction::Stones(stones) => {
                    assert!(!stones.is_empty());
                    for p in stones {
                        opening.check_stone(&position, p).unwrap();
                        position.play(p).unwrap();
                    }
                }
                OpeningAction::Decide { decision, then } => {
                    opening.check_decision(&position, &decision).unwrap();
                    opening.record(position.moves().len(), decision);
                    for p in then {
                        opening.check_stone(&position, p).unwrap();
                        position.play(p).unwrap();
                    }
                }
            }
            if opening.turn(&position).phase == Phase::Move {
                let p = think(&position, level, &limits()).unwrap().point;
                position.play(p).unwrap();
            }
        }
        (position, opening)
    }

    #[test]
    fn every_level_plays_every_opening_rule_legally_to_its_end() {
        let renju = Variant::renju(ForbiddenPolicy::Reject);
        let gomoku = Variant::freestyle(15).unwrap();
        for level in Level::ALL {
            for (rule, variant) in [
                (OpeningRule::Rif, renju),
                (OpeningRule::Yamaguchi, renju),
                (OpeningRule::Swap2, gomoku),
                (OpeningRule::Swap1, gomoku),
                (OpeningRule::Swap2, renju),
            ] {
                let (position, opening) = play_opening(rule, variant, level);
                assert_eq!(
                    opening.turn(&position).phase,
                    Phase::Done,
                    "{level} {rule}: {:?}",
                    opening.log()
                );
                if matches!(rule, OpeningRule::Rif | OpeningRule::Yamaguchi) {
                    assert!(opening.name(&position).is_some(), "a standard opening");
                }
            }
        }
    }
}
