//! A match's record — one JSON line a game — and the comparison of two
//! records game by game.
//!
//! Two matches from the same openings against the same opponent are best
//! compared game by game: the same opening with the same colours often
//! gives much the same game, so the difference between the two results of
//! each pair varies less than the difference of the two totals (against
//! Rapfi, half as much). `gobang arena --compare BASE` prints that paired
//! difference, with its interval and the one two unpaired totals would have.

use std::collections::HashMap;

use serde::Deserialize;

use super::GameReport;
use crate::rules::{Color, OPENINGS, Point};

/// A game as its record line: its opening, colours, moves, result, and
/// each move's thinking time and what its contender said of it.
pub fn line(g: &GameReport) -> serde_json::Value {
    serde_json::json!({
        "opening": g.opening,
        "first_is_black": g.first_is_black,
        "moves": g.moves.iter().map(|p| [p.x, p.y]).collect::<Vec<_>>(),
        "score": g.score,
        "reason": g.reason,
        "move_ms": g.turns.iter().map(|t| t.chosen.thought.as_millis() as u64).collect::<Vec<_>>(),
        "first_moved": g.turns.iter().map(|t| t.by_first).collect::<Vec<_>>(),
        "said": g.turns.iter().map(|t| &t.chosen.said).collect::<Vec<_>>(),
    })
}

/// What pairing needs of a recorded game.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Recorded {
    pub opening: usize,
    pub first_is_black: bool,
    /// 1 win, 0.5 draw, 0 loss for the first contender.
    pub score: f64,
    #[serde(default)]
    pub moves: Vec<[u8; 2]>,
    /// For each move after the opening, whether the first contender chose
    /// it, and what its contender said of it (both empty in records written
    /// without them).
    #[serde(default)]
    pub first_moved: Vec<bool>,
    #[serde(default)]
    pub said: Vec<Vec<String>>,
}

impl Recorded {
    /// The game's moves, from the empty board.
    pub fn points(&self) -> Vec<Point> {
        self.moves.iter().map(|&[x, y]| Point::new(x, y)).collect()
    }

    /// The first contender's colour in this game.
    pub fn first_color(&self) -> Color {
        if self.first_is_black {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Black's score: 1 a win, 0.5 a draw, 0 a loss.
    pub fn black_score(&self) -> f64 {
        if self.first_is_black {
            self.score
        } else {
            1.0 - self.score
        }
    }
}

impl From<&GameReport> for Recorded {
    fn from(g: &GameReport) -> Recorded {
        Recorded {
            opening: g.opening,
            first_is_black: g.first_is_black,
            score: g.score,
            moves: g.moves.iter().map(|p| [p.x, p.y]).collect(),
            first_moved: g.turns.iter().map(|t| t.by_first).collect(),
            said: g.turns.iter().map(|t| t.chosen.said.clone()).collect(),
        }
    }
}

/// Reads the record file a command-line option named: an error names the
/// option and the file, and the line.
pub fn read_file(option: &str, path: &std::path::Path) -> Result<Vec<Recorded>, String> {
    std::fs::read_to_string(path)
        .map_err(|e| e.to_string())
        .and_then(|text| parse(&text))
        .map_err(|e| format!("{option} {}: {e}", path.display()))
}

/// Reads a record `gobang arena --record` wrote; an error names the line.
pub fn parse(text: &str) -> Result<Vec<Recorded>, String> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(n, l)| {
            let game: Recorded = serde_json::from_str(l)
                .map_err(|e| format!("line {}: not a game of an arena record: {e}", n + 1))?;
            if ![0.0, 0.5, 1.0].contains(&game.score) {
                return Err(format!(
                    "line {}: a score is 0, 0.5 or 1, not {}",
                    n + 1,
                    game.score
                ));
            }
            Ok(game)
        })
        .collect()
}

/// Two matches compared game by game: each game of the new match paired
/// with the base's game of the same opening and colours (the first such
/// game with the first, the second with the second).
#[derive(Debug, PartialEq)]
pub struct Comparison {
    /// Every pair, and those where the first contender is black, and white.
    pub all: Part,
    pub as_black: Part,
    pub as_white: Part,
    /// Games of either match left without a partner.
    pub unpaired: usize,
    /// Per opening (its index in the record) and colour of the first
    /// contender, where the two matches differ: new total minus base's.
    pub changed: Vec<(usize, bool, f64)>,
    /// Whether the new match's games start from the 26 standard openings
    /// on 15×15, by their index (and so the openings can be named).
    pub standard_openings: bool,
}

/// Some of a comparison's pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Part {
    pub pairs: usize,
    /// The first contender's total in these games: new, base.
    pub new: f64,
    pub base: f64,
    /// Half the 95% interval of the mean difference per game, from the
    /// pairs' differences; and what it would be from the two matches'
    /// own spreads, were the games not paired.
    pub paired_half: f64,
    pub unpaired_half: f64,
}

