//! Opaque paging cursors: a sort key and an id, hex-encoded so clients
//! treat them as tokens rather than something to build.

use super::error::{Result, ServiceError};

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The cursor that continues after the row with `key` and `id`.
pub(super) fn encode(key: i64, id: &str) -> String {
    hex(format!("{key}:{id}").as_bytes())
}

/// The key and id a cursor continues after.
pub(super) fn decode(cursor: &str) -> Result<(i64, String)> {
    let bad = || {
        ServiceError::Validation(
            "cursor is not one this server returned: start again without it".into(),
        )
    };
    if !cursor.len().is_multiple_of(2) || cursor.len() > 256 {
        return Err(bad());
    }
    let bytes = (0..cursor.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(cursor.get(i..i + 2).ok_or_else(bad)?, 16).map_err(|_| bad()))
        .collect::<Result<Vec<u8>>>()?;
    let text = String::from_utf8(bytes).map_err(|_| bad())?;
    let (key, id) = text.split_once(':').ok_or_else(bad)?;
    Ok((key.parse().map_err(|_| bad())?, id.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_round_trip_and_reject_garbage() {
        let c = encode(-3, "p_abc");
        assert_eq!(decode(&c).unwrap(), (-3, "p_abc".to_string()));
        assert!(decode("zz").is_err());
        assert!(decode("abc").is_err());
        assert!(decode(&hex(b"no colon")).is_err());
    }
}
