-- Each seated player's rating (and its deviation) in the game's rating
-- category when they sat down, shown beside their name.
ALTER TABLE games ADD COLUMN black_rating REAL;
ALTER TABLE games ADD COLUMN black_deviation REAL;
ALTER TABLE games ADD COLUMN white_rating REAL;
ALTER TABLE games ADD COLUMN white_deviation REAL;
ALTER TABLE game_versions ADD COLUMN black_rating REAL;
ALTER TABLE game_versions ADD COLUMN black_deviation REAL;
ALTER TABLE game_versions ADD COLUMN white_rating REAL;
ALTER TABLE game_versions ADD COLUMN white_deviation REAL;
