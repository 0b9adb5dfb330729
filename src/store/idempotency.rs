//! Idempotency keys: a request's first answer, kept for its retries.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::{Conn, Result};

/// A stored answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredResponse {
    pub status: u16,
    pub content_type: Option<String>,
    pub location: Option<String>,
    pub etag: Option<String>,
    pub body: Vec<u8>,
}

/// What a key says about a request that carries it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The key is new (or its first request was abandoned): go ahead.
    New,
    /// The first request with this key is still under way.
    InFlight,
    /// The key was used for another request.
    Mismatch,
    /// The first request's answer.
    Done(StoredResponse),
}

/// Claims `key` for a request with `fingerprint`. A claim still under way
/// from before `stale_before` (its server died) is taken over.
pub async fn claim(
    conn: &mut Conn,
    owner: &str,
    key: &str,
    fingerprint: &str,
    now: DateTime<Utc>,
    stale_before: DateTime<Utc>,
) -> Result<Claim> {
    let row = sqlx::query(
        "SELECT fingerprint, status, content_type, location, etag, body, created_at FROM idempotency_keys WHERE owner = $1 AND key = $2",
    )
    .bind(owner)
    .bind(key)
    .fetch_optional(&mut *conn)
    .await?;
    let Some(row) = row else {
        sqlx::query(
            "INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(owner)
        .bind(key)
        .bind(fingerprint)
        .bind(now)
        .execute(&mut *conn)
        .await?;
        return Ok(Claim::New);
    };
    if row.get::<String, _>("fingerprint") != fingerprint {
        return Ok(Claim::Mismatch);
    }
    match row.get::<Option<i64>, _>("status") {
        Some(status) => Ok(Claim::Done(StoredResponse {
            status: status as u16,
            content_type: row.get("content_type"),
            location: row.get("location"),
            etag: row.get("etag"),
            body: row.get::<Option<Vec<u8>>, _>("body").unwrap_or_default(),
        })),
        None if row.get::<DateTime<Utc>, _>("created_at") < stale_before => {
            sqlx::query(
                "UPDATE idempotency_keys SET created_at = $3 WHERE owner = $1 AND key = $2",
            )
            .bind(owner)
            .bind(key)
            .bind(now)
            .execute(&mut *conn)
            .await?;
            Ok(Claim::New)
        }
        None => Ok(Claim::InFlight),
    }
}

/// Keeps the answer of the request that claimed `key`.
pub async fn complete(
    conn: &mut Conn,
    owner: &str,
    key: &str,
    response: &StoredResponse,
) -> Result<()> {
    sqlx::query(
        "UPDATE idempotency_keys SET status = $3, content_type = $4, location = $5, etag = $6, body = $7 WHERE owner = $1 AND key = $2",
    )
    .bind(owner)
    .bind(key)
    .bind(i64::from(response.status))
    .bind(&response.content_type)
    .bind(&response.location)
    .bind(&response.etag)
    .bind(&response.body)
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Lets go of a claim whose request produced no answer worth keeping.
pub async fn release(conn: &mut Conn, owner: &str, key: &str) -> Result<()> {
    sqlx::query("DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2 AND status IS NULL")
        .bind(owner)
        .bind(key)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// Forgets keys made before `before`.
pub async fn prune(conn: &mut Conn, before: DateTime<Utc>) -> Result<u64> {
    let done = sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
        .bind(before)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected())
}
