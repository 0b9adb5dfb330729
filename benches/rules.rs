//! Rules-core speed: `cargo bench --bench rules`.

use criterion::{Criterion, criterion_group, criterion_main};
use gobang::rules::{Board, ForbiddenPolicy, Point, Position, Variant};
use std::hint::black_box;

/// A crowded renju middle game, black to move (46 stones).
const CROWDED_RENJU: [&str; 15] = [
    "...............",
    "...............",
    "...O...........",
    "....X..X.O.....",
    "....OXXO.X.....",
    "...XOXOXX.O....",
    "...OXOXOO.X....",
    "...OXXOX.XO....",
    "...X.OOOXO.....",
    "...O.XOX.X.....",
    "....X.OX.O.....",
    ".....O.........",
    "...............",
    "...............",
    "...............",
];

/// A small, fast, reproducible random number generator for playouts.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn playout(seed: u64) -> usize {
    let mut rng = XorShift(seed);
    let mut position = Position::new(Variant::freestyle(15).unwrap());
    let mut empty: Vec<Point> = position.board().points().collect();
    while !position.is_over() {
        let pick = (rng.next() % empty.len() as u64) as usize;
        let p = empty.swap_remove(pick);
        position.play(p).unwrap();
    }
    position.moves().len()
}

fn benches(c: &mut Criterion) {
    let mut mid_game = Position::new(Variant::freestyle(15).unwrap());
    for (x, y) in [
        (7, 7),
        (8, 8),
        (7, 8),
        (7, 6),
        (6, 7),
        (8, 7),
        (9, 9),
        (6, 6),
        (5, 8),
        (10, 10),
    ] {
        mid_game.play(Point::new(x, y)).unwrap();
    }
    // One move played and judged, then taken back so every iteration starts
    // from the same middle game (the undo is part of the figure).
    c.bench_function("play_and_win_check_15x15", |b| {
        b.iter(|| {
            black_box(mid_game.play(black_box(Point::new(4, 9))).unwrap());
            mid_game.undo()
        })
    });

    let board = Board::from_rows(&CROWDED_RENJU).unwrap();
    let renju =
        Position::from_board(Variant::renju(ForbiddenPolicy::Reject), board.clone()).unwrap();
    assert_eq!(renju.to_move(), gobang::rules::Color::Black);
    c.bench_function("renju_forbidden_set_crowded_midgame", |b| {
        b.iter(|| black_box(renju.forbidden_points()))
    });

    let mut seed = 1u64;
    c.bench_function("random_playout_15x15_freestyle", |b| {
        b.iter(|| {
            seed += 1;
            black_box(playout(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1))
        })
    });
}

criterion_group!(rules, benches);
criterion_main!(rules);
