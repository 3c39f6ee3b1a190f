-- A game's version: how many times its moves and state have been committed. Every commit is
-- made on the version its change was judged on and writes the next one; a commit on any other
-- version writes nothing (`append_moves`), so no server commits a result, a resignation or a
-- dead-stone step from a stale copy of a game.
ALTER TABLE server_games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
