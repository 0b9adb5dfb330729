//! Game records in the formats the five-in-a-row world uses: SGF (FF[4],
//! GM[4]), Piskvork's PSQ, a plain move list, and gobang's own JSON. Writing
//! a record and reading one back; replaying it through the rules is the
//! service's job. Depends on the rules only.

mod json;
mod moves;
mod psq;
mod sgf;

use std::fmt;
use std::str::FromStr;

use chrono::NaiveDate;

use crate::rules::{Color, ForbiddenPolicy, OpeningRule, Point, RuleSet, Variant, VariantSpec};

pub use json::{JsonRecord, from_json};

/// The largest record accepted for reading, in bytes.
pub const MAX_RECORD_BYTES: usize = 64 * 1024;

/// A record format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Sgf,
    Psq,
    /// `h8 i9 j10 …`
    Moves,
    Json,
}

impl Format {
    pub const ALL: [Format; 4] = [Format::Sgf, Format::Psq, Format::Moves, Format::Json];

    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Sgf => "sgf",
            Format::Psq => "psq",
            Format::Moves => "moves",
            Format::Json => "json",
        }
    }

    pub const fn extension(self) -> &'static str {
        match self {
            Format::Moves => "txt",
            other => other.as_str(),
        }
    }

    pub const fn content_type(self) -> &'static str {
        match self {
            Format::Sgf => "application/x-go-sgf",
            Format::Psq => "application/x-piskvork-psq",
            Format::Moves => "text/plain; charset=utf-8",
            Format::Json => "application/json",
        }
    }

    /// The format a media type names, if any.
    pub fn from_media_type(media: &str) -> Option<Format> {
        let media = media
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        match media.as_str() {
            "application/x-go-sgf" | "application/sgf" | "application/x-sgf" => Some(Format::Sgf),
            "application/x-piskvork-psq" | "application/x-psq" => Some(Format::Psq),
            "text/plain" => Some(Format::Moves),
            "application/json" => Some(Format::Json),
            _ => None,
        }
    }

    /// The format of a file, from its first characters.
    pub fn sniff(text: &str) -> Format {
        let start = text.trim_start_matches('\u{feff}').trim_start();
        if start.starts_with('(') {
            Format::Sgf
        } else if start.starts_with("Piskvorky") {
            Format::Psq
        } else if start.starts_with('{') {
            Format::Json
        } else {
            Format::Moves
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Format::ALL
            .into_iter()
            .find(|f| f.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("unknown record format {s:?}: use sgf, psq, moves or json"))
    }
}

/// How a recorded game ended, as records can say it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Five,
    /// Black lost by playing a forbidden point.
    Forbidden,
    Resign,
    Timeout,
    /// The loser walked away (SGF's forfeit).
    Abandoned,
    DrawAgreed,
    BoardFull,
}

/// A finished game's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordResult {
    /// `None` for a draw.
    pub winner: Option<Color>,
    pub ending: Ending,
}

/// One move of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub point: Point,
    /// Thinking time, when the record keeps it.
    pub thinking_ms: Option<i64>,
}

/// A game as a record carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub variant: Variant,
    pub opening: OpeningRule,
    pub black: String,
    pub white: String,
    pub moves: Vec<RecordMove>,
    pub result: Option<RecordResult>,
    pub date: Option<NaiveDate>,
}

impl GameRecord {
    /// The record written in `format`.
    pub fn write(&self, format: Format) -> String {
        match format {
            Format::Sgf => sgf::write(self),
            Format::Psq => psq::write(self),
            Format::Moves => moves::write(self),
            Format::Json => json::write(self),
        }
    }
}

/// What a record file says, before the rules have seen it: anything it does
/// not say is left for the reader's caller to decide.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ReadRecord {
    /// Width and height, when the file gives them.
    pub size: Option<(u8, u8)>,
    pub rules: Option<RuleSet>,
    /// The rules' options the file gives (k, overlines, renju's policy).
    pub spec: VariantSpec,
    pub opening: Option<OpeningRule>,
    pub black: Option<String>,
    pub white: Option<String>,
    /// Points as `(x, y)` from the top-left, not yet checked against a board
    /// (a move list names points only once the board's size is known, so it
    /// keeps the names).
    pub moves: Vec<ReadMove>,
    pub result: Option<RecordResult>,
}

/// A move as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadPoint {
    Xy(i64, i64),
    Name(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadMove {
    pub point: ReadPoint,
    pub thinking_ms: Option<i64>,
}

/// Why a record cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

fn error<T>(message: impl Into<String>) -> Result<T, RecordError> {
    Err(RecordError(message.into()))
}

/// Reads a record in `format`.
pub fn read(text: &str, format: Format) -> Result<ReadRecord, RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return error(format!(
            "the file is {} bytes; records of at most {MAX_RECORD_BYTES} bytes are read",
            text.len()
        ));
    }
    let text = text.trim_start_matches('\u{feff}');
    match format {
        Format::Sgf => sgf::read(text),
        Format::Psq => psq::read(text),
        Format::Moves => moves::read(text),
        Format::Json => json::read(text),
    }
}

