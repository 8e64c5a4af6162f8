// Package postgres implements solidarity.Store on PostgreSQL with pgx/v5.
//
// Appends are committed in groups by one writer goroutine per Store
// (internal/groupcommit): each batch is one READ COMMITTED transaction that first locks
// the one-row head table (SELECT ... FOR UPDATE), which serialises the writers of every
// process on the database and holds the chain's last sequence number and hash, then
// runs each append in a savepoint and commits once. The schema lives in the
// connection's search_path, so tests can give each store a schema of its own.
//
// The store checks no filter or record itself: the root package does (the filters'
// Normalize, ValidateAccess, User.Validate, Credential.Validate), the same for both
// stores, and the store translates what passes into SQL.
package postgres

import (
	"context"
	"embed"
	"errors"
	"io/fs"
	"slices"
	"sort"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"solidarity"
	"solidarity/internal/groupcommit"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLock is the pg_advisory_lock key held while migrating, so that servers
// starting together do not run the same migration twice.
const migrationLock int64 = 0x736f6c69_6d696772 // "solimigr"

// Store is a solidarity.Store on a PostgreSQL database.
type Store struct {
	pool *pgxpool.Pool
	w    *groupcommit.Writer // the single writer: group commit of appends

	analyzing atomic.Bool // an ANALYZE of cases is running (refreshStats)
	readOnly  bool        // opened ReadOnly: appends are refused

	// Now is the clock that stamps users' creation; time.Now by default.
	Now func() time.Time
}

var _ solidarity.Store = (*Store)(nil)

// Open connects to the database named by dsn (a postgres:// URL or key=value
// string; pgxpool's pool_* parameters apply) and brings its schema up to date. Its
// sessions run with plan_cache_mode=force_custom_plan unless dsn sets it.
//
// With ReadOnly (readonly.go) every session is read-only and no migration runs: for
// the commands that only read, such as `ledger verify`, which then work with a role
// that may only read.
func Open(ctx context.Context, dsn string, opts ...Option) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dsn)
	if err != nil {
		// The message may quote the DSN, password included: keep it out.
		return nil, solidarity.Errorf(solidarity.EINVALID, "postgres: cannot parse the connection string")
	}
	// pgx prepares and caches every statement; PostgreSQL then plans a prepared
	// statement for its actual arguments only five times before it may settle for a
	// generic plan, made without them, which it keeps until the table is analysed
	// again. Made while a table is small (a new ledger) that plan scans the table,
	// and the idempotency lookup or a rule check's read then slows down with every
	// entry; skewed columns (a few pledges among millions of deliveries) mislead it too.
	// Planning each execution is cheap for these statements. A DSN may set otherwise.
	if _, ok := cfg.ConnConfig.RuntimeParams["plan_cache_mode"]; !ok {
		cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	}
	readOnly := slices.Contains(opts, ReadOnly)
	if readOnly {
		cfg.ConnConfig.RuntimeParams["default_transaction_read_only"] = "on"
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, internal("open", err)
	}
	s := &Store{pool: pool, Now: time.Now, readOnly: readOnly}
	migrate := s.migrate
	if readOnly {
		migrate = s.migrated
	}
	if err := migrate(ctx); err != nil {
		pool.Close()
		return nil, err
	}
	s.w = groupcommit.Start(maxBatch, batchTimeout, s.begin, internal)
	return s, nil
}

// Close stops the writer, which first commits the appends already queued (appends
// after Close fail), then closes the pool, waiting for connections in use to be
// released. It is safe to call more than once.
func (s *Store) Close() error {
	s.w.Stop()
	s.pool.Close()
	return nil
}

// Ping reports whether the database answers.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.pool.Ping(ctx); err != nil {
		return internal("ping", err)
	}
	return nil
}

// migrate runs the embedded migrations not yet recorded in schema_migrations, in
// name order, each in its own transaction, under an advisory lock.
func (s *Store) migrate(ctx context.Context) (err error) {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return internal("migrate", err)
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock($1)`, migrationLock); err != nil {
		return internal("migrate", err)
	}
	defer func() {
		// A session lock outlives a failed unlock: drop the connection then.
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		if _, uerr := conn.Exec(uctx, `SELECT pg_advisory_unlock($1)`, migrationLock); uerr != nil {
			conn.Conn().Close(uctx)
			if err == nil {
				err = internal("migrate", uerr)
			}
		}
	}()

	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return internal("migrate", err)
	}
	names, err := fs.Glob(migrations, "migrations/*.sql")
	if err != nil {
		return internal("migrate", err)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := migrateFile(ctx, conn.Conn(), name); err != nil {
			return err
		}
	}
	return nil
}

func migrateFile(ctx context.Context, conn *pgx.Conn, name string) error {
	tx, err := conn.Begin(ctx)
	if err != nil {
		return internal("migrate "+name, err)
	}
	defer tx.Rollback(ctx)

	var done bool
	if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM schema_migrations WHERE name = $1)`, name).Scan(&done); err != nil {
		return internal("migrate "+name, err)
	} else if done {
		return nil
	}
	src, err := fs.ReadFile(migrations, name)
	if err != nil {
		return internal("migrate "+name, err)
	}
	// No arguments: the simple protocol, which runs every statement of the file.
	if _, err := tx.Exec(ctx, string(src)); err != nil {
		return internal("migrate "+name, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations (name) VALUES ($1)`, name); err != nil {
		return internal("migrate "+name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return internal("migrate "+name, err)
	}
	return nil
}

// internal wraps a database failure of op (solidarity.DatabaseError).
func internal(op string, err error) error { return solidarity.DatabaseError("postgres", op, err) }

// pgCode returns the SQLSTATE of a PostgreSQL error, or "".
func pgCode(err error) string {
	if e, ok := errors.AsType[*pgconn.PgError](err); ok {
		return e.Code
	}
	return ""
}

const (
	uniqueViolation     = "23505"
	foreignKeyViolation = "23503"
)
