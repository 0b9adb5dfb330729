-- Ratings: Glicko-2 per player and rating category (freestyle-15,
-- freestyle-19, standard, renju, tictactoe, custom), changed by rated games.

-- Whether a game counts for the ratings (set when it is created).
ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE game_versions ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

-- A player's rating in a category, once they have played a rated game in it.
CREATE TABLE ratings (
    player_id   TEXT NOT NULL REFERENCES players (id),
    category    TEXT NOT NULL,
    rating      DOUBLE PRECISION NOT NULL,
    deviation   DOUBLE PRECISION NOT NULL,
    volatility  DOUBLE PRECISION NOT NULL,
    games       BIGINT NOT NULL DEFAULT 0,
    updated_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (player_id, category)
);
CREATE INDEX ratings_leaderboard ON ratings (category, rating DESC, player_id);

-- What each rated game did to each of its players' ratings: their history,
-- and what undoing the game's end takes back.
CREATE TABLE rating_changes (
    game_id           TEXT NOT NULL REFERENCES games (id),
    player_id         TEXT NOT NULL REFERENCES players (id),
    category          TEXT NOT NULL,
    rating_before     DOUBLE PRECISION NOT NULL,
    deviation_before  DOUBLE PRECISION NOT NULL,
    volatility_before DOUBLE PRECISION NOT NULL,
    rating            DOUBLE PRECISION NOT NULL,
    deviation         DOUBLE PRECISION NOT NULL,
    volatility        DOUBLE PRECISION NOT NULL,
    at                TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
CREATE INDEX rating_changes_by_player ON rating_changes (player_id, category, at);
