-- Accounts (issue 12): disabled users, token and session lifetimes, the admin log,
-- and the row /readyz writes to.
ALTER TABLE users ADD COLUMN disabled_at timestamptz; -- NULL: enabled
ALTER TABLE credentials ADD COLUMN created timestamptz;
-- A session unused until then ends (its idle limit); NULL: none.
ALTER TABLE credentials ADD COLUMN idle_until timestamptz;

-- Who changed which account: users added, disabled, enabled, passwords changed or
-- reset, tokens issued or revoked. Never a password, a secret or a hash.
CREATE TABLE admin_log (
	seq       bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at        timestamptz NOT NULL,
	actor     text        NOT NULL,
	action    text        NOT NULL,
	user_name text        NOT NULL,
	detail    text        NOT NULL DEFAULT ''
);

-- The readiness probe's write: one row, overwritten.
CREATE TABLE ready_probe (
	one boolean     PRIMARY KEY DEFAULT true CHECK (one),
	at  timestamptz NOT NULL
);
