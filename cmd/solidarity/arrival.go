package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/app"
)

// runArrival is `arrival import FILE`: one disembarkation and its people from a ship's
// list; every row is checked before anything is registered.
func runArrival(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("arrival", stdout, stderr)
	key := keyFlag(fs)
	newLanding := fs.Bool("new-landing", false, "register the list although an arrival of the same vessel, port and time is registered: it is another landing")
	pos, err := parseCase(fs, args, "arrival", 2, "import FILE")
	if err != nil {
		return err
	}
	if pos[0] != "import" {
		return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown arrival command %q", pos[0])}
	}
	// An import may start a ledger.
	svc, uctx, done, err := t.caseFlow(ctx, "arrival", app.Create)
	if err != nil {
		return err
	}
	defer done()
	f, err := os.Open(pos[1])
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, File: pos[1], Message: "cannot read the file"}
	}
	defer f.Close()
	l, err := arrival.ParseList(pos[1], f)
	if err != nil {
		return err
	}
	register := svc.Register
	if *newLanding {
		register = svc.RegisterNewLanding
	}
	r, err := register(uctx, l, *key)
	if err != nil {
		return err
	}
	what := "registered"
	if r.Replayed {
		what = "already registered (same key)"
	}
	fmt.Fprintf(stdout, "%s arrival %s: %d persons in %d families (%d unaccompanied minors), ledger entry %d\n",
		what, r.Arrival.ID, r.Arrival.Persons, r.Arrival.Families, r.Arrival.Minors, r.Entry.Seq)
	return nil
}
