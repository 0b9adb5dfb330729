//! A game as an animated GIF: one frame per move, each only the part of the
//! picture that changed, in one palette made from the theme's colours and
//! the blends antialiasing makes between them.

use std::collections::HashMap;

use gif::{DisposalMethod, Encoder, Frame, Repeat};

use super::{Diagram, Rgb, Style, raster};

/// The theme's colours and, for each pair, the shades between them.
fn palette(style: &Style) -> Vec<Rgb> {
    let c = style.theme.colors();
    let keys = [
        c.background,
        c.grid,
        c.black,
        c.black_edge,
        c.white,
        c.white_edge,
        c.mark,
        c.text,
    ];
    let mut keys: Vec<Rgb> = keys.to_vec();
    keys.dedup();
    keys.sort_by_key(|k| (k.0, k.1, k.2));
    keys.dedup();
    let mut colors = keys.clone();
    let pairs = keys.len() * (keys.len() - 1) / 2;
    let steps = ((256 - keys.len()) / pairs.max(1)).min(15);
    for (i, a) in keys.iter().enumerate() {
        for b in &keys[i + 1..] {
            for s in 1..=steps {
                let t = s as f32 / (steps + 1) as f32;
                let mix =
                    |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
                colors.push(Rgb(mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2)));
            }
        }
    }
    colors.truncate(256);
    colors
}

/// Maps pixels to the nearest palette entry, remembering the answers.
struct Quantizer {
    colors: Vec<Rgb>,
    known: HashMap<[u8; 3], u8>,
}

impl Quantizer {
    fn index(&mut self, p: [u8; 3]) -> u8 {
        if let Some(&i) = self.known.get(&p) {
            return i;
        }
        let distance = |c: &Rgb| {
            let d = |a: u8, b: u8| (i32::from(a) - i32::from(b)).pow(2);
            d(c.0, p[0]) + d(c.1, p[1]) + d(c.2, p[2])
        };
        let (i, _) = self
            .colors
            .iter()
            .enumerate()
            .min_by_key(|(_, c)| distance(c))
            .expect("a palette has colours");
        self.known.insert(p, i as u8);
        i as u8
    }
}

pub(super) fn animate(frames: &[Diagram], style: &Style, delay_ms: u32, hold_ms: u32) -> Vec<u8> {
    let colors = palette(style);
    let flat: Vec<u8> = colors.iter().flat_map(|c| [c.0, c.1, c.2]).collect();
    let mut quantizer = Quantizer {
        colors,
        known: HashMap::new(),
    };
    let mut out = Vec::new();
    let Some(first) = frames.first() else {
        return out;
    };
    let size = first.scene(style);
    let (width, height) = (size.width as u16, size.height as u16);
    {
        let mut encoder = Encoder::new(&mut out, width, height, &flat).expect("a GIF header");
        encoder
            .set_repeat(Repeat::Infinite)
            .expect("the loop extension");
        let mut previous: Option<Vec<u8>> = None;
        for (n, diagram) in frames.iter().enumerate() {
            let pixmap = raster::pixmap(&diagram.scene(style));
            let pixels = pixmap.data();
            let w = usize::from(width);
            // The rectangle that changed since the last frame.
            let (mut x0, mut y0, mut x1, mut y1) = (0, 0, w, usize::from(height));
            if let Some(before) = &previous {
                let (mut minx, mut miny, mut maxx, mut maxy) = (usize::MAX, usize::MAX, 0, 0);
                for y in 0..usize::from(height) {
                    let row = y * w * 4..(y + 1) * w * 4;
                    if before[row.clone()] == pixels[row.clone()] {
                        continue;
                    }
                    for x in 0..w {
                        let i = (y * w + x) * 4;
                        if before[i..i + 3] != pixels[i..i + 3] {
                            minx = minx.min(x);
                            maxx = maxx.max(x + 1);
                            miny = miny.min(y);
                            maxy = maxy.max(y + 1);
                        }
                    }
                }
                if minx == usize::MAX {
                    (x0, y0, x1, y1) = (0, 0, 1, 1);
                } else {
                    (x0, y0, x1, y1) = (minx, miny, maxx, maxy);
                }
            }
            let mut indices = Vec::with_capacity((x1 - x0) * (y1 - y0));
            for y in y0..y1 {
                for x in x0..x1 {
                    let i = (y * w + x) * 4;
                    indices.push(quantizer.index([pixels[i], pixels[i + 1], pixels[i + 2]]));
                }
            }
            let last = n + 1 == frames.len();
            let frame = Frame {
                left: x0 as u16,
                top: y0 as u16,
                width: (x1 - x0) as u16,
                height: (y1 - y0) as u16,
                buffer: std::borrow::Cow::Owned(indices),
                delay: (if last { hold_ms } else { delay_ms } / 10).min(u32::from(u16::MAX)) as u16,
                dispose: DisposalMethod::Keep,
                ..Frame::default()
            };
            encoder.write_frame(&frame).expect("a GIF frame");
            previous = Some(pixels.to_vec());
        }
    }
    out
}
