package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/cyclefile"
)

// The ledger writes: cycle, status, pledge, deduction, offset and deliver (one file
// each). Each subcommand has its own flags; they share the target, the cycle year and
// the idempotency key (writeFlags), and record one entry through the ledger
// interface, on a local database or a server alike (record).

// writeHelp is the write commands' help; the delivery and pledge types are the table
// of measures' (solidarity.Measures), so that a new measure is listed where it is taken.
var writeHelp = strings.NewReplacer(
	"{deliveries}", deliveryList("|"),
	"{pledges}", pledgeList(),
).Replace(`Usage:
  solidarity cycle create FILE | cycle amend FILE           (coordinator)
  solidarity status set --cycle Y --state XX [--under-pressure] [--at-risk] [--significant] [--benefitting] [--act A]
  solidarity pledge add --cycle Y --state XX --type T (--relocations N | --eur AMOUNT)
  solidarity deduction request --cycle Y --state XX --article 61|62 (--full | --fraction 1/2 | --relocations N) [--reason R]
  solidarity deduction assess  --cycle Y --ref REF [--favourable] [--summary S]
  solidarity deduction decide  --cycle Y --ref REF --act ACT [--granted (--full | --fraction F | --relocations N)]
  solidarity offset request|offer --cycle Y --state XX --counterpart YY --applications N
  solidarity offset reply --cycle Y --ref REF --accepted N
  solidarity deliver --cycle Y --state XX --type {deliveries} (--relocations N | --eur AMOUNT) [--over-delivery] [--reference R]
  solidarity balances --cycle Y [--as-of DATE] [--format table|json]

Every write is one ledger entry; --key K makes it idempotent (a retry with the same key
never records twice). Pledge types: {pledges}. Amounts in EUR take up to two decimals.
Target flags: --db, --server with --token, --as (see 'solidarity ledger --help').
`)

// deliveryList joins the names deliver --type takes with sep.
func deliveryList(sep string) string {
	var names []string
	for _, d := range solidarity.Deliveries() {
		names = append(names, d.Name())
	}
	return strings.Join(names, sep)
}

// pledgeList lists the pledge types, folded as the help was written: after the first
// two, on a line of their own.
func pledgeList() string {
	var names []string
	for _, t := range solidarity.PledgeTypes() {
		names = append(names, string(t))
	}
	if len(names) <= 2 {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:2], ", ") + ",\n" + strings.Join(names[2:], ", ")
}

// writeGroup is a write command with subcommands (cycle create, pledge add, ...):
// --help prints the write commands' help, a missing or unknown subcommand is bad
// usage.
func writeGroup(name string, subs map[string]command) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			fmt.Fprint(stdout, writeHelp)
			return nil
		}
		if len(args) == 0 {
			fmt.Fprint(stderr, writeHelp)
			return errUsage
		}
		run, ok := subs[args[0]]
		if !ok {
			fmt.Fprint(stderr, writeHelp)
			return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown command %q", name+" "+args[0])}
		}
		return run(ctx, args[1:], stdout, stderr)
	}
}

// writeFlags are the flags every write shares.
type writeFlags struct {
	target
	year int
	key  string
}

// newWrite returns the FlagSet of the write name with the shared flags; withCycle
// adds --cycle (a cycle file names its own year).
func newWrite(name string, withCycle bool, stdout, stderr io.Writer) (*flag.FlagSet, *writeFlags) {
	w := &writeFlags{}
	fs := newFlags(name, writeHelp, stdout, stderr)
	w.target.flags(fs)
	if withCycle {
		fs.IntVar(&w.year, "cycle", 0, "cycle `year`")
	}
	fs.StringVar(&w.key, "key", "", "idempotency `key`")
	return fs, w
}

// needYear refuses a write without --cycle.
func (w *writeFlags) needYear() error {
	if w.year == 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--cycle", Message: "name the cycle year"}
	}
	return nil
}

// record makes one write on the ledger, opened in mode m when local, and prints the
// entry recorded.
func (w *writeFlags) record(ctx context.Context, stdout io.Writer, m app.Mode,
	write func(ctx context.Context, l solidarity.LedgerService) (*solidarity.Entry, bool, error)) error {
	l, uctx, done, err := w.ledger(ctx, m)
	if err != nil {
		return err
	}
	defer done()
	e, replayed, err := write(uctx, l)
	if err != nil {
		return err
	}
	printEntry(stdout, e, replayed)
	return nil
}

// printEntry reports a recorded entry.
func printEntry(w io.Writer, e *solidarity.Entry, replayed bool) {
	note := ""
	if replayed {
		note = " (already recorded under this idempotency key)"
	}
	ref := ""
	if e.Ref != "" {
		ref = " ref " + e.Ref
	}
	fmt.Fprintf(w, "entry %d: %s %s%s by %s at %s, hash %s%s\n", e.Seq, e.Type, e.State, ref, e.Actor,
		e.At.Format(time.RFC3339), e.Hash[:16], note)
}

// stateFlag is a Member State flag (--state, --counterpart): upper case, GR read as EL.
func stateFlag(fs *flag.FlagSet, name, usage string) func() solidarity.MemberState {
	v := fs.String(name, "", usage)
	return func() solidarity.MemberState {
		m := solidarity.MemberState(strings.ToUpper(*v))
		if m == "GR" {
			m = "EL"
		}
		return m
	}
}

// eurFlag is --eur, an amount in euro with up to two decimals.
func eurFlag(fs *flag.FlagSet) func() (solidarity.Cents, error) {
	v := fs.String("eur", "", "`amount` in euro")
	return func() (solidarity.Cents, error) {
		if *v == "" {
			return 0, nil
		}
		c, err := cyclefile.ParseEUR(*v)
		if err != nil {
			return 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "--eur", Message: err.Error()}
		}
		return c, nil
	}
}

// amountFlags are how much a deduction takes: --full, --fraction or --relocations.
type amountFlags struct {
	full     *bool
	fraction *string
	relocs   *int64
}

func newAmountFlags(fs *flag.FlagSet) amountFlags {
	return amountFlags{
		full:     fs.Bool("full", false, "a full deduction"),
		fraction: fs.String("fraction", "", "a partial deduction as a `fraction` of the fair share"),
		relocs:   fs.Int64("relocations", 0, "number of `relocations`"),
	}
}

func (a amountFlags) payload() solidarity.DeductionPayload {
	return solidarity.DeductionPayload{Full: *a.full, Fraction: *a.fraction, Relocations: *a.relocs}
}
