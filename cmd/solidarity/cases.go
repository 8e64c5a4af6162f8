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
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
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
log. 'solidarity deadlines' also works on a server (--server URL --token T).

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

func runCaseCommand(name string) command {
	return func(ctx context.Context, args []string, stdout, stderr io.Writer) error {
		return runCases(ctx, name, args, stdout, stderr)
	}
}

// caseMode is how a case command opens the database: an import may start a ledger;
// listing cases, a case's flow and the deadline view only read (a person read is
// written to the access log, --apply records consequences); the rest write to an
// existing ledger.
func caseMode(name string, readsPerson, apply bool) app.Mode {
	switch {
	case name == "arrival":
		return app.Create
	case name == "cases", name == "case" && !readsPerson, name == "deadlines" && !apply:
		return app.ReadOnly
	}
	return app.Existing
}

func runCases(ctx context.Context, name string, args []string, stdout, stderr io.Writer) error {
	var t target
	fs := newFlags(name, casesHelp, stdout, stderr)
	t.flags(fs)
	arrivalID := fs.String("arrival", "", "list the cases of this arrival `ID`")
	format := fs.String("format", "table", "output `format`: table or json")
	person := fs.Bool("person", false, "show the personal record (the read is logged)")
	determine := fs.Bool("determine", false, "run the responsibility determination (reads the person)")
	at := fs.String("at", "", "when the event happened: RFC 3339, YYYY-MM-DDTHH:MM (UTC) or YYYY-MM-DD (midnight UTC); default now")
	targetState := fs.String("target", "", "the Member State a request is sent to")
	family := fs.Bool("family", false, "apply the event to the whole family")
	note := fs.String("note", "", "a note on the event (kept encrypted with the person's record, not in the ledger)")
	within := fs.Duration("within", 7*24*time.Hour, "deadline horizon")
	state := fs.String("state", "", "deadlines of this Member State only")
	apply := fs.Bool("apply", false, "show the consequences of missed time limits, then apply them once confirmed")
	yes := fs.Bool("yes", false, "apply the consequences listed (--apply), or erase the records counted (erase), without asking")
	after := fs.Duration("after", 0, "retention after a case closed (default 87600h)")
	newLanding := fs.Bool("new-landing", false, "register the list although an arrival of the same vessel, port and time is registered: it is another landing")
	key := fs.String("key", "", "idempotency `key` (a retry with the same key registers nothing twice)")
	keyID := fs.Uint("id", 1, "`id` of the new key (keys new)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *format != "table" && *format != "json" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: "want table or json"}
	}
	if name == "keys" && len(pos) == 1 && pos[0] == "new" {
		if *keyID == 0 || *keyID > 1<<31 {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--id", Message: "want a positive key id"}
		}
		fmt.Fprintln(stdout, keyring.NewKey(uint32(*keyID)))
		return nil
	}
	if name == "deadlines" && t.remote() {
		if *apply {
			return confirmApply(stdout, stderr, *format, *yes, func() ([]casesvc.Consequence, error) {
				var out struct{ Consequences []casesvc.Consequence }
				_, err := t.call(ctx, "POST", "/api/v1/deadlines/apply?dry_run=true", nil, "", &out)
				return out.Consequences, err
			}, func(c []casesvc.Confirmed) ([]casesvc.Consequence, error) {
				var out struct{ Consequences []casesvc.Consequence }
				_, err := t.call(ctx, "POST", "/api/v1/deadlines/apply", map[string]any{"confirm": c}, "", &out)
				return out.Consequences, err
			})
		}
		var rows []casesvc.DueRow
		q := "/api/v1/deadlines?within=" + within.String()
		if *state != "" {
			q += "&state=" + *state
		}
		if _, err := t.call(ctx, "GET", q, nil, "", &rows); err != nil {
			return err
		}
		return printDeadlines(stdout, rows, time.Now(), *format)
	}
	if t.remote() {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--server", Message: name + " works on a local database only (use the API)"}
	}
	mode := caseMode(name, *person || *determine, *apply)
	db, err := t.open(ctx, mode)
	if err != nil {
		return err
	}
	defer db.close()
	uctx := db.ctx
	keys, _, err := app.KeysMode(ctx, app.DSN(t.db), db.store, mode)
	if err != nil {
		return err
	}
	svc := app.CasesOn(db.store, db.ledger, keys)
	want := func(n int, what string) error {
		if len(pos) != n {
			return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("%s: want %s", name, what)}
		}
		return nil
	}
	switch name {
	case "arrival":
		if err := want(2, "import FILE"); err != nil {
			return err
		}
		if pos[0] != "import" {
			return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown arrival command %q", pos[0])}
		}
		f, err := os.Open(pos[1])
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, File: pos[1], Message: "cannot read the file"}
		}
		defer f.Close()
		l, err := arrival.ParseList(pos[1], f)
		if err != nil {
			return err
		}
		register := svc.Register
		if *newLanding {
			register = svc.RegisterNewLanding
		}
		r, err := register(uctx, l, *key)
		if err != nil {
			return err
		}
		what := "registered"
		if r.Replayed {
			what = "already registered (same key)"
		}
		fmt.Fprintf(stdout, "%s arrival %s: %d persons in %d families (%d unaccompanied minors), ledger entry %d\n",
			what, r.Arrival.ID, r.Arrival.Persons, r.Arrival.Families, r.Arrival.Minors, r.Entry.Seq)
		return nil
	case "cases":
		if err := want(0, "no arguments"); err != nil {
			return err
		}
		f := solidarity.CaseFilter{Limit: 10000}
		if *arrivalID != "" {
			id := solidarity.ArrivalID(*arrivalID)
			f.Arrival = &id
		}
		recs, err := svc.Cases(uctx, f)
		if err != nil {
			return err
		}
		if *format == "json" {
			return json.NewEncoder(stdout).Encode(recs)
		}
		w := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(w, "CASE\tFAMILY\tARRIVAL\tSTATE\tRESPONSIBLE\tALLOCATED\tNEXT DUE")
		for _, r := range recs {
			due := ""
			next, ok, err := svc.Next(r)
			if err != nil {
				return err
			}
			if ok {
				due = casesvc.DueText(next) // as the case and its deadlines show it
			}
			fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Family, r.Arrival, r.State, r.Responsible, r.Allocated, due)
		}
		return w.Flush()
	case "case":
		if err := want(1, "a case ID"); err != nil {
			return err
		}
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
	case "event":
		if err := want(2, "CASE EVENT"); err != nil {
			return err
		}
		req := casesvc.EventRequest{Case: solidarity.CaseID(pos[0]), Event: cases.Event(pos[1]),
			Target: solidarity.MemberState(strings.ToUpper(*targetState)), Family: *family, Note: *note}
		if *at != "" {
			if req.At, err = casesvc.ParseAt("--at", *at); err != nil {
				return err
			}
		}
		a, err := svc.Apply(uctx, req, *key)
		if err != nil {
			return err
		}
		for _, c := range a.Cases {
			fmt.Fprintf(stdout, "case %s: %s (ledger entry %d)\n", c.ID, c.State, a.Entry.Seq)
		}
		return nil
	case "allocate":
		if err := want(2, "CASE STATE"); err != nil {
			return err
		}
		a, err := svc.Assign(uctx, solidarity.CaseID(pos[0]), solidarity.MemberState(strings.ToUpper(pos[1])), *key)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "allocated %d case(s) of family %s to %s (ledger entry %d)\n", len(a.Cases), a.Cases[0].Family, a.Cases[0].Allocated, a.Entry.Seq)
		return nil
	case "deadlines":
		if err := want(0, "no arguments"); err != nil {
			return err
		}
		if *apply {
			return confirmApply(stdout, stderr, *format, *yes, func() ([]casesvc.Consequence, error) {
				return svc.PreviewMissed(uctx)
			}, func(c []casesvc.Confirmed) ([]casesvc.Consequence, error) {
				return svc.ApplyConfirmed(uctx, c)
			})
		}
		var st *solidarity.MemberState
		if *state != "" {
			m := solidarity.MemberState(strings.ToUpper(*state))
			st = &m
		}
		rows, err := svc.Deadlines(uctx, *within, st, 10000)
		if err != nil {
			return err
		}
		return printDeadlines(stdout, rows, svc.Now(), *format)
	case "keys":
		if len(pos) != 1 || pos[0] != "reseal" {
			return &solidarity.Error{Code: solidarity.EINVALID, Message: "keys: want new or reseal"}
		}
		r, err := svc.Reseal(uctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "resealed %d personal records with key %d (ledger entries %v)\n", len(r.Cases), r.Key, r.Entries)
		return nil
	case "erase":
		if err := want(0, "no arguments"); err != nil {
			return err
		}
		preview, err := svc.PreviewErase(uctx, *after)
		if err != nil {
			return err
		}
		if len(preview.Cases) > 0 {
			more := ""
			if preview.More {
				more = " (and more, for a next run)"
			}
			fmt.Fprintf(stdout, "to erase, for good: the personal records of %d cases closed before %s%s\n",
				len(preview.Cases), preview.ClosedBefore.Format(time.DateOnly), more)
			if ok, err := confirmed(stderr, *yes, fmt.Sprintf("erase these %d personal records?", len(preview.Cases))); err != nil {
				return err
			} else if !ok {
				fmt.Fprintln(stdout, "nothing erased")
				return nil
			}
		}
		r, err := svc.EraseConfirmed(uctx, preview)
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "erased the personal records of %d cases closed before %s (ledger entries %v)\n",
			len(r.Cases), r.ClosedBefore.Format(time.DateOnly), r.Entries)
		if r.More {
			fmt.Fprintln(stdout, "more cases are due for erasure: run erase again")
		}
		return nil
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Message: "unknown command " + name}
}

