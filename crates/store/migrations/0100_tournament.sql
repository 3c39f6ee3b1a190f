-- Tournaments (ingo-tournament, `ingo tournament`): an event with its agreement (賽約) as the
-- director wrote it, its entrants in seed order, and its games and byes with their results.
-- Shared by SQLite and PostgreSQL: BIGINT ids made by the application, BIGINT integers,
-- booleans (0/1) and times (ms since the Unix epoch), TEXT; no SERIAL, no BLOB.
CREATE TABLE tournament_event (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    agreement TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE tournament_entrant (
    id BIGINT PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    seq BIGINT NOT NULL,
    name TEXT NOT NULL,
    kind TEXT NOT NULL,
    rank TEXT,
    -- One member a line: name, a tab, rank (empty when unknown).
    members TEXT NOT NULL,
    engine TEXT,
    withdrawn BIGINT NOT NULL,
    UNIQUE (event_id, name),
    UNIQUE (event_id, seq)
);

CREATE TABLE tournament_game (
    id BIGINT PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    black TEXT NOT NULL,
    -- NULL for a bye.
    white TEXT,
    passes BIGINT NOT NULL,
    komi_halves BIGINT NOT NULL,
    -- NULL until played; `B+3`, `W+R`, `W+F:absence`, `void`, … as ingo-tournament writes them.
    result TEXT,
    sgf TEXT,
    updated_ms BIGINT NOT NULL,
    UNIQUE (event_id, round, board)
);

CREATE INDEX tournament_game_event ON tournament_game (event_id, round, board);
