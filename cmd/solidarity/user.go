package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/web"
)

const userHelp = `Usage: solidarity user add --name NAME --role coordinator|officer|auditor [--state XX] [--password-stdin] [--db DSN]
       solidarity user list [--db DSN]
       solidarity user disable|enable --name NAME [--db DSN]
       solidarity user reset-password --name NAME [--password-stdin] [--db DSN]
       solidarity user passwd --name NAME [--db DSN]
       solidarity user log [--limit N] [--db DSN]

Manages accounts in a local database (the first coordinator is created this way).
Officers act for one Member State (--state). With --password-stdin the password (at
least 12 characters) is read from the first line of standard input; without it the
account has no password and logs in with API tokens only.

disable ends the user's sessions and stops its tokens at once, and it cannot log in
until enabled again. reset-password (the operator's reset) sets the password read
with --password-stdin, or prints a generated one once; the user's sessions end.
passwd is the user's own change: the current password on the first line of standard
input, the new one on the second; the user's sessions end. log prints the admin log:
who added, disabled, enabled, reset or issued what, latest first (no secrets).
Every change is recorded in the admin log, in the same transaction.
`

const tokenHelp = `Usage: solidarity token create --name NAME [--label LABEL] [--ttl 90d] [--db DSN]
       solidarity token list [--name NAME] [--db DSN]
       solidarity token revoke --id ID [--db DSN]

create issues an API token for a user of a local database and prints it once; only its
hash is stored. Use it with 'Authorization: Bearer TOKEN' or --server URL --token TOKEN.
It expires after --ttl (a duration like 720h or days like 90d; default 90 days, at most
366). list shows the tokens (id, user, label, created, expires), never their secrets;
revoke deletes the token with that id at once. Each is recorded in the admin log.
`

// readLines reads n lines from standard input (a password each).
func readLines(field string, n int) ([]string, error) {
	rd := bufio.NewReader(os.Stdin)
	var out []string
	for range n {
		line, err := rd.ReadString('\n')
		if err != nil && line == "" {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf("want %d line(s) on standard input", n)}
		}
		out = append(out, strings.TrimRight(line, "\r\n"))
	}
	return out, nil
}

