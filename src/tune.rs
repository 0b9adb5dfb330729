//! `gobang tune`: fits the evaluation's weights to gobang's own games. The
//! expert plays itself from the 26 standard openings, each followed by a few
//! random moves so that no two games are alike, with a node budget per move
//! (reproducible for a seed); every quiet position of those games is a
//! sample, with how the game ended for the side to move and the search's
//! judgment of it (the score of the move it chose). The weights are those of
//! the logistic regression of a blend of the two on the evaluation's
//! features (Newton's method); by default the outcome alone, as the weights
//! in use were fitted (aimed at the judgment alone, 1000 games at 10k nodes a
//! move taught weights that played no better at 200 ms a move; renju's
//! weights and class values aimed at the judgment of a search ten times as
//! long, 1000 games at 100k nodes, predicted that judgment better on held-out
//! games and scored 3.0 points (95% ±4.6) less against Rapfi STRENGTH 60 at
//! 200 ms over 624 paired games; aimed at the outcomes of those games,
//! played again by a later expert, they predicted the outcomes better and
//! scored +0.6 points (±5.3), no gain, see the README). The class
//! values (see [`ClassValues`]) are fitted the same way, on the samples'
//! class counts with the shape weights fixed, and the threat values (see
//! [`ThreatValues`]) on the samples' threat masks with both fixed.

pub mod judged;

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use crate::arena::standard_openings;
use crate::engine::eval::{
    self, CLASSES, ClassValues, FEATURES, MASKS, SHAPE_NAMES, ThreatValues, Weights,
};
use crate::engine::{self, Level, Limits, SplitMix64};
use crate::rules::{Color, Point, Position, Variant};

pub struct TuneConfig {
    pub variant: Variant,
    pub games: usize,
    /// Nodes the expert searches for each move.
    pub nodes: u64,
    /// Nodes for each of black's moves, where black is to search more (or
    /// less) than white: positions from games where one side is the
    /// stronger, as the expert's games against a stronger engine are.
    pub black_nodes: Option<u64>,
    /// Random moves after each opening's three stones.
    pub random_moves: usize,
    pub threads: usize,
    pub seed: u64,
}

/// One quiet position: its features, how the game ended for the side to
/// move (1 won, 0.5 drawn, 0 lost), and what the search that chose its
/// move thought of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    pub features: [i32; FEATURES],
    /// How many points of each class (see [`eval::Features::classes`]).
    pub classes: Vec<(u16, u16)>,
    /// The position's threat mask (see [`ThreatValues`]).
    pub mask: u16,
    /// Who was to move: renju has weights for each.
    pub mover: Color,
    pub result: f64,
    /// The searched score of the move played, as the side to move's
    /// chance to win (the log-odds are the score over [`SCALE`]; a forced
    /// win is 1, a forced loss 0).
    pub searched: f64,
}

impl Sample {
    /// The sample with its result replaced by what the fit aims at:
    /// `outcome` parts of the game's result and the rest of the search's
    /// judgment. A result is one verdict on all of a game's positions (a
    /// move late in the game decides what the opening is taught); the
    /// search judges each position by itself, but with the evaluation it
    /// would teach (fitted to it alone, the weights played no better).
    pub fn aiming_at(mut self, outcome: f64) -> Sample {
        self.result = outcome * self.result + (1.0 - outcome) * self.searched;
        self
    }
}

/// Plays the games and returns the samples, calling `progress` with the
/// games played so far.
pub fn generate(config: &TuneConfig, progress: &(dyn Fn(usize) + Sync)) -> Vec<Sample> {
    let openings = standard_openings();
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let samples = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= config.games {
                        break;
                    }
                    let seed = config.seed.wrapping_mul(1_000_003).wrapping_add(n as u64);
                    let game = play(config, &openings[n % openings.len()], seed);
                    samples
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(game);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                }
            });
        }
    });
    samples.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One game of the expert against itself; its quiet positions as samples.
