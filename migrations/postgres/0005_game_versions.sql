-- Every state of every game, so that a follower who missed some (a
-- reconnect, a slow client, a change made on another instance) is sent
-- each one it missed, from the store. Written by a trigger with every change
-- to a game; kept a day (see store::prune_game_versions).
--
-- Its columns are the games table's, in the same order: a migration that
-- adds a column to games adds it here too.
CREATE TABLE game_versions (LIKE games);
CREATE UNIQUE INDEX game_versions_by_game ON game_versions (id, version);
CREATE INDEX game_versions_by_time ON game_versions (updated_at);

-- The same trigger also tells every gobang instance of the change once it
-- is committed (NOTIFY is delivered at commit, and never for a rollback):
-- 'game id, version, deadline (Unix ms, or -), black's and white's player
-- ids (or -)' on channel gobang_games.
CREATE FUNCTION games_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO game_versions SELECT (NEW).* ON CONFLICT (id, version) DO NOTHING;
    PERFORM pg_notify('gobang_games',
                      NEW.id || ' ' || NEW.version || ' ' || COALESCE(NEW.deadline_ms::text, '-')
                      || ' ' || COALESCE(NEW.black_id, '-') || ' ' || COALESCE(NEW.white_id, '-'));
    RETURN NULL;
END
$$;
CREATE TRIGGER games_changed AFTER INSERT OR UPDATE ON games
    FOR EACH ROW EXECUTE FUNCTION games_changed();
