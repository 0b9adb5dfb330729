-- Opening rules: the rule a game opens under (free, rif, yamaguchi, swap2,
-- swap1) and the decisions made in its opening that are not stones (swaps,
-- the declared count, fifth-move offers, swap2's two more), each with the
-- number of stones on the board when it was made: see rules::OpeningLog.
ALTER TABLE games ADD COLUMN opening_rule TEXT NOT NULL DEFAULT 'free'
    CHECK (opening_rule IN ('free', 'rif', 'yamaguchi', 'swap2', 'swap1'));
ALTER TABLE games ADD COLUMN opening_log TEXT NOT NULL DEFAULT '';
