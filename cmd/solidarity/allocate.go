package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"solidarity"
	"solidarity/internal/app"
)

// runAllocate allocates a relocation candidate's family to a state with relocation
// places left in its pledge (the coordinator's).
func runAllocate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("allocate", stdout, stderr)
	key := keyFlag(fs)
	pos, err := parseCase(fs, args, "allocate", 2, "CASE STATE")
	if err != nil {
		return err
	}
	svc, uctx, done, err := t.caseFlow(ctx, "allocate", app.Existing)
	if err != nil {
		return err
	}
	defer done()
	a, err := svc.Assign(uctx, solidarity.CaseID(pos[0]), solidarity.MemberState(strings.ToUpper(pos[1])), *key)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "allocated %d case(s) of family %s to %s (ledger entry %d)\n", len(a.Cases), a.Cases[0].Family, a.Cases[0].Allocated, a.Entry.Seq)
	return nil
}
