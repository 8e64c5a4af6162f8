package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/sqlite"
	"solidarity/internal/storetest"
)

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		path := filepath.Join(t.TempDir(), "solidarity.db")
		h := storetest.Harness{Store: mustOpen(t, path)}
		h.Reopen = func() solidarity.Store {
			if err := h.Store.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return mustOpen(t, path)
		}
		h.Tamper = func(seq int64) { tamper(t, path, seq) }
		return h
	})
}

// TestCases runs the case-flow suite, each case on a database file of its own.
func TestCases(t *testing.T) {
	storetest.Cases(t, func(t *testing.T) storetest.CaseStore {
		return mustOpen(t, filepath.Join(t.TempDir(), "solidarity.db"))
	})
}

// mustOpen opens the store at path and closes it at the test's cleanup.
func mustOpen(tb testing.TB, path string) *sqlite.Store {
	tb.Helper()
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

// tamper flips the lowest bit of the middle byte of entry seq's payload, through a
// connection of its own.
func tamper(tb testing.TB, path string, seq int64) {
	tb.Helper()
	db, err := sql.Open("sqlite", path+"?_busy_timeout=10000")
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	var p []byte
	if err := db.QueryRow(`SELECT payload FROM entries WHERE seq = ?`, seq).Scan(&p); err != nil {
		tb.Fatal(err)
	}
	p[len(p)/2] ^= 1
	if _, err := db.Exec(`UPDATE entries SET payload = ? WHERE seq = ?`, p, seq); err != nil {
		tb.Fatal(err)
	}
}

// TestCrash kills a writer process in the middle of appends: what it acknowledged is
// there after reopening, and nothing else is half-written.
func TestCrash(t *testing.T) {
	storetest.Crash(t, func() string { return filepath.Join(t.TempDir(), "solidarity.db") },
		func(t *testing.T, path string) solidarity.Store { return mustOpen(t, path) })
}

func TestOpenRejectsNonFiles(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db", "x.db?mode=ro"} {
		if _, err := sqlite.Open(context.Background(), path); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("Open(%q): %v, want EINVALID", path, err)
		}
	}
}

func TestMigrationsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solidarity.db")
	mustOpen(t, path).Close()
	mustOpen(t, path) // a second open finds every migration applied
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var mode string
	if err := db.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil || n == 0 {
		t.Fatalf("schema_migrations: %d rows, %v", n, err)
	}
	if err := db.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode %q, %v", mode, err)
	}
}

func BenchmarkAppend(b *testing.B) {
	storetest.BenchAppend(b, mustOpen(b, filepath.Join(b.TempDir(), "solidarity.db")))
}

// TestDeadlineIndex checks that the deadline view reads cases_next_due in order, with
// no sort, over 100 000 cases of which a tenth have a time limit running.
func TestDeadlineIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "solidarity.db")
	mustOpen(t, path)
	db, err := sql.Open("sqlite", path+"?_busy_timeout=10000")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		`INSERT INTO arrivals (id, at, benefitting, registered) VALUES ('A', '2026-01-01T00:00:00.000000Z', 'IT', '2026-01-01T00:00:00.000000Z')`,
		`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000)
		INSERT INTO cases (id, arrival, benefitting, state, flow, next_due, opened, closed, version)
		SELECT printf('C-%06d', i), 'A', 'IT', 'registered', x'7b7d',
			CASE WHEN i % 10 = 0 THEN strftime('%Y-%m-%dT%H:%M:%S.000000Z', '2026-01-01', '+' || (i % 365) || ' days') END,
			'2026-01-01T00:00:00.000000Z',
			CASE WHEN i % 10 <> 0 THEN '2026-02-01T00:00:00.000000Z' END, 1
		FROM n`,
		`ANALYZE`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	rows, err := db.Query(`EXPLAIN QUERY PLAN SELECT * FROM cases
		WHERE next_due IS NOT NULL AND next_due < ? ORDER BY next_due, id LIMIT ?`, "2026-02-01T00:00:00.000000Z", 100)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	got := strings.Join(plan, "; ")
	t.Logf("plan: %s", got)
	if !strings.Contains(got, "USING COVERING INDEX cases_next_due") && !strings.Contains(got, "USING INDEX cases_next_due") ||
		strings.Contains(got, "TEMP B-TREE") {
		t.Fatalf("the deadline view's plan is %q: want cases_next_due read in order", got)
	}
}
