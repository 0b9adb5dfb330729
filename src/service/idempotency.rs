//! Safe retries: a changing request sent again with the same
//! `Idempotency-Key` gets the first answer instead of acting twice.

use std::time::Duration;

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
        let now = super::now();
        let (owner, key, fingerprint) = (owner.to_owned(), key.to_owned(), fingerprint.to_owned());
        let prune = rand::random::<u8>() == 0;
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    // Now and then, forget keys past their day.
                    if prune {
                        idempotency::prune(tx, now - KEEP).await?;
                    }
                    idempotency::claim(tx, &owner, &key, &fingerprint, now, now - ABANDONED).await
                })
            })
            .await
            .map_err(Into::into)
    }

    /// Keeps the answer of a claimed key's request (`None`: nothing to keep,
    /// the key is free again).
    pub async fn complete_idempotency_key(
        &self,
        owner: &str,
        key: &str,
        response: Option<&StoredResponse>,
    ) -> Result<()> {
        let (owner, key, response) = (owner.to_owned(), key.to_owned(), response.cloned());
        self.store
            .write(move |tx| {
                Box::pin(async move {
                    match response {
                        Some(response) => idempotency::complete(tx, &owner, &key, &response).await,
                        None => idempotency::release(tx, &owner, &key).await,
                    }
                })
            })
            .await?;
        Ok(())
    }
}
