//! gobang: five-in-a-row, renju and tic-tac-toe as a service.

pub mod engine;
pub mod rules;
