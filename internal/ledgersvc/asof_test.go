package ledgersvc_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/internal/report"
)

// Issue 12 §3: `balances --as-of 2026-06-01` counted deliveries recorded later. As of a
// day, the balances are the ledger as it stood at that day's end: a delivery or a
// pledge recorded later does not count, on every path that takes a date.
func TestBalancesAsOfLeavesOutLaterEntries(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	at := func(day string) {
		d, _ := time.Parse(time.DateOnly, day)
		f.now = d.Add(10 * time.Hour)
	}
	at("2027-03-01")
	f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 100}, "")
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 10}, "")
	at("2027-06-02")
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 20}, "")
	f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 500}, "")
	at("2027-09-01")
	for _, c := range []struct {
		asOf         string
		reloc        int64
		financialEUR string
	}{{"2027-06-01", 10, "0.00"}, {"2027-06-02", 30, "5.00"}, {"", 30, "5.00"}, {"2027-02-01", 0, ""}, {"2027-12-31", 30, "5.00"}} {
		when, err := solidarity.ParseAsOf(c.asOf)
		if err != nil {
			t.Fatal(err)
		}
		b, err := reported(f.svc.Balances(f.coord, 2027, when))
		if err != nil {
			t.Fatal(err)
		}
		de := stateBalance(t, b, "DE")
		fin := ""
		if de.Pledged != nil {
			fin = string(de.Pledged.FinancialEUR)
		}
		if c.asOf != "" && !strings.HasPrefix(b.AsOf, c.asOf) {
			t.Errorf("as of %q: the balances say as of %s", c.asOf, b.AsOf) // a day to come keeps its date (the pace)
		}
		if de.Delivered.Relocations != c.reloc || fin != c.financialEUR {
			t.Errorf("as of %q: DE delivered %d, financial pledge %q; want %d, %q", c.asOf, de.Delivered.Relocations, fin, c.reloc, c.financialEUR)
		}
	}
}

func stateBalance(t interface {
	Helper()
	Fatalf(string, ...any)
}, b *report.Balances, m solidarity.MemberState) report.StateBalance {
	t.Helper()
	for _, s := range b.States {
		if s.State == string(m) {
			return s
		}
	}
	t.Fatalf("no %s in the balances", m)
	return report.StateBalance{}
}

// write is one accepted write of the model: what the ledger holds.
type write struct {
	at    time.Time
	state solidarity.MemberState
	kind  solidarity.EntryType // a delivery type, or PledgeMade
	n     int64                // relocations or cents
	pl    solidarity.PledgePayload
}

