-- Online play: invitations, offers (takebacks, draws, rematches), clocks,
-- thinking times and abandonment.

-- The seat whose named player has not yet accepted the invitation.
ALTER TABLE games ADD COLUMN invited TEXT CHECK (invited IN ('black', 'white'));
-- The offer waiting for an answer, if any.
ALTER TABLE games ADD COLUMN offer_kind TEXT CHECK (offer_kind IN ('takeback', 'draw', 'rematch'));
ALTER TABLE games ADD COLUMN offer_by TEXT CHECK (offer_by IN ('black', 'white'));
ALTER TABLE games ADD COLUMN offer_at TIMESTAMPTZ;
-- Declined offers, one digit each: black's takebacks, draws, rematches, then white's.
ALTER TABLE games ADD COLUMN declines TEXT NOT NULL DEFAULT '000000';
-- The clock of a timed game: main time and floor, and each side's time left
-- when its current (or next) turn began; NULL when untimed.
ALTER TABLE games ADD COLUMN clock_main_ms BIGINT;
ALTER TABLE games ADD COLUMN clock_floor_ms BIGINT;
ALTER TABLE games ADD COLUMN black_clock_ms BIGINT;
ALTER TABLE games ADD COLUMN white_clock_ms BIGINT;
-- When the side to move runs out of time (Unix ms; timed games in progress
-- only), for the task that ends games on time.
ALTER TABLE games ADD COLUMN deadline_ms BIGINT;
-- Each side's total thinking time.
ALTER TABLE games ADD COLUMN black_thinking_ms BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN white_thinking_ms BIGINT NOT NULL DEFAULT 0;
-- How long the side to move may sit idle before the opponent can claim the
-- win (online games without a clock).
ALTER TABLE games ADD COLUMN idle_limit_ms BIGINT;
-- Rematches: the game this one is a rematch of, and this game's rematch.
ALTER TABLE games ADD COLUMN rematch_of TEXT REFERENCES games (id);
ALTER TABLE games ADD COLUMN rematch_id TEXT REFERENCES games (id);

CREATE INDEX games_by_deadline ON games (deadline_ms) WHERE deadline_ms IS NOT NULL;

-- Thinking times of the games played so far, from their move records.
UPDATE games SET
    black_thinking_ms = (SELECT COALESCE(SUM(thinking_ms), 0) FROM moves
                         WHERE moves.game_id = games.id AND color = 'black' AND ply <= games.ply),
    white_thinking_ms = (SELECT COALESCE(SUM(thinking_ms), 0) FROM moves
                         WHERE moves.game_id = games.id AND color = 'white' AND ply <= games.ply);

-- Games already under way get the default idle time.
UPDATE games SET idle_limit_ms = 600000;