func runUser(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, userHelp)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	var t target
	fs := newFlags("user "+args[0], userHelp, stdout, stderr)
	t.flags(fs)
	name := fs.String("name", "", "user `name`")
	role := fs.String("role", "", "`role`: coordinator, officer or auditor")
	state := fs.String("state", "", "the officer's Member `state`")
	pwStdin := fs.Bool("password-stdin", false, "read the password from standard input")
	limit := fs.Int("limit", 50, "log: at most `N` lines")
	if err := parse(fs, args[1:], false); err != nil {
		return err
	}
	if t.remote() {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: "user commands work on a local database"}
	}
	// user add may start a ledger (the first coordinator); list and log only read;
	// the others change an existing ledger.
	var mode app.Mode
	switch args[0] {
	case "add":
		mode = app.Create
	case "list", "log":
		mode = app.ReadOnly
	case "disable", "enable", "reset-password", "passwd":
		mode = app.Existing
	default:
		return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown user command %q", args[0])}
	}
	svc, uctx, done, err := t.local(ctx, mode)
	if err != nil {
		return err
	}
	defer done()
	switch args[0] {
	case "add":
		pw := ""
		if *pwStdin {
			lines, err := readLines("--password-stdin", 1)
			if err != nil {
				return err
			}
			pw = lines[0]
		}
		u := &solidarity.User{Name: *name, Role: solidarity.Role(*role), State: solidarity.MemberState(strings.ToUpper(*state))}
		if err := svc.AddUser(uctx, u, pw); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "added %s (%s%s)\n", u.Name, u.Role, suffix(u.State))
		return nil
	case "list":
		users, err := svc.Store.Users(ctx)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tROLE\tSTATE\tSTATUS")
		for _, u := range users {
			status := "active"
			if u.Disabled {
				status = "disabled"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", u.Name, u.Role, u.State, status)
		}
		return tw.Flush()
	case "disable", "enable":
		if *name == "" {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--name", Message: "which user?"}
		}
		u, err := svc.SetDisabled(uctx, *name, args[0] == "disable")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%sd %s\n", args[0], u.Name)
		return nil
	case "reset-password":
		if *name == "" {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--name", Message: "which user?"}
		}
		given := ""
		if *pwStdin {
			lines, err := readLines("--password-stdin", 1)
			if err != nil {
				return err
			}
			given = lines[0]
			if given == "" {
				return &solidarity.Error{Code: solidarity.EINVALID, Field: "--password-stdin", Message: "no password on standard input"}
			}
		}
		pw, err := svc.ResetPassword(uctx, *name, given)
		if err != nil {
			return err
		}
		if given == "" {
			fmt.Fprintf(stdout, "new password of %s (shown once): %s\n", *name, pw)
		} else {
			fmt.Fprintf(stdout, "password of %s reset\n", *name)
		}
		return nil
	case "passwd":
		if *name == "" {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--name", Message: "whose password?"}
		}
		u, _, err := svc.Store.UserByName(ctx, *name)
		if err != nil {
			return err
		}
		lines, err := readLines("stdin", 2)
		if err != nil {
			return err
		}
		if err := svc.ChangePassword(solidarity.NewContextWithUser(ctx, u), lines[0], lines[1], ""); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "password of %s changed\n", u.Name)
		return nil
	case "log":
		evs, err := svc.AdminLog(uctx, *limit)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "SEQ\tAT\tACTOR\tACTION\tUSER\tDETAIL")
		for _, e := range evs {
			fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\n", e.Seq, e.At.UTC().Format(time.RFC3339), e.Actor, e.Action, e.User, e.Detail)
		}
		return tw.Flush()
	}
	return nil
}

func suffix(m solidarity.MemberState) string {
	if m == "" {
		return ""
	}
	return ", " + string(m)
}

func runToken(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, tokenHelp)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	var t target
	fs := newFlags("token "+args[0], tokenHelp, stdout, stderr)
	t.flags(fs)
	name := fs.String("name", "", "user `name`")
	label := fs.String("label", "", "what the token is for")
	ttlFlag := fs.String("ttl", "", "create: the token's `lifetime`, like 720h or 90d (default 90d)")
	id := fs.String("id", "", "revoke: the token's `id` (from token list)")
	if err := parse(fs, args[1:], false); err != nil {
		return err
	}
	switch args[0] {
	case "create", "list", "revoke":
	default:
		return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown token command %q", args[0])}
	}
	ttl, err := web.ParseTTL(*ttlFlag)
	if err != nil {
		err.(*solidarity.Error).Field = "--ttl"
		return err
	}
	mode := app.Existing
	if args[0] == "list" {
		mode = app.ReadOnly
	}
	svc, uctx, done, err := t.local(ctx, mode)
	if err != nil {
		return err
	}
	defer done()
	switch args[0] {
	case "list":
		toks, err := svc.Tokens(uctx, *name)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tUSER\tLABEL\tCREATED\tEXPIRES")
		for _, k := range toks {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", k.ID, k.User, k.Label, when(k.Created, "-"), when(k.Expires, "never"))
		}
		return tw.Flush()
	case "revoke":
		if *id == "" {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--id", Message: "which token? (token list shows the ids)"}
		}
		k, err := svc.RevokeToken(uctx, *id)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "revoked %s of %s\n", k.ID, k.User)
		return nil
	}
	tok, _, err := svc.CreateTokenTTL(uctx, *name, *label, ttl)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}

func when(t time.Time, zero string) string {
	if t.IsZero() {
		return zero
	}
	return t.UTC().Format(time.RFC3339)
}
