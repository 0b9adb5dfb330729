//! A small stroke font for board coordinates and move numbers: the digits
//! and the lowercase letters drawn as polylines, so a picture looks the
//! same everywhere and needs no font file. Glyphs sit on a grid 3 (or 4)
//! units wide; digits and ascenders reach from 0 to the baseline at 6,
//! lowercase letters start at 2, descenders go to 8.

/// One glyph: its width and its strokes, each a list of points.
pub struct Glyph {
    pub width: f32,
    pub strokes: &'static [&'static [(f32, f32)]],
}

macro_rules! glyph {
    ($width:expr; $([$(($x:expr, $y:expr)),*]),*) => {
        Glyph { width: $width, strokes: &[$(&[$(($x as f32, $y as f32)),*]),*] }
    };
}

/// The glyph for `c`, if the font has one.
pub fn glyph(c: char) -> Option<&'static Glyph> {
    static A: Glyph = glyph!(3.; [(3, 5), (2, 6), (1, 6), (0, 5), (0, 3), (1, 2), (2, 2), (3, 3)], [(3, 2), (3, 6)]);
    static B: Glyph = glyph!(3.; [(0, 0), (0, 6)], [(0, 3), (1, 2), (2, 2), (3, 3), (3, 5), (2, 6), (1, 6), (0, 5)]);
    static C: Glyph = glyph!(3.; [(3, 3), (2, 2), (1, 2), (0, 3), (0, 5), (1, 6), (2, 6), (3, 5)]);
    static D: Glyph = glyph!(3.; [(3, 0), (3, 6)], [(3, 3), (2, 2), (1, 2), (0, 3), (0, 5), (1, 6), (2, 6), (3, 5)]);
    static E: Glyph =
        glyph!(3.; [(0, 4), (3, 4), (3, 3), (2, 2), (1, 2), (0, 3), (0, 5), (1, 6), (3, 6)]);
    static F: Glyph = glyph!(3.; [(3, 0), (2, 0), (1, 1), (1, 6)], [(0, 2), (2.5, 2)]);
    static G: Glyph = glyph!(3.; [(3, 3), (2, 2), (1, 2), (0, 3), (0, 4), (1, 5), (2, 5), (3, 4)], [(3, 2), (3, 7), (2, 8), (0.5, 8)]);
    static H: Glyph = glyph!(3.; [(0, 0), (0, 6)], [(0, 3), (1, 2), (2, 2), (3, 3), (3, 6)]);
    static I: Glyph = glyph!(1.; [(0.5, 2), (0.5, 6)], [(0.5, 0.4), (0.5, 0.8)]);
    static J: Glyph = glyph!(2.; [(2, 2), (2, 7), (1, 8), (0, 8)], [(2, 0.4), (2, 0.8)]);
    static K: Glyph = glyph!(3.; [(0, 0), (0, 6)], [(3, 2), (0, 4.5)], [(1.2, 3.6), (3, 6)]);
    static L: Glyph = glyph!(2.; [(0.5, 0), (0.5, 5), (1.5, 6)]);
    static M: Glyph = glyph!(4.; [(0, 6), (0, 2)], [(0, 3), (1, 2), (2, 3), (2, 6)], [(2, 3), (3, 2), (4, 3), (4, 6)]);
    static N: Glyph = glyph!(3.; [(0, 2), (0, 6)], [(0, 3), (1, 2), (2, 2), (3, 3), (3, 6)]);
    static O: Glyph =
        glyph!(3.; [(1, 2), (2, 2), (3, 3), (3, 5), (2, 6), (1, 6), (0, 5), (0, 3), (1, 2)]);
    static P: Glyph = glyph!(3.; [(0, 2), (0, 8)], [(0, 3), (1, 2), (2, 2), (3, 3), (3, 5), (2, 6), (1, 6), (0, 5)]);
    static Q: Glyph = glyph!(3.; [(3, 2), (3, 8)], [(3, 3), (2, 2), (1, 2), (0, 3), (0, 5), (1, 6), (2, 6), (3, 5)]);
    static R: Glyph = glyph!(3.; [(0, 2), (0, 6)], [(0, 4), (1, 2.5), (2, 2), (3, 2)]);
    static S: Glyph = glyph!(3.; [(3, 2.5), (2, 2), (1, 2), (0, 3), (1, 4), (2, 4), (3, 5), (2, 6), (1, 6), (0, 5.5)]);
    static T: Glyph = glyph!(3.; [(1, 0), (1, 5), (2, 6), (3, 6)], [(0, 2), (3, 2)]);
    static U: Glyph = glyph!(3.; [(0, 2), (0, 5), (1, 6), (2, 6), (3, 5)], [(3, 2), (3, 6)]);
    static V: Glyph = glyph!(3.; [(0, 2), (1.5, 6), (3, 2)]);
    static W: Glyph = glyph!(4.; [(0, 2), (1, 6), (2, 3), (3, 6), (4, 2)]);
    static X: Glyph = glyph!(3.; [(0, 2), (3, 6)], [(3, 2), (0, 6)]);
    static Y: Glyph = glyph!(3.; [(0, 2), (1.5, 6)], [(3, 2), (1.5, 6), (0.8, 8)]);
    static Z: Glyph = glyph!(3.; [(0, 2), (3, 2), (0, 6), (3, 6)]);
    static D0: Glyph =
        glyph!(3.; [(1, 0), (2, 0), (3, 1), (3, 5), (2, 6), (1, 6), (0, 5), (0, 1), (1, 0)]);
    static D1: Glyph = glyph!(3.; [(0.5, 1), (1.5, 0), (1.5, 6)], [(0.5, 6), (2.5, 6)]);
    static D2: Glyph = glyph!(3.; [(0, 1), (1, 0), (2, 0), (3, 1), (3, 2), (0, 6), (3, 6)]);
    static D3: Glyph = glyph!(3.; [(0, 0.5), (1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3)], [(2, 3), (3, 4), (3, 5), (2, 6), (1, 6), (0, 5.5)]);
    static D4: Glyph = glyph!(3.; [(2.5, 6), (2.5, 0), (0, 4), (3, 4)]);
    static D5: Glyph =
        glyph!(3.; [(3, 0), (0, 0), (0, 3), (2, 2.5), (3, 3.5), (3, 5), (2, 6), (1, 6), (0, 5.5)]);
    static D6: Glyph = glyph!(3.; [(3, 0.5), (2, 0), (1, 0), (0, 1), (0, 5), (1, 6), (2, 6), (3, 5), (3, 4), (2, 3), (1, 3), (0, 4)]);
    static D7: Glyph = glyph!(3.; [(0, 0), (3, 0), (1, 6)]);
    static D8: Glyph = glyph!(3.; [(1, 0), (2, 0), (3, 1), (3, 2), (2, 3), (1, 3), (0, 2), (0, 1), (1, 0)], [(1, 3), (0, 4), (0, 5), (1, 6), (2, 6), (3, 5), (3, 4), (2, 3)]);
    static D9: Glyph = glyph!(3.; [(3, 2), (2, 3), (1, 3), (0, 2), (0, 1), (1, 0), (2, 0), (3, 1), (3, 5), (2, 6), (1, 6), (0, 5.5)]);
    static LETTERS: [&Glyph; 26] = [
        &A, &B, &C, &D, &E, &F, &G, &H, &I, &J, &K, &L, &M, &N, &O, &P, &Q, &R, &S, &T, &U, &V, &W,
        &X, &Y, &Z,
    ];
    static DIGITS: [&Glyph; 10] = [&D0, &D1, &D2, &D3, &D4, &D5, &D6, &D7, &D8, &D9];
    match c {
        'a'..='z' => Some(LETTERS[c as usize - 'a' as usize]),
        '0'..='9' => Some(DIGITS[c as usize - '0' as usize]),
        _ => None,
    }
}

/// Space between glyphs, in grid units.
pub const SPACING: f32 = 1.0;

/// The width of `text` in grid units.
pub fn width(text: &str) -> f32 {
    let glyphs: Vec<&Glyph> = text.chars().filter_map(glyph).collect();
    let total: f32 = glyphs.iter().map(|g| g.width).sum();
    total + SPACING * glyphs.len().saturating_sub(1) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_coordinate_and_digit_has_a_glyph_inside_its_box() {
        for c in ('a'..='z').chain('0'..='9') {
            let g = glyph(c).unwrap_or_else(|| panic!("{c} has no glyph"));
            for stroke in g.strokes {
                assert!(stroke.len() >= 2, "{c}");
                for &(x, y) in *stroke {
                    assert!(
                        (0.0..=g.width).contains(&x) && (0.0..=8.0).contains(&y),
                        "{c}: ({x}, {y})"
                    );
                }
            }
        }
        assert_eq!(width("15"), 7.0);
    }
}