func printDeadlines(w io.Writer, rows []casesvc.DueRow, now time.Time, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(rows)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "DUE\tSTATUS\tCASE\tSTATE\tLIMIT\tARTICLE\tTAG")
	for _, r := range rows {
		status := "due soon"
		if r.Overdue {
			status = "OVERDUE"
		}
		tag := string(r.Due.Tag)
		if r.Due.Tag == "R" {
			tag += " (recalled, not read: verify)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", casesvc.DueText(r.Due), status, r.Case, r.State, r.Due.Title, r.Due.Article, tag)
	}
	fmt.Fprintf(tw, "%d time limits as of %s\n", len(rows), now.UTC().Format(time.RFC3339))
	return tw.Flush()
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

// confirmApply previews the consequences of missed time limits, prints them and,
// confirmed by --yes or by the answer y, applies exactly those.
func confirmApply(stdout, stderr io.Writer, format string, yes bool, preview func() ([]casesvc.Consequence, error),
	apply func([]casesvc.Confirmed) ([]casesvc.Consequence, error)) error {
	list, err := preview()
	if err != nil {
		return err
	}
	if len(list) == 0 {
		fmt.Fprintln(stdout, "no missed time limit has a consequence to apply")
		return nil
	}
	if format == "table" || !yes {
		fmt.Fprintln(stdout, "to apply:")
		printConsequences(stdout, list, "table")
	}
	if ok, err := confirmed(stderr, yes, fmt.Sprintf("apply these %d consequences?", len(list))); err != nil {
		return err
	} else if !ok {
		fmt.Fprintln(stdout, "nothing applied")
		return nil
	}
	confirmed := make([]casesvc.Confirmed, len(list))
	for i, c := range list {
		confirmed[i] = casesvc.Confirmed{Case: c.Case, Limit: c.Limit, Version: c.Version}
	}
	out, err := apply(confirmed)
	if err != nil {
		return err
	}
	if format == "table" {
		fmt.Fprintln(stdout, "applied:")
	}
	return printConsequences(stdout, out, format)
}

func printConsequences(w io.Writer, out []casesvc.Consequence, format string) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(out)
	}
	for _, c := range out {
		ev := c.Event
		if ev == "" {
			ev = "-"
		}
		fmt.Fprintf(w, "case %s: %s missed (%s, due %s): %s → %s\n", c.Case, c.Limit, c.Article, c.Due.Format(time.DateOnly), ev, c.Outcome)
	}
	fmt.Fprintf(w, "%d consequences\n", len(out))
	return nil
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
