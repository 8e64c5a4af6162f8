package postgres

import (
	"context"
	"io/fs"

	"solidarity"
)

// Option changes how Open opens a database.
type Option int

const (
	// ReadOnly opens the database for reading only: every session runs with
	// default_transaction_read_only, so any write fails in the server (SQLSTATE 25006)
	// whatever the role may do, and no migration runs. A schema older than this
	// program's is refused: open it once read-write to migrate it.
	ReadOnly Option = iota + 1
)

// migrated checks, for a read-only open, that every embedded migration has been
// applied: a read-only store cannot migrate, and an older schema would fail later.
func (s *Store) migrated(ctx context.Context) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return internal("migrate", err)
	}
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		if pgCode(err) == undefinedTable {
			return solidarity.Errorf(solidarity.EINVALID, "postgres: not a solidarity database (no schema)")
		}
		return internal("open", err)
	}
	if n < len(names) {
		return solidarity.Errorf(solidarity.EINVALID,
			"postgres: the database schema is older than this program (%d of %d migrations): open it once read-write (e.g. with serve) to migrate it", n, len(names))
	}
	return nil
}

// undefinedTable is SQLSTATE 42P01.
const undefinedTable = "42P01"

// errReadOnly is the answer of a write to a store opened ReadOnly.
var errReadOnly = solidarity.Errorf(solidarity.EINVALID, "postgres: the database is open read-only")