fn play(config: &TuneConfig, opening: &[Point], seed: u64) -> Vec<Sample> {
    let mut rng = SplitMix64::new(seed);
    let mut position = Position::new(config.variant);
    for &p in opening {
        if position.play(p).is_err() {
            return Vec::new();
        }
    }
    for _ in 0..config.random_moves {
        let near: Vec<Point> = position
            .board()
            .points()
            .filter(|&p| {
                position.check(p).is_ok()
                    && position.forbidden_kind(p).is_none()
                    && position
                        .moves()
                        .iter()
                        .any(|q| q.x.abs_diff(p.x) <= 2 && q.y.abs_diff(p.y) <= 2)
            })
            .collect();
        if near.is_empty() || position.is_over() {
            return Vec::new();
        }
        let _ = position.play(near[rng.below(near.len())]);
    }
    let mut seen = Vec::new();
    let limits = |mover: Color| Limits {
        // The node budget decides; the clock is a backstop.
        time: Duration::from_secs(60),
        nodes: Some(match mover {
            Color::Black => config.black_nodes.unwrap_or(config.nodes),
            Color::White => config.nodes,
        }),
        seed,
        candidates: 1,
    };
    while !position.is_over() {
        let features = eval::features(&position);
        let limits = limits(position.to_move());
        let Some(decision) = engine::think(&position, Level::Expert, &limits) else {
            break;
        };
        if let (Some(features), Some(best)) = (features, decision.candidates.first()) {
            let searched = sigmoid(best.score as f64 / SCALE);
            seen.push((features, position.to_move(), searched));
        }
        if position.play(decision.point).is_err() {
            break;
        }
    }
    // A game cut short (no move found, a move refused) has no result to learn from.
    let Some(outcome) = position.outcome() else {
        return Vec::new();
    };
    let winner = outcome.winner();
    seen.into_iter()
        .map(|(features, mover, searched)| Sample {
            features: features.shapes,
            classes: features.classes,
            mask: features.mask,
            mover,
            result: match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
            searched,
        })
        .collect()
}

/// The scale of the fitted weights: an evaluation `e` says the side to move
/// wins with log-odds `e / SCALE`.
pub const SCALE: f64 = 2000.0;

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// The mean log loss of `weights` (as a vector) with the class values
/// `classes` and the threat values `threats` on `samples`.
pub fn loss(
    weights: &[f64; FEATURES],
    classes: &ClassValues,
    threats: &ThreatValues,
    samples: &[Sample],
) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z =
                (dot(weights, &s.features) + classes.applied(&s.classes) + threats.applied(s.mask))
                    / SCALE;
            log_loss(sigmoid(z), s.result)
        })
        .sum();
    total / samples.len().max(1) as f64
}

fn log_loss(p: f64, result: f64) -> f64 {
    let p = p.clamp(1e-12, 1.0 - 1e-12);
    -(result * p.ln() + (1.0 - result) * (1.0 - p).ln())
}

fn dot(w: &[f64; FEATURES], x: &[i32; FEATURES]) -> f64 {
    w.iter().zip(x).map(|(w, &n)| w * n as f64).sum()
}

/// Fits the weights by Newton's method on the log loss, from `start`, with
/// a little ridge regularisation so shapes that never occur stay put; the
/// class values `classes` and the threat values `threats` stay as they are.
pub fn fit(
    samples: &[Sample],
    start: &Weights,
    classes: &ClassValues,
    threats: &ThreatValues,
) -> Weights {
    let prior: Vec<f64> = start.vector().iter().map(|w| w / SCALE).collect();
    let beta = newton(&prior, 1e-3, samples, |s| {
        let row = (0..FEATURES)
            .filter(|&a| s.features[a] != 0)
            .map(|a| (a, f64::from(s.features[a])))
            .collect();
        let fixed = classes.applied(&s.classes) + threats.applied(s.mask);
        (row, fixed / SCALE)
    });
    let mut v = [0.0; FEATURES];
    for a in 0..FEATURES {
        v[a] = beta[a] * SCALE;
    }
    Weights::from_vector(&v)
}

