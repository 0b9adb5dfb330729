//! Piskvork's PSQ, as Gomocup's tools write and read it:
//!
//! ```text
//! Piskvorky 15x15, 0:0, 0
//! 8,8,1234
//! 9,7,3012
//! Alice
//! Bob
//! 0
//! ```
//!
//! The header gives the board, each player's computer level (0 for a
//! person) and who began (0: the first player, black); then one line per
//! move, `x,y,ms`, 1-based from the top-left; then the two players' names
//! and Piskvork's end code (0; 15 when a player ran out of time).

use super::{Ending, GameRecord, ReadMove, ReadPoint, ReadRecord, RecordError, error};

pub(super) fn write(record: &GameRecord) -> String {
    let v = &record.variant;
    let mut out = format!("Piskvorky {}x{}, 0:0, 0\n", v.width(), v.height());
    for m in &record.moves {
        out.push_str(&format!(
            "{},{},{}\n",
            m.point.x + 1,
            m.point.y + 1,
            m.thinking_ms.unwrap_or(0).max(0)
        ));
    }
    let name = |s: &str| s.replace(['\r', '\n'], " ");
    out.push_str(&format!(
        "{}\n{}\n",
        name(&record.black),
        name(&record.white)
    ));
    let code = match record.result {
        Some(r) if r.ending == Ending::Timeout => 15,
        _ => 0,
    };
    out.push_str(&format!("{code}\n"));
    out
}

pub(super) fn read(text: &str) -> Result<ReadRecord, RecordError> {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let header = lines.next().unwrap_or("");
    let Some(rest) = header.strip_prefix("Piskvorky ") else {
        return error("PSQ: the first line must be \"Piskvorky WxH, L1:L2, S\"");
    };
    let (size, rest) = rest.split_once(',').unwrap_or((rest, ""));
    let parsed = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.trim().parse::<u8>().ok()?, h.trim().parse::<u8>().ok()?)));
    let Some((width, height)) = parsed else {
        return error(format!("PSQ: {size:?} is not a board size like 15x15"));
    };
    // Who began: 1 means the second player did, so the names come swapped.
    let swapped = rest.rsplit(',').next().map(str::trim) == Some("1");
    let mut record = ReadRecord {
        size: Some((width, height)),
        ..ReadRecord::default()
    };
    let mut names = Vec::new();
    for line in lines {
        let fields: Vec<&str> = line.split(',').map(str::trim).collect();
        let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
        match numbers.as_deref() {
            Some([x, y]) | Some([x, y, _]) if names.is_empty() => {
                let n = record.moves.len() + 1;
                if *x < 1 || *y < 1 {
                    return error(format!(
                        "PSQ: move {n} ({line}) is off the board: points count from 1"
                    ));
                }
                record.moves.push(ReadMove {
                    point: ReadPoint::Xy(x - 1, y - 1),
                    thinking_ms: fields.get(2).and_then(|t| t.parse().ok()),
                });
            }
            // The end code (and anything numeric after the names).
            Some([_]) => {}
            _ => names.push(line.to_string()),
        }
    }
    let mut names = names.into_iter().map(|n| {
        let n = n.trim_start_matches("pbrain-");
        n.strip_suffix(".exe").unwrap_or(n).to_string()
    });
    let (first, second) = (names.next(), names.next());
    (record.black, record.white) = if swapped {
        (second, first)
    } else {
        (first, second)
    };
    Ok(record)
}
