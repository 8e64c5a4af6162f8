// Package pgtest gives tests a PostgreSQL schema of their own on the server named by
// $SOLIDARITY_TEST_POSTGRES. Without it tests skip, unless
// $SOLIDARITY_TEST_POSTGRES_REQUIRED=1 (as in .ci/run), where they fail.
package pgtest

import (
	"context"
	"crypto/rand"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
)

// DSN returns the test server's DSN, or skips (or fails) the test.
func DSN(tb testing.TB) string {
	tb.Helper()
	dsn := os.Getenv("SOLIDARITY_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("SOLIDARITY_TEST_POSTGRES_REQUIRED") == "1" {
			tb.Fatal("SOLIDARITY_TEST_POSTGRES is not set but SOLIDARITY_TEST_POSTGRES_REQUIRED=1")
		}
		tb.Skip("SOLIDARITY_TEST_POSTGRES is not set (e.g. postgres://postgres@127.0.0.1:5432/test?sslmode=disable): skipping PostgreSQL")
	}
	return dsn
}

// Schema creates a schema for one test, dropped at cleanup, and returns the DSN whose
// search_path selects it.
func Schema(tb testing.TB) string {
	tb.Helper()
	dsn := DSN(tb)
	name := "t_" + strings.ToLower(rand.Text()[:12])
	Admin(tb, dsn, `CREATE SCHEMA `+pgx.Identifier{name}.Sanitize())
	tb.Cleanup(func() { Admin(tb, dsn, `DROP SCHEMA `+pgx.Identifier{name}.Sanitize()+` CASCADE`) })
	return WithParams(dsn, "search_path", name)
}

// WithParams adds key=value parameters to a URL or key=value DSN. pgx sends
// search_path as a run-time parameter when it connects; pgxpool reads pool_*.
func WithParams(dsn string, kv ...string) string {
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

// Admin runs one statement on the server, failing the test on error.
func Admin(tb testing.TB, dsn, sql string, args ...any) {
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
