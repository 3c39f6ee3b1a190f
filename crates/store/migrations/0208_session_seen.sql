-- What an account's owner sees of each of their sessions (`GET /api/sessions`): when it was
-- last used (kept to the minute) and from which address. NULL for the sessions opened before.
ALTER TABLE server_sessions ADD COLUMN last_seen_ms BIGINT;
ALTER TABLE server_sessions ADD COLUMN address TEXT;
-- An account's sessions are listed and ended together.
CREATE INDEX server_sessions_user ON server_sessions (user_id);
