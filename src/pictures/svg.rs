//! A scene as SVG: one element per shape, with a class saying what it is
//! (`stone black`, `last`, `win`, `forbidden`, …).

use std::fmt::Write;

use super::{Item, Scene};

fn n(v: f32) -> String {
    let rounded = (v * 100.0).round() / 100.0;
    format!("{rounded}")
}

pub(super) fn write(scene: &Scene) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n<title>{}</title>\n",
        scene.title,
        w = scene.width,
        h = scene.height
    );
    for item in &scene.items {
        match item {
            Item::Rect { x, y, w, h, fill } => {
                let _ = writeln!(
                    out,
                    "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                    n(*x),
                    n(*y),
                    n(*w),
                    n(*h),
                    fill.hex()
                );
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
                let _ = writeln!(
                    out,
                    "<line class=\"{class}\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"{}\"/>",
                    n(*x1),
                    n(*y1),
                    n(*x2),
                    n(*y2),
                    color.hex(),
                    n(*width),
                    if *class == "win" { "round" } else { "square" }
                );
            }
            Item::Circle {
                cx,
                cy,
                r,
                fill,
                stroke,
                class,
            } => {
                let fill = fill.map_or("none".to_string(), |f| f.hex());
                let stroke = stroke.map_or(String::new(), |(c, w)| {
                    format!(" stroke=\"{}\" stroke-width=\"{}\"", c.hex(), n(w))
                });
                let _ = writeln!(
                    out,
                    "<circle class=\"{class}\" cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{fill}\"{stroke}/>",
                    n(*cx),
                    n(*cy),
                    n(*r)
                );
            }
            Item::Strokes {
                lines,
                width,
                color,
                class,
            } => {
                let mut d = String::new();
                for line in lines {
                    for (i, (x, y)) in line.iter().enumerate() {
                        d.push(if i == 0 { 'M' } else { 'L' });
                        let _ = write!(d, "{} {}", n(*x), n(*y));
                    }
                }
                let _ = writeln!(
                    out,
                    "<path class=\"{class}\" d=\"{d}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" stroke-linecap=\"round\" stroke-linejoin=\"round\"/>",
                    color.hex(),
                    n(*width)
                );
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
