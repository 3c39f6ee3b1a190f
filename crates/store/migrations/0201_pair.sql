-- Pair go (聯棋) and consultation (商談聯棋), article 5 賽式 (issue 13 item 5), and the stored
-- chat of every game (issue 14). A game or challenge without a `*_teams` row is one player a side.

-- A challenge for two sides of several players: its kind ('pair': two a side, moving in turn;
-- 'consultation': two or more a side, any member moving for the side).
CREATE TABLE server_challenge_teams (
    challenge_id BIGINT PRIMARY KEY REFERENCES server_challenges (id),
    kind TEXT NOT NULL
);

-- The seats of a team challenge. side: 'challenger' (the challenger's side, the challenger in
-- seat 1) or 'opponent'. Every seat's user must accept (accepted 0/1) before the game starts.
CREATE TABLE server_challenge_seats (
    challenge_id BIGINT NOT NULL REFERENCES server_challenges (id),
    side TEXT NOT NULL,
    seat BIGINT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    accepted BIGINT NOT NULL,
    PRIMARY KEY (challenge_id, side, seat)
);
-- One seat per user in a challenge.
CREATE UNIQUE INDEX server_challenge_seats_user ON server_challenge_seats (challenge_id, user_id);

-- A game of two teams: its kind, as for challenges.
CREATE TABLE server_game_teams (
    game_id BIGINT PRIMARY KEY REFERENCES server_games (id),
    kind TEXT NOT NULL
);

-- The members of each side of a team game, in seat order (1, 2, …): in pair go the side's
-- moves go to its members in this order (B1 W1 B2 W2 …). server_games.black/white hold seat 1.
CREATE TABLE server_game_members (
    game_id BIGINT NOT NULL REFERENCES server_games (id),
    -- 'B' or 'W'.
    color TEXT NOT NULL,
    seat BIGINT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    PRIMARY KEY (game_id, color, seat)
);
CREATE INDEX server_game_members_user ON server_game_members (user_id);

-- Chat of a game. channel: 'players' (read by everyone), 'spectators' (not read by the
-- players), 'black' / 'white' (read only by that side's members, in team games).
CREATE TABLE server_chat (
    id BIGINT PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES server_games (id),
    channel TEXT NOT NULL,
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL
);
CREATE INDEX server_chat_game ON server_chat (game_id, channel, at_ms);
