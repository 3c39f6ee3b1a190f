-- The store's own bookkeeping. Migrations are shared by SQLite and PostgreSQL, so they use only
-- what both accept: BIGINT ids made by the application (no SERIAL / AUTOINCREMENT), TEXT,
-- BIGINT for integers, booleans and times (milliseconds since the Unix epoch), no BLOB/BYTEA.
CREATE TABLE store_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO store_meta (key, value) VALUES ('schema', 'ingo');
