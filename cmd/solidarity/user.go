package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"solidarity"
	"solidarity/internal/app"
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

var runUser = subcommands("user", userHelp, map[string]command{
	"add":            runUserAdd,
	"list":           runUserList,
	"disable":        userSetDisabled("disable"),
	"enable":         userSetDisabled("enable"),
	"reset-password": runUserResetPassword,
	"passwd":         runUserPasswd,
	"log":            runUserLog,
})

// userFlags returns the FlagSet of the user command name with the target flags.
func userFlags(name string, stdout, stderr io.Writer) (*flag.FlagSet, *target) {
	var t target
	fs := newFlags("user "+name, userHelp, stdout, stderr)
	t.flags(fs)
	return fs, &t
}

// users opens the local database in mode m for a user command: accounts are managed
// where the database is, never over the API from here.
func (t *target) users(ctx context.Context, m app.Mode) (*localDB, error) {
	if t.remote() {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: "user commands work on a local database"}
	}
	return t.open(ctx, m)
}

// passwordFlag is --password-stdin: the password is the first line of standard input.
func passwordFlag(fs *flag.FlagSet) func() (string, bool, error) {
	b := fs.Bool("password-stdin", false, "read the password from standard input")
	return func() (string, bool, error) {
		if !*b {
			return "", false, nil
		}
		lines, err := readLines("--password-stdin", 1)
		if err != nil {
			return "", true, err
		}
		return lines[0], true, nil
	}
}

// nameFlag is --name, the user a command is about; ask is what to answer without one.
func nameFlag(fs *flag.FlagSet, ask string) func() (string, error) {
	name := fs.String("name", "", "user `name`")
	return func() (string, error) {
		if *name == "" {
			return "", &solidarity.Error{Code: solidarity.EINVALID, Field: "--name", Message: ask}
		}
		return *name, nil
	}
}

// openNamed parses the flags of a user command about one existing user, opens the
// database for writing and returns the user's --name.
func openNamed(ctx context.Context, fs *flag.FlagSet, t *target, args []string, name func() (string, error)) (*localDB, string, error) {
	if err := parse(fs, args, false); err != nil {
		return nil, "", err
	}
	db, err := t.users(ctx, app.Existing)
	if err != nil {
		return nil, "", err
	}
	n, err := name()
	if err != nil {
		db.close()
		return nil, "", err
	}
	return db, n, nil
}

// runUserAdd adds an account; it may start a ledger (the first coordinator).
func runUserAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := userFlags("add", stdout, stderr)
	name := fs.String("name", "", "user `name`")
	role := fs.String("role", "", "`role`: coordinator, officer or auditor")
	state := fs.String("state", "", "the officer's Member `state`")
	password := passwordFlag(fs)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	db, err := t.users(ctx, app.Create)
	if err != nil {
		return err
	}
	defer db.close()
	pw, _, err := password()
	if err != nil {
		return err
	}
	u := &solidarity.User{Name: *name, Role: solidarity.Role(*role), State: solidarity.MemberState(strings.ToUpper(*state))}
	if err := db.ledger.AddUser(db.ctx, u, pw); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "added %s (%s%s)\n", u.Name, u.Role, suffix(u.State))
	return nil
}

func runUserList(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := userFlags("list", stdout, stderr)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	db, err := t.users(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer db.close()
	users, err := db.store.Users(ctx)
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
}

// userSetDisabled is disable (its sessions end and its tokens stop at once) and enable.
func userSetDisabled(sub string) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs, t := userFlags(sub, stdout, stderr)
		name := nameFlag(fs, "which user?")
		db, n, err := openNamed(ctx, fs, t, args, name)
		if err != nil {
			return err
		}
		defer db.close()
		u, err := db.ledger.SetDisabled(db.ctx, n, sub == "disable")
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%sd %s\n", sub, u.Name)
		return nil
	}
}

// runUserResetPassword is the operator's reset: the password of --password-stdin, or
// a generated one printed once.
func runUserResetPassword(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := userFlags("reset-password", stdout, stderr)
	name := nameFlag(fs, "which user?")
	password := passwordFlag(fs)
	db, n, err := openNamed(ctx, fs, t, args, name)
	if err != nil {
		return err
	}
	defer db.close()
	given, fromStdin, err := password()
	if err != nil {
		return err
	}
	if fromStdin && given == "" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--password-stdin", Message: "no password on standard input"}
	}
	pw, err := db.ledger.ResetPassword(db.ctx, n, given)
	if err != nil {
		return err
	}
	if given == "" {
		fmt.Fprintf(stdout, "new password of %s (shown once): %s\n", n, pw)
	} else {
		fmt.Fprintf(stdout, "password of %s reset\n", n)
	}
	return nil
}

// runUserPasswd is the user's own change: the current password and the new one on
// standard input.
func runUserPasswd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := userFlags("passwd", stdout, stderr)
	name := nameFlag(fs, "whose password?")
	db, n, err := openNamed(ctx, fs, t, args, name)
	if err != nil {
		return err
	}
	defer db.close()
	u, _, err := db.store.UserByName(ctx, n)
	if err != nil {
		return err
	}
	lines, err := readLines("stdin", 2)
	if err != nil {
		return err
	}
	if err := db.ledger.ChangePassword(solidarity.NewContextWithUser(ctx, u), lines[0], lines[1], ""); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "password of %s changed\n", u.Name)
	return nil
}

// runUserLog prints the admin log, latest first.
func runUserLog(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := userFlags("log", stdout, stderr)
	limit := fs.Int("limit", 50, "log: at most `N` lines")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	db, err := t.users(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer db.close()
	evs, err := db.ledger.AdminLog(db.ctx, 0, *limit)
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

func suffix(m solidarity.MemberState) string {
	if m == "" {
		return ""
	}
	return ", " + string(m)
}