/// Fits the class values on top of the shape weights by Newton's method,
/// from `start`, with ridge regularisation `ridge` towards it (a class seen
/// rarely stays near where it was). A class is a point's four line patterns
/// whatever their order: the shape weights value a point by its lines and
/// the strongest combination they make, and the class values say what that
/// misses (three lines building at once, say).
pub fn fit_classes(
    samples: &[Sample],
    weights: &Weights,
    threats: &ThreatValues,
    start: &ClassValues,
    ridge: f64,
) -> ClassValues {
    // In log-odds, the side to move's classes then the opponent's, both
    // counted positively: the opponent's values enter negated.
    let mut prior = vec![0.0; 2 * CLASSES];
    for c in 0..CLASSES {
        prior[c] = f64::from(start.mine[c]) / SCALE;
        prior[CLASSES + c] = -f64::from(start.theirs[c]) / SCALE;
    }
    let base = weights.vector();
    let theta = newton(&prior, ridge, samples, |s| {
        let row = s
            .classes
            .iter()
            .map(|&(k, n)| (usize::from(k), f64::from(n)))
            .collect();
        (
            row,
            (dot(&base, &s.features) + threats.applied(s.mask)) / SCALE,
        )
    });
    let mut values = ClassValues::ZERO;
    for c in 0..CLASSES {
        values.mine[c] = (theta[c] * SCALE).round() as i32;
        values.theirs[c] = (-theta[CLASSES + c] * SCALE).round() as i32;
    }
    values
}

/// Fits the threat values on top of the shape weights and the class
/// values by Newton's method, from `start`, with ridge regularisation
/// `ridge` towards it (a mask seen rarely stays near where it was). A
/// position has one threat mask (see [`ThreatValues`]): which threats each
/// side has anywhere, and whether the side to move faces an open three.
pub fn fit_threats(
    samples: &[Sample],
    weights: &Weights,
    classes: &ClassValues,
    start: &ThreatValues,
    ridge: f64,
) -> ThreatValues {
    let prior: Vec<f64> = start.0.iter().map(|&v| f64::from(v) / SCALE).collect();
    let base = weights.vector();
    let theta = newton(&prior, ridge, samples, |s| {
        let fixed = dot(&base, &s.features) + classes.applied(&s.classes);
        (vec![(usize::from(s.mask), 1.0)], fixed / SCALE)
    });
    let mut values = ThreatValues::ZERO;
    for (value, theta) in values.0.iter_mut().zip(theta) {
        *value = (theta * SCALE).round() as i32;
    }
    values
}

/// Minimises the mean log loss of the logistic regression of the samples'
/// results, plus `ridge` / 2 times the squared distance from `prior`, by
/// Newton's method from `prior`, halving a step until the objective falls.
/// `row` gives a sample's features (index and value, zeros left out) and
/// the fixed part of its log-odds.
fn newton(
    prior: &[f64],
    ridge: f64,
    samples: &[Sample],
    row: impl Fn(&Sample) -> (Vec<(usize, f64)>, f64),
) -> Vec<f64> {
    let k = prior.len();
    let rows: Vec<_> = samples.iter().map(row).collect();
    let n = samples.len().max(1) as f64;
    let logit = |beta: &[f64], (x, offset): &(Vec<(usize, f64)>, f64)| -> f64 {
        offset + x.iter().map(|&(a, v)| beta[a] * v).sum::<f64>()
    };
    let objective = |beta: &[f64]| -> f64 {
        let loss: f64 = samples
            .iter()
            .zip(&rows)
            .map(|(s, r)| log_loss(sigmoid(logit(beta, r)), s.result))
            .sum::<f64>()
            / n;
        let distance: f64 = beta.iter().zip(prior).map(|(b, p)| (b - p) * (b - p)).sum();
        loss + ridge / 2.0 * distance
    };
    let mut beta = prior.to_vec();
    for _ in 0..30 {
        let mut gradient = vec![0.0; k];
        let mut hessian = vec![0.0; k * k];
        for (s, r) in samples.iter().zip(&rows) {
            let p = sigmoid(logit(&beta, r));
            let weight = (p * (1.0 - p)).max(1e-9);
            for &(a, xa) in &r.0 {
                gradient[a] += (p - s.result) * xa;
                for &(b, xb) in &r.0 {
                    hessian[a * k + b] += weight * xa * xb;
                }
            }
        }
        for a in 0..k {
            gradient[a] = gradient[a] / n + ridge * (beta[a] - prior[a]);
            for h in &mut hessian[a * k..(a + 1) * k] {
                *h /= n;
            }
            hessian[a * k + a] += ridge;
        }
        let Some(step) = solve(hessian, gradient) else {
            break;
        };
        // A full Newton step may overshoot far from the optimum: halve it
        // until the objective falls.
        let now = objective(&beta);
        let mut scale = 1.0;
        let mut moved = false;
        for _ in 0..30 {
            let trial: Vec<f64> = (0..k).map(|a| beta[a] - scale * step[a]).collect();
            if objective(&trial) < now {
                beta = trial;
                moved = true;
                break;
            }
            scale /= 2.0;
        }
        let change = step.iter().fold(0.0f64, |m, s| m.max((scale * s).abs()));
        if !moved || change < 1e-7 {
            break;
        }
    }
    beta
}

