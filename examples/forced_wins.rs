//! How many known forced wins the expert proves at a fixed time per move:
//! the positions of `examples/data/forced-wins.txt`, each with a win for
//! the side to move that the expert of bbdb3cc proves within 3 s. Renju
//! games are decided by such wins, 15 to 30 plies deep, and the share
//! proved at 200 ms takes half a minute to measure. It is one side of
//! strength only, a quick check of a change to the threat search, never the
//! verdict on it: searching 10 moves a node instead of 18 proved 78 of the
//! 148 instead of 60, and scored 15.4% against a Gomocup engine in renju
//! where the expert scores 31.7%. The arena decides.
//!
//! `examples/data/rapfi-wins.txt` (the set `rapfi-wins`) is the harder
//! check: renju positions from the expert's games against full-strength
//! Rapfi at 1 s a move where Rapfi, to move, first announced a forced win
//! (within its move of 1 s, with the game's earlier searches in its
//! table). These are the wins the expert was too shallow to see coming.
//!
//! ```text
//! cargo run --release --example forced_wins -- [time-ms] [forced-wins|rapfi-wins]
//! ```

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use gobang::engine::{Level, Limits, think};
use gobang::rules::{Position, RuleSet, Variant, parse_point};

/// The sets of positions, by name.
const SETS: [(&str, &str); 2] = [
    ("forced-wins", include_str!("data/forced-wins.txt")),
    ("rapfi-wins", include_str!("data/rapfi-wins.txt")),
];

/// Proved and tried, the plies of the wins proved, and the time taken.
#[derive(Default)]
struct Tally {
    proved: usize,
    tried: usize,
    plies: u32,
    time: Duration,
}

fn main() {
    let millis: u64 = std::env::args()
        .nth(1)
        .map_or(200, |s| s.parse().expect("a time in ms"));
    let set = std::env::args().nth(2);
    let set = set.as_deref().unwrap_or("forced-wins");
    let Some(&(_, positions)) = SETS.iter().find(|&&(name, _)| name == set) else {
        let names: Vec<&str> = SETS.iter().map(|&(name, _)| name).collect();
        eprintln!(
            "no set of positions named {set}: one of {}",
            names.join(", ")
        );
        std::process::exit(2);
    };
    println!("expert at {millis} ms per move, the positions of {set}");
    let mut tallies: BTreeMap<&str, Tally> = BTreeMap::new();
    for (n, line) in positions.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut words = line.split_whitespace();
        let rules = words.next().expect("a rule set");
        // The plies of the win as the set's source found it.
        let _plies = words.next().expect("the plies of the win");
        let rule_set: RuleSet = rules
            .parse()
            .unwrap_or_else(|e| panic!("line {}: {e}", n + 1));
        let variant = Variant::from_spec(rule_set, &Default::default()).expect("15×15");
        let mut position = Position::new(variant);
        for word in words {
            let p = parse_point(word, 15, 15).expect("a point");
            position.play(p).expect("a legal move");
        }
        let limits = Limits::timed(Duration::from_millis(millis), 1);
        let started = Instant::now();
        let decision = think(&position, Level::Expert, &limits).expect("a move");
        let took = started.elapsed();
        let tally = tallies.entry(rules).or_default();
        tally.tried += 1;
        tally.time += took;
        if let Some(plies) = decision.forced_win_in {
            tally.proved += 1;
            tally.plies += plies;
        }
    }
    println!(
        "{:<10} {:>7} {:>6} {:>12} {:>13}",
        "rules", "proved", "of", "mean plies", "mean time"
    );
    for (rules, t) in &tallies {
        println!(
            "{:<10} {:>7} {:>6} {:>12.1} {:>10.0} ms",
            rules,
            t.proved,
            t.tried,
            f64::from(t.plies) / t.proved.max(1) as f64,
            t.time.as_secs_f64() * 1000.0 / t.tried.max(1) as f64
        );
    }
}
