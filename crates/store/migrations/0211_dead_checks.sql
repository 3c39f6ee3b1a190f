-- The verdicts to check of the server's judgement of a suspended game (the strings whose life
-- the playouts held between a quarter and three quarters of the time, or read by a rule of
-- shape, race or fill): `point:note` pairs separated by spaces, kept with the dead-stone
-- proposal so that every server shows the players the same ones.
ALTER TABLE server_games ADD COLUMN dead_checks TEXT NOT NULL DEFAULT '';
