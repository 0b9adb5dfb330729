//! SGF, FF[4], game 4 (five-in-a-row): `(;FF[4]GM[4]SZ[15]…;B[hh];W[ig]…)`.
//! Points are two letters, column then row, from the top-left; renju
//! servers write GM[5] for the same records, which is read too.

use super::{
    Ending, GameRecord, ReadMove, ReadPoint, ReadRecord, RecordError, RecordResult, error,
    read_rules, rules_text,
};
use crate::rules::Color;

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace(']', "\\]")
}

fn letter(i: u8) -> char {
    (b'a' + i) as char
}

fn result_text(result: &RecordResult) -> String {
    let Some(winner) = result.winner else {
        return "0".into();
    };
    let side = if winner == Color::Black { 'B' } else { 'W' };
    let how = match result.ending {
        Ending::Resign => "R",
        Ending::Timeout => "T",
        Ending::Abandoned | Ending::Forbidden => "F",
        Ending::Five | Ending::DrawAgreed | Ending::BoardFull => "",
    };
    format!("{side}+{how}")
}

pub(super) fn write(record: &GameRecord) -> String {
    let v = &record.variant;
    let size = if v.width() == v.height() {
        v.width().to_string()
    } else {
        format!("{}:{}", v.width(), v.height())
    };
    let mut out = format!(
        "(;FF[4]GM[4]CA[UTF-8]AP[gobang:{}]SZ[{size}]RU[{}]GN[{}]PB[{}]PW[{}]",
        env!("CARGO_PKG_VERSION"),
        rules_text(v, record.opening),
        escape(&format!(
            "gobang {}: {} vs {}",
            v.rule_set().as_str(),
            record.black,
            record.white
        )),
        escape(&record.black),
        escape(&record.white),
    );
    if let Some(date) = record.date {
        out.push_str(&format!("DT[{}]", date.format("%Y-%m-%d")));
    }
    if let Some(result) = &record.result {
        out.push_str(&format!("RE[{}]", result_text(result)));
    }
    for (n, m) in record.moves.iter().enumerate() {
        if n % 10 == 0 {
            out.push('\n');
        }
        let side = if n % 2 == 0 { 'B' } else { 'W' };
        out.push_str(&format!(
            ";{side}[{}{}]",
            letter(m.point.x),
            letter(m.point.y)
        ));
        if let Some(ms) = m.thinking_ms {
            out.push_str(&format!("C[{}.{:03} s]", ms / 1000, ms % 1000));
        }
    }
    out.push_str(")\n");
    out
}

/// A node: its properties in order, each with its values.
type Node = Vec<(String, Vec<String>)>;

struct Parser<'a> {
    chars: std::iter::Peekable<std::str::CharIndices<'a>>,
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.chars.next_if(|(_, c)| c.is_whitespace()).is_some() {}
    }

    fn expect(&mut self, want: char) -> Result<(), RecordError> {
        self.skip_space();
        match self.chars.next() {
            Some((_, c)) if c == want => Ok(()),
            Some((at, c)) => error(format!("SGF: expected '{want}' at byte {at}, found '{c}'")),
            None => error(format!("SGF: the file ends where '{want}' was expected")),
        }
    }

    fn value(&mut self) -> Result<String, RecordError> {
        let mut value = String::new();
        loop {
            match self.chars.next() {
                Some((_, '\\')) => match self.chars.next() {
                    // A soft line break.
                    Some((_, '\n')) => {}
                    Some((_, c)) => value.push(c),
                    None => break,
                },
                Some((_, ']')) => return Ok(value),
                Some((_, c)) => value.push(c),
                None => break,
            }
        }
        error("SGF: a property value is not closed with ']'")
    }

    fn node(&mut self) -> Result<Node, RecordError> {
        let mut node = Node::new();
        loop {
            self.skip_space();
            let Some(&(at, c)) = self.chars.peek() else {
                return Ok(node);
            };
            // Identifiers are capitals; FF[3] allowed lowercase letters
            // inside them, and renju servers write digits (`5A`).
            if !c.is_ascii_alphanumeric() {
                return Ok(node);
            }
            let mut id = String::new();
            while let Some((_, c)) = self.chars.next_if(|(_, c)| c.is_ascii_alphanumeric()) {
                if !c.is_ascii_lowercase() {
                    id.push(c);
                }
            }
            let mut values = Vec::new();
            loop {
                self.skip_space();
                if self.chars.next_if(|(_, c)| *c == '[').is_none() {
                    break;
                }
                values.push(self.value()?);
            }
            if values.is_empty() {
                return error(format!("SGF: property {id} at byte {at} has no value"));
            }
            node.push((id, values));
        }
    }

    /// A game tree's main line: its own nodes, then its first variation's.
    fn main_line(&mut self, depth: usize) -> Result<Vec<Node>, RecordError> {
        if depth > 1000 {
            return error("SGF: variations nested too deep");
        }
        self.expect('(')?;
        let mut nodes = Vec::new();
        loop {
            self.skip_space();
            match self.chars.peek() {
                Some((_, ';')) => {
                    self.chars.next();
                    nodes.push(self.node()?);
                }
                Some((_, '(')) => {
                    nodes.extend(self.main_line(depth + 1)?);
                    // Later variations are skipped.
                    self.skip_space();
                    while self.chars.peek().is_some_and(|(_, c)| *c == '(') {
                        self.main_line(depth + 1)?;
                        self.skip_space();
                    }
                    self.expect(')')?;
                    return Ok(nodes);
                }
                Some((_, ')')) => {
                    self.chars.next();
                    return Ok(nodes);
                }
                Some(&(at, c)) => return error(format!("SGF: unexpected '{c}' at byte {at}")),
                None => return error("SGF: the game tree is not closed with ')'"),
            }
        }
    }
}

