//! The computer players: perfect tic-tac-toe, tactics, renju legality, the
//! time budget, and the Gomocup brain as a subprocess.

mod arena;
mod brain;
mod tactics;
mod tictactoe;
