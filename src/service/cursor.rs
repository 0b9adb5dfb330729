//! Paging cursors: the sort key and id of the last row of a page,
//! `<key>.<id>` (e.g. `1700000000000000.g_5kq2…`). Clients pass them back
//! as they got them; the form is in the API's document (a pattern on each
//! `cursor` parameter) so that any cursor a client can write is one the
//! server can read.

use super::error::{Result, ServiceError};

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cursor that continues after the row with `key` and `id`.
pub(super) fn encode(key: i64, id: &str) -> String {
    format!("{key}.{id}")
}

/// The key and id a cursor continues after.
pub(super) fn decode(cursor: &str) -> Result<(i64, String)> {
    let bad = || {
        ServiceError::Validation(
            "cursor must be a next_cursor this server returned (<number>.<id>): start again without it".into(),
        )
    };
    let (key, id) = cursor.split_once('.').ok_or_else(bad)?;
    let digits = key.strip_prefix('-').unwrap_or(key);
    let id_ok = (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !(1..=18).contains(&digits.len()) || !digits.bytes().all(|b| b.is_ascii_digit()) || !id_ok {
        return Err(bad());
    }
    Ok((key.parse().map_err(|_| bad())?, id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = encode(-3, "p_abc");
        assert_eq!(decode(&c).unwrap(), (-3, "p_abc".to_string()));
        assert_eq!(c, "-3.p_abc");
        assert_eq!(decode("0.ai-expert").unwrap(), (0, "ai-expert".into()));
        for garbage in [
            "zz",
            "abc",
            "1.",
            ".p",
            "1.p q",
            "1234567890123456789.p",
            "--1.p",
        ] {
            assert!(decode(garbage).is_err(), "{garbage}");
        }
    }
}
