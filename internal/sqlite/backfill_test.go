package sqlite_test

import (
	"database/sql"
	"path/filepath"
	"testing"

	"solidarity"
	"solidarity/internal/storetest"
)

// Migration 0005 backfills the daily delivery totals of a ledger written before it.
func TestDailyTotalsBackfill(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solidarity.db")
	storetest.Backfill(t, mustOpen(t, path), func() {
		db, err := sql.Open("sqlite", path+"?_busy_timeout=10000")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`DROP TABLE totals_daily; DROP INDEX entries_cycle_type_at; DELETE FROM schema_migrations WHERE name LIKE '%0005_totals_daily.sql'`); err != nil {
			t.Fatal(err)
		}
	}, func() solidarity.Store { return mustOpen(t, path) })
}
