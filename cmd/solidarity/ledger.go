package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/report"
	"solidarity/ledger"
)

const ledgerHelp = `Usage: solidarity ledger verify [target flags]
       solidarity ledger export [--out FILE] [target flags]

The solidarity ledger is append-only and hash-chained: each entry's SHA-256 covers the
entry and the previous entry's hash.

  verify   recompute the whole chain, and check the delivery totals the balances are
           read from against the entries; names the first entry (or the first cycle,
           state and delivery type of the totals) that does not match and exits 2
  export   write every entry as JSON lines (to stdout, or atomically to --out)

Target flags (every ledger command): --db (local SQLite file or postgres:// URL, default
$SOLIDARITY_DB or solidarity.db), or --server URL with --token (or $SOLIDARITY_SERVER,
$SOLIDARITY_TOKEN); on a local database --as USER acts as that user.
`

func runLedger(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, ledgerHelp)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	var t target
	fs := newFlags("ledger "+args[0], ledgerHelp, stdout, stderr)
	t.flags(fs)
	out := fs.String("out", "", "export to this `file` (default stdout)")
	if err := parse(fs, args[1:], false); err != nil {
		return err
	}
	switch args[0] {
	case "verify":
		var v ledger.Verification
		if t.remote() {
			if _, err := t.call(ctx, "GET", "/api/v1/ledger/verify", nil, "", &v); err != nil {
				return err
			}
		} else {
			svc, uctx, done, err := t.local(ctx, app.ReadOnly)
			if err != nil {
				return err
			}
			defer done()
			r, err := svc.Verify(uctx)
			if err != nil {
				return err
			}
			v = *r
		}
		if !v.OK && v.BadTotals != nil {
			b := v.BadTotals
			where := fmt.Sprintf("cycle %d, state %s, %s", b.Cycle, b.State, b.Type)
			if b.Day != "" {
				where = fmt.Sprintf("cycle %d, state %s, day %s, %s", b.Cycle, b.State, b.Day, b.Type)
			}
			return &solidarity.Error{Code: solidarity.ECONFLICT, Field: "totals",
				Message: fmt.Sprintf("ledger verification failed: the chain of %d entries is good, but the totals of %s: %s", v.Entries, where, v.Problem)}
		}
		if !v.OK {
			return &solidarity.Error{Code: solidarity.ECONFLICT, Field: fmt.Sprintf("entry %d", v.BadSeq),
				Message: fmt.Sprintf("ledger verification failed after %d good entries: entry %d: %s", v.Entries, v.BadSeq, v.Problem)}
		}
		fmt.Fprintf(stdout, "ledger OK: %d entries, head %s\n", v.Entries, v.Head)
		return nil
	case "export":
		w, commit, err := output(*out, stdout)
		if err != nil {
			return err
		}
		enc := json.NewEncoder(w)
		n := 0
		if t.remote() {
			var after int64
			for {
				var page struct {
					Entries   []*solidarity.Entry `json:"entries"`
					NextAfter *int64              `json:"next_after"`
				}
				if _, err := t.call(ctx, "GET", fmt.Sprintf("/api/v1/ledger/entries?after=%d&limit=1000", after), nil, "", &page); err != nil {
					return err
				}
				for _, e := range page.Entries {
					enc.Encode(e)
					n++
				}
				if page.NextAfter == nil {
					break
				}
				after = *page.NextAfter
			}
		} else {
			svc, uctx, done, err := t.local(ctx, app.ReadOnly)
			if err != nil {
				return err
			}
			defer done()
			if !solidarity.Can(solidarity.UserFromContext(uctx), solidarity.ReadLedger, "") {
				return &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: read.ledger"}
			}
			for e, err := range svc.Store.All(ctx) {
				if err != nil {
					return err
				}
				if err := enc.Encode(e); err != nil {
					return err
				}
				n++
			}
		}
		if err := commit(); err != nil {
			return err
		}
		fmt.Fprintf(stderr, "exported %d entries\n", n)
		return nil
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown ledger command %q", args[0])}
}

// output returns a writer for path ("" is stdout) and a commit function that makes a
// file appear atomically and durably.
func output(path string, stdout io.Writer) (io.Writer, func() error, error) {
	if path == "" {
		bw := bufio.NewWriter(stdout)
		return bw, bw.Flush, nil
	}
	f, err := os.CreateTemp(dirOf(path), ".export-*")
	if err != nil {
		return nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot write here"}
	}
	bw := bufio.NewWriter(f)
	return bw, func() error {
		if err := bw.Flush(); err != nil {
			return err
		}
		if err := f.Sync(); err != nil {
			return err
		}
		if err := f.Close(); err != nil {
			return err
		}
		return os.Rename(f.Name(), path)
	}, nil
}

func dirOf(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[:i+1]
	}
	return "."
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

