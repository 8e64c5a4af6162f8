package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/report"
)

// runBalances prints who owes what: a cycle's balances as of a day or now.
func runBalances(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, writeHelp)
		return nil
	}
	var t target
	fs := newFlags("balances", writeHelp, stdout, stderr)
	t.flags(fs)
	year := fs.Int("cycle", 0, "cycle `year`")
	asOf := fs.String("as-of", "", "balances as of this `date` (YYYY-MM-DD)")
	format := fs.String("format", "table", "balances output `format`: table or json")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	if *year == 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--cycle", Message: "name the cycle year"}
	}
	// The day counts to its end, as on the API and the pages (solidarity.ParseAsOf).
	when, err := solidarity.ParseAsOf(*asOf)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--as-of", Message: "want YYYY-MM-DD"}
	}
	l, uctx, done, err := t.ledger(ctx, app.ReadOnly)
	if err != nil {
		return err
	}
	defer done()
	b, err := l.Balances(uctx, *year, when)
	if err != nil {
		return err
	}
	return writeBalances(stdout, b, *format)
}

func writeBalances(w io.Writer, b *report.Balances, format string) error {
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(b)
	}
	if format != "table" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: "want table or json"}
	}
	fmt.Fprintf(w, "%s — balances as of %s (ledger head %d)\n\n", b.Pool.Cycle.Title, b.AsOf, b.LedgerHead)
	tw := newTable(w)
	fmt.Fprintln(tw, "State\tFair share\tObligation\tPledged\tDelivered\tOutstanding\tPace: expected\tdelivered\t")
	for _, s := range b.States {
		pledged := "unknown"
		if s.PledgedUnits != nil {
			pledged = string(*s.PledgedUnits)
		}
		outst := "unknown"
		if s.Outstanding != nil {
			outst = string(*s.Outstanding)
		}
		pace := string(s.Pace.ExpectedByNow)
		if s.Pace.Behind {
			pace += " (behind)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", s.State, s.FairShare, nz(s.Obligation), pledged,
			s.Delivered.Units, outst, pace, s.Pace.NonFinancialDelivered)
	}
	return tw.Flush()
}

func nz(n *json.Number) string {
	if n == nil {
		return "unknown"
	}
	return string(*n)
}
