-- Quick pairing: players waiting for an opponent with the same game
-- settings. Kept in the store (not one process's memory) so that every
-- instance pairs from one pool, and a seek is paired at most once.
CREATE TABLE seeks (
    id          TEXT PRIMARY KEY,
    player_id   TEXT NOT NULL REFERENCES players (id),
    -- The game wanted, as one comparable key (rules, board, k, overlines,
    -- forbidden policy, opening, clock, rated): see service::seeks.
    settings    TEXT NOT NULL,
    -- The seeker's rating in the category when seeking, and the opponents'
    -- ratings they accept.
    rating      REAL NOT NULL,
    rating_min  REAL NOT NULL,
    rating_max  REAL NOT NULL,
    -- 'black', 'white', or 'any'.
    colour      TEXT NOT NULL CHECK (colour IN ('black', 'white', 'any')),
    status      TEXT NOT NULL CHECK (status IN ('waiting', 'paired', 'cancelled', 'expired')),
    game_id     TEXT REFERENCES games (id),
    created_at  TEXT NOT NULL,
    -- When the seeker last asked after it: a seek left alone expires.
    seen_at     TEXT NOT NULL
);
CREATE INDEX seeks_waiting ON seeks (settings, status, created_at);
