package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
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
