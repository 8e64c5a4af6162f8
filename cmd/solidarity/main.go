// Command solidarity computes fair shares and the Annual Solidarity Pool of the EU
// solidarity mechanism (Regulation (EU) 2024/1351, Part IV) and serves them on the web.
//
// Exit codes: 0 success, 1 internal error, 2 bad input (the message names the file,
// line and field).
//
// One file per command, each with its own flags, so that a flag a command does not
// take is an error: serve.go, pool.go, key.go, data.go, cycles.go, match.go,
// responsibility.go; the ledger: ledger.go (verify, export), balances.go, and the
// writes cycle.go, status.go, pledge.go, deduction.go, offset.go, deliver.go over
// write.go (their shared flags and help); accounts: user.go, token.go; the case flow:
// arrival.go, cases.go (with the case commands' shared flags), case.go, event.go,
// allocate.go, deadlines.go, erase.go, keys.go. target.go is where a command acts:
// the ledger and case commands (but erase and keys reseal) call the root package's
// service interfaces, on a local database (internal/ledgersvc, internal/casesvc) or,
// with --server, through internal/client, one code path for both.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"text/tabwriter"

	"solidarity"
)

const usage = `solidarity: fair shares and the Annual Solidarity Pool (Regulation (EU) 2024/1351)

Usage:
  solidarity <command> [flags]

Commands:
  serve     serve the pool dashboard, the JSON API and the OpenAPI document
  pool      compute a cycle's pool: fair shares, obligations, pledges, coverage
  key       compute the reference key (Art. 66) or the 2015 relocation key
  data      list, show and import reference data (population, GDP)
  cycles    list the shipped cycles
  match     place families in localities: solve, export for cbc, generate a problem
  simulate  replay the past and ask "what if": a scenario's shares, choices and costs

The ledger (a SQLite file by default, or PostgreSQL with --db postgres://...):
  ledger    verify the hash chain, export it as JSON lines
  balances  who owes what today: fair share, obligation, pledged, delivered, pace
  cycle, status, pledge, deduction, offset, deliver
            record one entry (see 'solidarity pledge --help')
  user, token
            manage users (add, disable, reset) and API tokens (create, list, revoke) locally

Case flow:
  responsibility  which Member State is responsible for an application, and why
  arrival import  register a disembarkation and its people from a ship's list
  cases, case     the cases (pseudonymous), one case's flow, deadlines and person
  event, allocate record a legal event; allocate a family for relocation
  deadlines       time limits overdue or due soon; --apply their consequences
  erase           apply the retention rule to closed cases' personal records
  keys            new encryption keys; reseal personal records after a rotation

Run 'solidarity <command> --help' for the flags of a command.
`

// command is one subcommand: it parses its own flags and runs.
type command func(ctx context.Context, args []string, stdout, stderr io.Writer) error

var commands = map[string]command{
	"serve":     runServe,
	"pool":      runPool,
	"key":       runKey,
	"data":      runData,
	"cycles":    runCycles,
	"ledger":    runLedger,
	"user":      runUser,
	"token":     runToken,
	"balances":  runBalances,
	"cycle":     runCycle,
	"status":    runStatus,
	"pledge":    runPledge,
	"deduction": runDeduction,
	"offset":    runOffset,
	"deliver":   runDeliver,

	"responsibility": runResponsibility,
	"arrival":        runArrival,
	"cases":          runCases,
	"case":           runCase,
	"event":          runEvent,
	"allocate":       runAllocate,
	"deadlines":      runDeadlines,
	"erase":          runErase,
	"keys":           runKeys,
	"match":          runMatch,
	"simulate":       runSimulate,
}

// subcommands is a command of subcommands (ledger verify, user add, ...): without
// one it prints help and is bad usage; an unknown one is EINVALID.
func subcommands(name, help string, subs map[string]command) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
			fmt.Fprint(stdout, help)
			if len(args) == 0 {
				return errUsage
			}
			return nil
		}
		run, ok := subs[args[0]]
		if !ok {
			return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown %s command %q", name, args[0])}
		}
		return run(ctx, args[1:], stdout, stderr)
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := Run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// Run executes one command line and returns the process exit code.
func Run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		fmt.Fprint(stdout, usage)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "solidarity: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
	err := cmd(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintf(stderr, "solidarity %s: %s\n", args[0], solidarity.ErrorMessage(err))
	if solidarity.ErrorCode(err) == solidarity.EINTERNAL {
		fmt.Fprintf(stderr, "detail: %v\n", err)
		return 1
	}
	return 2
}

// errUsage reports a flag error that the flag package has already printed.
var errUsage = errors.New("usage error")

// newFlags returns a FlagSet that prints help to stdout on --help and errors to stderr.
func newFlags(name, help string, stdout, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stdout, help)
		fmt.Fprintln(stdout, "\nFlags:")
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	return fs
}

// parse parses flags, mapping flag errors to errUsage and rejecting stray arguments
// unless allowArgs.
func parse(fs *flag.FlagSet, args []string, allowArgs bool) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	if !allowArgs && fs.NArg() > 0 {
		return solidarity.Errorf(solidarity.EINVALID, "unexpected argument %q", fs.Arg(0))
	}
	return nil
}

func newTable(w io.Writer) *tabwriter.Writer {
	return tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
}
