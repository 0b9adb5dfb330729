//! The real server on a random port with its own SQLite file, over HTTP.

mod analysis;
mod auth;
mod browser;
mod client;
mod computer;
mod concurrency;
mod errors;
mod games;
mod helpers;
mod idempotency;
mod limits;
mod live;
mod metrics;
mod online;
mod openapi;
mod openings;
mod pictures;
mod players;
mod records;
mod restart;
mod shutdown;
mod undo_redo;
