//! Pictures of a board: SVG, PNG and an animated GIF of a whole game, drawn
//! from one scene so that every format shows the same thing. Pure and
//! synchronous (the server runs it off its async workers); depends on the
//! rules only.

mod font;
mod gif;
mod raster;
mod scene;
mod svg;

use std::fmt;
use std::str::FromStr;

use crate::rules::{Color, Point};

pub use scene::{Item, Scene};

/// Picture sizes allowed, in pixels (the longer side).
pub const SIZES: std::ops::RangeInclusive<u32> = 120..=2000;
/// Animation sizes allowed: every frame is drawn.
pub const GIF_SIZES: std::ops::RangeInclusive<u32> = 120..=800;

/// How a board looks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Theme {
    /// A wooden board, as in the original browser games.
    #[default]
    Wood,
    /// Black on white, for printing.
    Paper,
    Dark,
}

impl Theme {
    pub const ALL: [Theme; 3] = [Theme::Wood, Theme::Paper, Theme::Dark];

    pub const fn as_str(self) -> &'static str {
        match self {
            Theme::Wood => "wood",
            Theme::Paper => "paper",
            Theme::Dark => "dark",
        }
    }

    pub(crate) fn colors(self) -> Palette {
        match self {
            Theme::Wood => Palette {
                background: Rgb(0xdc, 0xb3, 0x5c),
                grid: Rgb(0x5b, 0x3f, 0x17),
                black: Rgb(0x15, 0x15, 0x15),
                black_edge: Rgb(0x00, 0x00, 0x00),
                white: Rgb(0xfb, 0xfb, 0xf8),
                white_edge: Rgb(0x33, 0x33, 0x33),
                mark: Rgb(0xd7, 0x26, 0x3d),
                text: Rgb(0x5b, 0x3f, 0x17),
            },
            Theme::Paper => Palette {
                background: Rgb(0xff, 0xff, 0xff),
                grid: Rgb(0x22, 0x22, 0x22),
                black: Rgb(0x00, 0x00, 0x00),
                black_edge: Rgb(0x00, 0x00, 0x00),
                white: Rgb(0xff, 0xff, 0xff),
                white_edge: Rgb(0x00, 0x00, 0x00),
                mark: Rgb(0xcc, 0x00, 0x00),
                text: Rgb(0x22, 0x22, 0x22),
            },
            Theme::Dark => Palette {
                background: Rgb(0x22, 0x26, 0x2b),
                grid: Rgb(0x6b, 0x71, 0x79),
                black: Rgb(0x0a, 0x0a, 0x0a),
                black_edge: Rgb(0x9a, 0xa0, 0xa8),
                white: Rgb(0xe8, 0xe8, 0xe8),
                white_edge: Rgb(0xe8, 0xe8, 0xe8),
                mark: Rgb(0xff, 0x5c, 0x5c),
                text: Rgb(0xb8, 0xbe, 0xc6),
            },
        }
    }
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Theme {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Theme::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("theme {s:?} is not one of wood, paper, dark"))
    }
}

/// An sRGB colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub fn hex(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// A theme's colours.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Palette {
    pub background: Rgb,
    pub grid: Rgb,
    pub black: Rgb,
    pub black_edge: Rgb,
    pub white: Rgb,
    pub white_edge: Rgb,
    /// The last move, the winning line, forbidden points.
    pub mark: Rgb,
    pub text: Rgb,
}

/// What a picture shows: a board at one moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub width: u8,
    pub height: u8,
    /// Tic-tac-toe is drawn as cells with X and O.
    pub cells: bool,
    /// The stones, in the order they were played.
    pub stones: Vec<(Point, Color)>,
    pub last: Option<Point>,
    /// The winning row, in order (empty when none).
    pub winning_line: Vec<Point>,
    /// Points marked as forbidden (renju, black to move).
    pub forbidden: Vec<Point>,
}

/// How to draw it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Style {
    /// The longer side, in pixels.
    pub size: u32,
    pub theme: Theme,
    /// Each stone numbered in the order played.
    pub numbers: bool,
}

impl Diagram {
    pub fn scene(&self, style: &Style) -> Scene {
        scene::build(self, style)
    }

    /// The picture as SVG.
    pub fn svg(&self, style: &Style) -> String {
        svg::write(&self.scene(style))
    }

    /// The picture as PNG.
    pub fn png(&self, style: &Style) -> Vec<u8> {
        raster::png(&self.scene(style))
    }
}

/// An animated GIF of `frames` (a game's diagrams, move by move): each
/// shown `delay_ms`, the last held for `hold_ms`.
pub fn animation(frames: &[Diagram], style: &Style, delay_ms: u32, hold_ms: u32) -> Vec<u8> {
    gif::animate(frames, style, delay_ms, hold_ms)
}
