package main

import (
	"context"
	"io"
	"os"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/cyclefile"
)

// runCycle is `cycle create FILE` and `cycle amend FILE` (the coordinator's): the
// file is checked here first, so that a bad file names its line before anything is
// opened or sent.
var runCycle = writeGroup("cycle", map[string]command{
	"create": cycleWrite("create"),
	"amend":  cycleWrite("amend"),
})

func cycleWrite(sub string) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		fs, w := newWrite("cycle "+sub, false, stdout, stderr)
		if err := parse(fs, args, true); err != nil {
			return err
		}
		if fs.NArg() != 1 {
			return &solidarity.Error{Code: solidarity.EINVALID, Message: "cycle " + sub + " takes one TOML file"}
		}
		src, err := os.ReadFile(fs.Arg(0))
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: fs.Arg(0), Message: "cannot read the file"}
		}
		if _, err := cyclefile.Parse(fs.Arg(0), src); err != nil {
			return err
		}
		// A new cycle may start a ledger; an amendment needs an existing one.
		if sub == "create" {
			return w.record(ctx, stdout, app.Create, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
				return l.CreateCycle(ctx, string(src), w.key)
			})
		}
		return w.record(ctx, stdout, app.Existing, func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error) {
			return l.AmendCycle(ctx, string(src), w.key)
		})
	}
}