/// Solves `m x = b` for a symmetric positive definite `m` (`b.len()` rows,
/// row-major; a Hessian with a ridge is one) by Cholesky decomposition.
fn solve(mut m: Vec<f64>, mut b: Vec<f64>) -> Option<Vec<f64>> {
    let k = b.len();
    for j in 0..k {
        let d = m[j * k + j] - (0..j).map(|p| m[j * k + p] * m[j * k + p]).sum::<f64>();
        if d <= 0.0 {
            return None;
        }
        let d = d.sqrt();
        m[j * k + j] = d;
        for i in j + 1..k {
            let v = m[i * k + j] - (0..j).map(|p| m[i * k + p] * m[j * k + p]).sum::<f64>();
            m[i * k + j] = v / d;
        }
    }
    for i in 0..k {
        b[i] = (b[i] - (0..i).map(|p| m[i * k + p] * b[p]).sum::<f64>()) / m[i * k + i];
    }
    for i in (0..k).rev() {
        b[i] = (b[i] - (i + 1..k).map(|p| m[p * k + i] * b[p]).sum::<f64>()) / m[i * k + i];
    }
    Some(b)
}

/// The weights as the Rust constant they replace.
pub fn as_source(name: &str, w: &Weights) -> String {
    format!(
        "pub const {name}: Weights = Weights {{\n    mine: {:?},\n    theirs: {:?},\n    tempo: {},\n}};",
        w.mine, w.theirs, w.tempo
    )
}

/// A table of the weights before and after, shape by shape.
pub fn comparison(before: &Weights, after: &Weights) -> String {
    let mut out = format!(
        "{:<14}{:>10}{:>10}{:>10}{:>10}\n",
        "shape", "mine", "", "theirs", ""
    );
    for (s, name) in SHAPE_NAMES.iter().enumerate() {
        out += &format!(
            "{:<14}{:>10}{:>10}{:>10}{:>10}\n",
            name, before.mine[s], after.mine[s], before.theirs[s], after.theirs[s]
        );
    }
    out += &format!("{:<14}{:>10}{:>10}\n", "tempo", before.tempo, after.tempo);
    out
}

