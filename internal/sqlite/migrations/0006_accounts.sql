-- Accounts (issue 12): disabled users, token and session lifetimes, the admin log,
-- and the row /readyz writes to.
ALTER TABLE users ADD COLUMN disabled_at TEXT; -- NULL: enabled
ALTER TABLE credentials ADD COLUMN created TEXT;
-- A session unused until then ends (its idle limit); NULL: none.
ALTER TABLE credentials ADD COLUMN idle_until TEXT;

-- Who changed which account: users added, disabled, enabled, passwords changed or
-- reset, tokens issued or revoked. Never a password, a secret or a hash.
CREATE TABLE admin_log (
	seq       INTEGER PRIMARY KEY AUTOINCREMENT,
	at        TEXT NOT NULL,
	actor     TEXT NOT NULL,
	action    TEXT NOT NULL,
	user_name TEXT NOT NULL,
	detail    TEXT NOT NULL DEFAULT ''
);

-- The readiness probe's write: one row, overwritten.
CREATE TABLE ready_probe (
	one INTEGER PRIMARY KEY CHECK (one = 1),
	at  TEXT NOT NULL
);
