//! A plain move list: `h8 i9 j10 …`, separated by spaces, commas or lines;
//! move numbers (`1.`) are skipped.

use super::{GameRecord, ReadMove, ReadPoint, ReadRecord, RecordError, error};

pub(super) fn write(record: &GameRecord) -> String {
    let height = record.variant.height();
    let mut out: Vec<String> = record
        .moves
        .iter()
        .map(|m| m.point.name(height).to_string())
        .collect();
    out.push(String::new());
    out.join(" ").trim_end().to_string() + "\n"
}

pub(super) fn read(text: &str) -> Result<ReadRecord, RecordError> {
    let mut record = ReadRecord::default();
    for word in text.split(|c: char| c.is_whitespace() || c == ',' || c == ';') {
        let word = word.trim();
        if word.is_empty()
            || (word.ends_with('.') && word[..word.len() - 1].chars().all(|c| c.is_ascii_digit()))
        {
            continue;
        }
        if !word.starts_with(|c: char| c.is_ascii_alphabetic()) || word.len() > 4 {
            return error(format!(
                "move {}: {word:?} is not a point like h8",
                record.moves.len() + 1
            ));
        }
        record.moves.push(ReadMove {
            point: ReadPoint::Name(word.to_ascii_lowercase()),
            thinking_ms: None,
        });
    }
    Ok(record)
}
