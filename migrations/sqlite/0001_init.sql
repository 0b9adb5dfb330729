-- Players: people and computer levels alike, with their cumulative scores.
CREATE TABLE players (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    -- 'human' or 'computer'
    kind        TEXT NOT NULL CHECK (kind IN ('human', 'computer')),
    -- the computer level a computer player stands for
    level       TEXT,
    -- SHA-256 of the bearer token, hex; computers have none
    token_hash  TEXT,
    score       INTEGER NOT NULL DEFAULT 0,
    wins        INTEGER NOT NULL DEFAULT 0,
    losses      INTEGER NOT NULL DEFAULT 0,
    draws       INTEGER NOT NULL DEFAULT 0,
    abandoned   INTEGER NOT NULL DEFAULT 0,
    games       INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT NOT NULL
);
CREATE UNIQUE INDEX players_token_hash ON players (token_hash);
CREATE INDEX players_leaderboard ON players (score DESC, id ASC);

-- Games: the rules, who sits where, where the game stands.
CREATE TABLE games (
    id                TEXT PRIMARY KEY,
    rules             TEXT NOT NULL,
    width             INTEGER NOT NULL,
    height            INTEGER NOT NULL,
    k                 INTEGER NOT NULL,
    overline_wins     INTEGER NOT NULL,
    -- renju only: 'reject' or 'lose'
    forbidden_policy  TEXT,
    black_id          TEXT REFERENCES players (id),
    white_id          TEXT REFERENCES players (id),
    created_by        TEXT NOT NULL REFERENCES players (id),
    status            TEXT NOT NULL CHECK (status IN ('waiting', 'in_progress', 'finished')),
    -- moves on the board now; moves rows beyond it are the ones that can be redone
    ply               INTEGER NOT NULL DEFAULT 0,
    -- every stored move's point, two letters each ('a' + x, 'a' + y), so a
    -- game loads in one row; the moves table keeps the full record
    record            TEXT NOT NULL DEFAULT '',
    winner            TEXT CHECK (winner IN ('black', 'white')),
    reason            TEXT,
    -- JSON array of [x, y]
    winning_line      TEXT,
    -- whether the result has been counted in the players' scores
    scored            INTEGER NOT NULL DEFAULT 0,
    version           INTEGER NOT NULL DEFAULT 1,
    seed              INTEGER NOT NULL,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL,
    -- when the side to move got the turn, for thinking times
    turn_started_at   TEXT NOT NULL
);
CREATE INDEX games_by_black ON games (black_id, created_at DESC);
CREATE INDEX games_by_white ON games (white_id, created_at DESC);
CREATE INDEX games_by_creation ON games (created_at DESC, id DESC);

-- The move record. Rows with ply <= games.ply are on the board; rows beyond
-- it were taken back and can be redone, in order.
CREATE TABLE moves (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply          INTEGER NOT NULL CHECK (ply >= 1),
    x            INTEGER NOT NULL,
    y            INTEGER NOT NULL,
    color        TEXT NOT NULL CHECK (color IN ('black', 'white')),
    played_at    TEXT NOT NULL,
    thinking_ms  INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
