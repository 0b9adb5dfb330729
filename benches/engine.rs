//! The expert's search speed: `cargo bench --bench engine`.
//!
//! Each position is searched to a fixed node budget, so a run searches the
//! same tree every time and its time measures speed alone (positions a
//! second), not luck in what the clock allowed.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use gobang::engine::{Level, Limits, think};
use gobang::rules::{ForbiddenPolicy, OPENINGS, Position, Variant};
use std::hint::black_box;
use std::time::Duration;

/// The nodes each bench searches.
const NODES: u64 = 100_000;

/// A middle game: the named opening `name` and then the expert's own
/// moves at a fixed node budget, to `plies` stones (reproducible).
fn middle_game(variant: Variant, name: &str, plies: usize) -> Position {
    let mut position = Position::new(variant);
    let opening = OPENINGS.iter().find(|o| o.name == name).unwrap();
    for p in opening.stones(15) {
        position.play(p).unwrap();
    }
    let limits = Limits {
        nodes: Some(200_000),
        ..Limits::default()
    };
    while position.moves().len() < plies && !position.is_over() {
        let decision = think(&position, Level::Expert, &limits).unwrap();
        position.play(decision.point).unwrap();
    }
    position
}

fn benches(c: &mut Criterion) {
    let renju = Variant::renju(ForbiddenPolicy::Reject);
    let freestyle = Variant::freestyle(15).unwrap();
    let games = [
        ("renju Kansei, 12 stones", renju, "Kansei", 12),
        ("renju Suisei, 16 stones", renju, "Suisei", 16),
        ("freestyle Suisei, 16 stones", freestyle, "Suisei", 16),
    ];
    let mut group = c.benchmark_group("expert search, 100k positions");
    group.throughput(Throughput::Elements(NODES));
    group.measurement_time(Duration::from_secs(10));
    group.sample_size(20);
    for (name, variant, opening, plies) in games {
        let position = middle_game(variant, opening, plies);
        let limits = Limits {
            nodes: Some(NODES),
            ..Limits::default()
        };
        // What the bench searches: a position whose search ends at once
        // (a win found) would measure nothing.
        let decision = think(&position, Level::Expert, &limits).unwrap();
        assert!(
            decision.nodes >= NODES && decision.forced_win_in.is_none(),
            "{name}: {}",
            decision.summary(15)
        );
        println!("{name}: {}", decision.summary(15));
        group.bench_function(name, |b| {
            b.iter(|| think(black_box(&position), Level::Expert, &limits))
        });
    }
    group.finish();
}

criterion_group!(engine, benches);
criterion_main!(engine);
