// Package sqlite implements solidarity.Store on an embedded SQLite database
// (modernc.org/sqlite: pure Go, no cgo).
//
// The database is one file in WAL mode with synchronous=FULL, so an append that has
// returned survives a crash or a power cut. One connection writes: one writer
// goroutine per Store commits the queued appends in groups (internal/groupcommit),
// each group in one BEGIN IMMEDIATE transaction with a savepoint per append, so that
// one fsync makes a whole group durable. A small pool of query-only connections reads
// concurrently.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"sort"
	"strings"
	"sync"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"solidarity"
	"solidarity/internal/groupcommit"
)

//go:embed migrations/*.sql
var migrations embed.FS

// readers is the size of the read pool.
const readers = 4

// busyTimeout is how long a connection waits for a lock held by another process
// (another instance on the same file, or a backup) before failing with SQLITE_BUSY.
const busyTimeout = 10 * time.Second

// Store is a solidarity.Store on one SQLite file.
type Store struct {
	write *sql.DB             // exactly one connection: the single writer
	read  *sql.DB             // query-only connections
	w     *groupcommit.Writer // the writer goroutine: group commit of appends

	// Now is the clock that stamps users' creation; time.Now by default.
	Now func() time.Time

	closeOnce sync.Once
	closeErr  error
}

var _ solidarity.Store = (*Store)(nil)

// Open opens (creating if needed) the SQLite database at path and brings its schema up
// to date. path must name a file: an in-memory database cannot be shared by the writer
// and the readers.
func Open(ctx context.Context, path string) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") || strings.ContainsRune(path, '?') {
		return nil, solidarity.Errorf(solidarity.EINVALID, "sqlite: %q is not a plain database file path", path)
	}
	dsn := func(extra ...string) string {
		q := url.Values{}
		q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
		q.Set("_foreign_keys", "on")
		q.Set("_synchronous", "FULL") // fsync the WAL at every commit
		for i := 0; i+1 < len(extra); i += 2 {
			q.Set(extra[i], extra[i+1])
		}
		return path + "?" + q.Encode()
	}
	// secure_delete: deleted and overwritten content (an erased personal record) is
	// zeroed in the file, not left in free space.
	write, err := sql.Open("sqlite", dsn("_journal_mode", "WAL", "_txlock", "immediate", "_pragma", "secure_delete(1)"))
	if err != nil {
		return nil, internal("open", err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)

	s := &Store{write: write, Now: time.Now}
	if err := s.migrate(ctx); err != nil {
		write.Close()
		return nil, err
	}

	read, err := sql.Open("sqlite", dsn("_query_only", "on"))
	if err != nil {
		write.Close()
		return nil, internal("open", err)
	}
	read.SetMaxOpenConns(readers)
	read.SetMaxIdleConns(readers)
	s.read = read
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	s.w = groupcommit.Start(maxBatch, batchTimeout, s.begin, internal)
	return s, nil
}

// Close stops the writer, which first commits the appends already queued (appends
// after Close fail), then closes the database. It is safe to call more than once.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.w.Stop()
		var errs []error
		if s.read != nil {
			errs = append(errs, s.read.Close())
		}
		errs = append(errs, s.write.Close())
		if err := errors.Join(errs...); err != nil {
			s.closeErr = internal("close", err)
		}
	})
	return s.closeErr
}

// Ping reports whether both the writer and the readers answer.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.write.PingContext(ctx); err != nil {
		return internal("ping", err)
	}
	if err := s.read.PingContext(ctx); err != nil {
		return internal("ping", err)
	}
	return nil
}

// migrate runs the embedded migrations not yet recorded in schema_migrations, in
// name order, each in its own transaction.
func (s *Store) migrate(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx,
		`CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)`); err != nil {
		return internal("migrate", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return internal("migrate", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := s.migrateFile(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (s *Store) migrateFile(ctx context.Context, name string) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return internal("migrate "+name, err)
	}
	defer tx.Rollback()

	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations WHERE name = ?`, name).Scan(&n); err != nil {
		return internal("migrate "+name, err)
	} else if n > 0 {
		return nil
	}
	src, err := fs.ReadFile(migrations, name)
	if err != nil {
		return internal("migrate "+name, err)
	}
	if _, err := tx.ExecContext(ctx, string(src)); err != nil {
		return internal("migrate "+name, err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`,
		name, formatTime(time.Now())); err != nil {
		return internal("migrate "+name, err)
	}
	if err := tx.Commit(); err != nil {
		return internal("migrate "+name, err)
	}
	return nil
}

// timeFormat is how times are stored: UTC, microseconds, fixed width, so that text
// order is time order and ledger hashes recompute from what is read back.
const timeFormat = "2006-01-02T15:04:05.000000Z"

func formatTime(t time.Time) string { return t.UTC().Truncate(time.Microsecond).Format(timeFormat) }

func parseTime(s string) (time.Time, error) { return time.Parse(timeFormat, s) }

// internal wraps a database failure: the *solidarity.Error in the chain says only
// "database error" (what a user may see); the cause stays in the chain for the log.
func internal(op string, err error) error {
	return fmt.Errorf("sqlite: %s: %w: %w", op,
		&solidarity.Error{Code: solidarity.EINTERNAL, Message: "database error"}, err)
}

// sqliteCode returns the extended result code of a SQLite error, or 0.
func sqliteCode(err error) int {
	if e, ok := errors.AsType[*sqlite.Error](err); ok {
		return e.Code()
	}
	return 0
}

func isUnique(err error) bool {
	c := sqliteCode(err)
	return c == sqlite3.SQLITE_CONSTRAINT_UNIQUE || c == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
}

func isForeignKey(err error) bool { return sqliteCode(err) == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY }
