package main

import (
	"context"
	"io"

	"solidarity"
	"solidarity/internal/app"
)

// runStatus is `status set`: a Member State's situation in a cycle (Art. 11).
var runStatus = writeGroup("status", map[string]command{"set": runStatusSet})

func runStatusSet(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, w := newWrite("status set", true, stdout, stderr)
	state := stateFlag(fs, "state", "Member `state` (Eurostat code)")
	underPressure := fs.Bool("under-pressure", false, "Art. 11(a)")
	atRisk := fs.Bool("at-risk", false, "Art. 11(b)")
	significant := fs.Bool("significant", false, "Art. 11(c)")
	benefitting := fs.Bool("benefitting", false, "uses the pool (Arts. 58-59)")
	act := fs.String("act", "", "the legal `act`")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if err := w.needYear(); err != nil {
		return err
	}
	m := state()
	p := solidarity.StatusPayload{UnderPressure: *underPressure, AtRisk: *atRisk, SignificantSituation: *significant, Benefitting: *benefitting, Act: *act}
	return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
		return l.SetStatus(ctx, w.year, m, p, w.key)
	})
}
