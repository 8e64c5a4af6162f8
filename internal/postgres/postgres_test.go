package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

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

// TestCases runs the case-flow suite, each case in a schema of its own.
func TestCases(t *testing.T) {
	pgtest.DSN(t)
	storetest.Cases(t, func(t *testing.T) storetest.CaseStore { return mustOpen(t, pgtest.Schema(t)) })
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

// TestDeadlineIndex checks that the deadline view reads cases_next_due, not the table,
// over 100 000 cases of which a tenth have a time limit running: in order when many
// are due, or as a bitmap whose few rows a top-N sort orders.
func TestDeadlineIndex(t *testing.T) {
	dsn := pgtest.Schema(t)
	mustOpen(t, dsn)
	pgtest.Admin(t, dsn, `INSERT INTO arrivals (id, at, benefitting, registered) VALUES ('A', '2026-01-01Z', 'IT', '2026-01-01Z')`)
	pgtest.Admin(t, dsn, `INSERT INTO cases (id, arrival, benefitting, state, flow, next_due, opened, closed, version)
		SELECT format('C-%s', lpad(i::text, 6, '0')), 'A', 'IT', 'registered', '\x7b7d',
			CASE WHEN i % 10 = 0 THEN timestamptz '2026-01-01Z' + (i % 365) * interval '1 day' END,
			'2026-01-01Z', CASE WHEN i % 10 <> 0 THEN timestamptz '2026-02-01Z' END, 1
		FROM generate_series(1, 100000) AS i`)
	pgtest.Admin(t, dsn, `ANALYZE cases`)

	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	// A near bound (a month: a few hundred cases) and a far one (a year: all 10 000
	// with a time limit): either way the plan reads the index, never the table.
	for _, before := range []time.Time{time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)} {
		var plan []string
		rows, err := conn.Query(ctx, `EXPLAIN SELECT * FROM cases
			WHERE next_due IS NOT NULL AND next_due < $1 ORDER BY next_due, id LIMIT $2`, before, 100)
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, strings.TrimSpace(line))
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		got := strings.Join(plan, "; ")
		t.Logf("plan before %s: %s", before.Format(time.DateOnly), got)
		if !strings.Contains(got, "Index Scan using cases_next_due") && !strings.Contains(got, "Bitmap Index Scan on cases_next_due") ||
			strings.Contains(got, "Seq Scan") {
			t.Fatalf("the deadline view's plan is %q: want it to read cases_next_due", got)
		}
	}
}
