package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
)

// runDeadlines shows the time limits overdue or ending soon, of the local database or
// of a server; --apply lists the consequences the law attaches to the missed ones and
// records those, once confirmed.
func runDeadlines(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("deadlines", stdout, stderr)
	format := formatFlag(fs)
	within := fs.Duration("within", 7*24*time.Hour, "deadline horizon")
	state := fs.String("state", "", "deadlines of this Member State only")
	apply := fs.Bool("apply", false, "show the consequences of missed time limits, then apply them once confirmed")
	yes := fs.Bool("yes", false, "apply the consequences listed without asking")
	if _, err := parseCase(fs, args, "deadlines", 0, "no arguments"); err != nil {
		return err
	}
	// The view only reads; --apply records the consequences.
	mode := app.ReadOnly
	if *apply {
		mode = app.Existing
	}
	svc, uctx, done, err := t.deadlines(ctx, mode)
	if err != nil {
		return err
	}
	defer done()
	if *apply {
		return confirmApply(uctx, svc, stdout, stderr, *format, *yes)
	}
	var st *solidarity.MemberState
	if *state != "" {
		m := solidarity.MemberState(strings.ToUpper(*state))
		st = &m
	}
	rows, err := svc.Deadlines(uctx, *within, st, solidarity.MaxCaseLimit)
	if err != nil {
		return err
	}
	return printDeadlines(stdout, rows, time.Now(), *format)
}

func printDeadlines(w io.Writer, rows []casesvc.DueRow, now time.Time, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DUE\tSTATUS\tCASE\tSTATE\tLIMIT\tARTICLE\tTAG")
	for _, r := range rows {
		status := "due soon"
		if r.Overdue {
			status = "OVERDUE"
		}
		tag := string(r.Due.Tag)
		if r.Due.Tag == "R" {
			tag += " (recalled, not read: verify)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", casesvc.DueText(r.Due), status, r.Case, r.State, r.Due.Title, r.Due.Article, tag)
	}
	fmt.Fprintf(tw, "%d time limits as of %s\n", len(rows), now.UTC().Format(time.RFC3339))
	return tw.Flush()
}

// confirmApply previews the consequences of missed time limits, prints them and,
// confirmed by --yes or by the answer y, applies exactly those.
func confirmApply(ctx context.Context, svc deadlineAPI, stdout, stderr io.Writer, format string, yes bool) error {
	list, err := svc.PreviewMissed(ctx)
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no missed time limit has a consequence to apply")
		return nil
	}
	if format == "table" || !yes {
		fmt.Fprintln(stdout, "to apply:")
		printConsequences(stdout, list, "table")
	}
	if ok, err := confirmed(stderr, yes, fmt.Sprintf("apply these %d consequences?", len(list))); err != nil {
		return err
	} else if !ok {
		fmt.Fprintln(stdout, "nothing applied")
		return nil
	}
	confirmed := make([]casesvc.Confirmed, len(list))
	for i, c := range list {
		confirmed[i] = casesvc.Confirmed{Case: c.Case, Limit: c.Limit, Version: c.Version}
	}
	out, err := svc.ApplyConfirmed(ctx, confirmed)
	if err != nil {
		return err
	}
	if format == "table" {
		fmt.Fprintln(stdout, "applied:")
	}
	return printConsequences(stdout, out, format)
}

func printConsequences(w io.Writer, out []casesvc.Consequence, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(out)
	}
	for _, c := range out {
		ev := c.Event
		if ev == "" {
			ev = "-"
		}
		fmt.Fprintf(w, "case %s: %s missed (%s, due %s): %s → %s\n", c.Case, c.Limit, c.Article, c.Due.Format(time.DateOnly), ev, c.Outcome)
	}
	fmt.Fprintf(w, "%d consequences\n", len(out))
	return nil
}
