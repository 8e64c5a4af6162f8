-- The case flow (solidarity.CaseStore): arrivals, their cases and the access log.
-- A time that is not set (a case not closed, no time limit running) is NULL. IDs
-- compare byte by byte (COLLATE "C"), whatever the database's collation, so that
-- paging in ID order ("id > $1 ORDER BY id") means what it does on SQLite.

-- An arrival (a disembarkation): no personal data.
CREATE TABLE arrivals (
	id          text        COLLATE "C" PRIMARY KEY,
	vessel      text        NOT NULL DEFAULT '',
	port        text        NOT NULL DEFAULT '',
	at          timestamptz NOT NULL,
	sar         boolean     NOT NULL DEFAULT false,
	benefitting text        NOT NULL,
	persons     integer     NOT NULL DEFAULT 0,
	families    integer     NOT NULL DEFAULT 0,
	minors      integer     NOT NULL DEFAULT 0,
	registered  timestamptz NOT NULL,
	actor       text        NOT NULL DEFAULT ''
);
-- Arrivals are listed latest first, of one benefitting state or of all.
CREATE INDEX arrivals_at ON arrivals (at, id);
CREATE INDEX arrivals_benefitting ON arrivals (benefitting, at, id);

-- A case: the pseudonymous flow in clear, the person sealed (personal, '' once
-- erased). flow is the cases.Case JSON as bytea, stored byte for byte (jsonb would
-- reorder keys). version counts the changes: an update names the version it read.
CREATE TABLE cases (
	id          text        COLLATE "C" PRIMARY KEY,
	arrival     text        COLLATE "C" NOT NULL REFERENCES arrivals (id),
	family      text        NOT NULL DEFAULT '',
	benefitting text        NOT NULL,
	allocated   text        NOT NULL DEFAULT '',
	responsible text        NOT NULL DEFAULT '',
	state       text        NOT NULL,
	flow        bytea       NOT NULL,
	next_due    timestamptz,
	personal    text        NOT NULL DEFAULT '',
	opened      timestamptz NOT NULL,
	closed      timestamptz,
	erased      timestamptz,
	version     bigint      NOT NULL
);
-- The cases a state's officers may see: benefitting = $1 OR allocated = $1, one
-- index for each side of the OR (a BitmapOr).
CREATE INDEX cases_benefitting ON cases (benefitting);
CREATE INDEX cases_allocated ON cases (allocated);
-- The cases of an arrival, and of a family within it (which moves together).
CREATE INDEX cases_arrival_family ON cases (arrival, family);
-- The deadline view: "WHERE next_due IS NOT NULL AND next_due < $1 ORDER BY
-- next_due, id LIMIT $2" reads the first rows of this index in order, however many
-- cases there are. Only cases with a time limit running are in it.
CREATE INDEX cases_next_due ON cases (next_due, id) WHERE next_due IS NOT NULL;
-- Retention: the cases closed before a date.
CREATE INDEX cases_closed ON cases (closed) WHERE closed IS NOT NULL;

-- Every read of a personal record, numbered in the order it was logged.
CREATE TABLE access_log (
	seq     bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
	at      timestamptz NOT NULL,
	actor   text        NOT NULL,
	role    text        NOT NULL DEFAULT '',
	state   text        NOT NULL DEFAULT '',
	case_id text        NOT NULL,
	purpose text        NOT NULL DEFAULT ''
);
-- seq last, so "WHERE case_id|actor = $1 ORDER BY seq DESC" reads the index backwards.
CREATE INDEX access_log_case ON access_log (case_id, seq);
CREATE INDEX access_log_actor ON access_log (actor, seq);
