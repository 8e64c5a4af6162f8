-- Delivery totals per cycle, state and day (UTC) of recording, updated with the totals
-- in the transaction that appends a delivery: balances as of a day sum the days up to
-- it, a few rows per state, rather than every delivery entry.
CREATE TABLE totals_daily (
	cycle       INTEGER NOT NULL,
	state       TEXT    NOT NULL,
	day         TEXT    NOT NULL, -- "2006-01-02", the UTC day of the entry's at
	relocations INTEGER NOT NULL DEFAULT 0,
	payments    INTEGER NOT NULL DEFAULT 0,
	alternative INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (cycle, state, day)
);

-- The deliveries recorded so far. total() sums as a float and never fails: a day whose
-- sum would not fit an integer (only a ledger written before the bounds of issue 12)
-- is clamped, and ledger verify then names it.
INSERT INTO totals_daily (cycle, state, day, relocations, payments, alternative)
SELECT cycle, state, substr(at, 1, 10),
	CAST(max(min(total(CASE type WHEN 'relocation.delivered' THEN coalesce(json_extract(CAST(payload AS TEXT), '$.relocations'), 0) ELSE 0 END), 9.2e18), -9.2e18) AS INTEGER),
	CAST(max(min(total(CASE type WHEN 'payment.made' THEN coalesce(json_extract(CAST(payload AS TEXT), '$.eur_cents'), 0) ELSE 0 END), 9.2e18), -9.2e18) AS INTEGER),
	CAST(max(min(total(CASE type WHEN 'alternative.delivered' THEN coalesce(json_extract(CAST(payload AS TEXT), '$.eur_cents'), 0) ELSE 0 END), 9.2e18), -9.2e18) AS INTEGER)
FROM entries
WHERE type IN ('relocation.delivered', 'payment.made', 'alternative.delivered')
GROUP BY cycle, state, substr(at, 1, 10);

-- Balances as of a time within a day read that day's deliveries up to it.
CREATE INDEX entries_cycle_type_at ON entries (cycle, type, at);
