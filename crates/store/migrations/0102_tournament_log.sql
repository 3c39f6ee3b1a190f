-- Corrections with a log (article 8: decisions annotated, not overwritten).
--
-- A game's result may be given by the rules rather than entered: the forfeit losses and
-- cancelled byes of 罰停. `automatic` (0/1) marks them, so that a correction of the absence
-- that caused a suspension takes them back. Results written before this migration: the
-- suspension forfeits and the void byes were all given by the rules.
ALTER TABLE tournament_game ADD COLUMN automatic BIGINT NOT NULL DEFAULT 0;
UPDATE tournament_game SET automatic = 1
    WHERE result LIKE '%F:suspension' OR (white IS NULL AND result = 'void');

-- Every decision of the director (pairing, manual pairing, unpairing, result, change, clear,
-- withdrawal, reinstatement, edit, removal) and every result the rules then gave or took
-- back, in order (`seq` from 1 within the event), with its time (ms since the Unix epoch),
-- the game (round, board) or entrant it concerns, the value before and after as text, and
-- the reason.
CREATE TABLE tournament_log (
    id BIGINT PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    seq BIGINT NOT NULL,
    at_ms BIGINT NOT NULL,
    action TEXT NOT NULL,
    round BIGINT,
    board BIGINT,
    entrant TEXT,
    old_value TEXT,
    new_value TEXT,
    reason TEXT,
    UNIQUE (event_id, seq)
);
