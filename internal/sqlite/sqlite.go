// Package sqlite implements solidarity.Store on an embedded SQLite database
// (modernc.org/sqlite: pure Go, no cgo).
//
// The database is one file in WAL mode with synchronous=FULL, so an append that has
// returned survives a crash or a power cut. One connection writes: one writer
// goroutine per Store commits the queued appends in groups (internal/groupcommit),
// each group in one BEGIN IMMEDIATE transaction with a savepoint per append, so that
// one fsync makes a whole group durable. A small pool of query-only connections reads
// concurrently.
//
// The store checks no filter or record itself: the root package does (the filters'
// Normalize, ValidateAccess, User.Validate, Credential.Validate), the same for both
// stores, and the store translates what passes into SQL.
package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"slices"
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

// Option changes how Open opens a database file.
type Option int

const (
	// MustExist opens only an existing database: a missing file is ENOTFOUND naming
	// the path, never a new empty database (a typo in --db must not create one).
	MustExist Option = iota + 1
	// ReadOnly opens an existing database for reading only (it implies MustExist):
	// every connection is read-only and query-only, no migration runs, and a file
	// the process may not write (a copy handed to an auditor) opens all the same.
	// Writes fail. A schema older than this program's is refused: open it once
	// read-write to migrate it.
	ReadOnly
)

// fileMode is the mode of a database file Open creates: the owner only. SQLite gives
// its -wal and -shm files the mode of the database file.
const fileMode = 0o600

// Open opens the SQLite database at path and brings its schema up to date, creating
// the file (mode 0600) if it is missing unless opts say MustExist or ReadOnly. An
// existing file of 0 bytes is refused, never silently made a new database. path
// must name a file: an in-memory database cannot be shared by the writer and the
// readers.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") || strings.ContainsRune(path, '?') {
		return nil, solidarity.Errorf(solidarity.EINVALID, "sqlite: %q is not a plain database file path", path)
	}
	mustExist, readOnly := slices.Contains(opts, MustExist), slices.Contains(opts, ReadOnly)
	created, err := prepareFile(path, mustExist || readOnly)
	if err != nil {
		return nil, err
	}
	s, err := open(ctx, path, readOnly)
	if err != nil && created {
		os.Remove(path) // nothing of a failed first open is left behind
	}
	return s, err
}

func open(ctx context.Context, path string, readOnly bool) (*Store, error) {
	// A file: URI, so that SQLite itself never creates the file (mode=rw or ro): the
	// file exists now, made above with mode 0600 when it was new.
	mode := "rw"
	if readOnly {
		mode = "ro"
	}
	// A database with no -wal and no -shm beside it is open nowhere (SQLite removes
	// both when its last connection closes): read it as immutable, so that a
	// read-only command creates nothing beside it. A server starting meanwhile is not
	// seen: the command reads the file as it was when it started.
	immutable := readOnly && !exists(path+"-wal") && !exists(path+"-shm")
	dsn := func(extra ...string) string {
		q := url.Values{}
		q.Set("mode", mode)
		if immutable {
			q.Set("immutable", "1")
		}
		q.Set("_busy_timeout", fmt.Sprint(busyTimeout.Milliseconds()))
		q.Set("_foreign_keys", "on")
		q.Set("_synchronous", "FULL") // fsync the WAL at every commit
		for i := 0; i+1 < len(extra); i += 2 {
			q.Set(extra[i], extra[i+1])
		}
		return (&url.URL{Scheme: "file", Opaque: (&url.URL{Path: path}).EscapedPath(), RawQuery: q.Encode()}).String()
	}
	// secure_delete: deleted and overwritten content (an erased personal record) is
	// zeroed in the file, not left in free space.
	writeDSN := dsn("_journal_mode", "WAL", "_txlock", "immediate", "_pragma", "secure_delete(1)")
	if readOnly {
		writeDSN = dsn("_query_only", "on")
	}
	write, err := sql.Open("sqlite", writeDSN)
	if err != nil {
		return nil, internal("open", err)
	}
	write.SetMaxOpenConns(1)
	write.SetMaxIdleConns(1)
	write.SetConnMaxLifetime(0)
	write.SetConnMaxIdleTime(0)

	s := &Store{write: write, Now: time.Now}
	if readOnly {
		err = s.migrated(ctx, path)
	} else {
		err = s.migrate(ctx)
	}
	if err != nil {
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
	s.w = groupcommit.Start(maxBatch, batchTimeout, s.begin, internal)
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// prepareFile checks the database file before SQLite opens it: a missing file is
// ENOTFOUND when it must exist, else created empty with mode 0600; an existing file of
// 0 bytes is refused (a truncated or placeholder file is not a database to seed).
//
// Only a file this process has just created may be empty: any other is refused, so
// that an emptied database is never seeded again as a new one.
func prepareFile(path string, mustExist bool) (created bool, err error) {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist) && mustExist:
		return false, &solidarity.Error{Code: solidarity.ENOTFOUND, File: path, Message: "no database at this path (check --db or $SOLIDARITY_DB)"}
	case errors.Is(err, os.ErrNotExist):
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, fileMode)
		if err != nil {
			return false, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot create the database file here"}
		}
		return true, f.Close()
	case err != nil:
		return false, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot read the database file"}
	case fi.IsDir():
		return false, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "is a directory, not a database file"}
	case fi.Size() == 0:
		return false, &solidarity.Error{Code: solidarity.EINVALID, File: path,
			Message: "the database file is empty (0 bytes): not a solidarity database; restore it from a backup, or remove it to start a new one"}
	}
	return false, nil
}

// migrated reports, for a read-only open, that every embedded migration has been
// applied: a read-only store cannot migrate, and an older schema would fail later.
func (s *Store) migrated(ctx context.Context, path string) error {
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return internal("migrate", err)
	}
	var n int
	if err := s.write.QueryRowContext(ctx, `SELECT count(*) FROM schema_migrations`).Scan(&n); err != nil {
		if sqliteCode(err)&0xff == sqlite3.SQLITE_NOTADB {
			return &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "not a SQLite database"}
		}
		return &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "not a solidarity database (no schema)"}
	}
	if n < len(names) {
		return &solidarity.Error{Code: solidarity.EINVALID, File: path,
			Message: fmt.Sprintf("the database schema is older than this program (%d of %d migrations): open it once read-write (e.g. with serve) to migrate it", n, len(names))}
	}
	return nil
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

// internal wraps a database failure of op (solidarity.DatabaseError).
func internal(op string, err error) error { return solidarity.DatabaseError("sqlite", op, err) }

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
