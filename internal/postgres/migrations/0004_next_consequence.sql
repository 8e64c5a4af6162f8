-- The missed-limit job reads the cases whose earliest limit with a recorded
-- consequence has passed: limits without one (an officer decides) never hold it back.
ALTER TABLE cases ADD COLUMN next_consequence timestamptz;
CREATE INDEX cases_next_consequence ON cases (next_consequence, id) WHERE next_consequence IS NOT NULL;
