-- "Play the computer if nobody comes": when a waiting seek is given to the
-- computer instead (NULL: never), and which level (NULL: the level rated
-- closest to the seeker).
ALTER TABLE seeks ADD COLUMN computer_at TIMESTAMPTZ;
ALTER TABLE seeks ADD COLUMN computer_level TEXT;
CREATE INDEX seeks_for_the_computer ON seeks (computer_at) WHERE status = 'waiting';
