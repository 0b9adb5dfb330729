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
    score       BIGINT NOT NULL DEFAULT 0,
    wins        BIGINT NOT NULL DEFAULT 0,
    losses      BIGINT NOT NULL DEFAULT 0,
    draws       BIGINT NOT NULL DEFAULT 0,
    abandoned   BIGINT NOT NULL DEFAULT 0,
    games       BIGINT NOT NULL DEFAULT 0,
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE UNIQUE INDEX players_token_hash ON players (token_hash);
CREATE INDEX players_leaderboard ON players (score DESC, id ASC);

-- Games: the rules, who sits where, where the game stands.
CREATE TABLE games (
    id                TEXT PRIMARY KEY,
    rules             TEXT NOT NULL,
    width             BIGINT NOT NULL,
    height            BIGINT NOT NULL,
    k                 BIGINT NOT NULL,
    overline_wins     BOOLEAN NOT NULL,
    -- renju only: 'reject' or 'lose'
    forbidden_policy  TEXT,
    black_id          TEXT REFERENCES players (id),
    white_id          TEXT REFERENCES players (id),
    created_by        TEXT NOT NULL REFERENCES players (id),
    status            TEXT NOT NULL CHECK (status IN ('waiting', 'in_progress', 'finished')),
    -- moves on the board now; moves rows beyond it are the ones that can be redone
    ply               BIGINT NOT NULL DEFAULT 0,
    -- every stored move's point, two letters each ('a' + x, 'a' + y), so a
    -- game loads in one row; the moves table keeps the full record
    record            TEXT NOT NULL DEFAULT '',
    winner            TEXT CHECK (winner IN ('black', 'white')),
    reason            TEXT,
    -- JSON array of [x, y]
    winning_line      TEXT,
    -- whether the result has been counted in the players' scores
    scored            BOOLEAN NOT NULL DEFAULT FALSE,
    version           BIGINT NOT NULL DEFAULT 1,
    seed              BIGINT NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL,
    updated_at        TIMESTAMPTZ NOT NULL,
    -- when the side to move got the turn, for thinking times
    turn_started_at   TIMESTAMPTZ NOT NULL
);
CREATE INDEX games_by_black ON games (black_id, created_at DESC);
CREATE INDEX games_by_white ON games (white_id, created_at DESC);
CREATE INDEX games_by_creation ON games (created_at DESC, id DESC);

-- The move record. Rows with ply <= games.ply are on the board; rows beyond
-- it were taken back and can be redone, in order.
CREATE TABLE moves (
    game_id      TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    ply          BIGINT NOT NULL CHECK (ply >= 1),
    x            BIGINT NOT NULL,
    y            BIGINT NOT NULL,
    color        TEXT NOT NULL CHECK (color IN ('black', 'white')),
    played_at    TIMESTAMPTZ NOT NULL,
    thinking_ms  BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
