package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/web"
)

const tokenHelp = `Usage: solidarity token create --name NAME [--label LABEL] [--ttl 90d] [--db DSN]
       solidarity token list [--name NAME] [--db DSN]
       solidarity token revoke --id ID [--db DSN]

create issues an API token for a user of a local database and prints it once; only its
hash is stored. Use it with 'Authorization: Bearer TOKEN' or --server URL --token TOKEN.
It expires after --ttl (a duration like 720h or days like 90d; default 90 days, at most
366). list shows the tokens (id, user, label, created, expires), never their secrets;
revoke deletes the token with that id at once. Each is recorded in the admin log.
`

var runToken = subcommands("token", tokenHelp, map[string]command{
	"create": runTokenCreate,
	"list":   runTokenList,
	"revoke": runTokenRevoke,
})

// tokenFlags returns the FlagSet of the token command name: tokens are issued on the
// local database (--db, --as), never through a server.
func tokenFlags(name string, stdout, stderr io.Writer) (*flag.FlagSet, *target) {
	var t target
	fs := newFlags("token "+name, tokenHelp, stdout, stderr)
	fs.StringVar(&t.db, "db", "", "database: a SQLite `file` or a postgres:// URL (default $SOLIDARITY_DB or solidarity.db)")
	fs.StringVar(&t.as, "as", "", "act as this `user` (default: the system actor)")
	return fs, &t
}

// runTokenCreate issues a token and prints it once; only its hash is stored.
func runTokenCreate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := tokenFlags("create", stdout, stderr)
	name := fs.String("name", "", "user `name`")
	label := fs.String("label", "", "what the token is for")
	ttlFlag := fs.String("ttl", "", "the token's `lifetime`, like 720h or 90d (default 90d)")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	ttl, err := web.ParseTTL(*ttlFlag)
	if err != nil {
		err.(*solidarity.Error).Field = "--ttl"
		return err
	}
	db, err := t.open(ctx, app.Existing)
	if err != nil {
		return err
	}
	defer db.close()
	tok, _, err := db.ledger.CreateTokenTTL(db.ctx, *name, *label, ttl)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

// runTokenList shows the tokens, never their secrets.
func runTokenList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := tokenFlags("list", stdout, stderr)
	name := fs.String("name", "", "only the tokens of this user `name`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	db, err := t.open(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer db.close()
	toks, err := db.ledger.Tokens(db.ctx, *name)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tUSER\tLABEL\tCREATED\tEXPIRES")
	for _, k := range toks {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.User, k.Label, when(k.Created, "-"), when(k.Expires, "never"))
	}
	return tw.Flush()
}

// runTokenRevoke deletes a token at once.
func runTokenRevoke(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := tokenFlags("revoke", stdout, stderr)
	id := fs.String("id", "", "the token's `id` (from token list)")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	db, err := t.open(ctx, app.Existing)
	if err != nil {
		return err
	}
	defer db.close()
	if *id == "" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--id", Message: "which token? (token list shows the ids)"}
	}
	k, err := db.ledger.RevokeToken(db.ctx, *id)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "revoked %s of %s\n", k.ID, k.User)
	return nil
}

func when(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.UTC().Format(time.RFC3339)
}
