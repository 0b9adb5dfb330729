-- Idempotency-Key: the first answer to a changing request, replayed for the
-- request's retries (kept 24 hours).
CREATE TABLE idempotency_keys (
    -- The caller: a hash of its token, or its address when it sent none.
    owner TEXT NOT NULL,
    key TEXT NOT NULL,
    -- The method, the path and a hash of the body.
    fingerprint TEXT NOT NULL,
    -- NULL while the first request is under way.
    status BIGINT,
    content_type TEXT,
    location TEXT,
    etag TEXT,
    body BYTEA,
    created_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (owner, key)
);
CREATE INDEX idempotency_keys_created ON idempotency_keys (created_at);
