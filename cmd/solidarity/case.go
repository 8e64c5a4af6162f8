package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"solidarity"
	"solidarity/internal/app"
)

// runCase shows one case's flow and deadlines; --person its personal record and
// --determine the responsibility determination (both reads are logged).
func runCase(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("case", stdout, stderr)
	format := formatFlag(fs)
	person := fs.Bool("person", false, "show the personal record (the read is logged)")
	determine := fs.Bool("determine", false, "run the responsibility determination (reads the person)")
	pos, err := parseCase(fs, args, "case", 1, "a case ID")
	if err != nil {
		return err
	}
	// Reading a person is written to the access log; the case alone only reads.
	mode := app.ReadOnly
	if *person || *determine {
		mode = app.Existing
	}
	svc, uctx, done, err := t.caseFlow(ctx, "case", mode)
	if err != nil {
		return err
	}
	defer done()
	id := solidarity.CaseID(pos[0])
	v, err := svc.Case(uctx, id)
	if err != nil {
		return err
	}
	out := map[string]any{"case": v}
	if *person {
		p, err := svc.Person(uctx, id, "cli")
		if err != nil {
			return err
		}
		out["person"] = p
	}
	if *determine {
		d, err := svc.Determine(uctx, id)
		if err != nil {
			return err
		}
		if *format == "table" {
			fmt.Fprintln(stdout, d.Explanation)
		}
		out["determination"] = d
	}
	if *format == "json" || !*determine {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	return nil
}
