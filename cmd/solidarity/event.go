package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
)

// runEvent records a legal event on a case (or its family, --family).
func runEvent(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("event", stdout, stderr)
	at := fs.String("at", "", "when the event happened: RFC 3339, YYYY-MM-DDTHH:MM (UTC) or YYYY-MM-DD (midnight UTC); default now")
	targetState := fs.String("target", "", "the Member State a request is sent to")
	family := fs.Bool("family", false, "apply the event to the whole family")
	note := fs.String("note", "", "a note on the event (kept encrypted with the person's record, not in the ledger)")
	key := keyFlag(fs)
	pos, err := parseCase(fs, args, "event", 2, "CASE EVENT")
	if err != nil {
		return err
	}
	req := casesvc.EventRequest{Case: solidarity.CaseID(pos[0]), Event: cases.Event(pos[1]),
		Target: solidarity.MemberState(strings.ToUpper(*targetState)), Family: *family, Note: *note}
	if *at != "" {
		if req.At, err = casesvc.ParseAt("--at", *at); err != nil {
			return err
		}
	}
	svc, uctx, done, err := t.caseFlow(ctx, "event", app.Existing)
	if err != nil {
		return err
	}
	defer done()
	a, err := svc.Apply(uctx, req, *key)
	if err != nil {
		return err
	}
	for _, c := range a.Cases {
		fmt.Fprintf(stdout, "case %s: %s (ledger entry %d)\n", c.ID, c.State, a.Entry.Seq)
	}
	return nil
}
