-- Delivery totals per cycle, state and day (UTC) of recording, updated with the totals
-- in the transaction that appends a delivery: balances as of a day sum the days up to
-- it, a few rows per state, rather than every delivery entry.
CREATE TABLE totals_daily (
	cycle       integer NOT NULL,
	state       text    NOT NULL,
	day         text    NOT NULL, -- '2006-01-02', the UTC day of the entry's at
	relocations bigint  NOT NULL DEFAULT 0,
	payments    bigint  NOT NULL DEFAULT 0,
	alternative bigint  NOT NULL DEFAULT 0,
	PRIMARY KEY (cycle, state, day)
);

-- The deliveries recorded so far, summed exactly (numeric). A day whose sum would not
-- fit a bigint (only a ledger written before the bounds of issue 12) is clamped, and
-- ledger verify then names it.
INSERT INTO totals_daily (cycle, state, day, relocations, payments, alternative)
SELECT cycle, state, to_char(at AT TIME ZONE 'UTC', 'YYYY-MM-DD'),
	greatest(least(sum(CASE type WHEN 'relocation.delivered' THEN coalesce((convert_from(payload, 'UTF8')::jsonb ->> 'relocations')::numeric, 0) ELSE 0 END), 9223372036854775807), -9223372036854775808)::bigint,
	greatest(least(sum(CASE type WHEN 'payment.made' THEN coalesce((convert_from(payload, 'UTF8')::jsonb ->> 'eur_cents')::numeric, 0) ELSE 0 END), 9223372036854775807), -9223372036854775808)::bigint,
	greatest(least(sum(CASE type WHEN 'alternative.delivered' THEN coalesce((convert_from(payload, 'UTF8')::jsonb ->> 'eur_cents')::numeric, 0) ELSE 0 END), 9223372036854775807), -9223372036854775808)::bigint
FROM entries
WHERE type IN ('relocation.delivered', 'payment.made', 'alternative.delivered')
GROUP BY 1, 2, 3;

-- Balances as of a time within a day read that day's deliveries up to it.
CREATE INDEX entries_cycle_type_at ON entries (cycle, type, at);
