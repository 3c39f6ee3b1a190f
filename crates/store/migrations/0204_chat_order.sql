-- The order of a game's chat: the milliseconds of `at_ms` cannot order two messages stored in
-- the same millisecond, so each message gets its place in its game's chat, `seq`: the game's
-- highest so far plus one, given when it is stored. Messages stored before this migration are
-- numbered in the order they were read in until now (time, then id).
ALTER TABLE server_chat ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
UPDATE server_chat SET seq = (
    SELECT COUNT(*) FROM server_chat c
    WHERE c.game_id = server_chat.game_id
      AND (c.at_ms < server_chat.at_ms OR (c.at_ms = server_chat.at_ms AND c.id <= server_chat.id))
);
CREATE INDEX server_chat_seq ON server_chat (game_id, seq);
