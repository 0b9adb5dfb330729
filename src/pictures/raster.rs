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

fn stroke(width: f32, cap: LineCap) -> Stroke {
    Stroke {
        width,
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
