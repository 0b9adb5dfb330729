//! Nodes per second and depth reached by the expert at a fixed time per
//! move, on middle games reached by the advanced level from standard
//! openings.
//!
//! ```text
//! cargo run --release --example engine_speed -- [time-ms]
//! cargo run --release --example engine_speed -- --nodes N
//! ```
//!
//! With `--nodes`, each search stops after N nodes instead of a time: the
//! same search every run, so two builds whose searches look at the same
//! positions in the same order are compared by their time alone (the
//! moves and depths printed must then be equal too).

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (millis, nodes) = match args.as_slice() {
        [flag, n] if flag == "--nodes" => (60_000, Some(n.parse::<u64>().expect("a node count"))),
        [ms] => (ms.parse().expect("a time in ms"), None),
        _ => (1000, None),
    };
    let openings = standard_openings();
    match nodes {
        Some(n) => println!("expert at {n} nodes per move"),
        None => println!("expert at {millis} ms per move"),
    }
    println!(
        "{:<10} {:>7} {:>10} {:>12} {:>6} {:>8} {:>6}",
        "rules", "opening", "nodes", "nodes/s", "depth", "time", "move"
    );
    let mut total = Duration::ZERO;
    let mut total_nodes = 0;
    for (name, variant) in [
        ("freestyle", Variant::freestyle(15).unwrap()),
        ("renju", Variant::renju(ForbiddenPolicy::Reject)),
    ] {
        // A fixed node count is cheap enough for every opening's game.
        let (step, count) = if nodes.is_some() { (1, 26) } else { (5, 4) };
        for (n, opening) in openings.iter().enumerate().step_by(step).take(count) {
            let Some(position) = middle_game(variant, opening, 20, n as u64) else {
                continue;
            };
            let limits = Limits {
                time: Duration::from_millis(millis),
                nodes,
                seed: 1,
                candidates: 1,
            };
            let started = Instant::now();
            let d = think(&position, Level::Expert, &limits).expect("a move");
            let took = started.elapsed();
            total += took;
            total_nodes += d.nodes;
            println!(
                "{:<10} {:>7} {:>10} {:>12.0} {:>6} {:>6} ms {:>6}",
                name,
                n + 1,
                d.nodes,
                d.nodes as f64 / took.as_secs_f64(),
                d.depth,
                took.as_millis(),
                d.point.to_string()
            );
        }
    }
    println!(
        "{:<10} {:>7} {:>10} {:>12.0} {:>6} {:>6} ms",
        "all",
        "",
        total_nodes,
        total_nodes as f64 / total.as_secs_f64(),
        "",
        total.as_millis()
    );
}
