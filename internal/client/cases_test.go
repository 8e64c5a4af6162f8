package client_test

import (
	"context"
	"os"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/casesvc"
	"solidarity/internal/client"
)

// shipList is the shipped example list: ten persons landed in Italy, the first three
// the family K1.
func shipList(t *testing.T) *arrival.List {
	t.Helper()
	f, err := os.Open("../../arrival/testdata/ship.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l, err := arrival.ParseList("ship.csv", f)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// summaryOf is what the API says of a case it moved or registered: its record
// without the flow and the next consequence, which a case read gives.
func summaryOf(r *solidarity.CaseRecord) solidarity.CaseRecord {
	out := *r
	out.Flow, out.NextConsequence = nil, time.Time{}
	return out
}

// entry is the ledger entry of sequence number seq, as the service reads it.
func (s *server) entry(t *testing.T, seq int64) *solidarity.Entry {
	t.Helper()
	es, err := s.ledger.Entries(solidarity.NewContextWithUser(context.Background(), solidarity.System), solidarity.EntryFilter{AfterSeq: seq - 1, Limit: 1})
	if err != nil || len(es) != 1 {
		t.Fatalf("entry %d: %v %v", seq, es, err)
	}
	return es[0]
}

// The case-flow writes over the routes the server registers: what they answer is
// what the service then reads, a retry with the key is replayed, and the server's
// refusals come back with their codes.
func TestCaseWrites(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	it, coord := s.client("off-it"), s.client("coord")
	local := func(name string) context.Context { return solidarity.NewContextWithUser(ctx, s.users[name]) }

	if _, err := s.client("off-de").Register(ctx, shipList(t), ""); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("an officer of another state registers: %v, want %s", err, solidarity.EUNAUTHORIZED)
	}
	reg, err := it.Register(ctx, shipList(t), "r1")
	if err != nil || reg.Replayed || reg.Arrival.Persons != 10 || len(reg.Cases) != 10 {
		t.Fatalf("register: %+v %v", reg, err)
	}
	a, err := s.cases.Arrival(local("off-it"), reg.Arrival.ID)
	if err != nil || mustJSON(t, a) != mustJSON(t, reg.Arrival) {
		t.Fatalf("the arrival over HTTP:\n%s\nthe service's:\n%s (%v)", mustJSON(t, reg.Arrival), mustJSON(t, a), err)
	}
	if e := s.entry(t, reg.Entry.Seq); e.Type != solidarity.ArrivalRegistered {
		t.Fatalf("entry %d is %s, want %s", reg.Entry.Seq, e.Type, solidarity.ArrivalRegistered)
	}
	recs, err := s.cases.Cases(local("off-it"), solidarity.CaseFilter{Arrival: &reg.Arrival.ID})
	if err != nil || len(recs) != len(reg.Cases) {
		t.Fatalf("the service has %d cases (%v), the registration %d", len(recs), err, len(reg.Cases))
	}
	byID := map[solidarity.CaseID]*solidarity.CaseRecord{}
	for _, r := range recs {
		byID[r.ID] = r
	}
	for _, c := range reg.Cases {
		if r := byID[c.ID]; r == nil || r.Family != c.Family {
			t.Errorf("registered case %s of family %s; the service has %+v", c.ID, c.Family, r)
		}
	}
	again, err := it.Register(ctx, shipList(t), "r1")
	if err != nil || !again.Replayed || again.Arrival.ID != reg.Arrival.ID || again.Entry.Seq != reg.Entry.Seq {
		t.Fatalf("retry: %+v %v, want arrival %s replayed", again, err, reg.Arrival.ID)
	}
	if _, err := it.Register(ctx, shipList(t), ""); code(err) != solidarity.ECONFLICT {
		t.Fatalf("the same landing again: %v, want %s", err, solidarity.ECONFLICT)
	}
	other, err := it.RegisterNewLanding(ctx, shipList(t), "")
	if err != nil || other.Arrival.ID == reg.Arrival.ID {
		t.Fatalf("another landing: %+v %v", other, err)
	}

	// The family K1 through to its allocation: each answer is the service's record of
	// the cases moved and the entry it appended.
	mother := reg.Cases[0].ID
	check := func(what string, got *casesvc.Applied, err error, cases int) {
		t.Helper()
		if err != nil || got.Replayed || len(got.Cases) != cases {
			t.Fatalf("%s: %+v %v, want %d cases moved", what, got, err, cases)
		}
		if mustJSON(t, got.Entry) != mustJSON(t, s.entry(t, got.Entry.Seq)) {
			t.Errorf("%s: the entry over HTTP differs from the ledger's", what)
		}
		for _, c := range got.Cases {
			v, err := s.cases.Case(local("coord"), c.ID)
			if err != nil {
				t.Fatal(err)
			}
			if mustJSON(t, *c) != mustJSON(t, summaryOf(v.Record)) {
				t.Errorf("%s: case over HTTP\n%s\nthe service's\n%s", what, mustJSON(t, *c), mustJSON(t, summaryOf(v.Record)))
			}
		}
	}
	for _, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration, cases.RelocationCandidate, cases.RelocationCleared} {
		got, err := it.Apply(ctx, casesvc.EventRequest{Case: mother, Event: ev, Family: true, Note: "seen"}, "")
		check(string(ev), got, err, 3)
	}
	if _, err := it.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.Registration}, ""); code(err) != solidarity.ECONFLICT {
		t.Fatalf("an event the state does not allow: %v, want %s", err, solidarity.ECONFLICT)
	}
	if _, err := it.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.ScreeningStarted, Also: []solidarity.CaseID{reg.Cases[3].ID}}, ""); code(err) != solidarity.EINVALID {
		t.Fatalf("an event on further cases: %v, want %s", err, solidarity.EINVALID)
	}
	if _, _, err := s.client("off-de").Pledge(ctx, 2026, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 5}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := it.Assign(ctx, mother, "DE", ""); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("an officer allocates: %v, want %s", err, solidarity.EUNAUTHORIZED)
	}
	al, err := coord.Assign(ctx, mother, "DE", "al-1")
	check("allocate", al, err, 3)
	if al.Cases[0].Allocated != "DE" {
		t.Fatalf("allocated to %q, want DE", al.Cases[0].Allocated)
	}
	if again, err := coord.Assign(ctx, mother, "DE", "al-1"); err != nil || !again.Replayed || again.Entry.Seq != al.Entry.Seq {
		t.Fatalf("allocation retry: %+v %v", again, err)
	}
}

