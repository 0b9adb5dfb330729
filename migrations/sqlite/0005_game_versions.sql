-- Every state of every game, so that a follower who missed some (a
-- reconnect, a slow client, a change made on another instance) is sent
-- each one it missed, from the store. Written by triggers with every change
-- to a game; kept a day (see store::prune_game_versions).
--
-- Its columns are the games table's, in the same order: a migration that
-- adds a column to games adds it here too.
CREATE TABLE game_versions AS SELECT * FROM games WHERE 0;
CREATE UNIQUE INDEX game_versions_by_game ON game_versions (id, version);
CREATE INDEX game_versions_by_time ON game_versions (updated_at);

CREATE TRIGGER games_versioned_on_insert AFTER INSERT ON games BEGIN
    INSERT OR IGNORE INTO game_versions SELECT * FROM games WHERE id = NEW.id;
END;
CREATE TRIGGER games_versioned_on_update AFTER UPDATE ON games BEGIN
    INSERT OR IGNORE INTO game_versions SELECT * FROM games WHERE id = NEW.id;
END;
