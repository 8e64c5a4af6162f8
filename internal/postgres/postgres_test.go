package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/pgtest"
	"solidarity/internal/postgres"
	"solidarity/internal/storetest"
)

// mustOpen opens a store with a small pool, so that the parallel cases stay well under
// max_connections whatever the number of CPUs, and closes it at cleanup.
func mustOpen(tb testing.TB, dsn string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), pgtest.WithParams(dsn, "pool_max_conns", "4"))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestStore(t *testing.T) {
	pgtest.DSN(t)
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		dsn := pgtest.Schema(t)
		h := storetest.Harness{Store: mustOpen(t, dsn)}
		h.Reopen = func() solidarity.Store {
			if err := h.Store.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return mustOpen(t, dsn)
		}
		h.Tamper = func(seq int64) {
			// Flip the lowest bit of the middle byte of the payload.
			pgtest.Admin(t, dsn, `UPDATE entries SET payload =
				set_byte(payload, length(payload)/2, get_byte(payload, length(payload)/2) # 1)
				WHERE seq = $1`, seq)
		}
		return h
	})
}

// TestCrash kills a writer process in the middle of appends: what it acknowledged is
// there after reconnecting, and nothing else is half-written.
func TestCrash(t *testing.T) {
	pgtest.DSN(t)
	storetest.Crash(t, func() string { return pgtest.Schema(t) },
		func(t *testing.T, dsn string) solidarity.Store { return mustOpen(t, dsn) })
}

// TestMigrateConcurrently opens several stores on one empty schema at once: the
// advisory lock lets exactly one of them migrate.
func TestMigrateConcurrently(t *testing.T) {
	dsn := pgtest.Schema(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			s, err := postgres.Open(context.Background(), dsn)
			if err == nil {
				s.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s := mustOpen(t, dsn)
	if seq, hash, err := s.Head(context.Background()); err != nil || seq != 0 || hash != "" {
		t.Fatalf("Head = %d %q %v", seq, hash, err)
	}
}

func TestOpenBadDSN(t *testing.T) {
	_, err := postgres.Open(context.Background(), "postgres://user:secret@[::1/x")
	if solidarity.ErrorCode(err) != solidarity.EINVALID || strings.Contains(fmt.Sprint(err), "secret") {
		t.Fatalf("Open with a bad DSN: %v", err)
	}
}

func BenchmarkAppend(b *testing.B) {
	storetest.BenchAppend(b, mustOpen(b, pgtest.Schema(b)))
}
