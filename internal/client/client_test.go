package client_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/catalog"
	"solidarity/internal/client"
	"solidarity/internal/cyclefile"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/report"
	"solidarity/internal/web"
)

func TestPath(t *testing.T) {
	for _, c := range []struct {
		route  string
		values []string
		want   string
	}{
		{client.LedgerPledge, []string{"2026", "DE"}, "/api/v1/ledger/cycles/2026/pledges/DE"},
		{client.LedgerAssessment, []string{"2026", "a/b c"}, "/api/v1/ledger/cycles/2026/deductions/a%2Fb%20c/assessment"},
		{client.LedgerCycle, []string{"2027", "extra"}, "/api/v1/ledger/cycles/2027"},
		{client.LedgerBalances, nil, "/api/v1/ledger/cycles/{year}/balances"},
		{client.LedgerVerify, []string{"x"}, "/api/v1/ledger/verify"},
	} {
		if got := client.Path(c.route, c.values...); got != c.want {
			t.Errorf("Path(%q, %q) = %q, want %q", c.route, c.values, got, c.want)
		}
	}
}

// server is the real web handler on a new SQLite ledger with the shipped cycles and
// the case flow, behind an httptest server; tokens holds an API token per user name.
type server struct {
	url    string
	ledger *ledgersvc.Service
	cases  *casesvc.Service
	tokens map[string]string
	users  map[string]*solidarity.User
}