const writeHelp = `Usage:
  solidarity cycle create FILE | cycle amend FILE           (coordinator)
  solidarity status set --cycle Y --state XX [--under-pressure] [--at-risk] [--significant] [--benefitting] [--act A]
  solidarity pledge add --cycle Y --state XX --type T (--relocations N | --eur AMOUNT)
  solidarity deduction request --cycle Y --state XX --article 61|62 (--full | --fraction 1/2 | --relocations N) [--reason R]
  solidarity deduction assess  --cycle Y --ref REF [--favourable] [--summary S]
  solidarity deduction decide  --cycle Y --ref REF --act ACT [--granted (--full | --fraction F | --relocations N)]
  solidarity offset request|offer --cycle Y --state XX --counterpart YY --applications N
  solidarity offset reply --cycle Y --ref REF --accepted N
  solidarity deliver --cycle Y --state XX --type relocation|payment|alternative (--relocations N | --eur AMOUNT) [--over-delivery] [--reference R]
  solidarity balances --cycle Y [--as-of DATE] [--format table|json]

Every write is one ledger entry; --key K makes it idempotent (a retry with the same key
never records twice). Pledge types: relocation-applicants, relocation-beneficiaries,
offset, financial, alternative, none. Amounts in EUR take up to two decimals.
Target flags: --db, --server with --token, --as (see 'solidarity ledger --help').
`

