-- Names are unique as the server compares them: folded (Unicode NFKC, then lower case), so
-- that `AliceX` cannot register beside `alicex`. The server folds (SQL's lower() is ASCII only
-- in SQLite) and writes `name_key` with every new account; accounts made before this migration
-- get theirs when a server starts, except the second of two names that fold alike, which keeps
-- NULL (its owner still logs in by its exact name). (PostgreSQL already names the constraint of
-- `name UNIQUE` server_users_name_key, hence this index's name.)
ALTER TABLE server_users ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX server_users_folded_name ON server_users (name_key);
-- Expired sessions are deleted by time.
CREATE INDEX server_sessions_expires ON server_sessions (expires_ms);
