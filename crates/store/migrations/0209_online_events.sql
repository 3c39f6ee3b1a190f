-- Events hosted by the play server (`ingo serve`): the same events, entrants and games as
-- `ingo tournament`, with what playing them online adds.
--
-- An event's registration (0 closed, 1 open) and when the director closed the event (NULL
-- while it runs). Events made by `ingo tournament create` start with registration closed.
ALTER TABLE tournament_event ADD COLUMN registration BIGINT NOT NULL DEFAULT 0;
ALTER TABLE tournament_event ADD COLUMN closed_ms BIGINT;

-- The server account that plays as an entrant (NULL for entrants entered by hand).
ALTER TABLE tournament_entrant ADD COLUMN account BIGINT;

-- The server game that plays a pairing (NULL until its round starts, and for byes and games
-- decided without play).
ALTER TABLE tournament_game ADD COLUMN server_game BIGINT;
CREATE INDEX tournament_game_server_game ON tournament_game (server_game);

-- Players who registered from the lobby and wait for the director's approval, with the rank
-- they declared.
CREATE TABLE tournament_registration (
    id BIGINT PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    account BIGINT NOT NULL,
    name TEXT NOT NULL,
    rank TEXT,
    at_ms BIGINT NOT NULL,
    UNIQUE (event_id, account)
);

-- When the director started a round (its games' scheduled start: lateness and absence are
-- counted from it).
CREATE TABLE tournament_round (
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    round BIGINT NOT NULL,
    started_ms BIGINT NOT NULL,
    PRIMARY KEY (event_id, round)
);

-- Who has checked in (arrived) for a round, and when.
CREATE TABLE tournament_checkin (
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    round BIGINT NOT NULL,
    entrant TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (event_id, round, entrant)
);

-- An event's server game: the settings are the agreement's and nobody changes them; the
-- lateness of each side at the start (twice of it came off their basic time, 第八條), in ms.
CREATE TABLE server_event_games (
    game_id BIGINT PRIMARY KEY REFERENCES server_games (id),
    event_id BIGINT NOT NULL REFERENCES tournament_event (id),
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    late_black_ms BIGINT NOT NULL,
    late_white_ms BIGINT NOT NULL,
    UNIQUE (event_id, round, board)
);
