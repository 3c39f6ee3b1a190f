-- Consultation (商談聯棋) with an agreement step (issue 13 item 5: "a team of which any member
-- may move once the side has agreed"). A consultation game without a row here is played as
-- 'any' (any member's move is the side's: how such games were played before this migration).

-- How a consultation challenge's sides agree on a move: 'any', 'majority' or 'all'. The row is
-- written before its challenge (so no foreign key): a challenge never exists without its row,
-- and a row whose challenge was never stored is harmless. The game made from the challenge
-- (server_challenges.game_id) is played under it.
CREATE TABLE server_consult_agreement (
    challenge_id BIGINT PRIMARY KEY,
    agreement TEXT NOT NULL
);

-- The members' current proposals: one a member, for the side's move number move_number (a
-- proposal lapses when any move is played). mv: a GTP vertex, 'pass' or 'resign'. Read only by
-- the member's own side; deleted when the side's agreed move is played.
CREATE TABLE server_consult_votes (
    game_id BIGINT NOT NULL REFERENCES server_games (id),
    user_id BIGINT NOT NULL REFERENCES server_users (id),
    -- 'B' or 'W'.
    color TEXT NOT NULL,
    move_number BIGINT NOT NULL,
    mv TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
