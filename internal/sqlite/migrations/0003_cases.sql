-- The case flow (solidarity.CaseStore): arrivals, their cases and the access log.
-- Times are UTC text with microseconds like entries.at, so text order is time order;
-- a time that is not set (a case not closed, no time limit running) is NULL.

-- An arrival (a disembarkation): no personal data.
CREATE TABLE arrivals (
	id          TEXT    PRIMARY KEY,
	vessel      TEXT    NOT NULL DEFAULT '',
	port        TEXT    NOT NULL DEFAULT '',
	at          TEXT    NOT NULL,
	sar         INTEGER NOT NULL DEFAULT 0,
	benefitting TEXT    NOT NULL,
	persons     INTEGER NOT NULL DEFAULT 0,
	families    INTEGER NOT NULL DEFAULT 0,
	minors      INTEGER NOT NULL DEFAULT 0,
	registered  TEXT    NOT NULL,
	actor       TEXT    NOT NULL DEFAULT ''
);
-- Arrivals are listed latest first, of one benefitting state or of all.
CREATE INDEX arrivals_at ON arrivals (at);
CREATE INDEX arrivals_benefitting ON arrivals (benefitting, at);

-- A case: the pseudonymous flow in clear, the person sealed (personal, '' once
-- erased). flow is the cases.Case JSON, stored byte for byte. version counts the
-- changes: an update names the version it read.
CREATE TABLE cases (
	id          TEXT    PRIMARY KEY,
	arrival     TEXT    NOT NULL REFERENCES arrivals (id),
	family      TEXT    NOT NULL DEFAULT '',
	benefitting TEXT    NOT NULL,
	allocated   TEXT    NOT NULL DEFAULT '',
	responsible TEXT    NOT NULL DEFAULT '',
	state       TEXT    NOT NULL,
	flow        BLOB    NOT NULL,
	next_due    TEXT,
	personal    TEXT    NOT NULL DEFAULT '',
	opened      TEXT    NOT NULL,
	closed      TEXT,
	erased      TEXT,
	version     INTEGER NOT NULL
);
-- The cases a state's officers may see: benefitting = ? OR allocated = ?, one index
-- for each side of the OR.
CREATE INDEX cases_benefitting ON cases (benefitting);
CREATE INDEX cases_allocated ON cases (allocated);
-- The cases of an arrival, and of a family within it (which moves together).
CREATE INDEX cases_arrival_family ON cases (arrival, family);
-- The deadline view: "WHERE next_due IS NOT NULL AND next_due < ? ORDER BY next_due,
-- id LIMIT ?" reads the first rows of this index in order, however many cases there
-- are. Only cases with a time limit running are in it.
CREATE INDEX cases_next_due ON cases (next_due, id) WHERE next_due IS NOT NULL;
-- Retention: the cases closed before a date.
CREATE INDEX cases_closed ON cases (closed) WHERE closed IS NOT NULL;

-- Every read of a personal record. AUTOINCREMENT: a seq is never used twice, so the
-- log reads in the order it was written.
CREATE TABLE access_log (
	seq     INTEGER PRIMARY KEY AUTOINCREMENT,
	at      TEXT    NOT NULL,
	actor   TEXT    NOT NULL,
	role    TEXT    NOT NULL DEFAULT '',
	state   TEXT    NOT NULL DEFAULT '',
	case_id TEXT    NOT NULL,
	purpose TEXT    NOT NULL DEFAULT ''
);
-- seq is implicit (the rowid), so "WHERE case_id|actor = ? ORDER BY seq DESC" reads
-- the index backwards without a sort.
CREATE INDEX access_log_case ON access_log (case_id);
CREATE INDEX access_log_actor ON access_log (actor);
