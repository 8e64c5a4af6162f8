-- The ledger: hash-chained, append-only entries. seq is the rowid, assigned by the
-- store under its single writer; payload is stored byte for byte (it is hashed);
-- at is UTC with microseconds, "2006-01-02T15:04:05.000000Z".
CREATE TABLE entries (
	seq         INTEGER PRIMARY KEY,
	cycle       INTEGER NOT NULL,
	type        TEXT    NOT NULL,
	state       TEXT    NOT NULL DEFAULT '',
	ref         TEXT    NOT NULL DEFAULT '',
	actor       TEXT    NOT NULL,
	at          TEXT    NOT NULL,
	legal_basis TEXT    NOT NULL DEFAULT '',
	payload     BLOB    NOT NULL,
	prev_hash   TEXT    NOT NULL,
	hash        TEXT    NOT NULL,
	idem_key    TEXT    UNIQUE
);

-- seq is implicit in SQLite indexes (the rowid), so both serve "WHERE cycle = ? AND
-- type|state = ? ORDER BY seq" without a sort.
CREATE INDEX entries_cycle_type ON entries (cycle, type);
CREATE INDEX entries_cycle_state ON entries (cycle, state);

-- Delivery totals per cycle and state, updated with ledger.Delta in the transaction
-- that appends the delivery: always the sum over the entries.
CREATE TABLE totals (
	cycle       INTEGER NOT NULL,
	state       TEXT    NOT NULL,
	relocations INTEGER NOT NULL DEFAULT 0,
	payments    INTEGER NOT NULL DEFAULT 0,
	alternative INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (cycle, state)
);

CREATE TABLE users (
	id            INTEGER PRIMARY KEY,
	name          TEXT NOT NULL UNIQUE,
	role          TEXT NOT NULL,
	state         TEXT NOT NULL DEFAULT '',
	password_hash TEXT NOT NULL DEFAULT '',
	created_at    TEXT NOT NULL
);

-- Hashed API tokens and session secrets; expires is NULL for "never".
CREATE TABLE credentials (
	kind    TEXT    NOT NULL,
	hash    TEXT    NOT NULL,
	user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	label   TEXT    NOT NULL DEFAULT '',
	expires TEXT,
	PRIMARY KEY (kind, hash)
);
CREATE INDEX credentials_user ON credentials (user_id);
