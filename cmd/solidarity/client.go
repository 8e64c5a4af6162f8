package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/ledgersvc"
)

// target is where a ledger command acts: the local database (as a named user, or as
// the System actor), or a remote server with an API token.
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

// localDB is a local database opened for one command: the whole store, the ledger
// service on it and the context of the acting user.
type localDB struct {
	store  app.Store
	ledger *ledgersvc.Service
	ctx    context.Context
}

// close closes the store.
func (l *localDB) close() { l.store.Close() }

// open opens the local database in mode m (app.ReadOnly for a command that only
// reads: it never creates a database) and the context of the acting user.
func (t *target) open(ctx context.Context, m app.Mode) (*localDB, error) {
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

// local opens the local service in mode m and the context of the acting user.
func (t *target) local(ctx context.Context, m app.Mode) (*ledgersvc.Service, context.Context, func(), error) {
	l, err := t.open(ctx, m)
	if err != nil {
		return nil, nil, nil, err
	}
	return l.ledger, l.ctx, l.close, nil
}

// call sends one API request and decodes a JSON answer into out; API errors come back
// as *solidarity.Error with the server's code.
func (t *target) call(ctx context.Context, method, path string, body any, idemKey string, out any) (replayed bool, err error) {
	var rd io.Reader
	ctype := "application/json"
	switch b := body.(type) {
	case nil:
	case string: // a TOML cycle file
		rd, ctype = strings.NewReader(b), "application/toml"
	default:
		buf, err := json.Marshal(b)
		if err != nil {
			return false, err
		}
		rd = bytes.NewReader(buf)
	}
	req, err := http.NewRequestWithContext(ctx, method, strings.TrimRight(t.server, "/")+path, rd)
	if err != nil {
		return false, &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: err.Error()}
	}
	if rd != nil {
		req.Header.Set("Content-Type", ctype)
	}
	token := t.token
	if token == "" {
		token = os.Getenv("SOLIDARITY_TOKEN")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if idemKey != "" {
		req.Header.Set("Idempotency-Key", idemKey)
	}
	client := &http.Client{Timeout: 60 * time.Second}
	res, err := client.Do(req)
	if err != nil {
		return false, fmt.Errorf("server %s: %w", t.server, err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return false, err
	}
	if res.StatusCode >= 400 {
		var e struct {
			Error solidarity.Error `json:"error"`
		}
		if json.Unmarshal(data, &e) == nil && e.Error.Code != "" {
			return false, &e.Error
		}
		return false, fmt.Errorf("server %s: %s", t.server, res.Status)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			return false, fmt.Errorf("server %s: unexpected answer: %w", t.server, err)
		}
	}
	return res.Header.Get("Idempotency-Replayed") == "true", nil
}
