//! Idempotency keys: a request's first answer, kept for its retries.

use chrono::{DateTime, Utc};

use super::rows::{Columns, column};
use super::{Conn, Result, on_backend};

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
    // The claim first: of two racing first requests (on two instances of
    // one PostgreSQL database, say), one inserts and the other finds its row.
    let inserted = on_backend!(conn, c => {
        sqlx::query(
            "INSERT INTO idempotency_keys (owner, key, fingerprint, created_at) VALUES ($1, $2, $3, $4)
             ON CONFLICT (owner, key) DO NOTHING",
        )
        .bind(owner)
        .bind(key)
        .bind(fingerprint)
        .bind(now)
        .execute(c)
        .await?
        .rows_affected()
    });
    if inserted == 1 {
        return Ok(Claim::New);
    }
    let stored = on_backend!(conn, c => {
        sqlx::query(
            "SELECT fingerprint, status, content_type, location, etag, body, created_at FROM idempotency_keys WHERE owner = $1 AND key = $2",
        )
        .bind(owner)
        .bind(key)
        .fetch_optional(c)
        .await?
        .map(|row| stored_claim(&row))
        .transpose()?
    });
    let Some(stored) = stored else {
        // Released between the two statements: claim it again.
        return Box::pin(claim(conn, owner, key, fingerprint, now, stale_before)).await;
    };
    if stored.fingerprint != fingerprint {
        return Ok(Claim::Mismatch);
    }
    match stored.response {
        Some(response) => Ok(Claim::Done(response)),
        None if stored.created_at < stale_before => {
            on_backend!(conn, c => {
                sqlx::query(
                    "UPDATE idempotency_keys SET created_at = $3 WHERE owner = $1 AND key = $2",
                )
                .bind(owner)
                .bind(key)
                .bind(now)
                .execute(c)
                .await?;
            });
            Ok(Claim::New)
        }
        None => Ok(Claim::InFlight),
    }
}

/// A key's row as stored.
struct StoredClaim {
    fingerprint: String,
    created_at: DateTime<Utc>,
    /// None while the first request is under way.
    response: Option<StoredResponse>,
}

fn stored_claim<R: Columns>(row: &R) -> Result<StoredClaim> {
    let status: Option<i64> = column(row, "status")?;
    let body: Option<Vec<u8>> = column(row, "body")?;
    Ok(StoredClaim {
        fingerprint: column(row, "fingerprint")?,
        created_at: column(row, "created_at")?,
        response: match status {
            Some(status) => Some(StoredResponse {
                status: status as u16,
                content_type: column(row, "content_type")?,
                location: column(row, "location")?,
                etag: column(row, "etag")?,
                body: body.unwrap_or_default(),
            }),
            None => None,
        },
    })
}

/// Keeps the answer of the request that claimed `key`.
pub async fn complete(
    conn: &mut Conn,
    owner: &str,
    key: &str,
    response: &StoredResponse,
) -> Result<()> {
    on_backend!(conn, c => {
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
        .execute(c)
        .await?;
    });
    Ok(())
}

/// Lets go of a claim whose request produced no answer worth keeping.
pub async fn release(conn: &mut Conn, owner: &str, key: &str) -> Result<()> {
    on_backend!(conn, c => {
        sqlx::query("DELETE FROM idempotency_keys WHERE owner = $1 AND key = $2 AND status IS NULL")
            .bind(owner)
            .bind(key)
            .execute(c)
            .await?;
    });
    Ok(())
}

/// Forgets keys made before `before`.
pub async fn prune(conn: &mut Conn, before: DateTime<Utc>) -> Result<u64> {
    Ok(on_backend!(conn, c => {
        sqlx::query("DELETE FROM idempotency_keys WHERE created_at < $1")
            .bind(before)
            .execute(c)
            .await?
            .rows_affected()
    }))
}