// The case reads over HTTP are the service's: the case list with each case's next
// time limit (over pages of the list route), a case, and the reads of a person, each
// recorded in the access log with its purpose.
func TestCaseReads(t *testing.T) {
	s := newServer(t)
	ctx := context.Background()
	it, coord := s.client("off-it"), s.client("coord")
	local := func(name string) context.Context { return solidarity.NewContextWithUser(ctx, s.users[name]) }
	reg, err := it.Register(ctx, shipList(t), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := it.Apply(ctx, casesvc.EventRequest{Case: reg.Cases[0].ID, Event: cases.ScreeningStarted, Family: true}, ""); err != nil {
		t.Fatal(err)
	}
	all, err := s.cases.Cases(local("coord"), solidarity.CaseFilter{})
	if err != nil || len(all) != 10 {
		t.Fatalf("%d cases, %v", len(all), err)
	}
	for _, f := range []solidarity.CaseFilter{{}, {Arrival: &reg.Arrival.ID}, {Family: &reg.Cases[0].Family, Open: true},
		{Limit: 4}, {After: all[2].ID, Limit: 5}} {
		got, err := coord.CaseRows(ctx, f)
		if err != nil {
			t.Fatal(err)
		}
		want, err := s.cases.CaseRows(local("coord"), f)
		if err != nil {
			t.Fatal(err)
		}
		if gj, wj := mustJSON(t, got), mustJSON(t, want); gj != wj || len(got) == 0 {
			t.Errorf("cases %+v over HTTP:\n%s\nwant\n%s", f, gj, wj)
		}
	}
	if rows, err := coord.CaseRows(ctx, solidarity.CaseFilter{Limit: 3}); err != nil || len(rows) != 3 || rows[0].Next == nil {
		t.Fatalf("a page of 3: %d rows %v", len(rows), err)
	}
	// Over pages of 3 of the route: the same ten cases, and no more than asked for.
	restore := client.SetPage(3)
	want, _ := s.cases.CaseRows(local("coord"), solidarity.CaseFilter{})
	if got, err := coord.CaseRows(ctx, solidarity.CaseFilter{}); err != nil || mustJSON(t, got) != mustJSON(t, want) {
		t.Fatalf("over pages of 3: %d rows %v", len(got), err)
	}
	if got, err := coord.CaseRows(ctx, solidarity.CaseFilter{Limit: 7}); err != nil || mustJSON(t, got) != mustJSON(t, want[:7]) {
		t.Fatalf("7 over pages of 3: %d rows %v", len(got), err)
	}
	restore()
	if _, err := coord.CaseRows(ctx, solidarity.CaseFilter{NotErased: true}); code(err) != solidarity.EINVALID {
		t.Fatalf("a filter the route does not take: %v, want %s", err, solidarity.EINVALID)
	}
	if rows, err := s.client("off-de").CaseRows(ctx, solidarity.CaseFilter{}); err != nil || len(rows) != 0 {
		t.Fatalf("DE lists %d of Italy's cases (%v)", len(rows), err)
	}
	if _, err := s.client("off-de").CaseRows(ctx, solidarity.CaseFilter{Involving: new(solidarity.MemberState("IT"))}); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("DE asks for Italy's cases: %v, want %s", err, solidarity.EUNAUTHORIZED)
	}

	id := reg.Cases[0].ID
	v, err := coord.Case(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantV, err := s.cases.Case(local("coord"), id)
	if err != nil || mustJSON(t, v) != mustJSON(t, wantV) {
		t.Fatalf("the case over HTTP:\n%s\nthe service's:\n%s (%v)", mustJSON(t, v), mustJSON(t, wantV), err)
	}
	if _, err := s.client("off-de").Case(ctx, id); code(err) != solidarity.ENOTFOUND {
		t.Fatalf("DE reads Italy's case: %v, want %s", err, solidarity.ENOTFOUND)
	}
	if _, err := client.New(s.url, "").Case(ctx, id); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("the public reads a case: %v, want %s", err, solidarity.EUNAUTHENTICATED)
	}

	reads := func() []*solidarity.Access {
		t.Helper()
		log, err := s.cases.AccessLog(local("coord"), solidarity.AccessFilter{Case: &id})
		if err != nil {
			t.Fatal(err)
		}
		return log
	}
	p, err := it.Person(ctx, id, "cli")
	if err != nil {
		t.Fatal(err)
	}
	wantP, err := s.cases.Person(local("off-it"), id, "cli")
	if err != nil || mustJSON(t, p) != mustJSON(t, wantP) {
		t.Fatalf("the person over HTTP differs from the service's (%v)", err)
	}
	d, err := it.Determine(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wantD, err := s.cases.Determine(local("off-it"), id)
	if err != nil || mustJSON(t, d) != mustJSON(t, wantD) {
		t.Fatalf("the determination over HTTP:\n%s\nthe service's:\n%s (%v)", mustJSON(t, d), mustJSON(t, wantD), err)
	}
	log := reads()
	if len(log) != 4 {
		t.Fatalf("%d reads logged, want 4", len(log))
	}
	purposes := map[string]int{}
	for _, a := range log {
		if a.Actor != "off-it" {
			t.Errorf("a read logged for %s, want off-it", a.Actor)
		}
		purposes[a.Purpose]++
	}
	if purposes["cli"] != 2 || purposes["determination"] != 2 {
		t.Errorf("purposes logged: %v", purposes)
	}
	if _, err := s.client("off-de").Person(ctx, id, ""); code(err) != solidarity.ENOTFOUND || len(reads()) != 4 {
		t.Fatalf("DE reads Italy's person: %v, %d reads logged", err, len(reads()))
	}
}