fn read_result(text: &str) -> Option<RecordResult> {
    let text = text.trim();
    let draw = RecordResult {
        winner: None,
        ending: Ending::DrawAgreed,
    };
    if text == "0" || text.eq_ignore_ascii_case("draw") || text.eq_ignore_ascii_case("jigo") {
        return Some(draw);
    }
    let (side, how) = text.split_once('+')?;
    let winner = match side.to_ascii_uppercase().as_str() {
        "B" => Color::Black,
        "W" => Color::White,
        _ => return None,
    };
    let ending = match how.chars().next().map(|c| c.to_ascii_uppercase()) {
        Some('R') => Ending::Resign,
        Some('T') => Ending::Timeout,
        Some('F') => Ending::Abandoned,
        _ => Ending::Five,
    };
    Some(RecordResult {
        winner: Some(winner),
        ending,
    })
}

fn thinking(comment: &str) -> Option<i64> {
    let seconds: f64 = comment.trim().strip_suffix(" s")?.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| (seconds * 1000.0).round() as i64)
}

pub(super) fn read(text: &str) -> Result<ReadRecord, RecordError> {
    let mut parser = Parser {
        chars: text.char_indices().peekable(),
    };
    let nodes = parser.main_line(0)?;
    let mut record = ReadRecord::default();
    let mut next = Color::Black;
    for node in &nodes {
        for (id, values) in node {
            let first = values[0].as_str();
            match id.as_str() {
                "GM" if !matches!(first.trim(), "4" | "5") => {
                    return error(format!(
                        "SGF: GM[{first}] is another game; five-in-a-row records are GM[4]"
                    ));
                }
                "SZ" => {
                    let (w, h) = first.split_once(':').unwrap_or((first, first));
                    match (w.trim().parse::<u8>(), h.trim().parse::<u8>()) {
                        (Ok(w), Ok(h)) => record.size = Some((w, h)),
                        _ => return error(format!("SGF: SZ[{first}] is not a board size")),
                    }
                }
                "RU" | "GN" => read_rules(first, &mut record),
                "PB" => record.black = Some(first.trim().to_string()),
                "PW" => record.white = Some(first.trim().to_string()),
                "RE" => record.result = read_result(first),
                "AB" | "AW" | "AE" => {
                    return error(format!(
                        "SGF: setup stones ({id}) are not supported: the record must be moves, B and W in turn"
                    ));
                }
                "B" | "W" => {
                    let n = record.moves.len() + 1;
                    let color = if id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if color != next {
                        return error(format!("SGF: move {n} is {color}'s, but {next} is to move"));
                    }
                    let bytes = first.trim().as_bytes();
                    let point = match bytes {
                        [x @ b'a'..=b'z', y @ b'a'..=b'z'] => {
                            ReadPoint::Xy(i64::from(x - b'a'), i64::from(y - b'a'))
                        }
                        [] => {
                            return error(format!(
                                "SGF: move {n} is a pass; five-in-a-row has none"
                            ));
                        }
                        _ => return error(format!("SGF: move {n}, {id}[{first}], is not a point")),
                    };
                    record.moves.push(ReadMove {
                        point,
                        thinking_ms: None,
                    });
                    next = next.opponent();
                }
                "C" => {
                    if let (Some(ms), Some(last)) = (thinking(first), record.moves.last_mut()) {
                        last.thinking_ms = Some(ms);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(record)
}
