//! Request bodies as JSON. Read as actix's `web::Json` reads them (its
//! size limit, its content type, its problems for each), and then numbers
//! as JSON Schema counts them: `500.0` and `5e2` are the integer 500, so a
//! client whose language writes every number with a point (Python's
//! `json.dumps(0.5 * 1000)`) is answered as one that writes `500`.

use std::future::Future;
use std::pin::Pin;

use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::error::{ApiError, body_error};

/// A JSON body of type `T` (the extractor to use in place of `web::Json`).
pub struct Json<T>(pub T);

impl<T> Json<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = actix_web::Error;
    type Future = Pin<Box<dyn Future<Output = Result<Self, Self::Error>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let value = web::Json::<Value>::from_request(req, payload);
        Box::pin(async move { Ok(Json(from_value(value.await?.into_inner())?)) })
    }
}

/// A body that may also be empty or `null` (no body).
pub fn optional<T: DeserializeOwned>(body: &[u8]) -> Result<Option<T>, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| body_error(&e))?;
    if value.is_null() {
        return Ok(None);
    }
    from_value(value).map(Some)
}

/// A parsed body read as `T`, its whole numbers as integers.
pub fn from_value<T: DeserializeOwned>(mut value: Value) -> Result<T, ApiError> {
    whole_numbers(&mut value);
    serde_json::from_value(value).map_err(|e| body_error(&e))
}

/// The largest integer a double holds exactly (2^53).
const EXACT: f64 = 9_007_199_254_740_992.0;

/// Every number with no fractional part, written with a point or an
/// exponent, made the integer it is (larger ones, which a double no longer
/// holds exactly, are left as they are, and refused where an integer is
/// wanted).
fn whole_numbers(value: &mut Value) {
    match value {
        Value::Number(n) => {
            if n.is_f64()
                && let Some(f) = n.as_f64()
                && f.fract() == 0.0
                && f.abs() <= EXACT
            {
                *value = if f < 0.0 {
                    Value::from(f as i64)
                } else {
                    Value::from(f as u64)
                };
            }
        }
        Value::Array(items) => items.iter_mut().for_each(whole_numbers),
        Value::Object(fields) => fields.values_mut().for_each(whole_numbers),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug, PartialEq)]
    struct Ask {
        time_ms: u64,
        at: Option<[i64; 2]>,
        weight: Option<f64>,
    }

    fn read(text: &str) -> Result<Ask, ApiError> {
        from_value(serde_json::from_str(text).unwrap())
    }

    #[test]
    fn whole_numbers_with_a_point_or_an_exponent_are_integers() {
        let ask = read(r#"{"time_ms": 500.0, "at": [7.0, -1e0], "weight": 2.5}"#).unwrap();
        assert_eq!(
            ask,
            Ask {
                time_ms: 500,
                at: Some([7, -1]),
                weight: Some(2.5)
            }
        );
        assert_eq!(read(r#"{"time_ms": 5e2}"#).unwrap().time_ms, 500);
    }

    #[test]
    fn fractions_and_numbers_past_exact_are_still_refused() {
        for text in [
            r#"{"time_ms": 500.5}"#,
            r#"{"time_ms": -3.0}"#,
            r#"{"time_ms": 1e300}"#,
        ] {
            let e = read(text).unwrap_err();
            assert_eq!(e.code(), "VALIDATION", "{text}");
        }
    }

    #[test]
    fn an_empty_or_null_body_is_none() {
        assert_eq!(optional::<Ask>(b"  ").unwrap(), None);
        assert_eq!(optional::<Ask>(b"null").unwrap(), None);
        assert_eq!(
            optional::<Ask>(br#"{"time_ms": 2.0}"#)
                .unwrap()
                .unwrap()
                .time_ms,
            2
        );
        assert_eq!(optional::<Ask>(b"{").unwrap_err().code(), "MALFORMED_JSON");
    }
}
