package main

import (
	"context"
	"io"

	"solidarity"
	"solidarity/internal/app"
)

// runPledge is `pledge add`: a state's pledge for a cycle.
var runPledge = writeGroup("pledge", map[string]command{"add": runPledgeAdd})

func runPledgeAdd(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("pledge add", true, stdout, stderr)
	state := stateFlag(fs, "state", "Member `state` (Eurostat code)")
	typ := fs.String("type", "", "pledge `type`")
	relocs := fs.Int64("relocations", 0, "number of `relocations`")
	eur := eurFlag(fs)
	if err := parse(fs, args, false); err != nil {
		return err
	}
	cents, err := eur()
	if err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	m := state()
	p := solidarity.PledgePayload{Type: solidarity.PledgeType(*typ), Relocations: *relocs, EURCents: cents}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.Pledge(ctx, w.year, m, p, w.key)
	})
}
