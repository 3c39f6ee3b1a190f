-- A player's request to take back their last move (an undo the opponent may grant), one a
-- game at most: it stands for move `move_number` only while that move is the game's last.
-- Games of an event have none (悔著 there is a forfeit, article 8).
CREATE TABLE server_undo_requests (
    game_id BIGINT PRIMARY KEY REFERENCES server_games (id),
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    move_number BIGINT NOT NULL,
    at_ms BIGINT NOT NULL
);
