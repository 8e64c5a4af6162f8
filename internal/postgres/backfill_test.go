package postgres_test

import (
	"testing"

	"solidarity"
	"solidarity/internal/pgtest"
	"solidarity/internal/storetest"
)

// Migration 0005 backfills the daily delivery totals of a ledger written before it.
func TestDailyTotalsBackfill(t *testing.T) {
	dsn := pgtest.Schema(t)
	storetest.Backfill(t, mustOpen(t, dsn), func() {
		pgtest.Admin(t, dsn, `DROP TABLE totals_daily`)
		pgtest.Admin(t, dsn, `DROP INDEX entries_cycle_type_at`)
		pgtest.Admin(t, dsn, `DELETE FROM schema_migrations WHERE name LIKE '%0005_totals_daily.sql'`)
	}, func() solidarity.Store { return mustOpen(t, dsn) })
}
