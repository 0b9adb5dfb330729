//! The computer players: perfect tic-tac-toe, tactics, renju legality, the
//! time budget, the Gomocup brain as a subprocess, and the tuner fitting
//! what an engine said in a match.

mod arena;
mod brain;
mod tactics;
mod tictactoe;
mod tune;
