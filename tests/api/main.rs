//! The real server on a random port with its own database, over HTTP: a
//! SQLite file, or with `GOBANG_TEST_BACKEND=postgres` a PostgreSQL
//! database (see `database`), so one suite checks both backends.

mod analysis;
mod auth;
mod browser;
mod client;
mod computer;
mod concurrency;
mod database;
mod errors;
mod games;
mod helpers;
mod idempotency;
mod instances;
mod limits;
mod live;
mod metrics;
mod online;
mod openapi;
mod openings;
mod pictures;
mod player_stream;
mod players;
mod ratings;
mod records;
mod restart;
mod seeks;
mod shutdown;
mod undo_redo;
