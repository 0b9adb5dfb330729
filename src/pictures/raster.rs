//! A scene in pixels, with tiny-skia; PNG from the same pixels.

use tiny_skia::{
    Color as SkColor, FillRule, LineCap, LineJoin, Paint, PathBuilder, Pixmap, Rect, Stroke,
    Transform,
};

use super::{Item, Rgb, Scene};

fn paint(color: Rgb) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(SkColor::from_rgba8(color.0, color.1, color.2, 255));
    paint.anti_alias = true;
    paint
}

/// A stroke at least a little over a pixel wide: tiny-skia draws thinner
/// ones as hairlines, which trip an assertion of its own on some shapes.
fn stroke(width: f32, cap: LineCap) -> Stroke {
    Stroke {
        width: width.max(1.1),
        line_cap: cap,
        line_join: LineJoin::Round,
        ..Stroke::default()
    }
}

/// The scene drawn.
pub(super) fn pixmap(scene: &Scene) -> Pixmap {
    let mut pixmap =
        Pixmap::new(scene.width.max(1), scene.height.max(1)).expect("a picture of a sane size");
    let t = Transform::identity();
    for item in &scene.items {
        match item {
            Item::Rect { x, y, w, h, fill } => {
                if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                    pixmap.fill_rect(rect, &paint(*fill), t, None);
                }
            }
            // Grid lines run straight across or down: a rectangle, much
            // cheaper than a stroke.
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                color,
                class: "grid",
            } if x1 == x2 || y1 == y2 => {
                // Whole pixels, without antialiasing: crisp lines.
                let half = width / 2.0;
                let snap = |a: f32, b: f32| {
                    let start = (a - half).round();
                    (start, (b + half).round().max(start + 1.0))
                };
                let (left, right) = snap(x1.min(*x2), x1.max(*x2));
                let (top, bottom) = snap(y1.min(*y2), y1.max(*y2));
                if let Some(rect) = Rect::from_ltrb(left, top, right, bottom) {
                    let mut paint = paint(*color);
                    paint.anti_alias = false;
                    pixmap.fill_rect(rect, &paint, t, None);
                }
            }
            Item::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                color,
                class,
            } => {
                let mut pb = PathBuilder::new();
                pb.move_to(*x1, *y1);
                pb.line_to(*x2, *y2);
                if let Some(path) = pb.finish() {
                    let cap = if *class == "win" {
                        LineCap::Round
                    } else {
                        LineCap::Square
                    };
                    pixmap.stroke_path(&path, &paint(*color), &stroke(*width, cap), t, None);
                }
            }
            Item::Circle {
                cx,
                cy,
                r,
                fill,
                stroke: edge,
                ..
            } => {
                if let Some(path) = PathBuilder::from_circle(*cx, *cy, *r) {
                    if let Some(fill) = fill {
                        pixmap.fill_path(&path, &paint(*fill), FillRule::Winding, t, None);
                    }
                    if let Some((color, width)) = edge {
                        pixmap.stroke_path(
                            &path,
                            &paint(*color),
                            &stroke(*width, LineCap::Butt),
                            t,
                            None,
                        );
                    }
                }
            }
            Item::Strokes {
                lines,
                width,
                color,
                ..
            } => {
                let mut pb = PathBuilder::new();
                for line in lines {
                    let mut points = line.iter();
                    if let Some(&(x, y)) = points.next() {
                        pb.move_to(x, y);
                        for &(x, y) in points {
                            pb.line_to(x, y);
                        }
                    }
                }
                if let Some(path) = pb.finish() {
                    pixmap.stroke_path(
                        &path,
                        &paint(*color),
                        &stroke(*width, LineCap::Round),
                        t,
                        None,
                    );
                }
            }
        }
    }
    pixmap
}

/// The scene as PNG.
pub(super) fn png(scene: &Scene) -> Vec<u8> {
    let pixmap = pixmap(scene);
    let mut out = Vec::with_capacity(64 * 1024);
    {
        let mut encoder = png::Encoder::new(&mut out, pixmap.width(), pixmap.height());
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_compression(png::Compression::Fast);
        // Most rows repeat the one above (the board's lines): Up filters
        // them to nothing, and cheaply.
        encoder.set_filter(png::FilterType::Up);
        encoder.set_adaptive_filter(png::AdaptiveFilterType::NonAdaptive);
        let mut writer = encoder.write_header().expect("a PNG header");
        // Every pixel is opaque: drop alpha.
        let rgb: Vec<u8> = pixmap
            .data()
            .chunks_exact(4)
            .flat_map(|p| [p[0], p[1], p[2]])
            .collect();
        writer.write_image_data(&rgb).expect("PNG data");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::{Diagram, Style, Theme};
    use crate::rules::{Color, Point};

    #[test]
    fn every_size_and_theme_draws() {
        let stones: Vec<(Point, Color)> = (0..20u8)
            .map(|i| (Point::new(i % 15, 7 + i / 15), Color::of_ply(i as usize)))
            .collect();
        let diagram = Diagram {
            width: 15,
            height: 15,
            cells: false,
            last: Some(stones[19].0),
            winning_line: vec![Point::new(0, 7), Point::new(4, 7)],
            forbidden: vec![Point::new(3, 3)],
            stones,
        };
        for size in (120..=1000).step_by(13) {
            for theme in Theme::ALL {
                for numbers in [false, true] {
                    let png = diagram.png(&Style {
                        size,
                        theme,
                        numbers,
                    });
                    assert!(png.starts_with(b"\x89PNG"), "{size} {theme}");
                }
            }
        }
    }
}
