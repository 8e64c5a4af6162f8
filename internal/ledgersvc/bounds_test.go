package ledgersvc_test

import (
	"math"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// Issue 12 §2: a delivery of math.MaxInt64 after one relocation wrapped the pledge
// check (1 + MaxInt64 < 0 ≤ pledge), and the totals projection overflowed: every later
// read of the cycle failed. A figure above the domain bounds is refused where it comes
// in, and nothing is written.
func TestHugeFiguresRefused(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 500}, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 1}, ""); err != nil {
		t.Fatal(err)
	}
	head := func() int64 {
		n, _, err := f.svc.Store.Head(f.coord)
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := head()
	for name, call := range map[string]func() error{
		"delivery MaxInt64": func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: math.MaxInt64}, "")
			return err
		},
		"over-delivery MaxInt64": func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: math.MaxInt64, OverDelivery: true}, "")
			return err
		},
		"payment above MaxCents": func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.PaymentMade, solidarity.DeliveryPayload{EURCents: solidarity.MaxCents + 1, OverDelivery: true}, "")
			return err
		},
		"pledge MaxInt64": func() error {
			_, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationBeneficiaries, Relocations: math.MaxInt64}, "")
			return err
		},
		"pledge 10^18+1 cents": func() error {
			_, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1_000_000_000_000_000_001}, "")
			return err
		},
		"pledge above MaxRelocations": func() error {
			_, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Offset, Relocations: solidarity.MaxRelocations + 1}, "")
			return err
		},
		"offset applications MaxInt64": func() error {
			_, _, err := f.svc.RequestOffset(as(officerIT), 2027, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: math.MaxInt64}, "")
			return err
		},
		"deduction MaxInt64": func() error {
			_, _, err := f.svc.RequestDeduction(de, 2027, "DE", solidarity.DeductionPayload{Article: "Art. 61", Relocations: math.MaxInt64}, "")
			return err
		},
	} {
		if err := call(); code(err) != solidarity.EINVALID {
			t.Errorf("%s: got %v, want %s", name, err, solidarity.EINVALID)
		}
	}
	if after := head(); after != before {
		t.Fatalf("refused writes wrote %d entries", after-before)
	}
	b, err := reported(f.svc.Balances(f.coord, 2027, f.now))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range b.States {
		if s.State == "DE" && s.Delivered.Relocations != 1 {
			t.Fatalf("DE delivered %d, want 1", s.Delivered.Relocations)
		}
	}
}

// Issue 12 §2: two maximal pledges wrapped the Union total to −2; one flipped Art. 63(1).
// Within the bounds, the largest pledges of every state still sum exactly.
func TestLargestPledgesSumExactly(t *testing.T) {
	f := newFixture(t)
	for _, m := range []solidarity.MemberState{"DE", "FR", "AT", "ES"} {
		for _, p := range []solidarity.PledgePayload{
			{Type: solidarity.RelocationApplicants, Relocations: solidarity.MaxRelocations},
			{Type: solidarity.RelocationBeneficiaries, Relocations: solidarity.MaxRelocations},
			{Type: solidarity.Financial, EURCents: solidarity.MaxCents},
			{Type: solidarity.Alternative, EURCents: solidarity.MaxCents},
		} {
			if _, _, err := f.svc.Pledge(f.coord, 2027, m, p, ""); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := reported(f.svc.Balances(f.coord, 2027, f.now))
	if err != nil {
		t.Fatal(err)
	}
	if got := b.Pool.Union.RelocationPledges; got != 8*solidarity.MaxRelocations {
		t.Fatalf("Union relocation pledges %d, want %d", got, 8*solidarity.MaxRelocations)
	}
}

// Issue 12 §3: a pledge without an amount replaced DE's 500-relocation pledge with
// nothing. A pledge of a counted type needs a positive amount; "none" is explicit.
func TestPledgeNeedsAmount(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 500}, ""); err != nil {
		t.Fatal(err)
	}
	for _, p := range []solidarity.PledgePayload{
		{Type: solidarity.RelocationApplicants},
		{Type: solidarity.RelocationBeneficiaries},
		{Type: solidarity.Offset},
		{Type: solidarity.Financial},
		{Type: solidarity.Alternative},
		{Type: solidarity.Financial, Relocations: 5},
		{Type: solidarity.NoPledge, Relocations: 1},
		{Type: ""},
	} {
		if _, _, err := f.svc.Pledge(de, 2027, "DE", p, ""); code(err) != solidarity.EINVALID {
			t.Errorf("pledge %+v: got %v, want %s", p, err, solidarity.EINVALID)
		}
	}
	b, err := reported(f.svc.Balances(f.coord, 2027, f.now))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range b.States {
		if s.State == "DE" && (s.Pledged == nil || s.Pledged.RelocationApplicants != 500) {
			t.Fatalf("DE's pledge after refused writes: %+v", s.Pledged)
		}
	}
}

// A pledge of nothing is explicit (type none) and replaces the state's pledges; a later
// pledge of something replaces it in turn.
func TestPledgeNoneReplaces(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	pledged := func() (bool, int64, string) {
		t.Helper()
		b, err := reported(f.svc.Balances(f.coord, 2027, f.now))
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range b.States {
			if s.State == "DE" {
				if !s.PledgeKnown {
					return false, 0, ""
				}
				return true, s.Pledged.RelocationApplicants, string(s.Pledged.FinancialEUR)
			}
		}
		t.Fatal("no DE")
		return false, 0, ""
	}
	for _, step := range []struct {
		p     solidarity.PledgePayload
		reloc int64
		fin   string
	}{
		{solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 500}, 500, "0.00"},
		{solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, 500, "1.00"},
		{solidarity.PledgePayload{Type: solidarity.NoPledge}, 0, "0.00"},
		{solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 7}, 7, "0.00"},
	} {
		if _, _, err := f.svc.Pledge(de, 2027, "DE", step.p, ""); err != nil {
			t.Fatal(err)
		}
		known, reloc, fin := pledged()
		if !known || reloc != step.reloc || fin != step.fin {
			t.Fatalf("after %+v: known %v, relocations %d, financial %s; want %d, %s", step.p, known, reloc, fin, step.reloc, step.fin)
		}
	}
}

// Issue 12: a stored deduction's fraction is read with bound.Rat, as checkExtent read
// it when the service wrote it, never big.Rat.SetString: an entry written around the
// service with "1e-1000000" (32 ms and 0.7 MB of SetString on every read) or a
// hexadecimal fraction makes the balances fail with EINVALID naming the field and the
// entry, rather than be read.
func TestStoredDeductionFractionBounded(t *testing.T) {
	for _, fraction := range []string{"1e-1000000", "0x1p-1", "1/2"} {
		t.Run(fraction, func(t *testing.T) {
			f := newFixture(t)
			e := &solidarity.Entry{Cycle: 2027, Type: solidarity.DeductionDecided, State: "DE", Ref: "DED-2027-DE-1",
				Actor: "around the service", At: f.now, LegalBasis: "Art. 61(4) AMMR",
				Payload: []byte(`{"article":"Art. 61","granted":true,"fraction":"` + fraction + `","act":"CID 1"}`)}
			if _, _, err := f.svc.Store.Append(f.coord, "", e, nil); err != nil {
				t.Fatal(err)
			}
			_, err := reported(f.svc.Balances(as(auditor), 2027, time.Time{}))
			if fraction == "1/2" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if code(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "fraction") || !strings.Contains(err.Error(), "DED-2027-DE-1") {
				t.Fatalf("balances with a stored fraction %q: %v, want EINVALID naming the fraction and the entry", fraction, err)
			}
		})
	}
}