/// A game of the new match and its partner in the base: the first
/// contender's scores in the two.
struct Pair {
    opening: usize,
    first_is_black: bool,
    new: f64,
    base: f64,
}

impl Part {
    fn of<'a>(pairs: impl Iterator<Item = &'a Pair> + Clone) -> Part {
        let n = pairs.clone().count();
        // (A sum from 0, not Iterator::sum's -0 when there is nothing.)
        let sum = |x: &dyn Fn(&Pair) -> f64| pairs.clone().fold(0.0, |a, p| a + x(p));
        // The sample variance of one number of each pair.
        let variance = |x: fn(&Pair) -> f64| {
            let mean = sum(&x) / n.max(1) as f64;
            sum(&|p| (x(p) - mean).powi(2)) / (n.max(2) - 1) as f64
        };
        let z = 1.96;
        let root_n = (n.max(1) as f64).sqrt();
        Part {
            pairs: n,
            new: sum(&|p| p.new),
            base: sum(&|p| p.base),
            paired_half: z * variance(|p| p.new - p.base).sqrt() / root_n,
            unpaired_half: z * (variance(|p| p.new) + variance(|p| p.base)).sqrt() / root_n,
        }
    }

    /// The mean difference per game, new minus base.
    pub fn difference(&self) -> f64 {
        (self.new - self.base) / self.pairs.max(1) as f64
    }
}

impl Comparison {
    pub fn of(new: &[Recorded], base: &[Recorded]) -> Comparison {
        let mut waiting: HashMap<(usize, bool), Vec<f64>> = HashMap::new();
        for g in base.iter().rev() {
            waiting
                .entry((g.opening, g.first_is_black))
                .or_default()
                .push(g.score);
        }
        let pairs: Vec<Pair> = new
            .iter()
            .filter_map(|g| {
                let base = waiting
                    .get_mut(&(g.opening, g.first_is_black))
                    .and_then(Vec::pop)?;
                Some(Pair {
                    opening: g.opening,
                    first_is_black: g.first_is_black,
                    new: g.score,
                    base,
                })
            })
            .collect();
        let mut by_opening: HashMap<(usize, bool), f64> = HashMap::new();
        for p in &pairs {
            *by_opening.entry((p.opening, p.first_is_black)).or_default() += p.new - p.base;
        }
        let mut changed: Vec<(usize, bool, f64)> = by_opening
            .into_iter()
            .filter(|&(_, d)| d != 0.0)
            .map(|((o, black), d)| (o, black, d))
            .collect();
        // The largest first, then by opening, black first.
        changed.sort_by(|x, y| {
            y.2.abs()
                .total_cmp(&x.2.abs())
                .then(x.0.cmp(&y.0))
                .then(y.1.cmp(&x.1))
        });
        Comparison {
            all: Part::of(pairs.iter()),
            as_black: Part::of(pairs.iter().filter(|p| p.first_is_black)),
            as_white: Part::of(pairs.iter().filter(|p| !p.first_is_black)),
            unpaired: new.len() + base.len() - 2 * pairs.len(),
            changed,
            standard_openings: standard_openings(new),
        }
    }

    /// The comparison as the arena prints it, openings named where the
    /// games start from the 26 standard openings on 15×15.
    pub fn report(&self) -> String {
        let all = &self.all;
        let percent = |x: f64| 100.0 * x / all.pairs.max(1) as f64;
        let plural = |n: usize, one: &str, many: &str| match n {
            1 => format!("1 {one}"),
            n => format!("{n} {many}"),
        };
        let mut out = format!(
            "paired with the base game by game ({}{}): {:.1}% against {:.1}%, \
             {:+.1} points (95% ±{:.1}; unpaired ±{:.1})\n",
            plural(all.pairs, "pair", "pairs"),
            match self.unpaired {
                0 => String::new(),
                u => format!(
                    ", {} left out",
                    plural(u, "game without a partner", "games without a partner")
                ),
            },
            percent(all.new),
            percent(all.base),
            100.0 * all.difference(),
            100.0 * all.paired_half,
            100.0 * all.unpaired_half,
        );
        let half = |name: &str, part: &Part| match part.pairs {
            0 => format!("as {name} no pairs"),
            _ => format!(
                "as {name} {} against {}, {:+.1} points (±{:.1})",
                part.new,
                part.base,
                100.0 * part.difference(),
                100.0 * part.paired_half
            ),
        };
        out += &format!(
            "{} · {}\n",
            half("black", &self.as_black),
            half("white", &self.as_white)
        );
        for &(opening, black, d) in &self.changed {
            let name = self
                .standard_openings
                .then(|| OPENINGS.get(opening).map(|o| format!(" ({})", o.name)))
                .flatten()
                .unwrap_or_default();
            let colour = if black { "black" } else { "white" };
            out += &format!("  opening {opening}{name} as {colour}: {d:+}\n");
        }
        out
    }
}

