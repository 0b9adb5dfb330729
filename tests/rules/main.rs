//! The rules core checked against ground truth: published renju cases,
//! exhaustive tic-tac-toe, and properties over random games.

mod openings;
mod properties;
mod renju_cases;
mod rif_three;
mod tictactoe;
