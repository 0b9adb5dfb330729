//! Picture speed: `cargo bench --bench pictures`. A PNG of a 15×15 middle
//! game at the default size (target under 5 ms) and the GIF of a 60-move
//! game (target under 200 ms).

use criterion::{Criterion, criterion_group, criterion_main};
use gobang::pictures::{Diagram, Style, Theme, animation};
use gobang::rules::{Color, Point};
use std::hint::black_box;

/// `count` stones spiralling out from the centre, colours alternating.
fn game(count: usize) -> Vec<(Point, Color)> {
    let mut stones = Vec::new();
    let (mut x, mut y) = (7i32, 7i32);
    let (mut dx, mut dy) = (1i32, 0i32);
    let mut leg = 1;
    while stones.len() < count {
        for _ in 0..2 {
            for _ in 0..leg {
                if stones.len() == count {
                    break;
                }
                stones.push((Point::new(x as u8, y as u8), Color::of_ply(stones.len())));
                x += dx;
                y += dy;
            }
            (dx, dy) = (-dy, dx);
        }
        leg += 1;
    }
    stones
}

fn diagram(stones: &[(Point, Color)]) -> Diagram {
    Diagram {
        width: 15,
        height: 15,
        cells: false,
        stones: stones.to_vec(),
        last: stones.last().map(|s| s.0),
        winning_line: Vec::new(),
        forbidden: Vec::new(),
    }
}

fn pictures(c: &mut Criterion) {
    let middle = diagram(&game(40));
    let style = Style {
        size: 600,
        theme: Theme::Wood,
        numbers: false,
    };
    c.bench_function("png 15x15, 40 stones, 600 px", |b| {
        b.iter(|| black_box(middle.png(&style)))
    });
    c.bench_function("svg 15x15, 40 stones, 600 px", |b| {
        b.iter(|| black_box(middle.svg(&style)))
    });
    let stones = game(60);
    let frames: Vec<Diagram> = (0..=60).map(|n| diagram(&stones[..n])).collect();
    let gif = Style { size: 400, ..style };
    let mut group = c.benchmark_group("gif");
    group.sample_size(20);
    group.bench_function("60 moves, 400 px", |b| {
        b.iter(|| black_box(animation(&frames, &gif, 700, 3000)))
    });
    group.finish();
}

criterion_group!(benches, pictures);
criterion_main!(benches);
