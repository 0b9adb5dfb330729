//! Samples judged by another engine: the quiet positions of an arena
//! match's record (`gobang arena --record`) where one contender was to
//! move, each with the evaluation that contender reported of it in its
//! `MESSAGE` lines. A stronger engine's judgment of the positions the
//! expert actually meets is something to fit the evaluation to that the
//! expert's own search cannot give.

use super::{Sample, sigmoid};
use crate::arena::record::{self, Recorded};
use crate::engine::eval;
use crate::rules::{Color, Position, Variant};

/// What an engine said of a position, as the side to move's chance to win:
/// the number after the last `eval` (any case) over `scale` as log-odds, or
/// a forced result (`+M5`, `+W5` a win; `-M5`, `-L5` a loss). `None` where
/// it said no evaluation.
pub fn judgment(said: &[String], scale: f64) -> Option<f64> {
    let words: Vec<&str> = said.iter().flat_map(|l| l.split_whitespace()).collect();
    let at = words.iter().rposition(|w| w.eq_ignore_ascii_case("eval"))?;
    let value = *words.get(at + 1)?;
    match value.as_bytes() {
        [b'+', b'M' | b'W', ..] => Some(1.0),
        [b'-', b'M' | b'L', ..] => Some(0.0),
        _ => value
            .parse::<f64>()
            .ok()
            .filter(|v| v.is_finite())
            .map(|v| sigmoid(v / scale)),
    }
}

/// The samples of a record's text (one game a line, as [`record::parse`]
/// reads it) where the first contender (`judge_first`) or the second was to
/// move and said an evaluation; only quiet positions, as [`eval::features`]
/// counts them. The result of each is how the game ended for the side to
/// move.
pub fn samples(
    text: &str,
    variant: Variant,
    judge_first: bool,
    scale: f64,
) -> Result<Vec<Sample>, String> {
    let mut samples = Vec::new();
    for (n, game) in record::parse(text)?.iter().enumerate() {
        game_samples(game, variant, judge_first, scale, &mut samples)
            .map_err(|why| format!("game {}: {why}", n + 1))?;
    }
    Ok(samples)
}

fn game_samples(
    game: &Recorded,
    variant: Variant,
    judge_first: bool,
    scale: f64,
    samples: &mut Vec<Sample>,
) -> Result<(), String> {
    if game.first_moved.len() != game.said.len() {
        return Err("first_moved and said differ in length".into());
    }
    let Some(&first_turn_by_first) = game.first_moved.first() else {
        return Ok(());
    };
    let turn_color = |by_first: bool| {
        let first = game.first_color();
        if by_first { first } else { first.opponent() }
    };
    let moves = game.points();
    // The turns are every move after the opening; the last may not have
    // been played (lost on time, or refused). Black moves first and the
    // colours alternate, so the first turn's colour says which.
    let mut start = moves.len().saturating_sub(game.first_moved.len());
    let black_at_start = start.is_multiple_of(2);
    if black_at_start != (turn_color(first_turn_by_first) == Color::Black) {
        start += 1;
    }
    let mut position = Position::new(variant);
    for (k, &p) in moves.iter().enumerate() {
        if let Some(turn) = k.checked_sub(start)
            && game.first_moved[turn] == judge_first
            && let Some(judged) = judgment(&game.said[turn], scale)
            && let Some(features) = eval::features(&position)
        {
            let mover = position.to_move();
            if mover != turn_color(judge_first) {
                return Err(format!(
                    "move {} is {mover:?}'s, not the judging contender's",
                    k + 1
                ));
            }
            samples.push(Sample {
                features: features.shapes,
                classes: features.classes,
                mask: features.mask,
                mover,
                result: if judge_first {
                    game.score
                } else {
                    1.0 - game.score
                },
                searched: judged,
            });
        }
        position
            .play(p)
            .map_err(|e| format!("move {} at {p}: {e}", k + 1))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn said(s: &str) -> Vec<String> {
        vec![s.to_string()]
    }

    #[test]
    fn judgments_read_numbers_and_forced_results() {
        let even = judgment(
            &said("Speed 748K | Depth 12-22 | Eval 0 | Node 100K"),
            200.0,
        );
        assert_eq!(even, Some(0.5));
        let ahead = judgment(&said("depth 9 | eval 400 | nodes 10 | pv h8"), 200.0).unwrap();
        assert!((ahead - 1.0 / (1.0 + (-2.0f64).exp())).abs() < 1e-12);
        assert_eq!(judgment(&said("Eval +M27 | Node 28K"), 200.0), Some(1.0));
        assert_eq!(judgment(&said("Eval -M4"), 200.0), Some(0.0));
        assert_eq!(judgment(&said("eval -L16 | nodes 3"), 200.0), Some(0.0));
        assert_eq!(judgment(&said("eval +W3"), 200.0), Some(1.0));
        assert_eq!(judgment(&said("Bestline H8 I9"), 200.0), None);
        assert_eq!(judgment(&said("eval nan"), 200.0), None);
        assert_eq!(judgment(&[], 200.0), None);
    }

    #[test]
    fn only_the_judges_quiet_positions_are_sampled_with_its_colour_and_result() {
        // Opening h8 h7 h6 (three stones), then the second contender (white
        // here) and the first alternate; the first won.
        let line = serde_json::json!({
            "opening": 0,
            "first_is_black": true,
            "score": 1.0,
            "moves": [[7,7],[7,6],[7,5],[8,6],[8,8],[9,9],[6,6]],
            "first_moved": [false, true, false, true],
            "said": [["Eval -50"], ["eval 10"], ["Eval 30"], ["eval 0"]],
        })
        .to_string();
        let free = Variant::freestyle(15).unwrap();
        let second = samples(&line, free, false, 200.0).unwrap();
        assert_eq!(second.len(), 2);
        assert!(
            second
                .iter()
                .all(|s| s.mover == Color::White && s.result == 0.0)
        );
        assert_eq!(second[0].searched, sigmoid(-50.0 / 200.0));
        assert_eq!(second[1].searched, sigmoid(30.0 / 200.0));
        let first = samples(&line, free, true, 200.0).unwrap();
        assert_eq!(first.len(), 2);
        assert!(
            first
                .iter()
                .all(|s| s.mover == Color::Black && s.result == 1.0)
        );
        // A record whose turns and moves disagree, or whose score is no
        // result, is refused, not misread.
        for (from, to) in [
            ("[false,true,false,true]", "[false,true,false]"),
            ("\"score\":1.0", "\"score\":2.0"),
        ] {
            let bad = line.replace(from, to);
            assert_ne!(bad, line);
            assert!(samples(&bad, free, false, 200.0).is_err());
        }
    }
}