/// Whether every game of a record starts from the standard opening its
/// index names, on 15×15 (and so the index can be named).
fn standard_openings(games: &[Recorded]) -> bool {
    let openings = super::standard_openings();
    games.iter().all(|g| {
        openings.get(g.opening).is_some_and(|stones: &Vec<Point>| {
            g.moves.len() >= stones.len()
                && stones.iter().zip(&g.moves).all(|(s, m)| [s.x, s.y] == *m)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opening: usize, first_is_black: bool, score: f64) -> Recorded {
        Recorded {
            opening,
            first_is_black,
            score,
            moves: Vec::new(),
            first_moved: Vec::new(),
            said: Vec::new(),
        }
    }

    #[test]
    fn games_pair_by_opening_and_colours_in_the_order_played() {
        let base = [
            game(0, true, 1.0),
            game(0, false, 0.0),
            game(1, true, 1.0),
            game(1, false, 0.0),
            game(0, true, 0.0),
            game(2, true, 1.0),
        ];
        let new = [
            game(0, false, 0.5),
            game(0, true, 1.0),
            game(1, true, 1.0),
            game(1, false, 1.0),
            game(0, true, 1.0),
        ];
        let c = Comparison::of(&new, &base);
        assert_eq!(c.all.pairs, 5);
        assert_eq!(c.unpaired, 1, "opening 2 was not played again");
        assert_eq!((c.all.new, c.all.base), (4.5, 2.0));
        let black = &c.as_black;
        assert_eq!((black.pairs, black.new, black.base), (3, 3.0, 2.0));
        assert_eq!((c.as_white.new, c.as_white.base), (1.5, 0.0));
        assert!((c.all.difference() - 0.5).abs() < 1e-12);
        // The differences 0.5, 0, 0, 1, 1: mean 0.5, variance 0.25; as
        // black 0, 0, 1: mean 1/3, variance 1/3.
        assert!((c.all.paired_half - 1.96 * 0.5 / 5f64.sqrt()).abs() < 1e-12);
        assert!((black.paired_half - 1.96 * (1.0f64 / 9.0).sqrt()).abs() < 1e-12);
        assert_eq!(
            c.changed,
            [(0, true, 1.0), (1, false, 1.0), (0, false, 0.5)]
        );
    }

    #[test]
    fn pairing_sees_what_two_totals_hide() {
        // Each opening decides its game, in both matches, but for one.
        let base: Vec<Recorded> = (0..100).map(|n| game(n, true, (n % 2) as f64)).collect();
        let mut new = base.clone();
        new[0].score = 1.0;
        let c = Comparison::of(&new, &base);
        assert!(c.all.paired_half < 0.02, "{c:?}");
        assert!(c.all.unpaired_half > 0.13, "{c:?}");
        assert_eq!(c.changed, [(0, true, 1.0)]);
    }

    #[test]
    fn openings_are_named_where_the_games_start_from_the_standard_ones() {
        let stones = |n: usize| -> Vec<[u8; 2]> {
            crate::arena::standard_openings()[n]
                .iter()
                .map(|p| [p.x, p.y])
                .collect()
        };
        let mut new = game(1, true, 1.0);
        new.moves = stones(1);
        let base = game(1, true, 0.0);
        let c = Comparison::of(std::slice::from_ref(&new), std::slice::from_ref(&base));
        assert!(c.standard_openings);
        let name = OPENINGS[1].name;
        assert!(
            c.report()
                .ends_with(&format!("  opening 1 ({name}) as black: +1\n"))
        );
        // The stones of another opening than the index says: not named.
        new.moves = stones(2);
        let c = Comparison::of(&[new], &[base]);
        assert!(!c.standard_openings);
        assert!(c.report().ends_with("  opening 1 as black: +1\n"));
    }

    #[test]
    fn records_read_back_and_bad_lines_are_named() {
        let text = "{\"opening\":3,\"first_is_black\":false,\"moves\":[[7,7]],\"score\":0.5,\"reason\":\"\"}\n\n";
        assert_eq!(
            parse(text),
            Ok(vec![Recorded {
                opening: 3,
                first_is_black: false,
                score: 0.5,
                moves: vec![[7, 7]],
                first_moved: Vec::new(),
                said: Vec::new(),
            }])
        );
        let bad = "{\"opening\":3,\"first_is_black\":false,\"score\":0.5}\n{\"opening\":1}";
        assert!(parse(bad).unwrap_err().starts_with("line 2: "));
        let score = "{\"opening\":3,\"first_is_black\":false,\"score\":2}";
        assert_eq!(
            parse(score).unwrap_err(),
            "line 1: a score is 0, 0.5 or 1, not 2"
        );
    }
}
