package main

import (
	"context"
	"flag"
	"os"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/client"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/report"
	"solidarity/ledger"
)

// target is where a command acts: the local database (as a named user, or as the
// System actor), or a remote server with an API token.
type target struct {
	db, server, token, as string
}

func (t *target) flags(fs *flag.FlagSet) {
	fs.StringVar(&t.db, "db", "", "database: a SQLite `file` or a postgres:// URL (default $SOLIDARITY_DB or solidarity.db)")
	fs.StringVar(&t.server, "server", os.Getenv("SOLIDARITY_SERVER"), "act on a remote server at this `URL` instead of a local database")
	fs.StringVar(&t.token, "token", "", "API `token` for --server (default $SOLIDARITY_TOKEN)")
	fs.StringVar(&t.as, "as", "", "on a local database, act as this `user` (default: the system actor)")
}

func (t *target) remote() bool { return t.server != "" }

// remoteClient is client for a command sent to --server, which takes neither --db
// nor --as: on a server the token says who acts, and a flag that would be ignored is
// an error.
func (t *target) remoteClient() (*client.Client, error) {
	switch {
	case t.db != "":
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--db", Message: "--db names a local database: not with --server (or $SOLIDARITY_SERVER)"}
	case t.as != "":
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--as", Message: "--as acts on a local database: with --server (or $SOLIDARITY_SERVER) the token says who acts"}
	}
	return t.client(), nil
}

// client is the server of --server, acting with --token or $SOLIDARITY_TOKEN.
func (t *target) client() *client.Client {
	token := t.token
	if token == "" {
		token = os.Getenv("SOLIDARITY_TOKEN")
	}
	return client.New(t.server, token)
}

// ledgerAPI is the ledger as a command uses it: the service on a local database, or
// the client of a server.
type ledgerAPI interface {
	solidarity.LedgerService
	solidarity.LedgerReader[*report.Balances, *ledger.Verification]
}

// localLedger is the ledger service as a command prints it: the exact balances
// rendered as the server publishes them (report.FromBalances), so that a local and a
// remote command print the same.
type localLedger struct{ *ledgersvc.Service }

func (l localLedger) Balances(ctx context.Context, year int, asOf time.Time) (*report.Balances, error) {
	b, err := l.Service.Balances(ctx, year, asOf)
	if err != nil {
		return nil, err
	}
	return report.FromBalances(b), nil
}

// caseAPI is the case flow as the case commands use it: the service on a local
// database, or the client of a server.
type caseAPI interface {
	solidarity.CaseService[*arrival.List, *casesvc.Registered, casesvc.EventRequest, *casesvc.Applied]
	solidarity.CaseReader[casesvc.CaseRow, *casesvc.CaseView, *arrival.Person, *casesvc.Determination]
}

// deadlineAPI is the deadline view and the consequences of missed limits, local or
// remote.
type deadlineAPI = solidarity.DeadlineService[casesvc.DueRow, casesvc.Consequence, casesvc.Confirmed]

// ledger returns the ledger the command acts on, the context to call it with and the
// function that closes it: the server's client, or the local database opened in mode
// m (app.ReadOnly for a command that only reads: it never creates a database).
func (t *target) ledger(ctx context.Context, m app.Mode) (ledgerAPI, context.Context, func(), error) {
	if t.remote() {
		c, err := t.remoteClient()
		return c, ctx, func() {}, err
	}
	db, err := t.open(ctx, m)
	if err != nil {
		return nil, nil, nil, err
	}
	return localLedger{db.ledger}, db.ctx, db.close, nil
}

// deadlines is ledger for the deadline commands.
func (t *target) deadlines(ctx context.Context, m app.Mode) (deadlineAPI, context.Context, func(), error) {
	if t.remote() {
		c, err := t.remoteClient()
		return c, ctx, func() {}, err
	}
	return t.cases(ctx, "deadlines", m)
}

// caseFlow is ledger for the case commands but erase and keys reseal (name is the
// command's).
func (t *target) caseFlow(ctx context.Context, name string, m app.Mode) (caseAPI, context.Context, func(), error) {
	if t.remote() {
		c, err := t.remoteClient()
		return c, ctx, func() {}, err
	}
	return t.cases(ctx, name, m)
}

// cases opens the case flow of the local database in mode m; erase and keys reseal
// act on it only: the API serves neither (they are the operator's, on the database).
func (t *target) cases(ctx context.Context, name string, m app.Mode) (*casesvc.Service, context.Context, func(), error) {
	if t.remote() {
		return nil, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: name + " works on a local database only (use the API)"}
	}
	db, err := t.open(ctx, m)
	if err != nil {
		return nil, nil, nil, err
	}
	keys, _, err := app.KeysMode(ctx, app.DSN(t.db), db.store, m)
	if err != nil {
		db.close()
		return nil, nil, nil, err
	}
	return app.CasesOn(db.store, db.ledger, keys), db.ctx, db.close, nil
}

// localDB is a local database opened for one command: the whole store, the ledger
// service on it and the context of the acting user.
type localDB struct {
	store  app.Store
	ledger *ledgersvc.Service
	ctx    context.Context
}

func (l *localDB) close() { l.store.Close() }

// open opens the local database in mode m and the context of the acting user.
func (t *target) open(ctx context.Context, m app.Mode) (*localDB, error) {
	if t.token != "" { // the flag only: $SOLIDARITY_TOKEN may be set for other commands
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--token", Message: "--token is for --server: on a local database --as says who acts"}
	}
	st, err := app.OpenMode(ctx, app.DSN(t.db), m)
	if err != nil {
		return nil, err
	}
	user := solidarity.System
	if t.as != "" {
		u, _, err := st.UserByName(ctx, t.as)
		if err != nil {
			st.Close()
			return nil, err
		}
		user = u
	}
	return &localDB{store: st, ledger: app.Ledger(st), ctx: solidarity.NewContextWithUser(ctx, user)}, nil
}
