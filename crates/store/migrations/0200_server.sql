-- The play server (issue 13): accounts, sessions, challenges, games and their moves.
-- Shared by SQLite and PostgreSQL: BIGINT ids made by the application, BIGINT times in
-- milliseconds since the Unix epoch, booleans as BIGINT 0/1, TEXT for the rest.
CREATE TABLE server_users (
    id BIGINT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    -- The declared rank as `ingo handicap` reads it (3p, 5d, 2k, 級外).
    rank TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

-- A session is found by the SHA-256 of its cookie token, so that a leaked table opens nothing.
CREATE TABLE server_sessions (
    token_hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    csrf TEXT NOT NULL,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

CREATE TABLE server_challenges (
    id BIGINT PRIMARY KEY,
    challenger BIGINT NOT NULL REFERENCES server_users (id),
    -- NULL: open to anyone; else the only user who may accept or decline.
    opponent BIGINT REFERENCES server_users (id),
    size BIGINT NOT NULL,
    preset TEXT NOT NULL,
    -- 'nigiri' (an even game, colours drawn) or 'ranks' (handicap from the two ranks, §6).
    handicap TEXT NOT NULL,
    time_control TEXT NOT NULL,
    -- 'open', 'accepted', 'declined' or 'cancelled'.
    status TEXT NOT NULL,
    game_id BIGINT,
    created_ms BIGINT NOT NULL
);
CREATE INDEX server_challenges_status ON server_challenges (status);

CREATE TABLE server_games (
    id BIGINT PRIMARY KEY,
    black BIGINT NOT NULL REFERENCES server_users (id),
    white BIGINT NOT NULL REFERENCES server_users (id),
    size BIGINT NOT NULL,
    preset TEXT NOT NULL,
    -- Komi in half points (Ing: 16 = 8 points).
    komi_halves BIGINT NOT NULL,
    handicap_passes BIGINT NOT NULL,
    time_control TEXT NOT NULL,
    -- 'playing', 'suspended' or 'ended'.
    status TEXT NOT NULL,
    -- The dead stones proposed at a suspension (GTP points, space-separated) and who accepted.
    dead_proposal TEXT NOT NULL,
    accepted_black BIGINT NOT NULL,
    accepted_white BIGINT NOT NULL,
    -- Once ended: 'B+3', 'W+R', 'B+T'…; the way it ended; the agreed dead stones.
    result TEXT,
    end_reason TEXT,
    dead TEXT,
    penalty_black BIGINT NOT NULL,
    penalty_white BIGINT NOT NULL,
    started_ms BIGINT NOT NULL,
    ended_ms BIGINT
);
CREATE INDEX server_games_status ON server_games (status);

-- One row per move (handicap passes included). The primary key is what makes a duplicate
-- request for one move number apply once, even from two server processes.
CREATE TABLE server_moves (
    game_id BIGINT NOT NULL REFERENCES server_games (id),
    move_number BIGINT NOT NULL,
    color TEXT NOT NULL,
    -- GTP vertex ('D4') or 'pass'.
    mv TEXT NOT NULL,
    -- When the move's transaction was made (the server's clock).
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, move_number)
);
