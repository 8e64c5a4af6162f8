-- The cycle an arrival's case entries, allocations and transfers count in: 0 for the
-- real pool of each event's year, a demonstration cycle (9000-9999) for the arrivals
-- of a demonstration, so that the demonstration never enters a real pool's figures.
ALTER TABLE arrivals ADD COLUMN cycle INTEGER NOT NULL DEFAULT 0;
