-- What the EGF results file and the pairing need of an entrant besides its name: the club
-- (pairing can keep a club's players apart), surname and given name, the country as a
-- two-letter code, and the player's PIN in the European Go Database. All optional (NULL).
ALTER TABLE tournament_entrant ADD COLUMN club TEXT;
ALTER TABLE tournament_entrant ADD COLUMN surname TEXT;
ALTER TABLE tournament_entrant ADD COLUMN given_name TEXT;
ALTER TABLE tournament_entrant ADD COLUMN country TEXT;
ALTER TABLE tournament_entrant ADD COLUMN egd_pin BIGINT;
