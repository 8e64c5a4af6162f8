package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"solidarity/internal/app"
)

// runErase erases the personal records of cases closed longer ago than --after: it
// says how many first and asks, unless --yes.
func runErase(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("erase", stdout, stderr)
	after := fs.Duration("after", 0, "retention after a case closed (default 87600h)")
	yes := fs.Bool("yes", false, "erase the records counted without asking")
	if _, err := parseCase(fs, args, "erase", 0, "no arguments"); err != nil {
		return err
	}
	svc, uctx, done, err := t.cases(ctx, "erase", app.Existing)
	if err != nil {
		return err
	}
	defer done()
	preview, err := svc.PreviewErase(uctx, *after)
	if err != nil {
		return err
	}
	if len(preview.Cases) > 0 {
		more := ""
		if preview.More {
			more = " (and more, for a next run)"
		}
		fmt.Fprintf(stdout, "to erase, for good: the personal records of %d cases closed before %s%s\n",
			len(preview.Cases), preview.ClosedBefore.Format(time.DateOnly), more)
		if ok, err := confirmed(stderr, *yes, fmt.Sprintf("erase these %d personal records?", len(preview.Cases))); err != nil {
			return err
		} else if !ok {
			fmt.Fprintln(stdout, "nothing erased")
			return nil
		}
	}
	r, err := svc.EraseConfirmed(uctx, preview)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "erased the personal records of %d cases closed before %s (ledger entries %v)\n",
		len(r.Cases), r.ClosedBefore.Format(time.DateOnly), r.Entries)
	if r.More {
		fmt.Fprintln(stdout, "more cases are due for erasure: run erase again")
	}
	return nil
}