func newServer(t *testing.T) *server {
	t.Helper()
	ctx := context.Background()
	st, err := app.Open(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := app.Ledger(st)
	if _, err := app.Seed(ctx, svc, false); err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse("test", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	cs := app.CasesOn(st, svc, keys)
	h, err := web.New(&catalog.Catalog{}, nil, 2026, web.WithLedger(svc), web.WithCases(cs))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(ts.Close)
	s := &server{url: ts.URL, ledger: svc, cases: cs, tokens: map[string]string{}, users: map[string]*solidarity.User{}}
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	for _, u := range []solidarity.User{{Name: "coord", Role: solidarity.Coordinator}, {Name: "off-de", Role: solidarity.Officer, State: "DE"},
		{Name: "off-it", Role: solidarity.Officer, State: "IT"}} {
		if err := svc.AddUser(sys, &u, ""); err != nil {
			t.Fatal(err)
		}
		tok, _, err := svc.CreateTokenTTL(sys, u.Name, "test", 0)
		if err != nil {
			t.Fatal(err)
		}
		s.tokens[u.Name] = tok
		s.users[u.Name] = &u
	}
	return s
}

func (s *server) client(user string) *client.Client { return client.New(s.url, s.tokens[user]) }

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func code(err error) string { return solidarity.ErrorCode(err) }

// Every ledger write goes over the route the server registers, and what it records
// is what the service reads back; a retry with the key is replayed; the server's
// refusals come back as its *solidarity.Error with their codes.
func TestLedgerWrites(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	coord, off := s.client("coord"), s.client("off-de")

	e, replayed, err := off.Pledge(ctx, 2026, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 300}, "p1")
	if err != nil || replayed || e.Type != solidarity.PledgeMade || e.State != "DE" || e.Actor != "off-de" {
		t.Fatalf("pledge: %+v %v %v", e, replayed, err)
	}
	again, replayed, err := off.Pledge(ctx, 2026, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 300}, "p1")
	if err != nil || !replayed || again.Seq != e.Seq || again.Hash != e.Hash {
		t.Fatalf("retry: %+v %v %v, want entry %d replayed", again, replayed, err, e.Seq)
	}
	if _, _, err := off.Pledge(ctx, 2026, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, ""); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("an officer pledging for another state: %v, want %s", err, solidarity.EUNAUTHORIZED)
	}
	if _, _, err := client.New(s.url, "nope").Pledge(ctx, 2026, "DE", solidarity.PledgePayload{Type: solidarity.NoPledge}, ""); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("a bad token: %v, want %s", err, solidarity.EUNAUTHENTICATED)
	}
	writes := []struct {
		name string
		do   func() (*solidarity.Entry, bool, error)
		want solidarity.EntryType
	}{
		{"status", func() (*solidarity.Entry, bool, error) {
			return coord.SetStatus(ctx, 2026, "IT", solidarity.StatusPayload{UnderPressure: true, Benefitting: true, Act: "test act"}, "")
		}, solidarity.StatusDecided},
		{"deliver", func() (*solidarity.Entry, bool, error) {
			return off.Deliver(ctx, 2026, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 2, Reference: "r"}, "d1")
		}, solidarity.RelocationDelivered},
		{"deduction request", func() (*solidarity.Entry, bool, error) {
			return coord.RequestDeduction(ctx, 2026, "AT", solidarity.DeductionPayload{Article: "Art. 62", Full: true}, "")
		}, solidarity.DeductionRequested},
	}
	for _, w := range writes {
		e, _, err := w.do()
		if err != nil || e.Type != w.want {
			t.Fatalf("%s: %+v %v, want a %s entry", w.name, e, err, w.want)
		}
	}
	// The refs the later steps name are the entries' own.
	es, err := coord.Entries(ctx, solidarity.EntryFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	local, err := s.ledger.Entries(solidarity.NewContextWithUser(ctx, solidarity.System), solidarity.EntryFilter{Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if len(es) != 6 { // the two shipped cycles, the pledge and the three writes
		t.Fatalf("%d entries over HTTP, want 6", len(es))
	}
	if mustJSON(t, es) != mustJSON(t, local) {
		t.Fatal("the entries over HTTP differ from the store's")
	}
	// Every field of the filter travels (issue 14): the same filter over HTTP and
	// locally lists the same entries.
	mid := es[2]
	for _, f := range []solidarity.EntryFilter{
		{Newest: true, Limit: 2},
		{Newest: true, BeforeSeq: mid.Seq},
		{AfterSeq: 1, BeforeSeq: es[5].Seq},
		{Ref: strings.ToLower(mid.Ref[:min(3, len(mid.Ref))])},
		{From: mid.At},
		{To: mid.At.Add(time.Nanosecond * 1000)},
	} {
		got, err := coord.Entries(ctx, f)
		if err != nil {
			t.Fatalf("%+v over HTTP: %v", f, err)
		}
		want, err := s.ledger.Entries(solidarity.NewContextWithUser(ctx, solidarity.System), f)
		if err != nil {
			t.Fatal(err)
		}
		if len(want) == 0 || mustJSON(t, got) != mustJSON(t, want) {
			t.Fatalf("%+v: %d entries over HTTP, %d locally, or not the same", f, len(got), len(want))
		}
	}
	ref := func(typ solidarity.EntryType) string {
		for _, e := range es {
			if e.Type == typ {
				return e.Ref
			}
		}
		t.Fatalf("no %s entry", typ)
		return ""
	}
	if e, _, err := coord.AssessDeduction(ctx, 2026, ref(solidarity.DeductionRequested), solidarity.AssessmentPayload{Favourable: true, Summary: "s"}, ""); err != nil || e.Type != solidarity.DeductionAssessed {
		t.Fatalf("assess: %+v %v", e, err)
	}
	if e, _, err := coord.DecideDeduction(ctx, 2026, ref(solidarity.DeductionRequested), solidarity.DeductionPayload{Granted: true, Full: true, Act: "a"}, ""); err != nil || e.Type != solidarity.DeductionDecided {
		t.Fatalf("decide: %+v %v", e, err)
	}
	// Offsets are refused while the relocation pledges are not known to reach half
	// the proposed number: the server's reason comes back with its article.
	for name, do := range map[string]func() (*solidarity.Entry, bool, error){
		"request": func() (*solidarity.Entry, bool, error) {
			return coord.RequestOffset(ctx, 2026, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: 10}, "")
		},
		"offer": func() (*solidarity.Entry, bool, error) {
			return coord.OfferOffset(ctx, 2026, "DE", solidarity.OffsetPayload{Counterpart: "IT", Applications: 10}, "")
		},
	} {
		if _, _, err := do(); code(err) == "" || code(err) == solidarity.EINTERNAL || !strings.Contains(solidarity.ErrorMessage(err), "Art. 63") {
			t.Errorf("offset %s: %v, want a refusal under Art. 63", name, err)
		}
	}
	if _, _, err := off.ReplyOffset(ctx, 2026, "no-such-ref", solidarity.ReplyPayload{Accepted: 5}, ""); code(err) == "" || code(err) == solidarity.EINTERNAL {
		t.Errorf("reply to no offset: %v, want a refusal", err)
	}
	// A cycle the ledger has is not created twice; its amendment names the year of the
	// file in the route.
	src, err := cyclefile.ShippedSource(2026)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := coord.CreateCycle(ctx, string(src), ""); code(err) != solidarity.ECONFLICT || !strings.Contains(solidarity.ErrorMessage(err), "amend it instead") {
		t.Fatalf("create an existing cycle: %v", err)
	}
	if e, _, err := coord.AmendCycle(ctx, string(src), ""); err != nil || e.Type != solidarity.CycleAmended || e.Cycle != 2026 {
		t.Fatalf("amend: %+v %v", e, err)
	}
	if _, _, err := coord.AmendCycle(ctx, "not toml", ""); code(err) != solidarity.EINVALID {
		t.Fatalf("amend with a bad file: %v", err)
	}
}

// Balances and the verification over HTTP are the service's, as of the same instant.
func TestLedgerReads(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	coord := s.client("coord")
	if _, _, err := s.client("off-de").Deliver(ctx, 2026, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 3, OverDelivery: true}, ""); err != nil {
		t.Fatal(err)
	}
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	day, _ := solidarity.ParseAsOf(time.Now().UTC().Format(time.DateOnly))
	for _, asOf := range []time.Time{{}, day, day.AddDate(0, 0, -1)} {
		got, err := client.New(s.url, "").Balances(ctx, 2026, asOf)
		if err != nil {
			t.Fatal(err)
		}
		exact, err := s.ledger.Balances(sys, 2026, asOf)
		if err != nil {
			t.Fatal(err)
		}
		want := report.FromBalances(exact)
		if asOf.IsZero() {
			got.AsOf, want.AsOf = "", "" // now, on either side
		}
		if gj, wj := mustJSON(t, got), mustJSON(t, want); gj != wj {
			t.Errorf("balances as of %v over HTTP:\n%s\nwant\n%s", asOf, gj, wj)
		}
	}
	if _, err := client.New(s.url, "").Balances(ctx, 1999, time.Time{}); code(err) != solidarity.ENOTFOUND {
		t.Errorf("balances of no cycle: %v, want %s", err, solidarity.ENOTFOUND)
	}
	v, err := coord.Verify(ctx)
	if err != nil || !v.OK || v.Entries == 0 {
		t.Fatalf("verify: %+v %v", v, err)
	}
	if _, err := s.client("off-de").Verify(ctx); code(err) != solidarity.EUNAUTHORIZED {
		t.Errorf("an officer verifying: %v, want %s", err, solidarity.EUNAUTHORIZED)
	}
}

// The deadline view and the consequences of missed limits over HTTP; confirming
// nothing applies nothing (it is not the body without confirm, which applies all).
func TestDeadlines(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	coord := s.client("coord")
	de := solidarity.MemberState("DE")
	rows, err := coord.Deadlines(ctx, 48*time.Hour, &de, 10)
	if err != nil || len(rows) != 0 {
		t.Fatalf("deadlines of an empty case flow: %v %v", rows, err)
	}
	list, err := coord.PreviewMissed(ctx)
	if err != nil || len(list) != 0 {
		t.Fatalf("preview: %v %v", list, err)
	}
	if _, err := coord.ApplyConfirmed(ctx, nil); code(err) != solidarity.EINVALID {
		t.Fatalf("confirming nothing: %v, want %s", err, solidarity.EINVALID)
	}
	if _, err := client.New(s.url, "").Deadlines(ctx, 0, nil, 0); err == nil {
		t.Fatal("the public read the deadlines")
	}
	var e *solidarity.Error
	if _, err := client.New("http://127.0.0.1:1", "").Verify(ctx); err == nil || errors.As(err, &e) {
		t.Fatalf("no server: %v, want a transport error", err)
	}
}