/// Samples as text, one a line: who moved (`b` or `w`), the result for
/// them, the search's judgment, and the features' counts in order.
pub fn write_samples(samples: &[Sample], out: &mut impl std::io::Write) -> std::io::Result<()> {
    for s in samples {
        let mover = match s.mover {
            Color::Black => 'b',
            Color::White => 'w',
        };
        write!(out, "{mover} {} {}", s.result, s.searched)?;
        for n in &s.features {
            write!(out, " {n}")?;
        }
        write!(out, " t{}", s.mask)?;
        if !s.classes.is_empty() {
            write!(out, " |")?;
            for (class, n) in &s.classes {
                write!(out, " {class}:{n}")?;
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

/// Samples written by [`write_samples`].
pub fn read_samples(text: &str) -> Result<Vec<Sample>, String> {
    text.lines()
        .enumerate()
        .map(|(n, line)| {
            let bad = || {
                format!(
                    "line {}: not a sample (b or w, the result and the search's judgment \
                     from 0 to 1, {FEATURES} counts and t with the threat mask below {MASKS}, \
                     then optionally | and class:count pairs, each class below {}): {line:?}",
                    n + 1,
                    2 * CLASSES
                )
            };
            let mut words = line.split_whitespace();
            let mover = match words.next() {
                Some("b") => Color::Black,
                Some("w") => Color::White,
                _ => return Err(bad()),
            };
            let mut chance = || -> Result<f64, String> {
                words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .filter(|r| (0.0..=1.0).contains(r))
                    .ok_or_else(bad)
            };
            let result = chance()?;
            let searched = chance()?;
            let mut mask = 0;
            let counts = words
                .by_ref()
                .take_while(|&w| w != "|")
                .filter_map(|w| match w.strip_prefix('t') {
                    Some(m) => match m.parse::<u16>() {
                        Ok(m) if usize::from(m) < MASKS => {
                            mask = m;
                            None
                        }
                        _ => Some(Err(bad())),
                    },
                    None => Some(w.parse().map_err(|_| bad())),
                })
                .collect::<Result<Vec<i32>, String>>()?;
            let features = counts.try_into().map_err(|_| bad())?;
            let classes = words
                .map(|w| {
                    let (class, n) = w.split_once(':').ok_or_else(bad)?;
                    let class: u16 = class.parse().map_err(|_| bad())?;
                    let n = n.parse().map_err(|_| bad())?;
                    if usize::from(class) >= 2 * CLASSES {
                        return Err(bad());
                    }
                    Ok((class, n))
                })
                .collect::<Result<Vec<_>, String>>()?;
            Ok(Sample {
                features,
                classes,
                mask,
                mover,
                result,
                searched,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `black_nodes` is black's budget alone: black's budget given as
    /// white's plays the same games, a larger one other games.
    #[test]
    fn black_may_search_more_than_white() {
        let config = |black_nodes| TuneConfig {
            variant: Variant::renju(crate::rules::ForbiddenPolicy::Reject),
            games: 2,
            nodes: 300,
            black_nodes,
            random_moves: 2,
            threads: 1,
            seed: 3,
        };
        let games = |black_nodes| generate(&config(black_nodes), &|_| {});
        let alike = games(None);
        assert!(!alike.is_empty());
        assert_eq!(games(Some(300)), alike);
        assert_ne!(games(Some(3000)), alike);
    }

    /// Samples drawn from known weights: the fit finds them again.
    #[test]
    fn the_fit_recovers_the_weights_that_made_the_outcomes() {
        let truth = Weights {
            mine: [20, 60, 40, 200, 150, 600, 1200, 900, 700, 300, 250, 120, 80],
            theirs: [10, 50, 30, 250, 100, 500, 1000, 800, 600, 280, 200, 100, 70],
            tempo: 100,
        };
        let v = truth.vector();
        let mut rng = SplitMix64::new(5);
        let samples: Vec<Sample> = (0..400_000)
            .map(|_| {
                let mut features = [0; FEATURES];
                // Sparse, as shapes on a board are: half the counts are 0.
                for f in features.iter_mut().take(2 * eval::SHAPES) {
                    *f = if rng.below(2) == 0 {
                        0
                    } else {
                        rng.below(4) as i32
                    };
                }
                features[2 * eval::SHAPES] = 1;
                let p = sigmoid(dot(&v, &features) / SCALE);
                let won = (rng.below(1_000_000) as f64) < p * 1_000_000.0;
                Sample {
                    features,
                    classes: Vec::new(),
                    mask: 0,
                    mover: Color::Black,
                    result: if won { 1.0 } else { 0.0 },
                    searched: p,
                }
            })
            .collect();
        // From nothing: the regularisation pulls towards where the fit starts.
        let nothing = Weights {
            mine: [0; eval::SHAPES],
            theirs: [0; eval::SHAPES],
            tempo: 0,
        };
        let fitted = fit(&samples, &nothing, &ClassValues::ZERO, &ThreatValues::ZERO).vector();
        // With these samples a shape's weight has a standard error of
        // about 10 and the tempo's about 30 (it moves with every count's
        // mean); each may miss by five of its own (seeds 1 to 9 all came
        // within three).
        for (f, (got, want)) in fitted.iter().zip(v.iter()).enumerate() {
            let tolerance = if f == 2 * eval::SHAPES { 150.0 } else { 50.0 };
            assert!(
                (got - want).abs() < tolerance,
                "feature {f}: fitted {got}, made with {want}"
            );
        }
        let (zero, none) = (ClassValues::ZERO, ThreatValues::ZERO);
        assert!(
            loss(&fitted, &zero, &none, &samples) < loss(&nothing.vector(), &zero, &none, &samples)
        );

        // Aimed at the chances themselves (a search's judgment without its
        // noise) a tenth of the positions finds the weights closer still.
        let judged: Vec<Sample> = samples[..40_000]
            .iter()
            .map(|s| s.clone().aiming_at(0.0))
            .collect();
        let fitted = fit(&judged, &nothing, &ClassValues::ZERO, &ThreatValues::ZERO).vector();
        for (f, (got, want)) in fitted.iter().zip(v.iter()).enumerate() {
            assert!(
                (got - want).abs() < 10.0,
                "feature {f}: fitted {got} on judgments, made with {want}"
            );
        }
    }

    #[test]
    fn the_aim_blends_the_result_and_the_judgment() {
        let sample = Sample {
            features: [0; FEATURES],
            classes: Vec::new(),
            mask: 0,
            mover: Color::Black,
            result: 1.0,
            searched: 0.25,
        };
        assert_eq!(sample.clone().aiming_at(1.0).result, 1.0);
        assert_eq!(sample.clone().aiming_at(0.0).result, 0.25);
        assert_eq!(sample.aiming_at(0.5).result, 0.625);
    }

    #[test]
    fn samples_read_back_as_written() {
        let mut features = [0; FEATURES];
        features[3] = 2;
        features[FEATURES - 1] = 1;
        let samples = vec![
            Sample {
                features,
                classes: vec![(3, 1), (500, 2)],
                mask: 37,
                mover: Color::White,
                result: 0.5,
                searched: 0.25,
            },
            Sample {
                features: [1; FEATURES],
                classes: Vec::new(),
                mask: 0,
                mover: Color::Black,
                result: 1.0,
                searched: 0.875,
            },
        ];
        let mut text = Vec::new();
        write_samples(&samples, &mut text).unwrap();
        let text = String::from_utf8(text).unwrap();
        assert_eq!(read_samples(&text).unwrap(), samples);
        let line = text.lines().next().unwrap();
        assert!(read_samples(&line.replacen('w', "x", 1)).is_err());
        assert!(
            read_samples(&line.replacen("0.5", "2", 1)).is_err(),
            "a result past a win"
        );
        assert!(
            read_samples(&line.replacen("0.25", "-1", 1)).is_err(),
            "a judgment below a loss"
        );
        let plain = text.lines().nth(1).unwrap();
        assert!(plain.ends_with(" 1 t0"), "{plain}");
        assert!(
            read_samples(&plain.replace(" 1 t0", " t0")).is_err(),
            "a count short"
        );
        assert!(
            read_samples(&format!("{plain} 1")).is_err(),
            "a count too many"
        );
        let classed = line;
        assert!(classed.ends_with(" 1 t37 | 3:1 500:2"), "{classed}");
        assert!(
            read_samples(&classed.replace(" 1 t37 | ", " t37 | ")).is_err(),
            "a count short before the classes"
        );
        assert!(
            read_samples(&classed.replace("t37", &format!("t{MASKS}"))).is_err(),
            "a threat mask past the last"
        );
        assert!(
            read_samples(&classed.replace("t37", "tx")).is_err(),
            "a threat mask not a number"
        );
        assert!(
            read_samples(&classed.replace("500:2", "990:1")).is_err(),
            "a class past the last"
        );
        assert!(
            read_samples(&classed.replace("500:2", "500")).is_err(),
            "a class without its count"
        );
    }

    /// Samples whose outcomes were drawn with known class values: the fit
    /// finds them again, and leaves a class no sample has where it was.
    #[test]
    fn the_class_fit_recovers_the_values_that_made_the_outcomes() {
        let weights = Weights {
            mine: [0; eval::SHAPES],
            theirs: [0; eval::SHAPES],
            tempo: 0,
        };
        let mut truth = ClassValues::ZERO;
        let used = [3, 40, 41, 200, 310];
        for (n, &c) in used.iter().enumerate() {
            truth.mine[c] = 150 * n as i32 - 250;
            truth.theirs[c] = 300 - 120 * n as i32;
        }
        let mut start = ClassValues::ZERO;
        start.mine[100] = 77;
        let mut rng = SplitMix64::new(3);
        let samples: Vec<Sample> = (0..100_000)
            .map(|_| {
                let mut classes = Vec::new();
                for &c in &used {
                    for k in [c, CLASSES + c] {
                        if rng.below(2) == 1 {
                            classes.push((k as u16, 1 + rng.below(3) as u16));
                        }
                    }
                }
                classes.sort_unstable();
                let p = sigmoid(truth.applied(&classes) / SCALE);
                let won = (rng.below(1_000_000) as f64) < p * 1_000_000.0;
                Sample {
                    features: [0; FEATURES],
                    classes,
                    mask: 0,
                    mover: Color::Black,
                    result: if won { 1.0 } else { 0.0 },
                    searched: p,
                }
            })
            .collect();
        let fitted = fit_classes(&samples, &weights, &ThreatValues::ZERO, &start, 1e-5);
        for &c in &used {
            // A value's standard error here is about 15.
            assert!(
                (fitted.mine[c] - truth.mine[c]).abs() < 60,
                "class {c}: fitted {}, made with {}",
                fitted.mine[c],
                truth.mine[c]
            );
            assert!(
                (fitted.theirs[c] - truth.theirs[c]).abs() < 60,
                "class {c} against: fitted {}, made with {}",
                fitted.theirs[c],
                truth.theirs[c]
            );
        }
        assert_eq!(fitted.mine[100], 77, "a class no sample has stays put");
        let (zero, none) = ([0.0; FEATURES], ThreatValues::ZERO);
        assert!(loss(&zero, &fitted, &none, &samples) < loss(&zero, &start, &none, &samples));
    }

    /// Samples whose outcomes were drawn with known threat values on top of
    /// known weights: the fit finds the values again, and leaves a mask no
    /// sample has where it was.
    #[test]
    fn the_threat_fit_recovers_the_values_that_made_the_outcomes() {
        let weights = Weights {
            tempo: 150,
            ..FREE_ZERO
        };
        let v = weights.vector();
        let mut truth = ThreatValues::ZERO;
        let used = [0, 1, 6, 40, 300];
        for (n, &m) in used.iter().enumerate() {
            truth.0[m] = 400 * n as i32 - 700;
        }
        let mut start = ThreatValues::ZERO;
        start.0[100] = -55;
        let mut rng = SplitMix64::new(4);
        let samples: Vec<Sample> = (0..200_000)
            .map(|_| {
                let mask = used[rng.below(used.len())] as u16;
                let mut features = [0; FEATURES];
                features[2 * eval::SHAPES] = 1;
                let p = sigmoid((dot(&v, &features) + truth.applied(mask)) / SCALE);
                let won = (rng.below(1_000_000) as f64) < p * 1_000_000.0;
                Sample {
                    features,
                    classes: Vec::new(),
                    mask,
                    mover: Color::Black,
                    result: if won { 1.0 } else { 0.0 },
                    searched: p,
                }
            })
            .collect();
        let fitted = fit_threats(&samples, &weights, &ClassValues::ZERO, &start, 1e-5);
        for &m in &used {
            // A value's standard error here is about 20 (40,000 samples a
            // mask, each won with a chance near a half).
            assert!(
                (fitted.0[m] - truth.0[m]).abs() < 80,
                "mask {m}: fitted {}, made with {}",
                fitted.0[m],
                truth.0[m]
            );
        }
        assert_eq!(fitted.0[100], -55, "a mask no sample has stays put");
        let classes = ClassValues::ZERO;
        assert!(loss(&v, &classes, &fitted, &samples) < loss(&v, &classes, &start, &samples));
    }

    const FREE_ZERO: Weights = Weights {
        mine: [0; eval::SHAPES],
        theirs: [0; eval::SHAPES],
        tempo: 0,
    };
}
