//! The picture as shapes, in pixels: what SVG writes and the rasteriser
//! fills.

use super::font;
use super::{Diagram, Rgb, Style};
use crate::rules::{Color, Point};

/// One shape.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    Rect {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        fill: Rgb,
    },
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        color: Rgb,
        class: &'static str,
    },
    Circle {
        cx: f32,
        cy: f32,
        r: f32,
        fill: Option<Rgb>,
        stroke: Option<(Rgb, f32)>,
        class: &'static str,
    },
    /// Strokes of text or of marks: polylines, drawn with round ends.
    Strokes {
        lines: Vec<Vec<(f32, f32)>>,
        width: f32,
        color: Rgb,
        class: &'static str,
    },
}

/// The picture: its size and its shapes, back to front.
#[derive(Clone, Debug, PartialEq)]
pub struct Scene {
    pub width: u32,
    pub height: u32,
    pub items: Vec<Item>,
    /// What it shows, in words (SVG's title).
    pub title: String,
}

/// Star points for common square sizes.
fn stars(w: u8, h: u8) -> Vec<(u8, u8)> {
    if w != h || w < 9 {
        return Vec::new();
    }
    let edge = if w >= 13 { 3 } else { 2 };
    let far = w - 1 - edge;
    let mut list = vec![(edge, edge), (edge, far), (far, edge), (far, far)];
    if w % 2 == 1 {
        list.push(((w - 1) / 2, (w - 1) / 2));
    }
    list
}

/// An X of half-size `r` centred on (cx, cy).
fn cross(cx: f32, cy: f32, r: f32) -> Vec<Vec<(f32, f32)>> {
    vec![
        vec![(cx - r, cy - r), (cx + r, cy + r)],
        vec![(cx + r, cy - r), (cx - r, cy + r)],
    ]
}

/// `text` centred on (cx, cy), `size` pixels tall for a digit.
fn text(text: &str, cx: f32, cy: f32, size: f32) -> (Vec<Vec<(f32, f32)>>, f32) {
    let unit = size / 6.0;
    let mut x = cx - font::width(text) * unit / 2.0;
    let top = cy - size / 2.0;
    let mut lines = Vec::new();
    for g in text.chars().filter_map(font::glyph) {
        for stroke in g.strokes {
            lines.push(
                stroke
                    .iter()
                    .map(|&(gx, gy)| (x + gx * unit, top + gy * unit))
                    .collect(),
            );
        }
        x += (g.width + font::SPACING) * unit;
    }
    (lines, (unit * 0.75).max(1.0))
}

