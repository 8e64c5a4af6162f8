-- Idempotency keys are scoped per actor (issue 12): two users may use the same key,
-- and one user's key never answers with another's entry.
ALTER TABLE entries DROP CONSTRAINT entries_idem_key_key;
CREATE UNIQUE INDEX entries_actor_idem ON entries (actor, idem_key) WHERE idem_key IS NOT NULL;