// runWrite handles the write commands and balances.
func runWrite(ctx context.Context, args []string, stdout, stderr io.Writer, name string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		fmt.Fprint(stdout, writeHelp)
		return nil
	}
	sub := ""
	switch name {
	case "cycle", "status", "pledge", "deduction", "offset":
		if len(args) == 0 {
			fmt.Fprint(stderr, writeHelp)
			return errUsage
		}
		sub, args = args[0], args[1:]
	}
	var t target
	fs := newFlags(strings.TrimSpace(name+" "+sub), writeHelp, stdout, stderr)
	t.flags(fs)
	year := fs.Int("cycle", 0, "cycle `year`")
	state := fs.String("state", "", "Member `state` (Eurostat code)")
	key := fs.String("key", "", "idempotency `key`")
	typ := fs.String("type", "", "pledge or delivery `type`")
	relocs := fs.Int64("relocations", 0, "number of `relocations`")
	eur := fs.String("eur", "", "`amount` in euro")
	article := fs.String("article", "", "61 or 62")
	full := fs.Bool("full", false, "a full deduction")
	fraction := fs.String("fraction", "", "a partial deduction as a `fraction` of the fair share")
	reason := fs.String("reason", "", "the request's `reason`")
	ref := fs.String("ref", "", "the request `ref`")
	favourable := fs.Bool("favourable", false, "the assessment is favourable")
	summary := fs.String("summary", "", "assessment `summary`")
	act := fs.String("act", "", "the legal `act`")
	granted := fs.Bool("granted", false, "the deduction is granted")
	counterpart := fs.String("counterpart", "", "the other `state`")
	apps := fs.Int64("applications", 0, "number of `applications`")
	accepted := fs.Int64("accepted", 0, "applications `accepted`")
	over := fs.Bool("over-delivery", false, "record a delivery beyond the pledge")
	reference := fs.String("reference", "", "transfer or payment `reference`")
	underPressure := fs.Bool("under-pressure", false, "Art. 11(a)")
	atRisk := fs.Bool("at-risk", false, "Art. 11(b)")
	significant := fs.Bool("significant", false, "Art. 11(c)")
	benefitting := fs.Bool("benefitting", false, "uses the pool (Arts. 58-59)")
	asOf := fs.String("as-of", "", "balances as of this `date` (YYYY-MM-DD)")
	format := fs.String("format", "table", "balances output `format`: table or json")
	if err := parse(fs, args, name == "cycle"); err != nil {
		return err
	}
	m := solidarity.MemberState(strings.ToUpper(*state))
	if m == "GR" {
		m = "EL"
	}
	cents := solidarity.Cents(0)
	if *eur != "" {
		c, err := cyclefile.ParseEUR(*eur)
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--eur", Message: err.Error()}
		}
		cents = c
	}
	needYear := func() error {
		if *year == 0 {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--cycle", Message: "name the cycle year"}
		}
		return nil
	}
	if name != "cycle" {
		if err := needYear(); err != nil {
			return err
		}
	}
	ext := solidarity.DeductionPayload{Full: *full, Fraction: *fraction, Relocations: *relocs}

	if name == "balances" {
		// The day counts to its end, as on the API and the pages (ledgersvc.ParseAsOf).
		when, err := ledgersvc.ParseAsOf(*asOf)
		if err != nil {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--as-of", Message: "want YYYY-MM-DD"}
		}
		var b report.Balances
		if t.remote() {
			path := fmt.Sprintf("/api/v1/ledger/cycles/%d/balances", *year)
			if *asOf != "" {
				path += "?as_of=" + *asOf
			}
			if _, err := t.call(ctx, "GET", path, nil, "", &b); err != nil {
				return err
			}
		} else {
			svc, uctx, done, err := t.local(ctx, app.ReadOnly)
			if err != nil {
				return err
			}
			defer done()
			r, err := svc.Balances(uctx, *year, when)
			if err != nil {
				return err
			}
			b = *report.FromBalances(r)
		}
		return writeBalances(stdout, &b, *format)
	}

	// Each write: the local service call, and the same operation over HTTP.
	var local func(*ledgersvc.Service, context.Context) (*solidarity.Entry, bool, error)
	var method, path string
	var body any = nil
	base := fmt.Sprintf("/api/v1/ledger/cycles/%d", *year)
	switch name + " " + sub {
	case "cycle create", "cycle amend":
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
		body = string(src)
		if sub == "create" {
			method, path = "POST", "/api/v1/ledger/cycles"
			local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
				return s.CreateCycle(c, string(src), *key)
			}
		} else {
			c, _ := cyclefile.Parse(fs.Arg(0), src)
			method, path = "PUT", fmt.Sprintf("/api/v1/ledger/cycles/%d", c.Year)
			local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
				return s.AmendCycle(c, string(src), *key)
			}
		}
	case "status set":
		p := solidarity.StatusPayload{UnderPressure: *underPressure, AtRisk: *atRisk, SignificantSituation: *significant, Benefitting: *benefitting, Act: *act}
		method, path, body = "POST", fmt.Sprintf("%s/statuses/%s", base, m), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.SetStatus(c, *year, m, p, *key)
		}
	case "pledge add":
		p := solidarity.PledgePayload{Type: solidarity.PledgeType(*typ), Relocations: *relocs, EURCents: cents}
		method, path, body = "POST", fmt.Sprintf("%s/pledges/%s", base, m), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.Pledge(c, *year, m, p, *key)
		}
	case "deduction request":
		p := ext
		p.Article, p.Reason = "Art. "+strings.TrimPrefix(*article, "Art. "), *reason
		method, path, body = "POST", fmt.Sprintf("%s/deductions/%s", base, m), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.RequestDeduction(c, *year, m, p, *key)
		}
	case "deduction assess":
		p := solidarity.AssessmentPayload{Favourable: *favourable, Summary: *summary}
		method, path, body = "POST", fmt.Sprintf("%s/deductions/%s/assessment", base, *ref), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.AssessDeduction(c, *year, *ref, p, *key)
		}
	case "deduction decide":
		p := ext
		p.Granted, p.Act = *granted, *act
		if !p.Granted {
			p.Full, p.Fraction, p.Relocations = false, "", 0
		}
		method, path, body = "POST", fmt.Sprintf("%s/deductions/%s/decision", base, *ref), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.DecideDeduction(c, *year, *ref, p, *key)
		}
	case "offset request", "offset offer":
		p := solidarity.OffsetPayload{Counterpart: solidarity.MemberState(strings.ToUpper(*counterpart)), Applications: *apps}
		kind := map[string]string{"request": "requests", "offer": "offers"}[sub]
		method, path, body = "POST", fmt.Sprintf("%s/offsets/%s/%s", base, m, kind), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			if sub == "request" {
				return s.RequestOffset(c, *year, m, p, *key)
			}
			return s.OfferOffset(c, *year, m, p, *key)
		}
	case "offset reply":
		p := solidarity.ReplyPayload{Accepted: *accepted}
		method, path, body = "POST", fmt.Sprintf("%s/offsets/%s/reply", base, *ref), p
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.ReplyOffset(c, *year, *ref, p, *key)
		}
	case "deliver ":
		types := map[string]solidarity.EntryType{"relocation": solidarity.RelocationDelivered, "payment": solidarity.PaymentMade, "alternative": solidarity.AlternativeDelivered}
		et, ok := types[*typ]
		if !ok {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--type", Message: "want relocation, payment or alternative"}
		}
		p := solidarity.DeliveryPayload{Relocations: *relocs, EURCents: cents, OverDelivery: *over, Reference: *reference}
		method, path = "POST", fmt.Sprintf("%s/deliveries/%s", base, m)
		body = struct {
			Type solidarity.EntryType `json:"type"`
			solidarity.DeliveryPayload
		}{et, p}
		local = func(s *ledgersvc.Service, c context.Context) (*solidarity.Entry, bool, error) {
			return s.Deliver(c, *year, m, et, p, *key)
		}
	default:
		fmt.Fprint(stderr, writeHelp)
		return &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("unknown command %q", strings.TrimSpace(name+" "+sub))}
	}
	if t.remote() {
		var e solidarity.Entry
		replayed, err := t.call(ctx, method, path, body, *key, &e)
		if err != nil {
			return err
		}
		printEntry(stdout, &e, replayed)
		return nil
	}
	// A new cycle may start a ledger; every other write needs an existing one.
	mode := app.Existing
	if name == "cycle" && sub == "create" {
		mode = app.Create
	}
	svc, uctx, done, err := t.local(ctx, mode)
	if err != nil {
		return err
	}
	defer done()
	e, replayed, err := local(svc, uctx)
	if err != nil {
		return err
	}
	printEntry(stdout, e, replayed)
	return nil
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
