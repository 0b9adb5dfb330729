//! Nodes per second and depth reached by the expert at a fixed time per
//! move, on middle games reached by the advanced level from standard
//! openings.
//!
//! ```text
//! cargo run --release --example engine_speed -- [time-ms]
//! ```

use std::time::{Duration, Instant};

use gobang::arena::standard_openings;
use gobang::engine::{Level, Limits, think};
use gobang::rules::{ForbiddenPolicy, Position, Variant};

fn middle_game(
    variant: Variant,
    opening: &[gobang::rules::Point],
    plies: usize,
    seed: u64,
) -> Option<Position> {
    let mut position = Position::new(variant);
    for &p in opening {
        position.play(p).ok()?;
    }
    let limits = Limits {
        time: Duration::from_secs(10),
        nodes: Some(2_000),
        seed,
        candidates: 1,
    };
    while position.moves().len() < plies {
        let d = think(&position, Level::Advanced, &limits)?;
        if position.play(d.point).ok()?.is_some() {
            return None;
        }
    }
    Some(position)
}

fn main() {
    let millis: u64 = std::env::args()
        .nth(1)
        .map_or(1000, |s| s.parse().expect("a time in ms"));
    let openings = standard_openings();
    println!("expert at {millis} ms per move");
    println!(
        "{:<10} {:>7} {:>10} {:>12} {:>6} {:>8}",
        "rules", "opening", "nodes", "nodes/s", "depth", "time"
    );
    for (name, variant) in [
        ("freestyle", Variant::freestyle(15).unwrap()),
        ("renju", Variant::renju(ForbiddenPolicy::Reject)),
    ] {
        for (n, opening) in openings.iter().enumerate().step_by(5).take(4) {
            let Some(position) = middle_game(variant, opening, 20, n as u64) else {
                continue;
            };
            let limits = Limits {
                time: Duration::from_millis(millis),
                nodes: None,
                seed: 1,
                candidates: 1,
            };
            let started = Instant::now();
            let d = think(&position, Level::Expert, &limits).expect("a move");
            let took = started.elapsed();
            println!(
                "{:<10} {:>7} {:>10} {:>12.0} {:>6} {:>6} ms",
                name,
                n + 1,
                d.nodes,
                d.nodes as f64 / took.as_secs_f64(),
                d.depth,
                took.as_millis()
            );
        }
    }
}
