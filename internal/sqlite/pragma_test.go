package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// TestPragmas checks the durability and safety settings each pool really runs with.
func TestPragmas(t *testing.T) {
	ctx := context.Background()
	s, err := Open(ctx, filepath.Join(t.TempDir(), "solidarity.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, c := range []struct {
		db     *sql.DB
		pragma string
		want   string
	}{
		{s.write, "journal_mode", "wal"},
		{s.write, "synchronous", "2"}, // FULL
		{s.write, "foreign_keys", "1"},
		{s.write, "busy_timeout", "10000"},
		{s.write, "query_only", "0"},
		{s.read, "journal_mode", "wal"},
		{s.read, "synchronous", "2"},
		{s.read, "foreign_keys", "1"},
		{s.read, "busy_timeout", "10000"},
		{s.read, "query_only", "1"},
	} {
		var got string
		if err := c.db.QueryRowContext(ctx, "PRAGMA "+c.pragma).Scan(&got); err != nil {
			t.Fatal(err)
		}
		if got != c.want {
			t.Errorf("PRAGMA %s = %s, want %s", c.pragma, got, c.want)
		}
	}
	if s.write.Stats().MaxOpenConnections != 1 {
		t.Errorf("writer pool allows %d connections", s.write.Stats().MaxOpenConnections)
	}
}
