-- The programs that play as accounts: the built-in player at a search budget per move
-- (`kind` 'builtin', `playouts`), or a configured GTP engine by its name (`kind` 'engine',
-- `engine`). The server reads what plays a seat here, not from the account's name. Accounts
-- made before this table existed are recognised once, here, by the names they were given
-- (`ingo-bot-<playouts>`, `ingo-engine-<name>`; nobody else may register those names).
CREATE TABLE server_programs (
    user_id BIGINT PRIMARY KEY REFERENCES server_users (id),
    kind TEXT NOT NULL,
    playouts BIGINT,
    engine TEXT
);
INSERT INTO server_programs (user_id, kind, playouts, engine)
    SELECT id, 'builtin', CAST(substr(name, 10) AS BIGINT), NULL
    FROM server_users WHERE name LIKE 'ingo-bot-%';
INSERT INTO server_programs (user_id, kind, playouts, engine)
    SELECT id, 'engine', NULL, substr(name, 13)
    FROM server_users WHERE name LIKE 'ingo-engine-%';
