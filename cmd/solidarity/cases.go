package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
)

const casesHelp = `Usage: solidarity arrival import FILE [--key KEY] [--new-landing]   register a ship's list (CSV or JSON)
       solidarity cases [--arrival ID] [--format table|json]
       solidarity case ID [--person] [--determine]
       solidarity event CASE EVENT [--at TIME] [--target STATE] [--family] [--note TEXT]
       solidarity allocate CASE STATE
       solidarity deadlines [--within 168h] [--state XX] [--apply [--yes]] [--format table|json]
       solidarity erase [--after DURATION] [--yes]
       solidarity keys new [--id N] | keys reseal

The case flow on a local database (--db, default $SOLIDARITY_DB or solidarity.db; --as
USER acts as that user, default the system actor). Personal records are sealed with the
keys of $SOLIDARITY_KEYS_FILE or $SOLIDARITY_KEYS (a SQLite database without them uses
DB.keys beside it). Reading a person (--person, --determine) is recorded in the access
log. Every case command but erase and keys also works on a server (--server URL
--token T), as the token's user; the server records the reads of a person.

  arrival import  one disembarkation and its people: every row is checked first; a bad
                  row is reported with its line and field and nothing is registered;
                  a list of the vessel, port and time of a registered arrival is
                  refused, naming it, unless --new-landing confirms another landing
  event           a legal event (see the transition table: the error lists the events
                  the case's state allows); TIME is RFC 3339, YYYY-MM-DDTHH:MM
                  (UTC) or YYYY-MM-DD (midnight UTC), not in the future
  allocate        (coordinator) allocate a relocation candidate's family to a state
                  with relocation places left in its pledge
  deadlines       the time limits overdue or ending within --within; --apply lists
                  the consequences the law attaches to missed limits (case, limit,
                  article, consequence), asks, and records those listed; --yes
                  records them without asking
  erase           erase the personal records of cases closed longer ago than --after
                  (default 10 years: 87600h); the ledger keeps case IDs and counts;
                  says how many first and asks, unless --yes
  keys new        print a new key line "ID:BASE64" to add to the key file
  keys reseal     re-encrypt every personal record sealed with an older key with the
                  newest key of the key file (then the old key can be removed)
`

// The case commands (arrival, cases, case, event, allocate, deadlines, erase, keys;
// one file each) act on the case flow of a local database, as the acting user of
// --as, or of a server (--server), through the root package's case and deadline
// interfaces (target.go): one code path for both. erase and keys reseal act on a
// local database only: the API serves neither. Each parses its own flags,
// placed before, between or after its arguments.

// newCaseFlags returns the FlagSet of the case command name with the target flags.
func newCaseFlags(name string, stdout, stderr io.Writer) (*flag.FlagSet, *target) {
	var t target
	fs := newFlags(name, casesHelp, stdout, stderr)
	t.flags(fs)
	return fs, &t
}

// formatFlag is --format, table or json (parseCase checks it).
func formatFlag(fs *flag.FlagSet) *string {
	return fs.String("format", "table", "output `format`: table or json")
}

// keyFlag is --key, the idempotency key of a case write.
func keyFlag(fs *flag.FlagSet) *string {
	return fs.String("key", "", "idempotency `key` (a retry with the same key registers nothing twice)")
}

// parseCase parses the flags of the case command name, placed before, between or
// after its arguments, and returns the arguments, which must be n (what names them
// in the error). A --format other than table or json is refused first.
func parseCase(fs *flag.FlagSet, args []string, name string, n int, what string) ([]string, error) {
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	if f := fs.Lookup("format"); f != nil && f.Value.String() != "table" && f.Value.String() != "json" {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: "want table or json"}
	}
	if len(pos) != n {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("%s: want %s", name, what)}
	}
	return pos, nil
}

// runCases lists the cases (pseudonymous), of one arrival or all, with their next
// time limit.
func runCases(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, t := newCaseFlags("cases", stdout, stderr)
	arrivalID := fs.String("arrival", "", "list the cases of this arrival `ID`")
	format := formatFlag(fs)
	if _, err := parseCase(fs, args, "cases", 0, "no arguments"); err != nil {
		return err
	}
	svc, uctx, done, err := t.caseFlow(ctx, "cases", app.ReadOnly)
	if err != nil {
		return err
	}
	defer done()
	filter := solidarity.CaseFilter{Limit: solidarity.MaxCaseLimit}
	if *arrivalID != "" {
		id := solidarity.ArrivalID(*arrivalID)
		filter.Arrival = &id
	}
	rows, err := svc.CaseRows(uctx, filter)
	if err != nil {
		return err
	}
	if *format == "json" {
		var recs []*solidarity.CaseRecord // null for none, as the records were always printed
		for _, r := range rows {
			recs = append(recs, r.Record)
		}
		return json.NewEncoder(stdout).Encode(recs)
	}
	w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CASE\tFAMILY\tARRIVAL\tSTATE\tRESPONSIBLE\tALLOCATED\tNEXT DUE")
	for _, row := range rows {
		r, due := row.Record, ""
		if row.Next != nil {
			due = casesvc.DueText(*row.Next) // as the case and its deadlines show it
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Family, r.Arrival, r.State, r.Responsible, r.Allocated, due)
	}
	return w.Flush()
}

// confirmInput is where --apply reads the answer to its question.
var confirmInput io.Reader = os.Stdin

// confirmed asks question on stderr and reads the answer from confirmInput, unless
// yes (--yes) answered it: true for y or yes. Without an answer (no terminal, end of
// input) it is EINVALID asking for --yes: nothing is done unasked.
func confirmed(stderr io.Writer, yes bool, question string) (bool, error) {
	if yes {
		return true, nil
	}
	fmt.Fprintf(stderr, "%s [y/N] ", question)
	answer, err := bufio.NewReader(confirmInput).ReadString('\n')
	if err != nil && answer == "" {
		return false, &solidarity.Error{Code: solidarity.EINVALID, Field: "--yes",
			Message: "not confirmed, nothing done: answer y, or pass --yes to go ahead without asking"}
	}
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes", nil
}

// parseArgs parses flags placed before, between or after the positional arguments.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fs, args, true); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return pos, nil
		}
		pos = append(pos, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
