-- The ledger: hash-chained, append-only entries. seq is assigned by the store while
-- it holds the head row's lock. payload is bytea, stored byte for byte (it is hashed:
-- jsonb would reorder keys); at is timestamptz, microseconds like ledger.Normalize.
CREATE TABLE entries (
	seq         bigint      PRIMARY KEY,
	cycle       integer     NOT NULL,
	type        text        NOT NULL,
	state       text        NOT NULL DEFAULT '',
	ref         text        NOT NULL DEFAULT '',
	actor       text        NOT NULL,
	at          timestamptz NOT NULL,
	legal_basis text        NOT NULL DEFAULT '',
	payload     bytea       NOT NULL,
	prev_hash   text        NOT NULL,
	hash        text        NOT NULL,
	idem_key    text        UNIQUE
);

-- seq last, so "WHERE cycle = $1 AND type|state = $2 ORDER BY seq" reads in order.
CREATE INDEX entries_cycle_type ON entries (cycle, type, seq);
CREATE INDEX entries_cycle_state ON entries (cycle, state, seq);

-- The chain's head, one row: appends lock it (SELECT ... FOR UPDATE), which
-- serialises them, and read the previous hash from it.
CREATE TABLE head (
	one  boolean PRIMARY KEY DEFAULT true CHECK (one),
	seq  bigint  NOT NULL,
	hash text    NOT NULL
);
INSERT INTO head (one, seq, hash) VALUES (true, 0, '');

-- Delivery totals per cycle and state, updated with ledger.Delta in the transaction
-- that appends the delivery: always the sum over the entries.
CREATE TABLE totals (
	cycle       integer NOT NULL,
	state       text    NOT NULL,
	relocations bigint  NOT NULL DEFAULT 0,
	payments    bigint  NOT NULL DEFAULT 0,
	alternative bigint  NOT NULL DEFAULT 0,
	PRIMARY KEY (cycle, state)
);

CREATE TABLE users (
	id            bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	name          text        NOT NULL UNIQUE,
	role          text        NOT NULL,
	state         text        NOT NULL DEFAULT '',
	password_hash text        NOT NULL DEFAULT '',
	created_at    timestamptz NOT NULL
);

-- Hashed API tokens and session secrets; expires is NULL for "never".
CREATE TABLE credentials (
	kind    text        NOT NULL,
	hash    text        NOT NULL,
	user_id bigint      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
	label   text        NOT NULL DEFAULT '',
	expires timestamptz,
	PRIMARY KEY (kind, hash)
);
CREATE INDEX credentials_user ON credentials (user_id);
