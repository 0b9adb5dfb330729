//! Safe retries: a changing request sent again with the same
//! `Idempotency-Key` gets the first answer instead of acting twice.

use std::time::Duration;

use chrono::Utc;

use super::Service;
use super::error::Result;
use crate::store::idempotency::{self, Claim, StoredResponse};

/// How long keys are kept.
pub const KEEP: Duration = Duration::from_secs(24 * 3600);
/// A first request still unanswered after this long died with its server.
const ABANDONED: Duration = Duration::from_secs(120);

impl Service {
    /// Claims `key` for `owner`'s request with `fingerprint`.
    pub async fn claim_idempotency_key(
        &self,
        owner: &str,
        key: &str,
        fingerprint: &str,
    ) -> Result<Claim> {
        let now = Utc::now();
        let mut tx = self.store.write().await?;
        // Now and then, forget keys past their day.
        if rand::random::<u8>() == 0 {
            idempotency::prune(&mut tx, now - KEEP).await?;
        }
        let claim =
            idempotency::claim(&mut tx, owner, key, fingerprint, now, now - ABANDONED).await?;
        tx.commit().await?;
        Ok(claim)
    }

    /// Keeps the answer of a claimed key's request (`None`: nothing to keep,
    /// the key is free again).
    pub async fn complete_idempotency_key(
        &self,
        owner: &str,
        key: &str,
        response: Option<&StoredResponse>,
    ) -> Result<()> {
        let mut tx = self.store.write().await?;
        match response {
            Some(response) => idempotency::complete(&mut tx, owner, key, response).await?,
            None => idempotency::release(&mut tx, owner, key).await?,
        }
        tx.commit().await?;
        Ok(())
    }
}
