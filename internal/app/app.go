// Package app wires solidarity together for the binary: it opens the store a DSN names
// (SQLite by default, PostgreSQL for postgres:// URLs) as a whole Store, the ledger and
// the case tables in one value, on which Ledger and CasesOn build the two services,
// and seeds a new ledger with the shipped cycles and demonstration users.
//
// Files: app.go opens and seeds; keys.go finds and watches the keys that seal personal
// records and builds the case flow; diciotti.go seeds the demonstration replay.
package app

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/postgres"
	"solidarity/internal/sqlite"
)

// DefaultDSN is the embedded database: one SQLite file in the working directory.
const DefaultDSN = "solidarity.db"

// DSN returns the database to use: the flag value, else $SOLIDARITY_DB, else the default.
func DSN(flagValue string) string {
	if flagValue != "" {
		return flagValue
	}
	if v := os.Getenv("SOLIDARITY_DB"); v != "" {
		return v
	}
	return DefaultDSN
}

// IsPostgres reports whether dsn names a PostgreSQL server.
func IsPostgres(dsn string) bool {
	return strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://")
}

// Mode says whether opening a store may create it and may write to it. Every command
// opens its store through OpenMode with the mode of what it does, so that no command
// that only reads can create a database (a typo in --db is an error naming the path).
type Mode int

const (
	// Create opens the database, creating a SQLite file (mode 0600) that is missing:
	// serve, and the commands that start a ledger (cycle create, user add, arrival
	// import).
	Create Mode = iota
	// Existing opens a database that must exist, for writing: a missing file is
	// ENOTFOUND naming the path.
	Existing
	// ReadOnly opens a database that must exist, for reading only: no migration, no
	// write; the commands that only read (verify, export, balances, cases, ...).
	ReadOnly
)

// Store is a whole database: the ledger and the case tables. Both the SQLite and the
// PostgreSQL store are one, so that the binary hands the same value to the ledger
// service and to the case flow without asking the store what else it is.
type Store interface {
	solidarity.Store
	solidarity.CaseStore
}

// The stores Open returns.
var (
	_ Store = (*sqlite.Store)(nil)
	_ Store = (*postgres.Store)(nil)
)

// Open opens the store dsn names and runs its migrations, creating a missing SQLite
// file: OpenMode with Create.
func Open(ctx context.Context, dsn string) (Store, error) {
	return OpenMode(ctx, dsn, Create)
}

// OpenMode opens the store dsn names in mode m. A PostgreSQL database is never
// created by opening it; a SQLite file is created only in Create mode, and a file of
// 0 bytes is refused in every mode (internal/sqlite).
func OpenMode(ctx context.Context, dsn string, m Mode) (Store, error) {
	if IsPostgres(dsn) {
		if m == ReadOnly {
			return postgres.Open(ctx, dsn, postgres.ReadOnly)
		}
		return postgres.Open(ctx, dsn)
	}
	var opts []sqlite.Option
	switch m {
	case Existing:
		opts = append(opts, sqlite.MustExist)
	case ReadOnly:
		opts = append(opts, sqlite.ReadOnly)
	}
	return sqlite.Open(ctx, strings.TrimPrefix(dsn, "sqlite:"), opts...)
}

// IsNewLocal reports whether dsn names a SQLite file that does not exist yet: opening
// it in Create mode makes a new database (serve's first local start).
func IsNewLocal(dsn string) bool {
	if IsPostgres(dsn) {
		return false
	}
	_, err := os.Stat(strings.TrimPrefix(dsn, "sqlite:"))
	return errors.Is(err, os.ErrNotExist)
}

// Service opens the store and returns the ledger service on it (Create mode).
func Service(ctx context.Context, dsn string) (*ledgersvc.Service, error) {
	return ServiceMode(ctx, dsn, Create)
}

// ServiceMode opens the store in mode m and returns the ledger service on it.
func ServiceMode(ctx context.Context, dsn string, m Mode) (*ledgersvc.Service, error) {
	st, err := OpenMode(ctx, dsn, m)
	if err != nil {
		return nil, err
	}
	return Ledger(st), nil
}

// Ledger returns the ledger service on st, reading the shipped reference data only.
func Ledger(st Store) *ledgersvc.Service { return ledgersvc.New(st, &catalog.Catalog{}) }

// Credential is a demonstration account created by Seed, to print once.
type Credential struct {
	Name, Role, State, Password string
}

// demoUsers are one account per role, and officers of a benefitting state and of a
// few contributing states.
var demoUsers = []solidarity.User{
	{Name: "coordinator", Role: solidarity.Coordinator},
	{Name: "auditor", Role: solidarity.Auditor},
	{Name: "officer-it", Role: solidarity.Officer, State: "IT"},
	{Name: "officer-de", Role: solidarity.Officer, State: "DE"},
	{Name: "officer-fr", Role: solidarity.Officer, State: "FR"},
	{Name: "officer-ie", Role: solidarity.Officer, State: "IE"},
}

// Seed records every shipped cycle that the ledger lacks (as the System actor, with
// idempotency keys so that a crash mid-seed is finished by the next start) and, when
// demo is true and there are no users yet, creates the demonstration users with fresh
// random passwords, returned so that the caller can print them once.
func Seed(ctx context.Context, svc *ledgersvc.Service, demo bool) ([]Credential, error) {
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	have, err := svc.Cycles(ctx)
	if err != nil {
		return nil, err
	}
	for _, y := range cyclefile.Shipped() {
		if slices.Contains(have, y) {
			continue
		}
		src, err := cyclefile.ShippedSource(y)
		if err != nil {
			return nil, err
		}
		if _, _, err := svc.CreateCycle(sys, string(src), fmt.Sprintf("seed-cycle-%d", y)); err != nil {
			return nil, fmt.Errorf("seeding the %d cycle: %w", y, err)
		}
	}
	if !demo {
		return nil, nil
	}
	users, err := svc.Store.Users(ctx)
	if err != nil || len(users) > 0 {
		return nil, err
	}
	var out []Credential
	for _, u := range demoUsers {
		pw := rand.Text()[:20]
		u := u
		if err := svc.AddUser(sys, &u, pw); err != nil {
			return nil, fmt.Errorf("seeding user %s: %w", u.Name, err)
		}
		out = append(out, Credential{Name: u.Name, Role: string(u.Role), State: string(u.State), Password: pw})
	}
	return out, nil
}