// For any sequence of writes through the service — pledges, deliveries of random
// amounts up to far beyond the bounds, recorded at random times in any order — every
// accepted write keeps every read answering (no error), the ledger verifies, the
// totals are the sum of the entries, and the balances as of any day equal the ones
// computed from the entries recorded up to that day's end (issue 12 §2 and §3).
func TestWritesKeepReadsAndAsOfIsAPrefix(t *testing.T) {
	f := newFixture(t)
	year := 2030
	states := []solidarity.MemberState{"DE", "FR", "AT"}
	officers := map[solidarity.MemberState]*solidarity.User{"DE": officerDE, "FR": officerFR,
		"AT": {ID: 9, Name: "at", Role: solidarity.Officer, State: "AT"}}
	rapid.Check(t, func(rt *rapid.T) {
		// A cycle of its own for each run, on a new ledger when the pool years run out.
		if year++; year > 2200 {
			f, year = newFixture(t), 2031
		}
		y := fmt.Sprint(year)
		start := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		f.now = start
		if _, _, err := f.svc.CreateCycle(f.coord, strings.ReplaceAll(testCycle, "2027", y), ""); err != nil {
			rt.Fatal(err)
		}
		amount := rapid.OneOf(rapid.Int64Range(1, 1000), rapid.Int64Range(-5, solidarity.MaxPersons+5),
			rapid.Int64Range(1, 1<<62), rapid.SampledFrom([]int64{int64(solidarity.MaxCents), int64(solidarity.MaxCents) + 1, 1<<63 - 1}))
		var model []write
		for range rapid.IntRange(1, 25).Draw(rt, "writes") {
			// Times in any order, on the first 60 days of the cycle.
			f.now = start.Add(time.Duration(rapid.Int64Range(0, 60*24*3600-1).Draw(rt, "second")) * time.Second)
			m := rapid.SampledFrom(states).Draw(rt, "state")
			ctx := as(officers[m])
			w := write{at: f.now, state: m}
			var err error
			switch k := rapid.IntRange(0, 3).Draw(rt, "kind"); k {
			case 0, 1, 2:
				w.kind = []solidarity.EntryType{solidarity.RelocationDelivered, solidarity.PaymentMade, solidarity.AlternativeDelivered}[k]
				w.n = amount.Draw(rt, "amount")
				p := solidarity.DeliveryPayload{OverDelivery: rapid.Bool().Draw(rt, "over")}
				if k == 0 {
					p.Relocations = w.n
				} else {
					p.EURCents = solidarity.Cents(w.n)
				}
				_, _, err = f.svc.Deliver(ctx, year, m, w.kind, p, "")
			default:
				w.kind = solidarity.PledgeMade
				w.pl.Type = rapid.SampledFrom(solidarity.PledgeTypes()).Draw(rt, "type")
				if w.pl.Type.InUnits() {
					w.pl.Relocations = amount.Draw(rt, "amount")
				} else if w.pl.Type != solidarity.NoPledge {
					w.pl.EURCents = solidarity.Cents(amount.Draw(rt, "amount"))
				}
				_, _, err = f.svc.Pledge(ctx, year, m, w.pl, "")
			}
			switch code(err) {
			case "":
				model = append(model, w)
			case solidarity.EINVALID, solidarity.ECONFLICT:
			default:
				rt.Fatalf("write %+v: %v", w, err)
			}
		}
		f.now = start.AddDate(0, 6, 0) // later than every write
		days := []string{""}
		for range 3 {
			days = append(days, start.AddDate(0, 0, rapid.IntRange(-1, 61).Draw(rt, "day")).Format(time.DateOnly))
		}
		// A time within a day, too (the API takes RFC 3339 times).
		days = append(days, start.Add(time.Duration(rapid.Int64Range(0, 60*24*3600).Draw(rt, "instant"))*time.Second).Format(time.RFC3339))
		for _, day := range days {
			when, err := solidarity.ParseAsOf(day)
			if err != nil {
				rt.Fatal(err)
			}
			b, err := reported(f.svc.Balances(f.coord, year, when))
			if err != nil {
				rt.Fatalf("balances as of %q: %v", day, err)
			}
			for _, m := range states {
				want := expected(model, m, when)
				got := stateBalance(rt, b, m)
				if got.Delivered.Relocations != want.reloc || got.Delivered.PaymentsEUR != report.EUR(want.pay) || got.Delivered.AlternativeEUR != report.EUR(want.alt) {
					rt.Fatalf("as of %q, %s delivered %+v; the entries up to then sum to %+v", day, m, got.Delivered, want)
				}
				if got.PledgeKnown != want.known {
					rt.Fatalf("as of %q, %s pledge known %v, want %v", day, m, got.PledgeKnown, want.known)
				}
				if want.known {
					p := got.Pledged
					if p.RelocationApplicants != want.pl.RelocationApplicants || p.RelocationBeneficiaries != want.pl.RelocationBeneficiaries ||
						p.Offsets != want.pl.Offsets || p.FinancialEUR != report.EUR(want.pl.Financial) || p.AlternativeEUR != report.EUR(want.pl.Alternative) {
						rt.Fatalf("as of %q, %s pledged %+v, want %+v", day, m, *p, want.pl)
					}
				}
			}
		}
		v, err := f.svc.Verify(f.coord)
		if err != nil || !v.OK {
			rt.Fatalf("verify: %+v, %v", v, err)
		}
	})
}

type expect struct {
	reloc    int64
	pay, alt solidarity.Cents
	known    bool
	pl       struct {
		RelocationApplicants, RelocationBeneficiaries, Offsets int64
		Financial, Alternative                                 solidarity.Cents
	}
}

// expected is the model's view of state m as of cut (zero: every write): sums of the
// deliveries, and the latest pledge per type, a pledge of none replacing them all.
func expected(model []write, m solidarity.MemberState, cut time.Time) expect {
	var e expect
	pledges := map[solidarity.PledgeType]solidarity.PledgePayload{}
	for _, w := range model {
		if w.state != m || !cut.IsZero() && w.at.After(cut) {
			continue
		}
		switch w.kind {
		case solidarity.RelocationDelivered:
			e.reloc += w.n
		case solidarity.PaymentMade:
			e.pay += solidarity.Cents(w.n)
		case solidarity.AlternativeDelivered:
			e.alt += solidarity.Cents(w.n)
		case solidarity.PledgeMade:
			for t := range pledges {
				if w.pl.Type == solidarity.NoPledge || t == solidarity.NoPledge {
					delete(pledges, t)
				}
			}
			pledges[w.pl.Type] = w.pl
		}
	}
	e.known = len(pledges) > 0
	for t, p := range pledges {
		switch t {
		case solidarity.RelocationApplicants:
			e.pl.RelocationApplicants = p.Relocations
		case solidarity.RelocationBeneficiaries:
			e.pl.RelocationBeneficiaries = p.Relocations
		case solidarity.Offset:
			e.pl.Offsets = p.Relocations
		case solidarity.Financial:
			e.pl.Financial = p.EURCents
		case solidarity.Alternative:
			e.pl.Alternative = p.EURCents
		}
	}
	return e
}
