-- Idempotency keys are scoped per actor (issue 12): two users may use the same key,
-- and one user's key never answers with another's entry. 0001 declared idem_key
-- UNIQUE on its own, and SQLite cannot drop a column constraint without rebuilding
-- the (hash-chained, append-only) table, so the old column keeps the keys written
-- before this migration under that constraint, and idem_key is a new column under a
-- unique index on (actor, idem_key). The hash covers neither column.
ALTER TABLE entries RENAME COLUMN idem_key TO idem_key_global;
ALTER TABLE entries ADD COLUMN idem_key TEXT;
UPDATE entries SET idem_key = idem_key_global WHERE idem_key_global IS NOT NULL;
CREATE UNIQUE INDEX entries_actor_idem ON entries (actor, idem_key) WHERE idem_key IS NOT NULL;
