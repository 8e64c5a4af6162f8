package postgres_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"

	"solidarity"
	"solidarity/internal/postgres"
	"solidarity/internal/storetest"
)

// testDSN returns the DSN of the test server from SOLIDARITY_TEST_POSTGRES. Without
// it the tests skip, unless SOLIDARITY_TEST_POSTGRES_REQUIRED=1 (as in .ci/run).
func testDSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv("SOLIDARITY_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("SOLIDARITY_TEST_POSTGRES_REQUIRED") == "1" {
			tb.Fatal("SOLIDARITY_TEST_POSTGRES is not set but SOLIDARITY_TEST_POSTGRES_REQUIRED=1")
		}
		tb.Skip("SOLIDARITY_TEST_POSTGRES is not set (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable): skipping the PostgreSQL store")
	}
	return dsn
}

// freshSchema creates a schema of its own for one test, dropped at cleanup, and
// returns the DSN whose search_path selects it.
func freshSchema(tb testing.TB) string {
	tb.Helper()
	dsn := testDSN(tb)
	name := "storetest_" + strings.ToLower(rand.Text()[:12])
	admin(tb, dsn, `CREATE SCHEMA `+pgx.Identifier{name}.Sanitize())
	tb.Cleanup(func() { admin(tb, dsn, `DROP SCHEMA `+pgx.Identifier{name}.Sanitize()+` CASCADE`) })
	return withParams(dsn, "search_path", name)
}

// withParams adds key=value parameters to a URL or key=value DSN. pgx sends
// search_path as a run-time parameter when it connects; pgxpool reads pool_*.
func withParams(dsn string, kv ...string) string {
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		if u, err := url.Parse(dsn); err == nil {
			q := u.Query()
			for i := 0; i+1 < len(kv); i += 2 {
				q.Set(kv[i], kv[i+1])
			}
			u.RawQuery = q.Encode()
			return u.String()
		}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		dsn += " " + kv[i] + "=" + kv[i+1]
	}
	return dsn
}

func admin(tb testing.TB, dsn, sql string, args ...any) {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		tb.Fatalf("connect to SOLIDARITY_TEST_POSTGRES: %v", err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, sql, args...); err != nil {
		tb.Fatalf("%s: %v", sql, err)
	}
}

// mustOpen opens a store with a small pool, so that the parallel cases stay well under
// max_connections whatever the number of CPUs, and closes it at cleanup.
func mustOpen(tb testing.TB, dsn string) *postgres.Store {
	tb.Helper()
	s, err := postgres.Open(context.Background(), withParams(dsn, "pool_max_conns", "4"))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestStore(t *testing.T) {
	testDSN(t)
	storetest.Run(t, func(t *testing.T) storetest.Harness {
		dsn := freshSchema(t)
		h := storetest.Harness{Store: mustOpen(t, dsn)}
		h.Reopen = func() solidarity.Store {
			if err := h.Store.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			return mustOpen(t, dsn)
		}
		h.Tamper = func(seq int64) {
			// Flip the lowest bit of the middle byte of the payload.
			admin(t, dsn, `UPDATE entries SET payload =
				set_byte(payload, length(payload)/2, get_byte(payload, length(payload)/2) # 1)
				WHERE seq = $1`, seq)
		}
		return h
	})
}

// TestCrash kills a writer process in the middle of appends: what it acknowledged is
// there after reconnecting, and nothing else is half-written.
func TestCrash(t *testing.T) {
	testDSN(t)
	storetest.Crash(t, func() string { return freshSchema(t) },
		func(t *testing.T, dsn string) solidarity.Store { return mustOpen(t, dsn) })
}

// TestMigrateConcurrently opens several stores on one empty schema at once: the
// advisory lock lets exactly one of them migrate.
func TestMigrateConcurrently(t *testing.T) {
	dsn := freshSchema(t)
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
	storetest.BenchAppend(b, mustOpen(b, freshSchema(b)))
}
