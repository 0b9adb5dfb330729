-- Each seated player's rating (and its deviation) in the game's rating
-- category when they sat down, shown beside their name.
ALTER TABLE games ADD COLUMN black_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN black_deviation DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_rating DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN white_deviation DOUBLE PRECISION;
ALTER TABLE game_versions ADD COLUMN black_rating DOUBLE PRECISION;
ALTER TABLE game_versions ADD COLUMN black_deviation DOUBLE PRECISION;
ALTER TABLE game_versions ADD COLUMN white_rating DOUBLE PRECISION;
ALTER TABLE game_versions ADD COLUMN white_deviation DOUBLE PRECISION;
