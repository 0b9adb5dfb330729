//! gobang: five-in-a-row, renju and tic-tac-toe as a service.

pub mod api;
pub mod arena;
pub mod brain;
pub mod engine;
pub mod metrics;
pub mod pictures;
pub mod records;
pub mod rules;
pub mod service;
pub mod startup;
pub mod store;
pub mod telemetry;
pub mod tune;