/// The rules as records name them: `renju`, `renju lose opening=rif`,
/// `custom 7x6 k=4 overline`, … (gobang's own names, read back exactly;
/// [`read_rules`] also understands what other programs write).
pub fn rules_text(variant: &Variant, opening: OpeningRule) -> String {
    let mut text = variant.rule_set().as_str().to_string();
    if variant.rule_set() == RuleSet::Custom {
        text.push_str(&format!(" k={}", variant.k()));
        if variant.overline_wins_for_both() {
            text.push_str(" overline");
        }
    }
    if variant.forbidden_policy() == Some(ForbiddenPolicy::Lose) {
        text.push_str(" lose");
    }
    if opening != OpeningRule::Free {
        text.push_str(&format!(" opening={}", opening.as_str()));
    }
    text
}

/// The rule set, options and opening rule a rules text names, as far as it
/// names them. Unknown words are ignored: other programs write free text.
pub fn read_rules(text: &str, record: &mut ReadRecord) {
    let lower = text.to_ascii_lowercase();
    for word in lower.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        if let Ok(rules) = word.parse::<RuleSet>() {
            record.rules.get_or_insert(rules);
        } else if let Some(k) = word.strip_prefix("k=").and_then(|k| k.parse().ok()) {
            record.spec.k = Some(k);
        } else if word == "overline" {
            record.spec.overline_wins = Some(true);
        } else if word == "lose" {
            record.spec.forbidden = Some(ForbiddenPolicy::Lose);
        } else if let Some(rule) = word.strip_prefix("opening=").and_then(|r| r.parse().ok()) {
            record.opening = Some(rule);
        } else if let Ok(rule @ (OpeningRule::Rif | OpeningRule::Yamaguchi)) = word.parse() {
            // "RIF", "Yamaguchi": renju servers name the opening rule alone.
            record.opening.get_or_insert(rule);
            record.rules.get_or_insert(RuleSet::Renju);
        } else if let Ok(rule @ (OpeningRule::Swap2 | OpeningRule::Swap1)) = word.parse() {
            record.opening.get_or_insert(rule);
        } else if word == "gomoku" || word == "free" {
            record.rules.get_or_insert(RuleSet::Freestyle);
        } else if word == "exactly" || word == "exact" {
            record.rules.get_or_insert(RuleSet::Standard);
        } else if word == "tic-tac-toe" {
            record.rules.get_or_insert(RuleSet::TicTacToe);
        }
    }
}

/// A record's file name: what the game was, who played, when.
pub fn file_name(record: &GameRecord, format: Format) -> String {
    let clean = |s: &str| {
        let kept: String = s
            .chars()
            .map(|c| if c.is_alphanumeric() { c } else { '_' })
            .collect();
        let kept = kept.trim_matches('_').to_string();
        if kept.is_empty() {
            "player".into()
        } else {
            kept
        }
    };
    let date = record
        .date
        .map(|d| format!("-{}", d.format("%Y-%m-%d")))
        .unwrap_or_default();
    format!(
        "gobang-{}-{}-vs-{}{date}.{}",
        record.variant.rule_set().as_str(),
        clean(&record.black),
        clean(&record.white),
        format.extension()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_are_sniffed_from_the_first_characters() {
        assert_eq!(Format::sniff("\u{feff}(;FF[4]"), Format::Sgf);
        assert_eq!(Format::sniff("Piskvorky 20x20, 0:0, 0"), Format::Psq);
        assert_eq!(Format::sniff(" {\"moves\": []}"), Format::Json);
        assert_eq!(Format::sniff("h8 i9"), Format::Moves);
    }

    #[test]
    fn rules_texts_read_back_to_the_same_rules() {
        let cases = [
            (Variant::renju(ForbiddenPolicy::Lose), OpeningRule::Rif),
            (Variant::custom(7, 6, 4, true).unwrap(), OpeningRule::Free),
            (Variant::standard(19).unwrap(), OpeningRule::Swap2),
            (Variant::tictactoe(), OpeningRule::Free),
        ];
        for (variant, opening) in cases {
            let text = rules_text(&variant, opening);
            let mut read = ReadRecord::default();
            read_rules(&text, &mut read);
            assert_eq!(read.rules, Some(variant.rule_set()), "{text}");
            assert_eq!(read.opening.unwrap_or_default(), opening, "{text}");
        }
        let mut orc = ReadRecord::default();
        read_rules("PlayerA-PlayerB(B) : RIF rule", &mut orc);
        assert_eq!(orc.rules, Some(RuleSet::Renju));
        assert_eq!(orc.opening, Some(OpeningRule::Rif));
    }
}
