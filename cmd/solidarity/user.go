package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"solidarity"
	"solidarity/internal/app"
)

const userHelp = `Usage: solidarity user add --name NAME --role coordinator|officer|auditor [--state XX] [--password-stdin] [--db DSN]
       solidarity user list [--db DSN]

Manages accounts in a local database (the first coordinator is created this way).
Officers act for one Member State (--state). With --password-stdin the password (at
least 12 characters) is read from the first line of standard input; without it the
account has no password and logs in with API tokens only.
`

const tokenHelp = `Usage: solidarity token create --name NAME [--label LABEL] [--db DSN]

Issues an API token for a user of a local database and prints it once; only its hash is
stored. Use it with 'Authorization: Bearer TOKEN' or --server URL --token TOKEN.
`

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
	if err := parse(fs, args[1:], false); err != nil {
		return err
	}
	if t.remote() {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: "user commands work on a local database"}
	}
	// user add may start a ledger (the first coordinator); user list only reads.
	mode := app.Create
	if args[0] != "add" {
		mode = app.ReadOnly
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
			line, err := bufio.NewReader(os.Stdin).ReadString('\n')
			if err != nil && line == "" {
				return &solidarity.Error{Code: solidarity.EINVALID, Field: "--password-stdin", Message: "no password on standard input"}
			}
			pw = strings.TrimRight(line, "\r\n")
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
		fmt.Fprintln(tw, "NAME\tROLE\tSTATE")
		for _, u := range users {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", u.Name, u.Role, u.State)
		}
		return tw.Flush()
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown user command %q", args[0])}
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
	if err := parse(fs, args[1:], false); err != nil {
		return err
	}
	if args[0] != "create" {
		return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown token command %q", args[0])}
	}
	svc, uctx, done, err := t.local(ctx, app.Existing)
	if err != nil {
		return err
	}
	defer done()
	tok, err := svc.CreateToken(uctx, *name, *label)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, tok)
	return nil
}
