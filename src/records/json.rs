//! gobang's own record as JSON: the rules, the players, each move with its
//! thinking time, the result.

use serde::{Deserialize, Serialize};

use super::{
    Ending, GameRecord, ReadMove, ReadPoint, ReadRecord, RecordError, RecordResult, error,
    read_rules, rules_text,
};
use crate::rules::Color;

/// The JSON record.
#[derive(Debug, Serialize, Deserialize)]
pub struct JsonRecord {
    /// Always `gobang`.
    #[serde(default)]
    pub format: Option<String>,
    /// The rules as [`rules_text`] writes them: `renju opening=rif`.
    #[serde(default)]
    pub rules: Option<String>,
    #[serde(default)]
    pub width: Option<u8>,
    #[serde(default)]
    pub height: Option<u8>,
    #[serde(default)]
    pub black: Option<String>,
    #[serde(default)]
    pub white: Option<String>,
    pub moves: Vec<JsonMove>,
    #[serde(default)]
    pub result: Option<JsonResult>,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum JsonMove {
    Name(String),
    Full {
        at: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        thinking_ms: Option<i64>,
    },
}

#[derive(Debug, Serialize, Deserialize)]
pub struct JsonResult {
    /// `black`, `white`, or null for a draw.
    pub winner: Option<String>,
    /// `five`, `forbidden`, `resign`, `timeout`, `abandoned`, `draw_agreed`
    /// or `board_full`.
    pub reason: String,
}

const ENDINGS: [(Ending, &str); 7] = [
    (Ending::Five, "five"),
    (Ending::Forbidden, "forbidden"),
    (Ending::Resign, "resign"),
    (Ending::Timeout, "timeout"),
    (Ending::Abandoned, "abandoned"),
    (Ending::DrawAgreed, "draw_agreed"),
    (Ending::BoardFull, "board_full"),
];

pub(super) fn write(record: &GameRecord) -> String {
    let height = record.variant.height();
    let json = JsonRecord {
        format: Some("gobang".into()),
        rules: Some(rules_text(&record.variant, record.opening)),
        width: Some(record.variant.width()),
        height: Some(height),
        black: Some(record.black.clone()),
        white: Some(record.white.clone()),
        moves: record
            .moves
            .iter()
            .map(|m| JsonMove::Full {
                at: m.point.name(height).to_string(),
                thinking_ms: m.thinking_ms,
            })
            .collect(),
        result: record.result.map(|r| JsonResult {
            winner: r.winner.map(|c| c.as_str().to_string()),
            reason: ENDINGS
                .iter()
                .find(|(e, _)| *e == r.ending)
                .map_or("five", |(_, name)| name)
                .to_string(),
        }),
    };
    serde_json::to_string_pretty(&json).expect("a record serializes") + "\n"
}

pub(super) fn read(text: &str) -> Result<ReadRecord, RecordError> {
    let json: JsonRecord = match serde_json::from_str(text) {
        Ok(json) => json,
        Err(e) => return error(format!("JSON record: {e}")),
    };
    from_json(json)
}

/// A JSON record already parsed (as part of a request body).
pub fn from_json(json: JsonRecord) -> Result<ReadRecord, RecordError> {
    let mut record = ReadRecord {
        size: json.width.map(|w| (w, json.height.unwrap_or(w))),
        black: json.black,
        white: json.white,
        ..ReadRecord::default()
    };
    if let Some(rules) = &json.rules {
        read_rules(rules, &mut record);
    }
    for m in json.moves {
        let (at, thinking_ms) = match m {
            JsonMove::Name(at) => (at, None),
            JsonMove::Full { at, thinking_ms } => (at, thinking_ms),
        };
        record.moves.push(ReadMove {
            point: ReadPoint::Name(at.trim().to_ascii_lowercase()),
            thinking_ms,
        });
    }
    if let Some(result) = json.result {
        let winner = match result.winner.as_deref() {
            None => None,
            Some("black") => Some(Color::Black),
            Some("white") => Some(Color::White),
            Some(other) => {
                return error(format!(
                    "JSON record: winner {other:?} is not black, white or null"
                ));
            }
        };
        let Some(&(ending, _)) = ENDINGS.iter().find(|(_, name)| *name == result.reason) else {
            return error(format!(
                "JSON record: unknown result reason {:?}",
                result.reason
            ));
        };
        record.result = Some(RecordResult { winner, ending });
    }
    Ok(record)
}