pub(super) fn build(d: &Diagram, style: &Style) -> Scene {
    let colors = style.theme.colors();
    let (w, h) = (f32::from(d.width), f32::from(d.height));
    // Cells of the picture: the board's spans plus a margin for coordinates.
    let margin = if d.cells { 1.0 } else { 1.3 };
    let span_w = if d.cells { w } else { w - 1.0 } + 2.0 * margin;
    let span_h = if d.cells { h } else { h - 1.0 } + 2.0 * margin;
    let cell = style.size as f32 / span_w.max(span_h);
    let width = (span_w * cell).round() as u32;
    let height = (span_h * cell).round() as u32;
    // The centre of point (x, y).
    let offset = if d.cells { margin + 0.5 } else { margin };
    let px = |i: u8| (offset + f32::from(i)) * cell;
    let mut items = vec![Item::Rect {
        x: 0.0,
        y: 0.0,
        w: width as f32,
        h: height as f32,
        fill: colors.background,
    }];
    let line_width = (cell * 0.035).max(1.0);
    let grid = |items: &mut Vec<Item>, x1, y1, x2, y2, width| {
        items.push(Item::Line {
            x1,
            y1,
            x2,
            y2,
            width,
            color: colors.grid,
            class: "grid",
        });
    };
    if d.cells {
        let (left, top) = (margin * cell, margin * cell);
        let (right, bottom) = (left + w * cell, top + h * cell);
        for i in 1..d.width {
            let x = left + f32::from(i) * cell;
            grid(&mut items, x, top, x, bottom, line_width * 2.5);
        }
        for j in 1..d.height {
            let y = top + f32::from(j) * cell;
            grid(&mut items, left, y, right, y, line_width * 2.5);
        }
    } else {
        for i in 0..d.width {
            grid(
                &mut items,
                px(i),
                px(0),
                px(i),
                px(d.height - 1),
                line_width,
            );
        }
        for j in 0..d.height {
            grid(&mut items, px(0), px(j), px(d.width - 1), px(j), line_width);
        }
        for (x, y) in stars(d.width, d.height) {
            items.push(Item::Circle {
                cx: px(x),
                cy: px(y),
                r: cell * 0.09,
                fill: Some(colors.grid),
                stroke: None,
                class: "star",
            });
        }
    }
    // Coordinates: letters below, numbers to the left (row 1 at the bottom).
    let label = cell * 0.36;
    let mut coords = Vec::new();
    let mut coord_width = 1.0f32;
    for i in 0..d.width {
        let name = ((b'a' + i) as char).to_string();
        let y = px(d.height - 1) + if d.cells { 0.9 } else { 0.85 } * cell;
        let (lines, stroke) = text(&name, px(i), y, label);
        coords.extend(lines);
        coord_width = stroke;
    }
    for j in 0..d.height {
        let name = (d.height - j).to_string();
        let x = px(0) - if d.cells { 0.9 } else { 0.85 } * cell;
        coords.extend(text(&name, x, px(j), label).0);
    }
    items.push(Item::Strokes {
        lines: coords,
        width: coord_width * 0.9,
        color: colors.text,
        class: "coords",
    });

    let winning: Vec<Point> = d.winning_line.clone();
    let numbered = style.numbers;
    for (n, &(p, color)) in d.stones.iter().enumerate() {
        let (cx, cy) = (px(p.x), px(p.y));
        let win = winning.contains(&p);
        if d.cells {
            let r = cell * 0.3;
            if color == Color::Black {
                items.push(Item::Strokes {
                    lines: cross(cx, cy, r),
                    width: cell * 0.12,
                    color: if win { colors.mark } else { colors.black },
                    class: "stone black",
                });
            } else {
                items.push(Item::Circle {
                    cx,
                    cy,
                    r,
                    fill: None,
                    stroke: Some((
                        if win { colors.mark } else { colors.white_edge },
                        cell * 0.11,
                    )),
                    class: "stone white",
                });
            }
            continue;
        }
        let (fill, edge) = match color {
            Color::Black => (colors.black, colors.black_edge),
            Color::White => (colors.white, colors.white_edge),
        };
        items.push(Item::Circle {
            cx,
            cy,
            r: cell * 0.46,
            fill: Some(fill),
            stroke: Some(if win {
                (colors.mark, cell * 0.07)
            } else {
                (edge, (cell * 0.03).max(1.0))
            }),
            class: if color == Color::Black {
                "stone black"
            } else {
                "stone white"
            },
        });
        if numbered {
            let number = (n + 1).to_string();
            let size = cell * 0.38 * (2.0 / number.len().max(2) as f32);
            let (lines, stroke) = text(&number, cx, cy, size);
            let ink = if color == Color::Black {
                colors.white
            } else {
                colors.black
            };
            items.push(Item::Strokes {
                lines,
                width: stroke,
                color: ink,
                class: "number",
            });
        }
    }
    if let Some(p) = d.last {
        let (cx, cy) = (px(p.x), px(p.y));
        items.push(if numbered || d.cells {
            Item::Circle {
                cx,
                cy,
                r: cell * 0.5,
                fill: None,
                stroke: Some((colors.mark, cell * 0.05)),
                class: "last",
            }
        } else {
            Item::Circle {
                cx,
                cy,
                r: cell * 0.12,
                fill: Some(colors.mark),
                stroke: None,
                class: "last",
            }
        });
    }
    if let (Some(first), Some(last)) = (winning.first(), winning.last()) {
        items.push(Item::Line {
            x1: px(first.x),
            y1: px(first.y),
            x2: px(last.x),
            y2: px(last.y),
            width: cell * 0.1,
            color: colors.mark,
            class: "win",
        });
    }
    for p in &d.forbidden {
        let (cx, cy) = (px(p.x), px(p.y));
        let r = cell * 0.2;
        items.push(Item::Strokes {
            lines: cross(cx, cy, r),
            width: cell * 0.07,
            color: colors.mark,
            class: "forbidden",
        });
    }
    let title = format!(
        "A {}×{} board with {} stones{}",
        d.width,
        d.height,
        d.stones.len(),
        d.last
            .map(|p| format!(", the last at {}", p.name(d.height)))
            .unwrap_or_default()
    );
    Scene {
        width,
        height,
        items,
        title,
    }
}
