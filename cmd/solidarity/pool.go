package main

import (
	"context"
	"io"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/report"
)

const poolHelp = `Usage: solidarity pool [--cycle 2026|FILE] [--method M] [--as-of DATE] [--format table|csv|json]

Computes an Annual Solidarity Pool (Arts. 12, 56-63): each state's key share, fair share
in relocations and in EUR, obligation after deductions, pledges in relocation-equivalents,
coverage and shortfall, and the Art. 63 offset conditions. Pledges nobody has reported
are shown as unknown, not zero.

--cycle takes the year of a shipped cycle (see 'solidarity cycles') or a TOML cycle file.
--method is the apportionment of fair shares to whole relocations:
  round-up           every quota rounded up (what the 2026 act appears to use)
  largest-remainder  Hamilton: sums exactly to the reference number
  webster            Sainte-Lague divisor method: sums exactly, no Alabama paradox
`

func runPool(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pool", poolHelp, stdout, stderr)
	cycleArg := fs.String("cycle", "2026", "shipped cycle year or TOML `file`")
	method := fs.String("method", "", "apportionment `method` (default: the cycle's own)")
	asOf := fs.String("as-of", "", "count deductions decided on or before this `date` (YYYY-MM-DD)")
	format := fs.String("format", "table", "output `format`: table, csv or json")
	dataDir := fs.String("data-dir", defaultDataDir(), "`directory` of imported datasets")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	f, err := report.ParseFormat(*format)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: err.Error()}
	}
	when, err := solidarity.ParseAsOfDay(*asOf) // as the pages and the API read ?as_of=
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--as-of", Message: "want a date as YYYY-MM-DD"}
	}
	cat := &catalog.Files{DataDir: *dataDir}
	cy, err := cat.Cycle(*cycleArg)
	if err != nil {
		return err
	}
	p, err := cat.Pool(catalog.PoolRequest{Cycle: cy, Method: *method, AsOf: when})
	if err != nil {
		return err
	}
	return report.FromPool(p.Result, p.Population, p.GDP, p.Warnings).Write(stdout, f)
}
